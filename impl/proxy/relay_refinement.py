"""The relay refines the upstream: what a client gets behind the proxy is the upstream's
answer, every difference named.

``check(events, cuts, sentinel)`` plays one upstream body through a ``Relay`` -- the
events framed as SSE, ``data: [DONE]`` after them if ``sentinel``, the bytes cut at
``cuts`` -- and returns what breaks these rules (an empty list: it refines):

1. **The answer is kept.**  ``reduce`` of the relay's output has the responses of
   ``reduce`` of the upstream: the same statuses, and per response the same items in
   the same order, each with the same id, type, payloads and executability (``answer``).
   Items of a response that share an id are compared as what they hold, not how many
   or where: the same distinct items on both sides, none lost, changed or made up.
   Their count and order no relay can keep: the reducer finds a terminal's item in
   the stream by its slot or by an id that names one item, and behind a relay that
   announces each item it lists at an index of its own, the terminal's copy of an
   item whose id another shares, listed at a position whose slot holds another item
   (one never finished, which the terminal does not list; one placed before the
   terminal came), matches neither and reads as one item more.  Only a new id would
   tell them apart, and the relay invents none (#39).
2. **Every upstream event is re-emitted or named.**  An upstream event counts as
   re-emitted when the output holds an event of the same type carrying the same payload
   piece (a delta's text, a ``done``'s value; ``sequence_number``, ``output_index`` and
   ``item_id`` may differ: canonical numbers and places items).  One that is not must
   be named by the log: its type in one of its response's ``changes``, or a diagnostic
   of the oracle at that event (the log's ``codes``).
3. **Nothing is finished that the upstream did not finish.**  Every
   ``output_item.done`` out names an item the upstream sent a ``done`` for, or one the
   log names (a repair in ``changes``, a re-spelling in ``respelled``).
4. **Terminals and ``[DONE]`` in the relay's order** (``relay`` rule 5): no event of a
   response after its terminal -- an event that opens another response (the model's
   ``BOUNDARY``, ``FRAMES``: ``_responses``) is the next response's, whichever opening
   it is; ``[DONE]`` once if the upstream sent it, never otherwise, and after every
   event.
5. **No field the published types require goes missing.**  An event out lacks a field
   its type requires (``serve.shapes.type_problems``: an ``output_index``, an item's
   ``status``) only where an upstream event of its type lacked it too: a client that
   reads the field finds it behind the relay as it found it upstream.  A terminal the
   relay made up (an ``error``'s ``response.failed``) with no response object upstream
   to copy lacks what the log names (``... made up ..., without the response fields
   the upstream never sent: created_at, id``): #39, never filled.
6. **A payload adds up as a client adds it.**  Where the upstream's item, accumulated
   as a client does (its ``output_item.added`` value of a field such as ``arguments``,
   then each of its deltas appended), is the start of the value of its
   ``output_item.done`` (or all of it), the relay's is too (``_accumulated``): a client
   that reads the stream, not the done item, sees no payload twice.  An item is its
   response's (``_responses``; so in rule 8): an id a later response uses again names
   another item.

7. **An event passed on keeps its fields.**  An upstream event of an item's own stream
   (``EventClass.ITEM_SCOPED``: a delta, a payload or part ``done``, progress, an
   annotation), re-emitted (rule 2's match), carries no field the upstream's did not,
   beyond those that place it (``sequence_number``, ``output_index``, ``item_id``, its
   part index, an annotation's position), unless a change in the log names the field
   and the event's type: a client that reads ``logprobs`` finds behind the relay what
   it found upstream.  An upstream event the log names by its place (``upstream event
   N (type) ...``: dropped) was not passed on, and is paired with no event out.
8. **A finished item's ``done`` events and annotations are not withheld.**  Of an
   item both the upstream and the relay finished (``output_item.done``), every payload
   and part ``done`` the upstream sent (``Trigger.PAYLOAD_DONE``: ``output_text.done``,
   ``content_part.done``, ...) and every part addition to its parts
   (``model.annotations.ADDITION_TYPES``: an annotation, either spelling) is sent for it
   too (as many of each type: canonical may realign a part's index,
   ``part_realigned``), unless the log names that upstream event by its place, with
   why (``upstream event N (type) ...``: it reached no item, came after its terminal,
   repeated one): a withholding a relay rule makes, not a difference the
   end-of-response comparison merely notices.  A client that collects citations from
   the ``annotation.added`` events, not the done item, gets each.

9. **Nothing is sent more often than the upstream sent it.**  Of an item's events (its
   ``output_item`` events and its own stream's, ``EventClass.ITEM_SCOPED``), each type
   and payload piece (rule 2's match) goes out at most as many times as it came, unless
   the log names the event's type (a delta replaced, an event the upstream left out
   sent): a client that appends each delta, or each annotation, reads each once.

Rules 8, 12, 13 and 15 follow an item by its id, and so do not follow an id that two
items share on one side (an ``output_item.added`` or ``.done`` naming it twice): rule
1 compares those items by what they hold.

10. **An opening names its response.**  Each response out that is opened
    (``response.created``, ``queued``, ``in_progress``) has an opening that carries a
    string ``response.id``: the upstream's, or one minted (the API's ``Response.id`` is
    required; ``canonicalizer`` rule 1); and no more responses out share an id than
    upstream responses opened with it: a minted id is the response's own.
11. **A terminal is not kept back.**  Fed the upstream up to a terminal the model does
    not let a later one amend (``amends``: not an ``error``), the relay has sent all it
    owes that response: closing the body there releases no terminal.  A client that
    waits for the terminal does not wait for the upstream's next bytes.
12. **An item stays at its position.**  Where the upstream's events of an item carry
    one ``output_index``, the relay's carry one too (the relay may move an item, never
    half of its events); where that index is its position in its response's terminal
    ``output`` (the API's ``output_index``), no other item's ``output_item`` event
    upstream carries it, and the relay's terminal lists the same items in the same
    order, the relay's events of the item carry that position: a client that files
    items by ``output_index`` files each where the terminal lists it.  (An index two
    items share upstream is neither's: the relay gives each item an index of its own,
    so it moves one, and logs it.)
13. **A call's events come in one run** (``canonicalizer`` rule 2): between a client
    call's ``output_item.added`` and its ``output_item.done`` (or, with none, its last
    event) out, no other item is announced that comes after it (a higher
    ``output_index``) or that the upstream announced before it -- a client that starts
    a new call at another item's ``added`` reads each call whole.  (An item before it
    the upstream had not announced yet, which a snapshot or a late ``done`` placed
    there, may be.)
14. **The terminal lists what was finished.**  A terminal out that carries ``output``
    holds every item an ``output_item.done`` of its response finished: a client that
    reads the answer from the terminal (``stream: false``) finds each item the stream
    finished.
15. **A part's ``done`` is the finished item's part.**  Where the upstream's part
    ``done`` (``content_part.done``, a summary part's) holds the part its item's
    ``output_item.done`` holds at that index (in every field both carry), the relay's
    holds the one its own done item holds there (annotations included).
16. **An item is announced as the API announces it.**  An ``output_item.added`` out
    carries a ``status`` only where an upstream copy of the item did (by its ``id``, or
    the ``item_id`` a gateway puts inside it; a copy with one under no id the relay
    sends may be any item's); where the recordings give every added item of a type one
    ``status`` (``serve.shapes``: ``in_progress`` for a ``function_call``), it says
    that status, ``in_progress``, or the upstream's own ``added`` one -- not the
    ``completed`` of a done item a client may take as finished; and a field the
    upstream's ``added`` announced empty (``""``, ``[]``, ``{}``, ``null``) is announced
    empty: an item is announced no further along than the upstream announced it (a
    client adding the deltas to it reads no output twice).
17. **No field out of nowhere.**  Every field of an event out is one its published
    type or a recording of it carries (``serve.shapes.fields``), one that places it
    (rule 2's), or one an upstream event of its type carried: an event the relay makes
    up (a ``delta`` spelling a ``done``'s value) has its own type's fields, not
    another's (``logprobs`` on a call's arguments).

Where a response begins and ends is the reducer's to say, never a rule's: every rule
that follows a response (4, 6, 8, 10, 12, 13, 14) reads each side cut by
``_responses``, which runs a ``Reducer`` over it.  So an event a provider sends before
``response.created`` (a stray annotation) is that response's, as the reducer reads it
(``BOUNDARY``: nothing held yet), not a response of its own.

Nothing here imports the canonicalizer's internals: it reads the relay's bytes, its
``repairs`` and the reducer's results and diagnostics, so an edit of the canonicalizer
or the relay cannot move the expectation with it.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple

from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.model.annotations import ADDITION_TYPES, PART_ADDITIONS
from responses_oracle.model.catalogue import (
    ITEM_TYPES,
    STRAY_ITEM_FIELDS,
    TERMINALS,
    WIRE_EVENTS,
    EventClass,
)
from responses_oracle.model.responses import OPENING_TYPES
from responses_oracle.model.vocabulary import Trigger
from responses_oracle.reducer import Reducer, reduce
from responses_oracle.result import Result
from responses_oracle.serve import shapes as published
from responses_oracle.serve.server import Framing
from responses_oracle.serve.shapes import fields, type_problems
from responses_oracle.wire import read_wire_events

from .relay import DONE_FRAME, Relay

Event = Mapping[str, Any]

_FRAMING: Final = Framing()

_NOT_COMPARED: Final = frozenset({"status", "role", "content", "summary", "arguments", "input"})
"""Item fields canonical may fill where the stream's item had none, and ``status``,
which a pass-through keeps but a re-spelled added item says ``in_progress``: rule 1
compares every other field, and the payloads through ``reduce``'s own reconciliation."""


