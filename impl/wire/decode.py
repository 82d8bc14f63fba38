"""The JSON step of the front end: one event's text in, one numbered ``WireEvent`` out.

Every format ends here.  ``EventBuilder`` numbers the events of one input in order
and turns each text into a ``WireEvent``: ``json.loads`` decodes it; a JSON object is
the payload; anything else becomes a problem event carrying the text, so nothing is
dropped without a trace.  ``json.loads`` raises ``ValueError`` on bad JSON (and on
integers longer than Python's digit limit) and ``RecursionError`` on absurd nesting;
both become ``MALFORMED_EVENT``.  The ``[DONE]`` sentinel is recognised here, as both
official SDKs do, by a data text that starts with it: it gets no event and no number.

A text that is one JSON value with no whitespace around it (every event a server
writes) goes straight to the json module's scanner, the call ``json.loads`` ends in
anyway; its Python layers cost ~40% of the decoding of an event (``_loads``).

With the ``fast`` extra installed (msgspec), an input's events from its
``FAST_AFTER``-th on are decoded by msgspec's JSON decoder, which takes a third of the
instructions of ``json.loads``.  The json module stays the judge: msgspec's value is
kept only when it decodes the text without error, and then it is the value
``json.loads`` gives (the same objects, key order, ``int`` for every integer however
long, and the last of duplicate keys); every text it refuses — bad JSON, a lone
surrogate escape, ``NaN``, a number out of a double's range, deep nesting — is decoded
again by ``_loads``, so the value or the error, and so every diagnostic, is the json
module's.  ``tests/wire/test_decoders.py`` reduces every fixture and the vector corpus
both ways and compares the bytes of the results.  The first events of an input always
go through the json module, so that a short input (a ``reduce`` of a small file) does
not pay for importing msgspec.  ``RESPONSES_ORACLE_JSON=stdlib`` turns msgspec off.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from responses_oracle.model.vocabulary import Code
from responses_oracle.wire.records import RAW_CHARS, WireEvent

BOM: Final = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark; one at the very start of an input is dropped."""

DONE: Final = "[DONE]"
"""The end-of-stream sentinel some servers send as the last ``data:``."""

DONE_BYTES: Final = DONE.encode("ascii")
"""``DONE`` as the bytes that start a line holding it."""

_LINE_MARKS: Final = (b"data:", DONE_BYTES)
"""What a JSON Lines line may start with besides its JSON: a ``data:`` prefix, ``[DONE]``."""

_new_tuple: Final = tuple.__new__
"""Builds a named tuple from a tuple of all its fields, without its ``__new__``."""

_SURROGATE: Final = "[\ud800-\udfff]"
"""A lone surrogate.  A pattern, not compiled at import: ``re`` compiles it on first use
(a problem event) and caches it; compiling it costs 2% of a small ``reduce``."""

_UTF8_DETAIL: Final = "event bytes are not valid UTF-8 (decoded with U+FFFD)"

# ``scan_once`` is the attribute ``JSONDecoder.raw_decode`` calls (not in typeshed).
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
"""The scanner under ``json.loads``: a decoder with the default settings, as its own."""

_JSON_KINDS: Final[dict[type, str]] = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}
"""How a decoded non-object JSON value is named in a ``NOT_AN_OBJECT`` detail."""


def utf8_text(raw: bytes) -> tuple[str, bool]:
    """Decode UTF-8 the WHATWG way (U+FFFD for bad bytes); say whether it had to."""
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace"), True


def is_done(text: str) -> bool:
    """True when an event's data text is the ``[DONE]`` sentinel."""
    return text.startswith(DONE)


def _printable(text: str) -> str:
    """``text`` with each lone surrogate (from a ``\\ud800`` escape or a byte kept by
    ``surrogateescape``) shown as U+FFFD, so that ``raw`` always encodes."""
    return re.sub(_SURROGATE, "\ufffd", text)


