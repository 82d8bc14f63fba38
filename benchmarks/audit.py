"""Throughput and memory of ``responses-oracle audit`` on the local pool and on Dask.

Run from the repository root (the ``audit`` and ``dask`` extras)::

    pip install -e '.[audit,dask]' --config-settings editable_mode=strict
    python benchmarks/audit.py                          # 100,000 streams (the issue's size)
    python benchmarks/audit.py --streams 10000          # what RESULTS.md records

The corpus is generated once (``responses_oracle.audit.corpus``: the toolkit's
``openai_stream`` rewritten by each provider profile in turn, ~200 events a stream
with ``--max-items 56``, SSE and JSON Lines bodies) into a Parquet manifest of
``--row-group`` rows per group, on both cores, and kept in ``--corpus`` for the next
run.  Then, for each configuration of ``--configs`` (``local1``, ``local2``, ``dask2``:
engine and worker count), ``run_audit`` audits the manifest into a fresh folder,
timed with ``time.perf_counter`` around the whole call: planning, starting the pool or
the ``LocalCluster``, the work, writing every partition, the summary (no example
timeline pages: ``pages=0``, their cost is per page, not per stream).  Streams/s and
events/s are over that wall time.  Peak memory per worker is the workers' own
``ru_maxrss`` (reported with each partition).  Every configuration must write the
same rows (compared sorted, without the ``partition`` column), or the run fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from responses_oracle.audit import AuditOptions, Engine, run_audit
from responses_oracle.audit.corpus import corpus_row, write_manifest

CONFIGS = {"local1": (Engine.LOCAL, 1), "local2": (Engine.LOCAL, 2), "dask2": (Engine.DASK, 2)}


@dataclass(frozen=True)
class Measured:
    """One configuration's run."""

    name: str
    seconds: float
    streams: int
    responses: int
    events: int
    cpu_seconds: float
    peak_rss: dict[str, int]


def _chunk(args: tuple[str, int, int, int, int]) -> str:
    """Write rows ``start..start+count`` of the corpus to a part file (one process)."""
    folder, start, count, seed, max_items = args
    path = os.path.join(folder, f"chunk-{start:08d}.parquet")
    rows = (corpus_row(seed, index, max_items) for index in range(start, start + count))
    write_manifest(path, rows, row_group=1000)
    return path


def corpus(folder: Path, streams: int, seed: int, max_items: int, row_group: int) -> Path:
    """The manifest of ``streams`` generated streams, made once and kept."""
    manifest = folder / f"corpus-{streams}-{seed}-{max_items}-{row_group}.parquet"
    if manifest.exists():
        return manifest
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        step = max(1, streams // 8)
        jobs = [
            (scratch, s, min(step, streams - s), seed, max_items) for s in range(0, streams, step)
        ]
        with ProcessPoolExecutor(2) as pool:
            parts = list(pool.map(_chunk, jobs))
        # One part at a time: holding the whole corpus here (~6 GB at 100,000 streams)
        # would be counted as the peak of every worker this process later spawns.
        schema = pq.read_schema(parts[0])
        with pq.ParquetWriter(manifest, schema, compression="zstd") as writer:
            for part in parts:
                for batch in pq.ParquetFile(part).iter_batches(batch_size=row_group):
                    writer.write_batch(batch, row_group_size=row_group)
    print(
        f"generated {streams:,} streams in {time.perf_counter() - started:.0f} s", file=sys.stderr
    )
    return manifest


def measure(name: str, manifest: Path, out: Path) -> Measured:
    """Audit ``manifest`` with configuration ``name`` into ``out``."""
    engine, jobs = CONFIGS[name]
    options = AuditOptions(
        sources=(), manifests=(str(manifest),), out=out, engine=engine, jobs=jobs, pages=0
    )
    started = time.perf_counter()
    report = run_audit(options)
    seconds = time.perf_counter() - started
    assert report.summary.reconciles, name
    return Measured(
        name,
        seconds,
        report.summary.planned_inputs,
        report.summary.responses,
        report.stats.events,
        report.stats.cpu_seconds,
        dict(report.stats.peak_rss),
    )


def _rows(out: Path) -> Any:
    table = pq.read_table(out / "results").drop_columns(["partition"])
    return table.sort_by([("source", "ascending"), ("response_index", "ascending")])


def _git() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "impl", "model"], capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" + uncommitted changes in impl/ or model/" if dirty else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=100_000)
    parser.add_argument("--max-items", type=int, default=56)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--row-group", type=int, default=250)
    parser.add_argument("--configs", default="local1,local2,dask2")
    parser.add_argument(
        "--corpus", type=Path, default=Path(tempfile.gettempdir()) / "ro-audit-bench"
    )
    args = parser.parse_args()
    load_start = os.getloadavg()
    started = time.perf_counter()
    manifest = corpus(args.corpus, args.streams, args.seed, args.max_items, args.row_group)
    results: list[Measured] = []
    reference = None
    with tempfile.TemporaryDirectory() as scratch:
        for name in args.configs.split(","):
            out = Path(scratch) / name
            results.append(measure(name, manifest, out))
            rows = _rows(out)
            if reference is None:
                reference = rows
            elif not rows.equals(reference):
                raise SystemExit(f"{name} wrote other rows than {results[0].name}")
    print("```")
    print(f"command: python benchmarks/audit.py {' '.join(sys.argv[1:])}".rstrip())
    print(
        f"machine: {platform.processor() or platform.machine()}, nproc={os.cpu_count()}, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )
    print(f"code:    {_git()}")
    print(f"date:    {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"corpus:  {manifest.name}, {manifest.stat().st_size / 1e6:,.0f} MB on disk")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in load_start)}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"wall time of the whole command: {time.perf_counter() - started:.0f} s")
    print("```")
    print()
    print(
        "| engine | workers | streams | responses | events | wall s | streams/s | events/s "
        "| wall µs/event/worker | CPU µs/event | peak RSS per worker |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for m in results:
        workers = CONFIGS[m.name][1]
        peaks = ", ".join(f"{rss / 2**20:.0f} MiB" for rss in sorted(m.peak_rss.values()))
        print(
            f"| {CONFIGS[m.name][0].value} | {workers} | {m.streams:,} | {m.responses:,} "
            f"| {m.events:,} | {m.seconds:.1f} | {m.streams / m.seconds:,.0f} "
            f"| {m.events / m.seconds:,.0f} | {1e6 * m.seconds * workers / m.events:.1f} "
            f"| {1e6 * m.cpu_seconds / m.events:.1f} | {peaks} |"
        )
    by_name = {m.name: m for m in results}
    if "local2" in by_name and "dask2" in by_name:
        overhead = by_name["dask2"].seconds / by_name["local2"].seconds - 1
        print(f"\nDask over the local pool (2 workers each): {100 * overhead:+.1f}% wall time")
    print(json.dumps({m.name: [m.seconds, m.cpu_seconds] for m in results}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
