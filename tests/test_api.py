"""The public API at the package root: what ``reduce`` accepts, and the names it exports.

``reduce`` takes bytes, a path, a ``str`` (text or path, by ``is_stream_text``), a
binary or a text file, and an iterable of events; every kind of the same stream gives
the same results.  The root exports every name a caller needs, lazily.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import responses_oracle
from helpers import REPO
from responses_oracle import (
    SEVERITY,
    Code,
    Diagnostic,
    InputFormat,
    Limits,
    Reducer,
    ReducerLimits,
    Result,
    ResultItem,
    Severity,
    reduce,
    replay_input,
)
from responses_oracle.reducer import is_stream_text

PARALLEL = REPO / "examples" / "parallel-calls.sse"
MANTLE = REPO / "examples" / "mantle-missing-id.jsonl"


def _answers(results: list[Result]) -> list[dict[str, Any]]:
    return [result.to_dict() for result in results]


@pytest.mark.parametrize("example", [PARALLEL, MANTLE], ids=lambda p: p.name)
def test_every_kind_of_source_gives_the_same_results(example: Path) -> None:
    data = example.read_bytes()
    text = data.decode("utf-8")
    expected = _answers(reduce(data))
    assert expected and expected[0]["items"]
    assert _answers(reduce(example)) == expected  # a Path
    assert _answers(reduce(str(example))) == expected  # a str without a line break: a path
    assert _answers(reduce(text)) == expected  # a str holding the stream
    assert _answers(reduce(bytearray(data))) == expected
    assert _answers(reduce(memoryview(data))) == expected
    assert _answers(reduce(io.BytesIO(data))) == expected
    assert _answers(reduce(io.StringIO(text))) == expected  # a text file
    with example.open(encoding="utf-8") as file:  # a text-mode file on disk
        assert _answers(reduce(file)) == expected
    with example.open("rb") as binary:
        assert _answers(reduce(binary)) == expected
    events = [
        json.loads(line.removeprefix("data: "))
        for line in text.splitlines()
        if line.startswith("data: {")
    ] or [json.loads(line) for line in text.splitlines() if line.strip()]
    assert _answers(reduce(events)) == expected  # decoded events
    assert _answers(reduce(iter(events))) == expected


def test_the_str_rule() -> None:
    assert is_stream_text('{"type": "response.created"}')
    assert is_stream_text('  [{"type": "response.created"}]')
    assert is_stream_text("event: x\ndata: {}\n")
    assert not is_stream_text("captures/stream.sse")
    assert not is_stream_text(r"C:\\captures\\run 1.sse")
    # A one-line JSON array given as text is read as text, not opened as a file.
    array = json.dumps([{"type": "response.created", "response": {"id": "resp_1"}}])
    [result] = reduce(array)
    assert result.response_id == "resp_1"


def test_a_missing_path_raises_file_not_found_and_one_event_is_refused() -> None:
    with pytest.raises(FileNotFoundError):
        reduce("no/such/capture.sse")
    with pytest.raises(TypeError, match=r"pass \[event\]"):
        reduce({"type": "response.created"})  # type: ignore[arg-type]


def test_a_lone_surrogate_in_text_is_a_diagnostic_not_an_exception() -> None:
    text = 'data: {"type":"response.created","response":{"id":"resp_\ud800"}}\n\n'
    [result] = reduce(io.StringIO(text))
    assert Code.INVALID_UTF8 in {d.code for d in result.diagnostics}


def test_the_root_exports_what_a_caller_needs() -> None:
    [result] = reduce(PARALLEL, format=InputFormat.SSE, limits=ReducerLimits(max_entries=2),
                      wire_limits=Limits(max_event_bytes=1 << 20))
    assert isinstance(result, Result) and all(isinstance(i, ResultItem) for i in result.items)
    [limit] = [d for d in result.diagnostics if d.code is Code.LIMIT_EXCEEDED]
    assert isinstance(limit, Diagnostic) and SEVERITY[limit.code] in set(Severity)
    assert isinstance(Reducer(), Reducer)
    assert replay_input(item.item for item in result.items)
    assert result.to_dict()["diagnostics"][0]["code"] == "limit_exceeded"
    assert result.to_json() == result.to_dict()  # the deprecated name, same dict
    assert set(responses_oracle.__all__) <= set(dir(responses_oracle))
    assert isinstance(responses_oracle.__version__, str)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        responses_oracle.nothing  # noqa: B018 - the attribute access is the test


def test_importing_the_package_imports_no_reducer() -> None:
    script = "import sys, responses_oracle; print('responses_oracle.reducer' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "False"
