# GENERATED FILE — DO NOT EDIT.
# Generated from the tables of model "reference" by `python -m responses_oracle.model.codegen`.
# Change a table in model/ and rerun that command; a test fails when this file is stale.
"""Straight-line decision kernels generated from the model tables.

Each function decides one table cell by identity tests on enum members and returns a
precomputed constant; the comment on each ``return`` names the cell it returns, as
``ModelTables`` field and member names (``lifecycle[ADDED][DELTA]`` is
``REFERENCE.lifecycle[EntryState.ADDED][Trigger.DELTA]``, ``model/tables.py``).  The
``edges(kernel)`` gives the same tables as data; each kernel's PEP 316 ``post:``
contract says it only ever returns one of its table's edges.  To step through the tables
themselves instead, run ``Reducer(kernels=table_kernels())``
(``responses_oracle.model.interpreter``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from responses_oracle.model.admission import (
    Admission,
    IdentityDecision,
    MatchedItem,
    MatchTrigger,
)
from responses_oracle.model.annotations import (
    AdditionField,
    AdditionType,
    PartAddition,
    PartMerge,
    PositionView,
)
from responses_oracle.model.catalogue import ChannelKind, Terminal
from responses_oracle.model.execution import (
    Declared,
    EnvironmentType,
    Execution,
    ExecutionValue,
    Runner,
    SearchExecution,
    ShellEnvironment,
    Stop,
)
from responses_oracle.model.lifecycle import Transition
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.responses import (
    Boundary,
    ClientFrame,
    FrameType,
    Held,
    IdMatch,
    Opening,
    OpeningType,
)
from responses_oracle.model.routing import Route
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
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
    ResponseStatus,
    RouteAction,
    SlotFit,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
    TypeFit,
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
_SlotView_NONE = SlotView.NONE
_IdView_ABSENT = IdView.ABSENT
_IdView_UNSEEN = IdView.UNSEEN
_IdView_ONE_OF_SLOT = IdView.ONE_OF_SLOT
_IdView_SEVERAL_OF_SLOT = IdView.SEVERAL_OF_SLOT
_IdView_ONE_OUTSIDE = IdView.ONE_OUTSIDE
_SlotView_ONE = SlotView.ONE
_ItemKind_CALL = ItemKind.CALL
_ItemKind_OUTPUT = ItemKind.OUTPUT
_AddedView_NEW = AddedView.NEW
_AddedView_REPLAY = AddedView.REPLAY
_TypeFit_SAME = TypeFit.SAME
_CallFit_EQUAL = CallFit.EQUAL
_IdFit_BLANK = IdFit.BLANK
_SlotFit_OPEN_DONE = SlotFit.OPEN_DONE
_SlotFit_OPEN_SNAPSHOT = SlotFit.OPEN_SNAPSHOT
_SlotFit_CLOSED_DONE = SlotFit.CLOSED_DONE
_SlotFit_CLOSED_SNAPSHOT = SlotFit.CLOSED_SNAPSHOT
_IdFit_NAMES = IdFit.NAMES
_IdFit_UNSEEN = IdFit.UNSEEN
_CallFit_BLANK = CallFit.BLANK
_MatchView_NONE = MatchView.NONE
_MatchView_AGREE = MatchView.AGREE
_MatchView_OWN = MatchView.OWN
_MatchView_REKEYED = MatchView.REKEYED
_MatchView_CONFLICT = MatchView.CONFLICT
_PayloadHeld_NOTHING = PayloadHeld.NOTHING
_OfferRelation_MISSING = OfferRelation.MISSING
_OfferRelation_EMPTY = OfferRelation.EMPTY
_OfferRelation_FIRST = OfferRelation.FIRST
_OfferRelation_EQUAL = OfferRelation.EQUAL
_OfferRelation_EXTENDS = OfferRelation.EXTENDS
_PayloadHeld_EMPTY = PayloadHeld.EMPTY
_IdentityField_CALL_ID = IdentityField.CALL_ID
_MergeStage_FIXED = MergeStage.FIXED
_IdentityRelation_MISSING = IdentityRelation.MISSING
_IdentityRelation_FIRST = IdentityRelation.FIRST
_IdentityRelation_TAKEN = IdentityRelation.TAKEN
_IdentityRelation_EQUAL = IdentityRelation.EQUAL
_IdentityField_NAME = IdentityField.NAME
_ChannelState_OPEN = ChannelState.OPEN
_Opening_CREATED = Opening.CREATED
_Held_NOTHING = Held.NOTHING
_IdMatch_SAME = IdMatch.SAME
_IdMatch_OTHER = IdMatch.OTHER
_Held_OPEN = Held.OPEN
_ClientFrame_CREATE = ClientFrame.CREATE
_MatchedItem_DONE = MatchedItem.DONE
_PositionView_INSIDE = PositionView.INSIDE
_PositionView_PAST_END = PositionView.PAST_END
_Terminal_COMPLETED = Terminal.COMPLETED
_Terminal_INCOMPLETE = Terminal.INCOMPLETE
_Terminal_FAILED = Terminal.FAILED
_Terminal_CANCELLED = Terminal.CANCELLED
_Terminal_ERROR = Terminal.ERROR
_Stop_NOT_A_CALL = Stop.NOT_A_CALL
_Stop_NOT_COMPLETED = Stop.NOT_COMPLETED
_Stop_UNCONFIRMED = Stop.UNCONFIRMED
_Stop_NO_CALL_ID = Stop.NO_CALL_ID
_Stop_ANSWERED = Stop.ANSWERED
_Stop_NO_TOOLS = Stop.NO_TOOLS
_Stop_DECLARED_CLIENT = Stop.DECLARED_CLIENT
_Stop_DECLARED_SERVER = Stop.DECLARED_SERVER
_Stop_UNDECLARED = Stop.UNDECLARED
_ShellEnvironment_NONE = ShellEnvironment.NONE
_ShellEnvironment_LOCAL = ShellEnvironment.LOCAL
_ShellEnvironment_CONTAINER_AUTO = ShellEnvironment.CONTAINER_AUTO
_ShellEnvironment_CONTAINER_REFERENCE = ShellEnvironment.CONTAINER_REFERENCE
_SearchExecution_CLIENT = SearchExecution.CLIENT
_SearchExecution_SERVER = SearchExecution.SERVER
_Declared_CLIENT = Declared.CLIENT
_Declared_SERVER = Declared.SERVER
_Declared_NONE = Declared.NONE
_ExecutionValue_CLIENT = ExecutionValue.CLIENT
_ExecutionValue_SERVER = ExecutionValue.SERVER
_EnvironmentType_ABSENT = EnvironmentType.ABSENT
_EnvironmentType_LOCAL = EnvironmentType.LOCAL
_EnvironmentType_CONTAINER_AUTO = EnvironmentType.CONTAINER_AUTO
_EnvironmentType_CONTAINER_REFERENCE = EnvironmentType.CONTAINER_REFERENCE
_OpeningType_CREATED = OpeningType.CREATED
_OpeningType_QUEUED = OpeningType.QUEUED
_FrameType_CREATE = FrameType.CREATE
_MatchTrigger_ITEM_DONE = MatchTrigger.ITEM_DONE
_AdditionType_ANNOTATION_ADDED = AdditionType.ANNOTATION_ADDED
_Execution_NOT_A_CALL = Execution.NOT_A_CALL
_Execution_NOT_COMPLETED = Execution.NOT_COMPLETED
_Execution_UNCONFIRMED = Execution.UNCONFIRMED
_Execution_NO_CALL_ID = Execution.NO_CALL_ID
_Execution_ANSWERED = Execution.ANSWERED
_Execution_SERVER = Execution.SERVER
_Execution_UNDECLARED = Execution.UNDECLARED
_Execution_UNKNOWN_TOOL_TYPE = Execution.UNKNOWN_TOOL_TYPE
_Execution_CLIENT = Execution.CLIENT
_Effect_ADMIT = Effect.ADMIT
_Effect_BIND_SLOT = Effect.BIND_SLOT
_Effect_OPEN_PART = Effect.OPEN_PART
_Effect_APPEND_DELTA = Effect.APPEND_DELTA
_Effect_OFFER_PAYLOAD = Effect.OFFER_PAYLOAD
_Effect_CLOSE_CHANNEL = Effect.CLOSE_CHANNEL
_Effect_MERGE_ITEM = Effect.MERGE_ITEM
_Effect_OFFER_ITEM_PAYLOADS = Effect.OFFER_ITEM_PAYLOADS
_Effect_CONFIRM = Effect.CONFIRM
_Effect_LEARN_ITEM_ID = Effect.LEARN_ITEM_ID
_Effect_TOMBSTONE_SLOT = Effect.TOMBSTONE_SLOT
_Effect_EMIT_COMPLETION = Effect.EMIT_COMPLETION
_Effect_NOTE_DUPLICATE_ITEM = Effect.NOTE_DUPLICATE_ITEM
_Effect_NOTE_LATE_EVENT = Effect.NOTE_LATE_EVENT
_Effect_NOTE_UNCONFIRMED = Effect.NOTE_UNCONFIRMED
_Effect_NOTE_MISSING_FROM_SNAPSHOT = Effect.NOTE_MISSING_FROM_SNAPSHOT
_Effect_NOTE_ORPHAN = Effect.NOTE_ORPHAN
_Effect_NOTE_DONE_ONLY = Effect.NOTE_DONE_ONLY
_ChannelKind_ARGUMENTS = ChannelKind.ARGUMENTS
_ChannelKind_INPUT = ChannelKind.INPUT
_ChannelKind_TEXT = ChannelKind.TEXT
_ChannelKind_REFUSAL = ChannelKind.REFUSAL
_ChannelKind_SUMMARY = ChannelKind.SUMMARY
_ChannelKind_REASONING_TEXT = ChannelKind.REASONING_TEXT
_ChannelKind_CODE = ChannelKind.CODE
_ChannelKind_DIFF = ChannelKind.DIFF
_TRANSITION__ADDED__ADMIT__BIND_SLOT__MERGE_ITEM = Transition(EntryState.ADDED, (Effect.ADMIT, Effect.BIND_SLOT, Effect.MERGE_ITEM))
_TRANSITION__ABSENT__NOTE_ORPHAN = Transition(EntryState.ABSENT, (Effect.NOTE_ORPHAN,))
_TRANSITION__DONE__ADMIT__NOTE_DONE_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION = Transition(EntryState.DONE, (Effect.ADMIT, Effect.NOTE_DONE_ONLY, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_TRANSITION__COMPLETED__ADMIT__NOTE_SNAPSHOT_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION = Transition(EntryState.COMPLETED, (Effect.ADMIT, Effect.NOTE_SNAPSHOT_ONLY, Effect.BIND_SLOT, Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_TRANSITION__ABSENT = Transition(EntryState.ABSENT, ())
_TRANSITION__ADDED__NOTE_DUPLICATE_ITEM = Transition(EntryState.ADDED, (Effect.NOTE_DUPLICATE_ITEM,))
_TRANSITION__ADDED__OPEN_PART__LEARN_ITEM_ID = Transition(EntryState.ADDED, (Effect.OPEN_PART, Effect.LEARN_ITEM_ID))
_TRANSITION__STREAMING__APPEND_DELTA__LEARN_ITEM_ID = Transition(EntryState.STREAMING, (Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID))
_TRANSITION__ADDED__NOTE_LATE_EVENT = Transition(EntryState.ADDED, (Effect.NOTE_LATE_EVENT,))
_TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID = Transition(EntryState.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.CONFIRM, Effect.LEARN_ITEM_ID))
_TRANSITION__ADDED__LEARN_ITEM_ID = Transition(EntryState.ADDED, (Effect.LEARN_ITEM_ID,))
_TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION = Transition(EntryState.DONE, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION = Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS, Effect.CONFIRM, Effect.TOMBSTONE_SLOT, Effect.EMIT_COMPLETION))
_TRANSITION__ADDED__NOTE_UNCONFIRMED = Transition(EntryState.ADDED, (Effect.NOTE_UNCONFIRMED,))
_TRANSITION__INCOMPLETE = Transition(EntryState.INCOMPLETE, ())
_TRANSITION__STREAMING__NOTE_DUPLICATE_ITEM = Transition(EntryState.STREAMING, (Effect.NOTE_DUPLICATE_ITEM,))
_TRANSITION__STREAMING__OPEN_PART__LEARN_ITEM_ID = Transition(EntryState.STREAMING, (Effect.OPEN_PART, Effect.LEARN_ITEM_ID))
_TRANSITION__STREAMING__NOTE_LATE_EVENT = Transition(EntryState.STREAMING, (Effect.NOTE_LATE_EVENT,))
_TRANSITION__STREAMING__LEARN_ITEM_ID = Transition(EntryState.STREAMING, (Effect.LEARN_ITEM_ID,))
_TRANSITION__STREAMING__NOTE_UNCONFIRMED = Transition(EntryState.STREAMING, (Effect.NOTE_UNCONFIRMED,))
_TRANSITION__PAYLOAD_DONE__NOTE_DUPLICATE_ITEM = Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_DUPLICATE_ITEM,))
_TRANSITION__PAYLOAD_DONE__OPEN_PART__LEARN_ITEM_ID = Transition(EntryState.PAYLOAD_DONE, (Effect.OPEN_PART, Effect.LEARN_ITEM_ID))
_TRANSITION__PAYLOAD_DONE__APPEND_DELTA__LEARN_ITEM_ID = Transition(EntryState.PAYLOAD_DONE, (Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID))
_TRANSITION__PAYLOAD_DONE__NOTE_LATE_EVENT = Transition(EntryState.PAYLOAD_DONE, (Effect.NOTE_LATE_EVENT,))
_TRANSITION__PAYLOAD_DONE__LEARN_ITEM_ID = Transition(EntryState.PAYLOAD_DONE, (Effect.LEARN_ITEM_ID,))
_TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT__EMIT_COMPLETION = Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT, Effect.EMIT_COMPLETION))
_TRANSITION__DONE__NOTE_DUPLICATE_ITEM = Transition(EntryState.DONE, (Effect.NOTE_DUPLICATE_ITEM,))
_TRANSITION__DONE__NOTE_LATE_EVENT = Transition(EntryState.DONE, (Effect.NOTE_LATE_EVENT,))
_TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS = Transition(EntryState.COMPLETED, (Effect.MERGE_ITEM, Effect.OFFER_ITEM_PAYLOADS))
_TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT = Transition(EntryState.COMPLETED, (Effect.NOTE_MISSING_FROM_SNAPSHOT,))
_TRANSITION__DONE = Transition(EntryState.DONE, ())
_TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM = Transition(EntryState.COMPLETED, (Effect.NOTE_DUPLICATE_ITEM,))
_TRANSITION__COMPLETED__NOTE_LATE_EVENT = Transition(EntryState.COMPLETED, (Effect.NOTE_LATE_EVENT,))
_TRANSITION__COMPLETED = Transition(EntryState.COMPLETED, ())
_TRANSITION__INCOMPLETE__NOTE_LATE_EVENT = Transition(EntryState.INCOMPLETE, (Effect.NOTE_LATE_EVENT,))
_SLOTTRANSITION__LIVE = SlotTransition(SlotState.LIVE, None)
_SLOTTRANSITION__FREE = SlotTransition(SlotState.FREE, None)
_SLOTTRANSITION__SHARED__SLOT_REUSED = SlotTransition(SlotState.SHARED, Code.SLOT_REUSED)
_SLOTTRANSITION__SHARED = SlotTransition(SlotState.SHARED, None)
_ROUTE__DROP__ORPHAN_EVENT = Route(RouteAction.DROP, Code.ORPHAN_EVENT)
_ROUTE__BY_ID = Route(RouteAction.BY_ID, None)
_ROUTE__REJECT__AMBIGUOUS_ROUTE = Route(RouteAction.REJECT, Code.AMBIGUOUS_ROUTE)
_ROUTE__BY_SLOT = Route(RouteAction.BY_SLOT, None)
_ROUTE__BY_SLOT__ITEM_ID_UNRECOGNIZED = Route(RouteAction.BY_SLOT, Code.ITEM_ID_UNRECOGNIZED)
_ITEMKIND__CALL = ItemKind.CALL
_ITEMKIND__OUTPUT = ItemKind.OUTPUT
_ITEMKIND__OTHER = ItemKind.OTHER
_ADMISSION__ADMIT__FIXED = Admission(AdmissionAction.ADMIT, None, MergeStage.FIXED)
_ADMISSION__MATCH__FIXED = Admission(AdmissionAction.MATCH, None, MergeStage.FIXED)
_ADMISSION__REJECT__DUPLICATE_CALL_ID__FIXED = Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID, MergeStage.FIXED)
_FIT__AGREE = Fit.AGREE
_FIT__NONE = Fit.NONE
_FIT__OWN = Fit.OWN
_FIT__REKEYED = Fit.REKEYED
_ADMISSION__MATCH__CONFIRMING = Admission(AdmissionAction.MATCH, None, MergeStage.CONFIRMING)
_ADMISSION__MATCH__SNAPSHOT_REKEYED__FIXED = Admission(AdmissionAction.MATCH, Code.SNAPSHOT_REKEYED, MergeStage.FIXED)
_ADMISSION__REJECT__AMBIGUOUS_ROUTE__FIXED = Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE, MergeStage.FIXED)
_PAYLOADDECISION__KEEP = PayloadDecision(PayloadAction.KEEP, None)
_PAYLOADDECISION__TAKE = PayloadDecision(PayloadAction.TAKE, None)
_PAYLOADDECISION__TAKE__EMPTY_PAYLOAD_FILLED = PayloadDecision(PayloadAction.TAKE, Code.EMPTY_PAYLOAD_FILLED)
_PAYLOADDECISION__KEEP__EMPTY_PAYLOAD_IGNORED = PayloadDecision(PayloadAction.KEEP, Code.EMPTY_PAYLOAD_IGNORED)
_PAYLOADDECISION__TAKE__PAYLOAD_EXTENDED = PayloadDecision(PayloadAction.TAKE, Code.PAYLOAD_EXTENDED)
_PAYLOADDECISION__TAKE__DIVERGENT_PAYLOAD = PayloadDecision(PayloadAction.TAKE, Code.DIVERGENT_PAYLOAD)
_IDENTITYDECISION__KEEP = IdentityDecision(PayloadAction.KEEP, None)
_IDENTITYDECISION__TAKE = IdentityDecision(PayloadAction.TAKE, None)
_IDENTITYDECISION__KEEP__DUPLICATE_CALL_ID = IdentityDecision(PayloadAction.KEEP, Code.DUPLICATE_CALL_ID)
_IDENTITYDECISION__KEEP__METADATA_CONFLICT = IdentityDecision(PayloadAction.KEEP, Code.METADATA_CONFLICT)
_IDENTITYDECISION__TAKE__CALL_ID_RENAMED = IdentityDecision(PayloadAction.TAKE, Code.CALL_ID_RENAMED)
_TRIGGER__DELTA = Trigger.DELTA
_TRIGGER__DELTA_ON_CLOSED_CHANNEL = Trigger.DELTA_ON_CLOSED_CHANNEL
_TRIGGER__PART_ADDED = Trigger.PART_ADDED
_TRIGGER__PAYLOAD_DONE = Trigger.PAYLOAD_DONE
_TRIGGER__ITEM_ADDED = Trigger.ITEM_ADDED
_TRIGGER__PROGRESS = Trigger.PROGRESS
_TRIGGER__ITEM_DONE = Trigger.ITEM_DONE
_TRIGGER__SNAPSHOT_ITEM = Trigger.SNAPSHOT_ITEM
_TRIGGER__RESPONSE_COMPLETED = Trigger.RESPONSE_COMPLETED
_TRIGGER__RESPONSE_ABORTED = Trigger.RESPONSE_ABORTED
_BOUNDARY__CONTINUE = Boundary.CONTINUE
_BOUNDARY__NEW = Boundary.NEW
_TRUE = True
_FALSE = False
_PARTMERGE__REPLACE = PartMerge.REPLACE
_PARTMERGE__APPEND = PartMerge.APPEND
_RESPONSESTATUS__COMPLETED = ResponseStatus.COMPLETED
_RESPONSESTATUS__INCOMPLETE = ResponseStatus.INCOMPLETE
_RESPONSESTATUS__FAILED = ResponseStatus.FAILED
_RESPONSESTATUS__CANCELLED = ResponseStatus.CANCELLED
_EXECUTION__NOT_A_CALL = Execution.NOT_A_CALL
_EXECUTION__NOT_COMPLETED = Execution.NOT_COMPLETED
_EXECUTION__UNCONFIRMED = Execution.UNCONFIRMED
_EXECUTION__NO_CALL_ID = Execution.NO_CALL_ID
_EXECUTION__ANSWERED = Execution.ANSWERED
_EXECUTION__TOOLS_UNKNOWN = Execution.TOOLS_UNKNOWN
_EXECUTION__CLIENT = Execution.CLIENT
_EXECUTION__SERVER = Execution.SERVER
_EXECUTION__UNDECLARED = Execution.UNDECLARED
_EXECUTION__UNKNOWN_TOOL_TYPE = Execution.UNKNOWN_TOOL_TYPE
_RUNNER__CLIENT = Runner.CLIENT
_RUNNER__SERVER = Runner.SERVER
_STOP__DECLARED_CLIENT = Stop.DECLARED_CLIENT
_STOP__DECLARED_SERVER = Stop.DECLARED_SERVER
_STOP__UNDECLARED = Stop.UNDECLARED
_STOP__UNKNOWN_TOOL_TYPE = Stop.UNKNOWN_TOOL_TYPE
_SEARCHEXECUTION__CLIENT = SearchExecution.CLIENT
_SEARCHEXECUTION__SERVER = SearchExecution.SERVER
_SEARCHEXECUTION__UNSET = SearchExecution.UNSET
_SHELLENVIRONMENT__NONE = ShellEnvironment.NONE
_SHELLENVIRONMENT__LOCAL = ShellEnvironment.LOCAL
_SHELLENVIRONMENT__CONTAINER_AUTO = ShellEnvironment.CONTAINER_AUTO
_SHELLENVIRONMENT__CONTAINER_REFERENCE = ShellEnvironment.CONTAINER_REFERENCE
_SHELLENVIRONMENT__OTHER = ShellEnvironment.OTHER
_OPENING__CREATED = Opening.CREATED
_OPENING__PROGRESS = Opening.PROGRESS
_CLIENTFRAME__CREATE = ClientFrame.CREATE
_CLIENTFRAME__STEER = ClientFrame.STEER
_MATCHEDITEM__DONE = MatchedItem.DONE
_MATCHEDITEM__SNAPSHOT = MatchedItem.SNAPSHOT
_PARTADDITION__TEXT__CONTENT_INDEX__ANNOTATION__ANNOTATION_INDEX = PartAddition(ChannelKind.TEXT, AdditionField.CONTENT_INDEX, AdditionField.ANNOTATION, AdditionField.ANNOTATION_INDEX, 'output_text', 'annotations')
_NONE = None
_CODE__DUPLICATE_ITEM = Code.DUPLICATE_ITEM
_CODE__LATE_EVENT = Code.LATE_EVENT
_CODE__UNCONFIRMED_ITEM = Code.UNCONFIRMED_ITEM
_CODE__SNAPSHOT_MISSING_ITEM = Code.SNAPSHOT_MISSING_ITEM
_CODE__ORPHAN_EVENT = Code.ORPHAN_EVENT
_CODE__DONE_ONLY_ITEM = Code.DONE_ONLY_ITEM
_CODE__SNAPSHOT_ONLY_ITEM = Code.SNAPSHOT_ONLY_ITEM


@cache
def _edge_sets() -> dict[str, frozenset[tuple[Any, ...]]]:
    """Every kernel's edges, by kernel (``edges``), made on the first call."""
    return {
        "lifecycle": frozenset({
            (EntryState.ABSENT, Trigger.ITEM_ADDED, _TRANSITION__ADDED__ADMIT__BIND_SLOT__MERGE_ITEM),
            (EntryState.ABSENT, Trigger.PART_ADDED, _TRANSITION__ABSENT__NOTE_ORPHAN),
            (EntryState.ABSENT, Trigger.DELTA, _TRANSITION__ABSENT__NOTE_ORPHAN),
            (EntryState.ABSENT, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__ABSENT__NOTE_ORPHAN),
            (EntryState.ABSENT, Trigger.PAYLOAD_DONE, _TRANSITION__ABSENT__NOTE_ORPHAN),
            (EntryState.ABSENT, Trigger.PROGRESS, _TRANSITION__ABSENT__NOTE_ORPHAN),
            (EntryState.ABSENT, Trigger.ITEM_DONE, _TRANSITION__DONE__ADMIT__NOTE_DONE_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.ABSENT, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__ADMIT__NOTE_SNAPSHOT_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.ABSENT, Trigger.RESPONSE_COMPLETED, _TRANSITION__ABSENT),
            (EntryState.ABSENT, Trigger.RESPONSE_ABORTED, _TRANSITION__ABSENT),
            (EntryState.ADDED, Trigger.ITEM_ADDED, _TRANSITION__ADDED__NOTE_DUPLICATE_ITEM),
            (EntryState.ADDED, Trigger.PART_ADDED, _TRANSITION__ADDED__OPEN_PART__LEARN_ITEM_ID),
            (EntryState.ADDED, Trigger.DELTA, _TRANSITION__STREAMING__APPEND_DELTA__LEARN_ITEM_ID),
            (EntryState.ADDED, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__ADDED__NOTE_LATE_EVENT),
            (EntryState.ADDED, Trigger.PAYLOAD_DONE, _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID),
            (EntryState.ADDED, Trigger.PROGRESS, _TRANSITION__ADDED__LEARN_ITEM_ID),
            (EntryState.ADDED, Trigger.ITEM_DONE, _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.ADDED, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.ADDED, Trigger.RESPONSE_COMPLETED, _TRANSITION__ADDED__NOTE_UNCONFIRMED),
            (EntryState.ADDED, Trigger.RESPONSE_ABORTED, _TRANSITION__INCOMPLETE),
            (EntryState.STREAMING, Trigger.ITEM_ADDED, _TRANSITION__STREAMING__NOTE_DUPLICATE_ITEM),
            (EntryState.STREAMING, Trigger.PART_ADDED, _TRANSITION__STREAMING__OPEN_PART__LEARN_ITEM_ID),
            (EntryState.STREAMING, Trigger.DELTA, _TRANSITION__STREAMING__APPEND_DELTA__LEARN_ITEM_ID),
            (EntryState.STREAMING, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__STREAMING__NOTE_LATE_EVENT),
            (EntryState.STREAMING, Trigger.PAYLOAD_DONE, _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID),
            (EntryState.STREAMING, Trigger.PROGRESS, _TRANSITION__STREAMING__LEARN_ITEM_ID),
            (EntryState.STREAMING, Trigger.ITEM_DONE, _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.STREAMING, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.STREAMING, Trigger.RESPONSE_COMPLETED, _TRANSITION__STREAMING__NOTE_UNCONFIRMED),
            (EntryState.STREAMING, Trigger.RESPONSE_ABORTED, _TRANSITION__INCOMPLETE),
            (EntryState.PAYLOAD_DONE, Trigger.ITEM_ADDED, _TRANSITION__PAYLOAD_DONE__NOTE_DUPLICATE_ITEM),
            (EntryState.PAYLOAD_DONE, Trigger.PART_ADDED, _TRANSITION__PAYLOAD_DONE__OPEN_PART__LEARN_ITEM_ID),
            (EntryState.PAYLOAD_DONE, Trigger.DELTA, _TRANSITION__PAYLOAD_DONE__APPEND_DELTA__LEARN_ITEM_ID),
            (EntryState.PAYLOAD_DONE, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__PAYLOAD_DONE__NOTE_LATE_EVENT),
            (EntryState.PAYLOAD_DONE, Trigger.PAYLOAD_DONE, _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID),
            (EntryState.PAYLOAD_DONE, Trigger.PROGRESS, _TRANSITION__PAYLOAD_DONE__LEARN_ITEM_ID),
            (EntryState.PAYLOAD_DONE, Trigger.ITEM_DONE, _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.PAYLOAD_DONE, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION),
            (EntryState.PAYLOAD_DONE, Trigger.RESPONSE_COMPLETED, _TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT__EMIT_COMPLETION),
            (EntryState.PAYLOAD_DONE, Trigger.RESPONSE_ABORTED, _TRANSITION__INCOMPLETE),
            (EntryState.DONE, Trigger.ITEM_ADDED, _TRANSITION__DONE__NOTE_DUPLICATE_ITEM),
            (EntryState.DONE, Trigger.PART_ADDED, _TRANSITION__DONE__NOTE_LATE_EVENT),
            (EntryState.DONE, Trigger.DELTA, _TRANSITION__DONE__NOTE_LATE_EVENT),
            (EntryState.DONE, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__DONE__NOTE_LATE_EVENT),
            (EntryState.DONE, Trigger.PAYLOAD_DONE, _TRANSITION__DONE__NOTE_LATE_EVENT),
            (EntryState.DONE, Trigger.PROGRESS, _TRANSITION__DONE__NOTE_LATE_EVENT),
            (EntryState.DONE, Trigger.ITEM_DONE, _TRANSITION__DONE__NOTE_DUPLICATE_ITEM),
            (EntryState.DONE, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS),
            (EntryState.DONE, Trigger.RESPONSE_COMPLETED, _TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT),
            (EntryState.DONE, Trigger.RESPONSE_ABORTED, _TRANSITION__DONE),
            (EntryState.COMPLETED, Trigger.ITEM_ADDED, _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM),
            (EntryState.COMPLETED, Trigger.PART_ADDED, _TRANSITION__COMPLETED__NOTE_LATE_EVENT),
            (EntryState.COMPLETED, Trigger.DELTA, _TRANSITION__COMPLETED__NOTE_LATE_EVENT),
            (EntryState.COMPLETED, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__COMPLETED__NOTE_LATE_EVENT),
            (EntryState.COMPLETED, Trigger.PAYLOAD_DONE, _TRANSITION__COMPLETED__NOTE_LATE_EVENT),
            (EntryState.COMPLETED, Trigger.PROGRESS, _TRANSITION__COMPLETED__NOTE_LATE_EVENT),
            (EntryState.COMPLETED, Trigger.ITEM_DONE, _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM),
            (EntryState.COMPLETED, Trigger.SNAPSHOT_ITEM, _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM),
            (EntryState.COMPLETED, Trigger.RESPONSE_COMPLETED, _TRANSITION__COMPLETED),
            (EntryState.COMPLETED, Trigger.RESPONSE_ABORTED, _TRANSITION__COMPLETED),
            (EntryState.INCOMPLETE, Trigger.ITEM_ADDED, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.PART_ADDED, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.DELTA, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.DELTA_ON_CLOSED_CHANNEL, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.PAYLOAD_DONE, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.PROGRESS, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.ITEM_DONE, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.SNAPSHOT_ITEM, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.RESPONSE_COMPLETED, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
            (EntryState.INCOMPLETE, Trigger.RESPONSE_ABORTED, _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT),
        }),
        "slot": frozenset({
            (SlotState.FREE, SlotTrigger.BIND, _SLOTTRANSITION__LIVE),
            (SlotState.FREE, SlotTrigger.TOMBSTONE, _SLOTTRANSITION__FREE),
            (SlotState.LIVE, SlotTrigger.BIND, _SLOTTRANSITION__SHARED__SLOT_REUSED),
            (SlotState.LIVE, SlotTrigger.TOMBSTONE, _SLOTTRANSITION__LIVE),
            (SlotState.SHARED, SlotTrigger.BIND, _SLOTTRANSITION__SHARED__SLOT_REUSED),
            (SlotState.SHARED, SlotTrigger.TOMBSTONE, _SLOTTRANSITION__SHARED),
        }),
        "route": frozenset({
            (SlotView.NONE, IdView.ABSENT, _ROUTE__DROP__ORPHAN_EVENT),
            (SlotView.NONE, IdView.UNSEEN, _ROUTE__DROP__ORPHAN_EVENT),
            (SlotView.NONE, IdView.ONE_OF_SLOT, _ROUTE__BY_ID),
            (SlotView.NONE, IdView.SEVERAL_OF_SLOT, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.NONE, IdView.ONE_OUTSIDE, _ROUTE__BY_ID),
            (SlotView.NONE, IdView.SEVERAL_OUTSIDE, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.ONE, IdView.ABSENT, _ROUTE__BY_SLOT),
            (SlotView.ONE, IdView.UNSEEN, _ROUTE__BY_SLOT__ITEM_ID_UNRECOGNIZED),
            (SlotView.ONE, IdView.ONE_OF_SLOT, _ROUTE__BY_SLOT),
            (SlotView.ONE, IdView.SEVERAL_OF_SLOT, _ROUTE__BY_SLOT),
            (SlotView.ONE, IdView.ONE_OUTSIDE, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.ONE, IdView.SEVERAL_OUTSIDE, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.SHARED, IdView.ABSENT, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.SHARED, IdView.UNSEEN, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.SHARED, IdView.ONE_OF_SLOT, _ROUTE__BY_ID),
            (SlotView.SHARED, IdView.SEVERAL_OF_SLOT, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.SHARED, IdView.ONE_OUTSIDE, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
            (SlotView.SHARED, IdView.SEVERAL_OUTSIDE, _ROUTE__REJECT__AMBIGUOUS_ROUTE),
        }),
        "namespace": frozenset({
            (ItemKind.CALL, _ITEMKIND__CALL),
            (ItemKind.OUTPUT, _ITEMKIND__OUTPUT),
            (ItemKind.OTHER, _ITEMKIND__OTHER),
        }),
        "admit_added": frozenset({
            (AddedView.NEW, _ADMISSION__ADMIT__FIXED),
            (AddedView.REPLAY, _ADMISSION__MATCH__FIXED),
            (AddedView.CALL_ID_TAKEN, _ADMISSION__REJECT__DUPLICATE_CALL_ID__FIXED),
        }),
        "fit": frozenset({
            (TypeFit.SAME, CallFit.EQUAL, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.EQUAL, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__AGREE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.BLANK, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__OWN),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__REKEYED),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__REKEYED),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.SAME, CallFit.DIFFERS, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.EQUAL, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.BLANK, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.BLANK, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.BLANK, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.BLANK, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.BLANK, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.NAMES, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.NAMES, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.NAMES, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.NAMES, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.NAMES, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.UNSEEN, SlotFit.ELSEWHERE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.OTHER, SlotFit.OPEN_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.OTHER, SlotFit.OPEN_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.OTHER, SlotFit.CLOSED_DONE, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.OTHER, SlotFit.CLOSED_SNAPSHOT, _FIT__NONE),
            (TypeFit.DIFFERS, CallFit.DIFFERS, IdFit.OTHER, SlotFit.ELSEWHERE, _FIT__NONE),
        }),
        "admit_done": frozenset({
            (MatchView.NONE, _ADMISSION__ADMIT__FIXED),
            (MatchView.AGREE, _ADMISSION__MATCH__FIXED),
            (MatchView.OWN, _ADMISSION__MATCH__CONFIRMING),
            (MatchView.REKEYED, _ADMISSION__MATCH__SNAPSHOT_REKEYED__FIXED),
            (MatchView.CONFLICT, _ADMISSION__REJECT__AMBIGUOUS_ROUTE__FIXED),
            (MatchView.CALL_ID_TAKEN, _ADMISSION__REJECT__DUPLICATE_CALL_ID__FIXED),
        }),
        "payload": frozenset({
            (PayloadHeld.NOTHING, OfferRelation.MISSING, _PAYLOADDECISION__KEEP),
            (PayloadHeld.NOTHING, OfferRelation.EMPTY, _PAYLOADDECISION__TAKE),
            (PayloadHeld.NOTHING, OfferRelation.FIRST, _PAYLOADDECISION__TAKE),
            (PayloadHeld.NOTHING, OfferRelation.EQUAL, _PAYLOADDECISION__TAKE),
            (PayloadHeld.NOTHING, OfferRelation.EXTENDS, _PAYLOADDECISION__TAKE),
            (PayloadHeld.NOTHING, OfferRelation.DIFFERS, _PAYLOADDECISION__TAKE),
            (PayloadHeld.EMPTY, OfferRelation.MISSING, _PAYLOADDECISION__KEEP),
            (PayloadHeld.EMPTY, OfferRelation.EMPTY, _PAYLOADDECISION__KEEP),
            (PayloadHeld.EMPTY, OfferRelation.FIRST, _PAYLOADDECISION__TAKE__EMPTY_PAYLOAD_FILLED),
            (PayloadHeld.EMPTY, OfferRelation.EQUAL, _PAYLOADDECISION__TAKE),
            (PayloadHeld.EMPTY, OfferRelation.EXTENDS, _PAYLOADDECISION__TAKE),
            (PayloadHeld.EMPTY, OfferRelation.DIFFERS, _PAYLOADDECISION__TAKE),
            (PayloadHeld.VALUE, OfferRelation.MISSING, _PAYLOADDECISION__KEEP),
            (PayloadHeld.VALUE, OfferRelation.EMPTY, _PAYLOADDECISION__KEEP__EMPTY_PAYLOAD_IGNORED),
            (PayloadHeld.VALUE, OfferRelation.FIRST, _PAYLOADDECISION__TAKE),
            (PayloadHeld.VALUE, OfferRelation.EQUAL, _PAYLOADDECISION__TAKE),
            (PayloadHeld.VALUE, OfferRelation.EXTENDS, _PAYLOADDECISION__TAKE__PAYLOAD_EXTENDED),
            (PayloadHeld.VALUE, OfferRelation.DIFFERS, _PAYLOADDECISION__TAKE__DIVERGENT_PAYLOAD),
        }),
        "identity": frozenset({
            (IdentityField.CALL_ID, MergeStage.FIXED, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.CALL_ID, MergeStage.FIXED, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.CALL_ID, MergeStage.FIXED, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP__DUPLICATE_CALL_ID),
            (IdentityField.CALL_ID, MergeStage.FIXED, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.CALL_ID, MergeStage.FIXED, IdentityRelation.DIFFERS, _IDENTITYDECISION__KEEP__METADATA_CONFLICT),
            (IdentityField.CALL_ID, MergeStage.CONFIRMING, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.CALL_ID, MergeStage.CONFIRMING, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.CALL_ID, MergeStage.CONFIRMING, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP__DUPLICATE_CALL_ID),
            (IdentityField.CALL_ID, MergeStage.CONFIRMING, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.CALL_ID, MergeStage.CONFIRMING, IdentityRelation.DIFFERS, _IDENTITYDECISION__TAKE__CALL_ID_RENAMED),
            (IdentityField.NAME, MergeStage.FIXED, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.FIXED, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.NAME, MergeStage.FIXED, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.FIXED, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.FIXED, IdentityRelation.DIFFERS, _IDENTITYDECISION__KEEP__METADATA_CONFLICT),
            (IdentityField.NAME, MergeStage.CONFIRMING, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.CONFIRMING, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.NAME, MergeStage.CONFIRMING, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.CONFIRMING, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.NAME, MergeStage.CONFIRMING, IdentityRelation.DIFFERS, _IDENTITYDECISION__KEEP__METADATA_CONFLICT),
            (IdentityField.NAMESPACE, MergeStage.FIXED, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.FIXED, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.NAMESPACE, MergeStage.FIXED, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.FIXED, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.FIXED, IdentityRelation.DIFFERS, _IDENTITYDECISION__KEEP__METADATA_CONFLICT),
            (IdentityField.NAMESPACE, MergeStage.CONFIRMING, IdentityRelation.MISSING, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.CONFIRMING, IdentityRelation.FIRST, _IDENTITYDECISION__TAKE),
            (IdentityField.NAMESPACE, MergeStage.CONFIRMING, IdentityRelation.TAKEN, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.CONFIRMING, IdentityRelation.EQUAL, _IDENTITYDECISION__KEEP),
            (IdentityField.NAMESPACE, MergeStage.CONFIRMING, IdentityRelation.DIFFERS, _IDENTITYDECISION__KEEP__METADATA_CONFLICT),
        }),
        "reclassify": frozenset({
            (Trigger.DELTA, ChannelState.OPEN, _TRIGGER__DELTA),
            (Trigger.DELTA, ChannelState.CLOSED, _TRIGGER__DELTA_ON_CLOSED_CHANNEL),
            (Trigger.PART_ADDED, ChannelState.OPEN, _TRIGGER__PART_ADDED),
            (Trigger.PART_ADDED, ChannelState.CLOSED, _TRIGGER__PART_ADDED),
            (Trigger.PAYLOAD_DONE, ChannelState.OPEN, _TRIGGER__PAYLOAD_DONE),
            (Trigger.PAYLOAD_DONE, ChannelState.CLOSED, _TRIGGER__PAYLOAD_DONE),
            (Trigger.ITEM_ADDED, ChannelState.OPEN, _TRIGGER__ITEM_ADDED),
            (Trigger.ITEM_ADDED, ChannelState.CLOSED, _TRIGGER__ITEM_ADDED),
            (Trigger.DELTA_ON_CLOSED_CHANNEL, ChannelState.OPEN, _TRIGGER__DELTA_ON_CLOSED_CHANNEL),
            (Trigger.DELTA_ON_CLOSED_CHANNEL, ChannelState.CLOSED, _TRIGGER__DELTA_ON_CLOSED_CHANNEL),
            (Trigger.PROGRESS, ChannelState.OPEN, _TRIGGER__PROGRESS),
            (Trigger.PROGRESS, ChannelState.CLOSED, _TRIGGER__PROGRESS),
            (Trigger.ITEM_DONE, ChannelState.OPEN, _TRIGGER__ITEM_DONE),
            (Trigger.ITEM_DONE, ChannelState.CLOSED, _TRIGGER__ITEM_DONE),
            (Trigger.SNAPSHOT_ITEM, ChannelState.OPEN, _TRIGGER__SNAPSHOT_ITEM),
            (Trigger.SNAPSHOT_ITEM, ChannelState.CLOSED, _TRIGGER__SNAPSHOT_ITEM),
            (Trigger.RESPONSE_COMPLETED, ChannelState.OPEN, _TRIGGER__RESPONSE_COMPLETED),
            (Trigger.RESPONSE_COMPLETED, ChannelState.CLOSED, _TRIGGER__RESPONSE_COMPLETED),
            (Trigger.RESPONSE_ABORTED, ChannelState.OPEN, _TRIGGER__RESPONSE_ABORTED),
            (Trigger.RESPONSE_ABORTED, ChannelState.CLOSED, _TRIGGER__RESPONSE_ABORTED),
        }),
        "boundary": frozenset({
            (Opening.CREATED, Held.NOTHING, IdMatch.SAME, _BOUNDARY__CONTINUE),
            (Opening.CREATED, Held.NOTHING, IdMatch.OTHER, _BOUNDARY__CONTINUE),
            (Opening.CREATED, Held.NOTHING, IdMatch.UNKNOWN, _BOUNDARY__CONTINUE),
            (Opening.CREATED, Held.OPEN, IdMatch.SAME, _BOUNDARY__CONTINUE),
            (Opening.CREATED, Held.OPEN, IdMatch.OTHER, _BOUNDARY__NEW),
            (Opening.CREATED, Held.OPEN, IdMatch.UNKNOWN, _BOUNDARY__NEW),
            (Opening.CREATED, Held.ENDED, IdMatch.SAME, _BOUNDARY__NEW),
            (Opening.CREATED, Held.ENDED, IdMatch.OTHER, _BOUNDARY__NEW),
            (Opening.CREATED, Held.ENDED, IdMatch.UNKNOWN, _BOUNDARY__NEW),
            (Opening.PROGRESS, Held.NOTHING, IdMatch.SAME, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.NOTHING, IdMatch.OTHER, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.NOTHING, IdMatch.UNKNOWN, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.OPEN, IdMatch.SAME, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.OPEN, IdMatch.OTHER, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.OPEN, IdMatch.UNKNOWN, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.ENDED, IdMatch.SAME, _BOUNDARY__CONTINUE),
            (Opening.PROGRESS, Held.ENDED, IdMatch.OTHER, _BOUNDARY__NEW),
            (Opening.PROGRESS, Held.ENDED, IdMatch.UNKNOWN, _BOUNDARY__CONTINUE),
        }),
        "frame": frozenset({
            (ClientFrame.CREATE, _BOUNDARY__NEW),
            (ClientFrame.STEER, _BOUNDARY__CONTINUE),
        }),
        "fills_slot": frozenset({
            (MatchedItem.DONE, _TRUE),
            (MatchedItem.SNAPSHOT, _FALSE),
        }),
        "merge_part": frozenset({
            (PositionView.INSIDE, _PARTMERGE__REPLACE),
            (PositionView.PAST_END, _PARTMERGE__APPEND),
            (PositionView.NONE, _PARTMERGE__APPEND),
        }),
        "terminal_status": frozenset({
            (Terminal.COMPLETED, _RESPONSESTATUS__COMPLETED),
            (Terminal.INCOMPLETE, _RESPONSESTATUS__INCOMPLETE),
            (Terminal.FAILED, _RESPONSESTATUS__FAILED),
            (Terminal.CANCELLED, _RESPONSESTATUS__CANCELLED),
            (Terminal.ERROR, _RESPONSESTATUS__FAILED),
        }),
        "amends": frozenset({
            (Terminal.ERROR, _TRUE),
            (Terminal.COMPLETED, _FALSE),
            (Terminal.INCOMPLETE, _FALSE),
            (Terminal.FAILED, _FALSE),
            (Terminal.CANCELLED, _FALSE),
        }),
        "execute": frozenset({
            (Stop.NOT_A_CALL, _EXECUTION__NOT_A_CALL),
            (Stop.NOT_COMPLETED, _EXECUTION__NOT_COMPLETED),
            (Stop.UNCONFIRMED, _EXECUTION__UNCONFIRMED),
            (Stop.NO_CALL_ID, _EXECUTION__NO_CALL_ID),
            (Stop.ANSWERED, _EXECUTION__ANSWERED),
            (Stop.NO_TOOLS, _EXECUTION__TOOLS_UNKNOWN),
            (Stop.DECLARED_CLIENT, _EXECUTION__CLIENT),
            (Stop.DECLARED_SERVER, _EXECUTION__SERVER),
            (Stop.UNDECLARED, _EXECUTION__UNDECLARED),
            (Stop.UNKNOWN_TOOL_TYPE, _EXECUTION__UNKNOWN_TOOL_TYPE),
        }),
        "names_one": frozenset({
            (IdentityField.CALL_ID, _TRUE),
            (IdentityField.NAME, _FALSE),
            (IdentityField.NAMESPACE, _FALSE),
        }),
        "shell_runner": frozenset({
            (ShellEnvironment.NONE, _RUNNER__CLIENT),
            (ShellEnvironment.LOCAL, _RUNNER__CLIENT),
            (ShellEnvironment.CONTAINER_AUTO, _RUNNER__SERVER),
            (ShellEnvironment.CONTAINER_REFERENCE, _RUNNER__SERVER),
            (ShellEnvironment.OTHER, _RUNNER__SERVER),
        }),
        "search_runner": frozenset({
            (SearchExecution.CLIENT, _RUNNER__CLIENT),
            (SearchExecution.SERVER, _RUNNER__SERVER),
            (SearchExecution.UNSET, _RUNNER__SERVER),
        }),
        "declares": frozenset({
            (Declared.CLIENT, _STOP__DECLARED_CLIENT),
            (Declared.SERVER, _STOP__DECLARED_SERVER),
            (Declared.NONE, _STOP__UNDECLARED),
            (Declared.UNKNOWN_TYPE, _STOP__UNKNOWN_TOOL_TYPE),
        }),
        "reads_execution": frozenset({
            (ExecutionValue.CLIENT, _SEARCHEXECUTION__CLIENT),
            (ExecutionValue.SERVER, _SEARCHEXECUTION__SERVER),
            (ExecutionValue.OTHER, _SEARCHEXECUTION__UNSET),
        }),
        "reads_environment": frozenset({
            (EnvironmentType.ABSENT, _SHELLENVIRONMENT__NONE),
            (EnvironmentType.LOCAL, _SHELLENVIRONMENT__LOCAL),
            (EnvironmentType.CONTAINER_AUTO, _SHELLENVIRONMENT__CONTAINER_AUTO),
            (EnvironmentType.CONTAINER_REFERENCE, _SHELLENVIRONMENT__CONTAINER_REFERENCE),
            (EnvironmentType.OTHER, _SHELLENVIRONMENT__OTHER),
        }),
        "reads_opening": frozenset({
            (OpeningType.CREATED, _OPENING__CREATED),
            (OpeningType.QUEUED, _OPENING__PROGRESS),
            (OpeningType.IN_PROGRESS, _OPENING__PROGRESS),
        }),
        "reads_frame": frozenset({
            (FrameType.CREATE, _CLIENTFRAME__CREATE),
            (FrameType.STEER, _CLIENTFRAME__STEER),
        }),
        "reads_matched": frozenset({
            (MatchTrigger.ITEM_DONE, _MATCHEDITEM__DONE),
            (MatchTrigger.SNAPSHOT_ITEM, _MATCHEDITEM__SNAPSHOT),
        }),
        "reads_addition": frozenset({
            (AdditionType.ANNOTATION_ADDED, _PARTADDITION__TEXT__CONTENT_INDEX__ANNOTATION__ANNOTATION_INDEX),
            (AdditionType.ANNOTATION_ADDED_OLDER, _PARTADDITION__TEXT__CONTENT_INDEX__ANNOTATION__ANNOTATION_INDEX),
        }),
        "withholds": frozenset({
            (Execution.NOT_A_CALL, _FALSE),
            (Execution.NOT_COMPLETED, _FALSE),
            (Execution.UNCONFIRMED, _FALSE),
            (Execution.NO_CALL_ID, _TRUE),
            (Execution.ANSWERED, _TRUE),
            (Execution.SERVER, _TRUE),
            (Execution.UNDECLARED, _TRUE),
            (Execution.UNKNOWN_TOOL_TYPE, _TRUE),
            (Execution.CLIENT, _FALSE),
            (Execution.TOOLS_UNKNOWN, _FALSE),
        }),
        "notes": frozenset({
            (Effect.ADMIT, _NONE),
            (Effect.BIND_SLOT, _NONE),
            (Effect.OPEN_PART, _NONE),
            (Effect.APPEND_DELTA, _NONE),
            (Effect.OFFER_PAYLOAD, _NONE),
            (Effect.CLOSE_CHANNEL, _NONE),
            (Effect.MERGE_ITEM, _NONE),
            (Effect.OFFER_ITEM_PAYLOADS, _NONE),
            (Effect.CONFIRM, _NONE),
            (Effect.LEARN_ITEM_ID, _NONE),
            (Effect.TOMBSTONE_SLOT, _NONE),
            (Effect.EMIT_COMPLETION, _NONE),
            (Effect.NOTE_DUPLICATE_ITEM, _CODE__DUPLICATE_ITEM),
            (Effect.NOTE_LATE_EVENT, _CODE__LATE_EVENT),
            (Effect.NOTE_UNCONFIRMED, _CODE__UNCONFIRMED_ITEM),
            (Effect.NOTE_MISSING_FROM_SNAPSHOT, _CODE__SNAPSHOT_MISSING_ITEM),
            (Effect.NOTE_ORPHAN, _CODE__ORPHAN_EVENT),
            (Effect.NOTE_DONE_ONLY, _CODE__DONE_ONLY_ITEM),
            (Effect.NOTE_SNAPSHOT_ONLY, _CODE__SNAPSHOT_ONLY_ITEM),
        }),
        "waives": frozenset({
            (Effect.ADMIT, _FALSE),
            (Effect.BIND_SLOT, _FALSE),
            (Effect.OPEN_PART, _FALSE),
            (Effect.APPEND_DELTA, _FALSE),
            (Effect.OFFER_PAYLOAD, _FALSE),
            (Effect.CLOSE_CHANNEL, _FALSE),
            (Effect.MERGE_ITEM, _FALSE),
            (Effect.OFFER_ITEM_PAYLOADS, _FALSE),
            (Effect.CONFIRM, _FALSE),
            (Effect.LEARN_ITEM_ID, _FALSE),
            (Effect.TOMBSTONE_SLOT, _FALSE),
            (Effect.EMIT_COMPLETION, _FALSE),
            (Effect.NOTE_DUPLICATE_ITEM, _FALSE),
            (Effect.NOTE_LATE_EVENT, _FALSE),
            (Effect.NOTE_UNCONFIRMED, _FALSE),
            (Effect.NOTE_MISSING_FROM_SNAPSHOT, _FALSE),
            (Effect.NOTE_ORPHAN, _FALSE),
            (Effect.NOTE_DONE_ONLY, _TRUE),
            (Effect.NOTE_SNAPSHOT_ONLY, _TRUE),
        }),
        "announces": frozenset({
            (ChannelKind.ARGUMENTS, _FALSE),
            (ChannelKind.INPUT, _FALSE),
            (ChannelKind.TEXT, _TRUE),
            (ChannelKind.REFUSAL, _TRUE),
            (ChannelKind.SUMMARY, _TRUE),
            (ChannelKind.REASONING_TEXT, _TRUE),
            (ChannelKind.CODE, _FALSE),
            (ChannelKind.DIFF, _FALSE),
            (ChannelKind.COMMAND, _TRUE),
        }),
    }


