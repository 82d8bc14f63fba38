"""Named mutants of the reference model: one cell changed, each a known bug class.

A proof that cannot fail proves nothing.  Every mutant here changes one cell of one
table of ``REFERENCE`` (copying only the row it touches), is named after the bug class
it stands for, and says which invariant it ``breaks``: Z3 must find a counterexample
there.  The mutants are ordinary ``ModelTables``: the same generator builds kernels
from them (``model.codegen.load_kernels``) and the same encoding refutes them.
``evidence`` says where the bug class was seen (``reference/peer-implementations.md``)
or which rule of DESIGN section 2 it violates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
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
from responses_oracle.model.tables import REFERENCE, ModelTables
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


@dataclass(frozen=True)
class Mutant:
    """A mutant model, the bug class it stands for, and the invariant it must break.

    ``system`` names the transition system the refutation is found in: the lifecycle
    encoding (``encoding.py``, the default), the matcher (``matching.py``), one decision
    step (``contract``) or the lifecycle with the execution evidence (``execution``,
    ``execution_z3.py``).
    """

    tables: ModelTables
    bug_class: str
    breaks: str
    evidence: str
    system: str = "lifecycle"


def with_cell(
    base: ModelTables, name: str, table: str, key: tuple[Any, ...], value: Any
) -> ModelTables:
    """``base`` named ``name``, with the cell at ``key`` of its table ``table`` (the
    ``ModelTables`` field; one key a level: ``"lifecycle", (state, trigger)``) replaced
    by ``value``.  Only the rows on the way to the cell are copied."""
    changed: dict[str, Any] = {"name": name, table: _replaced(getattr(base, table), key, value)}
    return replace(base, **changed)


def _replaced(rows: Mapping[Any, Any], key: tuple[Any, ...], value: Any) -> dict[Any, Any]:
    head, rest = key[0], key[1:]
    return {**rows, head: _replaced(rows[head], rest, value) if rest else value}


def with_identity_cell(
    base: ModelTables,
    name: str,
    relation: IdentityRelation,
    decision: IdentityDecision,
    fields: tuple[IdentityField, ...] = tuple(IdentityField),
    stages: tuple[MergeStage, ...] = tuple(MergeStage),
) -> ModelTables:
    """``base`` with the identity cell ``relation`` replaced for ``fields`` at ``stages``
    (every field and stage unless told)."""
    identity = {
        field: {
            stage: (
                {**row, relation: decision} if field in fields and stage in stages else row
            )
            for stage, row in stages_of.items()
        }
        for field, stages_of in base.identity.items()
    }
    return replace(base, name=name, identity=identity)


_S, _T = EntryState, Trigger
_FIRST_DONE = REFERENCE.lifecycle[_S.ADDED][_T.ITEM_DONE]

MUTANT_LIST: tuple[Mutant, ...] = (
    Mutant(
        with_cell(
            REFERENCE,
            "duplicate-done-re-completes",
            "lifecycle",
            (_S.DONE, _T.ITEM_DONE),
            Transition(_S.DONE, _FIRST_DONE.effects),
        ),
        "duplicate done re-completes",
        "complete_once",
        "opencode after #46965: a duplicate output_item.done after finish emits a second "
        "tool call for the same call_id (peer-implementations.md A.6)",
    ),
    Mutant(
        with_identity_cell(
            REFERENCE,
            "later-name-overwrites",
            IdentityRelation.DIFFERS,
            IdentityDecision(PayloadAction.TAKE, Code.METADATA_CONFLICT),
            (IdentityField.NAME,),
            (MergeStage.FIXED,),
        ),
        "later name overwrites",
        "first_admission_wins",
        "AxonHub: any non-empty final name / namespace, and any later call_id, overwrites "
        "the first (peer-implementations.md C.1, C.2): a call already dispatched under one "
        "name is reported under another",
    ),
    Mutant(
        with_identity_cell(
            REFERENCE,
            "blank-name-erases",
            IdentityRelation.MISSING,
            IdentityDecision(PayloadAction.TAKE, None),
            (IdentityField.NAME,),
            (MergeStage.FIXED,),
        ),
        "blank name erases",
        "first_admission_wins",
        "R6/R7: gateways blank terminal fields (name \"\" on output_item.done); a client "
        "that copies every field of the final item loses the tool's name",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "done-frees-the-slot",
            "slots",
            (SlotState.LIVE, SlotTrigger.TOMBSTONE),
            SlotTransition(SlotState.FREE, None),
        ),
        "done frees the slot",
        "slot_first_write",
        "R3: a done item's slot stays a tombstone, so that a late event on it is not "
        "guessed onto a newer call",
    ),
    # "tombstone-re-bound" (TOMB, BIND) -> LIVE stood here until issue #16 merged TOMB
    # into LIVE (they were proved indistinguishable): its cell is gone.  Its nearest cell,
    # (LIVE, BIND) -> LIVE, is another bug (a second entry does not share the slot), which
    # ambiguity_rejected refutes, and opencode's re-pointing of a reused slot is
    # "slot-beats-item-id" below.
    Mutant(
        with_cell(
            REFERENCE,
            "slot-beats-item-id",
            "routing",
            (SlotView.ONE, IdView.ONE_OUTSIDE),
            Route(RouteAction.BY_SLOT, None),
        ),
        "slot beats item_id",
        "ambiguity_rejected",
        "opencode: an event is routed by output_index even when its own item_id names "
        "another item (peer-implementations.md A.6)",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "shared-slot-routes-by-slot",
            "routing",
            (SlotView.SHARED, IdView.ABSENT),
            Route(RouteAction.BY_SLOT, None),
        ),
        "shared slot routes by slot",
        "ambiguity_rejected",
        "R3/R5: after slot reuse an event with only an output_index fits two calls; "
        "routing it to the first one guesses",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "late-delta-appended",
            "lifecycle",
            (_S.DONE, _T.DELTA),
            Transition(
                _S.DONE, (*REFERENCE.lifecycle[_S.DONE][_T.DELTA].effects, Effect.APPEND_DELTA)
            ),
        ),
        "late delta appended",
        "late_is_inert",
        "R5/R7: a delta for a done call is a late_event and changes nothing; clients that "
        "append every delta to a buffer keyed by item change a finished call",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "empty-done-erases-arguments",
            "payload",
            (PayloadHeld.VALUE, OfferRelation.EMPTY),
            PayloadDecision(PayloadAction.TAKE, None),
        ),
        "empty done erases arguments",
        "empty_never_erases",
        "opencode: output_item.done with arguments \"\" erases good streamed arguments; "
        "AxonHub's reported bug (peer-implementations.md A.6, section D)",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "divergent-value-ignored",
            "payload",
            (PayloadHeld.VALUE, OfferRelation.DIFFERS),
            PayloadDecision(PayloadAction.KEEP, Code.DIVERGENT_PAYLOAD),
        ),
        "divergent value ignored",
        "latest_nonempty_wins",
        "R7: the last non-empty offer wins; a client that keeps the first value it "
        "saw ignores the corrected arguments of a later done or snapshot",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-only-item-lost",
            "lifecycle",
            (_S.ABSENT, _T.SNAPSHOT_ITEM),
            Transition(_S.ABSENT, ()),
        ),
        "snapshot-only item lost",
        "nothing_lost",
        "codex's done-only rule: a call that appears only in response.completed is lost "
        "(peer-implementations.md B)",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "delta-confirms",
            "lifecycle",
            (_S.ADDED, _T.DELTA),
            Transition(_S.STREAMING, (Effect.APPEND_DELTA, Effect.CONFIRM)),
        ),
        "delta confirms",
        "executable_needs_completion",
        "R9: parseable arguments alone never make a call executable; a client that runs "
        "a call once its streamed arguments parse executes unconfirmed calls",
    ),
    # -- the matcher (R6): refuted in proofs/matching.py -------------------------------
    Mutant(
        with_cell(
            REFERENCE,
            "match-by-slot-across-types",
            "matching",
            (TypeFit.DIFFERS, CallFit.BLANK, IdFit.BLANK, SlotFit.OPEN_DONE),
            Fit.AGREE,
        ),
        "match by slot across types",
        "no_cross_talk",
        "R6: an item's type never changes; a parser that takes whatever item is done at a "
        "slot merges a custom tool call into the function call streamed there",
        "matcher",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-re-keys-a-confirmed-call",
            "done_admission",
            (MatchView.REKEYED,),
            Admission(AdmissionAction.MATCH, Code.SNAPSHOT_REKEYED, MergeStage.CONFIRMING),
        ),
        "snapshot re-keys a confirmed call",
        "first_admission_wins",
        "A LiteLLM→vLLM gateway re-keys a done call in response.completed "
        "(functions.get_weather:0); a client that takes the snapshot's call_id answers a "
        "call_id it never dispatched",
        "matcher",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "done-item-refused-as-ambiguous",
            "done_admission",
            (MatchView.NONE,),
            Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE),
        ),
        "a done item nothing matches is refused",
        "nothing_lost",
        "R6: an item no entry fits is admitted (a done-only call, opencode test 17); a "
        "refusal with a diagnostic is still a lost call where nothing conflicts",
        "matcher",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "output-item-counts-as-a-call",
            "namespaces",
            (ItemKind.OUTPUT,),
            ItemKind.CALL,
        ),
        "output item counts as a call",
        "nothing_lost",
        "OpenAI's hosted shell puts shell_call and shell_call_output with one call_id in "
        "one response; a parser keying items by call_id drops the output as a duplicate",
        "matcher",
    ),
    # -- completeness (issue #16): each obligation of model.completeness, and the
    # strengthened nothing_lost, rejects a model that does too little ------------------
    Mutant(
        with_cell(
            REFERENCE,
            "arguments-done-skips-confirm",
            "lifecycle",
            (_S.ADDED, _T.PAYLOAD_DONE),
            Transition(
                _S.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL, Effect.LEARN_ITEM_ID)
            ),
        ),
        "dropping a confirmation",
        "confirmation_sticks",
        "R8/R9: a *.done confirms its entry; a row that forgets CONFIRM leaves a call with "
        "its final arguments unconfirmed, so it is never executable",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "abort-leaves-entry-open",
            "lifecycle",
            (_S.STREAMING, _T.RESPONSE_ABORTED),
            Transition(_S.STREAMING, ()),
        ),
        "never marking an aborted entry incomplete",
        "end_settles",
        "R9/R11: after response.incomplete, failed or cancelled every open entry is "
        "incomplete; a streaming call left open looks resumable",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "confirmed-entry-never-completed",
            "lifecycle",
            (_S.PAYLOAD_DONE, _T.RESPONSE_COMPLETED),
            Transition(_S.PAYLOAD_DONE, (Effect.NOTE_UNCONFIRMED,)),
        ),
        "never completing an entry",
        "end_settles",
        "R9: a call whose arguments.done arrived is confirmed; reporting it unconfirmed at "
        "response.completed (and never completing it) withholds a call the provider ran",
    ),
    Mutant(
        with_identity_cell(
            REFERENCE,
            "first-name-not-taken",
            IdentityRelation.FIRST,
            IdentityDecision(PayloadAction.KEEP, None),
            (IdentityField.NAME,),
            (MergeStage.FIXED,),
        ),
        "never taking an identity",
        "identity_taken",
        "R6: the first non-empty name (call_id, namespace) an item brings is the entry's; "
        "a merge that keeps the blank loses which tool to run",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "first-delta-dropped",
            "lifecycle",
            (_S.ADDED, _T.DELTA),
            Transition(_S.STREAMING, (Effect.LEARN_ITEM_ID,)),
        ),
        "dropping a delta",
        "deltas_accounted",
        "R7: every delta is joined into its channel; a row that forgets APPEND_DELTA loses "
        "the streamed arguments whenever the done item carries none",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "done-only-item-lost",
            "lifecycle",
            (_S.ABSENT, _T.ITEM_DONE),
            Transition(_S.ABSENT, ()),
        ),
        "done-only item lost",
        "nothing_lost",
        "codex's done-only rule inverted: an item whose output_item.added never came is "
        "recovered from its output_item.done (R6); rejecting every done-only item loses it",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "unconfirmed-call-not-reported",
            "lifecycle",
            (_S.ADDED, _T.RESPONSE_COMPLETED),
            Transition(_S.ADDED, ()),
        ),
        "a diagnostic dropped: the unconfirmed call is silent",
        "unconfirmed_reported",
        "R9: a call never confirmed is kept but not executable, and says why "
        "(unconfirmed_item); without the diagnostic a user sees a call that silently "
        "does not run",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "late-delta-silent",
            "lifecycle",
            (_S.DONE, _T.DELTA),
            Transition(_S.DONE, ()),
        ),
        "a diagnostic dropped: a late delta ignored silently",
        "late_reported",
        "R5/R7: a delta for a done call changes nothing and is reported late_event; "
        "nothing is dropped silently",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "slot-reuse-silent",
            "slots",
            (SlotState.LIVE, SlotTrigger.BIND),
            SlotTransition(SlotState.SHARED, None),
        ),
        "a diagnostic dropped: output_index reuse unreported",
        "slot_reuse_reported",
        "R3: a second item at a bound output_index shares the slot and says so "
        "(slot_reused), so that an event routed by the index alone is understood",
    ),
    # -- the reclassification table (model/channels.py) and channel closing (issue #16)
    Mutant(
        with_cell(
            REFERENCE,
            "closed-channel-delta-appended",
            "reclassification",
            (_T.DELTA, ChannelState.CLOSED),
            _T.DELTA,
        ),
        "a delta after its channel's *.done treated as a plain delta",
        "latest_nonempty_wins",
        "R7: a delta after its own channel's *.done is late and changes nothing; "
        "appended, it waits behind the value the *.done fixed and becomes the last "
        "offer the channel does not hold",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "every-delta-late",
            "reclassification",
            (_T.DELTA, ChannelState.OPEN),
            _T.DELTA_ON_CLOSED_CHANNEL,
        ),
        "a delta on an open channel treated as late",
        "deltas_accounted",
        "R7: the deltas of an open channel are its streamed value; reported late, "
        "every delta is lost",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "payload-done-leaves-channel-open",
            "lifecycle",
            (_S.ADDED, _T.PAYLOAD_DONE),
            Transition(
                _S.PAYLOAD_DONE, (Effect.OFFER_PAYLOAD, Effect.CONFIRM, Effect.LEARN_ITEM_ID)
            ),
        ),
        "a *.done that does not close its channel",
        "done_closes_its_channel",
        "R7: a channel's *.done fixes its value; a later delta of that channel is late "
        "(late_event), not appended behind it",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "delta-closes-channel",
            "lifecycle",
            (_S.ADDED, _T.DELTA),
            Transition(
                _S.STREAMING, (Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID, Effect.CLOSE_CHANNEL)
            ),
        ),
        "a channel closed by a delta instead of its *.done",
        "done_closes_its_channel",
        "R7: only a channel's own *.done closes it; closed by its first delta, every "
        "later delta of the channel is reported late and lost",
    ),
    # -- mutants of a diagnostic only (issue #16): refuted by the contracts --------------
    # These change the code a payload, identity or admission cell raises and nothing else
    # the lifecycle encoding sees; ``contracts.CONTRACTS`` refutes each at one decision
    # step (``system="contract"``: no trace, so no fixture stream), and
    # tests/proofs/test_contracts.py keeps a witness stream on which the reducer reports
    # another code.
    Mutant(
        with_cell(
            REFERENCE,
            "extension-reported-divergent",
            "payload",
            (PayloadHeld.VALUE, OfferRelation.EXTENDS),
            PayloadDecision(PayloadAction.TAKE, Code.DIVERGENT_PAYLOAD),
        ),
        "a diagnostic changed: a value that extends the held one is called divergent",
        "payload_reported",
        "R7: a later value the earlier one is a prefix of is payload_extended (info), not "
        "divergent_payload (a warning): a gateway that streams a prefix and completes it is "
        "not misbehaving",
        "contract",
    ),
    Mutant(
        with_identity_cell(
            REFERENCE,
            "rename-reported-as-conflict",
            IdentityRelation.DIFFERS,
            IdentityDecision(PayloadAction.TAKE, Code.METADATA_CONFLICT),
            fields=(IdentityField.CALL_ID,),
            stages=(MergeStage.CONFIRMING,),
        ),
        "a diagnostic changed: the own done's call_id rename reported as a conflict",
        "identity_reported",
        "R6: the entry's own done may rename its call_id (call_id_renamed; OpenAI and Azure "
        "tool_search_call); metadata_conflict says the new value was not obeyed, and here it "
        "was",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "duplicate-call-id-reported-ambiguous",
            "added_admission",
            (AddedView.CALL_ID_TAKEN,),
            Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE),
        ),
        "a diagnostic changed: an added item with another type's call_id called ambiguous",
        "added_reported",
        "R6: a call_id held by an entry of another type is duplicate_call_id; nothing is "
        "ambiguous about it, and a user looking for the duplicate would not find it",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-rekey-silent",
            "done_admission",
            (MatchView.REKEYED,),
            Admission(AdmissionAction.MATCH, None),
        ),
        "a diagnostic dropped: a snapshot item re-keying a done call is silent",
        "done_reported",
        "R6: a snapshot item that reaches a done entry through its own slot with a new id and "
        "call_id is that entry's, reported snapshot_rekeyed naming both identities (a "
        "LiteLLM→vLLM gateway); silent, the second identity is lost without a trace",
        "contract",
    ),
    # -- routing's completeness and diagnostics (issue #16): the routing system refutes
    # these; ambiguity_rejected cannot (it only forbids guesses, and these guess nothing)
    Mutant(
        with_cell(
            REFERENCE,
            "rotating-id-dropped",
            "routing",
            (SlotView.ONE, IdView.UNSEEN),
            Route(RouteAction.DROP, Code.ORPHAN_EVENT),
        ),
        "an event its slot routes dropped because its item_id is new",
        "routed_to_its_entry",
        "R5: ids can rotate on every event (GitHub Copilot, examples/copilot-rotating-ids): "
        "a router keyed by item_id alone drops every delta after the first and the call "
        "ends with empty arguments",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "orphan-dropped-silently",
            "routing",
            (SlotView.NONE, IdView.UNSEEN),
            Route(RouteAction.DROP, None),
        ),
        "an event for an item nobody admitted dropped without a diagnostic",
        "refusal_reported",
        "opencode and AxonHub drop an event for an unknown item without error (peer notes "
        "A.1, C.3); R5 drops it too, but reports orphan_event with the event attached",
    ),
    # -- the state follows the wire events (issue #16, the lifecycle survivors of the
    # mutation score): each obligation is stated over the events, not the effects ------
    Mutant(
        with_cell(
            REFERENCE,
            "arguments-done-closes-the-call",
            "lifecycle",
            (_S.STREAMING, _T.PAYLOAD_DONE),
            Transition(_S.DONE, REFERENCE.lifecycle[_S.STREAMING][_T.PAYLOAD_DONE].effects),
        ),
        "a *.done taken for the item's output_item.done",
        "closed_by_its_events",
        "R8: function_call_arguments.done confirms the arguments, not the item; a row that "
        "moves the entry to done has it done without a done item and without its "
        "completion (a mutation-score survivor: complete_once alone only came out UNKNOWN)",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "delta-leaves-entry-added",
            "lifecycle",
            (_S.ADDED, _T.DELTA),
            Transition(_S.ADDED, REFERENCE.lifecycle[_S.ADDED][_T.DELTA].effects),
        ),
        "a streaming entry reported as merely added",
        "open_state_follows_events",
        "R8: the first delta moves an entry to streaming; a row that keeps it added reports "
        "a call that is streaming its arguments as not yet started",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "done-only-item-payload-dropped",
            "lifecycle",
            (_S.ABSENT, _T.ITEM_DONE),
            Transition(
                _S.DONE,
                tuple(
                    effect
                    for effect in REFERENCE.lifecycle[_S.ABSENT][_T.ITEM_DONE].effects
                    if effect is not Effect.OFFER_ITEM_PAYLOADS
                ),
            ),
        ),
        "a done-only item's arguments never offered",
        "values_offered",
        "R6/R7: a call seen only in its output_item.done (opencode test 17) keeps that "
        "item's arguments; a row that forgets OFFER_ITEM_PAYLOADS admits it with none, "
        "invisible to the payload invariants, which count only the offers made",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "late-delta-reported-duplicate",
            "reclassification",
            (_T.DELTA, ChannelState.CLOSED),
            _T.ITEM_ADDED,
        ),
        "a late delta delivered as a replayed output_item.added",
        "channel_events_stay_in_channel",
        "R7: a delta after its channel's *.done is late_event; reclassified as an item "
        "trigger it is reported duplicate_item, and a user looking for the late delta "
        "finds a replayed item that never came",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "replayed-added-silent",
            "lifecycle",
            (_S.STREAMING, _T.ITEM_ADDED),
            Transition(_S.STREAMING, ()),
        ),
        "a replayed output_item.added ignored silently",
        "duplicate_reported",
        "R6: an output_item.added for an entry already admitted is a duplicate_item; "
        "ignored without a word, a gateway that replays items goes unnoticed",
    ),
    # -- the three survivors of the full mutation score (session 5) ---------------------
    Mutant(
        with_cell(
            REFERENCE,
            "end-leaves-done-item-done",
            "lifecycle",
            (_S.DONE, _T.RESPONSE_COMPLETED),
            Transition(_S.DONE, REFERENCE.lifecycle[_S.DONE][_T.RESPONSE_COMPLETED].effects),
        ),
        "a done item the snapshot left out never completed",
        "end_settles",
        "R9: response.completed completes every confirmed entry, in the snapshot or not; "
        "left done, a call the provider confirmed is never executable",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "missing-from-snapshot-silent",
            "lifecycle",
            (_S.DONE, _T.RESPONSE_COMPLETED),
            Transition(_S.COMPLETED, ()),
        ),
        "a confirmed call the snapshot omits completed without a word",
        "missing_from_snapshot_reported",
        "R9: done entries missing from a non-empty snapshot are kept and reported "
        "snapshot_missing_item; silent, a user cannot tell a call the snapshot lost "
        "from one it confirmed",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-duplicate-silent",
            "lifecycle",
            (_S.COMPLETED, _T.SNAPSHOT_ITEM),
            Transition(_S.COMPLETED, ()),
        ),
        "an item the snapshot lists twice ignored silently",
        "duplicate_reported",
        "R6/R9: a snapshot that lists one item twice is a provider bug worth a "
        "duplicate_item; ignored, the second copy vanishes without a trace",
    ),
    # -- issue #41: which report an item first seen past its announcement is owed ------
    Mutant(
        with_cell(
            REFERENCE,
            "done-only-item-silent",
            "lifecycle",
            (_S.ABSENT, _T.ITEM_DONE),
            Transition(
                _S.DONE,
                tuple(
                    effect
                    for effect in REFERENCE.lifecycle[_S.ABSENT][_T.ITEM_DONE].effects
                    if effect is not Effect.NOTE_DONE_ONLY
                ),
            ),
        ),
        "an item first seen in its output_item.done admitted without a word",
        "first_sight_reported",
        "R6: the API announces every item with output_item.added first; an item a "
        "stream sends only in its done is recovered, and silent, a client that waits for "
        "the added event loses it with no word of why (issue #41: the cell was read by "
        "no property)",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-only-item-silent",
            "lifecycle",
            (_S.ABSENT, _T.SNAPSHOT_ITEM),
            Transition(
                _S.COMPLETED,
                tuple(
                    effect
                    for effect in REFERENCE.lifecycle[_S.ABSENT][_T.SNAPSHOT_ITEM].effects
                    if effect is not Effect.NOTE_SNAPSHOT_ONLY
                ),
            ),
        ),
        "an item first seen in the terminal snapshot admitted without a word",
        "first_sight_reported",
        "R6: an item only the terminal's output holds is recovered; a client that reads "
        "the stream's events never sees it, and must be told (issue #41: the cell was "
        "read by no property)",
    ),
    # -- the tables no transition system reads (issue 24): refuted by the contracts of
    # proofs/responses_z3.py; tests/core/test_response_ends.py and
    # tests/proofs/test_response_tables.py keep a stream each mutant changes ----------
    Mutant(
        with_cell(
            REFERENCE,
            "created-without-id-merged",
            "boundary",
            (Opening.CREATED, Held.OPEN, IdMatch.UNKNOWN),
            Boundary.CONTINUE,
        ),
        "a response.created without an id merged into the open response",
        "response_boundaries",
        "issue 24: a gateway that drops the response id; the response cut off before its "
        "end and the next one become one completed response, and the first one's "
        "missing terminal is never reported (it passed every proof, test and the corpus)",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "steer-ends-the-response",
            "frames",
            (ClientFrame.STEER,),
            Boundary.NEW,
        ),
        "a response.steer frame closing the open response",
        "client_frames",
        "issue 24: a WebSocket client steering the response in flight (openai-python's "
        "ResponsesClientEvent); the response is cut at the steer and reported interrupted, "
        "its end starting a second, headless one",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-position-fills-slot",
            "fills_missing_slot",
            (MatchedItem.SNAPSHOT,),
            True,
        ),
        "a snapshot position taken for an entry's slot",
        "slot_fill",
        "R6: response.output positions are where items ended up, not slots (gateways drop "
        "and reorder items there); taken as the slot of an entry that had none, a later "
        "event at that output_index is routed to the wrong call",
        "contract",
    ),
    Mutant(
        with_cell(REFERENCE, "call-id-shared", "names_one_entry", (IdentityField.CALL_ID,), False),
        "a call_id another entry holds taken as if free",
        "identity_reported",
        "R6: one call_id names one entry of a kind; a second call reusing it (a gateway "
        "that numbers calls per response) would be merged silently, and its output "
        "answer the wrong call",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "tool-name-names-one-call",
            "names_one_entry",
            (IdentityField.NAME,),
            True,
        ),
        "a tool's name held by another call treated as taken",
        "identity_reported",
        "R6: many calls share a tool's name (parallel calls of one function); read as "
        "taken, the second call's name is never recorded and no conflict reported",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "repeated-annotation-duplicated",
            "part_merge",
            (PositionView.INSIDE,),
            PartMerge.APPEND,
        ),
        "an annotation sent again appended as a second one",
        "part_additions",
        "R15: annotation_index names the annotation's place in its part; an event repeated "
        "at a place the part already holds (a gateway that replays events) is the same "
        "citation, and appended the message cites one source twice",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "failed-response-completes",
            "terminal_status",
            (Terminal.FAILED,),
            ResponseStatus.COMPLETED,
        ),
        "a failed response taken for a completed one",
        "terminal_status",
        "R9: only response.completed completes a response; a response.failed read as "
        "completed makes the calls of a failed turn executable, and a client runs tools the "
        "model never finished asking for",
        "contract",
    ),
    Mutant(
        replace(
            REFERENCE,
            name="error-then-failed-split",
            amendable={**REFERENCE.amendable, Terminal.ERROR: False},
        ),
        "the response.failed after an error taken for an event after the end",
        "amended_terminals",
        "R14: OpenAI sends error and then response.failed for one failure (vercel/ai "
        "fixture openai-error.1); read as two, the failed response's own description is "
        "lost and a spurious after_terminal reported",
        "contract",
    ),
    # -- who runs a call (R13): one cell of the execution table -------------------------
    # Refuted in proofs/execution_z3.py's encoding (``system="execution"``): its runs
    # carry tools and outputs the function_call renderer does not write, so prove reports
    # the abstract run and tests/proofs/test_execution_proofs.py a witness stream.
    Mutant(
        with_cell(
            REFERENCE,
            "unconfirmed-call-runs",
            "execution",
            (Stop.UNCONFIRMED,),
            Execution.CLIENT,
        ),
        "an unconfirmed call is run",
        "executable_is_confirmed",
        "R8/R13: a call whose done never came may still be streaming its arguments; "
        "run, the client executes a truncated call (peer-implementations.md: clients "
        "that run on output_item.added)",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "cut-off-call-runs",
            "execution",
            (Stop.NOT_COMPLETED,),
            Execution.CLIENT,
        ),
        "a call of a response that did not complete is run",
        "executable_in_completed_response",
        "R9: a response.incomplete or failed response ended mid-turn; its calls are "
        "reported, never run",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "call-without-call-id-runs",
            "execution",
            (Stop.NO_CALL_ID,),
            Execution.TOOLS_UNKNOWN,
        ),
        "a call without a call_id is run",
        "executable_has_call_id",
        "R13: the output of a call names its call_id; run without one, its result can "
        "never be sent back (the hosted tool search of vercel/ai openai-tool-search.1 "
        "has none)",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "hosted-call-runs",
            "execution",
            (Stop.DECLARED_SERVER,),
            Execution.CLIENT,
        ),
        "a call the declared tool says the server runs is run by the client",
        "executable_is_client_run",
        "issue #11: OpenAI's hosted container shell (openai-shell-container.1, "
        "environment container_auto) streams shell_call items the server runs",
        "execution",
    ),
    Mutant(
        with_cell(REFERENCE, "answered-call-runs", "execution", (Stop.ANSWERED,), Execution.CLIENT),
        "a call its response already answers is run again",
        "executable_is_client_run",
        "issue #11: openai-shell-skills.1 carries each shell_call's shell_call_output in "
        "the same response: the server ran it",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "undeclared-call-runs",
            "execution",
            (Stop.UNDECLARED,),
            Execution.CLIENT,
        ),
        "a call no declared tool names is run",
        "executable_is_client_run",
        "issue #11: xAI's server-run x_search streams custom_tool_call items "
        "(xs_call_…) the request never declared",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "undeclared-call-client-run",
            "declared",
            (Declared.NONE,),
            Stop.DECLARED_CLIENT,
        ),
        "a call no declared tool names taken for a declared client call",
        "executable_is_client_run",
        "issue #35: one cell of DECLARED (the declared tools' answer → the walk's stop); "
        "xAI's server-run x_search (capture xai__xai-x-search-tool) then streams client "
        "calls (custom_tool_call xs_call_…) the request never declared",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "declared-call-withheld",
            "execution",
            (Stop.DECLARED_CLIENT,),
            Execution.SERVER,
        ),
        "a call the declared tools say the client runs is called server-run",
        "client_run_is_executable",
        "R13: vercel/ai openai-shell-tool.1 declares {\"type\":\"shell\"} and the client "
        "answers the shell_call in the next request; withheld, the turn stalls",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "undeclared-tools-call-withheld",
            "execution",
            (Stop.NO_TOOLS,),
            Execution.UNDECLARED,
        ),
        "a call of a stream that declares no tools is withheld",
        "client_run_is_executable",
        "R13: OpenAI echoes an empty tools list even when a local_shell tool was sent "
        "(vercel/ai openai-local-shell-tool.1); withheld, the call is never run",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "answered-call-said-unconfirmed",
            "execution",
            (Stop.ANSWERED,),
            Execution.UNCONFIRMED,
        ),
        "a call its response already answered said to be unconfirmed",
        "verdict_says_why",
        "R13: the verdict is the reason a call is not run; an answered hosted shell call "
        "reported as unconfirmed sends its reader after a done that did arrive",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "undeclared-call-withheld-silently",
            "withheld",
            (Execution.UNDECLARED,),
            False,
        ),
        "a completed call no declared tool names is withheld in silence",
        "withheld_reported",
        "issue #41: a vLLM gateway echoes a namespace's tools under flattened names "
        "(agentic_ns__mcp__agentic_fixture__add_numbers) and sends the call with the "
        "namespace restored; the call is undeclared, and was not run with no word said",
        "execution",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "executable-call-said-withheld",
            "withheld",
            (Execution.CLIENT,),
            True,
        ),
        "a call the client runs reported as withheld",
        "withheld_reported",
        "R13: call_withheld tells a client a call is not run; said of a call it runs, the "
        "client is told to distrust the one answer it should act on",
        "execution",
    ),
    # -- who runs a declared tool (R13): one cell of ENVIRONMENT_RUNNER / EXECUTION_RUNNER
    # Refuted at one decision step (proofs/runners_z3.py).
    Mutant(
        replace(
            REFERENCE,
            name="hosted-shell-client-run",
            environment_runner={
                **REFERENCE.environment_runner, ShellEnvironment.CONTAINER_AUTO: Runner.CLIENT
            },
        ),
        "a hosted container's shell call run by the client",
        "shell_runners",
        "issue #11: OpenAI's hosted container shell (openai-shell-container.1, environment "
        "container_auto) streams shell_call items the server runs; run again by the client, "
        "its commands execute on the user's machine",
        "contract",
    ),
    Mutant(
        replace(
            REFERENCE,
            name="unset-search-client-run",
            execution_runner={**REFERENCE.execution_runner, SearchExecution.UNSET: Runner.CLIENT},
        ),
        "a tool search without an execution taken for a client-run one",
        "search_runners",
        "R13: a tool search's execution defaults to the server (openai-python's "
        "ToolSearchTool.execution); taken as the client's, the hosted search of vercel/ai "
        "openai-tool-search.1 would be run by the client",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "local-shell-read-as-container",
            "environment_types",
            (EnvironmentType.LOCAL,),
            ShellEnvironment.CONTAINER_AUTO,
        ),
        "a declared shell's environment type \"local\" read as a hosted container",
        "shell_runners",
        "issue #35: one cell of ENVIRONMENT_TYPES (the wire's environment.type → the "
        "environment it names); a shell declared with environment {\"type\": \"local\"} "
        "would never be run by the client that declared it",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "own-server-execution-ignored",
            "execution_values",
            (ExecutionValue.SERVER,),
            SearchExecution.UNSET,
        ),
        "a tool search's own execution \"server\" read as unset",
        "search_runners",
        "issue #35: one cell of EXECUTION_VALUES (the wire's execution → what it says); a "
        "tool_search_call stating execution \"server\" would be decided by its declared "
        "tool's \"client\" and run again by the client",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "queued-read-as-created",
            "openings",
            (OpeningType.QUEUED,),
            Opening.CREATED,
        ),
        "a response.queued read as a response.created",
        "response_boundaries",
        "issue #35: one cell of OPENINGS (the wire's type of an opening event → the kind "
        "of opening); a resume stream recorded after its response (GET ...?stream=true "
        "starts with response.queued, the same id) would be cut off as a second response, "
        "and a queued without an id would cut the open one (R14)",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "create-frame-read-as-steer",
            "client_frames",
            (FrameType.CREATE,),
            ClientFrame.STEER,
        ),
        "a client's response.create frame read as a response.steer",
        "client_frames",
        "issue #35: one cell of CLIENT_FRAMES (the wire's frame type → the frame); on a "
        "WebSocket connection a response cut off before its terminal and the next request's "
        "response would become one, when the next one's created repeats no id (R14)",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "snapshot-item-read-as-done",
            "matched_items",
            (MatchTrigger.SNAPSHOT_ITEM,),
            MatchedItem.DONE,
        ),
        "a snapshot item read as an output_item.done item",
        "slot_fill",
        "issue #35: one cell of MATCHED_ITEMS (the trigger of a matched item → where it "
        "comes from); a response.output position would bind the slot of an entry that had "
        "none, against the fill rule (R6: gateways drop and reorder items there)",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "annotation-placed-by-content-index",
            "part_additions",
            (AdditionType.ANNOTATION_ADDED,),
            REFERENCE.part_additions[AdditionType.ANNOTATION_ADDED]._replace(
                position=AdditionField.CONTENT_INDEX
            ),
        ),
        "an annotation's position read from its part's content_index",
        "part_additions",
        "issue #35: one cell of PART_ADDITIONS (the wire's type of a part addition event → "
        "the fields it is read by); the second citation of a message's first part "
        "(annotation_index 1, content_index 0) would replace the first, which is lost "
        "(R15)",
        "contract",
    ),
    # -- the tables that decide a report (issue #41 part 4): refuted by the contracts of
    # proofs/reports_z3.py; tests/proofs/test_report_tables.py keeps a stream each
    # reducer mutant changes -------------------------------------------------------------
    Mutant(
        with_cell(
            REFERENCE,
            "resumed-unconfirmed-silent",
            "resume_waived",
            (Effect.NOTE_UNCONFIRMED,),
            True,
        ),
        "a call never confirmed in a resumed response completed without a word",
        "admission_reports",
        "R14/R9: a resume waives only the first-sight reports (the item was announced "
        "before the resume point); a call whose done never came is as unfinished in a "
        "resumed stream, and a client told nothing runs half its arguments",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "done-only-reported-as-duplicate",
            "note_codes",
            (Effect.NOTE_DONE_ONLY,),
            Code.DUPLICATE_ITEM,
        ),
        "an item first seen in its done reported as a repeat of one already held",
        "admission_reports",
        "R6: a done-only item is the provider's deviation (no output_item.added); called "
        "a duplicate, the report says the stream sent the item twice and hides that a "
        "client waiting for the added event lost it",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "shell-command-not-announced",
            "announced_parts",
            (ChannelKind.COMMAND,),
            False,
        ),
        "a shell command streamed without its command.added, in silence",
        "parts_announced",
        "R7: a shell call's commands sit in an array and the API opens each with "
        "response.shell_call_command.added; a delta opening one unannounced breaks a "
        "client that indexes the array by the added event (openai-node's accumulator "
        "throws on the message parts' equivalent)",
        "contract",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "streamed-part-added-restated",
            "restated",
            (Trigger.PART_ADDED,),
            replace(REFERENCE.restated[Trigger.PART_ADDED], unless=()),
        ),
        "a part's added left out where its deltas streamed, logged as a re-spelling",
        "restated_silently",
        "issue #33/R7: the proxy counts a re-spelling as no repair; a part whose deltas "
        "came with no part-added event is a deviation (part_not_added) a client throws "
        "on, and the proxy's log would hide the repair it made",
        "contract",
    ),
)
"""Every named mutant, in the order of the invariants they break."""

MUTANTS: dict[str, Mutant] = {mutant.tables.name: mutant for mutant in MUTANT_LIST}
"""Every named mutant, by model name."""

TRACED: tuple[Mutant, ...] = tuple(
    mutant for mutant in MUTANT_LIST if mutant.system not in ("contract", "execution")
)
"""The mutants refuted by a trace, each with a fixture stream (a diagnostic contract's
mutant is refuted at one decision step, with no trace: ``proofs/contracts.py``; an
execution mutant by an abstract run of ``proofs/execution_z3.py``)."""

# -- mutants of entries with several channels (issue #16) -------------------------------
# A stream of function_call items (what ``counterexample.render`` writes) has one
# channel per entry, so these mutants have no rendered counterexample: ``prove``
# refutes them with an abstract trace, and tests/proofs/test_completeness.py keeps a
# hand-written witness stream of a two-part message for each.

CHANNEL_MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        with_cell(
            REFERENCE,
            "delta-reopens-done-part",
            "lifecycle",
            (_S.PAYLOAD_DONE, _T.DELTA),
            Transition(_S.STREAMING, (Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID)),
        ),
        "a part's *.done undone by another part's delta",
        "confirmation_sticks",
        "issue #16 audit survivor: a delta of a message's second part after the first "
        "part's output_text.done moves the entry back to streaming, and the message ends "
        "with a false unconfirmed_item",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "first-part-not-opened",
            "lifecycle",
            (_S.ADDED, _T.PART_ADDED),
            Transition(_S.ADDED, (Effect.LEARN_ITEM_ID,)),
        ),
        "OPEN_PART dropped on a content_part.added",
        "parts_opened",
        "issue #16 audit survivor: a message's first content_part.added no longer opens "
        "its part, and the part's logprobs and annotations are lost",
    ),
    Mutant(
        with_cell(
            REFERENCE,
            "other-part-delta-dropped",
            "lifecycle",
            (_S.PAYLOAD_DONE, _T.DELTA),
            Transition(_S.PAYLOAD_DONE, (Effect.LEARN_ITEM_ID,)),
        ),
        "a delta of a message's second part dropped after the first part's *.done",
        "deltas_accounted",
        "R7: a *.done closes its own part only; another part's deltas are still its "
        "streamed value, not late (found once the encoding had two channels per entry)",
    ),
    # Not a channel mutant, but no function_call stream renders it either: the renderer
    # gives every item its id, so nothing is left to learn.
    Mutant(
        with_cell(
            REFERENCE,
            "delta-item-id-not-learned",
            "lifecycle",
            (_S.ADDED, _T.DELTA),
            Transition(_S.STREAMING, (Effect.APPEND_DELTA,)),
        ),
        "LEARN_ITEM_ID dropped: an entry admitted without an id never takes its events'",
        "item_id_learned",
        "R4: an output_item.added without an id (some gateways) is named by the item_id of "
        "its first payload event; a row that does not learn it leaves later events "
        "without an output_index unroutable and the item's id minted at the end",
    ),
)
"""Mutants only an entry with several channels (a message's parts) — or an item without
an id — can show."""

