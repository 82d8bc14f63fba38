# GENERATED FILE — DO NOT EDIT.
# Generated from the tables of model "reference" by `python -m responses_oracle.model.codegen`.
# Change a table in model/ and rerun that command; a test fails when this file is stale.
"""Straight-line decision kernels generated from the model tables.

Each function decides one table cell by identity tests on enum members and returns a
precomputed constant.  The ``*_EDGES`` sets are the same tables as data; each kernel's
PEP 316 ``post:`` contract says it only ever returns one of its table's edges.
"""

from __future__ import annotations

from responses_oracle.model.admission import Admission, IdentityDecision
from responses_oracle.model.lifecycle import Transition
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.routing import Route
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
    AddedView,
    AdmissionAction,
    CandidateRelation,
    Code,
    Effect,
    EntryState,
    IdentityRelation,
    IdView,
    MatchView,
    PayloadAction,
    PayloadHeld,
    RouteAction,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)

_EntryState_ABSENT = EntryState.ABSENT
_Trigger_ITEM_ADDED = Trigger.ITEM_ADDED
_Trigger_PART_ADDED = Trigger.PART_ADDED
_Trigger_DELTA = Trigger.DELTA
_Trigger_DELTA_ON_CLOSED_CHANNEL = Trigger.DELTA_ON_CLOSED_CHANNEL
_Trigger_PAYLOAD_DONE = Trigger.PAYLOAD_DONE
_Trigger_PROGRESS = Trigger.PROGRESS
_Trigger_ITEM_DONE = Trigger.ITEM_DONE
_Trigger_SNAPSHOT_ITEM = Trigger.SNAPSHOT_ITEM
_Trigger_RESPONSE_COMPLETED = Trigger.RESPONSE_COMPLETED
_EntryState_ADDED = EntryState.ADDED
_EntryState_STREAMING = EntryState.STREAMING
_EntryState_PAYLOAD_DONE = EntryState.PAYLOAD_DONE
_EntryState_DONE = EntryState.DONE
_EntryState_COMPLETED = EntryState.COMPLETED
_SlotState_FREE = SlotState.FREE
_SlotTrigger_BIND = SlotTrigger.BIND
_SlotState_LIVE = SlotState.LIVE
_SlotState_TOMB = SlotState.TOMB
_SlotView_NONE = SlotView.NONE
_IdView_ABSENT = IdView.ABSENT
_IdView_UNSEEN = IdView.UNSEEN
_IdView_ONE_OF_SLOT = IdView.ONE_OF_SLOT
_IdView_SEVERAL_OF_SLOT = IdView.SEVERAL_OF_SLOT
_IdView_ONE_OUTSIDE = IdView.ONE_OUTSIDE
_SlotView_ONE = SlotView.ONE
_AddedView_NEW = AddedView.NEW
_AddedView_REPLAY = AddedView.REPLAY
_MatchView_NONE = MatchView.NONE
_MatchView_AGREE = MatchView.AGREE
_MatchView_CONFLICT = MatchView.CONFLICT
_PayloadHeld_NOTHING = PayloadHeld.NOTHING
_CandidateRelation_MISSING = CandidateRelation.MISSING
_CandidateRelation_EMPTY = CandidateRelation.EMPTY
_CandidateRelation_FIRST = CandidateRelation.FIRST
_CandidateRelation_EQUAL = CandidateRelation.EQUAL
_CandidateRelation_EXTENDS = CandidateRelation.EXTENDS
_IdentityRelation_MISSING = IdentityRelation.MISSING
_IdentityRelation_FIRST = IdentityRelation.FIRST
_IdentityRelation_EQUAL = IdentityRelation.EQUAL
_LIFECYCLE_0 = Transition(EntryState.ADDED, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM))
_LIFECYCLE_1 = Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))
_LIFECYCLE_2 = Transition(EntryState.DONE, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_LIFECYCLE_3 = Transition(EntryState.COMPLETED, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_LIFECYCLE_4 = Transition(EntryState.ABSENT, ())
_LIFECYCLE_5 = Transition(EntryState.ADDED, (Effect.NOTE_DUPLICATE_ITEM,))
_LIFECYCLE_6 = Transition(EntryState.ADDED, (Effect.OPEN_PART,))
_LIFECYCLE_7 = Transition(EntryState.STREAMING, (Effect.APPEND_DELTA,))
_LIFECYCLE_8 = Transition(EntryState.ADDED, (Effect.NOTE_LATE_EVENT,))
_LIFECYCLE_9 = Transition(EntryState.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.CONFIRM))
_LIFECYCLE_10 = Transition(EntryState.ADDED, ())
_LIFECYCLE_11 = Transition(EntryState.DONE, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_LIFECYCLE_12 = Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_LIFECYCLE_13 = Transition(EntryState.ADDED, (Effect.NOTE_UNCONFIRMED,))
_LIFECYCLE_14 = Transition(EntryState.INCOMPLETE, ())
_LIFECYCLE_15 = Transition(EntryState.STREAMING, (Effect.NOTE_DUPLICATE_ITEM,))
_LIFECYCLE_16 = Transition(EntryState.STREAMING, (Effect.OPEN_PART,))
_LIFECYCLE_17 = Transition(EntryState.STREAMING, (Effect.NOTE_LATE_EVENT,))
_LIFECYCLE_18 = Transition(EntryState.STREAMING, ())
_LIFECYCLE_19 = Transition(EntryState.STREAMING, (Effect.NOTE_UNCONFIRMED,))
_LIFECYCLE_20 = Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_DUPLICATE_ITEM,))
_LIFECYCLE_21 = Transition(EntryState.PAYLOAD_DONE, (Effect.OPEN_PART,))
_LIFECYCLE_22 = Transition(EntryState.PAYLOAD_DONE, (Effect.APPEND_DELTA,))
_LIFECYCLE_23 = Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_LATE_EVENT,))
_LIFECYCLE_24 = Transition(EntryState.PAYLOAD_DONE, ())
_LIFECYCLE_25 = Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT, Effect.EMIT_COMPLETION))
_LIFECYCLE_26 = Transition(EntryState.DONE, (Effect.NOTE_DUPLICATE_ITEM,))
_LIFECYCLE_27 = Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))
_LIFECYCLE_28 = Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS))
_LIFECYCLE_29 = Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT,))
_LIFECYCLE_30 = Transition(EntryState.DONE, ())
_LIFECYCLE_31 = Transition(EntryState.COMPLETED, (Effect.NOTE_DUPLICATE_ITEM,))
_LIFECYCLE_32 = Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))
_LIFECYCLE_33 = Transition(EntryState.COMPLETED, ())
_LIFECYCLE_34 = Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))
_SLOT_35 = SlotTransition(SlotState.LIVE, None)
_SLOT_36 = SlotTransition(SlotState.FREE, None)
_SLOT_37 = SlotTransition(SlotState.SHARED, Code.SLOT_REUSED)
_SLOT_38 = SlotTransition(SlotState.TOMB, None)
_SLOT_39 = SlotTransition(SlotState.SHARED, None)
_ROUTE_40 = Route(RouteAction.DROP, Code.ORPHAN_EVENT)
_ROUTE_41 = Route(RouteAction.BY_ID, None)
_ROUTE_42 = Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)
_ROUTE_43 = Route(RouteAction.BY_SLOT, None)
_ROUTE_44 = Route(RouteAction.BY_SLOT, Code.ITEM_ID_UNRECOGNIZED)
_ADMIT_ADDED_45 = Admission(AdmissionAction.ADMIT, None)
_ADMIT_ADDED_46 = Admission(AdmissionAction.MATCH, None)
_ADMIT_ADDED_47 = Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID)
_ADMIT_DONE_48 = Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE)
_PAYLOAD_49 = PayloadDecision(PayloadAction.KEEP, None)
_PAYLOAD_50 = PayloadDecision(PayloadAction.TAKE, None)
_PAYLOAD_51 = PayloadDecision(PayloadAction.KEEP, Code.EMPTY_PAYLOAD_IGNORED)
_PAYLOAD_52 = PayloadDecision(PayloadAction.TAKE, Code.PAYLOAD_EXTENDED)
_PAYLOAD_53 = PayloadDecision(PayloadAction.TAKE, Code.DIVERGENT_PAYLOAD)
_IDENTITY_54 = IdentityDecision(PayloadAction.KEEP, None)
_IDENTITY_55 = IdentityDecision(PayloadAction.TAKE, None)
_IDENTITY_56 = IdentityDecision(PayloadAction.KEEP, Code.METADATA_CONFLICT)

