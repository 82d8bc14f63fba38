"""The audit's output folder: the Parquet dataset, the run record, resuming.

Layout of ``--out DIR``::

    DIR/run.json                      what was audited, with which settings, and the totals
    DIR/results/part-KEY.parquet      the rows of one finished partition
    DIR/results/part-KEY.failed.parquet   failure rows of a partition that could not run
    DIR/summary.md, DIR/summary.html  the summary (``summary``)
    DIR/streams/KEY.html              the example streams' timelines (``example_pages``)

Every partition file is written whole or not at all: to a temporary name in the same
folder, then renamed (``os.replace`` is atomic on POSIX), so an interrupted run never
leaves a truncated file that a reader or a resumed run would trust.  A resumed run
(``finished``) skips every partition whose ``part-KEY.parquet`` exists; a ``.failed``
file is a partition to try again, and it is replaced once the partition succeeds.  The
dataset is the files of the current plan only: ``prune`` removes those of partitions no
source names any more (an input that changed gets a new key), so that
``read_parquet('DIR/results/*.parquet')`` in DuckDB sees exactly this audit.

``run.json`` keeps the settings that change rows (input format, partition size,
provider naming, the schema version); resuming with other settings is refused, since it
would mix rows made two ways.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from responses_oracle.audit.libraries import require
from responses_oracle.audit.work import PartitionOutput

SCHEMA_VERSION: Final = 1
"""Version of the row schema; a change makes old outputs un-resumable."""

RUN_FILE: Final = "run.json"
RESULTS: Final = "results"
_PREFIX, _DONE, _FAILED = "part-", ".parquet", ".failed.parquet"


class StoreError(Exception):
    """The output folder cannot be used as asked (other settings, not a folder...)."""


class OutputDir:
    """One audit output folder (layout in the module docstring)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.results = self.path / RESULTS

    def check(self, settings: Mapping[str, Any], *, fresh: bool) -> None:
        """Refuse a folder ``prepare`` would refuse, touching nothing.

        The audit checks first, plans, and only then prepares: a run refused while
        planning (a SOURCE that matches nothing, a missing credential) neither leaves an
        empty folder behind nor discards, under ``fresh``, the results already there.
        """
        if self.path.exists() and not self.path.is_dir():
            raise StoreError(f"--out {self.path} exists and is not a folder")
        previous = None if fresh else self.read_run()
        if previous is not None and previous.get("settings") != dict(settings):
            raise StoreError(
                f"{self.path} holds an audit made with other settings "
                f"({previous.get('settings')}); pass --fresh to discard it, or another --out"
            )

    def prepare(self, settings: Mapping[str, Any], *, fresh: bool) -> None:
        """Create the folder, or check it holds a run with the same ``settings``.

        ``fresh`` discards a previous run's results first.  Temporary files of an
        interrupted write are removed.
        """
        self.check(settings, fresh=fresh)
        if fresh and self.results.exists():
            shutil.rmtree(self.results)
            (self.path / RUN_FILE).unlink(missing_ok=True)
        self.results.mkdir(parents=True, exist_ok=True)
        for leftover in self.results.glob(".tmp-*"):
            leftover.unlink()

    def read_run(self) -> dict[str, Any] | None:
        """The run record, or None when the folder holds no audit."""
        try:
            text = (self.path / RUN_FILE).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            record = json.loads(text)
        except ValueError:
            raise StoreError(f"{self.path / RUN_FILE} is not JSON; pass --fresh") from None
        if not isinstance(record, dict):
            raise StoreError(f"{self.path / RUN_FILE} is not a run record; pass --fresh")
        return record

    def write_run(self, record: Mapping[str, Any]) -> None:
        """Write the run record (atomically)."""
        self._replace(self.path / RUN_FILE, json.dumps(record, indent=2).encode() + b"\n")

    def finished(self) -> set[str]:
        """Keys of the partitions already written successfully."""
        return {
            path.name[len(_PREFIX) : -len(_DONE)]
            for path in self.results.glob(f"{_PREFIX}*{_DONE}")
            if not path.name.endswith(_FAILED)
        }

    def file(self, key: str, *, complete: bool = True) -> Path:
        """The partition file of ``key``."""
        return self.results / f"{_PREFIX}{key}{_DONE if complete else _FAILED}"

    def write(self, output: PartitionOutput) -> None:
        """Write one partition's rows (atomically); a success replaces a failure."""
        pq = require("pyarrow.parquet", "audit", "an audit")
        target = self.file(output.key, complete=output.complete)
        temporary = self.results / f".tmp-{os.getpid()}-{target.name}"
        pq.write_table(output.table, temporary, compression="zstd")
        os.replace(temporary, target)
        if output.complete:
            self.file(output.key, complete=False).unlink(missing_ok=True)

    def prune(self, keys: Iterable[str]) -> int:
        """Remove partition files whose key is not in ``keys``; how many were removed."""
        wanted = set(keys)
        removed = 0
        for path in self.results.glob(f"{_PREFIX}*{_DONE}"):
            name = path.name[len(_PREFIX) :]
            key = name.removesuffix(_FAILED) if name.endswith(_FAILED) else name[: -len(_DONE)]
            if key not in wanted:
                path.unlink()
                removed += 1
        return removed

    def files(self) -> list[Path]:
        """Every partition file of the dataset, in name order."""
        return sorted(self.results.glob(f"{_PREFIX}*{_DONE}"))

    def dataset(self) -> Any:
        """All rows as one ``pyarrow.Table`` (empty with the schema when there are none)."""
        pa = require("pyarrow", "audit", "an audit")
        pq = require("pyarrow.parquet", "audit", "an audit")
        from responses_oracle.audit.rows import schema

        tables = [pq.read_table(path, schema=schema()) for path in self.files()]
        return pa.concat_tables(tables) if tables else schema().empty_table()

    def _replace(self, target: Path, data: bytes) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".tmp-{os.getpid()}-{target.name}")
        temporary.write_bytes(data)
        os.replace(temporary, target)
