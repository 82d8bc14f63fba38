"""The relay refines the upstream: what a client gets behind the proxy is the upstream's
answer, every difference named.

``check(events, cuts, sentinel)`` plays one upstream body through a ``Relay`` -- the
events framed as SSE, ``data: [DONE]`` after them if ``sentinel``, the bytes cut at
``cuts`` -- and returns what breaks these rules (an empty list: it refines):

1. **The answer is kept.**  ``reduce`` of the relay's output has the responses of
   ``reduce`` of the upstream: the same statuses, and per response the same items in
   the same order, each with the same id, type, payloads and executability (``answer``).
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
   response after its terminal -- an event that opens another response, as the reducer
   reads openings and client frames from the model (``starts_new``, ``frame_closes``),
   is the next response's, whichever opening it is; ``[DONE]`` once if the upstream
   sent it, never otherwise, and after every event.
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
8. **A finished item's ``done`` events are not withheld.**  Of an item both the
   upstream and the relay finished (``output_item.done``), every payload and part
   ``done`` the upstream sent (``Trigger.PAYLOAD_DONE``: ``output_text.done``,
   ``content_part.done``, ...) is sent for it too (as many of each type: canonical may
   realign a part's index, ``part_realigned``), unless the
   log names that upstream event by its place, with why (``upstream event N (type)
   ...``: it reached no item, came after its terminal, repeated one): a withholding a
   relay rule makes, not a difference the end-of-response comparison merely notices.

9. **Nothing is sent more often than the upstream sent it.**  Of an item's events (its
   ``output_item`` events and its own stream's, ``EventClass.ITEM_SCOPED``), each type
   and payload piece (rule 2's match) goes out at most as many times as it came, unless
   the log names the event's type (a delta replaced, an event the upstream left out
   sent): a client that appends each delta, or each annotation, reads each once.

Nothing here imports the canonicalizer's internals: it reads the relay's bytes, its
``repairs`` and the reducer's results and diagnostics, so an edit of the canonicalizer
or the relay cannot move the expectation with it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.model.annotations import PART_ADDITIONS
from responses_oracle.model.catalogue import ITEM_TYPES, TERMINALS, WIRE_EVENTS, EventClass
from responses_oracle.model.responses import frame_closes, starts_new
from responses_oracle.model.vocabulary import Trigger
from responses_oracle.reducer import Reducer, reduce
from responses_oracle.result import Result
from responses_oracle.serve.server import Framing
from responses_oracle.serve.shapes import type_problems
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
    """Per response with anything in it: its status and items (rule 1)."""
    return [
        (
            r.status.value,
            [
                ({k: v for k, v in i.item.items() if k not in _NOT_COMPARED}, i.executable)
                for i in r.items
            ],
        )
        for r in results
        if _holds(r)
    ]


def _holds(result: Result) -> bool:
    """Whether a response has anything in it: an id, an item, or an end of its own."""
    return (
        result.response_id is not None or bool(result.items) or result.status.value != "interrupted"
    )


def _responses(events: Sequence[Event]) -> list[int | None]:
    """Per event, the response it belongs to, as the reducer splits ``events``: the
    number of the responses with anything in them (``_holds``) before it; None in one
    with nothing (the relay sends nothing of it).  An item id names an item of its
    response only (R4, R6: a provider reuses ids and ``call_id``s across responses)."""
    reducer = Reducer()
    at = []
    for event in events:
        reducer.feed(event)
        at.append(len(reducer.results))
    kept: list[int | None] = []
    for result in reducer.finish():
        kept.append(sum(n is not None for n in kept) if _holds(result) else None)
    return [kept[n] if n < len(kept) else None for n in at]


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
    if answer(reduce(out)) != answer(reduce(list(events))):
        problems.append("rule 1: the answer behind the relay differs from the upstream's")
    problems += _named(events, emitted, repairs)
    problems += _finished(events, emitted, repairs)
    problems += _order(out, emitted, sentinel)
    problems += _shaped(events, emitted, repairs)
    problems += _added_up(events, emitted)
    problems += _kept(events, emitted, repairs)
    problems += _closed(events, emitted, repairs)
    problems += _once(events, emitted, repairs)
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


def _opens(event: Event, ended: bool, held: str | None) -> bool:
    """Whether ``event`` ends the response held and starts another, as the reducer
    decides it: an opening (``created``, ``queued``, ``in_progress``) by the model's
    ``BOUNDARY``, a client frame by its ``FRAMES`` (``model/responses.py``)."""
    kind = event.get("type")
    return starts_new(KERNELS.boundary, KERNELS.reads_opening, event, ended, True, held) or (
        isinstance(kind, str) and frame_closes(KERNELS.frame, KERNELS.reads_frame, kind)
    )


def _order(out: bytes, emitted: Sequence[Event], sentinel: bool) -> list[str]:
    """Rule 4."""
    problems = []
    ended, held = False, None
    for event in emitted:
        kind = str(event.get("type"))
        response = event.get("response")
        if _opens(event, ended, held):
            ended, held = False, None
        elif ended and kind not in _TERMINAL_TYPES:
            problems.append(f"rule 4: {kind} after its response's terminal")
        ended = ended or kind in _TERMINAL_TYPES
        if isinstance(response, Mapping) and isinstance(response.get("id"), str):
            held = held or response["id"]
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


def _accumulated(events: Sequence[Event]) -> Accumulated:
    """Each item's top-level payload fields as a client adds them up (rule 6)."""
    kinds: dict[Any, Any] = {}
    sums: dict[tuple[int | None, Any, str], str] = {}
    dones: dict[tuple[int | None, Any, str], str | None] = {}
    for response, event in zip(_responses(events), events, strict=True):
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


