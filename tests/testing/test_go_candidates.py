"""The Go candidates, built and run: openai-go always (its module installs from the Go
module proxy, pinned by adapters/go/openai-go), AxonHub where a checkout is given.

AxonHub's code is not in this repository and the Go module proxy refuses it, so its
tests need a checkout: ``AXONHUB_SRC=/path/to/axonhub`` (its root or its ``llm``
folder, at any commit that has ``llm/transformer/openai/responses``); without one they
skip and say so.  With one, each candidate must answer the peers page's streams as the
code does, and every upstream report ``diff --report-dir`` writes for it must fail, in
a copy of the checkout's package under ``go test``, for the reason its report states.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from responses_oracle.agents.profiles import go_environment
from responses_oracle.differential.candidate import (
    Failure,
    ProcessCandidate,
    candidate_command,
)
from responses_oracle.differential.go_candidates import GO_ADAPTERS, axonhub_module
from responses_oracle.differential.harness import Generation, run_diff
from responses_oracle.differential.oracle_trace import oracle_json
from responses_oracle.differential.upstream import INDEX, Report, write_reports
from responses_oracle.docsite.peers import SCENARIOS
from responses_oracle.streamgen.cases import corpus_cases
from responses_oracle.streamgen.streams import GeneratedStream

ROOT = Path(__file__).resolve().parents[2]
SOURCE = os.environ.get("AXONHUB_SRC")
needs_checkout = pytest.mark.skipif(
    not SOURCE,
    reason="AxonHub's code is not part of responses-oracle and the Go module proxy refuses "
    "it: set AXONHUB_SRC to a checkout of AxonHub to run these tests",
)


def _stream(key: str) -> GeneratedStream:
    [scenario] = [s for s in SCENARIOS if s.key == key]
    return GeneratedStream(tuple(copy.deepcopy(dict(e)) for e in scenario.example.events))


def _answers(name: str, streams: list[GeneratedStream]) -> list[Any]:
    candidate = ProcessCandidate(candidate_command(name, SOURCE), timeout=120)
    try:
        return candidate.answer(streams)
    finally:
        candidate.close()


def test_the_protocol_packages_go_tests_pass() -> None:
    """adapters/go/candidate: one answer per request in order, an error or a panic only
    its own request's, the SSE body as a server sends it."""
    outcomes = _go_test(GO_ADAPTERS / "candidate", ".")
    assert {name: o["action"] for name, o in outcomes.items()} == {
        "TestEachRequestGetsOneAnswerInOrderAndAFailureIsOnlyItsOwn": "pass",
        "TestANoResultAnswerIsAnEmptyListNotAnError": "pass",
        "TestTheSSEBodyNamesEachEventAndKeepsItsBytes": "pass",
        "TestALineThatIsNotARequestIsAnErrorAnswer": "pass",
    }


def test_openai_go_answers_with_the_response_its_terminal_event_carries() -> None:
    stream = _stream("empty-done-arguments")
    cut = GeneratedStream(stream.events[:-1])
    [kept, no_terminal] = _answers("openai-go", [stream, cut])
    assert kept == [{"response": {"id": "resp_p1", "status": "completed"}, "items": []}]
    assert isinstance(no_terminal, Failure)
    assert no_terminal.message.startswith("the stream ended without response.completed")


def test_openai_go_agrees_with_the_oracle_on_a_snapshot_that_holds_the_call() -> None:
    stream = _stream("arguments-only-in-snapshot")
    [answer] = _answers("openai-go", [stream])
    [reference] = oracle_json(stream.events)
    assert not isinstance(answer, Failure)
    [item] = [entry["item"] for entry in answer[0]["items"]]
    assert {k: item[k] for k in ("id", "call_id", "name", "arguments")} == {
        k: reference["items"][0]["item"][k] for k in ("id", "call_id", "name", "arguments")}


def test_openai_go_diffs_end_to_end() -> None:
    corpus = corpus_cases([ROOT / "fixtures" / "scenarios"])
    report = run_diff(candidate_command("openai-go"), generation=Generation(count=20),
                      corpus=corpus, split=True)
    assert report.cases == 20 + len(corpus)
    # s03 is cut before its terminal: openai-go leaves the app without a response.
    assert any(f.case.endswith("s03-cut-before-terminal.jsonl") for f in report.findings)


