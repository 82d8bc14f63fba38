"""From a stream to the timeline's data: lanes, state segments and marks, per response.

Theory of operation
-------------------
The reducer runs exactly as ``responses-oracle explain`` runs it
(``responses_oracle.cli.explain.explain_events``: ``Reducer(trace=True)``, one
``StepTrace`` per event the core stepped, each entry named by its position in the
result's ``items``).  Nothing is decided here: every route, transition and diagnostic
drawn is one the reducer reported.  This module only lays those facts out in time:

- one **lane** per output item of the result (in output order), plus the response lane
  for every event that touched no single item (``response.created``, the terminal,
  keepalives, unknown types, rejected or dropped payload events, undecodable bytes);
- per item lane, **segments**: the lifecycle state the item was in from each event
  that moved it (the trace's ``after`` state) to the next.  A terminal event settles
  every entry at once and its trace names none, so the lane's last segment starts at
  the first terminal event (the only one that counts, R9) with the state the result
  gives the item;
- **marks**: one per event, on the lane of the item it touched; diagnostics ride on the
  mark of the event they name, and those raised at the end of input on a mark of their
  own in the response lane's end column.

Long streams: when a response has more than ``fold_above`` events, consecutive events
of one type on one lane that raised nothing and are not milestones of the item
(``MILESTONES``: admission, ``*.done``, the terminal...) are folded into one *run*
mark, with its first and last index, its event count and the characters of payload it
carried.  A 100,000-event stream is mostly argument and text deltas, so its page holds
a few runs per item instead of a mark per delta.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, cast

from responses_oracle.cli.explain import EventRow, Explained, explain_events
from responses_oracle.core.state import Diagnostic
from responses_oracle.core.step import DEFAULT_LIMITS, ReducerLimits
from responses_oracle.model.catalogue import WIRE_EVENTS, EventClass
from responses_oracle.model.vocabulary import EntryState, Trigger
from responses_oracle.result import Result, ResultItem
from responses_oracle.wire.records import WireEvent

FOLD_ABOVE: Final = 2000
"""Responses with more events than this fold runs of routine events into one mark."""

JSON_CHARS: Final = 4000
"""Longest event JSON a mark keeps; a longer one is cut, and the page says so."""


class Kind(Enum):
    """What a mark stands for; the page draws each kind its own way."""

    START = "start"
    ADDED = "added"
    DELTA = "delta"
    PAYLOAD_DONE = "payload_done"
    DONE = "done"
    TERMINAL = "terminal"
    SNAPSHOT = "snapshot"
    OTHER = "other"
    NOT_REDUCED = "not_reduced"
    END_OF_INPUT = "end_of_input"


MILESTONES: Final[frozenset[Kind]] = frozenset(
    {
        Kind.START,
        Kind.ADDED,
        Kind.PAYLOAD_DONE,
        Kind.DONE,
        Kind.TERMINAL,
        Kind.SNAPSHOT,
        Kind.NOT_REDUCED,
        Kind.END_OF_INPUT,
    }
)
"""Kinds never folded into a run: each is a step of an item's or the response's life."""

_TERMINALS: Final[frozenset[EventClass]] = frozenset(
    {
        EventClass.RESPONSE_COMPLETED,
        EventClass.RESPONSE_INCOMPLETE,
        EventClass.RESPONSE_FAILED,
        EventClass.RESPONSE_CANCELLED,
        EventClass.ERROR,
    }
)
"""Event classes that end a response (R9)."""


@dataclass(frozen=True, slots=True)
class Segment:
    """An item in one lifecycle state, from event ``start`` up to (not including) ``end``."""

    start: int
    end: int
    state: EntryState


@dataclass(frozen=True, slots=True)
class Lane:
    """One output item: its place in the result, and its states over time."""

    position: int
    entry: ResultItem
    segments: tuple[Segment, ...]
    shared_slot: bool
    """Another item of the response has the same ``output_index`` (R3: the slot was reused)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One event, or a run of routine events, on one lane.

    ``row`` is the explain row of the first event and ``event`` that event as the front
    end gave it (both None for the end-of-input mark).
    """

    kind: Kind
    lane: int | None
    """Position of the item in ``items``; None for the response lane."""
    first: int
    last: int
    count: int
    chars: int
    """Characters of payload the folded events carried (``value_field``), for runs."""
    row: EventRow | None
    event: WireEvent | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def payload(self) -> str:
        """The first event's JSON as the page shows it (``event_json``)."""
        return "" if self.event is None else event_json(self.event)


