"""What CrossHair analyses: typed wrappers around the generated kernels.

Theory of operation
-------------------
CrossHair analyses module-level functions with type hints.  This module gives it two
kinds of them; ``tests/proofs/test_crosshair.py`` runs CrossHair on them.

1. **Contracts** (``crosshair check``).  Each generated kernel already carries the
   contract "moves only along table edges"; the edges are generated from the same
   table as the code, so that contract catches a generator bug but never a wrong row.
   The ``*_move``, ``*_choice`` and ``admit_*`` wrappers here state what a row must
   *mean* — the model's invariants read per cell (``complete_once``,
   ``slot_first_write``, ``late_is_inert``, ``nothing_lost``,
   ``executable_needs_completion``, ``empty_never_erases``, ``latest_nonempty_wins``,
   ``first_admission_wins``, and who runs a call: ``execute_choice``) — so a wrong
   row is a counterexample.  ``route_target``
   replays the driver's routing of one payload event (``core.step._on_scoped``) around
   the ``route`` kernel and says an event is never guessed onto an entry: the target is
   the one entry its keys agree on.

2. **Equivalence** (``crosshair diffbehavior``).  ``generated_<kernel>`` and
   ``interpreted_<kernel>`` decide the same cell with the generated kernel and with the
   table interpreter (``model.interpreter``).  They return ``repr`` of the result, not
   the result: crosshair-tool 0.0.113 compares results with ``flexible_equal``, which
   takes any two members of one Enum as equal (Enum equality is identity), so on enum
   results ``diffbehavior`` could never see a difference.  ``repr`` names the class and
   member of every enum in a result, so two strings are equal exactly when the results
   are.

The kernels under analysis are the committed reference kernels unless the environment
variable ``RESPONSES_ORACLE_CROSSHAIR_MUTANT`` names a model in ``proofs.mutants``:
then the same wrappers run that mutant's generated kernels (``codegen.load_kernels``),
which is how the tests show that each check can fail.  The interpreter side always
reads the reference tables.
"""

from __future__ import annotations

import os

from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.core.step import resolve_route
from responses_oracle.model.admission import Admission, IdentityDecision
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.execution import EXECUTABLE, Execution, Stop  # noqa: F401
from responses_oracle.model.interpreter import table_kernels

# Names marked F401 are read only by the PEP 316 contracts, which run in this namespace.
from responses_oracle.model.lifecycle import (  # noqa: F401
    CLOSED_STATES,
    CONFIRMING_STATES,
    OPEN_STATES,
    Transition,
)
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (  # noqa: F401
    CONFIRMING_TRIGGERS,
    ITEM_TRIGGERS,
    LATE_EFFECTS,
    AddedView,
    AdmissionAction,
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
    PayloadAction,
    PayloadHeld,
    SlotFit,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
    TypeFit,
)

MUTANT_VARIABLE = "RESPONSES_ORACLE_CROSSHAIR_MUTANT"
"""Environment variable: the name of a mutant whose kernels replace the reference ones."""


def _kernels_under_analysis() -> KernelSet:
    name = os.environ.get(MUTANT_VARIABLE)
    if not name:
        return KERNELS
    # Imported here: the mutant catalogue is only needed to show that a check can fail.
    from responses_oracle.proofs.mutants import MUTANTS

    return load_kernels(MUTANTS[name].tables)


SUBJECT: KernelSet = _kernels_under_analysis()
"""The kernels the wrappers analyse: the generated reference kernels, or a mutant's."""

ORACLE: KernelSet = table_kernels()
"""The table interpreter of the reference model: the other side of every comparison."""

EMPTY_OFFERS: tuple[OfferRelation, ...] = (
    OfferRelation.MISSING,
    OfferRelation.EMPTY,
)
"""Payload offers without a value: they never replace one (R7)."""

