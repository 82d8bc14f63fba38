"""Persisted output in a manifest is classified by the differential taxonomy, per response."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli.cli_helpers import EXAMPLES, run
from responses_oracle import reduce

from .audit_helpers import documented_queries, rows, tool_loop

PARALLEL = EXAMPLES / "parallel-calls.sse"


def _items(path: Path | bytes) -> list[list[dict[str, Any]]]:
    return [[entry.item for entry in result.items] for result in reduce(path)]


def _manifest_rows() -> list[dict[str, Any]]:
    body = PARALLEL.read_text(encoding="utf-8")
    (items,) = _items(PARALLEL)
    wrong = copy.deepcopy(items)
    wrong[1]["arguments"] = '{"city":"Lyon","unit":"c"}'
    loop = tool_loop()
    loop_items = _items(loop.encode())
    return [
        {"id": "agrees", "provider": "gw", "body": body, "output": items},
        {"id": "wrong-args", "provider": "gw", "body": body, "output": wrong},
        {"id": "lost-call", "provider": "gw", "body": body, "output": items[:2]},
        {
            "id": "reordered",
            "provider": "gw",
            "body": body,
            "output": [items[0], items[2], items[1]],
        },
        {"id": "entries", "provider": "gw", "body": body, "output": [{"item": i} for i in items]},
        {"id": "loop", "provider": "gw", "body": loop, "output": loop_items},
        {"id": "loop-flat", "provider": "gw", "body": loop, "output": loop_items[0]},
        {"id": "not-json", "provider": "gw", "body": body, "output": "{oops"},
        {"id": "no-output", "provider": "gw", "body": body},
    ]


def _check(out: Path) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows(out):
        found.setdefault(row["stream_id"], []).append(row)
    classes = {name: [r["divergences"] for r in found[name]] for name in found}
    assert classes["agrees"] == [[]]
    assert classes["wrong-args"] == [["wrong_tool_run"]]
    assert classes["lost-call"] == [["confirmed_call_lost"]]
    assert classes["reordered"] == [["order_differs"]]
    assert classes["entries"] == [[]]
    assert classes["loop"] == [[], []]
    assert classes["no-output"] == [None]
    assert [r["persisted_items"] for r in found["lost-call"]] == [2]
    assert found["loop-flat"][0]["error_kind"] == "bad_manifest_row"
    assert found["loop-flat"][0]["error"].endswith(
        "or an array of arrays of items (one per response); the stream has 2 responses"
    )
    assert found["not-json"][0]["error"].startswith("output is not JSON")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| gw | (none) |  |  | wrong_tool_run | 1 | 1 | [`wrong-args`](streams/" in summary
    assert "| gw | (none) |  |  | (agrees) | 4 | 3 |" in summary
    assert "Persisted output compared with the reference for 7 responses." in summary
    (page,) = re.findall(r"\[`wrong-args`\]\((streams/[0-9a-f]+\.html)\)", summary)
    assert "<title>wrong-args" in (out / page).read_text(encoding="utf-8")
    # The docs page's second query: the streams a parser would have run wrong.
    harmful = duckdb.sql(documented_queries(out)[1]).fetchall()
    assert [(row[0], row[1], row[2], row[4]) for row in harmful] == [
        ("lost-call", 0, "gw", ["confirmed_call_lost"]),
        ("wrong-args", 0, "gw", ["wrong_tool_run"]),
    ]


def test_jsonl_manifest_output_is_classified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "corpus.jsonl"
    manifest.write_text(
        "".join(json.dumps(row) + "\n" for row in _manifest_rows()), encoding="utf-8"
    )
    status, _, _ = run(capsys, "audit", "--manifest", manifest, "--out", tmp_path / "out", "-q")
    assert status == 1
    _check(tmp_path / "out")


def test_parquet_manifest_output_as_json_text_is_classified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "corpus.parquet"
    table = pa.Table.from_pylist(
        [
            {
                **row,
                "output": row["output"]
                if isinstance(row.get("output"), str)
                else (None if "output" not in row else json.dumps(row["output"])),
            }
            for row in _manifest_rows()
        ]
    )
    pq.write_table(table, manifest, row_group_size=4)
    assert pq.ParquetFile(manifest).metadata.num_row_groups == 3
    status, _, _ = run(capsys, "audit", "--manifest", manifest, "--out", tmp_path / "out", "-q")
    assert status == 1
    _check(tmp_path / "out")