def edges(kernel: str) -> frozenset[tuple[Any, ...]]:
    """The table of ``kernel`` (a ``KernelSet`` field) as (arguments..., result) tuples:
    the edges its ``post:`` contract says it moves along.

    Made on first use (CrossHair's, a test's): no reduction reads them, and hashing
    their enum members cost 3.5M instructions of a small ``reduce`` at import.
    """
    return _edge_sets()[kernel]


def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
    """The lifecycle table (R8): an entry's next state and effects.

    post: (state, trigger, __return__) in edges("lifecycle")
    """
    if state is _EntryState_ABSENT:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__ADDED__ADMIT__BIND_SLOT__MERGE_ITEM  # lifecycle[ABSENT][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__ABSENT__NOTE_ORPHAN  # lifecycle[ABSENT][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__ABSENT__NOTE_ORPHAN  # lifecycle[ABSENT][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__ABSENT__NOTE_ORPHAN  # lifecycle[ABSENT][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__ABSENT__NOTE_ORPHAN  # lifecycle[ABSENT][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__ABSENT__NOTE_ORPHAN  # lifecycle[ABSENT][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__DONE__ADMIT__NOTE_DONE_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[ABSENT][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__ADMIT__NOTE_SNAPSHOT_ONLY__BIND_SLOT__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[ABSENT][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__ABSENT  # lifecycle[ABSENT][RESPONSE_COMPLETED]
        return _TRANSITION__ABSENT  # lifecycle[ABSENT][RESPONSE_ABORTED]
    if state is _EntryState_ADDED:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__ADDED__NOTE_DUPLICATE_ITEM  # lifecycle[ADDED][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__ADDED__OPEN_PART__LEARN_ITEM_ID  # lifecycle[ADDED][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__STREAMING__APPEND_DELTA__LEARN_ITEM_ID  # lifecycle[ADDED][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__ADDED__NOTE_LATE_EVENT  # lifecycle[ADDED][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID  # lifecycle[ADDED][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__ADDED__LEARN_ITEM_ID  # lifecycle[ADDED][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[ADDED][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[ADDED][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__ADDED__NOTE_UNCONFIRMED  # lifecycle[ADDED][RESPONSE_COMPLETED]
        return _TRANSITION__INCOMPLETE  # lifecycle[ADDED][RESPONSE_ABORTED]
    if state is _EntryState_STREAMING:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__STREAMING__NOTE_DUPLICATE_ITEM  # lifecycle[STREAMING][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__STREAMING__OPEN_PART__LEARN_ITEM_ID  # lifecycle[STREAMING][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__STREAMING__APPEND_DELTA__LEARN_ITEM_ID  # lifecycle[STREAMING][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__STREAMING__NOTE_LATE_EVENT  # lifecycle[STREAMING][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID  # lifecycle[STREAMING][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__STREAMING__LEARN_ITEM_ID  # lifecycle[STREAMING][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[STREAMING][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[STREAMING][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__STREAMING__NOTE_UNCONFIRMED  # lifecycle[STREAMING][RESPONSE_COMPLETED]
        return _TRANSITION__INCOMPLETE  # lifecycle[STREAMING][RESPONSE_ABORTED]
    if state is _EntryState_PAYLOAD_DONE:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__PAYLOAD_DONE__NOTE_DUPLICATE_ITEM  # lifecycle[PAYLOAD_DONE][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__PAYLOAD_DONE__OPEN_PART__LEARN_ITEM_ID  # lifecycle[PAYLOAD_DONE][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__PAYLOAD_DONE__APPEND_DELTA__LEARN_ITEM_ID  # lifecycle[PAYLOAD_DONE][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__PAYLOAD_DONE__NOTE_LATE_EVENT  # lifecycle[PAYLOAD_DONE][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__PAYLOAD_DONE__OFFER_PAYLOAD__CLOSE_CHANNEL__CONFIRM__LEARN_ITEM_ID  # lifecycle[PAYLOAD_DONE][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__PAYLOAD_DONE__LEARN_ITEM_ID  # lifecycle[PAYLOAD_DONE][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__DONE__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[PAYLOAD_DONE][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS__CONFIRM__TOMBSTONE_SLOT__EMIT_COMPLETION  # lifecycle[PAYLOAD_DONE][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT__EMIT_COMPLETION  # lifecycle[PAYLOAD_DONE][RESPONSE_COMPLETED]
        return _TRANSITION__INCOMPLETE  # lifecycle[PAYLOAD_DONE][RESPONSE_ABORTED]
    if state is _EntryState_DONE:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__DONE__NOTE_DUPLICATE_ITEM  # lifecycle[DONE][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__DONE__NOTE_LATE_EVENT  # lifecycle[DONE][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__DONE__NOTE_LATE_EVENT  # lifecycle[DONE][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__DONE__NOTE_LATE_EVENT  # lifecycle[DONE][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__DONE__NOTE_LATE_EVENT  # lifecycle[DONE][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__DONE__NOTE_LATE_EVENT  # lifecycle[DONE][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__DONE__NOTE_DUPLICATE_ITEM  # lifecycle[DONE][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__MERGE_ITEM__OFFER_ITEM_PAYLOADS  # lifecycle[DONE][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__COMPLETED__NOTE_MISSING_FROM_SNAPSHOT  # lifecycle[DONE][RESPONSE_COMPLETED]
        return _TRANSITION__DONE  # lifecycle[DONE][RESPONSE_ABORTED]
    if state is _EntryState_COMPLETED:
        if trigger is _Trigger_ITEM_ADDED:
            return _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM  # lifecycle[COMPLETED][ITEM_ADDED]
        if trigger is _Trigger_PART_ADDED:
            return _TRANSITION__COMPLETED__NOTE_LATE_EVENT  # lifecycle[COMPLETED][PART_ADDED]
        if trigger is _Trigger_DELTA:
            return _TRANSITION__COMPLETED__NOTE_LATE_EVENT  # lifecycle[COMPLETED][DELTA]
        if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
            return _TRANSITION__COMPLETED__NOTE_LATE_EVENT  # lifecycle[COMPLETED][DELTA_ON_CLOSED_CHANNEL]
        if trigger is _Trigger_PAYLOAD_DONE:
            return _TRANSITION__COMPLETED__NOTE_LATE_EVENT  # lifecycle[COMPLETED][PAYLOAD_DONE]
        if trigger is _Trigger_PROGRESS:
            return _TRANSITION__COMPLETED__NOTE_LATE_EVENT  # lifecycle[COMPLETED][PROGRESS]
        if trigger is _Trigger_ITEM_DONE:
            return _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM  # lifecycle[COMPLETED][ITEM_DONE]
        if trigger is _Trigger_SNAPSHOT_ITEM:
            return _TRANSITION__COMPLETED__NOTE_DUPLICATE_ITEM  # lifecycle[COMPLETED][SNAPSHOT_ITEM]
        if trigger is _Trigger_RESPONSE_COMPLETED:
            return _TRANSITION__COMPLETED  # lifecycle[COMPLETED][RESPONSE_COMPLETED]
        return _TRANSITION__COMPLETED  # lifecycle[COMPLETED][RESPONSE_ABORTED]
    if trigger is _Trigger_ITEM_ADDED:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][ITEM_ADDED]
    if trigger is _Trigger_PART_ADDED:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][PART_ADDED]
    if trigger is _Trigger_DELTA:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][DELTA]
    if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][DELTA_ON_CLOSED_CHANNEL]
    if trigger is _Trigger_PAYLOAD_DONE:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][PAYLOAD_DONE]
    if trigger is _Trigger_PROGRESS:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][PROGRESS]
    if trigger is _Trigger_ITEM_DONE:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][ITEM_DONE]
    if trigger is _Trigger_SNAPSHOT_ITEM:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][SNAPSHOT_ITEM]
    if trigger is _Trigger_RESPONSE_COMPLETED:
        return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][RESPONSE_COMPLETED]
    return _TRANSITION__INCOMPLETE__NOTE_LATE_EVENT  # lifecycle[INCOMPLETE][RESPONSE_ABORTED]


