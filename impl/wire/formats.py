"""Input formats, how to tell them apart, and the bytes -> ``WireEvent`` driver.

``iter_wire_events`` is the front end's one entry point.  It counts the input bytes
against ``Limits.max_total_bytes``, picks the format (``detect_format`` on the first
``DETECT_BYTES`` when AUTO), and runs the matching framer from ``framers``:
streaming formats are fed chunk by chunk and never hold more than one event plus one
chunk; whole-document formats are read up to ``Limits.max_document_bytes`` and then
parsed.  ``read_wire_events`` adapts files, byte strings and binary streams.

Detection rules (``detect_format``), applied to the input after one optional UTF-8
BOM and any leading whitespace:

1. nothing left: SSE (every format yields no event for it);
2. ``[``: JSON_ARRAY;
3. ``{``: a JSON object first.  If the first line parses as a whole JSON object, it
   decides: a key ``interactions`` means RECORDING, a string ``Data`` with a ``Type``
   means AXONHUB, a client frame (``type`` ``response.create`` or ``response.steer``,
   ``model/responses.py``) means WEBSOCKET, anything else is a JSONL event.  If it does
   not parse (a pretty-printed document, or a first line longer than the head), an
   ``"interactions":`` key anywhere in the head means RECORDING, a first key among
   ``LastEventID``/``Type``/``Data`` means AXONHUB, else JSONL;
4. anything else is read line by line.  A first line ``> {…}`` or ``< {…}`` (a frame
   as ``wscat`` prints one sent or received) means WEBSOCKET.  A line with an SSE-only
   field (``event:``, ``id:``, ``retry:``) or a ``:`` comment means SSE.  Two ``data:``
   lines in a row, the first holding a whole JSON object (or ``[DONE]``), mean JSONL
   with ``data:`` prefixes: under SSE rules they would merge into one undecodable
   event.  Other ``data:`` lines mean SSE.  With no SSE field at all the input is
   JSONL, so that garbage is reported line by line rather than ignored as unknown SSE
   fields.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from enum import Enum
from typing import Any, BinaryIO, Final

from responses_oracle.model.responses import FRAME_TYPES
from responses_oracle.model.vocabulary import Code
from responses_oracle.wire.decode import BOM, DONE, EventBuilder
from responses_oracle.wire.framers import (
    LineFramer,
    LineHandler,
    SSEFramer,
    axonhub_line,
    json_array_events,
    recording_events,
    websocket_line,
)
from responses_oracle.wire.inputs import GZIP_MAGIC, ZSTD_MAGIC, corrupt_errors, decompressed
from responses_oracle.wire.records import DEFAULT_LIMITS, Limits, WireEvent


class InputFormat(Enum):
    """The input formats the front end reads."""

    AUTO = "auto"
    """Pick one of the others with ``detect_format``."""
    SSE = "sse"
    """Raw ``text/event-stream`` bytes, any chunking."""
    JSONL = "jsonl"
    """One JSON event a line, optionally prefixed ``data:``; blank lines skipped."""
    JSON_ARRAY = "json_array"
    """One JSON array of events."""
    RECORDING = "recording"
    """An HTTP recording ``{"version","metadata","interactions":[{"request","response":
    {"status","headers","body"}}]}`` whose response bodies are SSE strings (opencode)."""
    AXONHUB = "axonhub"
    """Lines ``{"LastEventID","Type","Data"}`` with the event's JSON in ``Data`` (AxonHub)."""
    WEBSOCKET = "websocket"
    """A WebSocket-mode transcript: one frame's JSON message a line, client and server
    frames in the order they crossed the connection, optionally prefixed ``> `` (sent)
    or ``< `` (received) as ``wscat`` prints them.  Client frames (``response.create``,
    ``response.steer``) are events like any other here; the reducer recognises and
    skips them, and starts a new response after each ``response.create``."""


DETECT_BYTES: Final = 64 * 1024
"""How much of the input ``iter_wire_events`` looks at to detect its format."""

CHUNK_BYTES: Final = 64 * 1024
"""Read size of ``read_wire_events``."""

_DONE: Final = DONE.encode()
_WHOLE_DOCUMENT: Final[frozenset[InputFormat]] = frozenset(
    {InputFormat.JSON_ARRAY, InputFormat.RECORDING}
)
_LINE_HANDLERS: Final[dict[InputFormat, LineHandler]] = {
    InputFormat.JSONL: EventBuilder.jsonl_line,
    InputFormat.AXONHUB: axonhub_line,
    InputFormat.WEBSOCKET: websocket_line,
}
# The detection patterns, compiled (and cached by ``re``) when an input first needs
# one: a JSON Lines input whose first line parses needs none of them.
_SSE_ONLY_FIELD: Final = rb"(?:event|id|retry)(?::|$)|:"
_RECORDING_KEY: Final = rb'(?<!\\)"interactions"\s*:'
_AXONHUB_FIRST_KEY: Final = rb'\{\s*"(?:LastEventID|Type|Data)"\s*:'
_WSCAT_FRAME: Final = rb"[<>] ?\{"