@dataclass(frozen=True, slots=True)
class ResponseTimeline:
    """One response laid out in time: columns ``first`` … ``end`` (``end``: end of input)."""

    result: Result
    first: int
    end: int
    lanes: tuple[Lane, ...]
    marks: tuple[Mark, ...]
    folded: bool

    @property
    def columns(self) -> int:
        """Event columns drawn, the end-of-input column included."""
        return self.end - self.first + 1


@dataclass(frozen=True, slots=True)
class Timeline:
    """A whole stream: its responses, and its decoded events (for the candidate's side)."""

    responses: tuple[ResponseTimeline, ...]
    payloads: tuple[Any, ...]
    """Each event's decoded JSON (None if undecodable), by event index."""

    @property
    def results(self) -> list[Result]:
        """The reducer's result of each response."""
        return [response.result for response in self.responses]


def kind_of(row: EventRow, payload: Any) -> Kind:
    """The kind of mark an event makes, from its wire class and its trace."""
    if row.trace is None:
        return Kind.NOT_REDUCED
    spec = WIRE_EVENTS.get(row.trace.type)
    if spec is None:
        return Kind.OTHER
    event_class = spec.event_class
    if event_class is EventClass.RESPONSE_STARTED:
        return Kind.START
    if event_class is EventClass.ITEM_ADDED:
        return Kind.ADDED
    if event_class is EventClass.ITEM_DONE:
        return Kind.DONE
    if event_class in _TERMINALS:
        response = payload.get("response") if isinstance(payload, Mapping) else None
        output = response.get("output") if isinstance(response, Mapping) else None
        return Kind.SNAPSHOT if isinstance(output, list) and output else Kind.TERMINAL
    if spec.trigger is Trigger.DELTA:
        return Kind.DELTA
    if spec.trigger is Trigger.PAYLOAD_DONE:
        return Kind.PAYLOAD_DONE
    return Kind.OTHER


def _payload_chars(row: EventRow, payload: Any) -> int:
    """Characters of the payload field an event carries (a delta's ``delta``...)."""
    spec = WIRE_EVENTS.get(row.type or "")
    if spec is None or spec.value_field is None or not isinstance(payload, Mapping):
        return 0
    value = payload.get(spec.value_field)
    return len(value) if isinstance(value, str) else 0


def event_json(event: WireEvent) -> str:
    """An event as the page shows it: its JSON, or what the front end could not decode."""
    if event.problem is not None:
        text = f"({event.problem.value}: {event.detail or ''})\n{event.raw or ''}"
    else:
        # ``default=repr``: a library caller's events may hold values JSON cannot say.
        text = json.dumps(event.payload, ensure_ascii=False, indent=2, default=repr)
    if len(text) > JSON_CHARS:
        text = f"{text[:JSON_CHARS]}\n… ({len(text) - JSON_CHARS} more characters not shown)"
    return text


def _segments(
    moves: list[tuple[int, EntryState]], entry: ResultItem, terminal: int | None, end: int
) -> tuple[Segment, ...]:
    """An item's segments from the states its events moved it to, by event index.

    A folded run only holds events that left the item's state as it was, so the marks
    (runs included) carry every move.
    """
    settle = terminal if terminal is not None else end
    if not moves or moves[-1][1] is not entry.state:
        moves.append((settle if not moves else max(settle, moves[-1][0]), entry.state))
    merged: list[tuple[int, EntryState]] = []
    for index, state in moves:
        if not merged or merged[-1][1] is not state:
            merged.append((index, state))
    bounds = [index for index, _ in merged[1:]] + [end + 1]
    return tuple(
        Segment(start, stop, state)
        for (start, state), stop in zip(merged, bounds, strict=True)
        if stop > start
    )