PAYLOAD_CODES: dict[OfferRelation, Code] = {
    OfferRelation.EMPTY: Code.EMPTY_PAYLOAD_IGNORED,
    OfferRelation.EXTENDS: Code.PAYLOAD_EXTENDED,
    OfferRelation.DIFFERS: Code.DIVERGENT_PAYLOAD,
}
"""R7's code for each relation of an offer to a held non-empty value (none: no code)."""


# -- contracts: what a row must mean ---------------------------------------------------


def lifecycle_move(state: EntryState, trigger: Trigger) -> Transition:
    """The lifecycle kernel's cell, under the invariants of R8 read per cell.

    A closed entry never reopens; completion is emitted exactly on entry into a closed
    state; only leaving ``ABSENT`` admits; a late event changes nothing
    (``late_is_inert``); an item-carrying event never leaves its entry absent
    (``nothing_lost``); only a confirming event into a confirming state confirms
    (``executable_needs_completion``); an incomplete entry stays incomplete; exactly a
    ``*.done`` that reaches an open entry closes a channel (``done_closes_its_channel``).

    post: state not in CLOSED_STATES or __return__.next_state in CLOSED_STATES
    post: (Effect.EMIT_COMPLETION in __return__.effects) == (state not in CLOSED_STATES and __return__.next_state in CLOSED_STATES)
    post: (Effect.ADMIT in __return__.effects) == (state is EntryState.ABSENT and __return__.next_state is not EntryState.ABSENT)
    post: LATE_EFFECTS.isdisjoint(__return__.effects) or (__return__.next_state is state and set(__return__.effects) <= LATE_EFFECTS)
    post: trigger not in ITEM_TRIGGERS or __return__.next_state is not EntryState.ABSENT
    post: Effect.CONFIRM not in __return__.effects or (trigger in CONFIRMING_TRIGGERS and __return__.next_state in CONFIRMING_STATES)
    post: state is not EntryState.INCOMPLETE or __return__.next_state is EntryState.INCOMPLETE
    post: (Effect.CLOSE_CHANNEL in __return__.effects) == (trigger is Trigger.PAYLOAD_DONE and state in OPEN_STATES)
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.lifecycle(state, trigger)


def slot_move(state: SlotState, trigger: SlotTrigger) -> SlotTransition:
    """The slot kernel's cell, under ``slot_first_write`` (R3) read per cell.

    A bound slot is never freed; a second binding shares it, and a shared slot stays
    shared; every binding of an already-bound slot is reported.

    post: state is SlotState.FREE or __return__.next_state is not SlotState.FREE
    post: trigger is not SlotTrigger.BIND or state is SlotState.FREE or __return__.next_state is SlotState.SHARED
    post: state is not SlotState.SHARED or __return__.next_state is SlotState.SHARED
    post: (__return__.code is Code.SLOT_REUSED) == (trigger is SlotTrigger.BIND and state is not SlotState.FREE)
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.slot(state, trigger)


def reclassify_choice(trigger: Trigger, state: ChannelState) -> Trigger:
    """The reclassification kernel's cell, under R7 read per cell.

    A delta is late exactly when its own channel is closed; no other trigger is changed.

    post: (__return__ is Trigger.DELTA_ON_CLOSED_CHANNEL) == (trigger is Trigger.DELTA_ON_CLOSED_CHANNEL or (trigger is Trigger.DELTA and state is ChannelState.CLOSED))
    post: __return__ is trigger or __return__ is Trigger.DELTA_ON_CLOSED_CHANNEL
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.reclassify(trigger, state)


def payload_choice(held: PayloadHeld, relation: OfferRelation) -> PayloadDecision:
    """The payload kernel's cell, under R7 read per cell.

    A missing offer is never taken, an empty one only where nothing at all is held
    (``empty_never_erases``: an empty value is a value, but never replaces one); every
    non-empty one is taken (``latest_nonempty_wins``); a diagnostic is only about a
    value or an explicit empty one held before: over a value it names the relation of
    the new value to that one, over an empty one it says a value filled it
    (``contracts.payload_reported`` proves the same over values).

    post: __return__.action is PayloadAction.KEEP or relation not in EMPTY_OFFERS or (relation is OfferRelation.EMPTY and held is PayloadHeld.NOTHING)
    post: __return__.action is PayloadAction.TAKE or relation in EMPTY_OFFERS
    post: __return__.code is None or held is not PayloadHeld.NOTHING
    post: held is not PayloadHeld.VALUE or __return__.code is PAYLOAD_CODES.get(relation)
    post: held is not PayloadHeld.EMPTY or (__return__.code is Code.EMPTY_PAYLOAD_FILLED) == (relation is OfferRelation.FIRST)
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.payload(held, relation)


