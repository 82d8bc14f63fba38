"""Per-format framing: how each input format cuts bytes into event texts.

Streaming formats get a framer, a sans-IO object with ``feed(bytes)`` and
``finish()`` returning ``WireEvent`` lists, which never holds more than one event:

- ``SSEFramer``: ``SSEDecoder`` messages; ``[DONE]`` dropped (and counted:
  ``SSEFramer.sentinels``, for the proxy, which passes it on), ``oversized`` reported;
  for a proxy, an oversized event it ``passes`` comes out as its bytes
  (``SSEFramer.passing``).
- ``LineFramer`` with ``EventBuilder.jsonl_line``: one JSON event a line, optionally
  prefixed ``data:``; blank lines skipped.
- ``LineFramer`` with ``axonhub_line``: one ``{"LastEventID","Type","Data"}`` record a
  line, where ``Data`` is the event's JSON as a string and ``Type`` plays the SSE
  event name.
- ``LineFramer`` with ``websocket_line``: one WebSocket frame's JSON message a line,
  client frames included, optionally after ``wscat``'s ``> `` / ``< `` direction mark.

Whole documents (a JSON array of events, an HTTP recording) are parsed at once by
``json_array_events`` and ``recording_events`` from bytes the caller has bounded.
A recording's ``interactions[].response.body`` strings are SSE bodies; they go
through the same ``SSEDecoder``, interaction after interaction, so a tool loop's
responses come out in the order they were recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from responses_oracle.model.vocabulary import Code
from responses_oracle.wire.decode import (
    BOM,
    EventBuilder,
    is_done,
    preview,
    utf8_text,
)
from responses_oracle.wire.lines import LineSplitter
from responses_oracle.wire.records import Limits, WireEvent
from responses_oracle.wire.sse import SSEDecoder, SSEMessage

_DOCUMENT_UTF8: Final = "document is not valid UTF-8 (decoded with U+FFFD)"
_AXONHUB_SHAPE: Final = 'not an AxonHub record {"LastEventID","Type","Data"} with a string Data'


def _too_big(limits: Limits, fate: str = "skipped") -> str:
    return f"event exceeds max_event_bytes ({limits.max_event_bytes} bytes); {fate}"


class SSEFramer:
    """Raw SSE bytes to events.  ``passes`` (a proxy's): the event types whose oversized
    events pass on as they came (``SSEDecoder``), read with ``passing``."""

    def __init__(
        self,
        builder: EventBuilder,
        limits: Limits,
        passes: Callable[[str | None], bool] | None = None,
    ) -> None:
        self._builder = builder
        self._limits = limits
        self._decoder = SSEDecoder(limits.max_event_bytes, passes=passes)
        self.sentinels = 0
        """How many ``[DONE]`` messages were dropped so far (no event carries them)."""

    def feed(self, data: bytes) -> list[WireEvent]:
        """Take the next chunk; return the events it completed."""
        return self._convert(self._decoder.feed(data))

    def finish(self) -> list[WireEvent]:
        """End of input: return the last event if it was left unterminated."""
        return self._convert(self._decoder.finish())

    @property
    def between_blocks(self) -> bool:
        """``SSEDecoder.between_blocks``: a reader may cut the next block itself."""
        return self._decoder.between_blocks

    @property
    def builder(self) -> EventBuilder:
        """The builder that numbers this framer's events."""
        return self._builder

    def passing(self, data: bytes | None, start: int = 0) -> list[WireEvent | bytes]:
        """``feed`` of ``data[start:]`` (``finish`` for None) for a framer with
        ``passes``: the bytes of an oversized event that passes come out in place, as
        they arrive, and after them its ``LIMIT_EXCEEDED`` record, which says it passed
        on unread."""
        decoder = self._decoder
        messages = decoder.finish() if data is None else decoder.feed(data, start)
        out: list[WireEvent | bytes] = []
        start = 0
        for position, message in enumerate(messages):
            if message.relayed is None:
                continue
            out += self._convert(messages[start:position])
            out.append(message.relayed)
            if message.oversized:
                fate = "passed on as it came, unread"
                detail = _too_big(self._limits, fate)
                out.append(self._builder.problem(Code.LIMIT_EXCEEDED, detail, None, message.event))
            start = position + 1
        out += self._convert(messages[start:] if start else messages)
        return out

    def _convert(self, messages: Sequence[SSEMessage]) -> list[WireEvent]:
        out: list[WireEvent] = []
        builder = self._builder
        for message in messages:
            if message.oversized:
                out.append(
                    builder.problem(
                        Code.LIMIT_EXCEEDED, _too_big(self._limits), None, message.event
                    )
                )
            elif is_done(message.data):
                self.sentinels += 1
            else:
                out.append(builder.decode(message.data, message.event, message.invalid_utf8))
        return out


LineHandler = Callable[[EventBuilder, bytes], WireEvent | None]
"""Turns one non-blank, stripped line into an event (None: a ``[DONE]`` sentinel)."""


def axonhub_line(builder: EventBuilder, line: bytes) -> WireEvent | None:
    """An AxonHub line ``{"LastEventID","Type","Data"}``; ``Data`` holds the event's JSON."""
    text, invalid = utf8_text(line)
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        detail = f"invalid JSON line: {exc}"
        return builder.flawed(Code.MALFORMED_EVENT, detail, text, None, invalid)
    data = record.get("Data") if type(record) is dict else None
    if type(data) is not str:
        return builder.flawed(Code.MALFORMED_EVENT, _AXONHUB_SHAPE, text, None, invalid)
    kind = record.get("Type")
    sse_event = kind if type(kind) is str and kind else None
    if is_done(data):
        return None
    return builder.decode(data, sse_event, invalid)


def websocket_line(builder: EventBuilder, line: bytes) -> WireEvent | None:
    """A WebSocket transcript line: one frame's JSON message, after an optional ``>``/``<``.

    The direction mark is dropped: the frame's ``type`` says whether it is a client
    frame, and the reducer skips those (``model/responses.py``).  A text frame carries
    exactly one JSON message, so no ``data:`` prefix or ``[DONE]`` applies here.
    """
    if line[:1] in (b">", b"<"):
        line = line[1:].lstrip()
    text, invalid = utf8_text(line)
    return builder.decode(text, None, invalid)


class LineFramer:
    """A line-per-event format; ``handle`` reads one line (``EventBuilder.jsonl_line``,
    ``axonhub_line``)."""

    def __init__(self, builder: EventBuilder, limits: Limits, handle: LineHandler) -> None:
        self._builder = builder
        self._limits = limits
        self._handle = handle
        self._splitter = LineSplitter(limits.max_event_bytes)

    def feed(self, data: bytes) -> list[WireEvent]:
        """Take the next chunk; return the events it completed."""
        return self._convert(self._splitter.feed(data))

    def finish(self) -> list[WireEvent]:
        """End of input: return the event of an unterminated last line."""
        return self._convert(self._splitter.finish())

    def _convert(self, lines: list[bytes | None]) -> list[WireEvent]:
        out: list[WireEvent] = []
        builder = self._builder
        handle = self._handle
        for line in lines:
            if line is None:
                out.append(builder.problem(Code.LIMIT_EXCEEDED, _too_big(self._limits)))
                continue
            line = line.strip()
            if line:
                event = handle(builder, line)
                if event is not None:
                    out.append(event)
        return out


def _strip_bom(document: bytes) -> bytes:
    return document[len(BOM) :] if document.startswith(BOM) else document


def _parse_document(builder: EventBuilder, text: str) -> tuple[Any, WireEvent | None]:
    """Decode a whole JSON document: its value, or a problem event."""
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:
        return None, builder.problem(Code.MALFORMED_EVENT, f"invalid JSON document: {exc}", text)


def json_array_events(builder: EventBuilder, document: bytes) -> Iterator[WireEvent]:
    """The events of a JSON array document."""
    text, invalid = utf8_text(_strip_bom(document))
    if invalid:
        # Which element held the bad bytes is lost once the document is parsed;
        # say it once, up front, and go on with the replaced text.
        yield builder.problem(Code.INVALID_UTF8, _DOCUMENT_UTF8)
    value, problem = _parse_document(builder, text)
    if problem is not None:
        yield problem
        return
    if type(value) is not list:
        yield builder.problem(Code.MALFORMED_EVENT, "document is not a JSON array", text)
        return
    for element in value:
        if type(element) is dict:
            yield builder.event(element)
        elif not (type(element) is str and is_done(element)):
            yield builder.problem(
                Code.NOT_AN_OBJECT, "array element is not a JSON object", preview(element)
            )


def recording_events(
    builder: EventBuilder, document: bytes, limits: Limits
) -> Iterator[WireEvent]:
    """The events of an HTTP recording: each interaction's SSE response body in turn."""
    # surrogateescape keeps bad bytes inside body strings as lone surrogates, so that
    # re-encoding a body gives back its exact bytes and the SSE decoder flags the one
    # event that held them.
    text = _strip_bom(document).decode("utf-8", "surrogateescape")
    value, problem = _parse_document(builder, text)
    if problem is not None:
        yield problem
        return
    interactions = value.get("interactions") if type(value) is dict else None
    if type(interactions) is not list:
        detail = "not an HTTP recording: no interactions list"
        yield builder.problem(Code.MALFORMED_EVENT, detail, text)
        return
    framer = SSEFramer(builder, limits)
    for number, interaction in enumerate(interactions):
        response = interaction.get("response") if type(interaction) is dict else None
        body = response.get("body") if type(response) is dict else None
        if type(body) is not str:
            detail = f"interaction {number}: response body is not an SSE string"
            yield builder.problem(Code.MALFORMED_EVENT, detail, preview(body))
            continue
        yield from framer.feed(_body_bytes(body))
        yield from framer.finish()


def _body_bytes(body: str) -> bytes:
    """The bytes of a body string, bad bytes and lone surrogates included as such."""
    try:
        return body.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        # A lone surrogate from a JSON \\ud800 escape: pass it through as the
        # (invalid) UTF-8 bytes it stands for, so the decoder reports it.
        return body.encode("utf-8", "surrogatepass")