def slot(state: SlotState, trigger: SlotTrigger) -> SlotTransition:
    """The slot table (R3): a slot's next state and diagnostic.

    post: (state, trigger, __return__) in edges("slot")
    """
    if state is _SlotState_FREE:
        if trigger is _SlotTrigger_BIND:
            return _SLOTTRANSITION__LIVE  # slots[FREE][BIND]
        return _SLOTTRANSITION__FREE  # slots[FREE][TOMBSTONE]
    if state is _SlotState_LIVE:
        if trigger is _SlotTrigger_BIND:
            return _SLOTTRANSITION__SHARED__SLOT_REUSED  # slots[LIVE][BIND]
        return _SLOTTRANSITION__LIVE  # slots[LIVE][TOMBSTONE]
    if trigger is _SlotTrigger_BIND:
        return _SLOTTRANSITION__SHARED__SLOT_REUSED  # slots[SHARED][BIND]
    return _SLOTTRANSITION__SHARED  # slots[SHARED][TOMBSTONE]


def route(slot_view: SlotView, id_view: IdView) -> Route:
    """The routing table (R5): where a payload event goes.

    post: (slot_view, id_view, __return__) in edges("route")
    """
    if slot_view is _SlotView_NONE:
        if id_view is _IdView_ABSENT:
            return _ROUTE__DROP__ORPHAN_EVENT  # routing[NONE][ABSENT]
        if id_view is _IdView_UNSEEN:
            return _ROUTE__DROP__ORPHAN_EVENT  # routing[NONE][UNSEEN]
        if id_view is _IdView_ONE_OF_SLOT:
            return _ROUTE__BY_ID  # routing[NONE][ONE_OF_SLOT]
        if id_view is _IdView_SEVERAL_OF_SLOT:
            return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[NONE][SEVERAL_OF_SLOT]
        if id_view is _IdView_ONE_OUTSIDE:
            return _ROUTE__BY_ID  # routing[NONE][ONE_OUTSIDE]
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[NONE][SEVERAL_OUTSIDE]
    if slot_view is _SlotView_ONE:
        if id_view is _IdView_ABSENT:
            return _ROUTE__BY_SLOT  # routing[ONE][ABSENT]
        if id_view is _IdView_UNSEEN:
            return _ROUTE__BY_SLOT__ITEM_ID_UNRECOGNIZED  # routing[ONE][UNSEEN]
        if id_view is _IdView_ONE_OF_SLOT:
            return _ROUTE__BY_SLOT  # routing[ONE][ONE_OF_SLOT]
        if id_view is _IdView_SEVERAL_OF_SLOT:
            return _ROUTE__BY_SLOT  # routing[ONE][SEVERAL_OF_SLOT]
        if id_view is _IdView_ONE_OUTSIDE:
            return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[ONE][ONE_OUTSIDE]
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[ONE][SEVERAL_OUTSIDE]
    if id_view is _IdView_ABSENT:
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[SHARED][ABSENT]
    if id_view is _IdView_UNSEEN:
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[SHARED][UNSEEN]
    if id_view is _IdView_ONE_OF_SLOT:
        return _ROUTE__BY_ID  # routing[SHARED][ONE_OF_SLOT]
    if id_view is _IdView_SEVERAL_OF_SLOT:
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[SHARED][SEVERAL_OF_SLOT]
    if id_view is _IdView_ONE_OUTSIDE:
        return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[SHARED][ONE_OUTSIDE]
    return _ROUTE__REJECT__AMBIGUOUS_ROUTE  # routing[SHARED][SEVERAL_OUTSIDE]


