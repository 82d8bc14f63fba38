"""The finite vocabulary of the model: every state, trigger, guard, effect and code.

Everything the reducer, the proofs and the docs can talk about is one of these enum
members.  Nothing here has behaviour (but ``note_effects`` and ``late_codes``, which read
a model's note codes); the tables in the sibling modules combine them.
The string values are the names used on the wire of our own contract (result JSON,
diagnostic codes), so renaming a value is a breaking change: add members, rename none.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from .recordkit import record


class EntryState(Enum):
    """Where one admitted output item (an *entry*) is in its lifecycle (rule R8).

    ``ABSENT`` is the state of an entry that has not been admitted yet; it exists so
    that admission is a row of the lifecycle table like every other transition.
    """

    ABSENT = "absent"
    ADDED = "added"
    STREAMING = "streaming"
    PAYLOAD_DONE = "payload_done"
    DONE = "done"
    COMPLETED = "completed"
    INCOMPLETE = "incomplete"


class Trigger(Enum):
    """What an event means for the one entry it was routed or matched to.

    The driver classifies each wire event into one trigger; the lifecycle table then
    decides the entry's next state.  ``DELTA_ON_CLOSED_CHANNEL`` is a delta whose own
    channel already had its ``*.done`` (R7: such a delta is late even while the entry
    is still open).
    """

    ITEM_ADDED = "item_added"
    PART_ADDED = "part_added"
    DELTA = "delta"
    DELTA_ON_CLOSED_CHANNEL = "delta_on_closed_channel"
    PAYLOAD_DONE = "payload_done"
    PROGRESS = "progress"
    ITEM_DONE = "item_done"
    SNAPSHOT_ITEM = "snapshot_item"
    RESPONSE_COMPLETED = "response_completed"
    RESPONSE_ABORTED = "response_aborted"


class Effect(Enum):
    """A named side effect of a lifecycle transition, carried out by the driver."""

    ADMIT = "admit"
    BIND_SLOT = "bind_slot"
    OPEN_PART = "open_part"
    APPEND_DELTA = "append_delta"
    OFFER_PAYLOAD = "offer_payload"
    CLOSE_CHANNEL = "close_channel"
    MERGE_ITEM = "merge_item"
    OFFER_ITEM_PAYLOADS = "offer_item_payloads"
    CONFIRM = "confirm"
    LEARN_ITEM_ID = "learn_item_id"
    TOMBSTONE_SLOT = "tombstone_slot"
    EMIT_COMPLETION = "emit_completion"
    NOTE_DUPLICATE_ITEM = "note_duplicate_item"
    NOTE_LATE_EVENT = "note_late_event"
    NOTE_UNCONFIRMED = "note_unconfirmed"
    NOTE_MISSING_FROM_SNAPSHOT = "note_missing_from_snapshot"
    NOTE_ORPHAN = "note_orphan"
    NOTE_DONE_ONLY = "note_done_only"
    NOTE_SNAPSHOT_ONLY = "note_snapshot_only"


class SlotState(Enum):
    """The binding of one ``output_index`` (rule R3): no entry, one, or several.

    A done entry's binding (R3's *tombstone*) is ``LIVE`` still: no reader of a slot
    tells the two apart (``proofs.vacuity.indistinguishable_slot_states``), so they are
    one state."""

    FREE = "free"
    LIVE = "live"
    SHARED = "shared"


class ChannelState(Enum):
    """Whether the channel a payload event names already had its ``*.done`` (R7)."""

    OPEN = "open"
    CLOSED = "closed"


class SlotTrigger(Enum):
    """What happens to a slot: an entry is admitted at it, or its entry is done (the
    binding stays: R3's tombstone is the slot's ``LIVE`` or ``SHARED`` state kept)."""

    BIND = "bind"
    TOMBSTONE = "tombstone"


class SlotView(Enum):
    """How a payload event's slot looks to the router (rule R5)."""

    NONE = "none"
    ONE = "one"
    SHARED = "shared"