def detect_format(head: bytes) -> InputFormat:
    """Guess the format of an input from its first bytes (rules in the module docstring)."""
    body = head[len(BOM) :] if head.startswith(BOM) else head
    body = body.lstrip()
    if not body:
        return InputFormat.SSE
    if body.startswith(b"["):
        return InputFormat.JSON_ARRAY
    if body.startswith(b"{"):
        return _object_format(body)
    return _line_format(body.splitlines())


def _object_format(body: bytes) -> InputFormat:
    end = body.find(b"\n")
    first = _json_object(body if end < 0 else body[:end])
    if first is not None:
        if "interactions" in first:
            return InputFormat.RECORDING
        if type(first.get("Data")) is str and "Type" in first:
            return InputFormat.AXONHUB
        if first.get("type") in FRAME_TYPES:
            return InputFormat.WEBSOCKET
        return InputFormat.JSONL
    if re.search(_RECORDING_KEY, body):
        return InputFormat.RECORDING
    if re.match(_AXONHUB_FIRST_KEY, body):
        return InputFormat.AXONHUB
    return InputFormat.JSONL


def _line_format(lines: list[bytes]) -> InputFormat:
    if re.match(_WSCAT_FRAME, lines[0]):
        return InputFormat.WEBSOCKET
    saw_data = False
    for number, line in enumerate(lines):
        if re.match(_SSE_ONLY_FIELD, line):
            return InputFormat.SSE
        if line.startswith(b"data:"):
            saw_data = True
            if (
                number + 1 < len(lines)
                and lines[number + 1].startswith(b"data:")
                and _is_event_text(line[5:])
            ):
                return InputFormat.JSONL
    return InputFormat.SSE if saw_data else InputFormat.JSONL


