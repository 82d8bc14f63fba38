"""What the wire front end hands to the core: one ``WireEvent`` per event, and the limits.

A ``WireEvent`` is the decoded JSON object of one event, numbered by its position in
the whole input, plus whatever went wrong while decoding it.  The front end never
raises on bad bytes: an event it cannot decode still comes out, with ``payload`` None
and a ``problem`` code, so the core can report it and go on (design rule R1).

``Limits`` bounds the memory the front end may use.  They are chosen so that no real
stream comes near them (the largest event in the captured fixtures is well under
100 KiB) while a hostile or broken input cannot make the oracle hold gigabytes.
"""

from __future__ import annotations

from typing import Any, Final

from responses_oracle.model.recordkit import NamedTuple, record
from responses_oracle.model.vocabulary import Code

MiB: Final = 1 << 20
"""One mebibyte, the unit of the default limits."""

RAW_CHARS: Final = 2000
"""Longest ``WireEvent.raw`` text kept for a problem event; the rest is cut off."""


class WireEvent(NamedTuple):
    """One event as the front end decoded it.

    ``problem`` is None for a good event; then ``payload`` is its JSON object.  With a
    problem, ``payload`` is None, except for ``Code.INVALID_UTF8``: the bytes were
    decoded with U+FFFD replacement characters as WHATWG prescribes, and if the result
    is a JSON object it is kept in ``payload`` so the consumer can choose to use it.

    A named tuple rather than a frozen dataclass: one is made per event on the hot
    path, and a tuple is built in a third of the time.  The field ``index`` hides
    ``tuple.index``.
    """

    index: int  # type: ignore[assignment]
    """0-based position of the event in the whole input (``data: [DONE]`` not counted)."""
    payload: dict[str, Any] | None
    """The decoded JSON object; None when undecodable."""
    sse_event: str | None = None
    """The SSE ``event:`` field (or AxonHub ``Type``) when the framing had one."""
    problem: Code | None = None
    """MALFORMED_EVENT, INVALID_UTF8, NOT_AN_OBJECT or LIMIT_EXCEEDED; None when fine."""
    detail: str | None = None
    """Human-readable text for the problem."""
    raw: str | None = None
    """The raw data text when ``problem`` is set, cut to ``RAW_CHARS`` characters."""


@record(frozen=True, slots=True)
class Limits:
    """Memory bounds of the front end.  Exceeding one is reported, never fatal.

    - ``max_event_bytes`` (default 16 MiB): the largest event.  Measured on the event's
      data: for SSE the joined ``data:`` values (and any single ``event:`` or ``id:``
      value), for JSONL and AxonHub the line.  A larger event is skipped without being
      buffered and comes out as one ``LIMIT_EXCEEDED`` event; the stream goes on.
    - ``max_total_bytes`` (default None, unlimited): the whole input.  The bytes past
      it are not read; one ``LIMIT_EXCEEDED`` event ends the output.
    - ``max_document_bytes`` (default 256 MiB): the largest input of the formats that
      must be parsed whole (JSON array, HTTP recording).  A larger document yields one
      ``LIMIT_EXCEEDED`` event and nothing else.
    """

    max_event_bytes: int = 16 * MiB
    max_total_bytes: int | None = None
    max_document_bytes: int = 256 * MiB

    def __post_init__(self) -> None:
        if self.max_event_bytes < 1 or self.max_document_bytes < 1:
            raise ValueError("limits must be positive")
        if self.max_total_bytes is not None and self.max_total_bytes < 1:
            raise ValueError("max_total_bytes must be positive or None")


DEFAULT_LIMITS: Final = Limits()
"""The limits used when none are given."""