class IdView(Enum):
    """How a payload event's ``item_id`` looks to the router, relative to the slot.

    ``S`` is the set of entries the id names (R4), ``T`` the entries bound at the
    event's slot (empty when the slot is unbound or absent).
    """

    ABSENT = "absent"
    UNSEEN = "unseen"
    ONE_OF_SLOT = "one_of_slot"
    SEVERAL_OF_SLOT = "several_of_slot"
    ONE_OUTSIDE = "one_outside"
    SEVERAL_OUTSIDE = "several_outside"


class RouteAction(Enum):
    """The router's decision for one payload event."""

    BY_SLOT = "by_slot"
    BY_ID = "by_id"
    REJECT = "reject"
    DROP = "drop"


class ItemKind(Enum):
    """What an output item is to the ``call_id`` namespace (R6).

    A call and its output carry the same ``call_id`` (OpenAI's hosted shell streams a
    ``shell_call`` and its ``shell_call_output`` in one response): each kind is its own
    namespace, so an output is never a second call.
    """

    CALL = "call"
    OUTPUT = "output"
    OTHER = "other"


class TypeFit(Enum):
    """An item's type against a proposed entry's (R6 matching)."""

    SAME = "same"
    DIFFERS = "differs"


class CallFit(Enum):
    """An item's ``call_id`` against a proposed entry's: ``BLANK`` when either has none."""

    BLANK = "blank"
    EQUAL = "equal"
    DIFFERS = "differs"


class IdFit(Enum):
    """An item's wire id against a proposed entry (R4 aliases).

    ``BLANK``: the item or the entry has no id; ``NAMES``: the id is one of the entry's
    aliases; ``UNSEEN``: it names no entry at all; ``OTHER``: it names other entries only.
    """

    BLANK = "blank"
    NAMES = "names"
    UNSEEN = "unseen"
    OTHER = "other"


class SlotFit(Enum):
    """How the proposed entry was reached through the item's slot, and by what item.

    ``OPEN_*`` / ``CLOSED_*``: the entry is the only one bound at the item's
    ``output_index``, still open or already done, and the item is a done item
    (``*_DONE``) or the snapshot's (``*_SNAPSHOT``); ``ELSEWHERE``: the slot is absent,
    unbound, shared or another entry's.
    """

    OPEN_DONE = "open_done"
    OPEN_SNAPSHOT = "open_snapshot"
    CLOSED_DONE = "closed_done"
    CLOSED_SNAPSHOT = "closed_snapshot"
    ELSEWHERE = "elsewhere"


class Fit(Enum):
    """The decision of the matching table for one proposed entry (R6).

    ``AGREE``: the item is the entry's; ``OWN``: the item is the entry's own done item
    (its id, at its own slot, while open) bringing another ``call_id`` — the one item
    that may rename it; ``REKEYED``: the snapshot's item carrying new keys for a done
    entry at its own slot — the entry's, its identity kept; ``NONE``: not this entry.
    """

    NONE = "none"
    AGREE = "agree"
    OWN = "own"
    REKEYED = "rekeyed"


class MatchView(Enum):
    """What the three match keys of R6 found for a done or snapshot item.

    The keys are: the entry bound at the slot, the entry admitted with the item's
    ``call_id`` (in the item kind's namespace), the entry the item's id names uniquely;
    each counts only when the matching table fits it (``Fit`` other than ``NONE``).
    One fitting entry gives its fit (``AGREE``, ``OWN``, ``REKEYED``); several give
    ``CONFLICT``; a ``call_id`` held by an entry of another type gives ``CALL_ID_TAKEN``.
    """

    NONE = "none"
    AGREE = "agree"
    OWN = "own"
    REKEYED = "rekeyed"
    CONFLICT = "conflict"
    CALL_ID_TAKEN = "call_id_taken"


class AddedView(Enum):
    """What an ``output_item.added`` item finds among the admitted entries (R6)."""

    NEW = "new"
    REPLAY = "replay"
    CALL_ID_TAKEN = "call_id_taken"


class AdmissionAction(Enum):
    """The decision of the admission table."""

    ADMIT = "admit"
    MATCH = "match"
    REJECT = "reject"