def _added_up(events: Sequence[Event], emitted: Sequence[Event]) -> list[str]:
    """Rule 6."""
    upstream, out = _accumulated(events), _accumulated(emitted)
    consistent = {key for key, (total, done) in upstream.items() if _leads(total, done)}
    return [
        f"rule 6: {item} {name} adds up to {total!r} behind the relay, done as {done!r}"
        for (response, item, name), (total, done) in out.items()
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


Dones = dict[tuple[int | None, str], dict[str, list[int]]]
"""By response and item id: its payload and part ``done`` events by type, and where
each came in the stream."""


def _dones(events: Sequence[Event]) -> Dones:
    """By response and id of each item an ``output_item.done`` finished: the payload
    and part ``done`` events (``Trigger.PAYLOAD_DONE``) sent for it in its response."""
    done = "response.output_item.done"
    responses = _responses(events)
    found: Dones = {
        (response, item): {}
        for response, e in zip(responses, events, strict=True)
        if e.get("type") == done and (item := _item_id(e)) is not None
    }
    for at, (response, event) in enumerate(zip(responses, events, strict=True)):
        kind = event.get("type")
        spec = WIRE_EVENTS.get(kind) if isinstance(kind, str) else None
        item = event.get("item_id")
        if spec is None or spec.trigger is not Trigger.PAYLOAD_DONE:
            continue
        if isinstance(item, str) and (response, item) in found:
            found[response, item].setdefault(str(kind), []).append(at)
    return found


def _closed(
    events: Sequence[Event], emitted: Sequence[Event], repairs: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Rule 8."""
    changes = [change for r in repairs for change in r["changes"]]
    upstream, out = _dones(events), _dones(emitted)
    return [
        f"rule 8: {item}'s {kind} withheld ({len(at) - len(sent.get(kind, []))} of "
        f"{len(at)}), its item finished on both sides"
        for (response, item), sent in out.items()
        for kind, at in upstream.get((response, item), {}).items()
        if len(sent.get(kind, [])) < len(at)
        and not any(c.startswith(f"upstream event {i} ({kind}) ") for i in at for c in changes)
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