def identity_choice(
    field: IdentityField, stage: MergeStage, relation: IdentityRelation
) -> IdentityDecision:
    """The identity kernel's cell, under ``first_admission_wins`` (R6) read per cell.

    A value is taken where the entry holds none (else the field is lost), and a
    different value only by the entry's own done renaming its ``call_id``; a different
    value is always reported, as a rename exactly when it is obeyed; a ``call_id``
    another entry holds is never taken (``contracts.identity_reported`` proves the same
    over values).

    post: (__return__.action is PayloadAction.TAKE) == (relation is IdentityRelation.FIRST or (relation is IdentityRelation.DIFFERS and field is IdentityField.CALL_ID and stage is MergeStage.CONFIRMING))
    post: relation is not IdentityRelation.DIFFERS or __return__.code in (Code.METADATA_CONFLICT, Code.CALL_ID_RENAMED)
    post: (__return__.code is Code.CALL_ID_RENAMED) == (relation is IdentityRelation.DIFFERS and __return__.action is PayloadAction.TAKE)
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.identity(field, stage, relation)


def fit_choice(type_fit: TypeFit, call_fit: CallFit, id_fit: IdFit, slot_fit: SlotFit) -> Fit:
    """The matching kernel's cell, under ``no_cross_talk`` (R6) read per cell.

    An item of another type never fits; different ``call_id``s fit only as the entry's
    own done (its id, at its open own slot) or as a snapshot re-key of a done entry at its
    own slot; an id naming only other entries fits only with an equal ``call_id``.

    post: type_fit is TypeFit.SAME or __return__ is Fit.NONE
    post: __return__ is not Fit.OWN or (id_fit is IdFit.NAMES and slot_fit is SlotFit.OPEN_DONE)
    post: __return__ is not Fit.REKEYED or slot_fit is SlotFit.CLOSED_SNAPSHOT
    post: call_fit is not CallFit.DIFFERS or __return__ in (Fit.NONE, Fit.OWN, Fit.REKEYED)
    post: id_fit is not IdFit.OTHER or call_fit is CallFit.EQUAL or __return__ is Fit.NONE
    """
    return SUBJECT.fit(type_fit, call_fit, id_fit, slot_fit)


def namespace_choice(kind: ItemKind) -> ItemKind:
    """The namespace kernel's cell (R6): a call and its output never share a namespace,
    so an output item is never a second call.

    post: (__return__ is ItemKind.OUTPUT) == (kind is ItemKind.OUTPUT)
    post: (__return__ is ItemKind.CALL) == (kind is ItemKind.CALL)
    """
    return SUBJECT.namespace(kind)


def admit_added_view(view: AddedView) -> Admission:
    """The ``output_item.added`` admission cell (R6).

    Only an item nothing has seen is admitted; a refusal always says why (its
    ``call_id`` is another type's), and nothing else raises a diagnostic
    (``contracts.added_reported`` proves the same over the entries).

    post: __return__.action is not AdmissionAction.ADMIT or view is AddedView.NEW
    post: (__return__.action is AdmissionAction.REJECT) == (__return__.code is not None)
    post: __return__.code in (None, Code.DUPLICATE_CALL_ID)
    """
    return SUBJECT.admit_added(view)


def execute_choice(stop: Stop) -> Execution:
    """The execution cell (R13): only a call every gate passed is executable — the
    declared tools say the client runs it, or none were declared — and its verdict says
    which (``execution_z3`` proves the same over the lifecycle and the evidence).

    post: (__return__ in EXECUTABLE) == (stop in (Stop.DECLARED_CLIENT, Stop.NO_TOOLS))
    post: (__return__ is Execution.CLIENT) == (stop is Stop.DECLARED_CLIENT)
    post: (__return__ is Execution.TOOLS_UNKNOWN) == (stop is Stop.NO_TOOLS)
    """
    return SUBJECT.execute(stop)


def admit_done_view(view: MatchView) -> Admission:
    """The done/snapshot matching cell (R6).

    A new entry is admitted only when no key matched; a refusal always says why, and
    besides a refusal only a re-key is reported, and a re-key always is; only the
    entry's own done merges at the confirming stage (``contracts.done_reported`` proves
    the same over the entries).

    post: __return__.action is not AdmissionAction.ADMIT or view is MatchView.NONE
    post: __return__.action is not AdmissionAction.REJECT or __return__.code is not None
    post: __return__.code is None or __return__.action is AdmissionAction.REJECT or view is MatchView.REKEYED
    post: (__return__.code is Code.SNAPSHOT_REKEYED) == (view is MatchView.REKEYED)
    post: (__return__.stage is MergeStage.CONFIRMING) == (view is MatchView.OWN)
    """  # noqa: E501 -- a PEP 316 condition is one line
    return SUBJECT.admit_done(view)


def agreeing_entries(slot_entries: tuple[int, ...], named: tuple[int, ...]) -> tuple[int, ...]:
    """The entries both routing keys allow: the slot's, if bound, and the id's, if known.

    A key that says nothing (an unbound slot, an absent or unrecognised id) does not
    constrain; with neither key there is nothing to route by.
    """
    if not slot_entries:
        return named
    if not named:
        return slot_entries
    return tuple(entry for entry in slot_entries if entry in named)


def route_target(
    slot_entries: tuple[int, ...], named: tuple[int, ...], item_id_present: bool
) -> int | None:
    """The entry the driver routes a payload event to, or ``None`` when it refuses (R5).

    ``slot_entries`` are the ordinals bound at the event's ``output_index`` (first
    binding first), ``named`` those its ``item_id`` names.  This is the driver's own
    ``resolve_route``: the slot view, the id view, the ``route`` kernel and the pick.
    The driver's slot is ``SHARED`` exactly when two distinct entries are bound to it
    (the slot table makes every second binding shared, and the driver binds each entry
    once), so the slot view is read off the entries.

    The preconditions are what the driver guarantees — no entry is listed twice, and an
    absent id names nothing — plus a bound: two entries per key already reach every
    slot view and every id view, and keep the path space small enough to exhaust.

    The target is never outside the proposed entries, and never a guess: it is the one entry
    both keys agree on.

    pre: len(slot_entries) <= 2 and len(set(slot_entries)) == len(slot_entries)
    pre: len(named) <= 2 and len(set(named)) == len(named)
    pre: item_id_present or not named
    post: __return__ is None or __return__ in slot_entries + named
    post: __return__ is None or agreeing_entries(slot_entries, named) == (__return__,)
    """
    shared = len(slot_entries) > 1
    return resolve_route(SUBJECT.route, slot_entries, shared, named, item_id_present)[1]


# -- equivalence: the generated kernels against the table interpreter -------------------


def generated_lifecycle(state: EntryState, trigger: Trigger) -> str:
    """``repr`` of the generated lifecycle kernel's cell."""
    return repr(SUBJECT.lifecycle(state, trigger))