LIFECYCLE_EDGES = frozenset({
    (EntryState.ABSENT, Trigger.ITEM_ADDED, Transition(EntryState.ADDED, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM))),
    (EntryState.ABSENT, Trigger.PART_ADDED, Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))),
    (EntryState.ABSENT, Trigger.DELTA, Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))),
    (EntryState.ABSENT, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))),
    (EntryState.ABSENT, Trigger.PAYLOAD_DONE, Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))),
    (EntryState.ABSENT, Trigger.PROGRESS, Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))),
    (EntryState.ABSENT, Trigger.ITEM_DONE, Transition(EntryState.DONE, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.ABSENT, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.ABSENT, Trigger.RESPONSE_COMPLETED, Transition(EntryState.ABSENT, ())),
    (EntryState.ABSENT, Trigger.RESPONSE_ABORTED, Transition(EntryState.ABSENT, ())),
    (EntryState.ADDED, Trigger.ITEM_ADDED, Transition(EntryState.ADDED, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.ADDED, Trigger.PART_ADDED, Transition(EntryState.ADDED, (Effect.OPEN_PART,))),
    (EntryState.ADDED, Trigger.DELTA, Transition(EntryState.STREAMING, (Effect.APPEND_DELTA,))),
    (EntryState.ADDED, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.ADDED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.ADDED, Trigger.PAYLOAD_DONE, Transition(EntryState.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.CONFIRM))),
    (EntryState.ADDED, Trigger.PROGRESS, Transition(EntryState.ADDED, ())),
    (EntryState.ADDED, Trigger.ITEM_DONE, Transition(EntryState.DONE, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.ADDED, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.ADDED, Trigger.RESPONSE_COMPLETED, Transition(EntryState.ADDED, (Effect.NOTE_UNCONFIRMED,))),
    (EntryState.ADDED, Trigger.RESPONSE_ABORTED, Transition(EntryState.INCOMPLETE, ())),
    (EntryState.STREAMING, Trigger.ITEM_ADDED, Transition(EntryState.STREAMING, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.STREAMING, Trigger.PART_ADDED, Transition(EntryState.STREAMING, (Effect.OPEN_PART,))),
    (EntryState.STREAMING, Trigger.DELTA, Transition(EntryState.STREAMING, (Effect.APPEND_DELTA,))),
    (EntryState.STREAMING, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.STREAMING, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.STREAMING, Trigger.PAYLOAD_DONE, Transition(EntryState.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.CONFIRM))),
    (EntryState.STREAMING, Trigger.PROGRESS, Transition(EntryState.STREAMING, ())),
    (EntryState.STREAMING, Trigger.ITEM_DONE, Transition(EntryState.DONE, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.STREAMING, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.STREAMING, Trigger.RESPONSE_COMPLETED, Transition(EntryState.STREAMING, (Effect.NOTE_UNCONFIRMED,))),
    (EntryState.STREAMING, Trigger.RESPONSE_ABORTED, Transition(EntryState.INCOMPLETE, ())),
    (EntryState.PAYLOAD_DONE, Trigger.ITEM_ADDED, Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.PAYLOAD_DONE, Trigger.PART_ADDED, Transition(EntryState.PAYLOAD_DONE, (Effect.OPEN_PART,))),
    (EntryState.PAYLOAD_DONE, Trigger.DELTA, Transition(EntryState.PAYLOAD_DONE, (Effect.APPEND_DELTA,))),
    (EntryState.PAYLOAD_DONE, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.PAYLOAD_DONE, Trigger.PAYLOAD_DONE, Transition(EntryState.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.CONFIRM))),
    (EntryState.PAYLOAD_DONE, Trigger.PROGRESS, Transition(EntryState.PAYLOAD_DONE, ())),
    (EntryState.PAYLOAD_DONE, Trigger.ITEM_DONE, Transition(EntryState.DONE, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.PAYLOAD_DONE, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))),
    (EntryState.PAYLOAD_DONE, Trigger.RESPONSE_COMPLETED, Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT, Effect.EMIT_COMPLETION))),
    (EntryState.PAYLOAD_DONE, Trigger.RESPONSE_ABORTED, Transition(EntryState.INCOMPLETE, ())),
    (EntryState.DONE, Trigger.ITEM_ADDED, Transition(EntryState.DONE, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.DONE, Trigger.PART_ADDED, Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.DONE, Trigger.DELTA, Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.DONE, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.DONE, Trigger.PAYLOAD_DONE, Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.DONE, Trigger.PROGRESS, Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.DONE, Trigger.ITEM_DONE, Transition(EntryState.DONE, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.DONE, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS))),
    (EntryState.DONE, Trigger.RESPONSE_COMPLETED, Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT,))),
    (EntryState.DONE, Trigger.RESPONSE_ABORTED, Transition(EntryState.DONE, ())),
    (EntryState.COMPLETED, Trigger.ITEM_ADDED, Transition(EntryState.COMPLETED, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.COMPLETED, Trigger.PART_ADDED, Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.COMPLETED, Trigger.DELTA, Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.COMPLETED, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.COMPLETED, Trigger.PAYLOAD_DONE, Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.COMPLETED, Trigger.PROGRESS, Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.COMPLETED, Trigger.ITEM_DONE, Transition(EntryState.COMPLETED, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.COMPLETED, Trigger.SNAPSHOT_ITEM, Transition(EntryState.COMPLETED, (Effect.NOTE_DUPLICATE_ITEM,))),
    (EntryState.COMPLETED, Trigger.RESPONSE_COMPLETED, Transition(EntryState.COMPLETED, ())),
    (EntryState.COMPLETED, Trigger.RESPONSE_ABORTED, Transition(EntryState.COMPLETED, ())),
    (EntryState.INCOMPLETE, Trigger.ITEM_ADDED, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.PART_ADDED, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.DELTA, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.DELTA_ON_CLOSED_CHANNEL, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.PAYLOAD_DONE, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.PROGRESS, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.ITEM_DONE, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.SNAPSHOT_ITEM, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.RESPONSE_COMPLETED, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
    (EntryState.INCOMPLETE, Trigger.RESPONSE_ABORTED, Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))),
})

