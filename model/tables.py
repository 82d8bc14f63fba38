"""All decision tables of the model, bundled so that a projection takes them as one value.

The generator, the Z3 encoding and the transitions interpreter each take a
``ModelTables``.  The default bundle is the reference model; a *mutant* is the same
bundle with one row changed (``dataclasses.replace`` plus a copied table), which is how
the proofs show that they can fail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from .admission import ADDED_ADMISSION, DONE_ADMISSION, IDENTITY, Admission, IdentityDecision
from .lifecycle import LIFECYCLE, LifecycleTable, Transition
from .payload import PAYLOAD, PayloadDecision, PayloadTable
from .routing import ROUTING, Route, RoutingTable
from .slots import SLOTS, SlotTable, SlotTransition
from .vocabulary import (
    AddedView,
    CandidateRelation,
    EntryState,
    IdentityRelation,
    IdView,
    MatchView,
    PayloadHeld,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)


@dataclass(frozen=True)
class ModelTables:
    """One complete set of tables: the reference model, or a named mutant of it."""

    name: str = "reference"
    lifecycle: LifecycleTable = field(default_factory=lambda: LIFECYCLE)
    slots: SlotTable = field(default_factory=lambda: SLOTS)
    routing: RoutingTable = field(default_factory=lambda: ROUTING)
    added_admission: dict[AddedView, Admission] = field(default_factory=lambda: ADDED_ADMISSION)
    done_admission: dict[MatchView, Admission] = field(default_factory=lambda: DONE_ADMISSION)
    payload: PayloadTable = field(default_factory=lambda: PAYLOAD)
    identity: dict[IdentityRelation, IdentityDecision] = field(default_factory=lambda: IDENTITY)


REFERENCE = ModelTables()
"""The reference model: the tables this project stands behind."""


class KernelSet(NamedTuple):
    """The seven decision functions the driver calls; one per table.

    The generated module provides the reference set; ``interpreter.table_kernels`` and
    ``machine.machine_kernels`` provide independent interpretations of the same tables.
    """

    lifecycle: Callable[[EntryState, Trigger], Transition]
    slot: Callable[[SlotState, SlotTrigger], SlotTransition]
    route: Callable[[SlotView, IdView], Route]
    admit_added: Callable[[AddedView], Admission]
    admit_done: Callable[[MatchView], Admission]
    payload: Callable[[PayloadHeld, CandidateRelation], PayloadDecision]
    identity: Callable[[IdentityRelation], IdentityDecision]
