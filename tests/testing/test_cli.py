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


def test_the_oracle_sent_one_response_at_a_time_agrees_with_itself(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # seed 0's stream 261 sends response.in_progress before its own response.created:
    # one response, which a cut of its own once sent as two requests (2 of 720 diverged).
    args = ["diff", "--candidate", "oracle", "--count", "262", "--split-responses", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["diverging_cases"] == 0


def test_diff_reports_clusters_by_cause_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["diff", "--candidate", NAIVE, "--count", "12", "--json", "--wire", "sse"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and report["cases"] == 12 and report["diverging_cases"] > 0
    assert report["streams_per_second"] > 0
    clustered = sorted(case for cluster in report["clusters"] for case in cluster["cases"])
    assert clustered == sorted(report["diverging_case_ids"])  # each case in one cluster
    for cluster in report["clusters"]:
        assert cluster["rule"] and cluster["events"] and cluster["trace"]
        assert {d["class"] for d in cluster["differences"]} >= {cluster["class"]} or cluster[
            "count"] > 1
        assert len(cluster["events"]) <= cluster["original_events"]


def test_diff_allows_classes_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["diff", "--candidate", NAIVE, "--count", "12", "--json"]
    main(args)
    classes = set(json.loads(capsys.readouterr().out)["by_class"])
    assert main([*args, "--allow", ",".join(sorted(classes))]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["clusters"] and all(c["allowed"] for c in report["clusters"])
    assert main([*args, "--allow", "no_such_class"]) == 2
    assert "unknown divergence class(es) no_such_class" in capsys.readouterr().err


def test_diff_chooses_generators_and_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["diff", "--candidate", "oracle", "--count", "6", "--generator", "profile",
            "--profile", "bedrock-mantle,vllm"]
    assert main(args) == 0
    assert "6 streams, 0 diverge" in capsys.readouterr().out
    assert main(["diff", "--candidate", "oracle", "--profile", "nope"]) == 2
    assert "unknown profile(s) nope; known: bedrock-mantle" in capsys.readouterr().err
    assert main(["diff", "--candidate", "oracle", "--generator", "nope"]) == 2
    assert "unknown generator(s) nope" in capsys.readouterr().err


def test_diff_help_documents_the_protocol_and_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        main(["diff", "--help"])
    except SystemExit as done:
        assert done.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for needle in ("wire-shaped", "never both", "--split-responses", "docs/usage/oracle.md",
                   "exit status:", "2 unusable arguments, or a candidate that cannot run",
                   "agents", "ai-sdk", "openai-node", "ai-streamtext",
                   '"arguments_parsed": true', "parsed as JSON",
                   "the event it gives up at", "runtime lookup error"):
        assert needle in text


def test_diff_with_a_corpus_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stream = tmp_path / "one.jsonl"
    stream.write_text(
        '{"type":"response.created","response":{"id":"r"}}\n'
        '{"type":"response.completed","response":{"id":"r","output":[]}}\n'
    )
    assert main(["diff", "--candidate", "oracle", "--count", "0", "--corpus", str(tmp_path)]) == 0
    assert "1 stream, 0 diverge" in capsys.readouterr().out


def test_a_candidate_that_cannot_start_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["diff", "--candidate", "/nonexistent/parser", "--count", "1"]) == 2
    assert "cannot run the candidate" in capsys.readouterr().err


def test_a_candidate_that_dies_at_once_stops_the_run_with_its_stderr_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stderr.write('Traceback: cannot import x\\n')\n"
                      "sys.exit(1)\n")
    status = main(["diff", "--candidate", f"{sys.executable} {script}", "--count", "300"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.count("Traceback: cannot import x") == 1
    assert "gave no answer: candidate exited (status 1)" in captured.err


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


def test_pages_are_written_where_the_timeline_module_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    args = ["diff", "--candidate", NAIVE, "--count", "6", "--pages", str(tmp_path / "pages")]
    status = main(args)
    if importlib.util.find_spec("responses_oracle.timeline") is None:
        assert status == 2
        assert "--pages needs the timeline module" in capsys.readouterr().err
    else:
        assert status == 1
        assert list((tmp_path / "pages").glob("*.html"))


def test_node_missing_a_script_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["diff", "--candidate", "node missing.js", "--count", "300"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("Cannot find module") == 1 and "gave no answer" in err


def test_progress_goes_to_a_terminal_only() -> None:
    import io

    from responses_oracle.cli.diff import _progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert _progress(io.StringIO()) is None
    terminal = Terminal()
    show = _progress(terminal)
    assert show is not None
    show(64, 300)
    show(300, 300)
    assert terminal.getvalue() == "\r64/300 streams\r300/300 streams\n"


def test_openai_python_without_openai_is_an_install_hint_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A module that shadows httpx2 as if openai 3.x (and its transport) were missing.
    (tmp_path / "httpx2.py").write_text("raise ImportError(\"No module named 'httpx2'\")\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    status = main(["diff", "--candidate", "openai-python", "--count", "300"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.count("pip install 'responses-oracle[clients]'") == 1
    assert "No module named 'httpx2'" in captured.err


def test_a_built_in_client_gets_each_response_of_a_body_as_its_own_request() -> None:
    import argparse

    from responses_oracle.cli.diff import split_responses

    def split(candidate: str, flag: bool | None = None) -> bool:
        return split_responses(argparse.Namespace(candidate=candidate, split_responses=flag))

    assert split("openai-python") and split("ai-sdk")
    assert not split("node my-parser.js")
    assert split("node my-parser.js", True) and not split("openai-python", False)


def test_the_report_dir_example_runs_pytest_whatever_diff_exits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["diff", "--help"]) == 0
    [example] = [line for line in capsys.readouterr().out.splitlines() if "--report-dir" in line
                 and "pytest" in line]
    # diff exits 1 when it finds a divergence: `&&` would never run the tests.
    assert example.strip().endswith("--report-dir reports/; pytest reports/")
