"""Go clients, end to end: openai-go v3 against the real ``serve``, and the Go example
of the 'Checking a client in Go, Java or Rust' page run by ``go test``.

openai-go is built by the recording script's own install step (``go build`` of
``drivers/openai_go`` into the agents folder; a cold build takes minutes, then the Go
build cache serves it).  CI runs these (its machine has Go, ``CI=true``); elsewhere they
are skipped without Go.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from record_agents import install
from responses_oracle.agents.profiles import BY_NAME, Profile, go_environment
from responses_oracle.agents.runner import Cell, run_cell
from responses_oracle.agents.scenario_list import resolve

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "go"
"""The page's Go example: a client (``client.go``) and the ``go test`` that runs serve."""


def _needs_go() -> None:
    if shutil.which("go") is None and not os.environ.get("CI"):
        pytest.skip("Go is not installed (the CI machine has it)")


def _verdicts(cell: Cell) -> list[tuple[str, bool | None, bool | None, bool | None]]:
    return [
        (c.call_id, c.values["executed"], c.values["history_faithful"], c.values["api_valid"])
        for c in cell.calls
    ]


@pytest.fixture(scope="module")
def openai_go() -> Profile:
    _needs_go()
    profile = BY_NAME["openai-go"]
    failed = install(profile)
    assert not failed, failed
    return profile


def test_openai_go_runs_a_plain_call_and_replays_it_faithfully(
    openai_go: Profile, tmp_path: Path
) -> None:
    cell = run_cell(openai_go, resolve(["s01"])[0].argument(), tmp_path / "s01")
    assert cell.ran, cell.reason + cell.output
    assert _verdicts(cell) == [("call_s01", True, True, True)]


@pytest.mark.parametrize(("client", "notes"), [
    # The driver replays the completed response's item (ToParam): the rebuilt id, one
    # the provider gave the call, where the oracle keeps the one it was confirmed with.
    ("openai-go", ("id 'fc_B', another id the provider gave this call; the oracle keeps "
                   "'fc_A' (R6)",)),
    # Read from the output_item.done events, the item carries the confirmed id.
    ("openai-go-items", ()),
])
def test_openai_go_either_way_of_reading_calls_keeps_the_rebuilt_snapshots_call(
    openai_go: Profile, client: str, notes: tuple[str, ...], tmp_path: Path
) -> None:
    # q11 (the Onyx gateway): response.completed rebuilds the call with a fresh item id.
    # Both ways openai-go's docs show of reading a turn's calls run it and replay it
    # paired with its output: no verdict depends on the driver's choice between them.
    cell = run_cell(BY_NAME[client], resolve(["q11"])[0].argument(), tmp_path / "q11")
    assert cell.ran, cell.reason + cell.output
    assert _verdicts(cell) == [("call_1", True, True, True)]
    assert cell.calls[0].notes.get("history_faithful", ()) == notes


def test_the_go_example_runs_serve_from_go_test() -> None:
    _needs_go()
    # serve is this interpreter's installed command; the Go caches are the agents' own.
    env = {**os.environ, **go_environment(),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["go", "test", "-count=1", "."], cwd=EXAMPLE, env=env,
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok")


def test_the_page_shows_the_go_example_test_as_it_is() -> None:
    page = (EXAMPLE.parents[1] / "docs/usage/other-languages.md").read_text(encoding="utf-8")
    test = (EXAMPLE / "client_test.go").read_text(encoding="utf-8")
    assert f"```go\n{test}```" in page
