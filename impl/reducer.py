"""The public reducer: events in, one ``Result`` per response out.

``Reducer`` is the incremental face (feed events one at a time, as they arrive);
``reduce`` is the one-call face (bytes, a path, text, a file, or events → results).  Both only glue
the pieces together: the front end (``wire``) turns bytes into ``WireEvent``s, the core
(``core.step``) folds validated events into a ``ResponseState``, and ``result`` reads
the state out.  A file may hold several responses back to back (a tool loop, a
WebSocket-mode connection, a background response and its resume stream): where one
ends is ``model/responses.py``'s ``BOUNDARY`` table, applied to every event that opens
a response (``response.created``, ``queued``, ``in_progress``), and the first event
after a client's ``response.create`` frame starts a new result (``FRAMES``); client
frames themselves are skipped.  Both tables are read through the ``boundary`` and
``frame`` kernels of ``kernels``.

Nothing here raises on bad input.  Problems the front end found (bytes that are not
JSON, a JSON value that is not an object, a missing ``type``) become diagnostics of the
response they occur in, and the rest of the stream is still reduced.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar, cast

from responses_oracle.model.responses import (
    FRAME_TYPES,
    OPENING_TYPES,
    frame_closes,
    resumes,
    starts_new,
)
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import Code

from .core.events import parse_event
from .core.generated_kernels import KERNELS
from .core.state import Diagnostic, ResponseState
from .core.step import (
    DEFAULT_LIMITS,
    ReducerLimits,
    StepTrace,
    advancer,
    end_of_input,
    tracer,
)
from .result import Result, build_result
from .wire import DEFAULT_LIMITS as DEFAULT_WIRE_LIMITS
from .wire import InputFormat, Limits, WireEvent, iter_wire_batches, read_wire_batches
from .wire.formats import CHUNK_BYTES

if TYPE_CHECKING:
    from responses_oracle.model.invariants import ResponseSnapshot


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
        self._trace = tracer(self._state, kernels, limits)
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
        if type_ in FRAME_TYPES:
            # A WebSocket client frame is no event of a response: skipped, and a
            # ``response.create`` ends the response before it (``FRAMES``).
            kernels = self.kernels
            if frame_closes(kernels.frame, kernels.reads_frame, type_) and self._holds_anything():
                self._close()
            return
        if type_ in OPENING_TYPES:
            held = self._state
            opened = held.started or bool(held.entries)
            kernels = self.kernels
            if starts_new(
                kernels.boundary,
                kernels.reads_opening,
                payload,
                held.terminal,
                opened,
                held.response_id,
            ):
                self._close()
        if sse_event is not None and sse_event != type_ and sse_event != "message":
            self._note(
                Code.EVENT_NAME_MISMATCH, index, f"SSE event {sse_event!r} but type {type_!r}"
            )
        state = self._state
        if (
            not state.started
            and type_ not in OPENING_TYPES
            and not self._warned_unstarted
            and state.resumed_at is None
            # A resume's first event (R14; dispatch says so, once).
            and not (not state.events and resumes(type_, payload.get("sequence_number")))
        ):
            self._warned_unstarted = True
            self._note(Code.NO_RESPONSE_STARTED, index, f"{type_} before response.created")
        parsed = parse_event(index, payload)
        if self.traces is None:
            self._advance(parsed)
        else:
            self.traces.append(self._trace(parsed))

    def feed_all(self, events: Iterable[Mapping[str, Any] | WireEvent]) -> None:
        """Reduce every event of ``events`` in order."""
        for event in events:
            self.feed(event)

    @property
    def state(self) -> ResponseState:
        """The live state of the response being reduced, for tools that follow the
        reduction event by event (``canonical``).  Read it, never change it: it is the
        reducer's own, and a new one replaces it when the next response starts."""
        return self._state

    def snapshot(self) -> ResponseSnapshot:
        """The current response's state as plain data (for invariants and tests)."""
        return self._state.snapshot()

    def finish(self) -> list[Result]:
        """End of input: close the current response and return every result."""
        if self._holds_anything():
            self._close()
        return self.results

    def _holds_anything(self) -> bool:
        state = self._state
        return bool(state.started or state.events or state.diagnostics)

    def _close(self) -> None:
        end_of_input(self._state, self.kernels, self.limits)
        self.results.append(build_result(self._state))
        self._state = ResponseState()
        self._advance = advancer(self._state, self.kernels, self.limits)
        self._trace = tracer(self._state, self.kernels, self.limits)
        self._warned_unstarted = False

    def _note(self, code: Code, index: int, detail: str, event: Any = None) -> None:
        self._state.diagnostics.append(Diagnostic(code, index, None, detail, event))


Source = (
    str
    | os.PathLike[str]
    | bytes
    | bytearray
    | memoryview
    | IO[bytes]
    | IO[str]
    | Iterable[Mapping[str, Any] | WireEvent]
)
"""What ``reduce`` accepts; ``reduce``'s docstring gives the rule for each kind."""

_JSON_OPENERS: Final = ("{", "[")
"""A ``str`` starting with one of these (after whitespace) is a JSON text, not a path."""


