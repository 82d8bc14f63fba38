"""An fsspec filesystem plugin whose process dies on one file: a poisoned input.

The audit tests install it the way a third-party filesystem is installed: this module
and a ``crashfs-0.dist-info`` declaring it under the ``fsspec.specs`` entry point, in
a folder put on ``PYTHONPATH`` (``install``), so that ``import fsspec`` in every
process of an audit -- the command, its pool or Dask workers -- registers the ``crash``
protocol.  ``crash:///path`` is the local file ``/path``, except that opening the file
named by the ``CRASHFS_FILE`` environment variable SIGKILLs the process, as a native
crash in a filesystem library would: no exception, no clean-up, the process is gone.
Every opening is logged first, "PID NAME" a line, to the file ``CRASHFS_LOG`` names.
"""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path
from typing import Any

from fsspec.implementations.local import LocalFileSystem

VICTIM = "CRASHFS_FILE"
"""The environment variable naming (by file name) the file whose opening kills."""

LOG = "CRASHFS_LOG"
"""The environment variable naming the log of openings."""


class CrashFileSystem(LocalFileSystem):  # type: ignore[misc]
    """The local filesystem under the ``crash`` protocol, deadly on one file."""

    protocol = "crash"

    def _open(self, path: str, mode: str = "rb", **kwargs: Any) -> Any:
        name = os.path.basename(self._strip_protocol(path))
        log = os.environ.get(LOG)
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