SLOT_EDGES = frozenset({
    (SlotState.FREE, SlotTrigger.BIND, SlotTransition(SlotState.LIVE, None)),
    (SlotState.FREE, SlotTrigger.TOMBSTONE, SlotTransition(SlotState.FREE, None)),
    (SlotState.LIVE, SlotTrigger.BIND, SlotTransition(SlotState.SHARED, Code.SLOT_REUSED)),
    (SlotState.LIVE, SlotTrigger.TOMBSTONE, SlotTransition(SlotState.TOMB, None)),
    (SlotState.TOMB, SlotTrigger.BIND, SlotTransition(SlotState.SHARED, Code.SLOT_REUSED)),
    (SlotState.TOMB, SlotTrigger.TOMBSTONE, SlotTransition(SlotState.TOMB, None)),
    (SlotState.SHARED, SlotTrigger.BIND, SlotTransition(SlotState.SHARED, Code.SLOT_REUSED)),
    (SlotState.SHARED, SlotTrigger.TOMBSTONE, SlotTransition(SlotState.SHARED, None)),
})

ROUTE_EDGES = frozenset({
    (SlotView.NONE, IdView.ABSENT, Route(RouteAction.DROP, Code.ORPHAN_EVENT)),
    (SlotView.NONE, IdView.UNSEEN, Route(RouteAction.DROP, Code.ORPHAN_EVENT)),
    (SlotView.NONE, IdView.ONE_OF_SLOT, Route(RouteAction.BY_ID, None)),
    (SlotView.NONE, IdView.SEVERAL_OF_SLOT, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.NONE, IdView.ONE_OUTSIDE, Route(RouteAction.BY_ID, None)),
    (SlotView.NONE, IdView.SEVERAL_OUTSIDE, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.ONE, IdView.ABSENT, Route(RouteAction.BY_SLOT, None)),
    (SlotView.ONE, IdView.UNSEEN, Route(RouteAction.BY_SLOT, Code.ITEM_ID_UNRECOGNIZED)),
    (SlotView.ONE, IdView.ONE_OF_SLOT, Route(RouteAction.BY_SLOT, None)),
    (SlotView.ONE, IdView.SEVERAL_OF_SLOT, Route(RouteAction.BY_SLOT, None)),
    (SlotView.ONE, IdView.ONE_OUTSIDE, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.ONE, IdView.SEVERAL_OUTSIDE, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.SHARED, IdView.ABSENT, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.SHARED, IdView.UNSEEN, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.SHARED, IdView.ONE_OF_SLOT, Route(RouteAction.BY_ID, None)),
    (SlotView.SHARED, IdView.SEVERAL_OF_SLOT, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.SHARED, IdView.ONE_OUTSIDE, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (SlotView.SHARED, IdView.SEVERAL_OUTSIDE, Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)),
})

