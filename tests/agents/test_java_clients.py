"""A Java client end to end against serve, and the JUnit example of "Checking a client in
Go / Java / Rust", both run where ``CI=true`` (CI's ``.ci/run``) and skipped elsewhere.

LangChain4j is installed here by the recording tool's own install step
(``mvn dependency:build-classpath`` into the agents' folder, whose local Maven repository
this warms: ~15 s from Maven Central), then run on two scenarios: ``s01`` (one call:
every verdict holds) and ``s06`` (an incomplete response carrying a call: LangChain4j
treats ``response.incomplete`` as completed and runs it, which the oracle forbids).
openai-java is installed the same way and run both ways its README shows of reading a
streamed turn (its ``ResponseAccumulator``, and the ``output_item.done`` events) on
``q11``, where the two give the call different ids.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO
from record_agents import MAVEN_REPOSITORY, install
from responses_oracle.agents.profiles import BY_NAME, Profile
from responses_oracle.agents.runner import Cell, run_cell
from responses_oracle.agents.scenario_list import resolve

pytestmark = pytest.mark.skipif(
    os.environ.get("CI") != "true", reason="runs in CI (CI=true): installs from Maven Central"
)


def _verdicts(cell: Cell) -> list[tuple[str, bool | None, bool | None, bool | None]]:
    return [
        (c.call_id, c.values["executed"], c.values["history_faithful"], c.values["api_valid"])
        for c in cell.calls
    ]


@pytest.fixture(scope="module")
def langchain4j() -> Profile:
    profile = BY_NAME["langchain4j"]
    failed = install(profile)
    assert not failed, failed
    return profile


def test_langchain4j_runs_a_plain_call_and_replays_it_faithfully(
    langchain4j: Profile, tmp_path: Path
) -> None:
    cell = run_cell(langchain4j, resolve(["s01"])[0].argument(), tmp_path / "s01")
    assert cell.ran, cell.reason + cell.output
    assert _verdicts(cell) == [("call_s01", True, True, True)]


def test_langchain4j_runs_the_call_of_an_incomplete_response(
    langchain4j: Profile, tmp_path: Path
) -> None:
    cell = run_cell(langchain4j, resolve(["s06"])[0].argument(), tmp_path / "s06")
    assert cell.ran, cell.reason + cell.output
    # The oracle: a response that ends incomplete runs nothing (R9); LangChain4j ran it.
    assert _verdicts(cell) == [("call_s06", False, True, True)]
    assert "responses-oracle-1" in cell.calls[0].reasons["executed"]


@pytest.mark.parametrize(("client", "notes"), [
    # The accumulator's response is the one response.completed carries: the rebuilt id,
    # one the provider gave the call, where the oracle keeps the one it was confirmed with.
    ("openai-java", ("id 'fc_B', another id the provider gave this call; the oracle keeps "
                     "'fc_A' (R6)",)),
    # Read from the output_item.done events, the item carries the confirmed id.
    ("openai-java-items", ()),
])
def test_openai_java_either_way_of_reading_calls_keeps_the_rebuilt_snapshots_call(
    client: str, notes: tuple[str, ...], tmp_path: Path
) -> None:
    # q11 (the Onyx gateway): response.completed rebuilds the call with a fresh item id.
    # Both ways openai-java's README shows of reading a streamed turn run it and replay it
    # paired with its output: no verdict depends on the driver's choice between them.
    profile = BY_NAME[client]
    failed = install(profile)
    assert not failed, failed
    cell = run_cell(profile, resolve(["q11"])[0].argument(), tmp_path / "q11")
    assert cell.ran, cell.reason + cell.output
    assert _verdicts(cell) == [("call_1", True, True, True)]
    assert cell.calls[0].notes.get("history_faithful", ()) == notes


def test_the_junit_example_runs_serve_and_passes(tmp_path: Path) -> None:
    example = tmp_path / "java"
    shutil.copytree(REPO / "examples" / "java", example)
    serve = Path(sys.executable).parent / "responses-oracle"
    done = subprocess.run(
        ["mvn", "--batch-mode", "--quiet", f"-Dmaven.repo.local={MAVEN_REPOSITORY}", "test"],
        cwd=example, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "RESPONSES_ORACLE": str(serve)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    reports = list((example / "target" / "surefire-reports").glob("*.txt"))
    assert reports and "Failures: 0, Errors: 0, Skipped: 0" in reports[0].read_text()