def namespace(kind: ItemKind) -> ItemKind:
    """The call_id namespace of an item kind (R6).

    post: (kind, __return__) in edges("namespace")
    """
    if kind is _ItemKind_CALL:
        return _ITEMKIND__CALL  # namespaces[CALL]
    if kind is _ItemKind_OUTPUT:
        return _ITEMKIND__OUTPUT  # namespaces[OUTPUT]
    return _ITEMKIND__OTHER  # namespaces[OTHER]


def admit_added(view: AddedView) -> Admission:
    """Admission of an output_item.added item (R6).

    post: (view, __return__) in edges("admit_added")
    """
    if view is _AddedView_NEW:
        return _ADMISSION__ADMIT__FIXED  # added_admission[NEW]
    if view is _AddedView_REPLAY:
        return _ADMISSION__MATCH__FIXED  # added_admission[REPLAY]
    return _ADMISSION__REJECT__DUPLICATE_CALL_ID__FIXED  # added_admission[CALL_ID_TAKEN]


def fit(type_fit: TypeFit, call_fit: CallFit, id_fit: IdFit, slot_fit: SlotFit) -> Fit:
    """The matching table (R6): does a done or snapshot item fit one proposed entry.

    post: (type_fit, call_fit, id_fit, slot_fit, __return__) in edges("fit")
    """
    if type_fit is _TypeFit_SAME:
        if call_fit is _CallFit_EQUAL:
            if id_fit is _IdFit_BLANK:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][BLANK][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][BLANK][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][BLANK][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][BLANK][CLOSED_SNAPSHOT]
                return _FIT__AGREE  # matching[SAME][EQUAL][BLANK][ELSEWHERE]
            if id_fit is _IdFit_NAMES:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][NAMES][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][NAMES][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][NAMES][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][NAMES][CLOSED_SNAPSHOT]
                return _FIT__AGREE  # matching[SAME][EQUAL][NAMES][ELSEWHERE]
            if id_fit is _IdFit_UNSEEN:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][UNSEEN][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][UNSEEN][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__AGREE  # matching[SAME][EQUAL][UNSEEN][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][EQUAL][UNSEEN][CLOSED_SNAPSHOT]
                return _FIT__AGREE  # matching[SAME][EQUAL][UNSEEN][ELSEWHERE]
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__AGREE  # matching[SAME][EQUAL][OTHER][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__AGREE  # matching[SAME][EQUAL][OTHER][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__AGREE  # matching[SAME][EQUAL][OTHER][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__AGREE  # matching[SAME][EQUAL][OTHER][CLOSED_SNAPSHOT]
            return _FIT__AGREE  # matching[SAME][EQUAL][OTHER][ELSEWHERE]
        if call_fit is _CallFit_BLANK:
            if id_fit is _IdFit_BLANK:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][BLANK][BLANK][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][BLANK][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__AGREE  # matching[SAME][BLANK][BLANK][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][BLANK][CLOSED_SNAPSHOT]
                return _FIT__AGREE  # matching[SAME][BLANK][BLANK][ELSEWHERE]
            if id_fit is _IdFit_NAMES:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][BLANK][NAMES][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][NAMES][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__AGREE  # matching[SAME][BLANK][NAMES][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][NAMES][CLOSED_SNAPSHOT]
                return _FIT__AGREE  # matching[SAME][BLANK][NAMES][ELSEWHERE]
            if id_fit is _IdFit_UNSEEN:
                if slot_fit is _SlotFit_OPEN_DONE:
                    return _FIT__AGREE  # matching[SAME][BLANK][UNSEEN][OPEN_DONE]
                if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][UNSEEN][OPEN_SNAPSHOT]
                if slot_fit is _SlotFit_CLOSED_DONE:
                    return _FIT__NONE  # matching[SAME][BLANK][UNSEEN][CLOSED_DONE]
                if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                    return _FIT__AGREE  # matching[SAME][BLANK][UNSEEN][CLOSED_SNAPSHOT]
                return _FIT__NONE  # matching[SAME][BLANK][UNSEEN][ELSEWHERE]
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[SAME][BLANK][OTHER][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][BLANK][OTHER][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[SAME][BLANK][OTHER][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][BLANK][OTHER][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[SAME][BLANK][OTHER][ELSEWHERE]
        if id_fit is _IdFit_BLANK:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[SAME][DIFFERS][BLANK][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][DIFFERS][BLANK][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[SAME][DIFFERS][BLANK][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][DIFFERS][BLANK][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[SAME][DIFFERS][BLANK][ELSEWHERE]
        if id_fit is _IdFit_NAMES:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__OWN  # matching[SAME][DIFFERS][NAMES][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][DIFFERS][NAMES][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[SAME][DIFFERS][NAMES][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__REKEYED  # matching[SAME][DIFFERS][NAMES][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[SAME][DIFFERS][NAMES][ELSEWHERE]
        if id_fit is _IdFit_UNSEEN:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[SAME][DIFFERS][UNSEEN][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[SAME][DIFFERS][UNSEEN][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[SAME][DIFFERS][UNSEEN][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__REKEYED  # matching[SAME][DIFFERS][UNSEEN][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[SAME][DIFFERS][UNSEEN][ELSEWHERE]
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[SAME][DIFFERS][OTHER][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[SAME][DIFFERS][OTHER][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[SAME][DIFFERS][OTHER][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[SAME][DIFFERS][OTHER][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[SAME][DIFFERS][OTHER][ELSEWHERE]
    if call_fit is _CallFit_EQUAL:
        if id_fit is _IdFit_BLANK:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][BLANK][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][BLANK][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][BLANK][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][BLANK][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][EQUAL][BLANK][ELSEWHERE]
        if id_fit is _IdFit_NAMES:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][NAMES][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][NAMES][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][NAMES][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][NAMES][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][EQUAL][NAMES][ELSEWHERE]
        if id_fit is _IdFit_UNSEEN:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][UNSEEN][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][UNSEEN][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][UNSEEN][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][EQUAL][UNSEEN][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][EQUAL][UNSEEN][ELSEWHERE]
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[DIFFERS][EQUAL][OTHER][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][EQUAL][OTHER][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[DIFFERS][EQUAL][OTHER][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][EQUAL][OTHER][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[DIFFERS][EQUAL][OTHER][ELSEWHERE]
    if call_fit is _CallFit_BLANK:
        if id_fit is _IdFit_BLANK:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][BLANK][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][BLANK][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][BLANK][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][BLANK][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][BLANK][BLANK][ELSEWHERE]
        if id_fit is _IdFit_NAMES:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][NAMES][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][NAMES][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][NAMES][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][NAMES][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][BLANK][NAMES][ELSEWHERE]
        if id_fit is _IdFit_UNSEEN:
            if slot_fit is _SlotFit_OPEN_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][UNSEEN][OPEN_DONE]
            if slot_fit is _SlotFit_OPEN_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][UNSEEN][OPEN_SNAPSHOT]
            if slot_fit is _SlotFit_CLOSED_DONE:
                return _FIT__NONE  # matching[DIFFERS][BLANK][UNSEEN][CLOSED_DONE]
            if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
                return _FIT__NONE  # matching[DIFFERS][BLANK][UNSEEN][CLOSED_SNAPSHOT]
            return _FIT__NONE  # matching[DIFFERS][BLANK][UNSEEN][ELSEWHERE]
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[DIFFERS][BLANK][OTHER][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][BLANK][OTHER][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[DIFFERS][BLANK][OTHER][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][BLANK][OTHER][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[DIFFERS][BLANK][OTHER][ELSEWHERE]
    if id_fit is _IdFit_BLANK:
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][BLANK][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][BLANK][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][BLANK][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][BLANK][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][BLANK][ELSEWHERE]
    if id_fit is _IdFit_NAMES:
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][NAMES][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][NAMES][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][NAMES][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][NAMES][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][NAMES][ELSEWHERE]
    if id_fit is _IdFit_UNSEEN:
        if slot_fit is _SlotFit_OPEN_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][UNSEEN][OPEN_DONE]
        if slot_fit is _SlotFit_OPEN_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][UNSEEN][OPEN_SNAPSHOT]
        if slot_fit is _SlotFit_CLOSED_DONE:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][UNSEEN][CLOSED_DONE]
        if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
            return _FIT__NONE  # matching[DIFFERS][DIFFERS][UNSEEN][CLOSED_SNAPSHOT]
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][UNSEEN][ELSEWHERE]
    if slot_fit is _SlotFit_OPEN_DONE:
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][OTHER][OPEN_DONE]
    if slot_fit is _SlotFit_OPEN_SNAPSHOT:
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][OTHER][OPEN_SNAPSHOT]
    if slot_fit is _SlotFit_CLOSED_DONE:
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][OTHER][CLOSED_DONE]
    if slot_fit is _SlotFit_CLOSED_SNAPSHOT:
        return _FIT__NONE  # matching[DIFFERS][DIFFERS][OTHER][CLOSED_SNAPSHOT]
    return _FIT__NONE  # matching[DIFFERS][DIFFERS][OTHER][ELSEWHERE]