ADMIT_ADDED_EDGES = frozenset({
    (AddedView.NEW, Admission(AdmissionAction.ADMIT, None)),
    (AddedView.REPLAY, Admission(AdmissionAction.MATCH, None)),
    (AddedView.CALL_ID_TAKEN, Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID)),
})

ADMIT_DONE_EDGES = frozenset({
    (MatchView.NONE, Admission(AdmissionAction.ADMIT, None)),
    (MatchView.AGREE, Admission(AdmissionAction.MATCH, None)),
    (MatchView.CONFLICT, Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE)),
    (MatchView.CALL_ID_TAKEN, Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID)),
})

PAYLOAD_EDGES = frozenset({
    (PayloadHeld.NOTHING, CandidateRelation.MISSING, PayloadDecision(PayloadAction.KEEP, None)),
    (PayloadHeld.NOTHING, CandidateRelation.EMPTY, PayloadDecision(PayloadAction.KEEP, None)),
    (PayloadHeld.NOTHING, CandidateRelation.FIRST, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.NOTHING, CandidateRelation.EQUAL, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.NOTHING, CandidateRelation.EXTENDS, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.NOTHING, CandidateRelation.DIFFERS, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.VALUE, CandidateRelation.MISSING, PayloadDecision(PayloadAction.KEEP, None)),
    (PayloadHeld.VALUE, CandidateRelation.EMPTY, PayloadDecision(PayloadAction.KEEP, Code.EMPTY_PAYLOAD_IGNORED)),
    (PayloadHeld.VALUE, CandidateRelation.FIRST, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.VALUE, CandidateRelation.EQUAL, PayloadDecision(PayloadAction.TAKE, None)),
    (PayloadHeld.VALUE, CandidateRelation.EXTENDS, PayloadDecision(PayloadAction.TAKE, Code.PAYLOAD_EXTENDED)),
    (PayloadHeld.VALUE, CandidateRelation.DIFFERS, PayloadDecision(PayloadAction.TAKE, Code.DIVERGENT_PAYLOAD)),
})

