"""Both engines give the same rows; a Dask worker killed mid-run loses none; progress on a TTY.

The Dask tests run a real ``dask.distributed.LocalCluster`` with worker processes.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli.cli_helpers import run
from distributed import Client, LocalCluster
from helpers import REPO
from responses_oracle.audit import AuditOptions, AuditReport, Engine, run_audit
from responses_oracle.audit.corpus import corpus_row, corpus_rows, write_manifest

from .audit_helpers import command, loop_folder, rows, traffic


def test_local_pool_and_dask_write_the_same_rows_and_summary_on_captures_and_a_corpus(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = traffic(tmp_path / "traffic")
    manifest = tmp_path / "corpus.parquet"
    assert write_manifest(str(manifest), corpus_rows(60, seed=11), row_group=20) == 60
    captures = REPO / "fixtures" / "captures"
    common = (
        *(folder, captures),
        *("--manifest", manifest, "--partition-size", "6", "--provider-from-dir", "-q"),
    )
    local, dask = tmp_path / "local", tmp_path / "dask"
    status_local, stdout_local, _ = run(capsys, "audit", *common, "--out", local, "--jobs", "2")
    status_dask, stdout_dask, _ = run(
        capsys, "audit", *common, "--out", dask, "--engine", "dask", "--jobs", "2"
    )
    assert status_local == status_dask
    found = rows(local)
    assert found == rows(dask)
    files = [path for root in (folder, captures) for path in root.rglob("*") if path.is_file()]
    assert len({row["source"] for row in found}) == 60 + len(files)
    vendored = [row for row in found if "/fixtures/captures/" in row["source"]]
    assert {row["provider"] for row in vendored if row["status"]} == {"pydantic-ai", "vercel-ai"}
    assert sum(1 for row in vendored if row["status"]) > 90
    assert sum(1 for row in found if "corpus.parquet#" in row["source"]) == 60
    assert (local / "summary.md").read_text() == (dask / "summary.md").read_text()
    assert (local / "summary.html").read_text() == (dask / "summary.html").read_text()
    assert stdout_local.split(";")[0] == stdout_dask.split(";")[0]


def test_missing_dask_extra_is_an_install_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.jsonl").write_bytes(corpus_row(1, 1, 4)["body"])
    monkeypatch.setitem(sys.modules, "distributed", None)
    status, _, err = run(
        capsys, "audit", tmp_path / "a.jsonl", "--out", tmp_path / "o", "--engine", "dask"
    )
    assert status == 2
    assert "pip install 'responses-oracle[dask]'" in err


def test_missing_audit_extra_is_an_install_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.jsonl").write_bytes(corpus_row(1, 1, 4)["body"])
    monkeypatch.setitem(sys.modules, "fsspec", None)
    status, _, err = run(capsys, "audit", tmp_path / "a.jsonl", "--out", tmp_path / "o")
    assert status == 2
    assert "pip install 'responses-oracle[audit]'" in err


def test_a_dask_worker_killed_mid_run_loses_no_rows(tmp_path: Path) -> None:
    folder = loop_folder(tmp_path / "traffic", 12, seed=4)
    out = tmp_path / "out"
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        options = AuditOptions(
            sources=(str(folder),),
            out=out,
            engine=Engine.DASK,
            scheduler=cluster.scheduler_address,
            partition_size=1,
            pages=0,
        )
        reports: list[AuditReport] = []
        audit = threading.Thread(target=lambda: reports.append(run_audit(options)))
        audit.start()
        victim, victim_keys = None, []
        deadline = time.monotonic() + 40
        while victim is None and audit.is_alive() and time.monotonic() < deadline:
            busy = {w: keys for w, keys in client.processing().items() if keys}
            if busy and list((out / "results").glob("part-*.parquet")):
                victim, victim_keys = next(iter(busy.items()))
            time.sleep(0.02)
        assert victim is not None, "the audit ended before a worker could be killed"
        pid = client.run(os.getpid, workers=[victim])[victim]
        os.kill(pid, signal.SIGKILL)
        audit.join(timeout=50)
        assert not audit.is_alive()
    (report,) = reports
    assert report.summary.failed_inputs == 0 and report.summary.reconciles
    assert report.summary.responses == 12 * 30
    assert len(list((out / "results").glob("part-*.parquet"))) == 12
    for key in victim_keys:
        assert (out / "results" / f"part-{key.removeprefix('audit-partition-')}.parquet").exists()
    local = tmp_path / "local"
    run_audit(AuditOptions(sources=(str(folder),), out=local, partition_size=1, jobs=1, pages=0))
    assert rows(out) == rows(local)


def _on_a_terminal(*argv: str | Path) -> tuple[int, str]:
    """Run the CLI with stderr on a pseudo-terminal: (exit status, what the terminal got)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        command(*argv),
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env={**os.environ, "COLUMNS": "160", "TERM": "xterm"},
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=60), b"".join(chunks).decode(errors="replace")


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_progress_on_a_terminal(tmp_path: Path, engine: str) -> None:
    folder = tmp_path / "traffic"
    folder.mkdir()
    for n in range(6):
        (folder / f"s{n}.jsonl").write_bytes(corpus_row(2, 2 * n + 1, 4)["body"])
    (folder / "broken.sse.gz").write_bytes(b"not gzip")
    status, screen = _on_a_terminal(
        "audit",
        folder,
        "--out",
        tmp_path / "out",
        "--engine",
        engine,
        "--jobs",
        "2",
        "--partition-size",
        "2",
    )
    assert status == 1
    assert "auditing" in screen and "7/7" in screen
    assert "streams/s" in screen and "1 errors" in screen and "6 responses" in screen
    quiet, screen = _on_a_terminal("audit", folder, "--out", tmp_path / "quiet", "-q")
    assert quiet == 1 and "auditing" not in screen


