"""``responses-oracle reduce``: the result contract on stdout, and the exit status."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
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

FC_PARIS = "fc_0c4f9a71d2e83b5a0069a1e4c29b3e8199b1d4f6a8c2e53f"
FC_TOKYO = "fc_0c4f9a71d2e83b5a0069a1e4c29c1a819a84c6e2b0d7f19a"


def _codes(result: dict[str, object]) -> list[str]:
    diagnostics = result["diagnostics"]
    assert isinstance(diagnostics, list)
    return sorted(d["code"] for d in diagnostics)


def test_parallel_calls_reduce_to_three_items_with_both_calls_executable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse")
    assert status == 0
    [result] = lines(out)
    assert result["response"] == {
        "id": "resp_0c4f9a71d2e83b5a0069a1e4c28f5481a0b7c3d9e2f4a61b",
        "status": "completed",
    }
    items = result["items"]
    assert [i["output_index"] for i in items] == [0, 1, 2]
    assert [i["item"]["type"] for i in items] == ["reasoning", "function_call", "function_call"]
    paris, tokyo = items[1]["item"], items[2]["item"]
    assert (paris["id"], paris["call_id"], paris["arguments"]) == (
        FC_PARIS,
        "call_qN4vT8xKb2WmL7sRz0YdHj3E",
        '{"city":"Paris","unit":"c"}',
    )
    assert (tokyo["id"], tokyo["arguments"]) == (FC_TOKYO, '{"city":"Tokyo","unit":"c"}')
    assert [i["executable"] for i in items] == [False, True, True]
    assert items[0]["item"]["summary"][0]["text"].startswith("**Checking two cities**")
    assert result["diagnostics"] == []


def test_mantle_call_keeps_its_id_and_loses_the_stray_fields(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "reduce", EXAMPLES / "mantle-missing-id.jsonl")
    assert status == 0
    [result] = lines(out)
    call = result["items"][1]
    assert call["item"] == {
        "arguments": '{"path":"README.md"}',
        "call_id": "call_9f4e27b05c1a8d63",
        "id": "fc_c2a95f0e7d3b8146",
        "name": "read_file",
        "status": "completed",
        "type": "function_call",
    }
    assert (call["id_source"], call["executable"]) == ("wire", True)


def test_blanked_terminal_arguments_never_erase_the_real_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "reduce", EXAMPLES / "blank-terminal-args.jsonl")
    assert status == 0
    [result] = lines(out)
    call = result["items"][1]
    assert call["item"]["arguments"] == '{"query":"refund policy for damaged items","top_k":5}'
    assert call["payload_source"] == "snapshot"
    assert _codes(result) == ["empty_payload_ignored"]
    assert result["diagnostics"][0]["event_index"] == 13


def test_rotating_ids_keep_the_first_id_and_the_plaintext_arguments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "reduce", EXAMPLES / "copilot-rotating-ids.jsonl")
    assert status == 0
    [result] = lines(out)
    [call] = result["items"]
    first_line = (EXAMPLES / "copilot-rotating-ids.jsonl").read_text().splitlines()[2]
    assert call["item"]["id"] == json.loads(first_line)["item"]["id"]
    assert call["item"]["arguments"] == (
        '{"command":["git","status","--short"],"workdir":"/home/dev/shop-api"}'
    )
    assert call["executable"] is True
    assert _codes(result) == [
        "divergent_payload",
        "id_changed",
        "id_changed",
        "item_id_unrecognized",
        "item_id_unrecognized",
        "item_id_unrecognized",
        "response_id_changed",
        "response_id_changed",
    ]


def test_a_stream_cut_before_its_terminal_event_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "cut.jsonl", jsonl(function_call_stream(complete=False)))
    status, out, _ = run(capsys, "reduce", path)
    assert status == 1
    [result] = lines(out)
    assert result["response"]["status"] == "interrupted"
    assert result["items"][0]["item"]["arguments"] == '{"city":"Paris"}'
    assert result["items"][0]["executable"] is False
    assert "missing_terminal" in _codes(result)


def test_a_tool_loop_gives_one_line_per_response(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = function_call_stream("resp_a", "fc_a", "call_a") + function_call_stream(
        "resp_b", "fc_b", "call_b", '{"city":"Oslo"}'
    )
    status, out, _ = run(capsys, "reduce", write(tmp_path, "loop.jsonl", jsonl(events)))
    assert status == 0
    results = lines(out)
    assert [r["response"]["id"] for r in results] == ["resp_a", "resp_b"]
    assert [r["items"][0]["item"]["call_id"] for r in results] == ["call_a", "call_b"]


def test_one_bad_response_of_two_makes_the_exit_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = function_call_stream("resp_a") + function_call_stream("resp_b", complete=False)
    status, out, _ = run(capsys, "reduce", write(tmp_path, "loop.jsonl", jsonl(events)))
    assert status == 1
    assert [r["response"]["status"] for r in lines(out)] == ["completed", "interrupted"]


def test_dash_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (EXAMPLES / "parallel-calls.sse").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "reduce", "-")
    assert status == 0
    [result] = lines(out)
    assert [i["item"].get("call_id") for i in result["items"]] == [
        None,
        "call_qN4vT8xKb2WmL7sRz0YdHj3E",
        "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B",
    ]


def test_format_forces_the_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "stream.txt", jsonl(function_call_stream()))
    status, out, err = run(capsys, "reduce", path, "--format", "sse")
    # Read as SSE, JSON lines are unknown fields: no event at all, and a hint about --format.
    assert (status, out) == (3, "")
    assert f"{path}: not_a_stream" in err and "--format" in err
    status, out, _ = run(capsys, "reduce", path, "--format", "jsonl")
    assert status == 0
    assert lines(out)[0]["items"][0]["item"]["id"] == "fc_1"


def test_json_array_is_spelled_with_a_hyphen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "events.json", json.dumps(function_call_stream()))
    status, out, _ = run(capsys, "reduce", path, "--format", "json-array")
    assert status == 0
    assert lines(out)[0]["items"][0]["item"]["arguments"] == '{"city":"Paris"}'


def test_pretty_renders_the_items_for_people_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    as_terminal(monkeypatch)
    status, out, _ = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse", "--pretty")
    assert status == 0
    out = plain(out)
    assert "response 1" in out
    assert "output items" in out
    assert "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B" in out
    assert out.count("executable: yes") == 2
    assert not out.lstrip().startswith("{")


def test_front_end_limit_is_a_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "reduce", EXAMPLES / "parallel-calls.sse", "--max-event-bytes", "1k"
    )
    assert status == 1
    [result] = lines(out)
    assert "limit_exceeded" in _codes(result)
    assert result["response"]["status"] == "interrupted"


def test_reducer_limit_is_a_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse", "--max-entries", "2")
    assert status == 1
    [result] = lines(out)
    assert len(result["items"]) == 2
    assert _codes(result).count("limit_exceeded") == 1


def test_a_missing_file_exits_2_and_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "reduce", "no/such/stream.sse")
    assert (status, out) == (2, "")
    assert "cannot read no/such/stream.sse" in err
    assert "check the path" in err


def test_a_directory_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "reduce", tmp_path)
    assert status == 2
    assert "is a directory" in err


def test_an_unknown_format_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse", "--format", "xml")
    assert status == 2
    assert "invalid choice: 'xml'" in err
    for choice in ("auto", "sse", "jsonl", "json-array", "recording", "axonhub"):
        assert f"'{choice}'" in err


@pytest.mark.parametrize("value", ["0", "-3", "lots"])
def test_a_bad_limit_exits_2(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "reduce", EXAMPLES / "parallel-calls.sse", f"--max-total-bytes={value}"
    )
    assert status == 2
    assert "expected a positive number" in err


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys)
    assert status == 2
    assert "reduce" in err and "explain" in err and "replay" in err


@pytest.mark.parametrize("command", ["reduce", "explain", "replay"])
def test_help_shows_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    assert "examples:" in out
    assert f"  responses-oracle {command} examples/" in out
    example = out.split(f"  responses-oracle {command} ", 1)[1].split()[0]
    assert (EXAMPLES / Path(example).name).is_file()


def test_top_level_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "responses-oracle reduce examples/parallel-calls.sse --pretty" in out
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith("responses-oracle ")


def test_the_installed_console_script(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("responses-oracle")
    found = str(script) if script.exists() else shutil.which("responses-oracle")
    assert found is not None, "install the package: pip install -e . (see the README)"
    done = subprocess.run(
        [found, "reduce", str(EXAMPLES / "blank-terminal-args.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    [result] = lines(done.stdout)
    assert result["items"][1]["item"]["call_id"] == "call_Wd3hR7yPz1LqK8vNc5TgXm2A"
    assert result["items"][1]["item"]["arguments"].startswith('{"query":"refund policy')
    missing = subprocess.run(
        [found, "reduce", str(tmp_path / "missing.sse")], capture_output=True, text=True
    )
    assert missing.returncode == 2
    assert "no such file" in missing.stderr


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _long_stream(tmp_path: Path) -> Path:
    blob = "x" * (1 << 20)
    events = function_call_stream(arguments=json.dumps({"blob": blob}))
    return write(tmp_path, "long.jsonl", jsonl(events))


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_on_a_terminal_stderr_unless_quiet(
    quiet: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _long_stream(tmp_path)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    status, out, _ = run(capsys, "reduce", path, *(["--quiet"] if quiet else []))
    assert status == 0
    assert len(lines(out)[0]["items"][0]["item"]["arguments"]) > 1 << 20
    shown = terminal.getvalue()
    assert (shown == "") is quiet
    assert ("reducing" in shown) is not quiet


def test_no_progress_bar_for_a_short_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    status, _, _ = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse")
    assert status == 0
    assert terminal.getvalue() == ""


def test_hostile_strings_are_printed_not_interpreted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A lone surrogate is legal in a JSON escape but not encodable; "[bold]" is rich markup.
    arguments = '{"a":"\ud800 Zürich"}'
    events = function_call_stream(item_id="fc_[bold]x[/bold]", arguments=arguments)
    path = write(tmp_path, "hostile.jsonl", jsonl(events))
    status, out, _ = run(capsys, "reduce", path)
    assert status == 0
    [result] = lines(out)
    assert result["items"][0]["item"]["arguments"] == arguments
    as_terminal(monkeypatch)
    for command in (["reduce", "--pretty"], ["explain"]):
        status, out, _ = run(capsys, *command, path)
        assert status == 0
        assert not out.startswith("{")
        assert "fc_[bold]x[/bold]" in plain(out)
        assert "\\ud800" in plain(out)