IDENTITY_EDGES = frozenset({
    (IdentityRelation.MISSING, IdentityDecision(PayloadAction.KEEP, None)),
    (IdentityRelation.FIRST, IdentityDecision(PayloadAction.TAKE, None)),
    (IdentityRelation.EQUAL, IdentityDecision(PayloadAction.KEEP, None)),
    (IdentityRelation.DIFFERS, IdentityDecision(PayloadAction.KEEP, Code.METADATA_CONFLICT)),
})


def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
    """The lifecycle table (R8): an entry's next state and effects.

    post: (state, trigger, __return__) in LIFECYCLE_EDGES
    """
    if state is _EntryState_ABSENT:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_0
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_1
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_1
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_1
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_1
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_1
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_2
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_3
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_4
        return _LIFECYCLE_4
    if state is _EntryState_ADDED:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_5
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_6
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_7
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_8
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_9
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_10
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_11
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_12
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_13
        return _LIFECYCLE_14
    if state is _EntryState_STREAMING:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_15
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_16
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_7
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_17
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_9
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_18
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_11
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_12
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_19
        return _LIFECYCLE_14
    if state is _EntryState_PAYLOAD_DONE:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_20
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_21
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_22
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_23
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_9
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_24
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_11
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_12
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_25
        return _LIFECYCLE_14
    if state is _EntryState_DONE:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_26
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_27
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_27
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_27
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_27
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_27
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_26
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_28
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_29
        return _LIFECYCLE_30
    if state is _EntryState_COMPLETED:
        if trigger is _Trigger_ITEM_ADDED:
            return _LIFECYCLE_31
        if trigger is _Trigger_PART_ADDED:
            return _LIFECYCLE_32
        if trigger is _Trigger_DELTA:
            return _LIFECYCLE_32
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _LIFECYCLE_32
        if trigger is _Trigger_PAYLOAD_DONE:
            return _LIFECYCLE_32
        if trigger is _Trigger_PROGRESS:
            return _LIFECYCLE_32
        if trigger is _Trigger_ITEM_DONE:
            return _LIFECYCLE_31
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _LIFECYCLE_31
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _LIFECYCLE_33
        return _LIFECYCLE_33
    if trigger is _Trigger_ITEM_ADDED:
        return _LIFECYCLE_34
    if trigger is _Trigger_PART_ADDED:
        return _LIFECYCLE_34
    if trigger is _Trigger_DELTA:
        return _LIFECYCLE_34
    if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
        return _LIFECYCLE_34
    if trigger is _Trigger_PAYLOAD_DONE:
        return _LIFECYCLE_34
    if trigger is _Trigger_PROGRESS:
        return _LIFECYCLE_34
    if trigger is _Trigger_ITEM_DONE:
        return _LIFECYCLE_34
    if trigger is _Trigger_SNAPSHOT_ITEM:
        return _LIFECYCLE_34
    if trigger is _Trigger_RESPONSE_COMPLETED:
        return _LIFECYCLE_34
    return _LIFECYCLE_34