def _reports(name: str, folder: Path, fixtures: tuple[str, ...]) -> list[Report]:
    """``diff --report-dir``'s reports for ``name`` on the fixtures' streams."""
    command = candidate_command(name, SOURCE)
    corpus = corpus_cases([ROOT / "fixtures" / f for f in fixtures])
    report = run_diff(command, generation=Generation(count=0), corpus=corpus, split=True)
    candidate = ProcessCandidate(command, timeout=120)
    try:
        reports = write_reports(folder, name, [c.to_json() for c in report.clusters],
                                candidate, src=SOURCE)
    finally:
        candidate.close()
    assert (folder / INDEX).is_file()
    assert len({r.root_cause for r in reports}) == len(reports)
    return reports


def _fail_as_stated(reports: list[Report], folder: Path, package: Path) -> None:
    """Each report's test, dropped into ``package``, fails under ``go test`` with the
    value or the message its report states."""
    tested = [r for r in reports if r.test_file]
    assert tested, "no report has a test"
    for r in tested:
        shutil.copy(folder / r.id / r.test_file, package / r.test_file)
    outcomes = _go_test(package, "^TestOracle_")
    for r in tested:
        outcome = outcomes[r.test_name]
        assert outcome["action"] == "fail", (r.id, outcome)
        if r.failure is not None:
            assert r.failure.splitlines()[0] in outcome["output"], (r.id, outcome["output"])
            continue
        # The test prints what it got as JSON (a Go map's keys sorted): the same value.
        got = re.search(r"got (\{.*\})\n", outcome["output"])
        assert got is not None and json.loads(got.group(1)) == r.actual, (r.id, outcome)


def test_every_openai_go_report_fails_in_a_module_of_openai_go_for_its_stated_reason(
    tmp_path: Path,
) -> None:
    reports = _reports("openai-go", tmp_path / "reports", ("peers", "scenarios", "quirks"))
    module = tmp_path / "module"
    (module / "responses").mkdir(parents=True)
    pinned = (GO_ADAPTERS / "openai-go" / "go.mod").read_text(encoding="utf-8")
    version = re.search(r"github.com/openai/openai-go/v3 (\S+)", pinned)
    assert version is not None
    (module / "go.mod").write_text(
        f"module oracle/reports\n\ngo 1.26.0\n\nrequire github.com/openai/openai-go/v3 "
        f"{version.group(1)}\n", encoding="utf-8")
    shutil.copy(GO_ADAPTERS / "openai-go" / "go.sum", module / "go.sum")
    _fail_as_stated(reports, tmp_path / "reports", module / "responses")


@needs_checkout
def test_axonhub_streams_and_stores_the_peers_streams_as_its_code_does() -> None:
    streams = [_stream("empty-done-arguments"), _stream("reused-slot-id-less-event")]
    streamed = _answers("axonhub-stream", streams)
    stored = _answers("axonhub-stored", streams)
    for answers in (streamed, stored):
        assert not isinstance(answers[0], Failure)
        calls = [e["item"] for e in answers[0][0]["items"] if e["item"]["type"] == "function_call"]
        assert [(c["call_id"], c["arguments"]) for c in calls] == [("call_1", '{"a":1}')]
    assert all(entry["item"].get("id") is None for entry in streamed[0][0]["items"])


def _go_test(package: Path, pattern: str) -> dict[str, dict[str, Any]]:
    """``go test -json`` in ``package``: each test's outcome and output."""
    module = next(p for p in (package, *package.parents) if (p / "go.mod").is_file())
    done = subprocess.run(
        ["go", "test", "-json", "-count=1", "-run", pattern, f"./{package.relative_to(module)}"],
        cwd=module, env={**os.environ, **go_environment(), "GOFLAGS": "-mod=mod"},
        capture_output=True, text=True, check=False)
    tests: dict[str, dict[str, Any]] = {}
    for line in done.stdout.splitlines():
        event = json.loads(line) if line.startswith("{") else {}
        name = event.get("Test")
        if not name:
            continue
        seen = tests.setdefault(name, {"output": "", "action": ""})
        seen["output"] += event.get("Output", "")
        if event.get("Action") in ("pass", "fail", "skip"):
            seen["action"] = event["Action"]
    assert tests, f"go test ran nothing: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return tests


@needs_checkout
@pytest.mark.parametrize("name", ["axonhub-stream", "axonhub-stored"])
def test_every_axonhub_report_fails_in_the_checkouts_package_for_its_stated_reason(
    name: str, tmp_path: Path
) -> None:
    assert SOURCE is not None
    reports = _reports(name, tmp_path / "reports", ("peers", "scenarios", "quirks"))
    llm = tmp_path / "llm"
    shutil.copytree(axonhub_module(SOURCE), llm, symlinks=True)
    _fail_as_stated(reports, tmp_path / "reports", llm / "transformer" / "openai" / "responses")
