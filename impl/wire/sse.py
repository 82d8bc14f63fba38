"""An incremental, sans-IO decoder for ``text/event-stream`` (Server-Sent Events).

Theory of operation.  The rules are WHATWG HTML's "event stream interpretation":
the stream is UTF-8 with one optional leading BOM; lines end with CRLF, LF or CR; a
line starting with ``:`` is a comment; otherwise the text before the first ``:`` is
the field name and the rest, minus one leading space, its value (a line with no
colon is a field with an empty value); ``data`` appends its value and a LF to the
data buffer, ``event`` sets the event type, ``id`` sets the last event id unless the
value holds a NUL, ``retry`` sets the reconnection time if the value is all ASCII
digits, and every other field is ignored.  An empty line dispatches: when the data
buffer is empty nothing is dispatched, else its final LF is removed and a message
comes out.  The event type is reset after every block; the last event id is not.

Bytes go in through ``feed``, messages come out.  Between calls the decoder keeps the
unterminated last line, the current block, the last event id and the retry time, and
one bit saying that a chunk ended on CR (so a LF at the start of the next chunk is the
second half of a CRLF, not a blank line).  Lines are found with ``bytes.rfind`` and
``bytes.splitlines`` (which splits on exactly CR, LF and CRLF), so a chunk costs a
few C calls plus one Python step per line, never a step per byte.

Text is decoded per field value, not per stream.  That gives the same characters as
decoding the whole stream: CR, LF and ``:`` are ASCII and never occur inside a
multi-byte sequence, and Python's ``errors="replace"`` substitutes maximal subparts
exactly as the WHATWG UTF-8 decoder does.

Additions to the spec, each reported rather than hidden:

- ``SSEMessage.invalid_utf8``: some value the message carries (data, event type or
  last event id, set in this block) was not valid UTF-8; the text has U+FFFD in its
  place, as WHATWG prescribes.
- ``max_event_bytes``: a block whose data would exceed it (or whose ``event``/``id``
  value alone does) is not buffered; its bytes are dropped as they arrive and, at
  its end, one message with ``oversized`` set and empty data comes out.  The decision
  depends only on the bytes, never on where the chunks were cut.  An over-long
  comment or unknown field is simply skipped: its content is ignored anyway.
- ``passes``: a reader that can let an oversized block through unread (a proxy) names
  the event types it may pass.  When a block passes the limit, its type is read from
  its first bytes (its ``event`` field, else the first ``"type"`` of its data) and,
  if ``passes`` accepts it, the block's bytes come out as they arrive instead of
  being dropped: messages with ``relayed`` set (its ``event`` and ``data`` lines so
  far, then each further piece), the last one the oversized message, whose
  ``relayed`` is the blank line that ends the block.  Memory stays bounded: nothing
  of the block is kept.
- End of input: WHATWG discards a final block that was not closed by an empty line.
  ``finish`` dispatches it (after treating an unterminated last line as a line)
  because recordings and files often lack the final blank line and the oracle must
  not lose their last event; ``discard_incomplete=True`` restores the spec's rule.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable
from typing import Final

from responses_oracle.model.recordkit import NamedTuple
from responses_oracle.wire.decode import BOM, utf8_text

_new_tuple: Final = tuple.__new__
"""Builds a named tuple from a tuple of all its fields, without its ``__new__``."""

_SIZED_FIELDS: Final[frozenset[bytes]] = frozenset({b"data", b"event", b"id"})
"""Fields whose values a message carries, so their size counts against the limit."""

_LINE_SLACK: Final = len(BOM) + len(b"event: ")
"""Bytes of a line that may precede its value.  An unterminated line longer than the
limit plus this slack has, whatever its field, a value longer than the limit: it can
be judged before its end arrives, with the same verdict as when it is complete."""

_NAME_PEEK: Final = 16
"""Bytes enough to see the field name of a line when it is one of ``_SIZED_FIELDS``."""

_TYPE_PEEK: Final = 256
"""Bytes of a block's data read for its event type (``passes``): an event's JSON names
its ``type`` first."""

_TYPE_FIELD: Final = re.compile(rb'"type"\s*:\s*"([^"\\]{1,200})"')
"""The first ``"type"`` of a JSON text."""


class SSEMessage(NamedTuple):
    """One dispatched event-stream message.

    A named tuple rather than a frozen dataclass: one is made per event on the hot
    path, and a tuple is built in a third of the time.
    """

    event: str | None
    """The event type; None when the block had no (or an empty) ``event`` field."""
    data: str
    """The data buffer without its final LF: the ``data`` values joined by LF."""
    id: str | None
    """The last event id at dispatch (it persists across messages); None when empty."""
    invalid_utf8: bool = False
    """Some bytes of this block's data, event type or id were not valid UTF-8."""
    oversized: bool = False
    """The block exceeded ``max_event_bytes`` and was discarded; ``data`` is empty."""
    relayed: bytes | None = None
    """Bytes of an oversized block passed on as they came (``passes``); None for any
    other message."""