def body(events: Sequence[Event], *, sentinel: bool) -> bytes:
    """The upstream's SSE body of ``events`` (``data: [DONE]`` last if ``sentinel``)."""
    frames = _FRAMING.frames([dict(event) for event in events])
    return b"".join(frames) + (DONE_FRAME if sentinel else b"")


def relay_output(
    data: bytes, cuts: Iterable[int], *, fast: bool = True
) -> tuple[bytes, list[dict[str, Any]]]:
    """``data`` through a ``Relay`` (``fast``: with its fast paths) in the chunks ``cuts``
    make: its bytes and repairs."""
    relay = Relay(fast=fast)
    out = bytearray()
    start = 0
    for cut in sorted({c for c in cuts if 0 < c < len(data)}):
        out += relay.feed(data[start:cut])
        start = cut
    out += relay.feed(data[start:])
    out += relay.close()
    return bytes(out), relay.repairs


def answer(results: Sequence[Result]) -> list[tuple[Any, ...]]:
    """Per response with anything in it: its status, its items in order, and the
    distinct items of the ids two of its items share (rule 1)."""
    found = []
    for result in results:
        if not _holds(result):
            continue
        named = Counter(i.item.get("id") for i in result.items if isinstance(i.item.get("id"), str))
        items = [
            ({k: v for k, v in i.item.items() if k not in _NOT_COMPARED}, i.executable)
            for i in result.items
        ]
        shared = [named[item.get("id")] > 1 for item, _ in items]
        found.append(
            (
                result.status.value,
                [held for held, twice in zip(items, shared, strict=True) if not twice],
                sorted(
                    {
                        json.dumps(held, sort_keys=True, default=repr)
                        for held, twice in zip(items, shared, strict=True)
                        if twice
                    }
                ),
            )
        )
    return found