def _grandchildren() -> list[int]:
    """Processes whose parent is a child of this one (the local pool's workers, which
    the forkserver starts), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    children = {pid for pid, parent in parents.items() if parent == os.getpid()}
    return sorted(pid for pid, parent in parents.items() if parent in children)


def test_a_local_pool_worker_killed_mid_run_loses_no_rows(tmp_path: Path) -> None:
    folder = loop_folder(tmp_path / "traffic", 12, seed=4)
    out = tmp_path / "out"
    options = AuditOptions(sources=(str(folder),), out=out, partition_size=1, jobs=2, pages=0)
    reports: list[AuditReport] = []
    audit = threading.Thread(target=lambda: reports.append(run_audit(options)))
    audit.start()
    killed, first_pool = None, set()
    deadline = time.monotonic() + 40
    while killed is None and audit.is_alive() and time.monotonic() < deadline:
        workers = _grandchildren()
        if workers and list((out / "results").glob("part-*.parquet")):
            killed, first_pool = workers[0], set(workers)
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    audit.join(timeout=60)
    assert killed is not None, "the audit ended before a worker could be killed"
    (report,) = reports
    assert report.summary.failed_inputs == 0 and report.summary.reconciles
    assert report.summary.responses == 12 * 30
    ran_on = {int(worker.rsplit(":", 1)[1]) for worker in report.stats.peak_rss}
    assert ran_on - first_pool, "the partitions the kill took down ran again on a new pool"
    assert len(list((out / "results").glob("part-*.parquet"))) == 12


def test_an_unreachable_scheduler_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from responses_oracle.audit import engines

    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    monkeypatch.setattr(engines, "CONNECT_SECONDS", 2)
    (tmp_path / "a.jsonl").write_bytes(corpus_row(1, 1, 4)["body"])
    status, _, err = run(
        capsys,
        "audit",
        tmp_path / "a.jsonl",
        "--out",
        tmp_path / "o",
        "--engine",
        "dask",
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
    )
    assert status == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err


@pytest.mark.parametrize("engine", ["local1", "local2", "dask"])
def test_a_partition_that_raises_becomes_rows_to_retry(tmp_path: Path, engine: str) -> None:
    from responses_oracle.audit.engines import dask_outputs, local_outputs
    from responses_oracle.audit.sources import plan
    from responses_oracle.audit.work import Settings

    for n in range(3):
        (tmp_path / f"s{n}.jsonl").write_bytes(corpus_row(1, 2 * n + 1, 4)["body"])
    partitions = plan([str(tmp_path)], partition_size=2).partitions
    # An input format the front end does not know makes the reduction itself raise.
    broken = Settings(format="no-such-format")
    if engine == "dask":
        outputs = list(dask_outputs(partitions, broken, 1, None, 0))
    else:
        outputs = list(local_outputs(partitions, broken, int(engine[-1])))
    assert sorted(o.inputs for o in outputs) == [1, 2]
    for output in outputs:
        assert output.complete is False and output.failed == output.inputs
        found = output.table.to_pylist()
        assert {row["error_kind"] for row in found} == {"partition_failed"}
        assert all(row["error"].startswith("KeyError") for row in found)
        assert sorted(row["source"] for row in found) == sorted(
            file.url for p in partitions if p.key == output.key for file in p.files
        )
