"""The agents runner, end to end: real clients against the real ``serve``, real verdicts.

openai-agents (Python) is installed for the test suite; openai-agents for JavaScript is
the one Node agent, installed by the recording script's own install step (small: 25
packages) into the agents folder. The heavy agents (codex, opencode, the gateways)
never run here: only ``tools/record_agents.py`` runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from record_agents import install
from responses_oracle.agents.profiles import BY_NAME, Install, Profile
from responses_oracle.agents.report import headline, marks, terminal
from responses_oracle.agents.runner import Cell, run_cell, run_client
from responses_oracle.agents.scenario_list import resolve


def _scenario(name: str) -> str:
    return resolve([name])[0].argument()


def _verdicts(cell: Cell) -> list[tuple[str, bool | None, bool | None, bool | None]]:
    return [
        (c.call_id, c.values["executed"], c.values["history_faithful"], c.values["api_valid"])
        for c in cell.calls
    ]


def test_openai_agents_runs_the_tool_of_a_plain_call_and_replays_it_faithfully(
    tmp_path: Path,
) -> None:
    cell = run_cell(BY_NAME["openai-agents"], _scenario("s01"), tmp_path / "s01")
    assert cell.ran, cell.reason
    assert cell.requests >= 2
    assert _verdicts(cell) == [("call_s01", True, True, True)]
    assert marks(cell) == {"executed": "ok", "history_faithful": "ok", "api_valid": "ok"}
    # Every request the client sent was logged by serve, in its own folder.
    lines = (tmp_path / "s01" / "requests.jsonl").read_text().splitlines()
    assert len(lines) == cell.requests


def test_openai_agents_runs_both_parallel_calls(tmp_path: Path) -> None:
    cell = run_cell(BY_NAME["openai-agents"], _scenario("s04"), tmp_path / "s04")
    assert cell.ran, cell.reason
    assert sorted(_verdicts(cell)) == [
        ("call_s04a", True, True, True), ("call_s04b", True, True, True)]


def test_openai_python_s_two_readings_of_a_stream_are_two_rows(tmp_path: Path) -> None:
    """#42: openai-python's README shows two ways to read a streamed turn.  On q11 (the
    Onyx gateway rebuilds the call in response.completed with a fresh item id) the
    streaming helper refuses the turn by its own identity check, while the raw events
    read from ``response.output_item.done`` run the call and replay it paired with its
    output: two rows, so no verdict hides the driver's choice between them."""
    helper = run_cell(BY_NAME["openai-python"], _scenario("q11"), tmp_path / "final")
    assert helper.ran and helper.exit_status == 1, helper.reason + helper.output
    assert "Completed response output identity changed" in helper.output
    assert _verdicts(helper)[0][:2] == ("call_1", False)
    events = run_cell(BY_NAME["openai-python-events"], _scenario("q11"), tmp_path / "events")
    assert events.ran and events.exit_status == 0, events.reason + events.output
    assert _verdicts(events) == [("call_1", True, True, True)]
    # The same loop otherwise: a plain call runs and replays the same either way.
    plain = [run_cell(BY_NAME[name], _scenario("s01"), tmp_path / name)
             for name in ("openai-python", "openai-python-events")]
    assert [_verdicts(cell) for cell in plain] == [[("call_s01", True, True, True)]] * 2


def test_a_client_that_sends_no_request_is_not_run_never_a_verdict(tmp_path: Path) -> None:
    silent = Profile(
        name="silent", kind="agent", package="", version="", install=Install("project", "", ()),
        command=(sys.executable, "-c", "import sys; sys.exit(4)", "{base_url}"),
        driven="", sandbox="",
    )
    cell = run_cell(silent, _scenario("s01"), tmp_path / "silent")
    assert not cell.ran and cell.calls == []
    assert cell.reason == "the client sent no request (exit status 4)"
    assert marks(cell) == dict.fromkeys(("executed", "history_faithful", "api_valid"), "not run")
    assert headline([cell]).startswith("NOT RUN: 1 cell not run (silent)")


def test_a_client_past_its_timeout_is_ended(tmp_path: Path) -> None:
    sleeper = Profile(
        name="sleeper", kind="agent", package="", version="", install=Install("project", "", ()),
        command=(sys.executable, "-c", "import time; time.sleep(60)", "{base_url}"),
        driven="", sandbox="", timeout=2.0,
    )
    cell = run_cell(sleeper, _scenario("s01"), tmp_path / "sleeper")
    assert not cell.ran and cell.exit_status is None
    assert cell.reason == "the client sent no request (still running after 2 s: ended)"


