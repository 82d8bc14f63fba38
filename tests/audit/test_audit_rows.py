"""One row per response, with what the reducer answered; every input a row."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli.cli_helpers import EXAMPLES, run
from responses_oracle import reduce
from responses_oracle.audit.rows import COLUMNS, schema
from responses_oracle.model.vocabulary import SEVERITY
from responses_oracle.wire import read_wire_events

from .audit_helpers import rows, run_record, traffic


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A traffic folder audited once with the local engine (two partitions of files)."""
    base = tmp_path_factory.mktemp("audit")
    folder = traffic(base / "traffic")
    out = base / "out"
    from responses_oracle.cli import main

    status = main(
        [
            "audit",
            str(folder),
            "--out",
            str(out),
            "--jobs",
            "1",
            "--partition-size",
            "8",
            "--provider-from-dir",
            "-q",
        ]
    )
    assert status in (0, 1)
    return folder, out


def test_every_example_response_is_a_row_with_the_reducers_answer(
    audited: tuple[Path, Path],
) -> None:
    folder, out = audited
    found = {row["stream_id"]: row for row in rows(out) if row["response_index"] == 0}
    for example in sorted(EXAMPLES.glob("*.jsonl")) + sorted(EXAMPLES.glob("*.sse")):
        path = folder / "openai" / example.name
        (result,) = reduce(path)
        row = found[str(path)]
        assert row["provider"] == "openai"
        assert row["status"] == result.status.value
        assert row["response_id"] == result.response_id
        assert row["items"] == len(result.items)
        assert row["executable_calls"] == sum(item.executable for item in result.items)
        assert row["codes"] == sorted({d.code.value for d in result.diagnostics})
        assert [(d["code"], d["severity"], d["event_index"]) for d in row["diagnostics"]] == [
            (d.code.value, SEVERITY[d.code].value, d.event_index) for d in result.diagnostics
        ]
        assert row["events"] == sum(1 for _ in read_wire_events(path))
        assert row["ok"] is result.ok
        assert row["error_kind"] is None and row["divergences"] is None


def test_the_copilot_example_names_its_codes_and_rules(audited: tuple[Path, Path]) -> None:
    _, out = audited
    (row,) = [r for r in rows(out) if r["stream_id"].endswith("copilot-rotating-ids.jsonl")]
    assert row["severity"] == "warning"
    assert "divergent_payload" in row["codes"] and "R7" in row["rules"]
    assert row["rules"] == sorted(set(row["rules"]), key=lambda rule: int(rule[1:]))
    assert row["calls"] == 1


def test_a_tool_loop_file_yields_one_row_per_response(audited: tuple[Path, Path]) -> None:
    _, out = audited
    loop = [r for r in rows(out) if r["stream_id"].endswith("tool-loop.jsonl")]
    assert [(r["response_index"], r["response_id"]) for r in loop] == [
        (0, "resp_loop_1"),
        (1, "resp_loop_2"),
    ]
    assert [r["events"] for r in loop] == [6, 6]
    assert all(r["executable_calls"] == 1 for r in loop)


def test_generated_streams_carry_their_provider_and_model(audited: tuple[Path, Path]) -> None:
    _, out = audited
    generated = [r for r in rows(out) if "/gen-" in r["stream_id"]]
    assert len({r["source"] for r in generated}) == 18
    assert {r["provider"] for r in generated} >= {"openai", "bedrock-mantle", "vllm"}
    assert {r["model"] for r in generated} == {"gpt-5.1-2025-11-13"}
    assert any(r["source"].endswith(".sse.gz") and r["status"] for r in generated)


def test_totals_reconcile_with_the_input_count(audited: tuple[Path, Path]) -> None:
    folder, out = audited
    inputs = sum(1 for path in folder.rglob("*") if path.is_file())
    record = run_record(out)
    assert record["inputs"] == inputs and record["reconciles"] is True
    assert record["partitions"] == -(-inputs // 8)
    assert len({r["source"] for r in rows(out)}) == inputs
    assert "The totals reconcile" in (out / "summary.md").read_text(encoding="utf-8")


def test_the_schema_documents_every_column() -> None:
    page = (EXAMPLES.parent / "docs" / "usage" / "audit.md").read_text(encoding="utf-8")
    assert tuple(schema().names) == COLUMNS
    for column in COLUMNS:
        assert f"| `{column}` |" in page, column


def test_help_shows_examples_and_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "audit", "--help")
    assert status == 0
    assert "examples:\n  responses-oracle audit examples/parallel-calls.sse" in out
    assert "--engine dask" in out and "--since" in out and "--manifest" in out
    statuses = out.split("exit status:\n", 1)[1]
    for status in ("0 ", "1 ", "2 ", "130 "):
        assert f"\n  {status}" in "\n" + statuses, status
    assert "a SOURCE that matches nothing" in statuses


def test_nothing_to_audit_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "audit", "--out", tmp_path / "out")
    assert status == 2 and "nothing to audit" in err
    status, _, err = run(capsys, "audit", tmp_path / "missing", "--out", tmp_path / "out")
    assert status == 2 and "no such file or directory" in err
    assert not (tmp_path / "out").exists(), "a run refused while planning leaves no folder"
