"""What an input is: its bytes, decompressed, and whether they hold a stream at all.

Every command that reads streams -- ``reduce``, ``explain``, ``replay``, ``diff
--corpus``, ``audit`` -- asks these two questions here, so that each gives the same
answer about the same input.

Rules
-----
1. *Compression.*  An input is gzip when its name ends in ``.gz`` or its first bytes
   are gzip's magic number (``1f 8b``), Zstandard when its name ends in ``.zst`` or it
   starts with Zstandard's frame magic (``28 b5 2f fd``); else it is read as it is.
   The magic decides for standard input and for files named without the suffix.
   gzip is in the standard library; Zstandard needs ``zstandard`` (the ``zst``
   extra), and without it reading such an input is a ``MissingExtra``.  An archive
   that does not decompress raises one of ``corrupt_errors()``.
2. *Is it a stream?*  An input is a stream when at least one of its events is a JSON
   object whose ``type`` the catalogue knows (``WIRE_EVENTS``).  Plain text, binary
   data, a Chat Completions stream (``chat.completion.chunk`` objects have no
   ``type``), JSON objects that are no event and an empty input are not: they are
   ``NOT_A_STREAM``, and nothing the reducer made of them is a response.

Theory of operation.  ``decompressed`` wraps an open binary file; ``StreamCheck``
watches the events of one input go by (``watch``) and says afterwards whether they
were a stream and, if not, why (``verdict``).  The reducer sees every event either
way: a result closes only on a response event, so no result of a non-stream is
printed before the check is over.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, BinaryIO, Final

from responses_oracle.extras import require
from responses_oracle.model.catalogue import WIRE_EVENTS
from responses_oracle.wire.records import WireEvent
from responses_oracle.words import counted

if TYPE_CHECKING:
    from responses_oracle.result import Result

NOT_A_STREAM: Final = "not_a_stream"
"""What an input that holds no Responses API event is called, by every command."""

GZIP_MAGIC: Final = b"\x1f\x8b"
ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"


def _head(raw: BinaryIO) -> bytes:
    """The first bytes of ``raw`` without consuming them: peeked, or read and sought
    back; none when it can do neither."""
    peek = getattr(raw, "peek", None)
    if peek is not None:
        return bytes(peek(len(ZSTD_MAGIC))[: len(ZSTD_MAGIC)])
    if raw.seekable():
        start = raw.tell()
        head = raw.read(len(ZSTD_MAGIC))
        raw.seek(start)
        return head
    return b""


def decompressed(raw: BinaryIO, name: str) -> BinaryIO:
    """``raw`` decompressed when it is gzip or Zstandard (rule 1), else ``raw`` itself.

    Raises ``MissingExtra`` for Zstandard without ``zstandard`` installed.
    """
    lower = name.lower()
    head = b"" if lower.endswith((".gz", ".zst")) else _head(raw)
    if lower.endswith(".gz") or head.startswith(GZIP_MAGIC):
        import gzip  # here: a plain input (every small ``reduce``) never needs it

        return gzip.GzipFile(fileobj=raw)  # type: ignore[return-value]
    if lower.endswith(".zst") or head.startswith(ZSTD_MAGIC):
        zstandard = require("zstandard", "zst", "reading Zstandard (.zst) input")
        reader: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        return reader
    return raw


def corrupt_errors() -> tuple[type[BaseException], ...]:
    """The exceptions reading a ``decompressed`` input raises when its archive is corrupt.

    Ask once the input is ``decompressed``: gzip's and Zstandard's own errors are among
    them only when their module was imported, which ``decompressed`` does for an input
    of theirs; a plain input (every small ``reduce``) so never pays for importing them.
    """
    errors: list[type[BaseException]] = [EOFError, zlib.error]
    gzip = sys.modules.get("gzip")
    if gzip is not None:
        errors.append(gzip.BadGzipFile)
    zstandard = sys.modules.get("zstandard")
    if zstandard is not None:
        errors.append(zstandard.ZstdError)
    return tuple(errors)


class NotAStream(ValueError):
    """An input that is no stream (rule 2), where a command must stop at it: ``name``
    is how the user named it, ``reason`` the ``StreamCheck.verdict``."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {NOT_A_STREAM}: {reason}")
        self.name = name
        self.reason = reason


def is_wire_event(payload: object) -> bool:
    """Whether ``payload`` is a Responses API event: an object of a known ``type``."""
    if type(payload) is not dict:
        return False
    kind = payload.get("type")
    return isinstance(kind, str) and kind in WIRE_EVENTS


class StreamCheck:
    """Rule 2 for one input: feed its events through ``watch``, then ask ``verdict``."""

    def __init__(self) -> None:
        self.events = 0
        """Events seen so far."""
        self.recognised = False
        """Whether one of them was a Responses API event."""

    def see(self, event: WireEvent | object) -> None:
        """Count one event (a ``WireEvent`` or a decoded payload)."""
        self.events += 1
        if not self.recognised:
            payload = event[1] if type(event) is WireEvent else event
            self.recognised = is_wire_event(payload)

    def watch(self, events: Iterable[WireEvent]) -> Iterator[WireEvent]:
        """``events`` unchanged, each seen on its way."""
        for event in events:
            self.see(event)
            yield event

    def verdict(self, results: Sequence[Result] = ()) -> str | None:
        """None for a stream; else why it is none, with the first problem the reducer
        found in it (``results``: what it made of the input)."""
        if self.recognised:
            return None
        if not self.events:
            return "no event at all"
        first = next((d.detail for r in results for d in r.diagnostics), None)
        return f"no Responses API event in {counted(self.events, 'event')}" + (
            f" (first problem: {first})" if first else ""
        )