def _loads(text: str) -> Any:
    """``json.loads(text)``, without its Python layers when ``text`` is one bare value.

    ``json.loads`` skips leading whitespace, scans one value, skips trailing whitespace
    and checks that nothing follows.  When the scan from position 0 ends exactly at the
    end of the text there was nothing to skip or check: the value is the same.  Every
    other text (whitespace, a BOM, bad JSON) goes through ``json.loads`` itself, so
    its value or its error is exactly ``json.loads``'s.
    """
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):
        return json.loads(text)
    return value if end == len(text) else json.loads(text)


FAST_AFTER: Final = 256
"""Events of an input decoded by the json module before msgspec is imported."""

Decoder = Callable[[str | bytes], Any]
"""A JSON decoder: text or UTF-8 bytes in, the value out (raises on bad input)."""

_fast: list[Decoder | None] = []
"""The fast decoder, once looked for: ``[decoder]``, or ``[None]`` without one."""


def fast_decoder() -> Decoder | None:
    """msgspec's JSON decoder if the ``fast`` extra is installed and not turned off by
    ``RESPONSES_ORACLE_JSON=stdlib``; None otherwise.  Looked for once per process."""
    if not _fast:
        decoder: Decoder | None = None
        if os.environ.get("RESPONSES_ORACLE_JSON") != "stdlib":
            try:
                # By name: the extra is optional, and mypy must pass without it.
                msgspec_json = importlib.import_module("msgspec.json")
            except ImportError:
                pass
            else:
                decoder = msgspec_json.Decoder().decode
        _fast.append(decoder)
    return _fast[0]


Encoder = Callable[[Any], bytes]
"""A JSON encoder: a value in, its compact JSON text as UTF-8 bytes out."""

@cache
def fast_encoder() -> Encoder | None:
    """msgspec's JSON encoder where ``fast_decoder`` is msgspec's (the ``fast`` extra,
    not turned off); None otherwise.  Looked for once per process."""
    if fast_decoder() is None:
        return None
    encoder: Encoder = importlib.import_module("msgspec.json").Encoder().encode
    return encoder


def preview(value: Any) -> str | None:
    """JSON text of an already-decoded value, cut for ``WireEvent.raw``."""
    try:
        return json.dumps(value, ensure_ascii=False)[:RAW_CHARS]
    except (ValueError, RecursionError):
        return None