def slot(state: SlotState, trigger: SlotTrigger) -> SlotTransition:
    """The slot table (R3): a slot's next state and diagnostic.

    post: (state, trigger, __return__) in SLOT_EDGES
    """
    if state is _SlotState_FREE:
        if trigger is _SlotTrigger_BIND:
            return _SLOT_35
        return _SLOT_36
    if state is _SlotState_LIVE:
        if trigger is _SlotTrigger_BIND:
            return _SLOT_37
        return _SLOT_38
    if state is _SlotState_TOMB:
        if trigger is _SlotTrigger_BIND:
            return _SLOT_37
        return _SLOT_38
    if trigger is _SlotTrigger_BIND:
        return _SLOT_37
    return _SLOT_39


def route(slot_view: SlotView, id_view: IdView) -> Route:
    """The routing table (R5): where a payload event goes.

    post: (slot_view, id_view, __return__) in ROUTE_EDGES
    """
    if slot_view is _SlotView_NONE:
        if id_view is _IdView_ABSENT:
            return _ROUTE_40
        if id_view is _IdView_UNSEEN:
            return _ROUTE_40
        if id_view is _IdView_ONE_OF_SLOT:
            return _ROUTE_41
        if id_view is _IdView_SEVERAL_OF_SLOT:
            return _ROUTE_42
        if id_view is _IdView_ONE_OUTSIDE:
            return _ROUTE_41
        return _ROUTE_42
    if slot_view is _SlotView_ONE:
        if id_view is _IdView_ABSENT:
            return _ROUTE_43
        if id_view is _IdView_UNSEEN:
            return _ROUTE_44
        if id_view is _IdView_ONE_OF_SLOT:
            return _ROUTE_43
        if id_view is _IdView_SEVERAL_OF_SLOT:
            return _ROUTE_43
        if id_view is _IdView_ONE_OUTSIDE:
            return _ROUTE_42
        return _ROUTE_42
    if id_view is _IdView_ABSENT:
        return _ROUTE_42
    if id_view is _IdView_UNSEEN:
        return _ROUTE_42
    if id_view is _IdView_ONE_OF_SLOT:
        return _ROUTE_41
    if id_view is _IdView_SEVERAL_OF_SLOT:
        return _ROUTE_42
    if id_view is _IdView_ONE_OUTSIDE:
        return _ROUTE_42
    return _ROUTE_42