class PayloadHeld(Enum):
    """What a channel holds before a new offer arrives (rule R7).

    ``EMPTY`` is an explicit empty value (a zero-argument call's ``""``): a value, but
    one that any non-empty offer replaces.
    """

    NOTHING = "nothing"
    EMPTY = "empty"
    VALUE = "value"


class OfferRelation(Enum):
    """How a new payload offer relates to what the channel holds."""

    MISSING = "missing"
    EMPTY = "empty"
    FIRST = "first"
    EQUAL = "equal"
    EXTENDS = "extends"
    DIFFERS = "differs"


class PayloadAction(Enum):
    """Keep the held value, or take the offer."""

    KEEP = "keep"
    TAKE = "take"


class IdentityField(Enum):
    """The identity fields of an item that the identity table decides, in merge order."""

    CALL_ID = "call_id"
    NAME = "name"
    NAMESPACE = "namespace"


class MergeStage(Enum):
    """Which item is merged into an entry (R6, identity fixed at confirmation).

    ``CONFIRMING``: the entry's own confirming item (``Fit.OWN``: its id, at its own
    slot, while the entry is open); ``FIXED``: any other item — the added item, a
    done or snapshot item matched by other keys, anything after confirmation.
    """

    FIXED = "fixed"
    CONFIRMING = "confirming"


class IdentityRelation(Enum):
    """How an item's identity field (``call_id``, ``name``, ``namespace``) relates to the
    value the entry holds (R6, ``first_admission_wins``)."""

    MISSING = "missing"  # absent, null, not a string or empty: the item says nothing
    FIRST = "first"  # non-empty, the entry holds no value yet, and no other entry does
    TAKEN = "taken"  # non-empty, the entry holds none, another entry of its kind holds it
    EQUAL = "equal"
    DIFFERS = "differs"


class PayloadSource(Enum):
    """Where a channel's final value came from, in arrival order (R7)."""

    NONE = "none"
    DELTAS = "deltas"
    PAYLOAD_DONE = "payload_done"
    ITEM_DONE = "item_done"
    SNAPSHOT = "snapshot"


class IdSource(Enum):
    """Where an entry's item id came from (R6, R11)."""

    WIRE = "wire"
    RENAMED_FIELD = "renamed_field"
    SLOT = "slot"
    MINTED = "minted"


class ResponseStatus(Enum):
    """The status of one response in the result contract (R9)."""

    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    INCOMPLETE = "incomplete"
    FAILED = "failed"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"