def admit_done(view: MatchView) -> Admission:
    """Matching of an output_item.done or snapshot item (R6).

    post: (view, __return__) in edges("admit_done")
    """
    if view is _MatchView_NONE:
        return _ADMISSION__ADMIT__FIXED  # done_admission[NONE]
    if view is _MatchView_AGREE:
        return _ADMISSION__MATCH__FIXED  # done_admission[AGREE]
    if view is _MatchView_OWN:
        return _ADMISSION__MATCH__CONFIRMING  # done_admission[OWN]
    if view is _MatchView_REKEYED:
        return _ADMISSION__MATCH__SNAPSHOT_REKEYED__FIXED  # done_admission[REKEYED]
    if view is _MatchView_CONFLICT:
        return _ADMISSION__REJECT__AMBIGUOUS_ROUTE__FIXED  # done_admission[CONFLICT]
    return _ADMISSION__REJECT__DUPLICATE_CALL_ID__FIXED  # done_admission[CALL_ID_TAKEN]


def payload(held: PayloadHeld, relation: OfferRelation) -> PayloadDecision:
    """The payload table (R7): keep the held value or take the offer.

    post: (held, relation, __return__) in edges("payload")
    """
    if held is _PayloadHeld_NOTHING:
        if relation is _OfferRelation_MISSING:
            return _PAYLOADDECISION__KEEP  # payload[NOTHING][MISSING]
        if relation is _OfferRelation_EMPTY:
            return _PAYLOADDECISION__TAKE  # payload[NOTHING][EMPTY]
        if relation is _OfferRelation_FIRST:
            return _PAYLOADDECISION__TAKE  # payload[NOTHING][FIRST]
        if relation is _OfferRelation_EQUAL:
            return _PAYLOADDECISION__TAKE  # payload[NOTHING][EQUAL]
        if relation is _OfferRelation_EXTENDS:
            return _PAYLOADDECISION__TAKE  # payload[NOTHING][EXTENDS]
        return _PAYLOADDECISION__TAKE  # payload[NOTHING][DIFFERS]
    if held is _PayloadHeld_EMPTY:
        if relation is _OfferRelation_MISSING:
            return _PAYLOADDECISION__KEEP  # payload[EMPTY][MISSING]
        if relation is _OfferRelation_EMPTY:
            return _PAYLOADDECISION__KEEP  # payload[EMPTY][EMPTY]
        if relation is _OfferRelation_FIRST:
            return _PAYLOADDECISION__TAKE__EMPTY_PAYLOAD_FILLED  # payload[EMPTY][FIRST]
        if relation is _OfferRelation_EQUAL:
            return _PAYLOADDECISION__TAKE  # payload[EMPTY][EQUAL]
        if relation is _OfferRelation_EXTENDS:
            return _PAYLOADDECISION__TAKE  # payload[EMPTY][EXTENDS]
        return _PAYLOADDECISION__TAKE  # payload[EMPTY][DIFFERS]
    if relation is _OfferRelation_MISSING:
        return _PAYLOADDECISION__KEEP  # payload[VALUE][MISSING]
    if relation is _OfferRelation_EMPTY:
        return _PAYLOADDECISION__KEEP__EMPTY_PAYLOAD_IGNORED  # payload[VALUE][EMPTY]
    if relation is _OfferRelation_FIRST:
        return _PAYLOADDECISION__TAKE  # payload[VALUE][FIRST]
    if relation is _OfferRelation_EQUAL:
        return _PAYLOADDECISION__TAKE  # payload[VALUE][EQUAL]
    if relation is _OfferRelation_EXTENDS:
        return _PAYLOADDECISION__TAKE__PAYLOAD_EXTENDED  # payload[VALUE][EXTENDS]
    return _PAYLOADDECISION__TAKE__DIVERGENT_PAYLOAD  # payload[VALUE][DIFFERS]


