"""Shared material for the wire tests: fixture inventory, SSE edge cases, a reference decoder.

``reference_sse`` is a deliberately naive, whole-input transcription of the WHATWG
event-stream interpretation (decode everything, split lines with a regex, walk them
one by one).  It is the oracle the incremental ``SSEDecoder`` is compared against.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from helpers import PEERS
from responses_oracle.wire import WireEvent

Message = tuple[str | None, str, str | None]
"""(event, data, id) of one dispatched message."""

RECORDING_COUNTS: Final[dict[str, list[int]]] = {
    # Events per interaction: the number of `data:` blocks in each response body.
    "continues-gpt-5-5-with-the-shared-responses-protocol.json": [11, 11],
    "openai-gpt-oss-120b-continues-text-and-tools-after-switching-effort.json": [15, 15, 13, 9],
    "openai-gpt-oss-20b-continues-text-and-tools-after-switching-effort.json": [15, 15, 13, 15],
    "streams-text.json": [18],
}
AXONHUB_COUNTS: Final[dict[str, int]] = {"tool-2.stream.jsonl": 146}


def ai_sdk_counts(peers: Path) -> dict[str, int]:
    """Events per ai-sdk file, as SOURCES.tsv records them (path relative to ai-sdk/)."""
    with (peers / "ai-sdk" / "SOURCES.tsv").open(newline="") as table:
        return {row["file"]: int(row["events"]) for row in csv.DictReader(table, delimiter="\t")}


def fixture_files() -> list[Path]:
    """Every event file in the vendored peers folder (``fixtures/peers``)."""
    return sorted(
        path
        for path in PEERS.rglob("*")
        if path.is_file() and path.suffix in {".json", ".jsonl"}
    )


def fixture_ids(paths: list[Path]) -> list[str]:
    """Short test ids for fixture paths."""
    return [f"{path.parent.name}/{path.name[:40]}" for path in paths]


def chunked(data: bytes, cuts: list[int]) -> Iterator[bytes]:
    """``data`` cut at the given positions (any order, duplicates and ends allowed)."""
    start = 0
    for cut in sorted(set(cuts)):
        if start < cut <= len(data):
            yield data[start:cut]
            start = cut
    yield data[start:]


def one_byte_chunks(data: bytes) -> Iterator[bytes]:
    """``data`` one byte at a time."""
    return (data[i : i + 1] for i in range(len(data)))


def summary(events: list[WireEvent]) -> list[tuple[object, ...]]:
    """The fields of events that must not depend on chunking."""
    return [
        (e.index, e.payload, e.sse_event, e.problem, e.detail, e.raw) for e in events
    ]


_LINE_END: Final = re.compile("\r\n|\r|\n")


def reference_sse(data: bytes, *, dispatch_at_eof: bool = True) -> list[Message]:
    """The WHATWG interpretation of a whole stream (plus the optional EOF dispatch)."""
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_END.split(text)
    tail = lines.pop()
    if dispatch_at_eof and tail:
        lines.append(tail)
    out: list[Message] = []
    event, buffer, last_id = "", "", ""
    for line in [*lines, ""] if dispatch_at_eof else lines:
        if line == "":
            if buffer:
                out.append((event or None, buffer.removesuffix("\n"), last_id or None))
            event, buffer = "", ""
            continue
        if line.startswith(":"):
            continue
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            event = value
        elif field == "data":
            buffer += value + "\n"
        elif field == "id" and "\0" not in value:
            last_id = value
    return out


SSE_EDGE_CASES: Final[dict[str, tuple[bytes, list[Message]]]] = {
    "lf": (
        b'event: response.created\ndata: {"type":"response.created"}\n\n',
        [("response.created", '{"type":"response.created"}', None)],
    ),
    "crlf": (
        b'event: a\r\ndata: {"n":1}\r\n\r\ndata: {"n":2}\r\n\r\n',
        [("a", '{"n":1}', None), (None, '{"n":2}', None)],
    ),
    "cr": (
        b'event: a\rdata: {"n":1}\r\rdata: {"n":2}\r\r',
        [("a", '{"n":1}', None), (None, '{"n":2}', None)],
    ),
    "mixed line ends": (
        b'data: {"n":1}\r\n\ndata: {"n":2}\r\rdata: {"n":3}\n\r\n',
        [(None, '{"n":1}', None), (None, '{"n":2}', None), (None, '{"n":3}', None)],
    ),
    "bom": (
        b'\xef\xbb\xbfdata: {"n":1}\n\n',
        [(None, '{"n":1}', None)],
    ),
    "second bom is not stripped": (
        b'\xef\xbb\xbf\xef\xbb\xbfdata: {"n":1}\n\ndata: {"n":2}\n\n',
        [(None, '{"n":2}', None)],
    ),
    "comments": (
        b': keepalive\n\n:\ndata: {"n":1}\n: between\n\n',
        [(None, '{"n":1}', None)],
    ),
    "multi-line data": (
        b'data: {"a":\ndata: 1,\ndata:"b":2}\n\n',
        [(None, '{"a":\n1,\n"b":2}', None)],
    ),
    "event after data": (
        b'data: {"type":"x"}\nevent: x\n\n',
        [("x", '{"type":"x"}', None)],
    ),
    "unknown fields and odd spacing": (
        b'# not a comment\nfoo: bar\ndata:  {"n":1}\nDATA: {}\nretry: 3000\n\n',
        [(None, ' {"n":1}', None)],
    ),
    "field without colon": (
        b"data\ndata\n\n",
        [(None, "\n", None)],
    ),
    "empty data dispatches an empty message": (
        b"data:\n\n",
        [(None, "", None)],
    ),
    "no data no dispatch": (
        b"event: ping\n\n",
        [],
    ),
    "event type resets after a block without data": (
        b'event: ping\n\ndata: {"n":1}\n\n',
        [(None, '{"n":1}', None)],
    ),
    "id persists, NUL id ignored": (
        b'id: 7\ndata: {"n":1}\n\nid: a\x00b\ndata: {"n":2}\n\nid\ndata: {"n":3}\n\n',
        [(None, '{"n":1}', "7"), (None, '{"n":2}', "7"), (None, '{"n":3}', None)],
    ),
    "split utf-8": (
        'data: {"t":"h\u00e9llo \u20ac \U0001d11e"}\n\n'.encode(),
        [(None, '{"t":"h\u00e9llo \u20ac \U0001d11e"}', None)],
    ),
    "done sentinel": (
        b'data: {"type":"response.completed"}\n\ndata: [DONE]\n\n',
        [(None, '{"type":"response.completed"}', None), (None, "[DONE]", None)],
    ),
    "body kept open after terminal": (
        b'event: response.completed\ndata: {"type":"response.completed"}\n\n'
        b": keepalive\n\n: keepalive\n\nevent: response.output_text.delta\n"
        b'data: {"type":"response.output_text.delta"}\n\n: still open\n',
        [
            ("response.completed", '{"type":"response.completed"}', None),
            ("response.output_text.delta", '{"type":"response.output_text.delta"}', None),
        ],
    ),
    "unterminated final event": (
        b'data: {"n":1}\n\ndata: {"n":2}',
        [(None, '{"n":1}', None), (None, '{"n":2}', None)],
    ),
}
"""Hand-written SSE streams and the messages WHATWG (plus the EOF dispatch) gives."""
