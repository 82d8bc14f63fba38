"""An interrupted audit resumes without redoing finished partitions, and loses no row."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli.cli_helpers import run
from responses_oracle.audit.corpus import corpus_row
from responses_oracle.words import counted

from .audit_helpers import command, loop_folder, rows, run_record

FILES = 40
"""Enough partitions that the run still goes on when a test slowed by a busy machine
interrupts it (16 finished first once, under a load of six)."""


def _default_sigint() -> None:
    # A suite started in the background by a non-interactive shell (`pytest &`) inherits
    # SIGINT ignored, and Python then installs no KeyboardInterrupt handler: give the
    # audit the SIGINT a terminal would.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _audit(*argv: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command("audit", *argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )


def test_an_interrupted_audit_resumes_where_it_stopped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = loop_folder(tmp_path / "traffic", FILES, seed=3)
    out = tmp_path / "out"
    options = ("--jobs", "1", "--partition-size", "1", "--pages", "0", "-q")
    process = _audit(folder, "--out", out, *options)
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if list((out / "results").glob("part-*.parquet")):
            break
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "run the same command again to resume" in stderr
    written = {path.name: path.stat().st_mtime_ns for path in (out / "results").glob("*.parquet")}
    assert 0 < len(written) < FILES
    assert run_record(out)["state"] == "running"

    status, stdout, _ = run(capsys, "audit", folder, "--out", out, *options)
    assert status == 0
    assert f"{counted(FILES - len(written), 'partition')} run, {len(written)} reused" in stdout
    for name, mtime in written.items():
        assert (out / "results" / name).stat().st_mtime_ns == mtime, (
            "a finished partition was redone"
        )
    assert run_record(out)["state"] == "finished"

    fresh = tmp_path / "fresh"
    assert run(capsys, "audit", folder, "--out", fresh, *options)[0] == 0
    assert rows(out) == rows(fresh)
    assert len({row["source"] for row in rows(out)}) == FILES
    assert sum(1 for row in rows(out)) == FILES * 30


def test_ctrl_c_with_two_jobs_ends_the_workers_without_a_traceback(tmp_path: Path) -> None:
    folder = loop_folder(tmp_path / "traffic", FILES, seed=3)
    out = tmp_path / "out"
    process = subprocess.Popen(
        command("audit", folder, "--out", out, "--jobs", "2", "--partition-size", "1",
                "--pages", "0", "-q"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, process_group=0,
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if list((out / "results").glob("part-*.parquet")):
            break
        time.sleep(0.01)
    # As a terminal sends it: to the whole group, the pool's workers too.
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "run the same command again to resume" in stderr
    assert "Traceback" not in stderr, stderr


def test_a_resumed_run_redoes_only_what_is_missing_or_changed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "traffic"
    folder.mkdir()
    for n in range(4):
        (folder / f"s{n}.jsonl").write_bytes(corpus_row(5, 2 * n + 1, 4)["body"])
    out = tmp_path / "out"
    options = ("--jobs", "1", "--partition-size", "1", "-q")
    assert run(capsys, "audit", folder, "--out", out, *options)[0] == 0
    files = sorted((out / "results").glob("*.parquet"))
    assert len(files) == 4
    files[0].unlink()
    (out / "results" / ".tmp-1-part-x.parquet").write_bytes(b"half a file")
    status, stdout, _ = run(capsys, "audit", folder, "--out", out, *options)
    assert "1 partition run, 3 reused" in stdout and status == 0
    assert not list((out / "results").glob(".tmp-*"))

    (folder / "s3.jsonl").write_bytes(corpus_row(5, 99, 4)["body"])
    status, stdout, _ = run(capsys, "audit", folder, "--out", out, *options)
    assert "1 partition run, 3 reused" in stdout
    assert len(list((out / "results").glob("*.parquet"))) == 4, "the stale partition is pruned"
    (changed,) = [row for row in rows(out) if row["source"].endswith("s3.jsonl")]
    assert changed["stream_id"].endswith("s3.jsonl")


def test_resuming_with_other_settings_is_refused_unless_fresh(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "traffic"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(corpus_row(5, 1, 4)["body"])
    out = tmp_path / "out"
    assert run(capsys, "audit", folder, "--out", out, "-q")[0] == 0
    status, _, err = run(capsys, "audit", folder, "--out", out, "--partition-size", "7", "-q")
    assert status == 2 and "other settings" in err and "--fresh" in err
    status, stdout, _ = run(
        capsys, "audit", folder, "--out", out, "--partition-size", "7", "--fresh", "-q"
    )
    assert status == 0 and "1 partition run, 0 reused" in stdout
    assert run_record(out)["settings"]["partition_size"] == 7
    kept = sorted((out / "results").glob("*.parquet"))
    status, _, err = run(capsys, "audit", tmp_path / "gone", "--out", out, "--fresh", "-q")
    assert status == 2 and "no such file or directory" in err
    assert sorted((out / "results").glob("*.parquet")) == kept and kept, (
        "--fresh discards the old results only once the new run is planned"
    )
    assert run_record(out)["settings"]["partition_size"] == 7
    assert os.path.isfile(out / "summary.html")
