"""Upstream-ready reports (issue 22, item 7): every generated test fails on its pinned
client, for the reason its report states, and passes where the client is right.

The reports are generated for every cluster of the recorded default runs
(``docs/real-clients.json``), each representative tidied and checked by running the
client's adapter again; then each client's generated tests run as their maintainers
would run them — pytest for the Python clients, ``node --test`` for the Node ones (with
the checkout's ``adapters/node/node_modules``, the pinned versions) — and every test
must fail with the value the report says the client gives (``got …``) or the message
it raises.  A control renders the same templates on a stream every client gets right,
which must pass: a template that always fails would pass the first check.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from responses_oracle.docsite.clients import CLIENTS, load
from responses_oracle.model.divergence import TOLERABLE, Divergence
from responses_oracle.testing.candidate import NODE_ADAPTERS, ProcessCandidate, candidate_command
from responses_oracle.testing.choices import case_chooser
from responses_oracle.testing.harness import Generation
from responses_oracle.testing.oracle_trace import oracle_json
from responses_oracle.testing.streams import openai_stream
from responses_oracle.testing.upstream import (
    STYLES,
    Report,
    expected_items,
    render_test,
    write_reports,
)

ROOT = Path(__file__).resolve().parents[2]

RECORD = load(ROOT / "docs")
DEFAULT = Generation()


def _labels(cluster: dict[str, Any]) -> tuple[str, ...]:
    """The labels of a recorded cluster's representative, regenerated from its name."""
    name = str(cluster.get("representative", ""))
    seed, _, index = name.partition("/")
    if seed == f"seed{DEFAULT.seed}" and index.isdigit():
        return DEFAULT.case(int(index)).stream.labels
    return ()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose Node tests find the pinned packages, as in a client's repository."""
    root = tmp_path_factory.mktemp("upstream")
    (root / "node_modules").symlink_to(NODE_ADAPTERS / "node_modules")
    return root


def _run(client: str, folder: Path, files: list[Path]) -> dict[str, str]:
    """Run ``files`` as the client's maintainers would; test name → failure text
    (empty for a test that passed)."""
    junit = folder / "junit.xml"
    if STYLES[client].registry == "PyPI":
        command = [sys.executable, "-m", "pytest", "-vv", "-p", "no:cacheprovider",
                   "--rootdir", str(folder), "-o", "addopts=", f"--junitxml={junit}",
                   *map(str, files)]
        subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=False)
        xml = junit.read_text(encoding="utf-8")
    else:
        done = subprocess.run(["node", "--test", "--test-reporter=junit", *map(str, files)],
                              cwd=folder, capture_output=True, text=True, timeout=600,
                              check=False)
        xml = done.stdout
    out = {}
    for case in ElementTree.fromstring(xml).iter("testcase"):
        failed = [f for f in case if f.tag in ("failure", "error")]
        out[case.get("name", "")] = " ".join(
            " ".join(filter(None, (f.get("message"), f.text))) for f in failed)
    return out


def _reports(client: str, folder: Path) -> list[Report]:
    [recorded] = [c for c in RECORD["clients"] if c["client"] == client]
    candidate = ProcessCandidate(candidate_command(client), timeout=60)
    try:
        return write_reports(folder, client, recorded["clusters"], candidate, _labels)
    finally:
        candidate.close()


def _said(report: Report, client: str) -> str:
    """What the failure must show: ``got …``, or the raised message (Node's reporter
    gives the message without the error's name)."""
    if report.failure is None:
        return report.reason
    if STYLES[client].registry == "npm":
        return report.failure.split(": ", 1)[-1].splitlines()[0]
    return report.failure.splitlines()[0]


def _squashed(text: str) -> str:
    """``text`` with its whitespace squashed, and characters beyond the BMP written as
    pytest's JUnit XML writes them (``#x1F642``)."""
    return re.sub(r"[\U00010000-\U0010FFFF]", lambda m: f"#x{ord(m.group()):X}",
                  " ".join(text.split()))


@pytest.mark.parametrize("client", [c.candidate for c in CLIENTS])
def test_every_generated_test_fails_on_the_pinned_client_for_the_stated_reason(
    client: str, workspace: Path
) -> None:
    folder = workspace / client
    reports = _reports(client, folder)
    tested = [r for r in reports if r.test_file]
    # Every bug a maintainer should fix gets a test, unless the report says why not.
    assert tested, client
    for report in reports:
        assert report.test_file or report.no_test, report.id
        if Divergence(report.cluster["class"]) in TOLERABLE:
            assert not report.test_file, report.id
        assert (folder / f"{report.id}.md").is_file()
        # Pasted into the client's repository, the test needs nothing of ours.
        assert "responses_oracle" not in report.test_text, report.id
    results = _run(client, folder, [folder / r.id / r.test_file for r in tested])
    assert set(results) == {r.test_name for r in tested}  # every test ran
    for report in tested:
        failure = results[report.test_name]
        assert failure, f"{report.id}: {report.test_file} passed"
        assert _squashed(_said(report, client)) in _squashed(failure), (report.id,
                                                                        failure[:2000])


