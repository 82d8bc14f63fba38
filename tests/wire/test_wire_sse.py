"""SSEDecoder: the WHATWG event-stream rules, under any chunking, with limits and bad bytes."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle.wire import SSEDecoder, SSEMessage

from .wire_cases import SSE_EDGE_CASES, Message, chunked, one_byte_chunks, reference_sse


def decode(
    chunks: Iterable[bytes],
    max_event_bytes: int | None = None,
    discard_incomplete: bool = False,
) -> list[SSEMessage]:
    decoder = SSEDecoder(max_event_bytes, discard_incomplete=discard_incomplete)
    out: list[SSEMessage] = []
    for chunk in chunks:
        out.extend(decoder.feed(chunk))
    out.extend(decoder.finish())
    return out


def triples(messages: list[SSEMessage]) -> list[Message]:
    return [(m.event, m.data, m.id) for m in messages]


@pytest.mark.parametrize("name", sorted(SSE_EDGE_CASES))
def test_edge_case(name: str) -> None:
    data, expected = SSE_EDGE_CASES[name]
    assert triples(decode([data])) == expected
    assert triples(decode(one_byte_chunks(data))) == expected
    assert reference_sse(data) == expected
    assert not any(m.invalid_utf8 or m.oversized for m in decode([data]))


@pytest.mark.parametrize("name", sorted(SSE_EDGE_CASES))
def test_edge_case_every_single_cut(name: str) -> None:
    # Every two-chunk split: catches a cut inside CRLF, a UTF-8 sequence or the BOM.
    data, expected = SSE_EDGE_CASES[name]
    for cut in range(len(data) + 1):
        assert triples(decode([data[:cut], data[cut:]])) == expected, cut


def test_crlf_split_between_cr_and_lf_is_one_line_end() -> None:
    # `a\r` + `\n` must not read as CR (end of line) then LF (an empty line = dispatch).
    chunks = [b"data: 1\r", b"\n", b"data: 2\r", b"", b"\n\r\n"]
    assert triples(decode(chunks)) == [(None, "1\n2", None)]


def test_whatwg_eof_rule_discards_the_unterminated_block() -> None:
    data = b'data: {"n":1}\n\ndata: {"n":2}\n'
    assert triples(decode([data], discard_incomplete=True)) == [(None, '{"n":1}', None)]
    assert reference_sse(data, dispatch_at_eof=False) == [(None, '{"n":1}', None)]
    assert triples(decode([data])) == [(None, '{"n":1}', None), (None, '{"n":2}', None)]


def test_retry_and_last_event_id() -> None:
    decoder = SSEDecoder()
    decoder.feed(b"retry: 2500\nretry: 12x\nretry: 9" + b"9" * 5000 + b"\nid: e1\n\n")
    assert decoder.retry == 2500
    assert decoder.last_event_id == "e1"
    (message,) = decoder.feed(b"data: x\n\n")
    assert message.id == "e1"
    decoder.finish()
    # After finish a further stream keeps the id, as an EventSource reconnection does.
    (message,) = decoder.feed(b"data: y\n\n")
    assert message.id == "e1"


def test_invalid_utf8_is_replaced_and_flagged_per_block() -> None:
    data = b"data: a\xffb\n\ndata: ok\n\nevent: \xe2\x82\ndata: c\n\ndata: \xf0\x80\x80z\n\n"
    messages = decode(one_byte_chunks(data))
    assert triples(messages) == [
        (None, "a\ufffdb", None),
        (None, "ok", None),
        ("\ufffd", "c", None),
        # WHATWG: F0 80 80 is three errors (80 is not a valid second byte after F0).
        (None, "\ufffd\ufffd\ufffdz", None),
    ]
    assert [m.invalid_utf8 for m in messages] == [True, False, True, True]
    assert triples(messages) == reference_sse(data)


def test_invalid_utf8_in_ignored_lines_is_not_flagged() -> None:
    messages = decode([b": \xff comment\nfoo\xff: x\ndata: ok\n\n"])
    assert [(m.data, m.invalid_utf8) for m in messages] == [("ok", False)]


@pytest.mark.parametrize(
    "data",
    [
        b"data: " + b"x" * 40 + b"\n\n",  # one long line
        b"data: " + b"x" * 20 + b"\ndata: " + b"x" * 20 + b"\n\n",  # joined data too long
        b"event: " + b"e" * 40 + b"\ndata: x\n\n",  # a too long event name
        b"\xef\xbb\xbfdata: " + b"x" * 40 + b"\n\n",  # with a BOM in front
        b"id: " + b"x" * 20 + b"\x00" + b"x" * 20 + b"\ndata: x\n\n",  # too long, even with NUL
    ],
)
def test_oversized_block_is_reported_and_the_stream_goes_on(data: bytes) -> None:
    stream = data + b'data: {"n":2}\n\n'
    for chunks in ([stream], one_byte_chunks(stream)):
        messages = decode(chunks, max_event_bytes=32)
        assert [(m.data, m.oversized) for m in messages] == [("", True), ('{"n":2}', False)]


def test_limit_is_exact_on_the_joined_data() -> None:
    fits = b"data: " + b"x" * 15 + b"\ndata: " + b"y" * 16 + b"\n\n"  # 15 + LF + 16 = 32
    over = b"data: " + b"x" * 16 + b"\ndata: " + b"y" * 16 + b"\n\n"
    for cut in range(len(over) + 1):
        assert [m.oversized for m in decode([fits[:cut], fits[cut:]], max_event_bytes=32)] == [
            False
        ]
        assert [m.oversized for m in decode([over[:cut], over[cut:]], max_event_bytes=32)] == [
            True
        ]


def test_long_comments_and_unknown_fields_are_skipped_not_reported() -> None:
    data = b": " + b"c" * 100 + b"\nx-pad: " + b"p" * 100 + b"\ndata: ok\n\n"
    assert [(m.data, m.oversized) for m in decode(one_byte_chunks(data), max_event_bytes=8)] == [
        ("ok", False)
    ]


def test_an_oversized_line_is_not_buffered() -> None:
    decoder = SSEDecoder(max_event_bytes=1000)
    decoder.feed(b"data: ")
    for _ in range(1000):
        decoder.feed(b"x" * 1000)
    assert decoder._partial_len <= 1000 + 10  # what is held stays within limit + slack
    assert [m.oversized for m in decoder.feed(b"\n\ndata: 1\n\n")] == [True, False]


SSE_TOKENS = st.sampled_from(
    [
        b"data",
        b"data:",
        b"data: ",
        b"event:",
        b"event: ",
        b"id:",
        b"id: ",
        b"retry: ",
        b":",
        b" ",
        b"\r",
        b"\n",
        b"\r\n",
        b"\n\n",
        b"x",
        b"{}",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xc3\xa9",
        b"\xe2\x82",
        b"\xff",
        b"[DONE]",
        b"12",
    ]
)
SSE_BYTES = st.lists(SSE_TOKENS, max_size=40).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=SSE_BYTES, cuts=st.lists(st.integers(0, 200), max_size=8))
def test_matches_the_reference_under_any_chunking(data: bytes, cuts: list[int]) -> None:
    chunks = list(chunked(data, cuts))
    assert triples(decode(chunks)) == reference_sse(data)
    assert triples(decode(chunks, discard_incomplete=True)) == reference_sse(
        data, dispatch_at_eof=False
    )


@settings(max_examples=200, deadline=None)
@given(
    data=SSE_BYTES,
    cuts=st.lists(st.integers(0, 200), max_size=8),
    limit=st.integers(1, 12),
)
def test_limits_and_flags_do_not_depend_on_chunking(
    data: bytes, cuts: list[int], limit: int
) -> None:
    whole = decode([data], max_event_bytes=limit)
    assert decode(chunked(data, cuts), max_event_bytes=limit) == whole
    assert decode(one_byte_chunks(data), max_event_bytes=limit) == whole
    for message in whole:
        # U+FFFD takes more bytes than the bad byte it replaces, hence the exception.
        assert message.oversized or message.invalid_utf8 or len(message.data.encode()) <= limit


_BIG = b'{"type":"response.image_generation_call.partial_image","partial_image_b64":"' + (
    b"A" * 3000
) + b'"}'
_PASSED = b"event: response.image_generation_call.partial_image\ndata: " + _BIG + b"\n\n"
_DROPPED = b'data: {"type":"response.output_item.done","item":"' + b"B" * 3000 + b'"}\n\n'
_SMALL = b'data: {"type":"response.output_text.delta","delta":"hi"}\n\n'


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=3300), max_size=12), st.booleans())
def test_an_oversized_block_of_a_passed_type_comes_out_as_its_bytes_in_any_chunking(
    cuts: list[int], named: bool
) -> None:
    # ``passes``: the type is read from the ``event`` field, or from the data's first
    # bytes when the block has none; the block's bytes come out in place, the dropped
    # one's do not, and nothing of either is kept.
    passed = _PASSED if named else _PASSED.split(b"\n", 1)[1]
    data = _SMALL + passed + _SMALL + _DROPPED + _SMALL
    decoder = SSEDecoder(1000, passes=lambda kind: kind is not None and "partial" in kind)
    out: list[SSEMessage] = []
    start = 0
    for cut in [*sorted({c for c in cuts if c < len(data)}), len(data)]:
        out += decoder.feed(data[start:cut])
        start = cut
    out += decoder.finish()
    kinds = [
        "piece" if m.relayed is not None and not m.oversized else
        "end" if m.relayed is not None else "dropped" if m.oversized else "message"
        for m in out
    ]
    assert [k for i, k in enumerate(kinds) if k != "piece" or kinds[i - 1] != "piece"] == [
        "message", "piece", "end", "message", "dropped", "message",
    ]
    assert b"".join(m.relayed for m in out if m.relayed is not None) == passed