def identity(field: IdentityField, stage: MergeStage, relation: IdentityRelation) -> IdentityDecision:
    """The identity table (R6): keep an entry's call_id, name, namespace or take the item's.

    post: (field, stage, relation, __return__) in edges("identity")
    """
    if field is _IdentityField_CALL_ID:
        if stage is _MergeStage_FIXED:
            if relation is _IdentityRelation_MISSING:
                return _IDENTITYDECISION__KEEP  # identity[CALL_ID][FIXED][MISSING]
            if relation is _IdentityRelation_FIRST:
                return _IDENTITYDECISION__TAKE  # identity[CALL_ID][FIXED][FIRST]
            if relation is _IdentityRelation_TAKEN:
                return _IDENTITYDECISION__KEEP__DUPLICATE_CALL_ID  # identity[CALL_ID][FIXED][TAKEN]
            if relation is _IdentityRelation_EQUAL:
                return _IDENTITYDECISION__KEEP  # identity[CALL_ID][FIXED][EQUAL]
            return _IDENTITYDECISION__KEEP__METADATA_CONFLICT  # identity[CALL_ID][FIXED][DIFFERS]
        if relation is _IdentityRelation_MISSING:
            return _IDENTITYDECISION__KEEP  # identity[CALL_ID][CONFIRMING][MISSING]
        if relation is _IdentityRelation_FIRST:
            return _IDENTITYDECISION__TAKE  # identity[CALL_ID][CONFIRMING][FIRST]
        if relation is _IdentityRelation_TAKEN:
            return _IDENTITYDECISION__KEEP__DUPLICATE_CALL_ID  # identity[CALL_ID][CONFIRMING][TAKEN]
        if relation is _IdentityRelation_EQUAL:
            return _IDENTITYDECISION__KEEP  # identity[CALL_ID][CONFIRMING][EQUAL]
        return _IDENTITYDECISION__TAKE__CALL_ID_RENAMED  # identity[CALL_ID][CONFIRMING][DIFFERS]
    if field is _IdentityField_NAME:
        if stage is _MergeStage_FIXED:
            if relation is _IdentityRelation_MISSING:
                return _IDENTITYDECISION__KEEP  # identity[NAME][FIXED][MISSING]
            if relation is _IdentityRelation_FIRST:
                return _IDENTITYDECISION__TAKE  # identity[NAME][FIXED][FIRST]
            if relation is _IdentityRelation_TAKEN:
                return _IDENTITYDECISION__KEEP  # identity[NAME][FIXED][TAKEN]
            if relation is _IdentityRelation_EQUAL:
                return _IDENTITYDECISION__KEEP  # identity[NAME][FIXED][EQUAL]
            return _IDENTITYDECISION__KEEP__METADATA_CONFLICT  # identity[NAME][FIXED][DIFFERS]
        if relation is _IdentityRelation_MISSING:
            return _IDENTITYDECISION__KEEP  # identity[NAME][CONFIRMING][MISSING]
        if relation is _IdentityRelation_FIRST:
            return _IDENTITYDECISION__TAKE  # identity[NAME][CONFIRMING][FIRST]
        if relation is _IdentityRelation_TAKEN:
            return _IDENTITYDECISION__KEEP  # identity[NAME][CONFIRMING][TAKEN]
        if relation is _IdentityRelation_EQUAL:
            return _IDENTITYDECISION__KEEP  # identity[NAME][CONFIRMING][EQUAL]
        return _IDENTITYDECISION__KEEP__METADATA_CONFLICT  # identity[NAME][CONFIRMING][DIFFERS]
    if stage is _MergeStage_FIXED:
        if relation is _IdentityRelation_MISSING:
            return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][FIXED][MISSING]
        if relation is _IdentityRelation_FIRST:
            return _IDENTITYDECISION__TAKE  # identity[NAMESPACE][FIXED][FIRST]
        if relation is _IdentityRelation_TAKEN:
            return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][FIXED][TAKEN]
        if relation is _IdentityRelation_EQUAL:
            return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][FIXED][EQUAL]
        return _IDENTITYDECISION__KEEP__METADATA_CONFLICT  # identity[NAMESPACE][FIXED][DIFFERS]
    if relation is _IdentityRelation_MISSING:
        return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][CONFIRMING][MISSING]
    if relation is _IdentityRelation_FIRST:
        return _IDENTITYDECISION__TAKE  # identity[NAMESPACE][CONFIRMING][FIRST]
    if relation is _IdentityRelation_TAKEN:
        return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][CONFIRMING][TAKEN]
    if relation is _IdentityRelation_EQUAL:
        return _IDENTITYDECISION__KEEP  # identity[NAMESPACE][CONFIRMING][EQUAL]
    return _IDENTITYDECISION__KEEP__METADATA_CONFLICT  # identity[NAMESPACE][CONFIRMING][DIFFERS]


