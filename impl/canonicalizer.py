"""The canonical stream: the upstream's stream, repaired where the oracle finds it wrong.

``canonical(events)`` has the same responses, items, payloads and executability as
``reduce`` finds in ``events``; it passes on every event it does not repair, adds an
event only where a repair needs it, and names every event it adds, changes or keeps
back in ``repairs``::

    from responses_oracle import canonical, reduce
    twin = canonical(events)          # a list of event dicts
    assert [r.response_id for r in reduce(twin)] == [r.response_id for r in reduce(events)]

``Canonicalizer`` is the same, one event at a time, for a proxy:
``canonical(events) == [*chain(*(c.feed(e) for e in events)), *c.close()]``.

Theory of operation
-------------------
Nothing here decides anything about the stream: a ``Reducer`` is fed every event, and
this module only re-serialises what it holds (``Reducer.state``: the entries, their
channels, lifecycle states and verdicts; ``result.wire_item``: an entry's reconciled
wire item).  After each event:

1. a response the reducer has started gets ``response.created`` and
   ``response.in_progress`` once its id is known or its first item is due -- each
   only if the upstream sent it (``_open``; no repair needs an opening, so none is
   made up), with every field the upstream gave it (``usage: null`` included:
   ``_upstream_event``).  An opening that names no response gets the stream's id, or
   one minted here (the API's ``Response.id`` is required); a response the upstream
   neither opened nor named gets no id;
2. each entry is announced (``output_item.added``) once its place is settled -- it has
   a slot, its id came with the item, no entry without a slot was admitted before it,
   every entry before it in the result's order (R10) is announced, and none of those
   is a held call (4): each item's events come in one run, as a provider streams them
   (langchain-openai reads a call's arguments from the deltas after its ``added``, and
   starts a new call at another item's ``added``).  Its ``output_index`` is the
   stream's slot, moved up only where a slot held two items (``_place``).  It keeps its
   id when an earlier item of the response has it too (no id is invented); an added
   made up with an earlier item's identity is logged: it reads as a replay (R6);
3. the payload of an item that is not a client call (text, refusal, reasoning, an MCP
   call's arguments, code, annotations) is passed on as it comes, on the event that
   brought it; a part is announced once it holds a value, at its position in the
   reconciled item, with the annotations the upstream's ``added`` listed (those added
   before it follow as their events); its part and payload ``done`` events, if the
   upstream sent such events for the item, when the reducer closes the channel, its
   ``output_item.done`` when the reducer closes the entry (R8); a part's ``done`` waits
   for the upstream's (``_release_part``) and lists the annotations it listed (none
   sent: its finished item's, or what events added).  No delta is made up where a
   ``done`` carries the value.  An
   event canonical spells again keeps every field of the upstream's it does not spell
   (``_own``: ``obfuscation``, ``logprobs``, a ``done``'s ``name``), and a delta keeps
   the upstream's field order where it has the same fields (``_upstream_order``: OpenAI
   sends ``sequence_number`` second); one it makes up has the fields the published type
   requires (``_extra``).  Every upstream event
   canonical does not spell again (``_RESPELLED``: a hosted tool's progress, a partial
   image, ``response.queued``, an unknown event) passes on as it came, in place, once
   its item is announced;
4. a client call (``catalogue.ItemTypeSpec.client_call``) is held after its
   ``output_item.added``: only its response's terminal settles whether it may run
   (R9, R13) -- or, sooner, an output item of the response that answers it: the
   server ran it (``_release_answered``).  Then it is emitted once, reconciled: its id,
   its deltas one by one as the upstream sent them (one delta of the reconciled value,
   logged, where they do not spell it), its ``done`` events.  In a completed response,
   a call the stream never confirmed (``unconfirmed``) gets its payload but no ``done``
   and no place in the snapshot: it never arrives as a completed call of a completed
   response.  A call the server runs (``answered``, ``server``, ``undeclared``) or that
   names no ``call_id`` completes as the stream said, and the reducer gives it the same
   verdict again;
5. at the terminal, every item the upstream finished and canonical has not closed is
   closed, in result order, each announced when its turn comes (``_in_turn``); an item
   the upstream did not finish (``response.incomplete``) gets its payload and no
   ``done``.
   The terminal event is the upstream's, every field as it came, with the reconciled
   snapshot as its ``output`` if it had one (the items as ``Result.items`` holds
   them); no field the upstream did not send is filled (``created_at``, ``model``,
   ``usage``, a ``status``, its id).  A failure reported by an ``error`` event is that
   event, as it came, and a ``response.failed`` made from the latest response object;
6. a stream cut before its terminal ends cut: the held calls' payloads, no ``done``
   for them, no terminal made up;
7. ``end`` stops reading where a reader must (a proxy's limit): an ``error`` event and
   ``response.failed``, named in the response's record.
8. ``passed`` takes the front end's record of an event the reader let through unread
   (over its event limit, of a type canonical passes on as it came:
   ``passes_as_sent``): nothing is emitted for it, nothing ends, the record names it.

``sequence_number`` counts from 0 in each response.  WebSocket client frames
(``response.create``) pass unchanged: they say where a response ends.  A response made
of unreadable input only (no opening, no item, no terminal) has no answer to re-emit.

``repairs`` holds one JSON-ready record per response: its id, the oracle's diagnostic
codes for it, what canonical changed relative to the upstream stream, and apart from
those the events canonical added that the upstream's other events say again
(``model.vocabulary.RESTATED``: a payload's ``done`` whose value the item's done holds,
an item's done the terminal's output holds) -- a re-spelling, no repair.  The change
list is read, never decided: the reducer runs with its trace on, which names the entry
each upstream event reached (``StepTrace.entry``); each entry keeps a ledger of the
item events (``output_item.added``/``done``, part and payload ``done`` events) the
upstream sent for it and another of those canonical sent, and at the response's end
the two are compared -- an event one has and the other lacks, a payload, an id, an
item's field or the event's other fields that differ -- beside what the emission itself
did (a call withheld, an index moved, an event's own ``item_id`` or ``output_index``
replaced, an id minted, a cut) and the terminal's ``output`` against the upstream's,
item by item.  An item event that reached no entry is dropped, with the codes the
reducer raised for it.  Ledgers hold lengths and hashes, not payloads: memory stays
bounded by the reducer's own ``ReducerLimits``.
"""

from __future__ import annotations

import json
from bisect import insort
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from json.encoder import encode_basestring_ascii
from operator import itemgetter
from typing import Any, Final

from responses_oracle.model.annotations import ADDITION_TYPES, PART_ADDITIONS, PartAddition
from responses_oracle.model.catalogue import (
    TERMINAL_STATUS,
    TERMINALS,
    WIRE_EVENTS,
    ChannelKind,
    ChannelLocation,
    EventClass,
    Terminal,
)
from responses_oracle.model.channels import channel_state
from responses_oracle.model.execution import OUTPUT_OF, Execution, answered_ordinals
from responses_oracle.model.lifecycle import CLOSED_STATES
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.responses import FRAME_TYPES, OPENING_TYPES
from responses_oracle.model.vocabulary import (
    RESTATED,
    AddedView,
    Code,
    Effect,
    IdSource,
    ResponseStatus,
    Trigger,
)

from .core.admit import view_of_added
from .core.context import StepContext
from .core.dispatch import StepTrace
from .core.events import SEQUENCE_FIELD, parse_event
from .core.events import Event as CoreEvent
from .core.reconcile import append_delta, item_channel_values
from .core.route import addition_of
from .core.state import Channel, Entry, ResponseState, channel_text
from .core.step import DEFAULT_LIMITS, ReducerLimits
from .reducer import Reducer
from .result import output_key, output_order, part_positions, wire_item
from .serve.shapes import type_problems
from .wire import WireEvent
from .wire.decode import fast_encoder

Event = dict[str, Any]
"""One canonical event."""


@dataclass(frozen=True, slots=True)
class _Spelling:
    """How the API spells the events of one payload channel.

    ``index`` names the part index field (None for a scalar payload); ``part_added`` /
    ``part_done`` and ``part_type`` are set for channels carried in a part object."""

    delta: str
    done: str
    value: str
    index: str | None = None
    part_added: str | None = None
    part_done: str | None = None
    part_type: str | None = None
    item_id: bool = True
    """Whether its events name their item (a shell command's published events do not:
    their ``output_index`` places them)."""


_C = ChannelKind
_CONTENT = ("content_index", "response.content_part.added", "response.content_part.done")
_SUMMARY = (
    "summary_index",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
)

_SPELLINGS: Final[dict[tuple[str, ChannelKind], _Spelling]] = {
    ("message", _C.TEXT): _Spelling(
        "response.output_text.delta", "response.output_text.done", "text", *_CONTENT, "output_text"
    ),
    ("message", _C.REFUSAL): _Spelling(
        "response.refusal.delta", "response.refusal.done", "refusal", *_CONTENT, "refusal"
    ),
    ("reasoning", _C.SUMMARY): _Spelling(
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
        "text",
        *_SUMMARY,
        "summary_text",
    ),
    ("reasoning", _C.REASONING_TEXT): _Spelling(
        "response.reasoning_text.delta",
        "response.reasoning_text.done",
        "text",
        *_CONTENT,
        "reasoning_text",
    ),
    ("function_call", _C.ARGUMENTS): _Spelling(
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "arguments",
    ),
    ("mcp_call", _C.ARGUMENTS): _Spelling(
        "response.mcp_call_arguments.delta", "response.mcp_call_arguments.done", "arguments"
    ),
    ("custom_tool_call", _C.INPUT): _Spelling(
        "response.custom_tool_call_input.delta", "response.custom_tool_call_input.done", "input"
    ),
    ("code_interpreter_call", _C.CODE): _Spelling(
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "code",
    ),
    ("shell_call", _C.COMMAND): _Spelling(
        "response.shell_call_command.delta",
        "response.shell_call_command.done",
        "command",
        "command_index",
        "response.shell_call_command.added",
        item_id=False,
    ),
}
"""(item type, channel) → the event names the API uses for it (openai-python 3.57's
``ResponseStreamEvent``).  A channel not listed here (an ``apply_patch_call``'s diff,
whose events the published types lack, or a channel of an unknown item type) travels
only inside its item's ``output_item.done`` and the snapshot."""

_ADDITION_EVENTS: Final[dict[PartAddition, str]] = {}
for _name, _addition in PART_ADDITIONS.items():
    _ADDITION_EVENTS.setdefault(_addition, _name.value)  # the first spelling is the API's
_ADDITIONS: Final[dict[ChannelKind, PartAddition]] = {
    addition.channel: addition for addition in _ADDITION_EVENTS
}
_ADDITION_OF: Final[dict[str, PartAddition]] = {
    name.value: addition for name, addition in PART_ADDITIONS.items()
}
"""What progress events add to a channel's part (``model.annotations.PART_ADDITIONS``):
the event type canonical spells it with, the addition of each channel, and of each
event type."""

_ITEM_EVENTS: Final = ("response.output_item.added", "response.output_item.done")

DELTA_TYPES: Final[frozenset[str]] = frozenset(s.delta for s in _SPELLINGS.values())
"""The payload delta events canonical re-emits as they came (the fast path's)."""

_OPEN_CHANNEL: Final = channel_state(PYTHON, False)
"""``model.channels.channel_state`` of an open channel: what the step reclassifies a
live channel's delta by (``Canonicalizer.feed_live``)."""

_APPENDS: Final = frozenset({Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID})
"""The effects of a lifecycle row that only appends a delta, for an event whose id the
entry already goes by (``Canonicalizer.feed_live``)."""

_SEQUENCE_OF: Final = itemgetter(SEQUENCE_FIELD)
"""An event's ``sequence_number`` (``Canonicalizer._emit_run``)."""

_OPENING: Final = ("response.created", "response.in_progress")
"""The events that open a response, as canonical sends them (``_open``); another
opening a provider sends (``response.queued``) passes on."""

_RESPELLED: Final[frozenset[str]] = frozenset(
    {
        *_ITEM_EVENTS,
        *(
            name
            for spelling in _SPELLINGS.values()
            for name in (spelling.delta, spelling.done, spelling.part_added, spelling.part_done)
            if name is not None
        ),
        *(name.value for name in PART_ADDITIONS),
        *_OPENING,
        *(name for name, spec in WIRE_EVENTS.items() if spec.event_class in TERMINALS),
    }
)
"""The upstream events canonical spells again from the reducer's state (items, parts,
payloads, annotations, the opening and the terminal).  Every other event -- a hosted
tool's progress (``web_search_call.searching``, ``image_generation_call.partial_image``
with its image), ``response.queued``, an ``apply_patch`` diff or a shell output delta,
an event type the oracle does not know -- passes on as it came (``_pass``)."""


def passes_as_sent(kind: str | None) -> bool:
    """Whether canonical passes an upstream event of type ``kind`` on as it came (not
    ``_RESPELLED``): what a reader may let through unread when it is over the event limit
    (``Canonicalizer.passed``) -- canonical needs nothing of it but its place.  An
    event whose type is not known (None) is not."""
    return kind is not None and kind not in _RESPELLED


