"""Shared pieces of the audit tests: a small traffic folder, running an audit, reading rows.

``traffic`` lays out a folder the way a gateway might: the repository's example
streams under ``openai/``, generated mixed-provider streams (``audit.corpus``) under
each provider's folder, and a tool loop (two responses in one file).  ``rows`` reads an
output folder's dataset as plain dicts in a canonical order, without the ``partition``
column, so two runs (two engines, a run and its resumption) compare row for row.
``command`` is the command line that runs the CLI in a process of its own;
``documented_queries`` the DuckDB queries of the Auditing traffic page, as written there.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from cli.cli_helpers import EXAMPLES, function_call_stream, jsonl
from helpers import REPO
from responses_oracle.audit.corpus import corpus_row


def command(*argv: str | Path) -> list[str]:
    """The command line running ``responses-oracle ARGV...`` in a new Python process."""
    main = "import sys; from responses_oracle.cli import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", main, *map(str, argv)]


def documented_queries(out: Path) -> list[str]:
    """The SQL blocks of docs/usage/audit.md, reading the dataset of ``out``."""
    page = (REPO / "docs" / "usage" / "audit.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", page, re.DOTALL)
    return [block.replace("audit-out/", f"{out}/") for block in blocks]


def tool_loop() -> str:
    """One file holding two responses back to back (a tool loop), as JSON Lines."""
    first = function_call_stream("resp_loop_1", "fc_loop_1", "call_loop_1")
    second = function_call_stream("resp_loop_2", "fc_loop_2", "call_loop_2", '{"city":"Oslo"}')
    return jsonl(first + second)


def traffic(root: Path, generated: int = 18, seed: int = 7) -> Path:
    """A traffic folder (layout in the module docstring); returns ``root``."""
    (root / "openai").mkdir(parents=True)
    for example in sorted(EXAMPLES.iterdir()):
        if example.suffix in (".sse", ".jsonl"):
            shutil.copy(example, root / "openai" / example.name)
    (root / "openai" / "tool-loop.jsonl").write_text(tool_loop(), encoding="utf-8")
    for index in range(generated):
        row = corpus_row(seed, index, 4)
        folder = root / row["provider"]
        folder.mkdir(exist_ok=True)
        suffix = ".sse.gz" if index % 3 == 0 else ".jsonl"
        data = gzip.compress(row["body"]) if suffix.endswith(".gz") else row["body"]
        (folder / f"{row['id']}{suffix}").write_bytes(data)
    return root


def rows(out: Path) -> list[dict[str, Any]]:
    """The dataset of ``out`` as dicts in (source, response_index) order, no partition."""
    table = pq.read_table(out / "results").drop_columns(["partition"])
    found = table.to_pylist()
    return sorted(found, key=lambda row: (row["source"], row["response_index"] or 0))


def run_record(out: Path) -> dict[str, Any]:
    """The ``run.json`` of an output folder."""
    record: dict[str, Any] = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return record


def loop_folder(root: Path, files: int, seed: int) -> Path:
    """``files`` files of ~6,000 events each (tool loops of 30 generated responses):
    slow enough that a test can act while an audit of them runs."""
    body = b"".join(corpus_row(seed, 2 * n + 1, 56)["body"] for n in range(30))
    root.mkdir()
    for n in range(files):
        (root / f"loop-{n:02d}.jsonl").write_bytes(body)
    return root
