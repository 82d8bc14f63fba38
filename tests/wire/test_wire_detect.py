"""detect_format picks the right format on simple inputs (fixtures: test_wire_fixtures)."""

from __future__ import annotations

import json

import pytest
from responses_oracle.wire import InputFormat, detect_format, iter_wire_events

RECORDING = json.dumps(
    {
        "version": 1,
        "metadata": {"name": "x"},
        "interactions": [{"request": {}, "response": {"body": 'data: {"type":"a"}\n\n'}}],
    },
    indent=2,
).encode()


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"", InputFormat.SSE),
        (b" \r\n\n", InputFormat.SSE),
        (b'event: a\ndata: {"type":"a"}\n\n', InputFormat.SSE),
        (b'data: {"type":"a"}\n\ndata: {"type":"b"}\n\n', InputFormat.SSE),
        (b'data: {"type":"a"}\nevent: a\n\n', InputFormat.SSE),
        (b': hello\n\ndata: {"type":"a"}\n\n', InputFormat.SSE),
        (b"\xef\xbb\xbfid: 1\ndata: {}\n\n", InputFormat.SSE),
        (b'# stray line\nevent: a\ndata: {"type":"a"}\n\n', InputFormat.SSE),
        (b'data: {"a":\ndata: 1}\n\n', InputFormat.SSE),  # multi-line data, not JSONL
        (b'data: {"type":"a"}', InputFormat.SSE),
        (b'data: {"type":"a"}\ndata: {"type":"b"}\ndata: [DONE]\n', InputFormat.JSONL),
        (b'data: [DONE]\ndata: {"type":"b"}\n', InputFormat.JSONL),
        (b'{"type":"a"}\n{"type":"b"}\n', InputFormat.JSONL),
        (b'\xef\xbb\xbf  {"type":"a"}\r\n', InputFormat.JSONL),
        (b'{"type":"a","pad":"' + b"x" * 70_000, InputFormat.JSONL),  # cut first line
        (b"garbage\nmore garbage\n", InputFormat.JSONL),
        (b'[{"type":"a"}]', InputFormat.JSON_ARRAY),
        (b'\n  [\n  {"type":"a"}\n]', InputFormat.JSON_ARRAY),
        (RECORDING, InputFormat.RECORDING),
        (json.dumps(json.loads(RECORDING)).encode(), InputFormat.RECORDING),
        (RECORDING[:-30], InputFormat.RECORDING),  # cut by the head
        (b'{"LastEventID":"","Type":"a","Data":"{}"}\n', InputFormat.AXONHUB),
        (b'{"Type":"a","Data":"{\\"x\\":\\"' + b"y" * 70_000, InputFormat.AXONHUB),
        (b'{"type":"a","text":"\\"interactions\\": no"}\n', InputFormat.JSONL),
    ],
)
def test_detect(head: bytes, expected: InputFormat) -> None:
    assert detect_format(head) is expected


def test_auto_decodes_each_format() -> None:
    inputs = {
        b'event: a\ndata: {"type":"a"}\n\n': [{"type": "a"}],
        b'data: {"type":"a"}\ndata: {"type":"b"}\n': [{"type": "a"}, {"type": "b"}],
        b'[{"type":"a"}, {"type":"b"}]': [{"type": "a"}, {"type": "b"}],
        RECORDING: [{"type": "a"}],
        b'{"LastEventID":"","Type":"a","Data":"{\\"type\\":\\"a\\"}"}\n': [{"type": "a"}],
    }
    for data, payloads in inputs.items():
        for chunks in ([data], [data[:7], data[7:]]):
            events = list(iter_wire_events(chunks))
            assert [e.payload for e in events] == payloads