_LEDGER: Final[dict[str, tuple[str | None, str | None]]] = {
    **{name: (None, None) for name in _ITEM_EVENTS},
    **{
        name: (spelling.index, spelling.value if name == spelling.done else None)
        for spelling in _SPELLINGS.values()
        for name in (spelling.done, spelling.part_added, spelling.part_done)
        if name is not None
    },
}
"""The item events each side's ledger keeps (``_ledger``): event type → the field of
its part index and the field of its payload value (None: no value compared).  Deltas
are left out: they pass on one by one as sent, and a delta canonical makes up is a
change of its own (``_replay``)."""

Fingerprint = tuple[int, int]
"""A payload as a ledger keeps it: its length and its hash."""

PartKey = tuple[str | None, Any]
"""A part of an entry: the field of its index (``content_index``...) and the index."""

LedgerKey = tuple[str, Any]
"""An item event in a ledger: its type and its part index (None if it has none)."""

Ledger = dict[LedgerKey, Any]
"""One side's item events of one entry → the payload fingerprint, or the item's
(``_item_print``), or None."""

_WITHHELD: Final[frozenset[Execution]] = frozenset({Execution.UNCONFIRMED})
"""The verdict that keeps a call of a completed response from completing: the stream
never confirmed it.  A call the server runs (``answered``, ``server``, ``undeclared``)
or that names no ``call_id`` (a server-run tool search has none) completes as the API
sent it, and the reducer gives it the same verdict again."""

_ITEM_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "message": {"role": "assistant", "content": []},
    "reasoning": {"summary": []},
    "function_call": {"arguments": ""},
    "custom_tool_call": {"input": ""},
    "mcp_call": {"arguments": ""},
}
"""Fields the published item types require that carry no answer, filled when absent."""

_NO_STATUS: Final[frozenset[str]] = frozenset(
    {
        "compaction",
        "mcp_list_tools",
        "mcp_approval_request",
        "mcp_approval_response",
        "additional_tools",
        "program",
    }
)
"""Item types that carry no ``status`` (every other one gets one: a ``custom_tool_call``
has none in the published type, and one in every recorded stream)."""

_TERMINAL_EVENTS: Final[dict[ResponseStatus, str]] = {
    TERMINAL_STATUS[terminal]: name
    for name, spec in WIRE_EVENTS.items()
    if (terminal := TERMINALS.get(spec.event_class)) is not None and terminal is not Terminal.ERROR
}
"""The terminal event that gives a response each status (``catalogue.TERMINAL_STATUS``
read backwards; an ``error`` event's failure is ended with ``response.failed``)."""

_SETTLED_STATUS: Final[frozenset[str]] = frozenset({"program_output", "apply_patch_call_output"})
"""Item types whose published ``status`` has no ``in_progress``: announced with the
status the stream gave them."""


@dataclass(slots=True)
class _Track:
    """What has been emitted of one channel.  Kept by the channel object, not its key:
    the reducer may move a streamed part to the index its item gives it
    (``payload.align_parts``), and its events go on at the index they began at."""

    spelling: _Spelling
    index: int
    progress: int = 0
    """How many of the reducer's held deltas are out."""
    streamed: list[str] = field(default_factory=list)
    """The deltas emitted."""
    additions: list[Any] = field(default_factory=list)
    """The values of the part's additions emitted (annotations)."""
    part: dict[str, Any] | None = None
    """The part's fields as its ``added`` announced them (none: the reducer held no part
    yet)."""
    finished: bool = False
    """Its ``done`` events are out (its part's may wait: ``closing``)."""
    closing: tuple[str, Mapping[str, Any] | None] | None = None
    """Its part's ``done`` (value, part), waiting for the upstream's to arrive, whose
    fields it carries (``_close_track``)."""


@dataclass(slots=True)
class _Sent:
    """What has been emitted of one entry: its place, its id, its channels."""

    index: int
    item_id: str
    held: bool
    ordinal: int
    """The entry's (``Entry.ordinal``): the key of the upstream's ledger of it."""
    tracks: dict[int, _Track] = field(default_factory=dict)
    """By ``id()`` of the reducer's channel object."""
    locations: tuple[ChannelLocation, ...] = ()
    """Where its item type holds its payloads (``ItemTypeSpec.channels``)."""
    ledger: Ledger = field(default_factory=dict)
    """The item events canonical sent for it (``_LEDGER``)."""
    extra: dict[tuple[ChannelKind, int], tuple[_Track, str]] = field(default_factory=dict)
    """The payloads only the item holds (no channel streamed them), with their value."""
    closed: bool = False
    additions: int = 0
    """How many part additions (annotation events) canonical emitted for it."""


@dataclass(slots=True)
class _Response:
    """The emission of one response (one ``ResponseState`` of the reducer)."""

    state: ResponseState
    number: int
    sequence: int = 0
    response_id: str | None = None
    opened: bool = False
    finished: bool = False
    sent: dict[int, _Sent] = field(default_factory=dict)
    slots: dict[int, int] = field(default_factory=dict)
    """The stream's slot → the ``output_index`` of the last item announced in it."""
    frontier: tuple[tuple[bool, int, int], int] | None = None
    """The result-order key (``result.output_order``) and index of the item announced
    furthest along."""
    template: Mapping[str, Any] | None = None
    openings: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    """The opening and terminal events the upstream sent (``OPENING_TYPES``, the
    terminals), by type, the last of each: canonical sends each of ``_OPENING`` only if
    the upstream did (``_open``, ``_say_openings``), and re-emits each such event with
    the fields the upstream gave it (``_response_object``)."""
    said: set[str] = field(default_factory=set)
    """The opening events canonical sent."""
    error: Mapping[str, Any] | None = None
    changes: list[str] = field(default_factory=list)
    upstream: dict[int, Ledger] = field(default_factory=dict)
    """By entry ordinal: the item events the upstream sent for it (``_LEDGER``)."""
    withheld: set[int] = field(default_factory=set)
    """The ordinals of the calls whose ``done`` was withheld."""
    streamed: dict[int, set[PartKey]] = field(default_factory=dict)
    """By entry ordinal: the parts the upstream sent deltas for."""
    own: dict[tuple[int, LedgerKey], dict[str, Any]] = field(default_factory=dict)
    """By entry ordinal and ledger key: the fields of an upstream item event canonical
    does not spell (``_own``: ``logprobs``, a ``done``'s ``name``...), given back to the
    event canonical sends for it (``_emit``)."""
    placed: dict[int, Counter[tuple[Any, Any]]] = field(default_factory=dict)
    """By entry ordinal: how many upstream events named it with each ``item_id`` and
    ``output_index`` -- what canonical re-emits them with is its item's as announced,
    and ``_record`` names each event whose own said otherwise."""
    announced: dict[int, dict[str, Any]] = field(default_factory=dict)
    """By entry ordinal: the ``status`` of the item the upstream's ``output_item.added``
    carried (empty: it had none), which canonical's ``added`` says again (``_added``)."""
    delta_fields: dict[int, deque[tuple[str, dict[str, Any], tuple[str, ...]]]] = field(
        default_factory=dict
    )
    """By ``id()`` of a channel: each upstream delta not yet re-emitted, the fields
    canonical does not spell (``obfuscation``, ``logprobs``) and the names of all its
    fields, in the upstream's order (``_upstream_delta``)."""
    additions: dict[int, list[tuple[int, str, tuple[ChannelKind, int]]]] = field(
        default_factory=dict
    )
    """By entry ordinal: each upstream part addition (an annotation event) that added a
    value (``route.addition_of``), by its place, type and the part it adds to, to log
    those canonical did not send (``_record``)."""
    respelled: list[str] = field(default_factory=list)
    """The events canonical added that the upstream's other events say again
    (``model.vocabulary.RESTATED``): no repair."""
    pending: dict[int | None, list[Event]] = field(default_factory=dict)
    """By entry ordinal (None: the response's own): upstream events passed on as they
    came (``_RESPELLED`` names the others), waiting for their item to be announced (or
    released, for a held call) or the response to open."""
    waiting: dict[int, list[str]] = field(default_factory=dict)
    """By ``id()`` of a channel not yet opened (its item not announced, or its part
    waiting for a part before it): the deltas the upstream sent for it, re-emitted one
    by one when it opens (``_track``), even if a ``done`` has joined them since."""
    pieces: dict[tuple[int, ChannelKind, Any], list[str]] = field(default_factory=dict)
    """By (entry ordinal, channel, part index): the deltas the upstream sent for a held
    call, re-emitted one by one when the call is released."""
    streaming: set[int] = field(default_factory=set)
    """The ordinals of the entries announced, not held and not closed: what ``_advance``
    streams, kept as each ``_Sent`` changes (``note``) rather than found by a pass over
    every entry on every event."""
    holding: set[int] = field(default_factory=set)
    """The ordinals of the held calls not closed (``_release_answered``), kept the same
    way."""
    held: set[int] = field(default_factory=set)
    """The ordinals of the held calls, closed or not (``_announce``)."""
    outputs: int = 0
    """How many of the first ``counted`` entries are a call's output (``OUTPUT_OF``):
    with none, no call is answered (``_release_answered``)."""
    counted: int = 0
    queue: list[tuple[tuple[bool, int, int], int]] = field(default_factory=list)
    """The entries not announced yet, as ``(output_key, ordinal)`` in result order
    (``_announce``): each put in its place once, when the reducer admits it
    (``queued`` entries so far), not sorted again on every event.  An entry announced
    another way (``_in_turn``) is dropped when reached."""
    queued: int = 0
    slotless: set[int] = field(default_factory=set)
    """The entries in ``queue`` that had no slot when queued: the only ones whose
    ``output_key`` can change (R3: a done or snapshot item gives a missing slot),
    moved to their new place when it does."""

    def note(self, sent: _Sent) -> None:
        """Keep ``streaming``, ``holding`` and ``held`` as ``sent`` now stands."""
        ordinal, open_ = sent.ordinal, not sent.closed
        (self.streaming.add if open_ and not sent.held else self.streaming.discard)(ordinal)
        (self.holding.add if open_ and sent.held else self.holding.discard)(ordinal)
        (self.held.add if sent.held else self.held.discard)(ordinal)


@dataclass(slots=True)
class _Live:
    """A payload channel streaming where nothing else waits (``Canonicalizer._go_live``):
    the next delta for it is emitted without the full pass over the response
    (``Canonicalizer._fast_delta``), if the reducer took it as one more delta of the
    channel and nothing else."""

    kind: str
    """The delta event type of the channel (``_Spelling.delta``)."""
    key: tuple[Any, Any, Any]
    """The upstream event's ``output_index``, ``item_id`` and part index."""
    response: _Response
    entry: Entry
    sent: _Sent
    track: _Track
    channel: Channel
    shape: tuple[int, int]
    """How many entries the response and channels the entry held."""
    placed: Counter[tuple[Any, Any]] | None
    """The entry's count of the ``item_id`` and ``output_index`` its events gave
    (``_Response.placed``), which each delta taken adds to; None if they give neither."""
    fields: tuple[str, ...] = ()
    """The field names of the upstream delta that made the channel live, in its order
    (``tuple(event)``)."""
    context: StepContext | None = None
    """A step context of the response, for ``reconcile.append_delta``
    (``Canonicalizer.feed_live``): its state and limits."""
    as_sent: bool = False
    """The upstream delta's own fields are canonical's (``_as_sent``: its ``item_id``,
    ``output_index`` and part index those of the item as announced): a delta of its
    shape (``fields``), numbered as canonical numbers it, is canonical's event as it
    came -- re-emitted as a copy of it, and ``feed_live`` gives back the upstream's
    object; any other as ``_delta`` spells it."""
    ready: bool = False
    """The part of ``feed_live``'s condition the state holds was found true
    (``Canonicalizer._appends_only``); only ``feed_live`` steps since."""
    probe: CoreEvent | None = None
    """The last delta ``_appends_only`` found that part true of: what ``feed_run`` asks
    it of again after a full step (a delta of the run's shape has its type and keys,
    all ``_appends_only`` reads of it)."""