def _json_object(text: bytes) -> dict[str, Any] | None:
    """The JSON object ``text`` holds, or None."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def _is_event_text(value: bytes) -> bool:
    value = value.strip()
    return value.startswith(_DONE) or _json_object(value) is not None


class _Budget:
    """The input chunks, cut off at ``max_total_bytes``; ``exceeded`` tells if they were."""

    def __init__(self, chunks: Iterable[bytes], limit: int | None) -> None:
        self._chunks = chunks
        self._limit = limit
        self.exceeded = False

    def __iter__(self) -> Iterator[bytes]:
        room = self._limit
        for chunk in self._chunks:
            if room is not None:
                if len(chunk) > room:
                    self.exceeded = True
                    if room:
                        yield chunk[:room]
                    return
                room -= len(chunk)
            if chunk:
                yield chunk


def iter_wire_events(
    chunks: Iterable[bytes],
    fmt: InputFormat = InputFormat.AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[WireEvent]:
    """Decode an input given as byte chunks (cut anywhere) into ``WireEvent``s.

    Never raises on any bytes: every problem is an event with ``problem`` set.  The
    chunks are pulled lazily, and no further once ``max_total_bytes`` (or, for a
    whole document, ``max_document_bytes``) is exceeded.
    """
    for batch in iter_wire_batches(chunks, fmt, limits):
        yield from batch


def iter_wire_batches(
    chunks: Iterable[bytes],
    fmt: InputFormat = InputFormat.AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[list[WireEvent]]:
    """``iter_wire_events`` a list at a time: the events each chunk completes, in
    order (a whole document's all at once).  The reducer reads these, which saves
    resuming a generator per event (~60 ns, 1% of an event)."""
    budget = _Budget(chunks, limits.max_total_bytes)
    stream: Iterator[bytes] = iter(budget)
    if fmt is InputFormat.AUTO:
        head: list[bytes] = []
        size = 0
        for chunk in stream:
            head.append(chunk)
            size += len(chunk)
            if size >= DETECT_BYTES:
                break
        fmt = detect_format(b"".join(head)[:DETECT_BYTES])
        stream = itertools.chain(head, stream)
    builder = EventBuilder()
    if fmt in _WHOLE_DOCUMENT:
        yield list(_whole_document(builder, stream, budget, fmt, limits))
        return
    framer = (
        SSEFramer(builder, limits)
        if fmt is InputFormat.SSE
        else LineFramer(builder, limits, _LINE_HANDLERS[fmt])
    )
    for chunk in stream:
        yield framer.feed(chunk)
    if budget.exceeded:
        yield [_total_exceeded(builder, limits)]
    else:
        yield framer.finish()


def _total_exceeded(builder: EventBuilder, limits: Limits) -> WireEvent:
    detail = f"input exceeds max_total_bytes ({limits.max_total_bytes} bytes); rest not read"
    return builder.problem(Code.LIMIT_EXCEEDED, detail)


def _whole_document(
    builder: EventBuilder,
    stream: Iterator[bytes],
    budget: _Budget,
    fmt: InputFormat,
    limits: Limits,
) -> Iterator[WireEvent]:
    parts: list[bytes] = []
    size = 0
    for chunk in stream:
        size += len(chunk)
        if size > limits.max_document_bytes:
            detail = (
                f"{fmt.value} document exceeds max_document_bytes "
                f"({limits.max_document_bytes} bytes); not decoded"
            )
            yield builder.problem(Code.LIMIT_EXCEEDED, detail)
            return
        parts.append(chunk)
    if budget.exceeded:
        yield _total_exceeded(builder, limits)
        return
    document = b"".join(parts)
    del parts
    if fmt is InputFormat.JSON_ARRAY:
        yield from json_array_events(builder, document)
    else:
        yield from recording_events(builder, document, limits)


def read_wire_events(
    source: str | os.PathLike[str] | bytes | BinaryIO,
    fmt: InputFormat = InputFormat.AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[WireEvent]:
    """Decode a file (by path), a byte string or a binary stream into ``WireEvent``s.

    Files and streams are read in ``CHUNK_BYTES`` pieces; a stream is read with
    ``read1`` when it has one, so a live pipe yields events as they arrive.  A file
    is opened when iteration starts; ``OSError`` from opening or reading propagates.
    ``"-"`` is a file name here: the CLI passes ``sys.stdin.buffer`` itself.  Files
    and byte strings in gzip or Zstandard are decompressed (``inputs.decompressed``).
    """
    return iter_wire_events(_source_chunks(source, limits), fmt, limits)


def read_wire_batches(
    source: str | os.PathLike[str] | bytes | BinaryIO,
    fmt: InputFormat = InputFormat.AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[list[WireEvent]]:
    """``read_wire_events`` a list at a time (``iter_wire_batches``)."""
    return iter_wire_batches(_source_chunks(source, limits), fmt, limits)


def _source_chunks(
    source: str | os.PathLike[str] | bytes | BinaryIO, limits: Limits
) -> Iterable[bytes]:
    if isinstance(source, bytes | bytearray | memoryview):
        return _bytes_chunks(bytes(source), limits)
    if isinstance(source, str | os.PathLike):
        return _file_chunks(source)
    return _stream_chunks(source)


def _bytes_chunks(data: bytes, limits: Limits) -> Iterator[bytes]:
    """A byte string's bytes: decompressed when it is a whole gzip or Zstandard archive.

    Bytes that only start like an archive -- a cut or corrupt one, or one that holds
    nothing -- are read as they are, so their bytes raise their own diagnostics instead
    of an exception or an empty answer (the core is total).  The archive is read ahead
    up to ``limits.max_document_bytes`` to tell; past that it is streamed, and a fault
    further on ends the input there (the reducer then reports the missing terminal).
    """
    if not data.startswith((GZIP_MAGIC, ZSTD_MAGIC)):
        yield from _slices(data)
        return
    reader = _file_chunks(io.BytesIO(data))
    read: list[bytes] = []
    size = 0
    try:
        for chunk in reader:
            read.append(chunk)
            size += len(chunk)
            if size > limits.max_document_bytes:
                break
    except Exception as error:
        # Asked after the first read: the codec's own errors count once it is imported.
        if not isinstance(error, corrupt_errors()):
            raise
        yield from _slices(data)
        return
    if not size:
        yield from _slices(data)
        return
    yield from read
    del read
    try:
        yield from reader
    except Exception as error:
        if not isinstance(error, corrupt_errors()):
            raise


def _slices(data: bytes) -> Iterator[bytes]:
    for start in range(0, len(data), CHUNK_BYTES):
        yield data[start : start + CHUNK_BYTES]


def _file_chunks(file: str | os.PathLike[str] | BinaryIO) -> Iterator[bytes]:
    """The decompressed bytes of a file, named by its path or open."""
    if isinstance(file, str | os.PathLike):
        with open(file, "rb") as opened:
            yield from _stream_chunks(decompressed(opened, os.fspath(file)))
    else:
        yield from _stream_chunks(decompressed(file, ""))


def _stream_chunks(stream: BinaryIO) -> Iterator[bytes]:
    read = getattr(stream, "read1", stream.read)
    while chunk := read(CHUNK_BYTES):
        yield chunk