def _holds(result: Result) -> bool:
    """Whether a response has anything in it: an id, an item, or an end of its own."""
    return (
        result.response_id is not None or bool(result.items) or result.status.value != "interrupted"
    )


class _Response(NamedTuple):
    """One response of a side's events, cut where the reducer cuts them (``_responses``)."""

    number: int | None
    """Its number among the side's responses with anything in them (``_holds``); None:
    one with nothing, of which the relay sends nothing."""
    start: int
    """Where its first event is in the side's events."""
    events: Sequence[Event]
    """Its events, in order (a client frame that ends the response before it is this
    one's)."""


def _responses(events: Sequence[Event]) -> list[_Response]:
    """``events`` cut into responses where the reducer cuts them (``Reducer``, which runs
    the model's ``BOUNDARY`` and ``FRAMES``): the one reading of where a response begins
    and ends, for every rule that follows a response.  An event before a response's
    ``response.created`` that gave it nothing to hold (a stray delta) is that
    response's, as the reducer reads it.  An item id names an item of its response
    only (R4, R6: a provider reuses ids and ``call_id``s across responses).  A client
    frame after the last response is no response's."""
    reducer = Reducer()
    closed = []  # per event: how many responses the reducer had closed once it was fed
    for event in events:
        reducer.feed(event)
        closed.append(len(reducer.results))
    found: list[_Response] = []
    kept = 0
    for number, result in enumerate(reducer.finish()):
        start, stop = bisect_left(closed, number), bisect_left(closed, number + 1)
        holds = _holds(result)
        found.append(_Response(kept if holds else None, start, events[start:stop]))
        kept += holds
    return found


def _numbered(responses: Sequence[_Response]) -> Iterator[tuple[int, int | None, Event]]:
    """Each event of ``responses``: where it is in its side, its response's ``number``,
    and the event."""
    for response in responses:
        for at, event in enumerate(response.events, response.start):
            yield at, response.number, event


def _key(event: Event) -> tuple[Any, str | None]:
    """What rule 2 compares of an event: its type and payload piece (the field its
    ``WireEventSpec`` names, as JSON)."""
    kind = event.get("type")
    spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
    name = spec.value_field if spec is not None and not spec.value_in_part else None
    piece = event.get(name) if name is not None else None
    typed = kind if isinstance(kind, str) else json.dumps(kind, default=repr)  # hostile
    return typed, None if piece is None else json.dumps(piece, sort_keys=True, default=repr)


def check(
    events: Sequence[Event], cuts: Iterable[int] = (), *, sentinel: bool = False
) -> list[str]:
    """The rules ``events`` through the relay break, one sentence each (module doc)."""
    data = body(events, sentinel=sentinel)
    out, repairs = relay_output(data, cuts)
    problems: list[str] = []
    emitted = [e.payload for e in read_wire_events(out) if e.payload is not None]
    upstream, behind = _responses(events), _responses(emitted)
    if answer(reduce(out)) != answer(reduce(list(events))):
        problems.append("rule 1: the answer behind the relay differs from the upstream's")
    problems += _named(events, emitted, repairs)
    problems += _finished(events, emitted, repairs)
    problems += _order(out, emitted, sentinel)
    problems += _shaped(events, emitted, repairs)
    problems += _added_up(upstream, behind)
    problems += _kept(events, emitted, repairs)
    problems += _closed(events, emitted, repairs, upstream, behind)
    problems += _once(events, emitted, repairs)
    problems += _named_openings(upstream, behind)
    problems += _not_kept_back(events)
    problems += _placed(events, emitted, upstream, behind)
    problems += _one_run(events, emitted, behind)
    problems += _listed(behind)
    problems += _parts_agree(events, emitted)
    problems += _announced(events, emitted)
    problems += _known_fields(events, emitted)
    return problems


