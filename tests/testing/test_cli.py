"""``responses-oracle diff`` and ``responses-oracle vectors`` through ``main``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from responses_oracle.cli import main

NAIVE = f"{sys.executable} {Path(__file__).with_name('naive_candidate.py')}"


def test_diff_against_the_oracle_itself_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--candidate", "oracle", "--count", "20", "--seed", "4"]) == 0
    assert "20 streams, 0 diverge" in capsys.readouterr().out


def test_diff_reports_divergences_by_rule_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["diff", "--candidate", NAIVE, "--count", "12", "--json", "--wire", "sse"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and report["cases"] == 12 and report["diverging_cases"] > 0
    for divergence in report["divergences"]:
        assert divergence["rules"] and divergence["events"] and divergence["trace"]
        assert all(d["rule"] in divergence["rules"] for d in divergence["differences"])
        assert len(divergence["events"]) <= divergence["original_events"]


def test_diff_with_a_corpus_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stream = tmp_path / "one.jsonl"
    stream.write_text(
        '{"type":"response.created","response":{"id":"r"}}\n'
        '{"type":"response.completed","response":{"id":"r","output":[]}}\n'
    )
    assert main(["diff", "--candidate", "oracle", "--count", "0", "--corpus", str(tmp_path)]) == 0
    assert "1 streams, 0 diverge" in capsys.readouterr().out


def test_a_candidate_that_cannot_start_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["diff", "--candidate", "/nonexistent/parser", "--count", "1"]) == 2
    assert "cannot start the candidate" in capsys.readouterr().err


def test_vectors_export_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vectors"
    args = ["vectors", "export", str(out), "--generated", "8", "--no-corpus"]
    assert main(args) == 0
    assert "wrote 8 vectors (8 generated)" in capsys.readouterr().out
    assert main(["vectors", "check", str(out), "--candidate", "oracle"]) == 0
    assert "8 of 8 vectors pass" in capsys.readouterr().out
    assert main(["vectors", "check", str(out), "--candidate", NAIVE, "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[-1]["summary"]["vectors"] == 8 and lines[0]["differences"]


def test_vectors_needs_an_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vectors"]) == 2
    assert "name an action" in capsys.readouterr().err
    assert main(["vectors", "check", "/nonexistent", "--candidate", "oracle"]) == 2