class _Runs:
    """Folds consecutive routine events of one type on one lane into run marks."""

    def __init__(self, fold: bool) -> None:
        self.fold = fold
        self.marks: list[Mark] = []
        self._open: dict[int | None, int] = {}
        """Lane → position in ``marks`` of the run it may still extend."""

    def add(self, mark: Mark) -> None:
        foldable = self.fold and mark.kind not in MILESTONES and not mark.diagnostics
        at = self._open.get(mark.lane)
        trace = mark.row.trace if mark.row is not None else None
        # Only an event that moved no state joins a run: every move stays a mark's own.
        if foldable and at is not None and (trace is None or trace.before is trace.after):
            run = self.marks[at]
            if run.row is not None and mark.row is not None and run.row.type == mark.row.type:
                self.marks[at] = Mark(
                    run.kind,
                    run.lane,
                    run.first,
                    mark.last,
                    run.count + 1,
                    run.chars + mark.chars,
                    run.row,
                    run.event,
                    (),
                )
                return
        self.marks.append(mark)
        if foldable:
            self._open[mark.lane] = len(self.marks) - 1
        else:
            self._open.pop(mark.lane, None)


def _response(
    explained: Explained, events: Mapping[int, WireEvent], fold_above: int
) -> ResponseTimeline:
    rows = explained.rows
    result = explained.result
    by_event = explained.diagnostics_by_event()
    first = rows[0].index if rows else 0
    end = rows[-1].index + 1 if rows else first
    runs = _Runs(fold=len(rows) > fold_above)
    terminal: int | None = None
    for row in rows:
        event = events[row.index]
        kind = kind_of(row, event.payload)
        if terminal is None and kind in (Kind.TERMINAL, Kind.SNAPSHOT):
            terminal = row.index
        runs.add(
            Mark(
                kind,
                explained.item_of(row),
                row.index,
                row.index,
                1,
                _payload_chars(row, event.payload),
                row,
                event,
                tuple(by_event.get(row.index, ())),
            )
        )
    at_end = tuple(by_event.get(None, ()))
    if at_end:
        runs.add(Mark(Kind.END_OF_INPUT, None, end, end, 0, 0, None, None, at_end))
    moves: dict[int, list[tuple[int, EntryState]]] = {}
    for mark in runs.marks:
        trace = mark.row.trace if mark.row is not None else None
        if mark.lane is not None and trace is not None and trace.after is not None:
            moves.setdefault(mark.lane, []).append((mark.first, trace.after))
    slots = [entry.output_index for entry in result.items]
    lanes = tuple(
        Lane(
            position,
            entry,
            _segments(moves.get(position, []), entry, terminal, end),
            entry.output_index is not None and slots.count(entry.output_index) > 1,
        )
        for position, entry in enumerate(result.items)
    )
    # A run keeps the place of its first event; in index order, the arrow keys of the
    # page step through the marks as they happened.
    marks = tuple(sorted(runs.marks, key=lambda mark: mark.first))
    return ResponseTimeline(result, first, end, lanes, marks, runs.fold)


def _wire(events: Iterable[Mapping[str, Any] | WireEvent]) -> Iterator[WireEvent]:
    """Every event as a ``WireEvent``: decoded objects are numbered as the reducer does."""
    index = 0
    for event in events:
        if isinstance(event, WireEvent):
            index = event.index + 1
            yield event
        else:
            # Anything else is passed on as it is: the reducer reports a non-object.
            yield WireEvent(index, cast(dict[str, Any], event))
            index += 1


def build_timeline(
    events: Iterable[Mapping[str, Any] | WireEvent],
    *,
    limits: ReducerLimits = DEFAULT_LIMITS,
    fold_above: int = FOLD_ABOVE,
) -> Timeline:
    """Reduce ``events`` (decoded objects, or ``WireEvent``s from the front end) with
    traces on and lay every response out in time."""
    seen: dict[int, WireEvent] = {}

    def kept() -> Iterator[WireEvent]:
        for event in _wire(events):
            seen[event.index] = event
            yield event

    responses = [
        _response(explained, seen, fold_above)
        for explained in explain_events(kept(), limits)
    ]
    payloads = tuple(seen[index].payload for index in sorted(seen))
    return Timeline(tuple(responses), payloads)