class Severity(Enum):
    """How bad a diagnostic is.  ``ERROR`` means the stream cannot be trusted."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Code(Enum):
    """Diagnostic codes.  Part of the result contract: add freely, rename none."""

    # R1 dispatch and the wire front end
    MALFORMED_EVENT = "malformed_event"
    INVALID_UTF8 = "invalid_utf8"
    NOT_AN_OBJECT = "not_an_object"
    MISSING_TYPE = "missing_type"
    INVALID_FIELD = "invalid_field"
    NULL_ITEM = "null_item"
    UNKNOWN_EVENT = "unknown_event"
    EVENT_NAME_MISMATCH = "event_name_mismatch"
    SEQUENCE_GAP = "sequence_gap"
    SEQUENCE_REGRESSION = "sequence_regression"
    LIMIT_EXCEEDED = "limit_exceeded"
    NO_RESPONSE_STARTED = "no_response_started"
    RESPONSE_RESUMED = "response_resumed"
    # R3-R6 routing and admission
    SLOT_REUSED = "slot_reused"
    AMBIGUOUS_ROUTE = "ambiguous_route"
    ORPHAN_EVENT = "orphan_event"
    ITEM_ID_UNRECOGNIZED = "item_id_unrecognized"
    CHANNEL_MISMATCH = "channel_mismatch"
    PART_REALIGNED = "part_realigned"
    PART_NOT_ADDED = "part_not_added"
    DUPLICATE_ITEM = "duplicate_item"
    DONE_ONLY_ITEM = "done_only_item"
    SNAPSHOT_ONLY_ITEM = "snapshot_only_item"
    DUPLICATE_CALL_ID = "duplicate_call_id"
    ID_CHANGED = "id_changed"
    ID_RENAMED_FIELD = "id_renamed_field"
    ID_ADOPTED_FROM_SLOT = "id_adopted_from_slot"
    ID_MINTED = "id_minted"
    ID_ONLY_AS_ITEM_ID = "id_only_as_item_id"
    METADATA_CONFLICT = "metadata_conflict"
    CALL_ID_RENAMED = "call_id_renamed"
    SNAPSHOT_REKEYED = "snapshot_rekeyed"
    DIVERGENT_ITEM_FIELD = "divergent_item_field"
    UNKNOWN_TOOL_TYPE = "unknown_tool_type"
    CALL_WITHHELD = "call_withheld"
    LATE_EVENT = "late_event"
    # R7 payload
    DIVERGENT_PAYLOAD = "divergent_payload"
    PAYLOAD_EXTENDED = "payload_extended"
    EMPTY_PAYLOAD_IGNORED = "empty_payload_ignored"
    EMPTY_PAYLOAD_FILLED = "empty_payload_filled"
    INVALID_JSON_ARGUMENTS = "invalid_json_arguments"
    # R9 response end
    SNAPSHOT_MISSING_ITEM = "snapshot_missing_item"
    SNAPSHOT_ABSENT = "snapshot_absent"
    UNCONFIRMED_ITEM = "unconfirmed_item"
    MISSING_TERMINAL = "missing_terminal"
    AFTER_TERMINAL = "after_terminal"
    RESPONSE_ERROR = "response_error"
    RESPONSE_ID_CHANGED = "response_id_changed"


@record(frozen=True, slots=True)
class CodeSpec:
    """What a diagnostic code means, how bad it is, and which rule raises it.

    Every finding of the reducer is a diagnostic with a code (``Code``, part of the
    result contract: codes are added, never renamed).  One table says everything else
    about a code, ``vocabulary.CODES``: its severity (``error`` means the result cannot
    be trusted as is), the rule whose clause raises it, and its ``meaning`` in one line
    (prose: the proof record's fingerprint ignores it).  The severities of the result
    contract (``SEVERITY``), the rule of each code in divergence reports
    (``model.rules.CODE_RULES``), the code list of ``docs/schema/result.schema.json``
    and the codes page of the docs (``docs/model/codes.md``) are made from it.

    A lifecycle row reports through a *note effect*; ``NOTE_CODES`` gives the code each
    one raises, and the named sets of note effects and codes (``NOTE_EFFECTS``,
    ``LATE_EFFECTS`` and ``LATE_CODES``, ``EVENT_NOTES``) are derived from it or
    declared beside it, once, for the driver, the proofs and the tests.
    """

    severity: Severity
    rule: str
    meaning: str


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: dict[Code, CodeSpec] = {
    # R1 dispatch and the wire front end
    Code.MALFORMED_EVENT: CodeSpec(_E, "R1", meaning="an event's data is not JSON; skipped"),
    Code.INVALID_UTF8: CodeSpec(_E, "R1", meaning="the bytes are not UTF-8; decoded with U+FFFD"),
    Code.NOT_AN_OBJECT: CodeSpec(_E, "R1", meaning="an event's JSON is not an object; skipped"),
    Code.MISSING_TYPE: CodeSpec(_E, "R1", meaning="an event has no string type; skipped"),
    Code.INVALID_FIELD: CodeSpec(
        _E, "R1", meaning="a field has the wrong shape (an output that is no array) or a delta "
        "lacks its delta; ignored"
    ),
    # openai-python ignores ``item: null`` (openai/openai-python#3125, fix #3126).
    Code.NULL_ITEM: CodeSpec(_I, "R1", meaning="an output_item event carries item: null; skipped"),
    Code.UNKNOWN_EVENT: CodeSpec(_I, "R1", meaning="an event type the catalogue lacks; skipped"),
    Code.EVENT_NAME_MISMATCH: CodeSpec(
        _W, "R1", meaning="the SSE event: name differs from the data's type; the type counts"
    ),
    Code.SEQUENCE_GAP: CodeSpec(_W, "R1", meaning="a sequence_number skips values"),
    Code.SEQUENCE_REGRESSION: CodeSpec(
        _W, "R1", meaning="a sequence_number is not above the one before"
    ),
    Code.LIMIT_EXCEEDED: CodeSpec(
        _E, "R1", meaning="a reducer limit was reached (entries, event size); the excess dropped"
    ),
    Code.NO_RESPONSE_STARTED: CodeSpec(
        _W, "R1", meaning="an event came before any response.created; a response opened for it"
    ),
    # A ``GET /responses/{id}?stream=true&starting_after=N`` resume starts at N+1, maybe
    # in the middle of an item (issue #35).
    Code.RESPONSE_RESUMED: CodeSpec(
        _I,
        "R14",
        meaning="the stream resumes a response after its first events; events of items "
        "opened before the resume are attached to them",
    ),
    # R3-R6 routing and admission
    Code.SLOT_REUSED: CodeSpec(
        _W, "R3", meaning="a second item at a bound output_index; both kept, the slot shared"
    ),
    Code.AMBIGUOUS_ROUTE: CodeSpec(
        _E, "R5", meaning="an event or item fits several entries; rejected, nothing changes"
    ),
    Code.ORPHAN_EVENT: CodeSpec(_W, "R5", meaning="a payload event reaches no entry; dropped"),
    Code.ITEM_ID_UNRECOGNIZED: CodeSpec(
        _I, "R5", meaning="an event's item_id names no entry; routed by its slot"
    ),
    Code.CHANNEL_MISMATCH: CodeSpec(
        _E, "R5", meaning="a payload event names a channel its entry's type lacks; dropped"
    ),
    Code.PART_REALIGNED: CodeSpec(
        _I, "R7", meaning="a streamed part sits at another position in the item; moved there"
    ),
    Code.PART_NOT_ADDED: CodeSpec(
        _I,
        "R7",
        meaning="a delta opens a part its item never announced (no part-added event "
        "before it); the part is opened by the delta",
    ),
    Code.DUPLICATE_ITEM: CodeSpec(
        _I, "R6", meaning="an admitted item arrives again (a repeated added or done)"
    ),
    # The API announces every item with output_item.added first; LangChain loses a call
    # that arrives in its done alone (issue #33).
    Code.DONE_ONLY_ITEM: CodeSpec(
        _I,
        "R6",
        meaning="an item arrives first in its output_item.done, never announced by "
        "output_item.added; admitted from the done",
    ),
    # So too an item the terminal's output holds and no event streamed: a client that
    # builds its items from the stream (codex) never sees it (issue #33).
    Code.SNAPSHOT_ONLY_ITEM: CodeSpec(
        _I,
        "R6",
        meaning="an item arrives first in the terminal's output, never streamed; "
        "admitted from the snapshot",
    ),
    Code.DUPLICATE_CALL_ID: CodeSpec(
        _E, "R6", meaning="an item's call_id is held by an entry of another type; refused"
    ),
    Code.ID_CHANGED: CodeSpec(
        _I, "R6", meaning="an entry's item arrives with another id; kept as an alias (R4)"
    ),
    Code.ID_RENAMED_FIELD: CodeSpec(
        _I, "R6", meaning="an item without id carries it as item_id; taken from there"
    ),
    Code.ID_ADOPTED_FROM_SLOT: CodeSpec(
        _I, "R6", meaning="an item without id takes the item_id its slot's events carry"
    ),
    Code.ID_MINTED: CodeSpec(
        _I, "R11", meaning="an item never carried an id; a deterministic one is minted"
    ),
    # Bedrock Mantle: a done item names its call by item_id only; opencode and vercel-ai
    # drop the call (issue #33).
    Code.ID_ONLY_AS_ITEM_ID: CodeSpec(
        _I, "R6", meaning="an item of an entry with an id carries none, only item_id; the id kept"
    ),
    Code.METADATA_CONFLICT: CodeSpec(
        _W, "R6", meaning="a fixed call_id, name or namespace arrives different; the first kept"
    ),
    # OpenAI and Azure: a client tool_search_call's done renames the added's call_id.
    Code.CALL_ID_RENAMED: CodeSpec(
        _I, "R6", meaning="an entry's own done item renames its call_id; the new one taken"
    ),
    # A LiteLLM→vLLM gateway re-keys a done call in response.completed.
    Code.SNAPSHOT_REKEYED: CodeSpec(
        _W, "R6", meaning="the snapshot re-keys a done call at its own slot; identity kept"
    ),
    # OpenAI and Azure (gpt-5, gpt-5-mini, o4-mini): a reasoning item's encrypted_content
    # differs between output_item.done and response.completed (issue #35).
    Code.DIVERGENT_ITEM_FIELD: CodeSpec(
        _I,
        "R9",
        meaning="a field no rule decides differs between output_item.done and the snapshot; "
        "the snapshot's kept",
    ),
    # A response's tools echo a type the catalogue lacks (issue #35).
    Code.UNKNOWN_TOOL_TYPE: CodeSpec(
        _W,
        "R13",
        meaning="a declared tool's type is not in the catalogue; a call no known tool "
        "declares is not run",
    ),
    # A completed call that is not run is never withheld in silence (issue #41: a vLLM
    # gateway's call, its namespace restored, that no echoed tool names).
    Code.CALL_WITHHELD: CodeSpec(
        _I,
        "R13",
        meaning="a call in a completed response is not executable; the detail names why "
        "(its execution verdict: undeclared, server, answered, unconfirmed, ...)",
    ),
    Code.LATE_EVENT: CodeSpec(
        _I, "R3", meaning="an event for a done entry or a closed channel; it changes nothing"
    ),
    # R7 payload
    Code.DIVERGENT_PAYLOAD: CodeSpec(
        _W, "R7", meaning="an offer differs from the value held; the latest non-empty wins"
    ),
    Code.PAYLOAD_EXTENDED: CodeSpec(
        _I, "R7", meaning="an offer extends the value held; the longer one taken"
    ),
    Code.EMPTY_PAYLOAD_IGNORED: CodeSpec(
        _I, "R7", meaning="an empty offer after a value; ignored (empty never erases)"
    ),
    # OpenRouter: the done events blank a call's arguments, the snapshot holds them;
    # codex replays the blank (issue #33).
    Code.EMPTY_PAYLOAD_FILLED: CodeSpec(
        _I, "R7", meaning="a value after an explicit empty one (a blanked done); the value taken"
    ),
    Code.INVALID_JSON_ARGUMENTS: CodeSpec(
        _W, "R7", meaning="a function call's final arguments are not JSON; kept as they are"
    ),
    # R9 response end
    Code.SNAPSHOT_MISSING_ITEM: CodeSpec(
        _I, "R9", meaning="the terminal snapshot omits an admitted item; the item is kept"
    ),
    Code.SNAPSHOT_ABSENT: CodeSpec(
        _I, "R9", meaning="the terminal event carries no output; the streamed items kept"
    ),
    Code.UNCONFIRMED_ITEM: CodeSpec(
        _W, "R9", meaning="no done and no snapshot confirmed an item; a call is not executable"
    ),
    Code.MISSING_TERMINAL: CodeSpec(
        _E, "R9", meaning="the stream ended before a terminal event; the response interrupted"
    ),
    Code.AFTER_TERMINAL: CodeSpec(_I, "R9", meaning="an event after the terminal event; ignored"),
    Code.RESPONSE_ERROR: CodeSpec(
        _I, "R9", meaning="the response failed or an error event ended it; its error recorded"
    ),
    Code.RESPONSE_ID_CHANGED: CodeSpec(
        _W, "R9", meaning="an event names another response id; the first one kept"
    ),
}
"""Every diagnostic code: its severity, its rule and its meaning — the one table the
severities (``SEVERITY``), the rule mapping (``model.rules.CODE_RULES``), the result
schema's code list and the codes page (``docs/model/codes.md``) are made from."""

SEVERITY: dict[Code, Severity] = {code: spec.severity for code, spec in CODES.items()}
"""The severity of every code.  ``error`` means a result cannot be trusted as is."""


# -- facts about the vocabulary, declared once (the driver, proofs and docs import them) --

RESPONSE_WIDE_TRIGGERS: tuple[Trigger, ...] = (Trigger.RESPONSE_COMPLETED, Trigger.RESPONSE_ABORTED)
"""Triggers the driver delivers to every admitted entry at once; they end the response."""

ROUTED_TRIGGERS: tuple[Trigger, ...] = (
    Trigger.PART_ADDED,
    Trigger.DELTA,
    Trigger.DELTA_ON_CLOSED_CHANNEL,
    Trigger.PAYLOAD_DONE,
    Trigger.PROGRESS,
)
"""Triggers of payload events: routed (R5) to an admitted entry, or dropped."""

CHANNEL_TRIGGERS: tuple[Trigger, ...] = (Trigger.DELTA, Trigger.PAYLOAD_DONE, Trigger.PART_ADDED)
"""Triggers of the payload events that name one channel of their entry (a part, R7): the
driver reclassifies them by that channel's state (``model.channels``)."""

ITEM_TRIGGERS: tuple[Trigger, ...] = (Trigger.ITEM_ADDED, Trigger.ITEM_DONE, Trigger.SNAPSHOT_ITEM)
"""Triggers that carry a whole item (admitted or matched, R6)."""

CONFIRMING_TRIGGERS: tuple[Trigger, ...] = (
    Trigger.PAYLOAD_DONE,
    Trigger.ITEM_DONE,
    Trigger.SNAPSHOT_ITEM,
)
"""Events that confirm a call (R9): a ``*.done``, an ``output_item.done``, the snapshot."""

@record(frozen=True, slots=True)
class Restatement:
    """When an event a stream left out is said again by others it sent (``RESTATED``)."""

    by: tuple[Trigger, ...]
    """The stream sent the same item in an event of one of these triggers."""
    unless: tuple[Trigger, ...] = ()
    """...and no event of these triggers for the same part."""


RESTATED: dict[Trigger, Restatement] = {
    # A payload's (or a part's) done: the item's done and the terminal's output hold its
    # final value (R7 takes the item's; a value that differs is a change of its own).
    Trigger.PAYLOAD_DONE: Restatement((Trigger.ITEM_DONE, Trigger.SNAPSHOT_ITEM)),
    # A part's added: so too, for a part no delta streamed.  A delta of a part never
    # added is no such case: openai-node's accumulator throws on it.
    Trigger.PART_ADDED: Restatement(
        (Trigger.ITEM_DONE, Trigger.SNAPSHOT_ITEM), unless=(Trigger.DELTA,)
    ),
    # An item's done: the terminal's output holds the item (OpenAI closes some
    # mcp_list_tools items there alone: fixtures/captures/pydantic-ai).
    Trigger.ITEM_DONE: Restatement((Trigger.SNAPSHOT_ITEM,)),
}
"""The events a stream may leave out with nothing lost: each is said again by the item
an event of ``by`` carries.  The canonical stream sends every event the API's order
has; one of these that the upstream left out is a re-spelling, not a repair: the proxy
logs it apart from its repairs and counts it as none (issue #33).  An item's
``output_item.added`` is no key: an item the stream never announced is a deviation
(``done_only_item``, ``snapshot_only_item``, R6), and so is a part's added where a
delta streamed (``part_not_added``, R7)."""

SLOT_EFFECTS: dict[Effect, SlotTrigger] = {
    Effect.BIND_SLOT: SlotTrigger.BIND,
    Effect.TOMBSTONE_SLOT: SlotTrigger.TOMBSTONE,
}
"""The lifecycle effects that move a slot, and the slot trigger each one is."""

PAYLOAD_EFFECTS: tuple[Effect, ...] = (
    Effect.APPEND_DELTA,
    Effect.OFFER_PAYLOAD,
    Effect.OFFER_ITEM_PAYLOADS,
)
"""The lifecycle effects that touch a channel's value."""

NOTE_CODES: dict[Effect, Code] = {
    Effect.NOTE_DUPLICATE_ITEM: Code.DUPLICATE_ITEM,
    Effect.NOTE_LATE_EVENT: Code.LATE_EVENT,
    Effect.NOTE_UNCONFIRMED: Code.UNCONFIRMED_ITEM,
    Effect.NOTE_MISSING_FROM_SNAPSHOT: Code.SNAPSHOT_MISSING_ITEM,
    Effect.NOTE_ORPHAN: Code.ORPHAN_EVENT,
    Effect.NOTE_DONE_ONLY: Code.DONE_ONLY_ITEM,
    Effect.NOTE_SNAPSHOT_ONLY: Code.SNAPSHOT_ONLY_ITEM,
}
"""The diagnostic each *note effect* raises: the lifecycle table names *that* a row
reports (R8), this table *what* it reports.  It is a model table
(``ModelTables.note_codes``, every effect a cell, ``None`` for an effect that reports
nothing): the driver (``impl/core/effects.py``) raises the code the ``notes`` kernel
gives and the proofs read it to compute the codes a step raises
(``proofs.encoding.Encoding.raised_by``, the contract ``admission_reports``), so a
diagnostic dropped or changed by a row is visible to Z3.
``NOTE_MISSING_FROM_SNAPSHOT`` raises only when the snapshot has items: an empty
snapshot is reported once, as ``snapshot_absent``; the ``RESUME_WAIVED`` ones raise
nothing in a resumed response."""



def note_effects(note_codes: Mapping[Effect, Code | None]) -> frozenset[Effect]:
    """The effects ``note_codes`` gives a code (``NOTE_EFFECTS`` of a model's
    ``ModelTables.note_codes``): a proof asks it of the tables it reads, so only the
    rows that ask count the table (``proofs.reads``)."""
    return frozenset(effect for effect, code in note_codes.items() if code is not None)


NOTE_EFFECTS: frozenset[Effect] = note_effects(NOTE_CODES)
"""Effects that only report a diagnostic and change no state: the keys of ``NOTE_CODES``."""

LATE_EFFECTS: frozenset[Effect] = frozenset({Effect.NOTE_LATE_EVENT})
"""The note effects that say an event came too late for its entry (a done entry, a
closed channel: R3, R7).  Such an event changes nothing (``late_is_inert``)."""


def late_codes(note_codes: Mapping[Effect, Code | None]) -> frozenset[Code]:
    """The codes ``note_codes`` gives ``LATE_EFFECTS`` (``LATE_CODES`` of a model's
    ``ModelTables.note_codes``, asked by a proof of the tables it reads)."""
    return frozenset(
        code for effect in LATE_EFFECTS if (code := note_codes.get(effect)) is not None
    )


LATE_CODES: frozenset[Code] = late_codes(NOTE_CODES)
"""The codes of ``LATE_EFFECTS``: what a late event is reported as."""

RESPONSE_END_NOTES: frozenset[Effect] = frozenset(
    {Effect.NOTE_UNCONFIRMED, Effect.NOTE_MISSING_FROM_SNAPSHOT, Effect.NOTE_SNAPSHOT_ONLY}
)
"""The note effects the response's end raises, about an entry rather than one event."""

RESUME_WAIVED: frozenset[Effect] = frozenset(
    {Effect.NOTE_DONE_ONLY, Effect.NOTE_SNAPSHOT_ONLY}
)
"""The note effects that raise nothing in a resumed response (R14): an item first seen in
its done or in the terminal's output there was announced before the resume point.  The
driver asks it through the ``waives`` kernel (``ModelTables.resume_waived``, one cell
per effect), and the contract ``admission_reports`` (``proofs/reports_z3.py``) proves
which report each admission path owes, resumed or not."""

EVENT_NOTES: frozenset[Effect] = NOTE_EFFECTS - RESPONSE_END_NOTES
"""The note effects about the one event that raised them: their diagnostic carries it."""
