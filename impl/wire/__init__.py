"""The wire front end: input bytes -> ``WireEvent``, one per event, in input order.

Theory of operation.  Three steps, each in its own module:

1. *Framing* cuts bytes into one text per event.  Raw Server-Sent Events go through
   ``SSEDecoder`` (``sse``), an incremental decoder that follows the WHATWG
   event-stream rules exactly (any chunking; CR, LF or CRLF; ``event:`` before or
   after ``data:``; multi-line data; comments; a leading BOM); line formats through
   ``lines.LineSplitter``; whole documents are parsed at once (``framers``).
2. *JSON* decodes each text with the standard library's ``json.loads`` (``decode``).
3. *Records*: each event becomes a frozen ``WireEvent`` numbered by its position;
   an event that cannot be decoded still becomes one, with a ``problem`` code
   (``MALFORMED_EVENT``, ``INVALID_UTF8``, ``NOT_AN_OBJECT``, ``LIMIT_EXCEEDED``), so
   the core reports it and reduces the rest (design rule R1).  ``data: [DONE]`` is a
   sentinel and yields nothing.

Formats (``InputFormat``; ``detect_format`` picks one, rules in ``formats``):
SSE as sent on the wire; JSONL, one event a line, optionally prefixed ``data:`` (the
vercel/ai fixture form); a JSON array of events; HTTP recordings whose interactions
carry SSE response bodies (opencode's cassettes); AxonHub's ``{"LastEventID","Type",
"Data"}`` lines.  A file may hold several responses back to back; they keep their
order.  Memory is bounded by ``Limits``: streaming formats hold one event and one
chunk at a time, and an oversized event is skipped as it arrives, not buffered.

Evidence: transport facts in ``reference/protocol-notes.md`` section 1 (framing, data-only
servers, ``[DONE]``, bodies kept open after the terminal event), the captured
streams in ``fixtures/peers``, and the WHATWG HTML standard's event-stream section.
"""

from responses_oracle.wire.formats import (
    InputFormat,
    detect_format,
    iter_wire_batches,
    iter_wire_events,
    read_wire_batches,
    read_wire_events,
)
from responses_oracle.wire.records import DEFAULT_LIMITS, Limits, WireEvent
from responses_oracle.wire.sse import SSEDecoder, SSEMessage

__all__ = [
    "DEFAULT_LIMITS",
    "InputFormat",
    "Limits",
    "SSEDecoder",
    "SSEMessage",
    "WireEvent",
    "detect_format",
    "iter_wire_batches",
    "iter_wire_events",
    "read_wire_batches",
    "read_wire_events",
]