def reclassify(trigger: Trigger, state: ChannelState) -> Trigger:
    """The reclassification table (R7): the trigger a channel event delivers.

    post: (trigger, state, __return__) in edges("reclassify")
    """
    if trigger is _Trigger_DELTA:
        if state is _ChannelState_OPEN:
            return _TRIGGER__DELTA  # reclassification[DELTA][OPEN]
        return _TRIGGER__DELTA_ON_CLOSED_CHANNEL  # reclassification[DELTA][CLOSED]
    if trigger is _Trigger_PART_ADDED:
        if state is _ChannelState_OPEN:
            return _TRIGGER__PART_ADDED  # reclassification[PART_ADDED][OPEN]
        return _TRIGGER__PART_ADDED  # reclassification[PART_ADDED][CLOSED]
    if trigger is _Trigger_PAYLOAD_DONE:
        if state is _ChannelState_OPEN:
            return _TRIGGER__PAYLOAD_DONE  # reclassification[PAYLOAD_DONE][OPEN]
        return _TRIGGER__PAYLOAD_DONE  # reclassification[PAYLOAD_DONE][CLOSED]
    if trigger is _Trigger_ITEM_ADDED:
        if state is _ChannelState_OPEN:
            return _TRIGGER__ITEM_ADDED  # reclassification[ITEM_ADDED][OPEN]
        return _TRIGGER__ITEM_ADDED  # reclassification[ITEM_ADDED][CLOSED]
    if trigger is _Trigger_DELTA_ON_CLOSED_CHANNEL:
        if state is _ChannelState_OPEN:
            return _TRIGGER__DELTA_ON_CLOSED_CHANNEL  # reclassification[DELTA_ON_CLOSED_CHANNEL][OPEN]
        return _TRIGGER__DELTA_ON_CLOSED_CHANNEL  # reclassification[DELTA_ON_CLOSED_CHANNEL][CLOSED]
    if trigger is _Trigger_PROGRESS:
        if state is _ChannelState_OPEN:
            return _TRIGGER__PROGRESS  # reclassification[PROGRESS][OPEN]
        return _TRIGGER__PROGRESS  # reclassification[PROGRESS][CLOSED]
    if trigger is _Trigger_ITEM_DONE:
        if state is _ChannelState_OPEN:
            return _TRIGGER__ITEM_DONE  # reclassification[ITEM_DONE][OPEN]
        return _TRIGGER__ITEM_DONE  # reclassification[ITEM_DONE][CLOSED]
    if trigger is _Trigger_SNAPSHOT_ITEM:
        if state is _ChannelState_OPEN:
            return _TRIGGER__SNAPSHOT_ITEM  # reclassification[SNAPSHOT_ITEM][OPEN]
        return _TRIGGER__SNAPSHOT_ITEM  # reclassification[SNAPSHOT_ITEM][CLOSED]
    if trigger is _Trigger_RESPONSE_COMPLETED:
        if state is _ChannelState_OPEN:
            return _TRIGGER__RESPONSE_COMPLETED  # reclassification[RESPONSE_COMPLETED][OPEN]
        return _TRIGGER__RESPONSE_COMPLETED  # reclassification[RESPONSE_COMPLETED][CLOSED]
    if state is _ChannelState_OPEN:
        return _TRIGGER__RESPONSE_ABORTED  # reclassification[RESPONSE_ABORTED][OPEN]
    return _TRIGGER__RESPONSE_ABORTED  # reclassification[RESPONSE_ABORTED][CLOSED]


def boundary(opening: Opening, held: Held, match: IdMatch) -> Boundary:
    """The boundary table (R14): an opening event continues the held response or not.

    post: (opening, held, match, __return__) in edges("boundary")
    """
    if opening is _Opening_CREATED:
        if held is _Held_NOTHING:
            if match is _IdMatch_SAME:
                return _BOUNDARY__CONTINUE  # boundary[CREATED][NOTHING][SAME]
            if match is _IdMatch_OTHER:
                return _BOUNDARY__CONTINUE  # boundary[CREATED][NOTHING][OTHER]
            return _BOUNDARY__CONTINUE  # boundary[CREATED][NOTHING][UNKNOWN]
        if held is _Held_OPEN:
            if match is _IdMatch_SAME:
                return _BOUNDARY__CONTINUE  # boundary[CREATED][OPEN][SAME]
            if match is _IdMatch_OTHER:
                return _BOUNDARY__NEW  # boundary[CREATED][OPEN][OTHER]
            return _BOUNDARY__NEW  # boundary[CREATED][OPEN][UNKNOWN]
        if match is _IdMatch_SAME:
            return _BOUNDARY__NEW  # boundary[CREATED][ENDED][SAME]
        if match is _IdMatch_OTHER:
            return _BOUNDARY__NEW  # boundary[CREATED][ENDED][OTHER]
        return _BOUNDARY__NEW  # boundary[CREATED][ENDED][UNKNOWN]
    if held is _Held_NOTHING:
        if match is _IdMatch_SAME:
            return _BOUNDARY__CONTINUE  # boundary[PROGRESS][NOTHING][SAME]
        if match is _IdMatch_OTHER:
            return _BOUNDARY__CONTINUE  # boundary[PROGRESS][NOTHING][OTHER]
        return _BOUNDARY__CONTINUE  # boundary[PROGRESS][NOTHING][UNKNOWN]
    if held is _Held_OPEN:
        if match is _IdMatch_SAME:
            return _BOUNDARY__CONTINUE  # boundary[PROGRESS][OPEN][SAME]
        if match is _IdMatch_OTHER:
            return _BOUNDARY__CONTINUE  # boundary[PROGRESS][OPEN][OTHER]
        return _BOUNDARY__CONTINUE  # boundary[PROGRESS][OPEN][UNKNOWN]
    if match is _IdMatch_SAME:
        return _BOUNDARY__CONTINUE  # boundary[PROGRESS][ENDED][SAME]
    if match is _IdMatch_OTHER:
        return _BOUNDARY__NEW  # boundary[PROGRESS][ENDED][OTHER]
    return _BOUNDARY__CONTINUE  # boundary[PROGRESS][ENDED][UNKNOWN]


def frame(kind: ClientFrame) -> Boundary:
    """The client frames table (R14): a frame ends the held response or nothing.

    post: (kind, __return__) in edges("frame")
    """
    if kind is _ClientFrame_CREATE:
        return _BOUNDARY__NEW  # frames[CREATE]
    return _BOUNDARY__CONTINUE  # frames[STEER]


def fills_slot(item: MatchedItem) -> bool:
    """The slot fill rule (R6): a matched item's output_index fills a missing slot.

    post: (item, __return__) in edges("fills_slot")
    """
    if item is _MatchedItem_DONE:
        return _TRUE  # fills_missing_slot[DONE]
    return _FALSE  # fills_missing_slot[SNAPSHOT]


def merge_part(view: PositionView) -> PartMerge:
    """The part merge table (R15): where a progress event's value goes in its part.

    post: (view, __return__) in edges("merge_part")
    """
    if view is _PositionView_INSIDE:
        return _PARTMERGE__REPLACE  # part_merge[INSIDE]
    if view is _PositionView_PAST_END:
        return _PARTMERGE__APPEND  # part_merge[PAST_END]
    return _PARTMERGE__APPEND  # part_merge[NONE]


def terminal_status(terminal: Terminal) -> ResponseStatus:
    """The terminal status table (R9): the status a terminal event gives its response.

    post: (terminal, __return__) in edges("terminal_status")
    """
    if terminal is _Terminal_COMPLETED:
        return _RESPONSESTATUS__COMPLETED  # terminal_status[COMPLETED]
    if terminal is _Terminal_INCOMPLETE:
        return _RESPONSESTATUS__INCOMPLETE  # terminal_status[INCOMPLETE]
    if terminal is _Terminal_FAILED:
        return _RESPONSESTATUS__FAILED  # terminal_status[FAILED]
    if terminal is _Terminal_CANCELLED:
        return _RESPONSESTATUS__CANCELLED  # terminal_status[CANCELLED]
    return _RESPONSESTATUS__FAILED  # terminal_status[ERROR]


def amends(terminal: Terminal) -> bool:
    """The amendable terminals (R14): the terminal right after this one describes it.

    post: (terminal, __return__) in edges("amends")
    """
    if terminal is _Terminal_ERROR:
        return _TRUE  # amendable[ERROR]
    if terminal is _Terminal_COMPLETED:
        return _FALSE  # amendable[COMPLETED]
    if terminal is _Terminal_INCOMPLETE:
        return _FALSE  # amendable[INCOMPLETE]
    if terminal is _Terminal_FAILED:
        return _FALSE  # amendable[FAILED]
    return _FALSE  # amendable[CANCELLED]


def execute(stop: Stop) -> Execution:
    """The execution table (R13): the verdict of where the gates stopped.

    post: (stop, __return__) in edges("execute")
    """
    if stop is _Stop_NOT_A_CALL:
        return _EXECUTION__NOT_A_CALL  # execution[NOT_A_CALL]
    if stop is _Stop_NOT_COMPLETED:
        return _EXECUTION__NOT_COMPLETED  # execution[NOT_COMPLETED]
    if stop is _Stop_UNCONFIRMED:
        return _EXECUTION__UNCONFIRMED  # execution[UNCONFIRMED]
    if stop is _Stop_NO_CALL_ID:
        return _EXECUTION__NO_CALL_ID  # execution[NO_CALL_ID]
    if stop is _Stop_ANSWERED:
        return _EXECUTION__ANSWERED  # execution[ANSWERED]
    if stop is _Stop_NO_TOOLS:
        return _EXECUTION__TOOLS_UNKNOWN  # execution[NO_TOOLS]
    if stop is _Stop_DECLARED_CLIENT:
        return _EXECUTION__CLIENT  # execution[DECLARED_CLIENT]
    if stop is _Stop_DECLARED_SERVER:
        return _EXECUTION__SERVER  # execution[DECLARED_SERVER]
    if stop is _Stop_UNDECLARED:
        return _EXECUTION__UNDECLARED  # execution[UNDECLARED]
    return _EXECUTION__UNKNOWN_TOOL_TYPE  # execution[UNKNOWN_TOOL_TYPE]


def names_one(field: IdentityField) -> bool:
    """Whether a field's value names one entry (R6): another entry's value is TAKEN.

    post: (field, __return__) in edges("names_one")
    """
    if field is _IdentityField_CALL_ID:
        return _TRUE  # names_one_entry[CALL_ID]
    if field is _IdentityField_NAME:
        return _FALSE  # names_one_entry[NAME]
    return _FALSE  # names_one_entry[NAMESPACE]


