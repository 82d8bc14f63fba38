"""A partition that kills its worker every time it runs (a poisoned input) costs only its rows.

Nothing the reducer reads can kill a process, but a filesystem library can: a native
crash on one object.  So these tests install a real fsspec plugin (``crashfs``: the
``crash://`` protocol, whose process is SIGKILLed when it opens one named file) the way
such a library is installed, and run the CLI in a process of its own on ``crash://``
URLs, as a user would.  A clean run of the same command (no file named) is the reference.
One test drives the Dask engine directly, reading its outputs more slowly than the worker
runs: a partition that finished on the worker the next one kills is run again, not failed
(the plugin makes that rerun slow, so that the test looks while it runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from responses_oracle.audit.corpus import corpus_row

from . import crashfs
from .audit_helpers import command, rows, run_record

FILES = 24
"""One partition per file: enough partitions that running each one after the poisoned
one in a process of its own would show."""

JOBS = 2
VICTIM = "f02.jsonl"


@pytest.fixture(scope="module")
def crash_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(the plugin's folder, a traffic folder of ``FILES`` small streams, the output of
    a clean audit of it)."""
    root = tmp_path_factory.mktemp("poisoned")
    site = crashfs.install(root / "site")
    folder = root / "traffic"
    folder.mkdir()
    for n in range(FILES):
        (folder / f"f{n:02d}.jsonl").write_bytes(corpus_row(5, 2 * n + 1, 4)["body"])
    clean, opened, _ = _audit(site, folder, root / "clean")
    assert clean.returncode == 0, clean.stderr
    assert opened == {f"f{n:02d}.jsonl": 1 for n in range(FILES)}
    return site, folder, root / "clean"


def _audit(
    site: Path,
    folder: Path,
    out: Path,
    *options: str,
    victim: str | None = None,
    env: dict[str, str] | None = None,
) -> tuple[subprocess.CompletedProcess[str], Counter[str], set[int]]:
    """Audit ``crash://FOLDER`` into ``out``: (the process, how often the workers opened
    each file, the ids of the workers: the processes other than the command's)."""
    log = out.with_suffix(".opened")
    log.unlink(missing_ok=True)
    environment = _environment(site, log, victim, env)
    argv = ("audit", f"crash://{folder}", "--out", out, "--partition-size", "1", *options)
    process = subprocess.Popen(
        command(*argv, "--jobs", str(JOBS), "-q"),
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = process.communicate(timeout=240)
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    opened: Counter[str] = Counter()
    workers: set[int] = set()
    for line in log.read_text().splitlines():
        pid, name = line.split(" ", 1)
        if int(pid) != process.pid:
            opened[name] += 1
            workers.add(int(pid))
    return done, opened, workers


def _environment(
    site: Path, log: Path, victim: str | None, env: dict[str, str] | None
) -> dict[str, str]:
    """This process's environment with the plugin importable, its openings logged to
    ``log``, and ``victim`` (if any) the file whose opening kills; then ``env``."""
    environment = {key: value for key, value in os.environ.items() if key != crashfs.VICTIM}
    python_path = [str(site), environment.get("PYTHONPATH")]
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, python_path))
    environment[crashfs.LOG] = str(log)
    if victim is not None:
        environment[crashfs.VICTIM] = victim
    environment.update(env or {})
    return environment


def _by_partition(out: Path) -> dict[str, list[dict[str, Any]]]:
    table = pq.read_table(out / "results")
    found: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(table.to_pylist(), key=lambda row: row["source"]):
        found.setdefault(row["partition"], []).append(row)
    return found


def _lost(clean: Path, out: Path, folder: Path) -> dict[str, Any]:
    """The one row of ``out`` that differs from the clean audit: the victim's; every
    other partition must hold the clean audit's rows."""
    expected, found = _by_partition(clean), _by_partition(out)
    assert found.keys() == expected.keys()
    lost = [key for key, partition in found.items() if partition != expected[key]]
    assert len(lost) == 1
    (row,) = found[lost[0]]
    assert row["source"] == f"crash://{folder}/{VICTIM}" == row["stream_id"]
    assert (row["error_kind"], row["status"], row["ok"]) == ("worker_lost", None, False)
    assert [r["source"] for r in expected[lost[0]]] == [row["source"]]
    assert expected[lost[0]][0]["status"] == "completed"
    record = run_record(out)
    assert (record["inputs"], record["responses"], record["failed_inputs"]) == (FILES, 23, 1)
    assert record["reconciles"] is True
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert f"{FILES} inputs: {FILES - 1} reduced to {FILES - 1} responses" in summary
    assert "| worker_lost | (unknown) | 1 |" in summary
    assert (out / "results" / f"part-{row['partition']}.failed.parquet").exists()
    return row