class EventBuilder:
    """Numbers the events of one input and builds their ``WireEvent`` records."""

    def __init__(self) -> None:
        self._next = 0
        self._fast: Decoder | None = None
        """The fast decoder, from event ``FAST_AFTER`` on (None before, or none)."""
        self._look_at = FAST_AFTER
        """The event number from which the fast decoder is looked for (once)."""

    @property
    def upcoming(self) -> int:
        """The number the next event will get."""
        return self._next

    def take(self, count: int = 1) -> int:
        """The next event's number, taken (also for an event read by ``good``); with
        ``count``, the next ``count`` numbers, the first returned."""
        index = self._next
        self._next = index + count
        return index

    def event(self, payload: dict[str, Any], sse_event: str | None = None) -> WireEvent:
        """A good event whose JSON object is already decoded."""
        return WireEvent(self.take(), payload, sse_event)

    def problem(
        self,
        code: Code,
        detail: str,
        raw: str | None = None,
        sse_event: str | None = None,
        payload: dict[str, Any] | None = None,
    ) -> WireEvent:
        """An event that could not be decoded cleanly."""
        return WireEvent(
            self.take(),
            payload,
            sse_event,
            code,
            detail,
            None if raw is None else _printable(raw[:RAW_CHARS]),
        )

    def jsonl_line(self, line: bytes) -> WireEvent | None:
        """A JSON Lines line (non-blank, stripped): one JSON event, optionally prefixed
        ``data:``; None for a ``[DONE]`` sentinel.  The bytes are UTF-8, decoded the
        WHATWG way.

        The fast decoder reads the bytes themselves when it has been loaded: it
        checks the UTF-8 as strictly as ``bytes.decode``, so bytes it accepts decode
        to the same text.  Without it, bytes that are UTF-8 and one bare JSON object
        are scanned here, as ``decode`` would.  Everything else is decoded as
        ``utf8_text`` does and goes through ``decode``.  A method (the framer's line
        handler) rather than a function calling one: a frame fewer per event.
        """
        # One test for the usual line, which starts with neither.  The sentinel is
        # ASCII: the bytes start with it exactly when their text does.
        if line.startswith(_LINE_MARKS):
            if line.startswith(b"data:"):
                line = line[5:].lstrip()
            if line.startswith(DONE_BYTES):
                return None
        fast = self._fast
        if fast is not None:
            try:
                value = fast(line)
            except Exception:  # refused: the text path below says what it is
                value = None
        elif self._next < self._look_at:
            # The json module's path of a good event, inline: what ``decode`` and
            # ``_loads`` do for a bare JSON object (two frames fewer an event).  Any
            # other text goes the whole way below, which decodes it again.
            try:
                text = line.decode("utf-8")
                value, end = _SCAN(text, 0)
            except (StopIteration, ValueError, RecursionError):
                value = None
            else:
                if end != len(text):
                    value = None
        else:
            value = None
        if type(value) is dict:
            index = self._next
            self._next = index + 1
            return _new_tuple(WireEvent, (index, value, None, None, None, None))
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:  # the replaced text, as ``utf8_text`` gives it
            return self.decode(line.decode("utf-8", "replace"), None, True)
        return self.decode(text)

    def decode(
        self, text: str, sse_event: str | None = None, invalid_utf8: bool = False
    ) -> WireEvent:
        """Decode one event's JSON text.  ``invalid_utf8``: U+FFFD replaced bad bytes."""
        fast = self._fast
        if fast is None and self._next >= self._look_at:
            fast = self._fast = fast_decoder()
            self._look_at = sys.maxsize
        try:
            if fast is None:
                value = _loads(text)
            else:
                try:
                    value = fast(text)
                except Exception:  # refused: the json module says what it is
                    value = _loads(text)
        except ValueError as exc:
            error = f"invalid JSON: {exc}" if text.strip() else "empty event data"
            return self.flawed(Code.MALFORMED_EVENT, error, text, sse_event, invalid_utf8)
        except RecursionError:
            error = "invalid JSON: nested too deeply"
            return self.flawed(Code.MALFORMED_EVENT, error, text, sse_event, invalid_utf8)
        if type(value) is not dict:
            error = f"event is {_JSON_KINDS.get(type(value), 'a value')}, not a JSON object"
            return self.flawed(Code.NOT_AN_OBJECT, error, text, sse_event, invalid_utf8)
        if invalid_utf8:
            return self.problem(Code.INVALID_UTF8, _UTF8_DETAIL, text, sse_event, value)
        # The path of every good event: ``_index`` inline, and the record built by
        # ``tuple.__new__`` from all its fields (``WireEvent``'s own ``__new__`` is a
        # Python function, a frame that doubles the cost).
        index = self._next
        self._next = index + 1
        return _new_tuple(WireEvent, (index, value, sse_event, None, None, None))

    def good(self, data: bytes) -> dict[str, Any] | None:
        """The object ``decode`` reads from ``data`` (UTF-8 bytes, their text its
        ``text``) when it is a good event: strict UTF-8, one JSON object; else None.
        Nothing is numbered: ``take`` does that once the caller keeps the event."""
        fast = self._fast
        if fast is None and self._next >= self._look_at:
            fast = self._fast = fast_decoder()
            self._look_at = sys.maxsize
        try:
            # msgspec checks the UTF-8 as strictly as ``bytes.decode``.
            value = _loads(data.decode()) if fast is None else fast(data)
        except Exception:  # refused: ``decode`` says what it is
            return None
        return value if type(value) is dict else None

    def flawed(
        self, code: Code, error: str, text: str, sse_event: str | None, invalid_utf8: bool
    ) -> WireEvent:
        """A problem event for ``text``.  Bad bytes come first in the pipeline, so if
        there were any they name the problem and ``error``, probably their
        consequence, goes into the detail."""
        if invalid_utf8:
            return self.problem(Code.INVALID_UTF8, f"{_UTF8_DETAIL}; {error}", text, sse_event)
        return self.problem(code, error, text, sse_event)
