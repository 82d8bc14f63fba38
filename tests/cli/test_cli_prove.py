"""``responses-oracle prove`` and ``diff-policies``: verdicts, streams, exit statuses.

The default ``prove`` run (the reference at the default bounds) is run once, here: it
is the suite's check that the reference proves everything it states.  The other runs
use ``--bound 2,2`` and one invariant, enough for every refutation of the policies.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import as_if_not_installed
from responses_oracle.model.completeness import COMPLETENESS
from responses_oracle.model.invariants import INVARIANTS
from responses_oracle.proofs import policies
from responses_oracle.proofs.any_channels import ANY_CHANNELS
from responses_oracle.proofs.contracts import CONTRACTS
from responses_oracle.proofs.matching import MATCHER_PROPERTIES
from responses_oracle.proofs.mutants import MUTANTS
from responses_oracle.proofs.unbounded import UNBOUNDED

from .cli_helpers import lines, run


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, Any]:
    status, out, _ = run(capsys, *argv)
    (document,) = lines(out)
    return status, document


def test_the_default_run_proves_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    status, report = _json(capsys, "prove", "--json")
    assert status == 0 and report["ok"] is True
    assert report["bound"] == [4, 4] and report["depth"] == 8
    rows = {row["invariant"]: row for row in report["rows"]}
    assert list(rows) == [invariant.name for invariant in INVARIANTS] + [
        obligation.name for obligation in COMPLETENESS
    ] + list(CONTRACTS)
    assert {row["policy"] for row in rows.values()} == {"reference"}
    for name, row in rows.items():
        assert row["verdict"] == "proved" and row["counterexample"] is None
        scope = "any size" if name in UNBOUNDED else "bounded 4x4"
        if name in ANY_CHANNELS:
            scope += ", any channels"
        if name in MATCHER_PROPERTIES:
            scope += "; matcher 3x3"
        if name in CONTRACTS:
            scope = "one step, 2-4 entries" if CONTRACTS[name].entries else "one step"
        assert row["scope"] == scope
    assert [p["name"] for p in report["policies"]] == ["reference"]


def test_a_policy_counterexample_is_written_with_the_command_that_explains_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, report = _json(
        capsys,
        "prove",
        "--policy", "opencode",
        "--invariant", "complete_once",
        "--bound", "2,2",
        "--write-dir", tmp_path,
        "--json",
    )
    assert status == 0  # refuting a peer's policy is the expected finding
    (row,) = report["rows"]
    assert (row["policy"], row["verdict"]) == ("opencode", "counterexample")
    found = row["counterexample"]
    path = tmp_path / "opencode-complete_once.jsonl"
    assert found["file"] == str(path)
    assert found["explain"] == f"responses-oracle explain {path}"
    assert lines(path.read_text(encoding="utf-8")) == found["events"]
    assert [event["type"] for event in found["events"]] == [
        "response.created",
        "response.output_item.done",
        "response.output_item.done",
    ]
    (opencode,) = report["policies"]
    assert opencode["unoffered"] == ["(absent, snapshot_item)", "(done, snapshot_item)"]
    assert any("call_id" in note for note in opencode["not_modelled"])
    assert {change["table"] for change in opencode["changes"]} == {
        "lifecycle",
        "payload",
        "routing",
    }
    # The reference's answer on that stream: one call, the repeat a duplicate; the
    # stream has no terminal event, so the response is interrupted (exit status 1).
    status, out, _ = run(capsys, "explain", path, "--json")
    result = lines(out)[-1]["result"]
    assert status == 1 and len(result["items"]) == 1
    codes = {d["code"] for d in result["diagnostics"]}
    assert {"duplicate_item", "missing_terminal"} <= codes


def test_the_table_names_verdicts_streams_and_what_a_policy_leaves_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys,
        "prove",
        "--policy", "reference",
        "--policy", "codex",
        "--invariant", "nothing_lost",
        "--bound", "2,2",
        "--write-dir", tmp_path,
    )
    assert status == 0
    assert "PROVED" in out and "COUNTEREXAMPLE" in out
    assert "anysize,anychannels;matcher" in _squeezed(out)
    text = _squeezed(out)  # rich folds long lines where the terminal is narrow
    assert _squeezed("codex breaks nothing_lost: 1 event after response.created") in text
    assert _squeezed(f"explain {tmp_path / 'codex-nothing_lost.jsonl'}") in text
    assert _squeezed("not modelled: Calls are dispatched at output_item.done") in text
    assert "what the reference policy leaves out" not in out


def test_the_axonhub_bug_is_a_payload_counterexample(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, report = _json(
        capsys,
        "prove",
        "--policy", "axonhub",
        "--invariant", "latest_nonempty_wins",
        "--bound", "2,2",
        "--json",
    )
    # A counterexample on a peer's policy is the expected finding: exit 0.
    assert status == 0
    (row,) = report["rows"]
    assert row["verdict"] == "counterexample"
    # The stream is replayed through the policy's generated reducer, frame by frame.
    assert row["detail"].endswith("; the generated reducer follows it"), row["detail"]
    assert report["policies"][0]["unoffered"] == ["(done, snapshot_item)"]
    status, out, _ = run(
        capsys, "prove", "--policy", "axonhub", "--invariant", "complete_once", "--bound", "2,2"
    )
    text = _squeezed(out)
    assert _squeezed("ignores the payload offer of (done, snapshot_item)") in text
    assert _squeezed("'responses-oracle diff-policies reference axonhub'") in text


def test_a_counterexample_in_the_reference_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = replace(
        policies.REFERENCE_POLICY, tables=MUTANTS["duplicate-done-re-completes"].tables
    )
    monkeypatch.setitem(policies.POLICIES, "reference", broken)
    status, report = _json(
        capsys,
        "prove", "--invariant", "complete_once", "--bound", "2,2", "--write-dir", tmp_path,
        "--json",
    )
    assert status == 1 and report["ok"] is False
    assert report["rows"][0]["verdict"] == "counterexample"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["prove", "--bound", "1,4"], "at least 2"),
        (["prove", "--bound", "4"], "expected N,M"),
        (["prove", "--depth", "0"], "positive"),
        (["prove", "--invariant", "no_such"], "invalid choice"),
        (["prove", "--policy", "nobody"], "no policy named 'nobody'"),
        (["diff-policies", "reference", "nobody"], "no policy named 'nobody'"),
        (["diff-policies", "reference", "codex", "--length", "0"], "positive"),
    ],
)
def test_unusable_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2 and message in err


def test_diff_policies_prints_the_stream_and_both_results(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    written = tmp_path / "stream.jsonl"
    status, report = _json(
        capsys, "diff-policies", "reference", "axonhub", "--json", "--write", written
    )
    assert status == 1  # they differ
    assert report["found"] is True and report["length"] == 6
    assert report["shapes"] == ["done empty", "completed"]
    assert lines(written.read_text(encoding="utf-8")) == report["stream"]
    arguments = {
        name: [item["item"]["arguments"] for item in result["items"]]
        for name, result in report["results"].items()
    }
    assert arguments == {"reference": ['{"city":"Paris"}'], "axonhub": [""]}
    assert "diagnostics" not in report["results"]["reference"]
    status, out, _ = run(capsys, "diff-policies", "reference", "codex")
    assert status == 1
    assert _squeezed("reference and codex differ on this stream of 1 event after") in _squeezed(out)
    assert "completed empty" in out and "codex" in out


def test_diff_policies_of_a_policy_with_itself_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "diff-policies", "codex", "codex")
    assert status == 0 and _squeezed("their tables are identical") in _squeezed(out)
    status, report = _json(capsys, "diff-policies", "opencode", "opencode", "--json")
    assert status == 0
    assert (report["found"], report["identical_tables"], report["stream"]) == (False, True, None)


def test_help_lists_both_commands(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "prove" in out and "diff-policies" in out
    for command in ("prove", "diff-policies"):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0 and "examples:" in out


@pytest.mark.parametrize("argv", [["prove"], ["diff-policies", "reference", "codex"]])
def test_without_z3_the_command_says_which_extra_to_install(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As on an install without the proofs extra: importing z3 fails, and so does every
    # proof module that was not imported yet.
    as_if_not_installed(monkeypatch, "z3", "responses_oracle.proofs")
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert f"{argv[0]} needs Z3" in err and "pip install 'responses-oracle[proofs]'" in err


def test_the_table_into_a_file_keeps_every_column_and_ends_with_a_total() -> None:
    """``prove > file``: rendered through the report with a few made-up rows (no proof
    runs), on a console that is no terminal and 80 columns wide, as a file is."""
    import io

    from responses_oracle.cli.prove import Row, print_report
    from rich.console import Console

    def row(invariant: str, policy: str, verdict: str, scope: str, seconds: float) -> Row:
        return Row(invariant, policy, verdict, scope, seconds, "", (), None)

    rows = [
        row("an_invariant_name_long_enough_to_need_room", "reference", "proved", "any size", 1.5),
        row("another_long_invariant_name_of_the_model", "a-long-peer-policy", "counterexample",
            "", 0.25),
        row("a_third_one", "reference", "unknown", "", 2.0),
        row("a_fourth_invariant", "reference", "proved", "bounded 4x4; matcher 3x3", 0.25),
    ]
    out = io.StringIO()
    print_report(Console(file=out, width=80, force_terminal=False), rows, [])
    text = out.getvalue()
    assert "…" not in text
    for r in rows:
        line = next(line for line in text.splitlines() if r.invariant in line)
        assert r.policy in line and r.verdict.upper() in line and r.scope in line
    assert "total: 4 proofs (2 proved, 1 counterexample, 1 unknown), 4.00s" in text
