"""``responses-oracle agents`` as a user meets it: help, usage errors, exit statuses."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

CLI = "import sys; from responses_oracle.cli import main; sys.exit(main())"
PROG = [sys.executable, "-c", CLI, "agents"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROG, *args], capture_output=True, text=True, timeout=300)


def test_help_shows_examples_and_exit_statuses() -> None:
    shown = _run("--help")
    assert shown.returncode == 0
    assert "responses-oracle agents codex opencode --html report.html" in shown.stdout
    assert "exit status:" in shown.stdout and "  3" in shown.stdout


def test_a_command_without_base_url_is_a_usage_error() -> None:
    given = _run("my-agent --flag", "--scenario", "s01")
    assert given.returncode == 2
    assert "has no {base_url}" in given.stderr


def test_a_command_that_sends_nothing_exits_3_with_the_reason_first() -> None:
    given = _run(f"{sys.executable} -c pass {{base_url}}", "--scenario", "s01")
    assert given.returncode == 3, given.stderr
    first = given.stdout.splitlines()[0]
    assert first.startswith("NOT RUN: 1 cell not run")
    assert "the client sent no request (exit status 0)" in given.stdout


def test_your_own_script_runs_in_the_folder_agents_was_started_from(tmp_path: Path) -> None:
    shutil.copy(Path(__file__).resolve().parent / "fake_snapshot_client.py", tmp_path / "my_app.py")
    given = subprocess.run(
        [*PROG, f"{sys.executable} my_app.py {{base_url}} snapshot", "--tool", "echo",
         '{"text": "{marker}"}', "--scenario", "q05", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert given.returncode in (0, 1), given.stdout + given.stderr
    [cell] = json.loads(given.stdout)["cells"]
    assert cell["ran"] and cell["requests"] >= 2, cell


def test_a_client_that_sends_nothing_has_its_error_in_the_report(tmp_path: Path) -> None:
    given = subprocess.run(
        [*PROG, f"{sys.executable} no_such_app.py {{base_url}}", "--scenario", "s01"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert given.returncode == 3, given.stderr
    assert "the client sent no request (exit status 2): " in given.stdout
    assert "can't open file" in given.stdout and "no_such_app.py" in given.stdout


def test_list_names_every_profile_and_scenario() -> None:
    given = _run("--list")
    assert given.returncode == 0
    assert "codex" in given.stdout and "s04" in given.stdout and "q10" in given.stdout


def test_a_run_writes_json_and_an_html_page_linking_each_cell_to_its_timeline(
    tmp_path: Path,
) -> None:
    page = tmp_path / "report.html"
    given = _run("openai-agents", "--scenario", "s02", "--json", "--html", str(page))
    assert given.returncode == 0, given.stdout + given.stderr
    report = json.loads(given.stdout)
    assert report["verdict"] == "PASS: every verdict holds in the one cell."
    [cell] = report["cells"]
    assert (cell["client"], cell["scenario"], cell["ran"]) == ("openai-agents", "s02", True)
    assert [(c["call_id"], c["executed"], c["history_faithful"], c["api_valid"])
            for c in cell["calls"]] == [("call_s02", True, True, True)]
    links = re.findall(r'<a href="([^"]+)">', page.read_text())
    assert links == ["report-timelines/000-openai-agents-s02.html"]
    timeline = (tmp_path / links[0]).read_text()
    assert "call_s02" in timeline and '<script src="timeline.js">' in timeline
    assert {p.name for p in (tmp_path / "report-timelines").iterdir()} == {
        links[0].split("/")[1], "timeline.js", "timeline.css"}


def test_ctrl_c_prints_the_cells_already_judged_and_exits_130(tmp_path: Path) -> None:
    import signal
    import time

    client = Path(__file__).resolve().parent / "fake_snapshot_client.py"
    # q05 and its twin run; q11's first run waits, so Ctrl-C always comes before it ends.
    command = f"{sys.executable} {client} {{base_url}} snapshot {tmp_path / 'runs'} 2"
    process = subprocess.Popen(
        [*PROG, command, "--tool", "echo", '{"text": "{marker}"}', "--scenario", "q05",
         "--scenario", "q11", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # A shell without job control starts background jobs with SIGINT ignored, and
        # Python then never raises KeyboardInterrupt: give the command Ctrl-C back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # The first cell is judged once its twin's verdicts are written; then Ctrl-C.
    first = next(tmp_path.glob("*/q05/twin"), None)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (first and (first / "verdicts.json").is_file()):
        time.sleep(0.2)
        first = next(tmp_path.glob("*/q05/twin"), None)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, out + err
    lines = out.splitlines()
    # Answering q05's re-keyed call as its snapshot gives it is one view, kept whole:
    # history-faithful holds (a call_id the provider gave the call).
    assert lines[0] == "PASS: every verdict holds in the one cell.", out
    assert any(" q05 " in line for line in lines) and not any(" q11 " in line for line in lines)
    assert lines[-1] == "interrupted: the cells above were judged before Ctrl-C"