def _named(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 2."""
    said = " ".join(change for r in repairs for change in [*r["changes"], *r["respelled"]])
    reducer = Reducer()
    for event in events:
        reducer.feed(event)
    diagnosed = {d.event_index for result in reducer.finish() for d in result.diagnostics}
    left = Counter(_key(e) for e in emitted)
    problems = []
    for index, event in enumerate(events):
        key = _key(event)
        if left[key] > 0:
            left[key] -= 1
        elif str(event.get("type")) not in said and index not in diagnosed:
            problems.append(
                f"rule 2: upstream event {index} ({event.get('type')}) neither "
                "re-emitted nor named by the log"
            )
    return problems


def _finished(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 3."""
    done = "response.output_item.done"
    upstream = {_item_id(e) for e in events if e.get("type") == done}
    said = " ".join(change for r in repairs for change in [*r["changes"], *r["respelled"]])
    return [
        f"rule 3: output_item.done for {item} the upstream never finished, unnamed"
        for e in emitted
        if e.get("type") == done
        and (item := _item_id(e)) not in upstream
        and f"{done} sent" not in said
        and f"{item}: id restored" not in said
    ]


def _item_id(event: Event) -> str | None:
    """The id of the item ``event`` carries (None: none, or one that is not a string)."""
    item = event.get("item")
    found = item.get("id") if isinstance(item, Mapping) else None
    return found if isinstance(found, str) else None


_TERMINAL_TYPES: Final = frozenset(
    name for name, spec in WIRE_EVENTS.items() if spec.event_class in TERMINALS
)


def _order(out: bytes, emitted: Sequence[Event], sentinel: bool) -> list[str]:
    """Rule 4."""
    problems = []
    for response in _responses(emitted):
        ended = False
        for event in response.events:
            kind = str(event.get("type"))
            if ended and kind not in _TERMINAL_TYPES:
                problems.append(f"rule 4: {kind} after its response's terminal")
            ended = ended or kind in _TERMINAL_TYPES
    count = out.count(DONE_FRAME)
    if count != (1 if sentinel else 0):
        problems.append(
            f"rule 4: [DONE] sent {count} times, the upstream sent it {1 if sentinel else 0}"
        )
    elif sentinel and b"data: {" in out[out.index(DONE_FRAME) :]:
        problems.append("rule 4: an event after [DONE]")
    return problems


def _lacks(event: Event) -> set[str]:
    """The fields ``event`` lacks that its published type requires: an event's own by
    its type, an item's or a part's by the item's or part's type, wherever it is
    carried (a snapshot's item is the same item as an ``output_item`` event's)."""
    return {
        f"{problem.owner.split(',')[0]}: {problem.path.rsplit('.', 1)[-1]}"
        if problem.owner
        else f"{problem.event}: {problem.path}"
        for problem in type_problems(event)
    }


def _shaped(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 5."""
    changes = [change for r in repairs for change in r["changes"]]
    upstream = set().union(*(_lacks(event) for event in events))
    missing = sorted(set().union(*(_lacks(event) for event in emitted)) - upstream)
    return [
        f"rule 5: {problem} missing, where no upstream event lacks it"
        for problem in missing
        if not _named_unsent(problem, changes)
    ]


def _named_unsent(problem: str, changes: Sequence[str]) -> bool:
    """Whether a change names ``problem`` (``_lacks``'s ``event type: field``): a
    terminal the relay made up, the field among those listed as never sent."""
    kind, _, name = problem.partition(": ")
    return any(
        change.startswith(f"{kind} made up")
        and name.rsplit(".", 1)[-1] in change.rpartition("never sent: ")[2].split(", ")
        for change in changes
    )


Accumulated = dict[tuple[int | None, Any, str], tuple[str, str | None]]
"""Per response, item id and payload field: the value a client accumulates, and the
done item's."""


def _fields(item_type: Any) -> dict[Any, str]:
    """An item type's payload fields held on the item itself, by channel kind."""
    spec = ITEM_TYPES.get(item_type) if isinstance(item_type, str) else None
    return {
        location.channel: location.field
        for location in (spec.channels if spec is not None else ())
        if not location.container and location.array is None and location.field
    }


def _accumulated(responses: Sequence[_Response]) -> Accumulated:
    """Each item's top-level payload fields as a client adds them up (rule 6)."""
    kinds: dict[Any, Any] = {}
    sums: dict[tuple[int | None, Any, str], str] = {}
    dones: dict[tuple[int | None, Any, str], str | None] = {}
    for _, response, event in _numbered(responses):
        kind, item = event.get("type"), event.get("item")
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        if kind in ("response.output_item.added", "response.output_item.done"):
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str | None):
                continue  # an ill-typed id names no item a client could add up
            kinds[response, item.get("id")] = item.get("type")
            for name in _fields(item.get("type")).values():
                value, key = item.get(name), (response, item.get("id"), name)
                if kind == "response.output_item.done":
                    dones[key] = value if isinstance(value, str) else None
                elif key not in sums:
                    sums[key] = value if isinstance(value, str) else ""
        elif spec is not None and spec.trigger is Trigger.DELTA and spec.value_field:
            if not isinstance(event.get("item_id"), str | None):
                continue
            field = _fields(kinds.get((response, event.get("item_id")))).get(spec.channel)
            key = (response, event.get("item_id"), field or "")
            delta = event.get(spec.value_field)
            if field is not None and key in sums and isinstance(delta, str):
                sums[key] += delta
    return {key: (value, dones.get(key)) for key, value in sums.items() if key in dones}


def _added_up(upstream: Sequence[_Response], behind: Sequence[_Response]) -> list[str]:
    """Rule 6."""
    sums = _accumulated(upstream).items()
    consistent = {key for key, (total, done) in sums if _leads(total, done)}
    return [
        f"rule 6: {item} {name} adds up to {total!r} behind the relay, done as {done!r}"
        for (response, item, name), (total, done) in _accumulated(behind).items()
        if not _leads(total, done) and (response, item, name) in consistent
    ]


def _leads(total: str, done: str | None) -> bool:
    """A client's sum is the done value, or the start of it (no delta is made up where
    the done carries the value)."""
    return done is None or done.startswith(total)


_PLACING: Final = frozenset({"sequence_number", "output_index", "item_id"})
"""The fields that place an event, which canonical numbers and places (rule 2)."""

_PLACES_ADDITION: Final[dict[str, tuple[str, ...]]] = {
    name.value: (addition.part_index.value, addition.position.value)
    for name, addition in PART_ADDITIONS.items()
}
"""The fields that place a part addition (an annotation's part and position in it:
``model.annotations.PART_ADDITIONS``), which canonical spells from the part."""


def _kept(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 7."""
    changes = [change for r in repairs for change in r["changes"]]
    out: dict[tuple[Any, str | None], list[Event]] = {}
    for event in emitted:
        out.setdefault(_key(event), []).append(event)
    problems = []
    for index, event in enumerate(events):
        kind = event.get("type")
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        same = out.get(_key(event))
        if spec is None or spec.event_class is not EventClass.ITEM_SCOPED or not same:
            continue
        if any(c.startswith(f"upstream event {index} ({kind}) ") for c in changes):
            continue  # logged as not passed on: the event out of its key is another's
        placing = _PLACING | {spec.index_field, *_PLACES_ADDITION.get(str(kind), ())}
        # Its own item's, where one is out: the relay sends each item's events in one
        # run, so another item's of the same type and payload may come out first.
        mine = [at for at, e in enumerate(same) if e.get("item_id") == event.get("item_id")]
        added = sorted(set(same.pop(mine[0] if mine else 0)) - set(event) - placing)
        problems += [
            f"rule 7: upstream event {index} ({kind}) passed on with {name} added, unnamed"
            for name in added
            if not any(str(kind) in change and name in change for change in changes)
        ]
    return problems


Dones = dict[tuple[int | None, str], dict[str, list[tuple[int, str]]]]
"""By response and item id: its payload and part ``done`` events and part additions, by
type (an addition by the API's name for it), and where each came in the stream, with
its type as sent."""


def _counted(kind: str) -> str:
    """The type rule 8 counts ``kind`` under: a part addition by the first name the
    model gives its addition (``ADDITION_TYPES``: the older spelling is re-spelled)."""
    addition = ADDITION_TYPES.get(kind)
    if addition is None:
        return kind
    same = PART_ADDITIONS[addition]
    return next(name for name, other in ADDITION_TYPES.items() if PART_ADDITIONS[other] == same)


def _adds_to(kind: str, item_type: Any) -> bool:
    """Whether ``kind`` is a part addition to a channel ``item_type`` holds in parts
    (an annotation to a message's text; none reaches a call)."""
    addition = ADDITION_TYPES.get(kind)
    spec = ITEM_TYPES.get(item_type) if isinstance(item_type, str) else None
    return (
        addition is not None
        and spec is not None
        and any(
            location.channel is PART_ADDITIONS[addition].channel and location.array is not None
            for location in spec.channels
        )
    )


def _dones(responses: Sequence[_Response]) -> Dones:
    """By response and id of each item an ``output_item.done`` finished: the payload and
    part ``done`` events (``Trigger.PAYLOAD_DONE``) and the part additions to its parts
    (``model.annotations.ADDITION_TYPES``) sent for it in its response."""
    finished = {
        (response, i): event["item"].get("type")
        for _, response, event in _numbered(responses)
        if event.get("type") == "response.output_item.done" and (i := _item_id(event)) is not None
    }
    found: Dones = {key: {} for key in finished}
    for at, response, event in _numbered(responses):
        kind, item = _kind(event), event.get("item_id")
        if not isinstance(item, str) or (response, item) not in finished:
            continue
        spec = WIRE_EVENTS.get(kind)
        done = spec is not None and spec.trigger is Trigger.PAYLOAD_DONE
        if done or _adds_to(kind, finished[response, item]):
            found[response, item].setdefault(_counted(kind), []).append((at, kind))
    return found


def _shared(*sides: Sequence[Event]) -> set[str]:
    """The ids an ``output_item.added`` or ``.done`` names twice on one side: no one
    item's (items that share an id, which rule 1 compares by what they hold), so rules
    8, 12, 13 and 15, which follow an item by its id, do not follow them."""
    shared: set[str] = set()
    for side in sides:
        named = Counter(
            (_kind(event), owner)
            for event in side
            if _kind(event) in _ITEM_EVENTS and (owner := _item_id(event)) is not None
        )
        shared |= {owner for (_, owner), count in named.items() if count > 1}
    return shared


def _closed(
    events: Sequence[Event],
    emitted: Sequence[Event],
    repairs: Sequence[Mapping[str, Any]],
    upstream: Sequence[_Response],
    behind: Sequence[_Response],
) -> list[str]:
    """Rule 8."""
    changes = [change for r in repairs for change in r["changes"]]
    dones = _dones(upstream)
    shared = _shared(events, emitted)
    return [
        f"rule 8: {item}'s {kind} withheld ({len(at) - len(sent.get(kind, []))} of "
        f"{len(at)}), its item finished on both sides"
        for (response, item), sent in _dones(behind).items()
        if item not in shared
        for kind, at in dones.get((response, item), {}).items()
        if len(sent.get(kind, [])) < len(at)
        and not any(c.startswith(f"upstream event {i} ({was}) ") for i, was in at for c in changes)
    ]


_ITEM_EVENTS: Final = frozenset({"response.output_item.added", "response.output_item.done"})


def _repeatable(event: Event) -> bool:
    """Whether rule 9 counts ``event``: an item's own event."""
    kind = event.get("type")
    if not isinstance(kind, str):
        return False  # hostile: a type no client reads as an item's
    spec = WIRE_EVENTS.get(kind)
    return kind in _ITEM_EVENTS or (spec is not None and spec.event_class is EventClass.ITEM_SCOPED)


def _once(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 9."""
    said = " ".join(change for r in repairs for change in [*r["changes"], *r["respelled"]])
    upstream = Counter(_key(e) for e in events if _repeatable(e))
    out = Counter(_key(e) for e in emitted if _repeatable(e))
    return [
        f"rule 9: {kind} sent {count} times, the upstream sent it {upstream[(kind, piece)]}"
        for (kind, piece), count in sorted(out.items(), key=str)
        if count > upstream[(kind, piece)] and str(kind) not in said
    ]


def _kind(event: Event) -> str:
    """``event``'s type ("" for one that is not a string: hostile input, never raised on)."""
    kind = event.get("type")
    return kind if isinstance(kind, str) else ""


def _response_ids(responses: Sequence[_Response]) -> list[str | None]:
    """Per response: the first string id its openings carry (None: none)."""
    return [
        next(
            (
                body_["id"]
                for e in response.events
                if _kind(e) in OPENING_TYPES
                and isinstance(body_ := e.get("response"), Mapping)
                and isinstance(body_.get("id"), str)
            ),
            None,
        )
        for response in responses
    ]


def _named_openings(upstream: Sequence[_Response], behind: Sequence[_Response]) -> list[str]:
    """Rule 10."""
    problems = []
    for response in behind:
        openings = [  # a response that is not an object names nothing (hostile)
            e
            for e in response.events
            if _kind(e) in OPENING_TYPES and isinstance(e.get("response"), Mapping)
        ]
        named = any(
            isinstance(body_ := e.get("response"), Mapping) and isinstance(body_.get("id"), str)
            for e in openings
        )
        if openings and not named:
            problems.append(f"rule 10: {openings[0].get('type')} out names no response")
    shared = Counter(i for i in _response_ids(behind) if i is not None)
    opened = Counter(i for i in _response_ids(upstream) if i is not None)
    problems += [
        f"rule 10: {count} responses out named {name}, {opened[name]} upstream"
        for name, count in sorted(shared.items())
        if count > max(opened[name], 1)
    ]
    return problems


def _not_kept_back(events: Sequence[Event]) -> list[str]:
    """Rule 11: the body cut after each terminal the model lets no later one amend."""
    problems = []
    for index, event in enumerate(events):
        kind = event.get("type")
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        terminal = TERMINALS.get(spec.event_class) if spec is not None else None
        if terminal is None or KERNELS.amends(terminal):
            continue
        relay = Relay()
        relay.feed(body(events[: index + 1], sentinel=False))
        late = [e.payload for e in read_wire_events(relay.close()) if e.payload is not None]
        problems += [
            f"rule 11: {e.get('type')} kept back after upstream event {index} ({kind})"
            for e in late
            if _kind(e) in _TERMINAL_TYPES
        ]
    return problems


def _owner(event: Event) -> str | None:
    """The id of the item ``event`` is about: its item's, or its ``item_id``."""
    owner = _item_id(event)
    if owner is None and _kind(event) not in _ITEM_EVENTS:
        found = event.get("item_id")
        owner = found if isinstance(found, str) else None
    return owner


def _terminal_output(response: Sequence[Event]) -> list[Any] | None:
    """The ``output`` of a response's last terminal that carries one (None: none)."""
    for event in reversed(response):
        body_ = event.get("response")
        if _kind(event) in _TERMINAL_TYPES and isinstance(body_, Mapping):
            output = body_.get("output")
            if isinstance(output, list):
                return output
    return None


Places = dict[str, tuple[frozenset[str], int | None, tuple[Any, ...]]]
"""Per item id of one response only: the ``output_index`` values its events carry (as
JSON), its position in its response's terminal ``output`` (None: not there), and the
ids that ``output`` lists."""


def _places(responses: Sequence[_Response]) -> Places:
    """Rule 12's reading of one side (an id in two responses is no one item's)."""
    places: Places = {}
    seen: Counter[str] = Counter()
    for response in responses:
        indexes: dict[str, set[str]] = {}
        for event in response.events:
            owner = _owner(event)
            if owner is not None and "output_index" in event:
                indexes.setdefault(owner, set()).add(json.dumps(event["output_index"]))
        output = _terminal_output(response.events) or []
        listed = tuple(item.get("id") if isinstance(item, Mapping) else None for item in output)
        position = {owner: at for at, owner in enumerate(listed) if isinstance(owner, str)}
        for owner, found in indexes.items():
            seen[owner] += 1
            places[owner] = (frozenset(found), position.get(owner), listed)
    return {owner: place for owner, place in places.items() if seen[owner] == 1}


def _crowded(responses: Sequence[_Response]) -> set[str]:
    """The ids of items an index their response's ``output_item`` events give them is
    another item's too (one with another id, or none): a slot two items share (rule 12)."""
    crowded: set[str] = set()
    for response in responses:
        holders: dict[str, set[str | None]] = {}
        for event in response.events:
            if _kind(event) in _ITEM_EVENTS and "output_index" in event:
                at = json.dumps(event["output_index"], default=repr)
                holders.setdefault(at, set()).add(_item_id(event))
        crowded |= {o for found in holders.values() if len(found) > 1 for o in found if o}
    return crowded


def _placed(
    events: Sequence[Event],
    emitted: Sequence[Event],
    upstream: Sequence[_Response],
    behind: Sequence[_Response],
) -> list[str]:
    """Rule 12."""
    places, shared, crowded = _places(upstream), _shared(events, emitted), _crowded(upstream)
    problems = []
    for owner, (indexes, position, listed) in _places(behind).items():
        there = places.get(owner)
        if len(indexes) > 1 and there is not None and len(there[0]) == 1 and owner not in shared:
            problems.append(
                f"rule 12: {owner}'s events at output_index {', '.join(sorted(indexes))}"
            )
        if (
            shared & {owner, *listed}
            or owner in crowded
            or there is None
            or there[1] is None
            or there[0] != {str(there[1])}
        ):
            continue  # the upstream did not place it at its position
        if listed == there[2] and indexes != {str(position)}:
            problems.append(
                f"rule 12: {owner} at output_index {', '.join(sorted(indexes))}, its "
                f"position in the terminal's output {position}, as upstream"
            )
    return problems


def _client_call(item: Any) -> bool:
    """Whether ``item`` is of a client call's type (``ItemTypeSpec.client_call``)."""
    kind = item.get("type") if isinstance(item, Mapping) else None
    spec = ITEM_TYPES.get(kind) if isinstance(kind, str) else None
    return spec is not None and spec.client_call


def _one_run(
    events: Sequence[Event], emitted: Sequence[Event], behind: Sequence[_Response]
) -> list[str]:
    """Rule 13."""
    before: dict[str, int] = {}  # where the upstream announced each item
    for at, event in enumerate(events):
        owner = _item_id(event)
        if event.get("type") == "response.output_item.added" and owner is not None:
            before.setdefault(owner, at)
    for owner in _shared(events, emitted) & before.keys():
        del before[owner]
    problems = []
    for response in (r.events for r in behind):
        owners = [_owner(event) for event in response]
        for start, event in enumerate(response):
            call, index = _item_id(event), event.get("output_index")
            if (
                event.get("type") != "response.output_item.added"
                or not _client_call(event.get("item"))
                or not isinstance(index, int)
            ):
                continue
            ends = [
                at
                for at in range(start + 1, len(response))
                if owners[at] == call and response[at].get("type") == "response.output_item.done"
            ]
            last = ends[0] if ends else max(at for at, owner in enumerate(owners) if owner == call)
            problems += [
                f"rule 13: {owners[at]} announced inside {call}'s run"
                for at in range(start + 1, last)
                if response[at].get("type") == "response.output_item.added"
                and owners[at] != call
                and (
                    (isinstance(later := response[at].get("output_index"), int) and later > index)
                    or before.get(str(owners[at]), len(events)) < before.get(str(call), -1)
                )
            ]
    return problems


def _listed(behind: Sequence[_Response]) -> list[str]:
    """Rule 14."""
    problems = []
    for response in (r.events for r in behind):
        output = _terminal_output(response)
        if output is None:
            continue
        listed = {_item_id({"item": item}) for item in output}
        problems += [
            f"rule 14: {owner} finished, not in its terminal's output"
            for event in response
            if event.get("type") == "response.output_item.done"
            and (owner := _item_id(event)) is not None
            and owner not in listed
        ]
    return problems


def _part_arrays(item_type: Any) -> dict[str, str]:
    """An item type's part arrays by the index field their events carry
    (``content_index`` -> ``content``), from the catalogue's channels and wire events."""
    spec = ITEM_TYPES.get(item_type) if isinstance(item_type, str) else None
    arrays = {
        location.channel: location.array
        for location in (spec.channels if spec is not None else ())
        if location.array is not None
    }
    return {
        wire.index_field: arrays[wire.channel]
        for wire in WIRE_EVENTS.values()
        if wire.channel in arrays and wire.index_field is not None
    }


def _agreeing_parts(events: Sequence[Event]) -> dict[tuple[str, str, str], bool]:
    """Per (item id, part ``done`` type, index): whether each such ``done`` holds the
    part the item's last ``output_item.done`` holds at that index (rule 15)."""
    finished = {
        owner: item
        for event in events
        if event.get("type") == "response.output_item.done"
        and (owner := _item_id(event)) is not None
        and isinstance(item := event.get("item"), Mapping)
    }
    agree: dict[tuple[str, str, str], bool] = {}
    for event in events:
        kind, owner = event.get("type"), event.get("item_id")
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        if spec is None or spec.trigger is not Trigger.PAYLOAD_DONE or not spec.value_in_part:
            continue
        item = finished.get(owner) if isinstance(owner, str) else None
        if item is None or spec.index_field is None or "part" not in event:
            continue
        index = event.get(spec.index_field)
        array = item.get(_part_arrays(item.get("type")).get(spec.index_field, ""))
        held = (
            array[index]
            if isinstance(array, list) and isinstance(index, int) and 0 <= index < len(array)
            else None
        )
        key = (str(owner), str(kind), json.dumps(index))
        agree[key] = agree.get(key, True) and _same_where_both(held, event["part"])
    return agree


def _same_where_both(held: Any, part: Any) -> bool:
    """Whether two parts hold the same value in every field both carry (a field one
    leaves out, such as ``logprobs``, is rule 5's and 7's to judge)."""
    if not isinstance(held, Mapping) or not isinstance(part, Mapping):
        return bool(held == part)
    return all(held[name] == part[name] for name in held.keys() & part.keys())


def _parts_agree(events: Sequence[Event], emitted: Sequence[Event]) -> list[str]:
    """Rule 15."""
    upstream, shared = _agreeing_parts(events), _shared(events, emitted)
    return [
        f"rule 15: {owner}'s {kind} at {index} is not its done item's part"
        for (owner, kind, index), agrees in _agreeing_parts(emitted).items()
        if not agrees and upstream.get((owner, kind, index)) and owner not in shared
    ]


def _statuses(events: Sequence[Event], sent: set[str]) -> dict[str, bool]:
    """Per item id: whether an upstream copy of the item (an ``output_item`` event's, a
    terminal ``output``'s) carries a ``status``.  A copy is named by its ``id`` or by the
    ``item_id`` a gateway puts inside it (``catalogue.STRAY_ITEM_FIELDS``).  A copy with
    a status named by no id the relay ``sent`` (none, or one the reducer replaced) may
    be any item's: then none is judged (``{}``)."""
    found: dict[str, bool] = {}
    for event in events:
        items = [event.get("item")]
        response = event.get("response")
        if _kind(event) in _TERMINAL_TYPES and isinstance(response, Mapping):
            output = response.get("output")
            items += output if isinstance(output, list) else []
        for item in items:
            if not isinstance(item, Mapping):
                continue
            owners = {o for n in ("id", *STRAY_ITEM_FIELDS) if isinstance(o := item.get(n), str)}
            if "status" in item and not owners & sent:
                return {}
            for owner in owners:
                found[owner] = found.get(owner, False) or "status" in item
    return found


def _added_status(item_type: str) -> Any:
    """The status the recordings give every added item of ``item_type`` (None: none)."""
    entry = published.shapes()["items"].get(item_type)  # the loader by its module's name
    values = entry["recorded"].get("added", {}).get("values", {}) if entry else {}
    held = values.get("status")
    return held.get("constant") if isinstance(held, Mapping) else None


_EMPTY: Final[tuple[Any, ...]] = ("", [], {}, None)
"""The values an announced payload field holds before its payload comes."""


def _announced(events: Sequence[Event], emitted: Sequence[Event]) -> list[str]:
    """Rule 16."""
    added = {
        owner: event["item"]
        for event in events
        if event.get("type") == "response.output_item.added" and (owner := _item_id(event))
    }
    statuses = _statuses(events, {owner for e in emitted if (owner := _item_id(e))})
    problems = []
    for event in emitted:
        owner, item = _item_id(event), event.get("item")
        if event.get("type") != "response.output_item.added" or not isinstance(item, Mapping):
            continue
        if "status" in item and statuses.get(str(owner)) is False:
            problems.append(f"rule 16: {owner} announced with a status no upstream copy has")
        first = added.get(owner, {}) if owner is not None else {}
        status = _added_status(str(item.get("type")))
        if status is not None and item.get("status", status) not in (
            status,
            "in_progress",
            first.get("status"),
        ):
            problems.append(f"rule 16: {owner} announced {item['status']!r}")
        problems += [
            f"rule 16: {owner} announced with its {name}, which the upstream announced empty"
            for name, value in first.items()
            if value in _EMPTY
            and item.get(name) not in _EMPTY
            and item.get("type") == first.get("type")  # an item re-typed is another's
        ]
    return problems


def _known_fields(events: Sequence[Event], emitted: Sequence[Event]) -> list[str]:
    """Rule 17 (an event type the published types and the recordings do not know is not
    judged: nothing says what its fields are)."""
    sent: dict[str, set[str]] = {}
    for event in events:
        sent.setdefault(_kind(event), set()).update(event)
    found = {
        (kind, name)
        for event in emitted
        if (known := fields("events", kind := _kind(event)))
        for name in set(event) - known - _PLACING - sent.get(kind, set())
    }
    return [
        f"rule 17: {kind} out with {name}, a field of no such event" for kind, name in sorted(found)
    ]