def test_a_poisoned_partition_becomes_worker_lost_rows_and_nothing_else_is_lost(
    tmp_path: Path, crash_site: tuple[Path, Path, Path]
) -> None:
    site, folder, clean = crash_site
    out = tmp_path / "out"
    poisoned, opened, workers = _audit(site, folder, out, victim=VICTIM)
    assert poisoned.returncode == 1, poisoned.stderr
    assert f"{FILES} inputs, {FILES - 1} responses, 1 failed input" in poisoned.stdout
    # Twice on a shared pool, then alone on a pool of its own.
    assert opened[VICTIM] == 3
    # The other partitions went on sharing the pools' workers: a few pools in all
    # (first, after each break, the ones alone), never a process per partition.
    assert len(workers) <= 4 * JOBS, sorted(workers)

    row = _lost(clean, out, folder)
    assert row["error"] == (
        "the worker process died on each of 3 runs of this partition, "
        "the last one alone on a pool of its own"
    )

    # The next run (the crash fixed) tries the poisoned partition again, and only it.
    again, opened, _ = _audit(site, folder, out)
    assert again.returncode == 0, again.stderr
    assert "1 partition run, 23 reused" in again.stdout
    assert opened == {VICTIM: 1}
    assert rows(out) == rows(clean)


def test_on_dask_a_poisoned_partition_is_worker_lost_after_the_allowed_failures(
    tmp_path: Path, crash_site: tuple[Path, Path, Path]
) -> None:
    site, folder, clean = crash_site
    out = tmp_path / "out"
    # As an operator tunes Dask: give up on a task after two of its workers died, and
    # hand each worker one task at a time, so that a dying worker takes no other down.
    dask = {
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1",
        "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0",
    }
    poisoned, opened, _ = _audit(site, folder, out, "--engine", "dask", victim=VICTIM, env=dask)
    assert poisoned.returncode == 1, poisoned.stderr
    assert f"{FILES} inputs, {FILES - 1} responses, 1 failed input" in poisoned.stdout
    assert opened[VICTIM] == 2
    row = _lost(clean, out, folder)
    assert row["error"].startswith("KilledWorker: "), row["error"]


LATE_READER = """
import sys, time
from responses_oracle.audit.engines import dask_outputs
from responses_oracle.audit.sources import plan
from responses_oracle.audit.work import Settings

partitions = sorted(plan([sys.argv[1]], partition_size=1).partitions,
                    key=lambda p: p.files[0].url)
outputs = dask_outputs(partitions, Settings(), 1, None, 0)
first = next(outputs)
# A reader slower than the worker: meanwhile the second partition finishes on the one
# worker, the poisoned third kills it, and the second's result dies with it.
time.sleep(float(sys.argv[2]))
for output in [first, *outputs]:
    print(output.key, output.responses, output.failed, output.complete)
"""


def test_on_dask_a_result_lost_with_its_worker_is_recomputed_not_failed(
    tmp_path: Path, crash_site: tuple[Path, Path, Path]
) -> None:
    site, _, _ = crash_site
    # Four partitions on one worker thread: a group Dask queues on the scheduler
    # (more tasks than twice the threads), so a worker runs one at a time.
    folder = tmp_path / "four"
    folder.mkdir()
    for n in range(4):
        (folder / f"f{n:02d}.jsonl").write_bytes(corpus_row(5, 2 * n + 1, 4)["body"])
    log = tmp_path / "opened"
    # One worker, one task at a time, give up on a task after it killed two workers.
    # The second partition, run again, takes 5 s: the reader looks in between.
    environment = _environment(site, log, "f02.jsonl", {
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1",
        "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0",
        crashfs.SLOW: "f01.jsonl:5",
    })
    done = subprocess.run(
        [sys.executable, "-c", LATE_READER, f"crash://{folder}", "2"],
        env=environment, capture_output=True, text=True, timeout=240, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    # The three good partitions reduced (the second run again), the poisoned one lost.
    assert sorted((responses, failed, complete) for _, responses, failed, complete in lines) == [
        ("0", "1", "False"), ("1", "0", "True"), ("1", "0", "True"), ("1", "0", "True")]
    # The second partition's file was read twice: it ran again after its worker died.
    opened = Counter(line.split(" ", 1)[1] for line in log.read_text().splitlines())
    assert opened["f01.jsonl"] >= 2, opened