def interpreted_lifecycle(state: EntryState, trigger: Trigger) -> str:
    """``repr`` of the interpreted lifecycle table's cell."""
    return repr(ORACLE.lifecycle(state, trigger))


def generated_slot(state: SlotState, trigger: SlotTrigger) -> str:
    """``repr`` of the generated slot kernel's cell."""
    return repr(SUBJECT.slot(state, trigger))


def interpreted_slot(state: SlotState, trigger: SlotTrigger) -> str:
    """``repr`` of the interpreted slot table's cell."""
    return repr(ORACLE.slot(state, trigger))


def generated_route(slot_view: SlotView, id_view: IdView) -> str:
    """``repr`` of the generated routing kernel's cell."""
    return repr(SUBJECT.route(slot_view, id_view))


def interpreted_route(slot_view: SlotView, id_view: IdView) -> str:
    """``repr`` of the interpreted routing table's cell."""
    return repr(ORACLE.route(slot_view, id_view))


def generated_namespace(kind: ItemKind) -> str:
    """``repr`` of the generated namespace kernel's cell."""
    return repr(SUBJECT.namespace(kind))


def interpreted_namespace(kind: ItemKind) -> str:
    """``repr`` of the interpreted namespace table's cell."""
    return repr(ORACLE.namespace(kind))