def admit_added(view: AddedView) -> Admission:
    """Admission of an output_item.added item (R6).

    post: (view, __return__) in ADMIT_ADDED_EDGES
    """
    if view is _AddedView_NEW:
        return _ADMIT_ADDED_45
    if view is _AddedView_REPLAY:
        return _ADMIT_ADDED_46
    return _ADMIT_ADDED_47


def admit_done(view: MatchView) -> Admission:
    """Matching of an output_item.done or snapshot item (R6).

    post: (view, __return__) in ADMIT_DONE_EDGES
    """
    if view is _MatchView_NONE:
        return _ADMIT_ADDED_45
    if view is _MatchView_AGREE:
        return _ADMIT_ADDED_46
    if view is _MatchView_CONFLICT:
        return _ADMIT_DONE_48
    return _ADMIT_ADDED_47


def payload(held: PayloadHeld, relation: CandidateRelation) -> PayloadDecision:
    """The payload table (R7): keep the held value or take the candidate.

    post: (held, relation, __return__) in PAYLOAD_EDGES
    """
    if held is _PayloadHeld_NOTHING:
        if relation is _CandidateRelation_MISSING:
            return _PAYLOAD_49
        if relation is _CandidateRelation_EMPTY:
            return _PAYLOAD_49
        if relation is _CandidateRelation_FIRST:
            return _PAYLOAD_50
        if relation is _CandidateRelation_EQUAL:
            return _PAYLOAD_50
        if relation is _CandidateRelation_EXTENDS:
            return _PAYLOAD_50
        return _PAYLOAD_50
    if relation is _CandidateRelation_MISSING:
        return _PAYLOAD_49
    if relation is _CandidateRelation_EMPTY:
        return _PAYLOAD_51
    if relation is _CandidateRelation_FIRST:
        return _PAYLOAD_50
    if relation is _CandidateRelation_EQUAL:
        return _PAYLOAD_50
    if relation is _CandidateRelation_EXTENDS:
        return _PAYLOAD_52
    return _PAYLOAD_53


def identity(relation: IdentityRelation) -> IdentityDecision:
    """The identity table (R6): keep an entry's call_id, name, namespace or take the item's.

    post: (relation, __return__) in IDENTITY_EDGES
    """
    if relation is _IdentityRelation_MISSING:
        return _IDENTITY_54
    if relation is _IdentityRelation_FIRST:
        return _IDENTITY_55
    if relation is _IdentityRelation_EQUAL:
        return _IDENTITY_54
    return _IDENTITY_56


KERNELS = KernelSet(lifecycle=lifecycle, slot=slot, route=route, admit_added=admit_added, admit_done=admit_done, payload=payload, identity=identity)
"""The generated kernels as one value, for the driver."""