def test_a_client_not_installed_is_not_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RESPONSES_ORACLE_AGENTS", str(tmp_path / "empty"))
    cells = run_client(BY_NAME["codex"], [_scenario("s01")], tmp_path / "out")
    assert [(c.ran, c.reason) for c in cells] == [
        (False, "not installed (run tools/record_agents.py codex)")]
    assert "not run" in terminal(cells)


def test_the_client_sees_only_its_temporary_home(tmp_path: Path) -> None:
    # A client that prints its environment, then talks to serve like openai-agents.
    script = tmp_path / "env_then_agent.py"
    driver = Path(BY_NAME["openai-agents"].install.executable())
    script.write_text(
        "import json, os, runpy, sys\n"
        "json.dump(dict(os.environ), open(sys.argv[3], 'w'))\n"
        f"sys.argv = [{str(driver)!r}, sys.argv[1], sys.argv[2]]\n"
        "runpy.run_path(os.path.join(os.path.dirname(__file__), 'agent.py'),"
        " run_name='__main__')\n"
    )
    seen = tmp_path / "env.json"
    profile = Profile(
        name="env", kind="library", package="", version="", install=Install("project", "", ()),
        command=("{bin}", str(script), "{base_url}", "{prompt}", str(seen)), driven="",
        sandbox="",
    )
    shutil.copy(
        Path(__file__).resolve().parents[2] / "impl/agents/drivers/openai_agents_py.py",
        tmp_path / "agent.py",
    )
    cell = run_cell(profile, _scenario("s01"), tmp_path / "run")
    env = json.loads(seen.read_text())
    assert cell.ran and _verdicts(cell) == [("call_s01", True, True, True)]
    assert Path(env["HOME"]).name.startswith("ro-env-")
    assert not Path(env["HOME"]).exists()  # removed after the run
    assert env["XDG_CONFIG_HOME"].startswith(env["HOME"])
    assert env["OPENAI_API_KEY"] == "sk-responses-oracle-dummy"
    assert not {"VIRTUAL_ENV", "OPENAI_BASE_URL", "SSH_AUTH_SOCK"} & set(env)


@pytest.fixture(scope="module")
def agents_js() -> Profile:
    profile = BY_NAME["openai-agents-js"]
    if shutil.which("npm") is None and not os.environ.get("CI"):
        pytest.skip("npm is not installed (the CI machine has it)")
    failed = install(profile)
    assert not failed, failed
    return profile


def test_openai_agents_js_runs_the_tool_and_replays_it(agents_js: Profile, tmp_path: Path) -> None:
    cell = run_cell(agents_js, _scenario("s02"), tmp_path / "s02")
    assert cell.ran, cell.reason + cell.output
    assert _verdicts(cell) == [("call_s02", True, True, True)]


def test_openai_agents_js_is_judged_on_a_failed_response(
    agents_js: Profile, tmp_path: Path
) -> None:
    cell = run_cell(agents_js, _scenario("s05"), tmp_path / "s05")
    assert cell.ran, cell.reason + cell.output
    # The oracle says a call of a failed response must not run (R9); the library does
    # not run it, and sends no next request carrying it.
    [call] = cell.calls
    assert call.call_id == "call_s05" and call.executable is False
    assert call.values == {"executed": True, "history_faithful": None, "api_valid": None}


@pytest.fixture(scope="module")
def vercel_ai() -> Profile:
    profile = BY_NAME["vercel-ai"]
    if shutil.which("npm") is None and not os.environ.get("CI"):
        pytest.skip("npm is not installed (the CI machine has it)")
    failed = install(profile)  # small: 11 packages and npm's Node 22 binary
    assert not failed, failed
    return profile


def test_vercel_ai_runs_both_parallel_calls_and_replays_them_without_their_ids(
    vercel_ai: Profile, tmp_path: Path
) -> None:
    cell = run_cell(vercel_ai, _scenario("s04"), tmp_path / "s04")
    assert cell.ran, cell.reason + cell.output
    # streamText runs each tool and sends both outputs in one next request; it replays
    # the calls without their item ids, which no reasoning item needs (s04 has none).
    assert sorted(_verdicts(cell)) == [
        ("call_s04a", True, True, True), ("call_s04b", True, True, True)]
    assert all("no id (none needed)" in c.reasons["history_faithful"] for c in cell.calls)


def test_vercel_ai_fails_on_a_failed_response_and_says_so(
    vercel_ai: Profile, tmp_path: Path
) -> None:
    cell = run_cell(vercel_ai, _scenario("s05"), tmp_path / "s05")
    assert cell.ran and cell.exit_status == 1
    assert cell.error == "StreamProviderError [AI_StreamProviderError]: The model failed."
    [call] = cell.calls
    assert call.values["executed"] is True  # not executable, and it did not run
