"""Hostile input: every problem becomes a documented event and the events after it still come."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle.model.vocabulary import Code
from responses_oracle.wire import InputFormat, Limits, WireEvent, iter_wire_events, read_wire_events

GOOD = b'{"type":"response.output_text.delta","delta":"ok"}'
GOOD_PAYLOAD = json.loads(GOOD)


def run(data: bytes, fmt: InputFormat, limits: Limits | None = None) -> list[WireEvent]:
    return list(iter_wire_events([data], fmt, limits or Limits()))


def sse(*datas: bytes) -> bytes:
    return b"".join(b"event: e\ndata: " + d + b"\n\n" for d in datas)


def jsonl(*datas: bytes) -> bytes:
    return b"".join(d + b"\n" for d in datas)


def axonhub(*datas: bytes) -> bytes:
    return b"".join(
        json.dumps({"LastEventID": "", "Type": "e", "Data": d.decode("utf-8", "surrogateescape")},
                   ensure_ascii=False).encode("utf-8", "surrogateescape") + b"\n"
        for d in datas
    )


FRAMINGS: dict[InputFormat, Callable[..., bytes]] = {
    InputFormat.SSE: sse,
    InputFormat.JSONL: jsonl,
    InputFormat.AXONHUB: axonhub,
}
STREAMING = [InputFormat.AXONHUB, InputFormat.JSONL, InputFormat.SSE]


@pytest.mark.parametrize("fmt", STREAMING)
@pytest.mark.parametrize(
    ("bad", "code", "detail"),
    [
        (b'{"type": "x",}', Code.MALFORMED_EVENT, "invalid JSON: "),
        (b"[" * 100_000, Code.MALFORMED_EVENT, "invalid JSON: nested too deeply"),
        (b'{"n": ' + b"9" * 5000 + b"}", Code.MALFORMED_EVENT, "invalid JSON"),
        (b"[1, 2]", Code.NOT_AN_OBJECT, "event is an array, not a JSON object"),
        (b'"text"', Code.NOT_AN_OBJECT, "event is a string, not a JSON object"),
        (b"3.5", Code.NOT_AN_OBJECT, "event is a number, not a JSON object"),
        (b"null", Code.NOT_AN_OBJECT, "event is null, not a JSON object"),
    ],
)
def test_bad_event_then_good_event(fmt: InputFormat, bad: bytes, code: Code, detail: str) -> None:
    events = run(FRAMINGS[fmt](GOOD, bad, GOOD), fmt)
    assert [(e.index, e.problem, e.payload) for e in events] == [
        (0, None, GOOD_PAYLOAD),
        (1, code, None),
        (2, None, GOOD_PAYLOAD),
    ]
    assert events[1].detail is not None and events[1].detail.startswith(detail)
    assert events[1].raw == bad.decode()[:2000]
    assert events[1].sse_event == (None if fmt is InputFormat.JSONL else "e")


@pytest.mark.parametrize("fmt", STREAMING)
def test_invalid_utf8_is_reported_with_the_replaced_payload(fmt: InputFormat) -> None:
    bad = b'{"type":"x","t":"a\xffb"}'
    events = run(FRAMINGS[fmt](bad, b'{"t":"\xe2\x82"', GOOD), fmt)
    assert [e.problem for e in events] == [Code.INVALID_UTF8, Code.INVALID_UTF8, None]
    assert events[0].payload == {"type": "x", "t": "a\ufffdb"}
    assert events[0].raw == '{"type":"x","t":"a\ufffdb"}'
    # Bad bytes and bad JSON: the bytes name the problem, the JSON error is in the detail.
    assert events[1].payload is None
    assert events[1].detail is not None and "invalid JSON" in events[1].detail
    assert events[2].payload == GOOD_PAYLOAD


@pytest.mark.parametrize("fmt", STREAMING)
def test_oversized_event_is_skipped_and_the_stream_goes_on(fmt: InputFormat) -> None:
    big = b'{"type":"x","pad":"' + b"p" * 500 + b'"}'
    limits = Limits(max_event_bytes=200)
    events = run(FRAMINGS[fmt](GOOD, big, GOOD), fmt, limits)
    assert [(e.index, e.problem, e.payload) for e in events] == [
        (0, None, GOOD_PAYLOAD),
        (1, Code.LIMIT_EXCEEDED, None),
        (2, None, GOOD_PAYLOAD),
    ]
    assert events[1].detail == "event exceeds max_event_bytes (200 bytes); skipped"


@pytest.mark.parametrize("fmt", STREAMING)
def test_total_limit_stops_reading(fmt: InputFormat) -> None:
    data = FRAMINGS[fmt](GOOD, GOOD, GOOD)
    one = len(FRAMINGS[fmt](GOOD))
    pulled: list[int] = []

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), 10):
            pulled.append(start)
            yield data[start : start + 10]

    limits = Limits(max_total_bytes=one + 5)
    events = list(iter_wire_events(chunks(), fmt, limits))
    assert [(e.index, e.problem) for e in events] == [(0, None), (1, Code.LIMIT_EXCEEDED)]
    assert events[1].detail == f"input exceeds max_total_bytes ({one + 5} bytes); rest not read"
    assert max(pulled) < one + 10  # nothing past the chunk that crossed the limit was read


def test_total_limit_not_reached() -> None:
    data = sse(GOOD, GOOD)
    events = run(data, InputFormat.SSE, Limits(max_total_bytes=len(data)))
    assert [e.problem for e in events] == [None, None]


@pytest.mark.parametrize(
    ("document", "problems"),
    [
        (b'[{"type":"a"}, 3, "[DONE]", {"type":"b"}]', [None, Code.NOT_AN_OBJECT, None]),
        (b'[{"type":"a"}, ', [Code.MALFORMED_EVENT]),
        (b'{"type":"a"}', [Code.MALFORMED_EVENT]),
        (b'[{"t":"\xff"}, {"type":"b"}]', [Code.INVALID_UTF8, None, None]),
    ],
)
def test_json_array_problems(document: bytes, problems: list[Code | None]) -> None:
    events = run(document, InputFormat.JSON_ARRAY)
    assert [e.problem for e in events] == problems
    assert [e.index for e in events] == list(range(len(events)))


def test_raw_never_holds_lone_surrogates() -> None:
    (event,) = run(b'["a\\ud800b"]', InputFormat.JSON_ARRAY)
    assert (event.problem, event.raw) == (Code.NOT_AN_OBJECT, '"a\ufffdb"')
    (event,) = run(b'{"interactions": 1, "x": "\xff"}', InputFormat.RECORDING)
    assert event.raw == '{"interactions": 1, "x": "\ufffd"}'


def recording(*bodies: object) -> bytes:
    interactions = [{"request": {}, "response": {"status": 200, "body": b}} for b in bodies]
    return json.dumps({"version": 1, "metadata": {}, "interactions": interactions}).encode()


def test_recording_problems_are_per_interaction() -> None:
    document = recording(
        'data: {"type":"a"}\n\n',
        {"not": "sse"},
        'data: {"type":"b"}\n\ndata: nope\n\ndata: {"type":"c"}\n\n',
    )
    events = run(document, InputFormat.RECORDING)
    assert [(e.problem, e.payload) for e in events] == [
        (None, {"type": "a"}),
        (Code.MALFORMED_EVENT, None),
        (None, {"type": "b"}),
        (Code.MALFORMED_EVENT, None),
        (None, {"type": "c"}),
    ]
    assert events[1].detail == "interaction 1: response body is not an SSE string"


def test_recording_bad_bytes_are_flagged_on_their_own_event() -> None:
    good = recording('data: {"type":"a","t":"X"}\n\n', 'data: {"type":"b"}\n\n')
    document = good.replace(b"X", b"\xff")
    events = run(document, InputFormat.RECORDING)
    assert [(e.problem, e.payload) for e in events] == [
        (Code.INVALID_UTF8, {"type": "a", "t": "\ufffd"}),
        (None, {"type": "b"}),
    ]
    lone = run(recording('data: {"type":"a","t":"\ud800"}\n\n'), InputFormat.RECORDING)
    assert [e.problem for e in lone] == [Code.INVALID_UTF8]


@pytest.mark.parametrize(
    "document", [b"{}", b'{"interactions": 3}', b"[]", b"not json", b'{"interactions": [7]}']
)
def test_not_a_recording(document: bytes) -> None:
    events = run(document, InputFormat.RECORDING)
    assert [e.problem for e in events] == [Code.MALFORMED_EVENT]


@pytest.mark.parametrize("fmt", [InputFormat.JSON_ARRAY, InputFormat.RECORDING])
def test_document_limit(fmt: InputFormat) -> None:
    document = b"[" + b", ".join([GOOD] * 50) + b"]"
    events = run(document, fmt, Limits(max_document_bytes=100))
    assert [(e.index, e.problem) for e in events] == [(0, Code.LIMIT_EXCEEDED)]
    truncated = run(document, fmt, Limits(max_total_bytes=100))
    assert [(e.index, e.problem) for e in truncated] == [(0, Code.LIMIT_EXCEEDED)]
    assert truncated[0].detail is not None and "max_total_bytes" in truncated[0].detail


def test_axonhub_line_that_is_not_a_record() -> None:
    data = b'{"LastEventID":"","Type":"a","Data":{"type":"a"}}\n[1]\n{bad\n' + axonhub(GOOD)
    events = run(data, InputFormat.AXONHUB)
    assert [e.problem for e in events] == [Code.MALFORMED_EVENT] * 3 + [None]


def test_raw_is_cut_to_2000_characters() -> None:
    events = run(sse(b"{" + b"x" * 5000), InputFormat.SSE)
    assert events[0].problem is Code.MALFORMED_EVENT
    assert events[0].raw == "{" + "x" * 1999


def test_read_wire_events_sources(tmp_path: Path) -> None:
    data = sse(GOOD) * 3_000  # several 64 KiB chunks
    path = tmp_path / "stream.sse"
    path.write_bytes(data)
    expected = [e.payload for e in run(data, InputFormat.AUTO)]
    assert len(expected) == 3_000
    for source in (str(path), path, data, io.BytesIO(data), io.BufferedReader(io.BytesIO(data))):
        assert [e.payload for e in read_wire_events(source)] == expected


@pytest.mark.parametrize("fmt", list(InputFormat))
@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300), limit=st.integers(1, 64))
def test_arbitrary_bytes_never_raise(fmt: InputFormat, data: bytes, limit: int) -> None:
    events = list(iter_wire_events([data], fmt, Limits(max_event_bytes=limit)))
    assert [e.index for e in events] == list(range(len(events)))
    for event in events:
        if event.problem is None:
            assert type(event.payload) is dict and event.detail is None and event.raw is None
        else:
            assert event.detail
            assert event.payload is None or event.problem is Code.INVALID_UTF8
            assert event.raw is None or len(event.raw) <= 2000
