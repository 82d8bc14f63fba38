"""Incremental LF line splitting with a per-line size limit, for the line formats.

JSONL and AxonHub records are one JSON value a line.  JSON text never holds a raw CR
or LF inside a string, so LF alone ends a line and a CR before it is only whitespace.
The splitter keeps the unterminated last line between chunks, as pieces joined once
when its end arrives.  A line longer than the limit is not buffered: once its held
bytes pass the limit they are dropped, the rest of the line is skipped as it
arrives, and ``None`` stands in its place when its end is reached, so the consumer
reports it in its position in the stream.  A leading UTF-8 BOM is removed from the
first line; it counts toward that line's size, so the verdict is the same wherever
the chunks were cut.
"""

from __future__ import annotations

import sys

from responses_oracle.wire.decode import BOM


class LineSplitter:
    """Split a byte stream fed in chunks into LF-terminated lines.

    ``feed`` and ``finish`` return the completed lines without their LF; ``None`` in
    the list is a line over ``max_line_bytes`` (None: unlimited) that was discarded.
    """

    def __init__(self, max_line_bytes: int | None = None) -> None:
        self._limit = sys.maxsize if max_line_bytes is None else max_line_bytes
        self._partial: list[bytes] = []
        self._partial_len = 0
        self._skip_line = False
        self._first_line = True

    def feed(self, data: bytes) -> list[bytes | None]:
        """Take the next chunk; return the lines it completed."""
        end = data.rfind(b"\n")
        if end < 0:
            self._hold(data)
            return []
        complete, rest = data[:end], data[end + 1 :]
        if self._partial:
            self._partial.append(complete)
            complete = b"".join(self._partial)
            self._partial.clear()
            self._partial_len = 0
        lines: list[bytes | None] = list(complete.split(b"\n"))
        if self._skip_line:
            self._skip_line = False
            lines[0] = None
        if len(complete) > self._limit:
            lines = [None if line is not None and len(line) > self._limit else line
                     for line in lines]
        self._strip_bom(lines)
        if rest:
            self._hold(rest)
        return lines

    def finish(self) -> list[bytes | None]:
        """End of input: return the unterminated last line, if any, and reset."""
        lines: list[bytes | None] = []
        if self._skip_line:
            lines.append(None)
        elif self._partial:
            lines.append(b"".join(self._partial))
        self._partial.clear()
        self._partial_len = 0
        self._skip_line = False
        self._strip_bom(lines)
        self._first_line = True
        return lines

    def _strip_bom(self, lines: list[bytes | None]) -> None:
        """Remove the BOM from the stream's first line, once it is complete."""
        if self._first_line and lines:
            self._first_line = False
            first = lines[0]
            if first is not None and first.startswith(BOM):
                lines[0] = first[len(BOM) :]

    def _hold(self, piece: bytes) -> None:
        """Keep an unterminated line piece, or drop the line once it is too long."""
        if self._skip_line or not piece:
            return
        self._partial.append(piece)
        self._partial_len += len(piece)
        if self._partial_len > self._limit:
            self._partial.clear()
            self._partial_len = 0
            self._skip_line = True
