"""An fsspec filesystem plugin whose process dies on one file: a poisoned input.

The audit tests install it the way a third-party filesystem is installed: this module
and a ``crashfs-0.dist-info`` declaring it under the ``fsspec.specs`` entry point, in
a folder put on ``PYTHONPATH`` (``install``), so that ``import fsspec`` in every
process of an audit -- the command, its pool or Dask workers -- registers the ``crash``
protocol.  ``crash:///path`` is the local file ``/path``, except that opening the file
named by the ``CRASHFS_FILE`` environment variable SIGKILLs the process, as a native
crash in a filesystem library would: no exception, no clean-up, the process is gone.
Every opening is logged first, "PID NAME" a line, to the file ``CRASHFS_LOG`` names.
``CRASHFS_SLOW`` (``NAME:SECONDS``) makes a file slow to open again once a process
that opened it before has died: a partition run again after its worker was lost takes
that long, and a test can look at the run in between.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from fsspec.implementations.local import LocalFileSystem

VICTIM = "CRASHFS_FILE"
"""The environment variable naming (by file name) the file whose opening kills."""

LOG = "CRASHFS_LOG"
"""The environment variable naming the log of openings."""

SLOW = "CRASHFS_SLOW"
"""The environment variable naming (``NAME:SECONDS``) the file slow to open again."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _rerun_after_a_death(log: str, name: str) -> bool:
    """True when a process that opened ``name`` before (per the log) is gone."""
    if not os.path.exists(log):
        return False
    with open(log, encoding="utf-8") as file:
        pids = {int(pid) for pid, opened in (line.rstrip("\n").split(" ", 1) for line in file)
                if opened == name}
    return any(not _alive(pid) for pid in pids)


class CrashFileSystem(LocalFileSystem):  # type: ignore[misc]
    """The local filesystem under the ``crash`` protocol, deadly on one file."""

    protocol = "crash"

    def _open(self, path: str, mode: str = "rb", **kwargs: Any) -> Any:
        name = os.path.basename(self._strip_protocol(path))
        log = os.environ.get(LOG)
        slow_name, _, seconds = os.environ.get(SLOW, "").partition(":")
        if log and name == slow_name and _rerun_after_a_death(log, name):
            time.sleep(float(seconds))
        if log:
            # One short append per line: whole lines even from processes writing at once.
            with open(log, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()} {name}\n")
        if name == os.environ.get(VICTIM):
            os.kill(os.getpid(), signal.SIGKILL)
        return super()._open(path, mode, **kwargs)


def install(site: Path) -> Path:
    """Lay the plugin out in ``site`` as an installed distribution; returns ``site``."""
    info = site / "crashfs-0.dist-info"
    info.mkdir(parents=True)
    shutil.copy(__file__, site / "crashfs.py")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: crashfs\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[fsspec.specs]\ncrash = crashfs:CrashFileSystem\n")
    return site