class SSEDecoder:
    """Incremental event-stream decoder: ``feed`` bytes in any chunks, then ``finish``.

    ``max_event_bytes`` (None: unlimited) bounds what one block may buffer; see the
    module docstring.  After ``finish`` the decoder can decode a further stream, the
    last event id and retry time carrying over as across an EventSource reconnection.
    """

    def __init__(
        self,
        max_event_bytes: int | None = None,
        *,
        discard_incomplete: bool = False,
        passes: Callable[[str | None], bool] | None = None,
    ) -> None:
        self._limit = sys.maxsize if max_event_bytes is None else max_event_bytes
        self._discard_incomplete = discard_incomplete
        self._passes = passes
        """Whether an oversized block of an event type passes on as it came (None:
        none does)."""
        self._relaying = False  # the current oversized block passes on as it came
        self._relay_line = False  # the line being skipped is one of its lines
        self._relayed: list[SSEMessage] = []  # its pieces not handed out yet
        # The unterminated last line, as pieces (joined once, when its end arrives).
        self._partial: list[bytes] = []
        self._partial_len = 0
        self._skip_line = False  # the rest of an over-long line is being dropped
        self._after_cr = False  # the last chunk ended on CR
        self._first_line = True  # the BOM can only be at the start of the first line
        # The current block.
        self._data: list[bytes] = []
        self._size = 0  # bytes in the WHATWG data buffer: values plus one LF each
        self._event = b""
        self._oversized = False
        self._invalid = False
        # Stream state kept across blocks.
        self._last_id = ""
        self._retry: int | None = None

    @property
    def last_event_id(self) -> str:
        """The last event id buffer ("" until an ``id`` field sets it)."""
        return self._last_id

    @property
    def retry(self) -> int | None:
        """The reconnection time in milliseconds from the last valid ``retry`` field."""
        return self._retry

    @property
    def between_blocks(self) -> bool:
        """Past the first line, at the end of a block: no line, block, oversized block
        or CR pending.  A reader may then take a whole block it has cut itself
        (``proxy.relay``) without feeding it here, when the block is one whose
        decoding leaves nothing behind (no ``id`` or ``retry`` field)."""
        return not (
            self._partial
            or self._data
            or self._event
            or self._oversized
            or self._skip_line
            or self._after_cr
            or self._first_line
            or self._invalid
        )

    def feed(self, data: bytes, start: int = 0) -> list[SSEMessage]:
        """Take the next chunk of the stream, ``data[start:]`` (not copied first: a
        reader that read the chunk's first blocks itself passes the rest on this way);
        return the messages it completed."""
        if self._after_cr and len(data) > start:
            self._after_cr = False
            if data[start : start + 1] == b"\n":
                start += 1
        if len(data) <= start:
            return []
        end = max(data.rfind(b"\n", start), data.rfind(b"\r", start))
        if end < 0:
            self._hold(data[start:] if start else data)
            return self._take_relayed([])
        if end == len(data) - 1:
            self._after_cr = data[end] == 0x0D
            complete, rest = data[start:] if start else data, b""
        else:
            complete, rest = data[start : end + 1], data[end + 1 :]
        if self._partial:
            # The held line ends at the chunk's first CR or LF: it is joined apart, so a
            # long line (a 10 MB done event over many chunks) is not copied and scanned
            # again by ``splitlines`` with the lines after it.
            cr, lf = complete.find(b"\r"), complete.find(b"\n")
            first = lf if cr < 0 or 0 <= lf < cr else cr
            after = first + 2 if complete[first : first + 2] == b"\r\n" else first + 1
            self._partial.append(complete[:first])
            lines = [b"".join(self._partial), *complete[after:].splitlines()]
            self._partial.clear()
            self._partial_len = 0
        else:
            lines = complete.splitlines()
        if self._skip_line:
            # The first line is the tail of a line already judged and dropped.
            self._skip_line = False
            tail = lines.pop(0)
            if self._relay_line:
                self._relay(tail + b"\n")
        elif self._first_line and lines[0].startswith(BOM):
            lines[0] = lines[0][len(BOM) :]
        self._first_line = False
        out = self._take_relayed([])
        out += self._lines(lines)
        if rest:
            self._hold(rest)
        return self._take_relayed(out)

    def _relay(self, piece: bytes) -> None:
        """A piece of the oversized block passing on (``passes``)."""
        if piece:
            self._relayed.append(_new_tuple(SSEMessage, (None, "", None, False, False, piece)))

    def _take_relayed(self, out: list[SSEMessage]) -> list[SSEMessage]:
        """``out`` with the pieces relayed since, in order."""
        if self._relayed:
            out += self._relayed
            self._relayed.clear()
        return out

    def finish(self) -> list[SSEMessage]:
        """End of input: return the messages still pending and reset for a new stream."""
        line = b"".join(self._partial) if self._partial else None
        if line is not None and self._first_line and line.startswith(BOM):
            line = line[len(BOM) :]
        self._partial.clear()
        self._partial_len = 0
        self._skip_line = False
        self._after_cr = False
        self._first_line = True
        if self._discard_incomplete:
            self._end_block()
            return []
        out = self._take_relayed(self._lines([line]) if line is not None else [])
        self._relay_line = False
        message = self._end_block()
        if message is not None:
            out.append(message)
        return out

    def _hold(self, piece: bytes) -> None:
        """Keep an unterminated line piece, or judge and drop the line if too long."""
        if self._skip_line:
            if self._relay_line:
                self._relay(piece)
            return
        self._partial.append(piece)
        self._partial_len += len(piece)
        if self._partial_len <= self._limit + _LINE_SLACK:
            return
        head = b""
        for part in self._partial:
            head += part[:_NAME_PEEK]
            if len(head) >= _NAME_PEEK:
                break
        if self._first_line and head.startswith(BOM):
            head = head[len(BOM) :]
        colon = head.find(b":")
        self._relay_line = False
        if colon > 0 and head[:colon] in _SIZED_FIELDS:
            line = b"".join(self._partial)
            self._overflow(line[colon + 1 :] if head[:colon] == b"data" else b"")
            if self._relaying:
                self._relay(line)
                self._relay_line = True
        self._partial.clear()
        self._partial_len = 0
        self._skip_line = True
        self._first_line = False

    def _overflow(self, value: bytes = b"") -> None:
        """Mark the current block oversized and let go of what it had buffered; if its
        event type passes (``passes``: read from its ``event`` field, else from the
        first bytes of its data, ``value`` being the data line that overflowed), what
        it had buffered passes on."""
        if not self._oversized and self._passes is not None:
            kind = self._event
            if not kind:
                head = (self._data[0] if self._data else value.lstrip())[:_TYPE_PEEK]
                found = _TYPE_FIELD.search(head)
                kind = found.group(1) if found else b""
            self._relaying = self._passes(utf8_text(kind)[0] if kind else None)
            if self._relaying:
                event = b"event: " + self._event + b"\n" if self._event else b""
                self._relay(event + b"".join(b"data: " + v + b"\n" for v in self._data))
        self._oversized = True
        self._data.clear()
        self._size = 0

    def _lines(self, lines: list[bytes]) -> list[SSEMessage]:
        """Interpret complete lines (the hot loop: one Python step per line)."""
        out: list[SSEMessage] = []
        data = self._data
        limit = self._limit
        for line in lines:
            if not line:
                message = self._end_block()
                if message is not None:
                    if message.relayed is not None:
                        self._take_relayed(out)
                    out.append(message)
                continue
            # The two fields of almost every line are cut without ``find``.
            if line.startswith(b"data:"):
                value = line[6:] if line[5:6] == b" " else line[5:]
                name = b"data"
            elif line.startswith(b"event:"):
                value = line[7:] if line[6:7] == b" " else line[6:]
                name = b"event"
            else:
                colon = line.find(b":")
                if colon == 0:
                    continue
                if colon < 0:
                    name, value = line, b""
                else:
                    name, value = line[:colon], line[colon + 1 :]
                    if value[:1] == b" ":
                        value = value[1:]
            if name == b"data":
                if self._oversized:
                    if self._relaying:
                        self._relay(b"data: " + value + b"\n")
                    continue
                if self._size + len(value) > limit:
                    self._overflow(value)
                    if self._relaying:
                        self._relay(b"data: " + value + b"\n")
                else:
                    data.append(value)
                    self._size += len(value) + 1
            elif name == b"event":
                if len(value) > limit:
                    self._overflow()
                else:
                    self._event = value
            elif name == b"id":
                # Size first: an over-long line is judged before its end (and any
                # NUL in it) arrives, and the verdict must not depend on that.
                if len(value) > limit:
                    self._overflow()
                elif b"\0" not in value:
                    self._last_id, invalid = utf8_text(value)
                    self._invalid |= invalid
            elif name == b"retry" and value.isdigit():
                # int() refuses absurdly long digit strings; such a value is ignored.
                with contextlib.suppress(ValueError):
                    self._retry = int(value)
        return out

    def _end_block(self) -> SSEMessage | None:
        """Dispatch the current block (WHATWG: only if it has data) and reset it."""
        message = None
        if self._oversized:
            event, invalid = utf8_text(self._event)
            message = SSEMessage(
                event or None,
                "",
                self._last_id or None,
                self._invalid or invalid,
                True,
                b"\n" if self._relaying else None,
            )
        elif self._data:
            raw = b"\n".join(self._data)
            try:
                # Both valid (nearly always): one strict decode each, nothing to flag.
                event, data, invalid = self._event.decode(), raw.decode(), self._invalid
            except UnicodeDecodeError:
                data, _ = utf8_text(raw)
                event, _ = utf8_text(self._event)
                invalid = True
            # ``tuple.__new__`` with every field: ``SSEMessage``'s own ``__new__`` is a
            # Python function, a frame that doubles the cost of this per-event record.
            message = _new_tuple(
                SSEMessage, (event or None, data, self._last_id or None, invalid, False, None)
            )
        self._data.clear()
        self._size = 0
        self._event = b""
        self._oversized = False
        self._relaying = False
        self._invalid = False
        return message
