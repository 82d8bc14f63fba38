"""A worked example: a short stream, and what the reducer made of it.

``Example`` is the data (a stream, either decoded events or raw SSE text when the
framing is the point, plus the diagnostic codes the example exists to show).
``run`` feeds it to ``Reducer(trace=True)`` — the public reducer, the same code path as
``responses-oracle explain`` — and keeps, per response, every event with its
``StepTrace`` and the result.
Nothing a documentation page shows about an example is written by hand: the page
renders a ``Run``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from responses_oracle.model.vocabulary import Code

from ..core.step import StepTrace
from ..reducer import Reducer
from ..result import Result, item_positions
from ..wire.formats import read_wire_events
from ..wire.records import WireEvent
from .wire_builders import Event


class _Copied:
    """``Example.events``: kept as given (a tuple), read as a deep copy of it."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._kept = f"_{name}_kept"

    def __get__(self, example: Example | None, owner: type) -> tuple[Event, ...]:
        if example is None:  # the dataclass asks the class for the field's default
            return ()
        kept: tuple[Event, ...] = getattr(example, self._kept)
        return copy.deepcopy(kept)

    def __set__(self, example: Example, events: Iterable[Event]) -> None:
        object.__setattr__(example, self._kept, tuple(events))


@dataclass(frozen=True)
class Example:
    """A stream to reduce on a documentation page.

    Exactly one of ``events`` (decoded JSON objects, fed in order) and ``sse`` (the raw
    text of an SSE body, decoded by the wire front end) is given.  ``shows`` lists the
    diagnostic codes the example is there to demonstrate; a test checks that the
    reducer still raises every one of them, so an example cannot silently stop showing
    what its page says.  ``replay`` asks the page to show, below each result, the
    next request's ``input`` items (``replay_input``, rule R12).
    """

    caption: str
    events: _Copied = _Copied()
    """The decoded events, handed out as a fresh deep copy on every read: an example is
    shared by every page and test that reads it, so what one of them edits (an item's
    ``name``, to try a variant) must never be what the next one reads."""
    sse: str | None = None
    shows: tuple[Code, ...] = ()
    replay: bool = False

    def __post_init__(self) -> None:
        if bool(self.events) == (self.sse is not None):
            raise ValueError("an Example has either events or sse, not both or neither")


@dataclass(frozen=True)
class Row:
    """One input event: its index, its ``type`` (None if it had none), and its trace.

    ``trace`` is None for an event that never reached the core (undecodable, not an
    object, no ``type``): the reducer reported it as a diagnostic instead.
    """

    index: int
    type: str | None
    trace: StepTrace | None


@dataclass(frozen=True)
class Response:
    """One reduced response: its events, its result, and where each entry ended up."""

    rows: tuple[Row, ...]
    result: Result
    positions: Mapping[int, int]
    """Entry admission ordinal → position of its item in ``result.items``."""


@dataclass(frozen=True)
class Run:
    """What the reducer did with an example, response by response."""

    responses: tuple[Response, ...]

    def codes(self) -> frozenset[Code]:
        """Every diagnostic code raised, in any response."""
        return frozenset(
            d.code for response in self.responses for d in response.result.diagnostics
        )


def inputs(example: Example) -> Iterator[tuple[int, Any, Mapping[str, Any] | WireEvent]]:
    """(index, decoded payload, what to feed) for every event of ``example``."""
    if example.sse is not None:
        for wire in read_wire_events(example.sse.encode("utf-8")):
            yield wire.index, wire.payload, wire
    else:
        for index, event in enumerate(example.events):
            yield index, event, event


def run(example: Example) -> Run:
    """Reduce ``example`` with tracing on, keeping each response's events together.

    A response is closed by the reducer when the next ``response.created`` arrives or
    at the end of input; the state just before that is read (``Reducer.snapshot``) to
    know which item each entry became.
    """
    reducer = Reducer(trace=True)
    traces = reducer.traces
    assert traces is not None
    responses: list[Response] = []
    rows: list[Row] = []
    snapshot = reducer.snapshot()
    for index, payload, event in inputs(example):
        type_ = payload.get("type") if isinstance(payload, Mapping) else None
        if type_ == "response.created":
            snapshot = reducer.snapshot()
        closed, traced = len(reducer.results), len(traces)
        reducer.feed(event)
        if len(reducer.results) > closed:
            result = reducer.results[-1]
            responses.append(Response(tuple(rows), result, item_positions(snapshot.entries)))
            rows = []
        trace = traces[-1] if len(traces) > traced else None
        rows.append(Row(index, type_ if isinstance(type_, str) else None, trace))
    snapshot = reducer.snapshot()
    closed = len(reducer.results)
    if len(reducer.finish()) > closed:
        result = reducer.results[-1]
        responses.append(Response(tuple(rows), result, item_positions(snapshot.entries)))
    return Run(tuple(responses))