def shell_runner(environment: ShellEnvironment) -> Runner:
    """The shell environments (R13): who runs the calls of a declared shell tool.

    post: (environment, __return__) in edges("shell_runner")
    """
    if environment is _ShellEnvironment_NONE:
        return _RUNNER__CLIENT  # environment_runner[NONE]
    if environment is _ShellEnvironment_LOCAL:
        return _RUNNER__CLIENT  # environment_runner[LOCAL]
    if environment is _ShellEnvironment_CONTAINER_AUTO:
        return _RUNNER__SERVER  # environment_runner[CONTAINER_AUTO]
    if environment is _ShellEnvironment_CONTAINER_REFERENCE:
        return _RUNNER__SERVER  # environment_runner[CONTAINER_REFERENCE]
    return _RUNNER__SERVER  # environment_runner[OTHER]


def search_runner(execution: SearchExecution) -> Runner:
    """The tool search executions (R13): who runs a tool search.

    post: (execution, __return__) in edges("search_runner")
    """
    if execution is _SearchExecution_CLIENT:
        return _RUNNER__CLIENT  # execution_runner[CLIENT]
    if execution is _SearchExecution_SERVER:
        return _RUNNER__SERVER  # execution_runner[SERVER]
    return _RUNNER__SERVER  # execution_runner[UNSET]


def declares(answer: Declared) -> Stop:
    """The declared tools' answer (R13): where it leaves the walk through the gates.

    post: (answer, __return__) in edges("declares")
    """
    if answer is _Declared_CLIENT:
        return _STOP__DECLARED_CLIENT  # declared[CLIENT]
    if answer is _Declared_SERVER:
        return _STOP__DECLARED_SERVER  # declared[SERVER]
    if answer is _Declared_NONE:
        return _STOP__UNDECLARED  # declared[NONE]
    return _STOP__UNKNOWN_TOOL_TYPE  # declared[UNKNOWN_TYPE]


def reads_execution(value: ExecutionValue) -> SearchExecution:
    """The wire's execution (R13): what it says of a tool search.

    post: (value, __return__) in edges("reads_execution")
    """
    if value is _ExecutionValue_CLIENT:
        return _SEARCHEXECUTION__CLIENT  # execution_values[CLIENT]
    if value is _ExecutionValue_SERVER:
        return _SEARCHEXECUTION__SERVER  # execution_values[SERVER]
    return _SEARCHEXECUTION__UNSET  # execution_values[OTHER]


def reads_environment(kind: EnvironmentType) -> ShellEnvironment:
    """The wire's environment.type (R13): the environment a declared shell names.

    post: (kind, __return__) in edges("reads_environment")
    """
    if kind is _EnvironmentType_ABSENT:
        return _SHELLENVIRONMENT__NONE  # environment_types[ABSENT]
    if kind is _EnvironmentType_LOCAL:
        return _SHELLENVIRONMENT__LOCAL  # environment_types[LOCAL]
    if kind is _EnvironmentType_CONTAINER_AUTO:
        return _SHELLENVIRONMENT__CONTAINER_AUTO  # environment_types[CONTAINER_AUTO]
    if kind is _EnvironmentType_CONTAINER_REFERENCE:
        return _SHELLENVIRONMENT__CONTAINER_REFERENCE  # environment_types[CONTAINER_REFERENCE]
    return _SHELLENVIRONMENT__OTHER  # environment_types[OTHER]


def reads_opening(kind: OpeningType) -> Opening:
    """The wire's type of an opening event (R14): the kind of opening it is.

    post: (kind, __return__) in edges("reads_opening")
    """
    if kind is _OpeningType_CREATED:
        return _OPENING__CREATED  # openings[CREATED]
    if kind is _OpeningType_QUEUED:
        return _OPENING__PROGRESS  # openings[QUEUED]
    return _OPENING__PROGRESS  # openings[IN_PROGRESS]


def reads_frame(kind: FrameType) -> ClientFrame:
    """The wire's type of a client frame (R14): the frame it is.

    post: (kind, __return__) in edges("reads_frame")
    """
    if kind is _FrameType_CREATE:
        return _CLIENTFRAME__CREATE  # client_frames[CREATE]
    return _CLIENTFRAME__STEER  # client_frames[STEER]


def reads_matched(trigger: MatchTrigger) -> MatchedItem:
    """The trigger of a matched item (R6): where the item comes from.

    post: (trigger, __return__) in edges("reads_matched")
    """
    if trigger is _MatchTrigger_ITEM_DONE:
        return _MATCHEDITEM__DONE  # matched_items[ITEM_DONE]
    return _MATCHEDITEM__SNAPSHOT  # matched_items[SNAPSHOT_ITEM]


def reads_addition(kind: AdditionType) -> PartAddition:
    """The wire's type of a part addition event (R15): what it adds where.

    post: (kind, __return__) in edges("reads_addition")
    """
    if kind is _AdditionType_ANNOTATION_ADDED:
        return _PARTADDITION__TEXT__CONTENT_INDEX__ANNOTATION__ANNOTATION_INDEX  # part_additions[ANNOTATION_ADDED]
    return _PARTADDITION__TEXT__CONTENT_INDEX__ANNOTATION__ANNOTATION_INDEX  # part_additions[ANNOTATION_ADDED_OLDER]


def withholds(verdict: Execution) -> bool:
    """The withheld verdicts (R13): a completed call not run, reported call_withheld.

    post: (verdict, __return__) in edges("withholds")
    """
    if verdict is _Execution_NOT_A_CALL:
        return _FALSE  # withheld[NOT_A_CALL]
    if verdict is _Execution_NOT_COMPLETED:
        return _FALSE  # withheld[NOT_COMPLETED]
    if verdict is _Execution_UNCONFIRMED:
        return _FALSE  # withheld[UNCONFIRMED]
    if verdict is _Execution_NO_CALL_ID:
        return _TRUE  # withheld[NO_CALL_ID]
    if verdict is _Execution_ANSWERED:
        return _TRUE  # withheld[ANSWERED]
    if verdict is _Execution_SERVER:
        return _TRUE  # withheld[SERVER]
    if verdict is _Execution_UNDECLARED:
        return _TRUE  # withheld[UNDECLARED]
    if verdict is _Execution_UNKNOWN_TOOL_TYPE:
        return _TRUE  # withheld[UNKNOWN_TOOL_TYPE]
    if verdict is _Execution_CLIENT:
        return _FALSE  # withheld[CLIENT]
    return _FALSE  # withheld[TOOLS_UNKNOWN]


def notes(effect: Effect) -> Code | None:
    """The note codes (R8): the diagnostic a lifecycle row's note effect raises.

    post: (effect, __return__) in edges("notes")
    """
    if effect is _Effect_ADMIT:
        return _NONE  # note_codes[ADMIT]
    if effect is _Effect_BIND_SLOT:
        return _NONE  # note_codes[BIND_SLOT]
    if effect is _Effect_OPEN_PART:
        return _NONE  # note_codes[OPEN_PART]
    if effect is _Effect_APPEND_DELTA:
        return _NONE  # note_codes[APPEND_DELTA]
    if effect is _Effect_OFFER_PAYLOAD:
        return _NONE  # note_codes[OFFER_PAYLOAD]
    if effect is _Effect_CLOSE_CHANNEL:
        return _NONE  # note_codes[CLOSE_CHANNEL]
    if effect is _Effect_MERGE_ITEM:
        return _NONE  # note_codes[MERGE_ITEM]
    if effect is _Effect_OFFER_ITEM_PAYLOADS:
        return _NONE  # note_codes[OFFER_ITEM_PAYLOADS]
    if effect is _Effect_CONFIRM:
        return _NONE  # note_codes[CONFIRM]
    if effect is _Effect_LEARN_ITEM_ID:
        return _NONE  # note_codes[LEARN_ITEM_ID]
    if effect is _Effect_TOMBSTONE_SLOT:
        return _NONE  # note_codes[TOMBSTONE_SLOT]
    if effect is _Effect_EMIT_COMPLETION:
        return _NONE  # note_codes[EMIT_COMPLETION]
    if effect is _Effect_NOTE_DUPLICATE_ITEM:
        return _CODE__DUPLICATE_ITEM  # note_codes[NOTE_DUPLICATE_ITEM]
    if effect is _Effect_NOTE_LATE_EVENT:
        return _CODE__LATE_EVENT  # note_codes[NOTE_LATE_EVENT]
    if effect is _Effect_NOTE_UNCONFIRMED:
        return _CODE__UNCONFIRMED_ITEM  # note_codes[NOTE_UNCONFIRMED]
    if effect is _Effect_NOTE_MISSING_FROM_SNAPSHOT:
        return _CODE__SNAPSHOT_MISSING_ITEM  # note_codes[NOTE_MISSING_FROM_SNAPSHOT]
    if effect is _Effect_NOTE_ORPHAN:
        return _CODE__ORPHAN_EVENT  # note_codes[NOTE_ORPHAN]
    if effect is _Effect_NOTE_DONE_ONLY:
        return _CODE__DONE_ONLY_ITEM  # note_codes[NOTE_DONE_ONLY]
    return _CODE__SNAPSHOT_ONLY_ITEM  # note_codes[NOTE_SNAPSHOT_ONLY]


def waives(effect: Effect) -> bool:
    """The resume waivers (R14): a note effect that raises nothing in a resumed response.

    post: (effect, __return__) in edges("waives")
    """
    if effect is _Effect_ADMIT:
        return _FALSE  # resume_waived[ADMIT]
    if effect is _Effect_BIND_SLOT:
        return _FALSE  # resume_waived[BIND_SLOT]
    if effect is _Effect_OPEN_PART:
        return _FALSE  # resume_waived[OPEN_PART]
    if effect is _Effect_APPEND_DELTA:
        return _FALSE  # resume_waived[APPEND_DELTA]
    if effect is _Effect_OFFER_PAYLOAD:
        return _FALSE  # resume_waived[OFFER_PAYLOAD]
    if effect is _Effect_CLOSE_CHANNEL:
        return _FALSE  # resume_waived[CLOSE_CHANNEL]
    if effect is _Effect_MERGE_ITEM:
        return _FALSE  # resume_waived[MERGE_ITEM]
    if effect is _Effect_OFFER_ITEM_PAYLOADS:
        return _FALSE  # resume_waived[OFFER_ITEM_PAYLOADS]
    if effect is _Effect_CONFIRM:
        return _FALSE  # resume_waived[CONFIRM]
    if effect is _Effect_LEARN_ITEM_ID:
        return _FALSE  # resume_waived[LEARN_ITEM_ID]
    if effect is _Effect_TOMBSTONE_SLOT:
        return _FALSE  # resume_waived[TOMBSTONE_SLOT]
    if effect is _Effect_EMIT_COMPLETION:
        return _FALSE  # resume_waived[EMIT_COMPLETION]
    if effect is _Effect_NOTE_DUPLICATE_ITEM:
        return _FALSE  # resume_waived[NOTE_DUPLICATE_ITEM]
    if effect is _Effect_NOTE_LATE_EVENT:
        return _FALSE  # resume_waived[NOTE_LATE_EVENT]
    if effect is _Effect_NOTE_UNCONFIRMED:
        return _FALSE  # resume_waived[NOTE_UNCONFIRMED]
    if effect is _Effect_NOTE_MISSING_FROM_SNAPSHOT:
        return _FALSE  # resume_waived[NOTE_MISSING_FROM_SNAPSHOT]
    if effect is _Effect_NOTE_ORPHAN:
        return _FALSE  # resume_waived[NOTE_ORPHAN]
    if effect is _Effect_NOTE_DONE_ONLY:
        return _TRUE  # resume_waived[NOTE_DONE_ONLY]
    return _TRUE  # resume_waived[NOTE_SNAPSHOT_ONLY]


def announces(kind: ChannelKind) -> bool:
    """The announced parts (R7): a delta opening such a channel owes part_not_added.

    post: (kind, __return__) in edges("announces")
    """
    if kind is _ChannelKind_ARGUMENTS:
        return _FALSE  # announced_parts[ARGUMENTS]
    if kind is _ChannelKind_INPUT:
        return _FALSE  # announced_parts[INPUT]
    if kind is _ChannelKind_TEXT:
        return _TRUE  # announced_parts[TEXT]
    if kind is _ChannelKind_REFUSAL:
        return _TRUE  # announced_parts[REFUSAL]
    if kind is _ChannelKind_SUMMARY:
        return _TRUE  # announced_parts[SUMMARY]
    if kind is _ChannelKind_REASONING_TEXT:
        return _TRUE  # announced_parts[REASONING_TEXT]
    if kind is _ChannelKind_CODE:
        return _FALSE  # announced_parts[CODE]
    if kind is _ChannelKind_DIFF:
        return _FALSE  # announced_parts[DIFF]
    return _TRUE  # announced_parts[COMMAND]


KERNELS = KernelSet(lifecycle=lifecycle, slot=slot, route=route, namespace=namespace, admit_added=admit_added, fit=fit, admit_done=admit_done, payload=payload, identity=identity, reclassify=reclassify, boundary=boundary, frame=frame, fills_slot=fills_slot, merge_part=merge_part, terminal_status=terminal_status, amends=amends, execute=execute, names_one=names_one, shell_runner=shell_runner, search_runner=search_runner, declares=declares, reads_execution=reads_execution, reads_environment=reads_environment, reads_opening=reads_opening, reads_frame=reads_frame, reads_matched=reads_matched, reads_addition=reads_addition, withholds=withholds, notes=notes, waives=waives, announces=announces)
"""The generated kernels as one value, for the driver."""
