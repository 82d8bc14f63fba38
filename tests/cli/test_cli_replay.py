"""``responses-oracle replay``: the next request's ``input`` items, one array per response."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from .cli_helpers import (
    EXAMPLES,
    as_terminal,
    function_call_stream,
    jsonl,
    lines,
    plain,
    run,
    write,
)


def test_a_cut_call_gets_a_synthetic_aborted_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "cut.jsonl", jsonl(function_call_stream(complete=False)))
    status, out, _ = run(capsys, "replay", path)
    assert status == 1
    [replayed] = lines(out)
    assert replayed == [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
            "status": "in_progress",
        },
        {
            "type": "function_call_output",
            "id": "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4",
            "call_id": "call_1",
            "output": "aborted",
        },
    ]


def test_parallel_calls_each_get_their_output_right_after_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "replay", EXAMPLES / "parallel-calls.sse")
    assert status == 0
    [replayed] = lines(out)
    assert [(i["type"], i.get("call_id")) for i in replayed] == [
        ("reasoning", None),
        ("function_call", "call_qN4vT8xKb2WmL7sRz0YdHj3E"),
        ("function_call_output", "call_qN4vT8xKb2WmL7sRz0YdHj3E"),
        ("function_call", "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B"),
        ("function_call_output", "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B"),
    ]
    assert all(i["id"].startswith("fco_") for i in replayed if i["type"].endswith("_output"))


def test_mantle_replay_has_the_id_and_no_stray_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", EXAMPLES / "mantle-missing-id.jsonl")
    assert status == 0
    call = lines(out)[0][1]
    assert call["id"] == "fc_c2a95f0e7d3b8146"
    assert "item_id" not in call and "output_index" not in call


def test_one_array_a_line_per_response_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = function_call_stream("resp_a", "fc_a", "call_a") + function_call_stream(
        "resp_b", "fc_b", "call_b"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(jsonl(events).encode())))
    status, out, _ = run(capsys, "replay", "-")
    assert status == 0
    assert len(out.splitlines()) == 2
    assert [[(i["type"], i["call_id"]) for i in array] for array in lines(out)] == [
        [("function_call", "call_a"), ("function_call_output", "call_a")],
        [("function_call", "call_b"), ("function_call_output", "call_b")],
    ]


def test_pretty_renders_each_array_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = EXAMPLES / "blank-terminal-args.jsonl"
    # Into a pipe or a file, --pretty changes nothing: one array a line.
    status, piped, _ = run(capsys, "replay", stream, "--pretty")
    assert status == 0
    assert piped == run(capsys, "replay", stream)[1]
    [replayed] = lines(piped)
    assert replayed[1]["arguments"] == '{"query":"refund policy for damaged items","top_k":5}'
    assert replayed[2]["type"] == "function_call_output"
    # On a terminal: a title per response, then the array indented.
    as_terminal(monkeypatch)
    status, out, _ = run(capsys, "replay", stream, "--pretty")
    assert status == 0
    text = plain(out)
    assert "response 1" in text
    array = text[text.index("\n["):]
    assert json.loads(array) == replayed
