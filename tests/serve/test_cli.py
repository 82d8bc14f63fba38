"""``responses-oracle serve`` as a harness runs it: a process, its first line, its exit.

The contract the ``agents`` runner builds on: the first stdout line is exactly
``listening on http://127.0.0.1:PORT/v1``; ``--once`` exits after every scenario was
served and continued, with the verdicts' status; SIGTERM ends a run and still writes
``verdicts.json``; anything but 127.0.0.1 is refused before a port is bound.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import openai
import pytest
from helpers import as_if_not_installed
from responses_oracle.serve import ServeError
from responses_oracle.serve.server import bind_host

from .test_clients import WEATHER, get_weather

LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)/v1")


def _serve(*args: str) -> subprocess.Popen[str]:
    main = "import sys; from responses_oracle.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", main]
    return subprocess.Popen(
        [*command, "serve", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_once_prints_the_listening_line_first_and_exits_with_the_verdicts(
    tmp_path: Path,
) -> None:
    # A scenario without quirks: stream: false gets its own terminal, which a client
    # replays as is (q11's terminal re-keys the call: a non-streaming client fails it).
    process = _serve("s01", "--once", "--out", str(tmp_path))
    assert process.stdout is not None
    first = process.stdout.readline().rstrip("\n")
    assert LISTENING.fullmatch(first), first
    client = openai.OpenAI(base_url=first.split()[-1], api_key="sk-test", max_retries=0)
    client.responses.create(model="title-model", input="a title please")  # no tools: text
    response = client.responses.create(model="gpt-test", input="hi", tools=[WEATHER])
    assert response.model == "gpt-test"
    [call] = [item for item in response.output if item.type == "function_call"]
    client.responses.create(
        model="gpt-test",
        input=[
            call.model_dump(exclude_none=True),
            {"type": "function_call_output", "call_id": call.call_id,
             "output": get_weather(**json.loads(call.arguments))},
        ],
        tools=[WEATHER],
    )
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    assert out.splitlines()[0].startswith("ok: 1 scenario(s) served")
    written = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["ok"] and written["scenarios"][0]["request_index"] == 1
    assert len((tmp_path / "requests.jsonl").read_text().splitlines()) == 3


def test_sigterm_ends_the_run_and_an_unserved_scenario_fails(tmp_path: Path) -> None:
    process = _serve("q05", "--out", str(tmp_path))
    assert process.stdout is not None
    assert LISTENING.fullmatch(process.stdout.readline().rstrip("\n"))
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 1
    assert "q05: never served" in out
    assert json.loads((tmp_path / "verdicts.json").read_text())["unserved"] == ["q05"]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.org"])
def test_any_host_but_loopback_is_refused(host: str, tmp_path: Path) -> None:
    with pytest.raises(ServeError, match=r"127\.0\.0\.1 only"):
        bind_host(host)
    process = _serve("q05", "--host", host, "--out", str(tmp_path))
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2 and out == ""
    assert "binds 127.0.0.1 only" in err


def test_a_scenario_that_finds_nothing_exits_2_before_listening(tmp_path: Path) -> None:
    process = _serve("no-such-scenario", "--out", str(tmp_path))
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert "is no file, quirk (q05)" in err


def test_an_out_folder_that_cannot_be_written_is_blamed_not_the_port() -> None:
    process = _serve("q05", "--out", "/proc/nope")
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert "--out /proc/nope: cannot write /proc/nope" in err and "listen" not in err


def test_a_deviation_the_scenario_does_not_carry_exits_2_before_listening(
    tmp_path: Path,
) -> None:
    process = _serve("s01", "--deviation", "done-only", "--out", str(tmp_path))
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert "s01 has no deviation done-only (its own: none)" in err


def test_without_the_serve_extra_it_exits_2_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from responses_oracle.cli import main

    as_if_not_installed(monkeypatch, "aiohttp", "responses_oracle.serve")
    assert main(["serve", "q05"]) == 2
    assert "pip install 'responses-oracle[serve]'" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["-1", "65536", "70000"])
def test_a_port_out_of_range_exits_2_with_one_line(port: str, tmp_path: Path) -> None:
    process = _serve("q05", "--port", port, "--out", str(tmp_path))
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert err.splitlines() == [
        f"responses-oracle: error: --port takes 0 (a free port) to 65535; got {port}"]


def test_the_idle_timeout_ends_a_run_with_the_verdicts_status(tmp_path: Path) -> None:
    process = _serve("q05", "--once", "--timeout", "1", "--out", str(tmp_path))
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 1  # q05 was never asked for
    assert "timed out: no request for 1 s (--timeout)" in out.splitlines()[1]
    written = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["ended"] == "timed out: no request for 1 s (--timeout)"
    assert written["unserved_because"] == "no request offered tools"


def test_once_has_a_documented_default_timeout() -> None:
    from responses_oracle.serve.server import ONCE_TIMEOUT, Timeout

    assert Timeout(idle=120.0, overall=600.0) == ONCE_TIMEOUT
    assert "default with --once 120,600" in " ".join(_help().split())
    assert Timeout.parse("5,30") == Timeout(5.0, 30.0)
    for bad in ("0", "-1", "a", "1,2,3"):
        with pytest.raises(ServeError, match="--timeout takes SECONDS or SECONDS,TOTAL"):
            Timeout.parse(bad)
    assert Timeout(overall=2.0).expired(0.0, 1.9, 2.0).startswith("timed out: 2 s after")
    assert Timeout(idle=2.0).expired(0.0, 1.0, 2.5) == ""


def _help() -> str:
    process = _serve("--help")
    out, _ = process.communicate(timeout=60)
    return out


def test_a_chat_completions_request_is_logged_and_told_serve_speaks_responses(
    tmp_path: Path,
) -> None:
    process = _serve("q05", "--out", str(tmp_path))
    assert process.stdout is not None
    base_url = process.stdout.readline().split()[-1]
    client = openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0)
    with pytest.raises(openai.NotFoundError, match="serve speaks only the Responses API"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=60)
    logged = json.loads((tmp_path / "requests.jsonl").read_text().splitlines()[0])
    assert logged["path"] == "/v1/chat/completions" and logged["body"]["model"] == "m"
    assert process.returncode == 1
    assert "error: request 0: serve speaks only the Responses API" in out


def test_ctrl_c_prints_and_writes_the_verdicts_then_exits_130(tmp_path: Path) -> None:
    process = _serve("q05", "--out", str(tmp_path))
    assert process.stdout is not None
    assert LISTENING.fullmatch(process.stdout.readline().rstrip("\n"))
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 130
    assert out.startswith("FAILED: 0 scenario(s) served (interrupted (SIGINT))")
    assert json.loads((tmp_path / "verdicts.json").read_text())["ended"] == (
        "interrupted (SIGINT)")


def test_the_closing_lines_include_answer_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from responses_oracle.cli.serve import _print
    from responses_oracle.serve import load_scenario, running

    from .test_clients import PARALLEL
    from .test_gateway import _first_turn, gateway

    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url
    ) as through:
        server.record_downstream(_first_turn(through))
        verdicts = server.verdicts()
    _print(verdicts, str(tmp_path))
    assert f"  {PARALLEL} gateway: answer_kept=true" in capsys.readouterr().out.splitlines()
