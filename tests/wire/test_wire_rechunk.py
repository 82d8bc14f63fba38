"""Re-chunking corpus: wherever the input is cut, the front end yields the same events."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle.model.vocabulary import Code
from responses_oracle.wire import InputFormat, Limits, iter_wire_events
from responses_oracle.wire.sse import SSEDecoder

from .wire_cases import (
    SSE_EDGE_CASES,
    chunked,
    fixture_files,
    fixture_ids,
    one_byte_chunks,
    summary,
)

FILES = fixture_files()

LINE_CASES: dict[str, tuple[InputFormat, bytes]] = {
    "jsonl crlf, blank lines, data: prefixes, done": (
        InputFormat.JSONL,
        b'\xef\xbb\xbf{"type":"a"}\r\n\r\n  \ndata: {"type":"b"}\r\ndata:{"type":"c"}\n'
        b'data: [DONE]\n{"type":"d"}',
    ),
    "axonhub": (
        InputFormat.AXONHUB,
        b'{"LastEventID":"","Type":"a","Data":"{\\"type\\":\\"a\\"}"}\r\n\n'
        b'{"LastEventID":"1","Type":"","Data":"{\\"type\\":\\"b\\",\\"t\\":\\"\xc3\xa9\\"}"}\n'
        b'{"LastEventID":"2","Type":"done","Data":"[DONE]"}\n',
    ),
}


def events_of(
    chunks: Iterable[bytes], fmt: InputFormat = InputFormat.AUTO, limits: Limits | None = None
) -> list[tuple[object, ...]]:
    return summary(list(iter_wire_events(chunks, fmt, limits or Limits())))


@pytest.mark.parametrize("path", FILES, ids=fixture_ids(FILES))
@settings(max_examples=10, deadline=None)
@given(cuts=st.lists(st.integers(0, 60_000), max_size=30))
def test_fixture_any_chunking(path: Path, cuts: list[int]) -> None:
    data = path.read_bytes()
    assert events_of(chunked(data, cuts)) == events_of([data])


@pytest.mark.parametrize("path", FILES, ids=fixture_ids(FILES))
def test_fixture_one_byte_chunks(path: Path) -> None:
    data = path.read_bytes()
    whole = events_of([data])
    assert whole and all(event[3] is None for event in whole)
    assert events_of(one_byte_chunks(data)) == whole


@pytest.mark.parametrize("name", sorted(SSE_EDGE_CASES))
def test_sse_edge_case_any_chunking(name: str) -> None:
    data, messages = SSE_EDGE_CASES[name]
    whole = events_of([data], InputFormat.SSE)
    expected_count = sum(1 for _, text, _ in messages if text != "[DONE]")
    assert len(whole) == expected_count
    assert events_of(one_byte_chunks(data), InputFormat.SSE) == whole
    for cut in range(len(data) + 1):
        assert events_of([data[:cut], data[cut:]], InputFormat.SSE) == whole


@pytest.mark.parametrize("name", sorted(LINE_CASES))
def test_line_format_any_chunking(name: str) -> None:
    fmt, data = LINE_CASES[name]
    whole = events_of([data], fmt)
    assert [event[3] for event in whole] == [None] * len(whole)
    assert events_of([data]) == whole  # detected as the same format
    assert events_of(one_byte_chunks(data), fmt) == whole
    for cut in range(len(data) + 1):
        assert events_of([data[:cut], data[cut:]], fmt) == whole


def test_line_cases_payloads() -> None:
    _, jsonl_data = LINE_CASES["jsonl crlf, blank lines, data: prefixes, done"]
    jsonl = [e[1] for e in events_of([jsonl_data])]
    assert jsonl == [{"type": "a"}, {"type": "b"}, {"type": "c"}, {"type": "d"}]
    axonhub = events_of([LINE_CASES["axonhub"][1]])
    assert [(e[1], e[2]) for e in axonhub] == [
        ({"type": "a"}, "a"),
        ({"type": "b", "t": "\u00e9"}, None),
    ]


STREAM_TOKENS = st.sampled_from(
    [
        b"data: ",
        b"event: x\n",
        b'{"type":"a"}',
        b'{"type":"b","t":"\xc3\xa9"}',
        b"[1]",
        b"{bad",
        b"[DONE]",
        b"\n",
        b"\r\n",
        b"\n\n",
        b": c\n",
        b"\xff",
        b"\xe2\x82",
        b"xxxxxxxxxxxxxxxx",
        b'{"LastEventID":"","Type":"t","Data":"{}"}',
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    tokens=st.lists(STREAM_TOKENS, max_size=30),
    cuts=st.lists(st.integers(0, 400), max_size=8),
    fmt=st.sampled_from(list(InputFormat)),
    event_limit=st.integers(1, 40),
    total_limit=st.none() | st.integers(1, 400),
)
def test_limits_and_problems_do_not_depend_on_chunking(
    tokens: list[bytes],
    cuts: list[int],
    fmt: InputFormat,
    event_limit: int,
    total_limit: int | None,
) -> None:
    data = b"".join(tokens)
    limits = Limits(max_event_bytes=event_limit, max_total_bytes=total_limit)
    whole = events_of([data], fmt, limits)
    assert events_of(chunked(data, cuts), fmt, limits) == whole
    assert events_of(one_byte_chunks(data), fmt, limits) == whole
    if total_limit is not None and len(data) > total_limit:
        assert whole[-1][3] is Code.LIMIT_EXCEEDED


@pytest.mark.parametrize("name", sorted(SSE_EDGE_CASES))
def test_sse_a_chunk_read_from_an_offset_is_its_rest(name: str) -> None:
    # ``SSEDecoder.feed(data, start)`` (the proxy passes a chunk's rest on this way):
    # the messages of ``data[start:]``, whatever came before ``start``.
    data, _ = SSE_EDGE_CASES[name]
    for cut in range(len(data) + 1):
        sliced, offset = SSEDecoder(64), SSEDecoder(64)
        head = sliced.feed(data[:cut]), offset.feed(data[:cut])
        rest = sliced.feed(data[cut:]), offset.feed(b"x\r\n:\n\n" + data[cut:], 6)
        assert head[0] == head[1] and rest[0] == rest[1]
        assert sliced.finish() == offset.finish()