def is_stream_text(source: str) -> bool:
    """Whether ``reduce`` reads the ``str`` ``source`` as the stream itself.

    A line break, or a JSON object or array at its start, cannot be part of a path
    anyone means; everything else names a file.
    """
    return "\n" in source or "\r" in source or source.lstrip().startswith(_JSON_OPENERS)


def _text_chunks(stream: IO[str] | IO[bytes]) -> Iterator[bytes]:
    """A file's content as UTF-8 byte chunks, whether it was opened in text or binary
    mode.  Text is encoded with ``surrogatepass``, so that a lone surrogate reaches the
    front end as the bad bytes it stands for (an ``invalid_utf8`` diagnostic), never as
    an exception."""
    read = getattr(stream, "read1", stream.read)
    while chunk := read(CHUNK_BYTES):
        yield chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk


def reduce(
    source: Source,
    *,
    format: InputFormat = InputFormat.AUTO,
    wire_limits: Limits = DEFAULT_WIRE_LIMITS,
    limits: ReducerLimits = DEFAULT_LIMITS,
    kernels: KernelSet = KERNELS,
) -> list[Result]:
    """Reduce a whole input to one ``Result`` per response, in input order.

    ``source`` is one of:

    - ``bytes`` (or ``bytearray``, ``memoryview``): the stream's bytes;
    - a ``pathlib.Path`` or other path-like object: the file at that path;
    - a ``str``: the stream's text when it holds a line break or starts with ``{`` or
      ``[`` (``is_stream_text``), otherwise a stream argument as the commands read one
      (``stream_names.resolve``): a file path, or a bundled name such as
      ``"examples/parallel-calls.sse"`` (found from any folder), ``"q07"`` or a vector
      name -- pass a ``Path`` for a path that would be mistaken for text;
    - an open file, binary or text mode (``open(p, "rb")``, ``open(p)``, ``io.BytesIO``,
      ``io.StringIO``, ``sys.stdin``), read to its end and not closed;
    - an iterable of already-decoded events (``dict``s, as a client library yields them)
      or of ``WireEvent``s.

    Bytes, paths, text and files may be in any format the front end reads -- SSE,
    JSON Lines, a JSON array of events, an HTTP recording, AxonHub lines, a WebSocket
    transcript -- detected from the first bytes unless ``format`` names one.  Nothing
    about the content raises: every problem is a diagnostic of its response.  Only
    reading can fail: ``OSError`` from opening or reading a path or file propagates (a
    missing file is ``FileNotFoundError``).  One event on its own is refused with
    ``TypeError`` (pass ``[event]``): iterating a ``dict`` would feed its keys.
    """
    reducer = Reducer(kernels=kernels, limits=limits)
    if isinstance(source, str) and is_stream_text(source):
        source = source.encode("utf-8", "surrogatepass")
    elif isinstance(source, str):
        from responses_oracle.stream_names import resolve

        named = resolve(source)
        if named is not None:
            source = named.decoded if named.decoded is not None else str(named.path)
    # Bytes are read a list of events at a time (the events of one chunk): a loop over
    # a list costs less than a generator resumed per event.
    batches: Iterable[Iterable[Mapping[str, Any] | WireEvent]]
    if isinstance(source, bytes | bytearray | memoryview | str | os.PathLike):
        batches = read_wire_batches(
            bytes(source) if isinstance(source, bytearray | memoryview) else source,
            format,
            wire_limits,
        )
    elif hasattr(source, "read"):
        batches = iter_wire_batches(_text_chunks(cast(IO[Any], source)), format, wire_limits)
    elif isinstance(source, Mapping):
        raise TypeError("reduce() takes the events of a stream, not one event: pass [event]")
    else:
        batches = (source,)
    for batch in batches:
        reducer.feed_all(batch)
    return reducer.finish()


_Event = TypeVar("_Event", bound=Mapping[str, Any])


def response_parts(events: Iterable[_Event]) -> list[list[_Event]]:
    """The decoded ``events`` cut where the reducer cuts them: one part per result of
    ``reduce(events)``, each holding the events of that response (a client frame that
    ends a response goes with the part after it).

    Every tool that sends a body one response at a time (``diff --split-responses``, the
    cause hypotheses) cuts with this, so the cut is the reducer's own -- ``BOUNDARY``'s
    cells, run -- and no second statement of where a response starts.  An
    ``in_progress`` before its own ``created`` is one response, not two:

    >>> progress = {"type": "response.in_progress", "response": {"id": "r1"}}
    >>> created = {"type": "response.created", "response": {"id": "r1"}}
    >>> another = {"type": "response.created", "response": {"id": "r2"}}
    >>> [len(part) for part in response_parts([progress, created, another])]
    [2, 1]
    """
    reducer = Reducer()
    parts: list[list[_Event]] = [[]]
    for event in events:
        closed = len(reducer.results)
        reducer.feed(event)
        if len(reducer.results) > closed and parts[-1]:
            parts.append([])
        parts[-1].append(event)
    return [part for part in parts if part]
