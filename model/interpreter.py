"""The plain interpretation of the tables: each kernel is one dict lookup.

This is the oracle the generated kernels are compared with — by the exhaustive tests
in ``tests/model`` and by CrossHair's ``diffbehavior``.  It is deliberately the most
obvious reading of a table there is: ``table[state][trigger]``.  It shares nothing with
the generator but the tables themselves, so a generator bug cannot hide in both.

A missing cell raises ``KeyError`` here; the generator refuses such a table outright
(``codegen`` checks totality), so the difference never reaches the reducer.
"""

from __future__ import annotations

from .admission import Admission, IdentityDecision, MatchedItem, MatchTrigger
from .annotations import AdditionType, PartAddition, PartMerge, PositionView
from .catalogue import ChannelKind, Terminal
from .execution import (
    Declared,
    EnvironmentType,
    Execution,
    ExecutionValue,
    Runner,
    SearchExecution,
    ShellEnvironment,
    Stop,
)
from .lifecycle import Transition
from .payload import PayloadDecision
from .responses import Boundary, ClientFrame, FrameType, Held, IdMatch, Opening, OpeningType
from .routing import Route
from .slots import SlotTransition
from .tables import REFERENCE, KernelSet, ModelTables
from .vocabulary import (
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
    SlotFit,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
    TypeFit,
)


def table_kernels(tables: ModelTables = REFERENCE) -> KernelSet:
    """The kernels of ``tables``, each a direct lookup in its table."""

    def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
        """``tables.lifecycle[state][trigger]``."""
        return tables.lifecycle[state][trigger]

    def slot(state: SlotState, trigger: SlotTrigger) -> SlotTransition:
        """``tables.slots[state][trigger]``."""
        return tables.slots[state][trigger]

    def route(slot_view: SlotView, id_view: IdView) -> Route:
        """``tables.routing[slot_view][id_view]``."""
        return tables.routing[slot_view][id_view]

    def namespace(kind: ItemKind) -> ItemKind:
        """``tables.namespaces[kind]``."""
        return tables.namespaces[kind]

    def admit_added(view: AddedView) -> Admission:
        """``tables.added_admission[view]``."""
        return tables.added_admission[view]

    def fit(type_fit: TypeFit, call_fit: CallFit, id_fit: IdFit, slot_fit: SlotFit) -> Fit:
        """``tables.matching[type_fit][call_fit][id_fit][slot_fit]``."""
        return tables.matching[type_fit][call_fit][id_fit][slot_fit]

    def admit_done(view: MatchView) -> Admission:
        """``tables.done_admission[view]``."""
        return tables.done_admission[view]

    def payload(held: PayloadHeld, relation: OfferRelation) -> PayloadDecision:
        """``tables.payload[held][relation]``."""
        return tables.payload[held][relation]

    def identity(
        field: IdentityField, stage: MergeStage, relation: IdentityRelation
    ) -> IdentityDecision:
        """``tables.identity[field][stage][relation]``."""
        return tables.identity[field][stage][relation]

    def reclassify(trigger: Trigger, state: ChannelState) -> Trigger:
        """``tables.reclassification[trigger][state]``."""
        return tables.reclassification[trigger][state]

    def boundary(opening: Opening, held: Held, match: IdMatch) -> Boundary:
        """``tables.boundary[opening][held][match]``."""
        return tables.boundary[opening][held][match]

    def frame(kind: ClientFrame) -> Boundary:
        """``tables.frames[kind]``."""
        return tables.frames[kind]

    def fills_slot(item: MatchedItem) -> bool:
        """``tables.fills_missing_slot[item]``."""
        return tables.fills_missing_slot[item]

    def merge_part(view: PositionView) -> PartMerge:
        """``tables.part_merge[view]``."""
        return tables.part_merge[view]

    def terminal_status(terminal: Terminal) -> ResponseStatus:
        """``tables.terminal_status[terminal]``."""
        return tables.terminal_status[terminal]

    def amends(terminal: Terminal) -> bool:
        """``tables.amendable[terminal]``."""
        return tables.amendable[terminal]

    def execute(stop: Stop) -> Execution:
        """``tables.execution[stop]``."""
        return tables.execution[stop]

    def names_one(field: IdentityField) -> bool:
        """``tables.names_one_entry[field]``."""
        return tables.names_one_entry[field]

    def shell_runner(environment: ShellEnvironment) -> Runner:
        """``tables.environment_runner[environment]``."""
        return tables.environment_runner[environment]

    def search_runner(execution: SearchExecution) -> Runner:
        """``tables.execution_runner[execution]``."""
        return tables.execution_runner[execution]

    def declares(answer: Declared) -> Stop:
        """``tables.declared[answer]``."""
        return tables.declared[answer]

    def reads_execution(value: ExecutionValue) -> SearchExecution:
        """``tables.execution_values[value]``."""
        return tables.execution_values[value]

    def reads_environment(kind: EnvironmentType) -> ShellEnvironment:
        """``tables.environment_types[kind]``."""
        return tables.environment_types[kind]

    def reads_opening(kind: OpeningType) -> Opening:
        """``tables.openings[kind]``."""
        return tables.openings[kind]

    def reads_frame(kind: FrameType) -> ClientFrame:
        """``tables.client_frames[kind]``."""
        return tables.client_frames[kind]

    def reads_matched(trigger: MatchTrigger) -> MatchedItem:
        """``tables.matched_items[trigger]``."""
        return tables.matched_items[trigger]

    def reads_addition(kind: AdditionType) -> PartAddition:
        """``tables.part_additions[kind]``."""
        return tables.part_additions[kind]

    def withholds(verdict: Execution) -> bool:
        """``tables.withheld[verdict]``."""
        return tables.withheld[verdict]

    def notes(effect: Effect) -> Code | None:
        """``tables.note_codes[effect]``."""
        return tables.note_codes[effect]

    def waives(effect: Effect) -> bool:
        """``tables.resume_waived[effect]``."""
        return tables.resume_waived[effect]

    def announces(kind: ChannelKind) -> bool:
        """``tables.announced_parts[kind]``."""
        return tables.announced_parts[kind]

    return KernelSet(
        lifecycle, slot, route, namespace, admit_added, fit, admit_done, payload, identity,
        reclassify, boundary, frame, fills_slot, merge_part, terminal_status, amends,
        execute, names_one, shell_runner, search_runner, declares, reads_execution,
        reads_environment, reads_opening, reads_frame, reads_matched, reads_addition,
        withholds, notes, waives, announces,
    )
