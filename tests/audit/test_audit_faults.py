"""Bad input never stops an audit and is never skipped: each bad input is a row with its error."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
import zstandard
from cli.cli_helpers import EXAMPLES, run

from .audit_helpers import rows, run_record


@pytest.fixture
def bad_folder(tmp_path: Path) -> Path:
    """Good streams, compressed good streams, and one of each kind of bad input."""
    folder = tmp_path / "traffic"
    folder.mkdir()
    good = (EXAMPLES / "parallel-calls.sse").read_bytes()
    (folder / "good.sse").write_bytes(good)
    (folder / "good.sse.gz").write_bytes(gzip.compress(good))
    (folder / "good.sse.zst").write_bytes(zstandard.ZstdCompressor().compress(good))
    (folder / "truncated.sse.gz").write_bytes(gzip.compress(good)[:-40])
    (folder / "plain-text-named.gz").write_bytes(good)
    (folder / "garbage.jsonl.zst").write_bytes(b"\x28\xb5\x2f\xfd" + os.urandom(64))
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (folder / "empty.sse").write_bytes(b"")
    (folder / "chat-completions.jsonl").write_text(
        '{"object":"chat.completion.chunk","choices":[]}\n', encoding="utf-8"
    )
    os.symlink(folder / "gone.sse", folder / "dangling.sse")
    return folder


def test_every_bad_input_is_a_row_with_its_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bad_folder: Path
) -> None:
    out = tmp_path / "out"
    status, stdout, _ = run(capsys, "audit", bad_folder, "--out", out, "--jobs", "2", "-q")
    assert status == 3  # an input is no stream, as every command says of it
    by_name = {}
    for row in rows(out):
        by_name.setdefault(Path(row["source"]).name, []).append(row)
    assert set(by_name) == {path.name for path in bad_folder.iterdir()}
    for name in ("good.sse", "good.sse.gz", "good.sse.zst"):
        (row,) = by_name[name]
        assert row["status"] == "completed" and row["error_kind"] is None and row["items"] == 3
    expected = {
        "truncated.sse.gz": "corrupt_archive",
        "plain-text-named.gz": "corrupt_archive",
        "garbage.jsonl.zst": "corrupt_archive",
        "image.png": "not_a_stream",
        "empty.sse": "not_a_stream",
        "chat-completions.jsonl": "not_a_stream",
        "dangling.sse": "unreadable",
    }
    for name, kind in expected.items():
        (row,) = by_name[name]
        assert (row["error_kind"], row["status"], row["ok"]) == (kind, None, False), name
        assert row["error"], name
    assert "No such file" in by_name["dangling.sse"][0]["error"]
    assert "missing_type" in by_name["chat-completions.jsonl"][0]["codes"]
    assert by_name["image.png"][0]["events"] > 0
    record = run_record(out)
    assert (record["inputs"], record["failed_inputs"], record["reconciles"]) == (10, 7, True)
    assert "10 inputs, 3 responses, 7 failed inputs" in stdout
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "10 inputs: 3 reduced to 3 responses" in summary and "7 failed" in summary
    assert "| corrupt_archive | (unknown) | 3 |" in summary
    assert "| unreadable | (unknown) | 1 |" in summary


def test_bad_manifest_rows_are_rows_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = (EXAMPLES / "parallel-calls.sse").read_text(encoding="utf-8")
    manifest = tmp_path / "corpus.jsonl"
    lines = [
        '{"id": "ok-body", "provider": "openai", "body": ' + json.dumps(good) + "}",
        '{"id": "ok-path", "provider": "bedrock", "path": "streams/mantle.jsonl"}',
        '{"provider": "openai", "body": "x"}',
        '{"id": "no-body"}',
        "not json at all",
        '{"id": "missing-file", "path": "streams/absent.sse"}',
    ]
    manifest.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    (tmp_path / "streams").mkdir()
    (tmp_path / "streams" / "mantle.jsonl").write_bytes(
        (EXAMPLES / "mantle-missing-id.jsonl").read_bytes()
    )
    out = tmp_path / "out"
    status, _, _ = run(
        capsys, "audit", "--manifest", manifest, "--out", out, "--partition-size", "4", "-q"
    )
    assert status == 1
    found = {row["source"].rsplit("#", 1)[1]: row for row in rows(out)}
    assert set(found) == {"0", "1", "2", "3", "4", "5"}
    assert (found["0"]["stream_id"], found["0"]["status"]) == ("ok-body", "completed")
    assert (found["1"]["provider"], found["1"]["status"]) == ("bedrock", "completed")
    assert found["2"]["error"] == "manifest row has no id"
    assert found["3"]["error"] == "manifest row has neither body nor path"
    assert found["4"]["error"] == "manifest row is not a JSON object"
    assert found["5"]["error_kind"] == "unreadable"
    assert run_record(out)["partitions"] == 2


def test_a_manifest_shorter_than_planned_still_gives_every_planned_row(tmp_path: Path) -> None:
    from responses_oracle.audit.sources import plan
    from responses_oracle.audit.work import Settings, run_partition

    body = json.dumps((EXAMPLES / "parallel-calls.sse").read_text(encoding="utf-8"))
    manifest = tmp_path / "corpus.jsonl"
    manifest.write_text(
        "".join(f'{{"id": "s{n}", "body": {body}}}\n' for n in range(5)), encoding="utf-8"
    )
    (partition,) = plan([], [str(manifest)]).partitions
    manifest.write_text(f'{{"id": "s0", "body": {body}}}\n', encoding="utf-8")
    output = run_partition(partition, Settings())
    found = output.table.to_pylist()
    assert [row["source"].rsplit("#", 1)[1] for row in found] == ["0", "1", "2", "3", "4"]
    assert found[0]["status"] == "completed"
    assert {row["error_kind"] for row in found[1:]} == {"unreadable"}
    assert "row missing (the manifest changed since planning)" in found[1]["error"]
    assert (output.inputs, output.responses, output.failed) == (5, 1, 4)