def _plain() -> Any:
    return openai_stream(case_chooser(11, 0), kinds=("function_call", "message"))


@pytest.mark.parametrize("client", [c.candidate for c in CLIENTS])
def test_the_same_test_passes_on_a_stream_the_client_gets_right(
    client: str, workspace: Path
) -> None:
    folder = workspace / f"{client}-control"
    folder.mkdir()
    events = list(_plain().events)
    [reference] = oracle_json(events)
    style = STYLES[client]
    report = Report("control", client, "control: a plain stream", "synthetic", events,
                    style.view(reference, expected_items(reference), False), None, None)
    report.test_file = style.file.format(name="control")
    path = folder / report.test_file
    path.write_text(render_test(style, "control", report), encoding="utf-8")
    results = _run(client, folder, [path])
    # It ran, and passed: the call and the message came through as the oracle says.
    assert list(results.values()) == [""], results


def test_report_dir_writes_a_report_per_cluster_and_no_test_for_an_unknown_client(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from responses_oracle.cli import main

    naive = f"{sys.executable} {Path(__file__).with_name('naive_candidate.py')}"
    args = ["diff", "--candidate", naive, "--count", "12", "--report-dir", str(tmp_path)]
    assert main([*args, "--json"]) == 1
    clusters = json.loads(capsys.readouterr().out)["clusters"]
    ids = {c["id"] for c in clusters} | {p["id"] for c in clusters for p in c["parts"]}
    reports = {path.stem for path in tmp_path.glob("*.md")} - {"README"}
    assert reports <= ids
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    rows = [line for line in index.splitlines() if line.startswith("| `")]
    assert len(rows) == len(reports)
    for cluster_id in ids:  # each cluster is in the index, merged or with its own report
        assert f"`{cluster_id}`" in index, cluster_id
    for path in tmp_path.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        # Links a maintainer can open: absolute ones only.
        assert not re.findall(r"\]\((?!https://)", text), path.name
        if path.name == "README.md":
            continue
        assert text.startswith("# `") and "**Seen from:**" in text and "```jsonl" in text
        assert "No test is written:" in text  # no test style is known for this candidate
    assert not [p for p in tmp_path.iterdir() if p.is_dir()]


def _cluster(cluster_id: str, events: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """A cluster as ``Cluster.to_json`` writes it, with only what a report reads."""
    return {"id": cluster_id, "class": "confirmed_call_lost", "rule": "R9",
            "decision": "unconfirmed_item", "kind": "item", "failure": None, "count": 3,
            "classes": {"confirmed_call_lost": 3}, "events": events, "parts": [],
            "sources": [], "hypothesis": None, "representative_cause": None, **fields}


class _Drops:
    """A candidate that answers every stream with no item: it drops every call."""

    def answer(self, streams: Any) -> list[Any]:
        return [[{**result, "items": []} for result in oracle_json(list(stream.events))]
                for stream in streams]

    def close(self) -> None:
        """Nothing to close."""


def test_one_report_per_root_cause_its_rule_and_where_it_was_seen(tmp_path: Path) -> None:
    from responses_oracle.testing.upstream import index

    events = list(_plain().events)
    part = _cluster("part-a", events, representative_cause={"rule": "R7"})
    policy = _cluster("policy-x", events, parts=[part], representative_cause={"rule": "R7"},
                      sources=[{"source": "openrouter", "fixture": "fixtures/quirks/q07.jsonl",
                                "cases": 2},
                               {"source": "fixtures/captures/x/rec.jsonl",
                                "fixture": "fixtures/captures/x/rec.jsonl", "cases": 1}])
    reports = write_reports(tmp_path, "openai-python", [policy], _Drops())  # type: ignore[arg-type]
    # The policy and its part: one stream, one test, one report.
    [report] = reports
    assert (report.id, report.merged) == ("policy-x", ["part-a"])
    assert {p.name for p in tmp_path.glob("*.md")} == {"policy-x.md", "README.md"}
    text = (tmp_path / "policy-x.md").read_text(encoding="utf-8")
    assert "the rule that decides it, R7:" in text and "R9" not in text.split("\n## ")[0]
    # Seen from: the recorded stream only, not the profile's generated shape.
    assert "**Seen from:** the recorded stream `rec.jsonl`, 1 stream(s)." in text
    assert "openrouter" not in text
    assert index(reports).count("| `policy-x.md` | `policy-x`, `part-a` |") == 1


def test_a_raise_on_an_invalid_stream_is_titled_a_confusing_error() -> None:
    """Issue 31: a raise on a stream the API's types do not allow reads as what it is."""
    from responses_oracle.testing.upstream import title

    def titled(kind: str) -> str:
        cluster = _cluster("c", [], failure="TypeError: boom", decision=None,
                           **{"class": kind})
        return title(cluster, "openai-python", [])

    assert "raises a confusing error on an invalid stream (`TypeError: boom`)" in titled(
        Divergence.CANDIDATE_RAISED_ON_INVALID.value)
    assert "raises `TypeError: boom`" in titled(Divergence.CANDIDATE_RAISED_ON_VALID.value)
