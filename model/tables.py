"""All decision tables of the model, bundled so that a projection takes them as one value.

The generator, the Z3 encoding and the transitions interpreter each take a
``ModelTables``.  The default bundle is the reference model; a *mutant* is the same
bundle with one row changed (``dataclasses.replace`` plus a copied table), which is how
the proofs show that they can fail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .admission import (
    ADDED_ADMISSION,
    DONE_ADMISSION,
    FILLS_MISSING_SLOT,
    IDENTITY,
    MATCHED_ITEMS,
    MATCHING,
    NAMES_ONE_ENTRY,
    NAMESPACES,
    Admission,
    IdentityDecision,
    IdentityTable,
    MatchedItem,
    MatchingTable,
    MatchTrigger,
)
from .annotations import (
    PART_ADDITIONS,
    PART_MERGE,
    AdditionType,
    PartAddition,
    PartMerge,
    PositionView,
)
from .catalogue import ANNOUNCED_PARTS, TERMINAL_STATUS, ChannelKind, Terminal
from .channels import RECLASSIFICATION, ReclassificationTable
from .execution import (
    DECLARED,
    ENVIRONMENT_RUNNER,
    ENVIRONMENT_TYPES,
    EXECUTION,
    EXECUTION_RUNNER,
    EXECUTION_VALUES,
    WITHHELD,
    Declared,
    EnvironmentType,
    Execution,
    ExecutionTable,
    ExecutionValue,
    Runner,
    SearchExecution,
    ShellEnvironment,
    Stop,
)
from .lifecycle import LIFECYCLE, LifecycleTable, Transition
from .payload import PAYLOAD, PayloadDecision, PayloadTable
from .recordkit import NamedTuple, field, record
from .responses import (
    AMENDABLE_TERMINALS,
    BOUNDARY,
    CLIENT_FRAMES,
    FRAMES,
    OPENINGS,
    Boundary,
    BoundaryTable,
    ClientFrame,
    FrameType,
    Held,
    IdMatch,
    Opening,
    OpeningType,
)
from .routing import ROUTING, Route, RoutingTable
from .slots import SLOTS, SlotTable, SlotTransition
from .vocabulary import (
    NOTE_CODES,
    RESTATED,
    RESUME_WAIVED,
    AddedView,
    CallFit,
    ChannelState,
    Code,
    Effect,
    EntryState,
    Fit,
    IdentityField,
    IdentityRelation,
    IdFit,
    IdView,
    ItemKind,
    MatchView,
    MergeStage,
    OfferRelation,
    PayloadHeld,
    ResponseStatus,
    Restatement,
    SlotFit,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
    TypeFit,
)


@record(frozen=True)
class ModelTables:
    """One complete set of tables: the reference model, or a named mutant of it."""

    name: str = "reference"
    lifecycle: LifecycleTable = field(default_factory=lambda: LIFECYCLE)
    slots: SlotTable = field(default_factory=lambda: SLOTS)
    routing: RoutingTable = field(default_factory=lambda: ROUTING)
    namespaces: dict[ItemKind, ItemKind] = field(default_factory=lambda: NAMESPACES)
    added_admission: dict[AddedView, Admission] = field(default_factory=lambda: ADDED_ADMISSION)
    matching: MatchingTable = field(default_factory=lambda: MATCHING)
    done_admission: dict[MatchView, Admission] = field(default_factory=lambda: DONE_ADMISSION)
    payload: PayloadTable = field(default_factory=lambda: PAYLOAD)
    identity: IdentityTable = field(default_factory=lambda: IDENTITY)
    reclassification: ReclassificationTable = field(default_factory=lambda: RECLASSIFICATION)
    boundary: BoundaryTable = field(default_factory=lambda: BOUNDARY)
    frames: dict[ClientFrame, Boundary] = field(default_factory=lambda: FRAMES)
    fills_missing_slot: dict[MatchedItem, bool] = field(default_factory=lambda: FILLS_MISSING_SLOT)
    part_merge: dict[PositionView, PartMerge] = field(default_factory=lambda: PART_MERGE)
    terminal_status: dict[Terminal, ResponseStatus] = field(default_factory=lambda: TERMINAL_STATUS)
    amendable: dict[Terminal, bool] = field(default_factory=lambda: AMENDABLE_TERMINALS)
    execution: ExecutionTable = field(default_factory=lambda: EXECUTION)
    names_one_entry: dict[IdentityField, bool] = field(default_factory=lambda: NAMES_ONE_ENTRY)
    environment_runner: dict[ShellEnvironment, Runner] = field(
        default_factory=lambda: ENVIRONMENT_RUNNER
    )
    execution_runner: dict[SearchExecution, Runner] = field(
        default_factory=lambda: EXECUTION_RUNNER
    )
    declared: dict[Declared, Stop] = field(default_factory=lambda: DECLARED)
    execution_values: dict[ExecutionValue, SearchExecution] = field(
        default_factory=lambda: EXECUTION_VALUES
    )
    environment_types: dict[EnvironmentType, ShellEnvironment] = field(
        default_factory=lambda: ENVIRONMENT_TYPES
    )
    openings: dict[OpeningType, Opening] = field(default_factory=lambda: OPENINGS)
    client_frames: dict[FrameType, ClientFrame] = field(default_factory=lambda: CLIENT_FRAMES)
    matched_items: dict[MatchTrigger, MatchedItem] = field(default_factory=lambda: MATCHED_ITEMS)
    part_additions: dict[AdditionType, PartAddition] = field(
        default_factory=lambda: PART_ADDITIONS
    )
    withheld: dict[Execution, bool] = field(default_factory=lambda: WITHHELD)
    note_codes: dict[Effect, Code | None] = field(default_factory=lambda: NOTE_CODE_CELLS)
    resume_waived: dict[Effect, bool] = field(default_factory=lambda: RESUME_WAIVED_CELLS)
    announced_parts: dict[ChannelKind, bool] = field(
        default_factory=lambda: ANNOUNCED_PART_CELLS
    )
    restated: dict[Trigger, Restatement] = field(default_factory=lambda: RESTATED)


NOTE_CODE_CELLS: dict[Effect, Code | None] = {effect: NOTE_CODES.get(effect) for effect in Effect}
"""``vocabulary.NOTE_CODES`` with a cell for every effect (``None``: it reports nothing),
so that the kernel ``notes`` is total and each cell can be mutated."""

RESUME_WAIVED_CELLS: dict[Effect, bool] = {effect: effect in RESUME_WAIVED for effect in Effect}
"""``vocabulary.RESUME_WAIVED`` as one cell per effect (the kernel ``waives``)."""

ANNOUNCED_PART_CELLS: dict[ChannelKind, bool] = {
    kind: kind in ANNOUNCED_PARTS for kind in ChannelKind
}
"""``catalogue.ANNOUNCED_PARTS`` as one cell per channel kind (the kernel ``announces``)."""


REFERENCE = ModelTables()
"""The reference model: the tables this project stands behind."""


class KernelSet(NamedTuple):
    """The decision functions the driver calls; one per table.

    The generated module provides the reference set; ``interpreter.table_kernels`` and
    ``machine.machine_kernels`` provide independent interpretations of the same tables.
    """

    lifecycle: Callable[[EntryState, Trigger], Transition]
    slot: Callable[[SlotState, SlotTrigger], SlotTransition]
    route: Callable[[SlotView, IdView], Route]
    namespace: Callable[[ItemKind], ItemKind]
    admit_added: Callable[[AddedView], Admission]
    fit: Callable[[TypeFit, CallFit, IdFit, SlotFit], Fit]
    admit_done: Callable[[MatchView], Admission]
    payload: Callable[[PayloadHeld, OfferRelation], PayloadDecision]
    identity: Callable[[IdentityField, MergeStage, IdentityRelation], IdentityDecision]
    reclassify: Callable[[Trigger, ChannelState], Trigger]
    boundary: Callable[[Opening, Held, IdMatch], Boundary]
    frame: Callable[[ClientFrame], Boundary]
    fills_slot: Callable[[MatchedItem], bool]
    merge_part: Callable[[PositionView], PartMerge]
    terminal_status: Callable[[Terminal], ResponseStatus]
    amends: Callable[[Terminal], bool]
    execute: Callable[[Stop], Execution]
    names_one: Callable[[IdentityField], bool]
    shell_runner: Callable[[ShellEnvironment], Runner]
    search_runner: Callable[[SearchExecution], Runner]
    declares: Callable[[Declared], Stop]
    reads_execution: Callable[[ExecutionValue], SearchExecution]
    reads_environment: Callable[[EnvironmentType], ShellEnvironment]
    reads_opening: Callable[[OpeningType], Opening]
    reads_frame: Callable[[FrameType], ClientFrame]
    reads_matched: Callable[[MatchTrigger], MatchedItem]
    reads_addition: Callable[[AdditionType], PartAddition]
    withholds: Callable[[Execution], bool]
    notes: Callable[[Effect], Code | None]
    waives: Callable[[Effect], bool]
    announces: Callable[[ChannelKind], bool]


def tables_by_kernel(tables: ModelTables) -> dict[str, Mapping[Any, Any]]:
    """The table behind each kernel of ``KernelSet``, by kernel name."""
    return {
        "lifecycle": tables.lifecycle,
        "slot": tables.slots,
        "route": tables.routing,
        "namespace": tables.namespaces,
        "admit_added": tables.added_admission,
        "fit": tables.matching,
        "admit_done": tables.done_admission,
        "payload": tables.payload,
        "identity": tables.identity,
        "reclassify": tables.reclassification,
        "boundary": tables.boundary,
        "frame": tables.frames,
        "fills_slot": tables.fills_missing_slot,
        "merge_part": tables.part_merge,
        "terminal_status": tables.terminal_status,
        "amends": tables.amendable,
        "execute": tables.execution,
        "names_one": tables.names_one_entry,
        "shell_runner": tables.environment_runner,
        "search_runner": tables.execution_runner,
        "declares": tables.declared,
        "reads_execution": tables.execution_values,
        "reads_environment": tables.environment_types,
        "reads_opening": tables.openings,
        "reads_frame": tables.client_frames,
        "reads_matched": tables.matched_items,
        "reads_addition": tables.part_additions,
        "withholds": tables.withheld,
        "notes": tables.note_codes,
        "waives": tables.resume_waived,
        "announces": tables.announced_parts,
    }


def table_cells(table: Mapping[Any, Any]) -> list[tuple[tuple[Any, ...], Any]]:
    """A nested table's cells as (key path, value), in the table's order."""
    cells: list[tuple[tuple[Any, ...], Any]] = []
    for key, inner in table.items():
        if isinstance(inner, Mapping):
            cells.extend(((key, *path), value) for path, value in table_cells(inner))
        else:
            cells.append(((key,), inner))
    return cells
