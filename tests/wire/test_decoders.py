"""The fast decoder (the ``fast`` extra, msgspec) changes no byte of any result.

Every fixture file (``fixtures/``, ``examples/``) and every stream of the bundled
vector corpus, written as JSON Lines and as SSE, plus texts chosen where msgspec and
the json module part ways (integers past 64 bits, a lone surrogate escape, ``NaN``,
a number past a double's range, bad UTF-8, a BOM, duplicate keys, ``-0.0``, deep
nesting), is reduced twice: with the json module alone, and with msgspec decoding
every event (``FAST_AFTER`` set to 0).  The results, written as JSON, must be the same
bytes.  A mutant decoder that is right on almost everything (orjson's rule: an
integer past 64 bits becomes a float) must be caught by the same comparison.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from helpers import FIXTURES, REPO
from responses_oracle import reduce
from responses_oracle.testing.conformance_vectors import corpus_vectors
from responses_oracle.wire import decode

msgspec = pytest.importorskip("msgspec")

EDGE_TEXTS = (
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","n":123456789012345678901234567890}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","n":18446744073709551616}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"\\ud800"}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":NaN}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":1e400}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":-0.0}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":-1e-400}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":2.4703282292062328e-324}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":1.7976931348623159e308}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":1.' + "1" * 800 + "}",
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":1' + "0" * 400 + "}",
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","delta":"b"}',
    '{"type":"response.output_text.delta","output_index":1.0,"delta":"a"}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a","x":'
    + "[" * 3000
    + "]" * 3000
    + "}",
    '\ufeff{"type":"response.created","response":{"id":"r"}}',
    '{"type":"response.output_text.delta","output_index":0,"delta":"a",}',
    '{"type":"response.output_text.delta" "output_index":0}',
    "[1, 2]",
    '"text"',
    "",
)
"""Event texts on which msgspec refuses or could differ; each must reduce alike."""

BAD_UTF8 = b'{"type":"response.output_text.delta","output_index":0,"delta":"\xff\xed\xa0\x80"}'


def _inputs() -> Iterator[tuple[str, bytes]]:
    for path in sorted([*FIXTURES.rglob("*"), *(REPO / "examples").rglob("*")]):
        if path.is_file() and path.suffix in {".json", ".jsonl", ".sse"}:
            yield str(path.relative_to(REPO)), path.read_bytes()
    for vector in corpus_vectors():
        lines = [json.dumps(event, ensure_ascii=False) for event in vector.events]
        yield f"{vector.name}.jsonl", "".join(f"{line}\n" for line in lines).encode()
        yield f"{vector.name}.sse", "".join(f"data: {line}\n\n" for line in lines).encode()
    created = '{"type":"response.created","response":{"id":"resp_edge"}}'
    for number, text in enumerate(EDGE_TEXTS):
        body = f"{created}\n{text}\n".encode()
        yield f"edge-{number}.jsonl", body
        yield f"edge-{number}.sse", f"data: {created}\n\ndata: {text}\n\n".encode()
    yield "bad-utf8.jsonl", BAD_UTF8 + b"\n"
    yield "bad-utf8.sse", b"data: " + BAD_UTF8 + b"\n\n"


INPUTS = dict(_inputs())


def _results(data: bytes) -> str:
    return json.dumps([result.to_dict() for result in reduce(data)], ensure_ascii=False)


def _differences(
    monkeypatch: pytest.MonkeyPatch, fast: Callable[[str | bytes], Any]
) -> tuple[list[str], int]:
    """The inputs whose results differ with ``fast`` decoding every event, and how
    many events ``fast`` was handed."""
    calls = 0

    def counted(text: str | bytes) -> Any:
        nonlocal calls
        calls += 1
        return fast(text)

    with monkeypatch.context() as patch:
        patch.setattr(decode, "_fast", [None])
        stdlib = {name: _results(data) for name, data in INPUTS.items()}
        patch.setattr(decode, "_fast", [counted])
        patch.setattr(decode, "FAST_AFTER", 0)
        differ = [name for name, data in INPUTS.items() if _results(data) != stdlib[name]]
    return differ, calls


def test_results_are_byte_identical_with_either_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    differ, calls = _differences(monkeypatch, msgspec.json.Decoder().decode)
    assert differ == []
    # Not vacuous: the corpus is large and msgspec decoded its events.
    assert len(INPUTS) > 300 and calls > 10_000


def test_a_decoder_that_rounds_long_integers_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutant: msgspec, but integers past 64 bits become floats (orjson's rule)."""
    plain = msgspec.json.Decoder().decode

    def rounding(text: str | bytes) -> Any:
        value = plain(text)
        if isinstance(value, dict):
            return {
                key: float(item) if type(item) is int and abs(item) >= 1 << 64 else item
                for key, item in value.items()
            }
        return value

    differ, _ = _differences(monkeypatch, rounding)
    assert differ and all(name.startswith("edge-") for name in differ)


def test_a_long_input_switches_to_the_fast_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default ``FAST_AFTER``, the events from that number on go to msgspec."""
    seen: list[int] = []
    plain = msgspec.json.Decoder().decode

    def counted(text: str | bytes) -> Any:
        seen.append(1)
        return plain(text)

    monkeypatch.setattr(decode, "_fast", [counted])
    events = decode.FAST_AFTER + 10
    lines = [
        json.dumps({"type": "response.output_text.delta", "output_index": 0, "delta": "a"})
        for _ in range(events)
    ]
    reduce("\n".join(lines).encode())
    assert len(seen) == 10