class Canonicalizer:
    """Incremental form, for a proxy:
    ``canonical(events) == [*chain(*(c.feed(e) for e in events)), *c.close()]``.

    >>> c = Canonicalizer()
    >>> [e["type"] for e in c.feed({"type": "response.created", "response": {"id": "r"}})]
    ['response.created']
    >>> c.close()  # cut before its terminal: it ends cut
    []
    """

    def __init__(self, *, limits: ReducerLimits = DEFAULT_LIMITS, fast: bool = True) -> None:
        # The trace names the entry each event reached: what ``repairs`` compares.
        self._reducer = Reducer(limits=limits, trace=True)
        self._fast = fast
        """Take the fast path for deltas (``_go_live``); off only to compare."""
        self._live: _Live | None = None
        """The channel whose next delta takes the fast path, if any."""
        self._response: _Response | None = None
        self._count = 0
        self._repairs: list[dict[str, Any]] = []
        self._scanned: tuple[ResponseState | None, int] = (None, 0)
        """The response whose diagnostics ``limit`` read last, and how many."""
        self._ended = False
        """``end`` was called: nothing more is read."""
        self.output: list[dict[str, Any]] = []
        """The reconciled items of the last response settled, as a terminal's ``output``
        holds them -- also when the upstream's terminal had no ``output``, which
        canonical's then leaves out (a ``stream: false`` answer needs them)."""

    @property
    def repairs(self) -> list[dict[str, Any]]:
        """One record per finished response, JSON-ready: ``response_id`` (None for a
        response the upstream never named), ``codes`` (the oracle's diagnostic codes
        for it, sorted), ``changes`` (what canonical changed relative to the upstream
        stream, one short sentence each; empty for a stream canonical passed on as it
        came) and ``respelled`` (the events canonical added that the upstream's other
        events say again, ``_restated``: no repair)."""
        return self._repairs

    def feed(self, event: Mapping[str, Any] | WireEvent) -> list[Event]:
        """Take one upstream event (what ``Reducer.feed`` takes: a decoded object, or
        the front end's record, undecodable ones included); return the events to emit
        now."""
        if self._ended:
            return []
        reducer = self._reducer
        traces = reducer.traces
        assert traces is not None  # made with trace=True
        closing = len(reducer.results)
        held = self._response
        reducer.feed(event)
        # Only an event the reducer stepped has a trace (a client frame, or one the
        # front end could not decode, has none).
        trace = traces[-1] if traces else None
        traces.clear()
        body = event.payload if isinstance(event, WireEvent) else event
        # A dict is what the front end makes; the ABC check is for other mappings.
        kind = body.get("type") if type(body) is dict or isinstance(body, Mapping) else None
        live, self._live = self._live, None
        if live is not None and kind == live.kind and trace is not None and body is not None:
            fast = self._fast_delta(live, trace, body, closing)
            if fast is not None:
                live.ready = False  # a full step: ``feed_live`` asks again
                self._live = live
                return fast
        out: list[Event] = []
        if len(reducer.results) > closing and held is not None:
            self._finish(held, out)
            self._response = None
        if isinstance(kind, str) and kind in FRAME_TYPES and isinstance(body, Mapping):
            out.append(dict(body))
            return out
        response = self._current()
        if response.finished:
            if trace is not None:  # its record is out: the change list it holds grows
                why = ", ".join(code.value for code in trace.codes) or trace.decision
                response.changes.append(
                    f"upstream event {trace.index} ({trace.type}) after its response's "
                    f"terminal: dropped ({why})"
                )
            return out
        if trace is not None and isinstance(body, Mapping):
            if kind in _OPENING and kind in response.openings:  # canonical sends one
                response.changes.append(
                    f"upstream event {trace.index} ({kind}) repeats its response's "
                    "opening: each opening is sent once"
                )
            self._note_lifecycle(response, kind, body)
            self._note_upstream(response, trace, body)
        self._advance(response, out)
        if trace is not None and isinstance(body, Mapping):
            if kind not in _RESPELLED:
                self._pass(response, trace, body, out)
            elif self._fast and kind in DELTA_TYPES:
                self._go_live(response, trace, kind, body)
        return out

    # -- the fast path: a delta where nothing else waits -------------------------------
    #
    # Nearly every event of a long answer is one more text delta of the item being
    # streamed.  The full pass (``_advance``) walks every entry and channel of the
    # response to find that the only thing to emit is that delta, as it came.  After a
    # delta that left the response in that condition (``_go_live``: every other item
    # announced and closed or held, nothing pending, the channel's part open and its
    # deltas all out), the next delta for the same channel is checked against what the
    # reducer made of it (``_fast_delta``: it reached that entry, raised nothing, and
    # added exactly one delta to that channel and nothing else), and only then emitted
    # directly -- one of the shape of the delta that made the channel live, whose own
    # fields are the item's as announced, as a copy of it (``_Live.as_sent``: ``_delta``
    # writes those fields in the upstream's order), not by spelling it again.  Anything else takes
    # the full pass.  The output is the same either way: ``tests/proxy/test_fast_path.py``
    # compares it, with and without (``fast=False``), on every capture and on generated
    # streams.

    def _go_live(
        self, response: _Response, trace: StepTrace, kind: str, body: Mapping[str, Any]
    ) -> None:
        """After the full pass over a delta: make its channel live if its next delta
        can be emitted without one (the condition above)."""
        state = response.state
        ordinal = trace.entry
        if (
            ordinal is None
            or response.finished
            or not response.opened
            or state.terminal
            or response.pending
            or self._reducer.state is not state
            or len(response.sent) != len(state.entries)
        ):
            return
        sent = response.sent[ordinal]
        entry = state.entries[ordinal]
        if sent.held or sent.closed or entry.state in CLOSED_STATES:
            return
        spec = WIRE_EVENTS[kind]
        part = body.get(spec.index_field) if spec.index_field else None
        channel = entry.channels.get((spec.channel, part or 0))  # type: ignore[arg-type]
        track = sent.tracks.get(id(channel)) if channel is not None else None
        if (
            channel is None
            or track is None
            or track.finished
            or track.spelling.delta != kind
            or channel.value is not None
            or channel.closed
            or track.progress != len(channel.deltas)
        ):
            return
        others = (c for c in entry.channels.values() if c is not channel)
        if any((t := sent.tracks.get(id(c))) is None or not t.finished for c in others) or any(
            not s.held and not s.closed for o, s in response.sent.items() if o != ordinal
        ):
            return
        key = (_hashable(body.get("output_index")), _hashable(body.get("item_id")), part)
        shape = (len(state.entries), len(entry.channels))
        placed = response.placed.get(ordinal) if key[:2] != (None, None) else None
        fields = tuple(body)
        self._live = _Live(
            kind, key, response, entry, sent, track, channel, shape, placed, fields,
            StepContext(state, self._reducer.kernels, self._reducer.limits, None),
            _as_sent(body, {"type": kind, **self._scoped(sent, track)}),
        )

    def _fast_delta(
        self, live: _Live, trace: StepTrace, body: Mapping[str, Any], closing: int
    ) -> list[Event] | None:
        """The event the reducer just took, if it is the live channel's next delta and
        the reducer made it that and nothing else: the one event to emit; else None
        (the full pass decides)."""
        spec = WIRE_EVENTS[live.kind]
        part = body.get(spec.index_field) if spec.index_field else None
        piece = body.get(spec.value_field) if spec.value_field else None
        channel, track, entry, response = live.channel, live.track, live.entry, live.response
        state = response.state
        if (
            (body.get("output_index"), body.get("item_id"), part) != live.key
            or not isinstance(piece, str)
            or trace.entry != entry.ordinal
            or trace.codes
            or len(self._reducer.results) != closing
            or self._reducer.state is not state
            or state.terminal
            or (len(state.entries), len(entry.channels)) != live.shape
            or entry.state in CLOSED_STATES
            or channel.value is not None
            or channel.closed
            or len(channel.deltas) != track.progress + 1
            or channel.deltas[-1] is not piece
        ):
            return None
        return self._emit_live(live, body, piece)

    def _emit_live(self, live: _Live, body: Mapping[str, Any], piece: str) -> list[Event]:
        """The live channel's next delta ``piece``, which the reducer took, as canonical
        sends it (``_fast_delta``, ``feed_live``)."""
        track, response = live.track, live.response
        out: list[Event] = []
        # Counted as the full pass counts it (``_note_upstream``): the log is the same.
        if live.placed is not None:
            live.placed[live.key[1], live.key[0]] += 1
        fields = tuple(body)
        if live.as_sent and fields == live.fields:
            # ``_delta``'s event: the upstream's fields in its order (``_Live.as_sent``).
            self._send_delta(response, track, piece, dict(body), out)
        else:
            self._delta(response, live.sent, track, piece, out, (_own(body), fields))
        track.progress += 1
        return out

    @staticmethod
    def _sent_as_came(live: _Live, pieces: list[str]) -> None:
        """What ``_emit_live`` does for each of ``pieces``, the live channel's next
        deltas, each the upstream's event as it came and numbered as canonical numbers
        it (``_Live.as_sent``), all at once: ``_send_delta``'s ``_emit`` would number
        each as it is numbered already."""
        track, response, size = live.track, live.response, len(pieces)
        if live.placed is not None:
            live.placed[live.key[1], live.key[0]] += size
        track.streamed += pieces
        response.sequence += size
        track.progress += size

    def _emit_run(
        self, live: _Live, bodies: list[dict[str, Any]], pieces: list[str]
    ) -> tuple[list[Event], bool]:
        """The live channel's next deltas ``pieces``, the upstream's ``bodies``, which
        the reducer's state took, as canonical sends them (``feed_live``): the events,
        and whether they are ``bodies`` themselves.  They are where each is canonical's
        event as it came (``_Live.as_sent``: the same fields in the same order, numbered
        as canonical numbers it); else each goes as ``_emit_live`` sends it."""
        first, size = live.response.sequence, len(bodies)
        if (
            live.as_sent
            and [*map(tuple, bodies)].count(live.fields) == size
            # Every body has a ``sequence_number`` (``fields``); an ``int`` (``feed_live``
            # took it: ``parse_event`` found no problem), so equal is the same.
            and [*map(_SEQUENCE_OF, bodies)] == [*range(first, first + size)]
        ):
            self._sent_as_came(live, pieces)
            return bodies, True
        out: list[Event] = []
        for body, piece in zip(bodies, pieces, strict=True):
            out += self._emit_live(live, body, piece)
        return out, False

    # The relay's step (``feed_live``): a run of the live channel's next deltas, read
    # by the proxy straight from their frames, goes into the reducer's state without
    # the reducer's step, each as long as that step would do nothing but append it.
    # Whether it would is read, delta by delta, from where the step reads it: the
    # event parsed as the step parses it (``parse_event``: no problem), the response's
    # route cache (``on_scoped``'s cell: the live entry, no code, an id it already
    # knows), the ``reclassify`` and ``lifecycle`` kernels (an open channel's delta:
    # the entry stays where it is and the row's effects are ``APPEND_DELTA`` and
    # ``LEARN_ITEM_ID``, which then changes nothing), the sequence number the next one
    # and the channel within its limit.  Then the state changes exactly as the steps
    # change it (the events counted, the last sequence number taken, each delta
    # appended by ``reconcile.append_delta``) and the deltas go out as ``_fast_delta``
    # sends each (``_emit_run``: the upstream's objects themselves where they are
    # canonical's).  The first delta that fails ends the run, having changed nothing,
    # and the relay feeds it the usual way.  ``tests/proxy/test_fast_path.py`` holds
    # the two to the same bytes, log and state after every chunk on every capture,
    # every scenario, generated streams and runs broken by every kind of block.

    def feed_live(
        self, bodies: Sequence[dict[str, Any]], index: int, sse_event: str
    ) -> tuple[int, list[Event], bool]:
        """``feed`` of the front end's good records ``(index + n, bodies[n], sse_event)``,
        in turn, as long as each is the live channel's next delta and the reducer's step
        would only append it (above): how many it took, the events to emit, and whether
        those are the bodies taken themselves (``_Live.as_sent``: canonical's events are
        the upstream's as they came).  A body not taken, and every one after it, changes
        nothing: ``(0, [], False)`` if the first is not."""
        live = self._live
        if live is None or self._ended or sse_event != live.kind:
            return 0, [], False
        pieces = self._take(live, self._deltas(live, bodies, index), index)
        if not pieces:
            return 0, [], False
        return len(pieces), *self._emit_run(live, list(bodies[: len(pieces)]), pieces)

    def feed_run(self, sequences: Sequence[int], pieces: Sequence[str], index: int) -> int:
        """``feed_live`` of a run read from its bytes alone (``proxy.relay``'s rule 7):
        the front end's records from ``index`` on, each a delta of the shape of one
        ``feed_live`` gave back as it came since the last full step (``_Live.as_sent``,
        ``_Live.ready``: the same fields in the same order, the same ``type``, ids and
        indexes), with the text ``pieces[n]`` and the ``sequence_number``
        ``sequences[n]`` -- what the step reads of it beside the fields that shape
        holds.  How many it took: as long as each is what ``feed_live`` takes and is
        numbered as canonical numbers it, so that each goes out as it came."""
        live = self._live
        if (
            live is None
            or self._ended
            or not live.as_sent
            or not (live.ready or (live.probe is not None and self._appends_only(live, live.probe)))
            or not sequences
            # Canonical numbers each next one as the upstream's next: the same from here.
            or sequences[0] != live.response.sequence
        ):
            return 0
        taken = self._take(live, zip(sequences, pieces, strict=True), index)
        if taken:
            self._sent_as_came(live, taken)
        return len(taken)

    @property
    def live_token(self) -> object | None:
        """The live channel as it stands (``feed_run``): the same object while it stays
        live, another once the full pass makes a channel live again; None if none is."""
        return self._live

    def _deltas(
        self, live: _Live, bodies: Iterable[dict[str, Any]], index: int
    ) -> Iterator[tuple[int | None, str | None]]:
        """The sequence number and text of each of ``bodies``, parsed as the step
        parses it, up to the first that is not a delta of the live channel's type and
        keys with no problem (``parse_event``) that the step would only append
        (``_appends_only``)."""
        kind, key = live.kind, live.key
        for event in map(parse_event, count(index), bodies):
            body = event.payload
            if (
                event.type != kind
                or event.problems
                or (body.get("output_index"), body.get("item_id"), event.part_index) != key
                or not (live.ready or self._appends_only(live, event))
            ):
                return
            yield event.sequence_number, event.value

    def _take(
        self, live: _Live, deltas: Iterable[tuple[int | None, str | None]], index: int
    ) -> list[str]:
        """The texts of ``deltas``, the front end's records from ``index`` on, taken in
        turn into the reducer's state as long as each is numbered next (or not at all),
        has a text and fits the channel's limit (above); the state changed as the steps
        change it."""
        context = live.context
        assert context is not None  # every live channel has one
        state, channel = context.state, live.channel
        last = state.last_sequence
        room = context.limits.max_channel_chars - channel.delta_chars
        pieces: list[str] = []
        take = pieces.append
        for sequence, piece in deltas:
            if (
                (sequence is not None and (last is None or sequence != last + 1))
                or not piece
                or (room := room - len(piece)) < 0
            ):
                break
            if sequence is not None:
                last = sequence
            take(piece)
        taken = len(pieces)
        if taken:
            # The step's changes, event by event: ``Reducer.feed`` (the next index),
            # ``dispatch._reduce`` (the count, the sequence number), ``effects.deliver``
            # (the delta).
            self._reducer._next_index = index + taken
            state.events += taken
            state.last_sequence = last
            for piece in pieces:
                append_delta(context, channel, piece)
        return pieces

    def _appends_only(self, live: _Live, event: CoreEvent) -> bool:
        """Whether the reducer's step would only append ``event``, a delta with the live
        channel's keys and a fitting sequence number, to the live channel: what of
        ``feed_live``'s condition the state holds, which its fast steps do not change
        (``_Live.ready`` keeps it until the next full step)."""
        reducer, entry, channel = self._reducer, live.entry, live.channel
        state = live.response.state
        if (
            reducer.state is not state
            or state.terminal
            or not state.started
            or event.channel not in entry.channel_kinds
            or entry.channels.get((event.channel, event.part_index)) is not channel
            or not channel.attached
            or channel.closed
            or len(channel.deltas) != live.track.progress
            or event.type in ADDITION_TYPES
        ):
            return False
        cell = state.routes.get((event.output_index, event.item_id))
        if cell is None:
            return False
        route, target, learned, _ = cell
        if target != entry.ordinal or route.code is not None:
            return False
        if event.item_id is not None and (not learned or entry.item_id is None):
            return False
        kernels = reducer.kernels
        assert event.spec is not None and event.spec.trigger is not None  # a delta's
        trigger = kernels.reclassify(event.spec.trigger, _OPEN_CHANNEL)
        transition = kernels.lifecycle(entry.state, trigger)
        live.ready = transition.next_state is entry.state and _APPENDS.issuperset(
            transition.effects
        )
        if live.ready:
            live.probe = event
        return live.ready

    @property
    def live_kind(self) -> str | None:
        """The delta event type of the live channel (``feed_live``), if one is live."""
        live = self._live
        return None if live is None else live.kind

    @property
    def limit(self) -> str | None:
        """What the first limit passed said (a ``limit_exceeded`` diagnostic of the
        response being read, the front end's or the reducer's); None while within."""
        state = self._reducer.state
        seen, count = self._scanned
        diagnostics = state.diagnostics
        if seen is state and len(diagnostics) == count:  # nearly every event: none new
            return None
        for diagnostic in diagnostics[count if seen is state else 0 :]:
            if diagnostic.code is Code.LIMIT_EXCEEDED:
                return diagnostic.detail
        self._scanned = (state, len(diagnostics))
        return None

    @property
    def idle(self) -> bool:
        """Nothing is held: every response read so far is out to its end (what a relay
        asks before it sends ``data: [DONE]``)."""
        response = self._response
        state = self._reducer.state
        return response is None or (response.finished and response.state is state)

    def passed(self, event: WireEvent) -> list[Event]:
        """An upstream event the reader passed on as it came, unread: over its event
        limit and of a type canonical passes as sent (``passes_as_sent``); ``event`` is
        the front end's ``LIMIT_EXCEEDED`` record of it.  The reducer takes the record
        (its diagnostic, which ends nothing: ``limit`` does not report it), and the
        response's record names it as a change."""
        out = self.feed(event)
        state = self._reducer.state
        self._scanned = (state, len(state.diagnostics))
        kind = event.sse_event or "its type read from its first bytes"
        self._current().changes.append(
            f"upstream event {event.index} ({kind}): {event.detail}; its sequence_number "
            "the upstream's"
        )
        return out

    def end(self, code: str, reason: str) -> list[Event]:
        """Stop here, as a provider ends a response that failed: an ``error`` event
        (``code``, ``reason``) and, for a response already opened, ``response.failed``
        carrying the same error and the items already out.  The response's record names
        the reason; what the upstream sends after is not read (``feed`` and ``close``
        return nothing).  For a reader that stops reading (a proxy's limit)."""
        out: list[Event] = []
        response = self._response
        if response is None or response.finished:
            response = self._current()
        response.finished = True
        self._ended = True
        error = {"code": code, "message": reason}
        self._emit(response, out, {"type": "error", **error, "param": None})
        if response.opened:
            done = [
                self._done_item(entry)
                for entry in output_order(response.state.entries)
                if (sent := response.sent.get(entry.ordinal)) is not None and sent.closed
            ]
            self.output = done
            body = self._response_object(response, "failed", done)
            failed = {"type": "response.failed", "response": {**body, "error": error}}
            self._emit(response, out, failed)
        response.changes.append(f"ended by the reader: {reason}")
        self._record(response)
        return out

    def close(self) -> list[Event]:
        """The upstream ended: the events that end what is open (no made-up terminal for
        a cut stream)."""
        if self._ended:
            return []
        reducer = self._reducer
        closing = len(reducer.results)
        reducer.finish()
        out: list[Event] = []
        if len(reducer.results) > closing and self._response is not None:
            self._finish(self._response, out)
        self._response = None
        return out

    # -- per response ---------------------------------------------------------------

    def _current(self) -> _Response:
        state = self._reducer.state
        response = self._response
        if response is None or response.state is not state:
            response = self._response = _Response(state, self._count)
            self._count += 1
        return response

    def _note_lifecycle(self, response: _Response, kind: Any, event: Mapping[str, Any]) -> None:
        """Keep the latest response object and ``error`` the reducer took in."""
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        if spec is None:
            return
        if spec.event_class is EventClass.ERROR:
            response.error = event
        elif kind in OPENING_TYPES or spec.event_class in TERMINALS:
            response.openings[kind] = event
            body = event.get("response")
            if isinstance(body, Mapping):
                response.template = body

    def _note_upstream(
        self, response: _Response, trace: StepTrace, event: Mapping[str, Any]
    ) -> None:
        """Put an upstream item event in the ledger of the entry the reducer routed it
        to; an item-scoped event that reached no entry is a drop."""
        ordinal = trace.entry
        if ordinal is None:
            if "item_id" in event or "output_index" in event or "item" in event:
                why = ", ".join(code.value for code in trace.codes) or trace.decision
                response.changes.append(
                    f"upstream event {trace.index} ({trace.type}) reaches no item: dropped ({why})"
                )
            return
        sent = response.sent.get(ordinal)
        if Code.LATE_EVENT in trace.codes and trace.type in _RESPELLED and sent and sent.closed:
            # The reducer took nothing of it, and canonical closed the item: nothing
            # will spell it (a payload's ``done`` moved after its item's ``done``).
            response.changes.append(
                f"upstream event {trace.index} ({trace.type}) after its item's done: "
                "dropped (late_event)"
            )
        addition = _ADDITION_OF.get(trace.type)
        added = addition_of(addition, event) if addition is not None else None
        if addition is not None and added is None:
            response.changes.append(
                f"upstream event {trace.index} ({trace.type}) carries no "
                f"{addition.value.value} or no part index: nothing added, dropped"
            )
        elif addition is not None and added is not None:
            adds_to = (addition.channel, added[0])
            response.additions.setdefault(ordinal, []).append((trace.index, trace.type, adds_to))
        if addition is not None and trace.type != _ADDITION_EVENTS[addition]:
            response.respelled.append(
                f"upstream event {trace.index} ({trace.type}): sent as "
                f"{_ADDITION_EVENTS[addition]}, the API's spelling"
            )
        found = _ledger(event, self._reducer.state.entries[ordinal].spec.channels)
        if "item_id" in event or "output_index" in event:
            placed = response.placed.setdefault(ordinal, Counter())
            placed[(_hashable(event.get("item_id")), _hashable(event.get("output_index")))] += 1
        item = event.get("item")
        if trace.type == _ITEM_EVENTS[0] and isinstance(item, Mapping):
            status = {"status": item["status"]} if "status" in item else {}
            response.announced.setdefault(ordinal, status)
        if found is not None:
            response.own[(ordinal, found[0])] = _own(event)
            ledger = response.upstream.setdefault(ordinal, {})
            if found[0] in ledger:  # canonical sends each item event once
                response.changes.append(
                    f"upstream event {trace.index} ({trace.type}) repeats one already "
                    "taken for its item: not sent again"
                )
            ledger[found[0]] = found[1]
        spec = WIRE_EVENTS.get(trace.type)
        if spec is not None and spec.trigger is Trigger.DELTA:
            part = (
                spec.index_field,
                _hashable(event.get(spec.index_field)) if spec.index_field else None,
            )
            response.streamed.setdefault(ordinal, set()).add(part)
            piece = event.get(spec.value_field) if spec.value_field else None
            entry = self._reducer.state.entries[ordinal]
            if spec.channel is not None and not isinstance(piece, str):
                response.changes.append(
                    f"upstream event {trace.index} ({trace.type}) carries no "
                    f"{spec.value_field} text: nothing added, dropped"
                )
            if spec.channel is None or not isinstance(piece, str):
                return
            spelling = _SPELLINGS.get((entry.item_type, spec.channel))
            if spelling is not None and spelling.delta != trace.type:
                # Another item type's delta of the same channel (an ``mcp_call``'s
                # arguments sent as a function call's): canonical spells it as its item's.
                response.changes.append(
                    f"upstream event {trace.index} ({trace.type}) sent as {spelling.delta}, "
                    f"the delta of its item's type ({entry.item_type})"
                )
            channel = entry.channels.get((spec.channel, part[1] or 0))
            if channel is not None:
                fields = response.delta_fields.setdefault(id(channel), deque())
                fields.append((piece, _own(event), tuple(event)))
            if entry.spec.client_call:
                key = (ordinal, spec.channel, part[1] or 0)
                response.pieces.setdefault(key, []).append(piece)
                return
            if channel is not None and (sent is None or id(channel) not in sent.tracks):
                response.waiting.setdefault(id(channel), []).append(piece)

    def _pass(
        self, response: _Response, trace: StepTrace, event: Mapping[str, Any], out: list[Event]
    ) -> None:
        """An upstream event canonical does not spell again (``_RESPELLED``) goes on as it
        came, in place: at once, or once its item is announced (released, for a held
        call) or its response opened.  Only its ``sequence_number`` is canonical's, and
        its ``output_index`` and ``item_id`` its item's as announced.  An item-scoped
        event that reached no item is a logged drop (``_note_upstream``)."""
        ordinal = trace.entry
        if ordinal is None and ("item_id" in event or "output_index" in event):
            return
        body = {k: v for k, v in event.items() if k != "sequence_number"}
        response.pending.setdefault(ordinal, []).append(body)
        if ordinal is None:
            if response.opened:
                self._flush(response, None, out)
            return
        sent = response.sent.get(ordinal)
        if sent is not None and not sent.held:
            self._flush(response, ordinal, out)

    def _flush(self, response: _Response, ordinal: int | None, out: list[Event]) -> None:
        """The passed-on events waiting for ``ordinal`` (``_pass``), re-scoped."""
        waiting = response.pending.pop(ordinal, None)
        if not waiting:
            return
        sent = response.sent.get(ordinal) if ordinal is not None else None
        for body in waiting:
            if sent is not None:
                if "output_index" in body:
                    body["output_index"] = sent.index
                if "item_id" in body:
                    body["item_id"] = sent.item_id
            self._emit(response, out, body)

    def _advance(self, response: _Response, out: list[Event]) -> None:
        state = response.state
        # The opening waits for the response's id while there is nothing to announce
        # (a ``response.created`` without one, its ``in_progress`` with it).
        if not response.opened and state.started and state.response_id is not None:
            self._open(response, out)
        elif response.opened and not response.finished:
            self._say_openings(response, out)
        if state.started:
            self._release_answered(response, out)
            self._announce(response, out, final=False)
            # In entry order; streaming an entry or closing it announces or releases
            # no other.
            for ordinal in sorted(response.streaming):
                entry, sent = state.entries[ordinal], response.sent[ordinal]
                self._stream(response, entry, sent, out)
                if entry.state in CLOSED_STATES:
                    self._close_entry(response, entry, sent, out)
        if state.terminal and not state.amendable:
            self._settle(response, out)

    def _release_answered(self, response: _Response, out: list[Event]) -> None:
        """Release each held call the upstream finished that an output item of the
        response answers (``model.execution.answered_ordinals``): the server ran it, which the
        terminal cannot change -- its verdict is ``answered``, or ``not_completed`` if
        the response does not complete, and its ``done`` goes out either way.  So its
        events leave now, before its output's, and the ``done`` events leave in output
        order (a hosted ``shell_call``'s before its ``shell_call_output``'s)."""
        entries = response.state.entries
        held = [entries[o] for o in response.holding if entries[o].state in CLOSED_STATES]
        if not held:
            return
        for entry in entries[response.counted :]:  # an entry's type never changes
            response.outputs += entry.item_type in OUTPUT_OF
        response.counted = len(entries)
        if not response.outputs:  # an output answers a call: none, none answered
            return
        answered = answered_ordinals(entries)
        for entry in output_order(held):
            if entry.ordinal in answered:
                sent = response.sent[entry.ordinal]
                self._stream(response, entry, sent, out, final=True)
                self._close_entry(response, entry, sent, out)
                sent.held = False  # what the upstream sends for it later passes at once
                response.note(sent)

    def _finish(self, response: _Response, out: list[Event]) -> None:
        """The reducer closed the response: settle it, or end it cut."""
        if response.finished:
            return
        state = response.state
        if state.terminal and state.status is not ResponseStatus.INTERRUPTED:
            self._settle(response, out)
            return
        if response.opened or state.entries:
            if not response.opened:
                self._open(response, out)
            for entry in self._in_turn(response, out):
                sent = response.sent[entry.ordinal]
                if sent.closed:
                    continue
                ends = not sent.held and entry.state in CLOSED_STATES
                self._stream(response, entry, sent, out, final=True, ends=ends)
                if ends:
                    self._close_entry(response, entry, sent, out)
            response.changes.append("cut before its terminal: ended cut, no terminal made up")
        elif response.openings.keys() & set(_OPENING):
            response.changes.append(
                f"{' and '.join(sorted(response.openings.keys() & set(_OPENING)))} not sent: "
                "the response ended with no id and no item, nothing to open"
            )
        self._record(response)

    def _settle(self, response: _Response, out: list[Event]) -> None:
        """The terminal settled the answer: emit every item reconciled, then the terminal."""
        state = response.state
        response.finished = True
        error_only = response.error is not None and response.template is None
        if not response.opened and not (error_only and not state.entries):
            self._open(response, out)
        completed = state.status is ResponseStatus.COMPLETED
        snapshot: list[dict[str, Any]] = []
        listing: list[Entry] = []
        if response.opened:
            for entry in self._in_turn(response, out):
                sent = response.sent[entry.ordinal]
                if completed and entry.spec.client_call and entry.execution in _WITHHELD:
                    self._stream(response, entry, sent, out, final=True, ends=False)
                    response.withheld.add(entry.ordinal)
                    response.changes.append(
                        f"{entry.item_type} {sent.item_id}: not executable "
                        f"({entry.execution.value}); its done withheld"
                    )
                    continue
                if not sent.closed:
                    ends = entry.state in CLOSED_STATES  # no done for what is not done
                    self._stream(response, entry, sent, out, final=True, ends=ends)
                    if ends:
                        self._close_entry(response, entry, sent, out)
            # An item the upstream did not finish is in the terminal only if the
            # upstream's terminal held it: canonical ends nothing the upstream did not.
            listing = [
                entry
                for entry in output_order(state.entries)
                if not (completed and entry.spec.client_call and entry.execution in _WITHHELD)
                and (entry.state in CLOSED_STATES or entry.in_snapshot)
            ]
            snapshot = [self._done_item(entry) for entry in listing]
        if response.error is not None:
            error = {k: v for k, v in response.error.items() if k != "sequence_number"}
            self._emit(response, out, error)
        if response.opened:
            terminal = _TERMINAL_EVENTS[state.status]
            event = response.openings.get(terminal)
            if event is not None and isinstance(event.get("response"), Mapping):
                self._emit(response, out, self._upstream_event(response, event, snapshot))
            else:  # made up: an error event's failure, a terminal with no response
                body = self._response_object(response, state.status.value, snapshot)
                made = {"type": terminal, "response": body}
                self._emit(response, out, made)
                unsent = _unsent_response_fields(made)
                if unsent:  # #39: named, not filled (``_response_object``)
                    why = f" ({Code.RESPONSE_ERROR.value})" if response.error is not None else ""
                    response.changes.append(
                        f"{terminal} made up{why}, without the response fields the upstream "
                        f"never sent: {', '.join(unsent)}"
                    )
                replaced = sorted(
                    kind
                    for kind in response.openings
                    if kind != terminal and kind in _TERMINAL_EVENTS.values()
                )
                if replaced:  # the upstream's own terminal, of another status
                    response.changes.append(
                        f"{terminal} sent for the reported failure: the upstream's "
                        f"{' and '.join(replaced)} not sent"
                    )
        self.output = snapshot
        listed = (response.template or {}).get("output")
        # Counted, not matched by id: an item whose id canonical restored is the same.
        if response.opened and isinstance(listed, list) and len(snapshot) > len(listed):
            response.changes.append(
                f"terminal output: {len(snapshot) - len(listed)} items more than the "
                f"upstream's terminal listed ({len(listed)})"
            )
        if response.opened and isinstance(listed, list):
            # Item by item, in order: what the reconciled snapshot says otherwise.
            named = Counter(
                _hashable(item.get("id")) for item in listed if isinstance(item, Mapping)
            )
            ids = {
                _hashable(item.get("id")): item
                for item in listed
                if isinstance(item, Mapping) and named[_hashable(item.get("id"))] == 1
            }
            for entry, mine, at in zip(listing, snapshot, listed, strict=False):
                theirs = ids.get(mine.get("id"), at)  # by id, else by position
                if theirs == mine:  # the common case, without hashing the payloads
                    continue
                key = ("terminal output", None)
                locations = entry.spec.channels
                response.changes += _differences(
                    f"{entry.item_type} {mine.get('id')}",
                    {key: _item_print(theirs, locations, payloads=True)},
                    {key: _item_print(mine, locations, payloads=True)},
                )
        self._record(response)

    def _in_turn(self, response: _Response, out: list[Event]) -> Iterator[Entry]:
        """The end's order: every entry in result order, each announced (``_added``)
        once the held calls before it are out -- a held call is released when its turn
        comes (no longer ``held`` once its events are out) -- so each item's events
        come in one run, the order canonical's own stream brings them in again."""
        for entry in output_order(response.state.entries):
            sent = response.sent.get(entry.ordinal)
            if sent is None:  # the first waiting: every one before it is out
                self._added(response, entry, out)
                sent = response.sent[entry.ordinal]
            yield entry
            sent.held = False
            response.note(sent)

    def _record(self, response: _Response) -> None:
        response.finished = True
        state = response.state
        for entry in output_order(state.entries):
            sent = response.sent.get(entry.ordinal)
            if sent is not None and entry.ordinal not in response.withheld:
                upstream = response.upstream.get(entry.ordinal, {})
                label = f"{entry.item_type} {sent.item_id}"
                streamed = response.streamed.get(entry.ordinal, set())
                for key in sent.ledger:
                    if key not in upstream and _restated(key, entry, streamed):
                        response.respelled.append(
                            f"{label}: {key[0]} sent, which the upstream left out and "
                            "its other events say again"
                        )
                    elif key not in upstream:
                        response.changes.append(
                            f"{label}: {key[0]} sent, which the upstream never sent"
                        )
                response.changes += _differences(label, upstream, sent.ledger)
                response.changes += _replaced(label, entry, sent, response.placed)
                additions = response.additions.get(entry.ordinal, [])
                # An addition to a part never announced (it held no value) is named by
                # its place: no event out could carry it.
                parts = {(c.kind, c.index) for c in entry.channels.values() if id(c) in sent.tracks}
                unplaced = [(at, kind) for at, kind, part in additions if part not in parts]
                response.changes += [
                    f"upstream event {at} ({kind}) adds to a part never announced (it holds "
                    "no value): dropped"
                    for at, kind in unplaced
                ]
                kinds = sorted({kind for _, kind, _ in additions})
                missed = len(additions) - len(unplaced) - sent.additions
                if missed > 0:
                    response.changes.append(
                        f"{label}: {missed} of the upstream's {' and '.join(kinds)} not sent "
                        "as events (held in their part's added, or one replacing another)"
                    )
        for entry in state.entries:
            if entry.id_source is IdSource.MINTED:
                response.changes.append(f"{entry.item_type} {entry.item_id}: id minted (R11)")
        codes = sorted({diagnostic.code.value for diagnostic in state.diagnostics})
        self._repairs.append(
            {
                "response_id": response.response_id or state.response_id,
                "codes": codes,
                "changes": response.changes,
                "respelled": response.respelled,
            }
        )

    # -- events -------------------------------------------------------------------

    def _emit(
        self, response: _Response, out: list[Event], event: Event, sent: _Sent | None = None
    ) -> None:
        """Number the event and send it; one of an item (``sent``) goes in its ledger."""
        key = _ledger_key(event) if sent is not None else None
        if sent is not None and key is not None:
            own = response.own.get((sent.ordinal, key))
            if own is not None:  # the upstream sent it (so far): its fields, as it sent them
                for name in _EXTRA:
                    event.pop(name, None)
                part = event.get("part")
                event.update({name: v for name, v in own.items() if name != "part"})
                if isinstance(part, dict) and "part" in own:
                    event["part"] = {**part, **own["part"]}
            sent.ledger[key] = _ledger_print(event, sent.locations)
        event["sequence_number"] = response.sequence
        response.sequence += 1
        out.append(event)

    def _open(self, response: _Response, out: list[Event]) -> None:
        """Begin the response's emission: its opening events, as far as the upstream
        sent them.  No repair needs an opening, so none is made up: a stream that sent
        no ``response.created`` (a resumed stream, a gateway that omits it) gets none,
        one that sent ``response.created`` alone (OpenAI's custom tool call, c03) no
        ``response.in_progress``, one the upstream never opened neither -- nor a
        response id it never gave."""
        response.opened = True
        response_id = response.state.response_id
        if response_id is None and response.openings.keys() & set(_OPENING):
            # The API's Response.id is required in an opening.  Imported here: most
            # streams name their response.
            import uuid

            from .core.ids import MINT_NAMESPACE

            response_id = f"resp_{uuid.uuid5(MINT_NAMESPACE, f'response:{response.number}')}"
            response.changes.append(f"response id minted: {response_id}")
        response.response_id = response_id
        self._say_openings(response, out)
        self._flush(response, None, out)

    def _say_openings(self, response: _Response, out: list[Event]) -> None:
        """The opening events the upstream has sent and canonical has not (an opened
        response's: a ``response.in_progress`` the upstream sends after its
        ``response.created`` leaves when it comes)."""
        for kind in _OPENING:
            event = response.openings.get(kind)
            if event is not None and kind not in response.said:
                response.said.add(kind)
                self._emit(response, out, self._upstream_event(response, event, []))

    @staticmethod
    def _upstream_event(
        response: _Response, event: Mapping[str, Any], output: list[dict[str, Any]]
    ) -> Event:
        """An upstream opening or terminal, re-emitted with every field it had, as it
        had it: only its ``output`` is canonical's (``output``: the reconciled
        snapshot; an opening's is empty), where it had one.  An opening whose response
        object names no response gets the response's id (minted if the upstream gave
        none: the API's ``Response.id`` is required); a terminal keeps its own, or none
        (a provider may rotate ids); an event with no response object gets none."""
        fields = {name: value for name, value in event.items() if name != "sequence_number"}
        found = event.get("response")
        if not isinstance(found, Mapping):  # none, or not an object: as it came
            return fields
        body = dict(found)
        if "output" in body:
            body["output"] = output
        if event.get("type") in _OPENING and response.response_id is not None:
            body.setdefault("id", response.response_id)
        return {**fields, "response": body}

    def _response_object(
        self, response: _Response, status: str, output: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The response object of a terminal canonical makes up (``end``'s failure, the
        ``response.failed`` after an ``error`` event): the upstream's latest, with
        canonical's status and output.  No field the upstream did not send is filled
        (``created_at``, ``model``, ``usage``...): a client reads what the provider
        said, a missing ``usage`` included."""
        template = response.template or {}
        found = template.get("id")
        response_id = found if isinstance(found, str) else response.response_id
        body = {**template, "id": response_id, "status": status}
        if response_id is None:  # a response the upstream never named stays unnamed
            del body["id"]
        if "output" in template or response.template is None:
            body["output"] = output  # a terminal without output stays without (``output``)
        return body

    def _announce(self, response: _Response, out: list[Event], *, final: bool) -> None:
        """``output_item.added`` for each entry whose place is known, in result order
        (``_added``).  An entry after a held call waits for it.

        ``output_index`` is the stream's slot, renumbered only where the stream's own
        numbering cannot be kept: a second item in a slot takes the next index (and the
        items after it move up by one), an item with no slot goes last.  A gap in the
        stream's slots stays a gap, so that an item arriving later in it still sorts
        between its neighbours (R10) -- the text after a gap is never held back for it;
        an item that lands in a slot already announced shares that slot's index (the
        stream's own collision, kept)."""
        entries = response.state.entries
        queue = self._queue(response)
        # An item without a slot may yet be given one before those admitted after it.
        unplaced = min(response.slotless, default=None)
        # A held call's deltas are not out yet: an item after it waits for them, so that
        # each item's events come in one run, as a provider streams them (langchain
        # reads a call's arguments from the deltas that follow its ``added``).
        held = min((output_key(entries[o]) for o in response.held), default=None)
        announced = 0
        for key, ordinal in queue:
            entry = entries[ordinal]
            later = unplaced is not None and ordinal > unplaced
            if held is not None and key > held:
                break
            if entry.spec.client_call:  # held once announced (``_Sent.held``)
                held = key if held is None else min(held, key)
            if not final and (later or not self._settled(entry)):
                break  # everything after it waits too, or the order would change
            self._added(response, entry, out)
            response.slotless.discard(ordinal)
            announced += 1
        del queue[:announced]

    @staticmethod
    def _queue(response: _Response) -> list[tuple[tuple[bool, int, int], int]]:
        """``_Response.queue`` brought up to date: the entries admitted since put in
        their places, an entry given a slot since moved to its new one, an entry
        announced another way dropped; the front is the next in result order."""
        entries, queue, slotless = response.state.entries, response.queue, response.slotless
        for entry in entries[response.queued :]:
            if entry.ordinal not in response.sent:
                insort(queue, (output_key(entry), entry.ordinal))
                if entry.slot is None:
                    slotless.add(entry.ordinal)
        response.queued = len(entries)
        for ordinal in [o for o in slotless if entries[o].slot is not None or o in response.sent]:
            slotless.discard(ordinal)
            queue.remove(((True, 0, ordinal), ordinal))  # its key when queued: no slot
            if ordinal not in response.sent:
                insort(queue, (output_key(entries[ordinal]), ordinal))
        while queue and queue[0][1] in response.sent:
            del queue[0]
        return queue

    def _added(self, response: _Response, entry: Entry, out: list[Event]) -> None:
        """Announce ``entry``, the next in result order: its place and its
        ``output_item.added``."""
        if not response.opened:
            self._open(response, out)
        index = self._place(response, entry)
        sent = _Sent(
            index,
            entry.item_id or "",
            entry.spec.client_call,
            entry.ordinal,
            locations=entry.spec.channels,
        )
        response.sent[entry.ordinal] = sent
        response.note(sent)
        if entry.slot != index:
            response.changes.append(
                f"{entry.item_type} {sent.item_id}: output_index {entry.slot} -> {index}"
            )
        added = self._added_item(entry)
        if entry.ordinal not in response.announced and self._reads_as_replay(
            response, entry, added
        ):
            # Each item the reducer found goes out with its id: none is invented to tell
            # two apart (#39).  An added canonical makes up with an earlier item's
            # identity reads as that item again (R6), to a client as to the oracle.
            response.changes.append(
                f"{entry.item_type} {sent.item_id}: response.output_item.added made up with "
                f"the identity of an earlier {entry.item_type}: a client that matches items "
                "by id reads it as that item again (duplicate_item)"
            )
        announced = response.announced.get(entry.ordinal)
        if announced is not None:  # the status the upstream announced, or none
            if "status" in announced:
                added["status"] = announced["status"]
            else:
                added.pop("status", None)
        self._emit(
            response,
            out,
            {"type": "response.output_item.added", "output_index": index, "item": added},
            sent,
        )

    def _reads_as_replay(
        self, response: _Response, entry: Entry, added: Mapping[str, Any]
    ) -> bool:
        """Whether ``added``, the ``output_item.added`` item canonical makes up for
        ``entry``, replays an item it sent before it in the response.

        R6's view of an added is the judge (``admit.view_of_added``: the model's
        ``added_view`` with the reducer's facts), not a copy of it: a reader of
        canonical's stream, the oracle among them, reads this added against the items it
        has already read.  So the facts are those items: the holder of the added's
        ``call_id`` in its kind's namespace, and the items its id names under the id
        canonical sent them with (``_Sent.item_id``; another id the upstream gave an
        item was re-scoped away and names it to no reader)."""
        state, sent = response.state, response.sent

        def earlier(ordinal: int, item_id: str | None = None) -> bool:
            # Sent before this added (with ``item_id``: under that id).
            before = sent.get(ordinal) if ordinal != entry.ordinal else None
            return before is not None and (item_id is None or before.item_id == item_id)

        step = StepContext(state, self._reducer.kernels, self._reducer.limits, None)
        view, _ = view_of_added(
            added,
            state.entries,
            lambda kind, call_id: [o for o in step.holder(kind, call_id) if earlier(o)],
            lambda item_id: [o for o in step.named_by(item_id) if earlier(o, item_id)],
        )
        return view is AddedView.REPLAY

    @staticmethod
    def _place(response: _Response, entry: Entry) -> int:
        """The ``output_index`` of the entry announced next (``_announce``).  Every index
        given is at least its item's slot, so the indexes below a slot stay free for
        the items the stream has yet to send there."""
        slot, slots = entry.slot, response.slots
        key = output_key(entry)
        last = response.frontier
        if last is not None and key < last[0] and slot is not None:  # behind the last
            if slot in slots:
                return slots[slot]
            below = max((s for s in slots if s < slot), default=None)
            index = slot if below is None else slots[below] + slot - below
        elif last is None:
            index = 0 if slot is None else slot
        elif slot is None or slot == last[0][1]:
            index = last[1] + 1
        else:
            index = last[1] + slot - last[0][1]
        if last is None or key > last[0]:
            response.frontier = (key, index)
        if slot is not None:
            slots[slot] = index
        return index

    @staticmethod
    def _settled(entry: Entry) -> bool:
        """Whether the entry's place and id are settled: it has a slot, and its id came
        with the item (an id adopted from an event may yet give way to the item's, R6)."""
        return entry.slot is not None and entry.id_source is IdSource.WIRE

    def _stream(
        self,
        response: _Response,
        entry: Entry,
        sent: _Sent,
        out: list[Event],
        *,
        final: bool = False,
        ends: bool = True,
    ) -> None:
        """The payload the entry holds that is not out yet: the deltas the reducer took
        since the last event, as they came, and what progress events added to a part
        (not for a held call); with ``final``, a held call's deltas (``_replay``), which
        its ``done`` events follow if ``ends``.  No delta is made up where a ``done``
        carries the value."""
        if not sent.held or final:
            self._flush(response, entry.ordinal, out)
        values = self._final_values(entry) if final else {}
        # A part of an item closing now opens in ``_close_entry``, its added then its done:
        # the order canonical's own stream, read again, brings them in.
        later = ends and not sent.held and entry.state in CLOSED_STATES
        for channel in _in_order(entry):
            track = self._track(response, entry, sent, channel, out, final=final, later=later)
            if track is not None and track.closing is not None:
                self._release_part(response, sent, track, out, force=final)
            if track is None or track.finished:
                continue
            if not sent.held:
                deltas = channel.deltas
                # Deltas joined into the channel's value (a payload ``done``) are gone
                # from the list: the ``done`` event carries them.
                if channel.value is None:
                    for piece in deltas[track.progress :]:
                        self._delta(
                            response, sent, track, piece, out,
                            self._upstream_delta(response, channel, piece),
                        )
                track.progress = len(deltas)
                self._additions(response, sent, track, channel, out)
            value = values.get((channel.kind, channel.index))
            if final and sent.held:
                final_value = value if value is not None else channel_text(channel) or ""
                self._replay(response, entry, sent, track, channel, final_value, ends, out)
            if channel.closed and not sent.held:
                self._close_channel(
                    response, entry, sent, track, channel, value, out, wait=not final
                )
        if final:
            self._item_payloads(response, entry, sent, out)

    def _track(
        self,
        response: _Response,
        entry: Entry,
        sent: _Sent,
        channel: Channel,
        out: list[Event],
        *,
        final: bool,
        later: bool = False,
    ) -> _Track | None:
        """The channel's track, its part opened once it holds a value; None for a
        channel the API has no events for (``_SPELLINGS``), or a part with no value yet.

        A part is announced at the position its value takes in the reconciled item
        (``_placed``), which is its index unless a part before it never held a value:
        a part announced empty and never filled would be given, when canonical's own
        stream is read again, the value its item's ``done`` holds at that position --
        another part's (#40: "Paris" in part 1 after an empty part 0 came back twice).
        While a part before it has no value yet, a part waits (unless ``final``): that
        part may still get one and take the position first; with ``later``, a part not
        yet open waits for its item's close."""
        track = sent.tracks.get(id(channel))
        if track is None:
            spelling = _SPELLINGS.get((entry.item_type, channel.kind))
            if spelling is None:
                return None
            index = channel.index
            if spelling.part_added is not None:
                if channel_text(channel) is None or later:
                    return None
                if not final and entry.state not in CLOSED_STATES and _gap_before(entry, channel):
                    return None
                index = _position(entry, channel)
            track = sent.tracks[id(channel)] = _Track(spelling, index)
            if spelling.part_added is not None:
                # A copy of its arrays too: the reducer's part grows (its annotations).
                held = channel.part if isinstance(channel.part, dict) else None
                track.part = None if held is None else _copied(held)
                addition = _ADDITIONS.get(channel.kind)
                if track.part is not None and addition is not None:
                    # Announced with the additions the upstream's added listed (``_own``),
                    # not those events added before it: each goes out as its event (#39).
                    track.part.pop(addition.array, None)
                self._part_event(response, sent, track, "", out, added=True, part=track.part)
                # What the part was announced with is out: the additions after it follow.
                announced = out[-1].get("part") if addition is not None else None
                if isinstance(announced, dict) and addition is not None:
                    track.additions = list(announced.get(addition.array) or [])
            waited = response.waiting.pop(id(channel), None)
            if waited is not None and not sent.held:
                for piece in waited:
                    upstream = self._upstream_delta(response, channel, piece)
                    self._delta(response, sent, track, piece, out, upstream)
                track.progress = len(channel.deltas)
        return track

    def _additions(
        self, response: _Response, sent: _Sent, track: _Track, channel: Channel, out: list[Event]
    ) -> None:
        """What progress events added to the channel's part since the last event (its
        annotations, R15), each at its position, as the API spells it."""
        addition = _ADDITIONS.get(channel.kind)
        found = (channel.part or {}).get(addition.array) if addition is not None else None
        if addition is None or not isinstance(found, list):
            return
        for position, value in enumerate(found):
            if position < len(track.additions) and track.additions[position] == value:
                continue
            fields = {
                "item_id": sent.item_id,
                "output_index": sent.index,
                addition.part_index.value: track.index,
                addition.position.value: position,
                addition.value.value: value,
            }
            self._emit(response, out, {"type": _ADDITION_EVENTS[addition], **fields}, sent)
            sent.additions += 1
        track.additions = list(found)

    def _delta(
        self,
        response: _Response,
        sent: _Sent,
        track: _Track,
        text: str,
        out: list[Event],
        upstream: tuple[Mapping[str, Any], tuple[str, ...]] | None = None,
    ) -> None:
        """A payload delta: the upstream's (``upstream``: the fields canonical does not
        spell, as it sent them, and the names of all its fields in its order) or one
        canonical makes up (None: the fields the published type requires, ``_extra``).
        The upstream's has its fields in the upstream's order where it has the same
        ones (``_upstream_order``).  A delta goes in no ledger (``_LEDGER``)."""
        spelling = track.spelling
        extra = _extra(spelling) if upstream is None else upstream[0]
        event = {"type": spelling.delta, **self._scoped(sent, track), "delta": text, **extra}
        if upstream is not None:
            event = _upstream_order(event, upstream[1])
        self._send_delta(response, track, text, event, out)

    def _send_delta(
        self, response: _Response, track: _Track, text: str, event: Event, out: list[Event]
    ) -> None:
        """Emit ``event``, the delta ``text`` of ``track``'s channel."""
        track.streamed.append(text)
        self._emit(response, out, event)

    @staticmethod
    def _upstream_delta(
        response: _Response, channel: Channel, piece: str
    ) -> tuple[dict[str, Any], tuple[str, ...]] | None:
        """The fields the upstream sent with ``piece``, a delta of ``channel`` it sent
        (``_note_upstream`` keeps them in order), and the names of all its fields in its
        order; None if none is kept for it.  A delta the reducer did not take is skipped
        over."""
        waiting = response.delta_fields.get(id(channel))
        while waiting:
            text, own, order = waiting.popleft()
            if text == piece:
                return own, order
        return None

    def _replay(
        self,
        response: _Response,
        entry: Entry,
        sent: _Sent,
        track: _Track,
        channel: Channel,
        value: str,
        ends: bool,
        out: list[Event],
    ) -> None:
        """A held call's deltas, one by one as the upstream sent them, as far as they
        spell ``value`` (the reconciled payload).  Where they do not, or fall short of
        a value no ``done`` will carry (``ends`` false: a cut stream, a withheld call),
        the value goes out as one delta, a logged change: the client must get the
        payload, and the upstream's deltas do not give it."""
        pieces = response.pieces.pop((entry.ordinal, channel.kind, channel.index), [])
        joined = "".join(pieces)
        spelled = value.startswith(joined)
        if spelled:
            for piece in pieces:
                upstream = self._upstream_delta(response, channel, piece)
                self._delta(response, sent, track, piece, out, upstream)
        rest = value[len(joined) :] if spelled else value
        if rest and (not ends or not spelled):
            self._delta(response, sent, track, rest, out)
            label, spelling = f"{entry.item_type} {sent.item_id}", track.spelling
            response.changes.append(
                f"{label}: {len(rest)} chars of {spelling.value} sent as a {spelling.delta} "
                "the upstream did not send"
                if spelled
                else f"{label}: the upstream's {len(pieces)} {spelling.delta} replaced by one "
                f"with the reconciled {spelling.value} ({len(rest)} chars)"
            )

    def _item_payloads(
        self, response: _Response, entry: Entry, sent: _Sent, out: list[Event]
    ) -> None:
        """Open and fill the payloads the item holds that no channel of the reducer
        streamed (a value only in the ``added`` item, or an empty one): their events
        are what a provider sends for them."""
        item = wire_item(entry)
        for location in entry.spec.channels:
            spelling = _SPELLINGS.get((entry.item_type, location.channel))
            if spelling is None:
                continue
            for index, value in _placed(entry, item, location)[1]:
                if (location.channel, index) in sent.extra:
                    continue
                track = _Track(spelling, index)
                sent.extra[(location.channel, index)] = (track, value)
                if spelling.part_added is not None:
                    self._part_event(response, sent, track, "", out, added=True)

    def _close_entry(
        self, response: _Response, entry: Entry, sent: _Sent, out: list[Event]
    ) -> None:
        values = self._final_values(entry)
        for channel in _in_order(entry):
            track = self._track(response, entry, sent, channel, out, final=True)
            if track is not None and track.closing is not None:
                self._release_part(response, sent, track, out, force=True)
            if track is not None and not track.finished:
                # A part opened only now (its item announced at its close) gets what
                # progress events added to it too.
                self._additions(response, sent, track, channel, out)
                value = values.get((channel.kind, channel.index))
                self._close_channel(response, entry, sent, track, channel, value, out)
        self._item_payloads(response, entry, sent, out)
        for track, value in sent.extra.values():
            if not track.finished:
                self._close_track(response, sent, track, value, None, out)
        sent.closed = True
        response.note(sent)
        self._emit(
            response,
            out,
            {
                "type": "response.output_item.done",
                "output_index": sent.index,
                "item": self._done_item(entry),
            },
            sent,
        )

    def _close_channel(
        self,
        response: _Response,
        entry: Entry,
        sent: _Sent,
        track: _Track,
        channel: Channel,
        value: str | None,
        out: list[Event],
        *,
        wait: bool = False,
    ) -> None:
        """A channel's ``done`` events, with ``value`` (the item's, once it is final)
        or else the channel's own; with ``wait``, its part's may wait for the
        upstream's (``_close_track``).  Once the item is final its part's additions
        are the ones its ``done`` item holds there, as its value is: a part's ``done``
        is the finished item's part (a done item that lists no annotation the stream
        added has none in its part's ``done`` either)."""
        finished = _finished_part(entry, channel, track.index) if value is not None else {}
        part = self._announced_part(track, channel, finished)
        final = value if value is not None else channel_text(channel)
        if final is None and not track.streamed:
            # A part opened that never held a value (not even an empty one): a done
            # with "" would give it one, so it stays as the stream left it.
            track.finished = True
            return
        self._close_track(response, sent, track, final or "", part, out, wait=wait)

    @staticmethod
    def _announced_part(
        track: _Track, channel: Channel, finished: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The part for its ``done``: the fields its ``added`` announced, with what
        progress events added since (the reducer's array), or what the ``finished``
        part holds of it.  Not the reducer's part as it is now: a part whose delta came
        before its ``added`` was announced before the reducer held one, and fields
        learnt later (``logprobs``) in the ``done`` alone would be lost when
        canonical's own stream is read again -- the reducer keeps the first part it
        sees."""
        part = dict(track.part or {})
        addition = _ADDITIONS.get(channel.kind)
        held = channel.part if isinstance(channel.part, dict) else {}
        for source in (held, finished):  # the finished item's word last
            if addition is not None and addition.array in source:
                part[addition.array] = source[addition.array]
        return part

    @staticmethod
    def _final_values(entry: Entry) -> dict[tuple[ChannelKind, int], str]:
        """Each payload's value as the reconciled item holds it (R7: a value only the
        ``added`` item had is kept there, not in a channel)."""
        item = wire_item(entry)
        return {
            (location.channel, index): value
            for location in entry.spec.channels
            for index, value in _placed(entry, item, location)[0].items()
        }

    def _close_track(
        self,
        response: _Response,
        sent: _Sent,
        track: _Track,
        value: str,
        part: Mapping[str, Any] | None,
        out: list[Event],
        *,
        wait: bool = False,
    ) -> None:
        """A payload's ``done`` events: its value, if the upstream sent a payload
        ``done`` for the item (an event no repair needs is not added: a client may act
        on a ``function_call_arguments.done``, and the item's ``done`` carries the
        value); its part's ``done``, which closes the part the stream opened.  With
        ``wait``, a part the upstream announced and has not closed yet keeps its
        ``done`` until the upstream's comes (``_release_part``): it carries the fields
        only the upstream's has (a part's ``logprobs``)."""
        track.finished = True
        spelling = track.spelling
        if any(kind == spelling.done for kind, _ in response.upstream.get(sent.ordinal, {})):
            done = {"type": spelling.done, **self._scoped(sent, track), spelling.value: value}
            self._emit(response, out, {**done, **_extra(spelling)}, sent)
        if spelling.part_done is not None:
            track.closing = (value, part)
            self._release_part(response, sent, track, out, force=not wait)

    def _release_part(
        self, response: _Response, sent: _Sent, track: _Track, out: list[Event], *, force: bool
    ) -> None:
        """Send the part ``done`` waiting in ``track``, unless it may still wait: the
        upstream announced the part and has not closed it (and nothing ends here)."""
        spelling, closing = track.spelling, track.closing
        upstream = response.upstream.get(sent.ordinal, {})
        if closing is None or spelling.part_done is None:
            return
        if (
            not force
            and (spelling.part_added, track.index) in upstream
            and (spelling.part_done, track.index) not in upstream
        ):
            return
        track.closing = None
        value, part = closing
        self._part_event(response, sent, track, value, out, added=False, part=part)

    def _part_event(
        self,
        response: _Response,
        sent: _Sent,
        track: _Track,
        value: str,
        out: list[Event],
        *,
        added: bool,
        part: Mapping[str, Any] | None = None,
    ) -> None:
        spelling = track.spelling
        kind = spelling.part_added if added else spelling.part_done
        fields = {"type": kind, **self._scoped(sent, track)}
        if spelling.part_type is None:  # a shell command: the value itself is the part
            self._emit(response, out, {**fields, spelling.value: value}, sent)
            return
        # The part's own fields as the stream gave them (``logprobs``...), its value
        # and type as canonical says.
        body = {**(part or {}), "type": spelling.part_type, spelling.value: value}
        if spelling.part_type == "output_text" and not isinstance(body.get("annotations"), list):
            body["annotations"] = []
        self._emit(response, out, {**fields, "part": body}, sent)

    @staticmethod
    def _scoped(sent: _Sent, track: _Track) -> dict[str, Any]:
        fields: dict[str, Any] = {"item_id": sent.item_id} if track.spelling.item_id else {}
        fields["output_index"] = sent.index
        if track.spelling.index is not None:
            fields[track.spelling.index] = track.index
        return fields

    # -- items --------------------------------------------------------------------

    @staticmethod
    def _added_item(entry: Entry) -> dict[str, Any]:
        """The item as first announced: its identity and fields, no payload yet (each
        payload field the item has a value of, emptied; a ``null`` stays ``null``: the
        upstream sent no value, and an empty one would be a value it did not send).  A
        value no delta can carry (a number, a list of them: ``_streamable``) stays as the
        upstream sent it: emptied here, no later event would bring it back."""
        item = {**_ITEM_DEFAULTS.get(entry.item_type, {}), **wire_item(entry)}
        for location in entry.spec.channels:
            container: Any = item
            for name in location.container:
                nested = container.get(name) if isinstance(container, dict) else None
                if isinstance(nested, Mapping):
                    container[name] = dict(nested)
                container = container.get(name) if isinstance(container, dict) else None
            payload = location.array or location.field
            if isinstance(container, dict) and _streamable(container.get(payload), location):
                container[payload] = [] if location.array is not None else ""
        # An item just added is in progress, if the upstream gives it a status at all.
        if "status" in item and entry.item_type not in _NO_STATUS | _SETTLED_STATUS:
            item["status"] = "in_progress"
        return item

    @staticmethod
    def _done_item(entry: Entry) -> dict[str, Any]:
        """The item reconciled (``Result.items``), with the empty payload fields the API
        always sends; its ``status`` as the upstream gave it (a ``null`` stays ``null``)."""
        item = wire_item(entry)
        for name, value in _ITEM_DEFAULTS.get(entry.item_type, {}).items():
            item.setdefault(name, value)
        return item


def _streamable(value: Any, location: ChannelLocation) -> bool:
    """Whether events can carry ``value``, a payload at ``location``: a string, by its
    deltas; an array of parts (``location.field``: each announced by its part events) or
    of strings (a shell call's commands, each by its own deltas)."""
    if location.array is None:
        return isinstance(value, str)
    if not isinstance(value, list):
        return False
    return location.field is not None or all(isinstance(v, str) for v in value)


def _unsent_response_fields(event: Mapping[str, Any]) -> list[str]:
    """The fields of its response object the API's published types require that a
    terminal canonical made up lacks (``serve.shapes.type_problems``): the upstream never
    sent them, and canonical fills none (``_response_object``), so its log names them."""
    prefix = "response."
    return [
        problem.path.removeprefix(prefix)
        for problem in type_problems(event)
        if problem.path.startswith(prefix) and "[" not in problem.path
    ]


def _placed(
    entry: Entry, item: Mapping[str, Any], location: ChannelLocation
) -> tuple[dict[int, str], list[tuple[int, str]]]:
    """The values the reconciled ``item`` (``wire_item``) holds at one location: by
    channel index, the value of each of the entry's channels there; then the values no
    channel accounts for (a part only the item has), by their position.  A channel is
    not always at the position of its index: ``result.part_positions`` appends a part
    whose index is past the end, so after a gap (an empty part 0, "Paris" in part 1)
    the value at position 0 is part 1's -- never part 0's."""
    found = {i: v for i, v in item_channel_values(item, location) if v is not None}
    channels = [c for c in entry.channels.values() if c.kind is location.channel]
    if location.array is None:
        mine = {c.index: found[0] for c in channels if 0 in found}
        return mine, ([] if channels or 0 not in found else [(0, found[0])])
    positions = _positions(entry)
    placed = {c.index: positions[id(c)] for c in channels if id(c) in positions}
    written = set(placed.values())
    mine = {}
    for channel in channels:
        position = placed.get(channel.index)
        if position is None and channel.index in written:
            continue  # its index holds another channel's value
        value = found.get(channel.index if position is None else position)
        if value is not None:
            mine[channel.index] = value
    claimed = written | {c.index for c in channels}
    return mine, [(i, v) for i, v in found.items() if i not in claimed]


def _in_order(entry: Entry) -> list[Channel]:
    """The entry's channels by part index (stable: as they came within one index), so
    that parts that waited for a gap (``_gap_before``) open in the order canonical's own
    stream, read again, would open them."""
    return sorted(entry.channels.values(), key=lambda c: c.index)


def _gap_before(entry: Entry, channel: Channel) -> bool:
    """Whether a part of the same payload before ``channel`` has no value yet: one the
    stream opened empty, or one it has not opened at all (an index skipped), that the
    admitted item does not hold either."""
    location = next(loc for loc in entry.spec.channels if loc.channel is channel.kind)
    valued = {
        other.index
        for other in entry.channels.values()
        if other.kind is channel.kind and channel_text(other) is not None
    }
    return any(i not in valued for i in range(_length(entry.item, location), channel.index))


def _finished_part(entry: Entry, channel: Channel, position: int) -> Mapping[str, Any]:
    """The part the reconciled item (``wire_item``: the item its ``done`` carries out)
    holds at ``position`` of ``channel``'s array; ``{}`` where it holds none."""
    location = next(loc for loc in entry.spec.channels if loc.channel is channel.kind)
    node: Any = wire_item(entry)
    for name in (*location.container, location.array):
        node = node.get(name) if isinstance(node, Mapping) else None
    part = node[position] if isinstance(node, list) and 0 <= position < len(node) else None
    return part if isinstance(part, Mapping) else {}


def _position(entry: Entry, channel: Channel) -> int:
    """The position of a channel's value in the reconciled item's array, now."""
    return _positions(entry).get(id(channel), channel.index)


def _positions(entry: Entry) -> dict[int, int]:
    """By ``id()`` of each channel holding a value: its position in the reconciled
    item's array, as ``wire_item`` writes them -- location after location, each
    appending to the array the locations before it wrote (a message's text parts, then
    its refusals, share ``content``), by ``result.part_positions``."""
    lengths: dict[tuple[tuple[str, ...], str], int] = {}
    found: dict[int, int] = {}
    for location in entry.spec.channels:
        if location.array is None:
            continue
        key = (location.container, location.array)
        length = lengths.get(key, _length(entry.item, location))
        channels = [c for c in entry.channels.values() if c.kind is location.channel]
        for channel, position in part_positions(length, channels):
            found[id(channel)] = position
            length = max(length, position + 1)
        lengths[key] = length
    return found


def _length(item: Mapping[str, Any], location: ChannelLocation) -> int:
    """How many parts the item as admitted holds at an array location."""
    container: Any = item
    for name in location.container:
        container = container.get(name) if isinstance(container, Mapping) else None
    found = container.get(location.array) if isinstance(container, Mapping) else None
    return len(found) if isinstance(found, list) else 0


def _print(value: Any) -> Fingerprint | None:
    """A payload as a ledger keeps it (None for one that is no string)."""
    return (len(value), hash(value)) if isinstance(value, str) else None


_ASIDE: Final = 1 << 16
"""Strings at least this long are set aside from a field's JSON text (``_json_print``)."""


class _Aside:
    """The place of a string set aside (``_json_print``), written by ``repr``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "\x00set aside"


_PLACE: Final = _Aside()
_PLACE_CHARS: Final = len(json.dumps(repr(_PLACE)))
"""How long a place is in a JSON text: its ``repr`` as a JSON string."""


def _json_print(value: Any) -> Fingerprint | None:
    """``_print`` of ``json.dumps(value, sort_keys=True, default=repr)`` (how a field
    other than a payload is compared): its length exactly, and a hash of the text and
    of the strings set aside.  A string of ``_ASIDE`` characters or more (a part's
    10 MB text inside a message's ``content``) is not copied into the text: it is set
    aside (``_set_aside``), its JSON length counted apart, and its hash -- which a
    string keeps once taken, and its payload's print took -- joins the text's.  Two
    values give the same print exactly when their texts are the same (up to a hash
    collision, as before)."""
    aside: list[str] = []
    text = json.dumps(_set_aside(value, aside), sort_keys=True, default=repr)
    if not aside:
        return _print(text)
    size = len(text) + sum(_json_length(s) - _PLACE_CHARS for s in aside)
    return size, hash((text, *aside))


def _json_length(text: str) -> int:
    """How long the json module writes ``text`` (``encode_basestring_ascii``).  An ASCII
    string's length is read from msgspec's encoding where the ``fast`` extra is on: it
    takes a seventh of the time on a 10 MB text (the proxy's log prints a large answer's
    item twice).  msgspec escapes what the json module escapes, but for DEL, which the
    json module writes as ``\\u007f``: five characters more.  Any other string (one with
    ``\\uXXXX`` escapes for what is not ASCII) is written by the json module and
    counted.  ``tests/proxy/test_ledger_print.py`` holds the two to the same length."""
    encode = fast_encoder()
    if encode is None or not text.isascii():
        return len(encode_basestring_ascii(text))
    return len(encode(text)) + 5 * text.count("\x7f")


def _set_aside(value: Any, aside: list[str]) -> Any:
    """``value`` with each string of ``_ASIDE`` characters or more in lists and object
    values replaced by ``_PLACE`` and added to ``aside``, in the order of the JSON text
    (objects by sorted key, as ``sort_keys`` writes them)."""
    kind = type(value)
    if kind is str:
        if len(value) < _ASIDE:
            return value
        aside.append(value)
        return _PLACE
    if kind is dict:
        if all(type(key) is str for key in value):
            return {key: _set_aside(value[key], aside) for key in sorted(value)}
        return value  # written as the json module writes it (and sorts it) whole
    if kind is list or kind is tuple:
        return [_set_aside(nested, aside) for nested in value]
    return value


def _item_print(
    item: Any, locations: tuple[ChannelLocation, ...], *, payloads: bool
) -> dict[str, Any]:
    """An item as a ledger keeps it: its ``id``, the fingerprint of each other field
    outside its payloads (``status``, ``phase``...: a field one side has and the other
    lacks differs), and with ``payloads`` (an item's ``done``: the ``added`` item's are
    emptied by design) its payloads' fingerprints."""
    if not isinstance(item, Mapping):
        return {}
    found: dict[str, Any] = {"id": item.get("id")}
    holders = {
        (location.container or (location.field or location.array,))[0] for location in locations
    }
    for name, value in item.items():
        if name != "id" and name not in holders:
            found[name] = _json_print(value)
    for location in locations if payloads else ():
        name = location.field or location.array or location.channel.value
        for index, value in item_channel_values(item, location):
            found[f"{name}[{index}]" if location.array else name] = _print(value)
    return found


def _ledger_key(event: Mapping[str, Any]) -> LedgerKey | None:
    """The key of an item event a ledger keeps (``_LEDGER``): its type and its part
    index; None for an event no ledger keeps (a delta, an annotation)."""
    kind = event.get("type")
    spec = _LEDGER.get(kind) if isinstance(kind, str) else None
    if spec is None or not isinstance(kind, str):
        return None
    return kind, _hashable(event.get(spec[0])) if spec[0] is not None else None


def _ledger_print(event: Mapping[str, Any], locations: tuple[ChannelLocation, ...]) -> Any:
    """What a ledger compares of an item event: the fingerprints of its own fields
    (``_own``), of its item (``_item_print``) or of its payload value."""
    kind = event["type"]
    found = {"fields": _json_print(_own(event))}
    value_field = _LEDGER[kind][1]
    if kind in _ITEM_EVENTS:
        done = kind == "response.output_item.done"
        found.update(_item_print(event.get("item"), locations, payloads=done))
    elif value_field is not None:
        found[value_field] = _print(event.get(value_field))
    return found


def _ledger(
    event: Mapping[str, Any], locations: tuple[ChannelLocation, ...]
) -> tuple[LedgerKey, Any] | None:
    """An item event as a ledger keeps it (``_LEDGER``): its key and what is compared;
    None for an event no ledger keeps."""
    key = _ledger_key(event)
    return None if key is None else (key, _ledger_print(event, locations))


def _copied(part: Mapping[str, Any]) -> dict[str, Any]:
    """A part with its arrays copied (the reducer's keep growing)."""
    return {name: list(v) if isinstance(v, list) else v for name, v in part.items()}


def _differences(label: str, upstream: Ledger, sent: Ledger) -> list[str]:
    """What canonical sent for one item that differs from what the upstream sent, beside
    the events only canonical sent (``Canonicalizer._record``)."""
    changes = [
        f"{label}: the upstream's {kind} not sent"
        for (kind, _) in (key for key in upstream if key not in sent)
    ]
    for key, mine in sent.items():
        theirs = upstream.get(key)
        if key not in upstream or theirs == mine:
            continue
        kind = key[0]
        if isinstance(mine, dict) and isinstance(theirs, dict):
            for name in [*mine, *(name for name in theirs if name not in mine)]:
                before, value = theirs.get(name), mine.get(name)
                if before == value:
                    continue
                if name == "id":
                    was = "had none" if before is None else f"said {before}"
                    changes.append(f"{label}: id restored (the upstream's {kind} item {was})")
                elif name == "fields":
                    changes.append(f"{label}: its other fields differ from the upstream's {kind}")
                elif value is None:
                    changes.append(f"{label}: the upstream's {kind} {name} left out")
                elif before is None:
                    changes.append(f"{label}: {name} added to the upstream's {kind}")
                else:
                    changes.append(
                        f"{label}: {name} changed from the upstream's {kind} "
                        f"({_size(before)} -> {_size(value)})"
                    )
    return changes


_ITEM_TRIGGERS: Final[dict[str, Trigger]] = {
    "response.output_item.added": Trigger.ITEM_ADDED,
    "response.output_item.done": Trigger.ITEM_DONE,
}
"""The trigger of each item event a ledger keeps (the payload events': their
``WireEventSpec.trigger``)."""


def _hashable(value: Any) -> Any:
    """``value`` as a key the ledgers can count: an ill-typed object or list (a hostile
    ``output_index: {}``) as its JSON text, which no well-typed value equals -- the
    reducer reports the field, and canonical must not raise on it (the core is total)."""
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, default=repr)
    return value


def _replaced(
    label: str, entry: Entry, sent: _Sent, placed: Mapping[int, Counter[tuple[Any, Any]]]
) -> list[str]:
    """The upstream events of one item whose own ``item_id`` or ``output_index`` canonical
    replaced with the item's as announced (a rotating id; an index moved with its item
    is named once, by the move)."""
    found = placed.get(entry.ordinal, Counter())
    ids = sum(n for (item_id, _), n in found.items() if item_id not in (None, sent.item_id))
    kept = entry.slot == sent.index  # else the move names it
    indexes = sum(n for (_, index), n in found.items() if kept and index not in (None, sent.index))
    return [
        f"{label}: the {name} of {count} upstream event(s) replaced by its item's ({value})"
        for count, name, value in (
            (ids, "item_id", sent.item_id),
            (indexes, "output_index", sent.index),
        )
        if count
    ]


def _restated(key: LedgerKey, entry: Entry, streamed: set[PartKey]) -> bool:
    """Whether the event ``key`` that canonical added and the upstream left out is said
    again by the upstream's other events for the entry (``model.vocabulary.RESTATED``):
    the upstream sent the item in an event of one of ``by`` (``Entry.done_item``: its
    done; ``Entry.in_snapshot``: the terminal's output), and no delta of the part when
    ``unless`` names deltas."""
    kind, index = key
    spec = WIRE_EVENTS.get(kind)
    trigger = _ITEM_TRIGGERS.get(kind) or (spec.trigger if spec is not None else None)
    rule = RESTATED.get(trigger) if trigger is not None else None
    if rule is None:
        return False
    held = {Trigger.ITEM_DONE: entry.done_item, Trigger.SNAPSHOT_ITEM: entry.in_snapshot}
    part = (spec.index_field if spec is not None else None, index)
    if Trigger.DELTA in rule.unless and part in streamed:
        return False
    return any(held.get(trigger, False) for trigger in rule.by)


def _size(found: Any) -> str:
    """A fingerprint as a change says it: the length only (payloads are never logged)."""
    return f"{found[0]} chars" if isinstance(found, tuple) else "absent"


_EXTRA: Final = ("logprobs",)
"""The fields of a payload event the published type requires beyond the payload, which
canonical gives an event the upstream did not send (``_extra``)."""


def _extra(spelling: _Spelling) -> dict[str, Any]:
    """The ``_EXTRA`` fields of a payload event canonical makes up: an ``output_text``
    delta or done has its ``logprobs`` (none here)."""
    return {name: [] for name in _EXTRA} if spelling.part_type == "output_text" else {}


_SPELT: Final = frozenset(
    {"type", "sequence_number", "item_id", "output_index", "item", "part", "delta"}
    | {spelling.value for spelling in _SPELLINGS.values()}
    | {spelling.index for spelling in _SPELLINGS.values() if spelling.index is not None}
)
"""The fields of an item event canonical spells from the reducer's state; every other
field the upstream sent passes on as it came (``_own``)."""

_ARRAYS: Final = frozenset(addition.array for addition in _ADDITIONS.values())
_PART_SPELT: Final = frozenset({"type"} | {spelling.value for spelling in _SPELLINGS.values()})
"""The fields of a part canonical spells: its type and its value.  Its additions
(``_ARRAYS``) are the upstream's where it listed them: a part's ``added`` says what the
upstream's said, and the additions after it follow as events; a part's ``done`` lists
what the upstream's listed (the finished part: a provider may list annotations there
alone), and only where the upstream sent none, what progress events added to it, or
its finished item holds (``_announced_part``)."""


_UNNAMED: Final[frozenset[str | None]] = frozenset(
    name
    for spelling in _SPELLINGS.values()
    if not spelling.item_id
    for name in (spelling.delta, spelling.done, spelling.part_added, spelling.part_done)
)
"""The events whose ``item_id`` canonical does not spell (``_Spelling.item_id``): one the
upstream sent passes on as it came."""


def _own(event: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an upstream item event canonical does not spell (``_SPELT``):
    ``obfuscation``, ``logprobs``, a ``done``'s ``name``, any the oracle does not know;
    under ``part``, the part's own (its ``logprobs``, its additions as a list), beside
    its type and value."""
    unnamed = event.get("type") in _UNNAMED
    own = {
        name: value
        for name, value in event.items()
        if name not in _SPELT or (unnamed and name == "item_id")
    }
    part = event.get("part")
    if isinstance(part, Mapping):
        own["part"] = {
            name: value
            for name, value in part.items()
            if name not in _PART_SPELT and (name not in _ARRAYS or isinstance(value, list))
        }
    return own


def _as_sent(body: Mapping[str, Any], head: Mapping[str, Any]) -> bool:
    """``_Live.as_sent`` of the upstream delta ``body``, ``head`` being the fields
    ``_delta`` spells before its ``delta`` (``type``, ``_scoped``): whether ``body`` has
    each with the same value, of the same type, has its ``delta`` and its
    ``sequence_number``, no ``part`` (``_own`` filters one) and no other field canonical
    spells -- so ``_delta`` gives its fields, in its order (``_upstream_order``)."""
    if "delta" not in body or "sequence_number" not in body or "part" in body:
        return False
    for name, value in head.items():
        if name not in body or type(body[name]) is not type(value) or body[name] != value:
            return False
    own = [name for name in _own(body) if name not in head]
    return len(head) + 2 + len(own) == len(body)  # else a spelled field beside them


def _upstream_order(event: Event, order: tuple[str, ...]) -> Event:
    """``event``, a delta canonical re-emits, with its fields in the upstream delta's
    ``order`` where they are the same names (``sequence_number`` among them, which
    ``_emit`` then sets in its place): OpenAI sends ``sequence_number`` second, and a
    delta re-emitted as it came passes on as its own bytes (``proxy.relay``'s rule 7).
    Where the names differ, canonical's order."""
    if len(order) != len(event) + 1 or "sequence_number" in event:
        return event
    if not all(name in event or name == "sequence_number" for name in order):
        return event
    return {name: event.get(name) for name in order}


def canonical(events: Iterable[Mapping[str, Any]]) -> list[Event]:
    """The stream's answer re-emitted as a complete, valid stream (all responses of it).

    Every item: ``output_item.added`` → its payload deltas → its ``done`` events →
    ``output_item.done``, in result order, then the terminal with the reconciled
    snapshot; a stream cut before its terminal ends cut.  ``reduce(canonical(s))`` has
    the answer of ``reduce(s)``: the same responses, items, payloads and executability
    (the module docstring says how each is kept).
    """
    canonicalizer = Canonicalizer()
    out: list[Event] = []
    for event in events:
        out += canonicalizer.feed(event)
    out += canonicalizer.close()
    return out
