"""The public reducer: events in, one ``Result`` per response out.

``Reducer`` is the incremental face (feed events one at a time, as they arrive);
``reduce`` is the one-call face (a file, bytes, or events → results).  Both only glue
the pieces together: the front end (``wire``) turns bytes into ``WireEvent``s, the core
(``core.step``) folds validated events into a ``ResponseState``, and ``result`` reads
the state out.  A file may hold several responses back to back (a tool loop): every
``response.created`` after the first starts a new result.

Nothing here raises on bad input.  Problems the front end found (bytes that are not
JSON, a JSON value that is not an object, a missing ``type``) become diagnostics of the
response they occur in, and the rest of the stream is still reduced.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import IO, Any, BinaryIO, cast

from responses_oracle.model.catalogue import STARTING_EVENT
from responses_oracle.model.invariants import ResponseSnapshot
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import Code

from .core.events import parse_event
from .core.kernels import KERNELS
from .core.state import Diagnostic, ResponseState
from .core.step import (
    DEFAULT_LIMITS,
    ReducerLimits,
    StepTrace,
    advancer,
    end_of_input,
    step,
)
from .result import Result, build_result
from .wire import DEFAULT_LIMITS as DEFAULT_WIRE_LIMITS
from .wire import InputFormat, Limits, WireEvent, read_wire_events

_STARTS = STARTING_EVENT


class Reducer:
    """Reduce a stream of events incrementally.

    ``kernels`` and ``limits`` are bound when a response starts: assigning new ones
    takes effect from the next response.

    >>> reducer = Reducer()
    >>> reducer.feed({"type": "response.created", "response": {"id": "resp_1"}})
    >>> reducer.feed({"type": "response.completed", "response": {"id": "resp_1", "output": []}})
    >>> [r.status.value for r in reducer.finish()]
    ['completed']
    """

    def __init__(
        self,
        *,
        kernels: KernelSet = KERNELS,
        limits: ReducerLimits = DEFAULT_LIMITS,
        trace: bool = False,
    ) -> None:
        self.kernels = kernels
        self.limits = limits
        self.traces: list[StepTrace] | None = [] if trace else None
        self.results: list[Result] = []
        self._state = ResponseState()
        self._advance = advancer(self._state, kernels, limits)
        self._next_index = 0
        self._warned_unstarted = False

    def feed(self, event: Mapping[str, Any] | WireEvent) -> None:
        """Reduce one event: a decoded JSON object, or a ``WireEvent`` from the front end."""
        payload: Mapping[str, Any] | None
        if isinstance(event, WireEvent):
            # One unpacking is cheaper than reading the fields one by one.
            index, payload, sse_event, problem, detail, raw = event
            if problem is not None:
                self._note(problem, index, detail or "", raw)
                if problem is not Code.INVALID_UTF8 or payload is None:
                    return
        else:
            index, payload, sse_event = self._next_index, event, None
        self._next_index = index + 1
        # A dict is what the front end makes; the ABC check is for other mappings.
        if type(payload) is not dict and not isinstance(payload, Mapping):
            self._note(Code.NOT_AN_OBJECT, index, "event is not a JSON object", payload)
            return
        type_ = payload.get("type")
        if not isinstance(type_, str):
            self._note(Code.MISSING_TYPE, index, "event has no string 'type'", payload)
            return
        if type_ == _STARTS and (
            self._state.started or self._state.entries or self._state.terminal
        ):
            self._close()
        if sse_event is not None and sse_event != type_ and sse_event != "message":
            self._note(
                Code.EVENT_NAME_MISMATCH, index, f"SSE event {sse_event!r} but type {type_!r}"
            )
        state = self._state
        if not state.started and type_ != _STARTS and not self._warned_unstarted:
            self._warned_unstarted = True
            self._note(Code.NO_RESPONSE_STARTED, index, f"{type_} before response.created")
        parsed = parse_event(index, payload)
        if self.traces is None:
            self._advance(parsed)
        else:
            self.traces.append(step(state, parsed, self.kernels, self.limits))

    def feed_all(self, events: Iterable[Mapping[str, Any] | WireEvent]) -> None:
        """Reduce every event of ``events`` in order."""
        for event in events:
            self.feed(event)

    def snapshot(self) -> ResponseSnapshot:
        """The current response's state as plain data (for invariants and tests)."""
        return self._state.snapshot()

    def finish(self) -> list[Result]:
        """End of input: close the current response and return every result."""
        if self._state.started or self._state.events or self._state.diagnostics:
            self._close()
        return self.results

    def _close(self) -> None:
        end_of_input(self._state, self.kernels, self.limits)
        self.results.append(build_result(self._state))
        self._state = ResponseState()
        self._advance = advancer(self._state, self.kernels, self.limits)
        self._warned_unstarted = False

    def _note(self, code: Code, index: int, detail: str, event: Any = None) -> None:
        self._state.diagnostics.append(Diagnostic(code, index, None, detail, event))


Source = str | os.PathLike[str] | bytes | IO[bytes] | Iterable[Mapping[str, Any]]
"""What ``reduce`` accepts: a path, raw bytes, a binary file, or decoded events."""


def reduce(
    source: Source,
    *,
    format: InputFormat = InputFormat.AUTO,
    wire_limits: Limits = DEFAULT_WIRE_LIMITS,
    limits: ReducerLimits = DEFAULT_LIMITS,
    kernels: KernelSet = KERNELS,
) -> list[Result]:
    """Reduce a whole input to one ``Result`` per response.

    ``source`` is a file path, the raw bytes of any supported input format (SSE, JSONL,
    JSON array, HTTP recording, AxonHub lines; detected unless ``format`` says), an open
    binary file, or an iterable of already-decoded event objects.
    """
    reducer = Reducer(kernels=kernels, limits=limits)
    if isinstance(source, (str, os.PathLike, bytes)):
        reducer.feed_all(read_wire_events(source, format, wire_limits))
    elif hasattr(source, "read"):
        reducer.feed_all(read_wire_events(cast(BinaryIO, source), format, wire_limits))
    else:
        reducer.feed_all(source)
    return reducer.finish()