def generated_admit_added(view: AddedView) -> str:
    """``repr`` of the generated ``output_item.added`` admission cell."""
    return repr(SUBJECT.admit_added(view))


def interpreted_admit_added(view: AddedView) -> str:
    """``repr`` of the interpreted ``output_item.added`` admission cell."""
    return repr(ORACLE.admit_added(view))


def generated_admit_done(view: MatchView) -> str:
    """``repr`` of the generated done/snapshot matching cell."""
    return repr(SUBJECT.admit_done(view))


def interpreted_admit_done(view: MatchView) -> str:
    """``repr`` of the interpreted done/snapshot matching cell."""
    return repr(ORACLE.admit_done(view))


def generated_payload(held: PayloadHeld, relation: OfferRelation) -> str:
    """``repr`` of the generated payload kernel's cell."""
    return repr(SUBJECT.payload(held, relation))


def interpreted_payload(held: PayloadHeld, relation: OfferRelation) -> str:
    """``repr`` of the interpreted payload table's cell."""
    return repr(ORACLE.payload(held, relation))


def generated_reclassify(trigger: Trigger, state: ChannelState) -> str:
    """``repr`` of the generated reclassification kernel's cell."""
    return repr(SUBJECT.reclassify(trigger, state))


def interpreted_reclassify(trigger: Trigger, state: ChannelState) -> str:
    """``repr`` of the interpreted reclassification table's cell."""
    return repr(ORACLE.reclassify(trigger, state))


def generated_identity(field: IdentityField, stage: MergeStage, relation: IdentityRelation) -> str:
    """``repr`` of the generated identity kernel's cell."""
    return repr(SUBJECT.identity(field, stage, relation))


def interpreted_identity(
    field: IdentityField, stage: MergeStage, relation: IdentityRelation
) -> str:
    """``repr`` of the interpreted identity table's cell."""
    return repr(ORACLE.identity(field, stage, relation))


def generated_fit(type_fit: TypeFit, call_fit: CallFit, id_fit: IdFit, slot_fit: SlotFit) -> str:
    """``repr`` of the generated matching kernel's cell."""
    return repr(SUBJECT.fit(type_fit, call_fit, id_fit, slot_fit))


def interpreted_fit(type_fit: TypeFit, call_fit: CallFit, id_fit: IdFit, slot_fit: SlotFit) -> str:
    """``repr`` of the interpreted matching table's cell."""
    return repr(ORACLE.fit(type_fit, call_fit, id_fit, slot_fit))


def generated_execute(stop: Stop) -> str:
    """``repr`` of the generated execution kernel's cell."""
    return repr(SUBJECT.execute(stop))


def interpreted_execute(stop: Stop) -> str:
    """``repr`` of the interpreted execution table's cell."""
    return repr(ORACLE.execute(stop))
