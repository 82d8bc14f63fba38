"""A worker reports its own peak memory, not that of the process that started it.

``ru_maxrss`` survives ``execve``: a Dask ``LocalCluster`` worker, spawned from a
driver holding a large corpus, reported the driver's peak as its own (the 100,000-stream
benchmark printed 6046 MiB per Dask worker).  ``audit.work.peak_rss`` reads the
process's own high-water mark.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from responses_oracle.audit.work import peak_rss

_CHILD = (
    "import json, resource; from responses_oracle.audit.work import peak_rss; "
    "print(json.dumps([peak_rss(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024]))"
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM is Linux's")
def test_a_spawned_worker_does_not_report_its_parents_peak() -> None:
    ballast = bytearray(400 * 2**20)  # touched below, so resident in this process
    ballast[::4096] = b"x" * len(ballast[::4096])
    parent = peak_rss()
    assert parent >= 400 * 2**20
    output = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True
    ).stdout
    own, inherited = json.loads(output)
    del ballast
    # The child's ru_maxrss carries this process's peak; its own peak is a bare
    # interpreter's with the audit package imported.
    assert inherited >= 400 * 2**20
    assert own < 200 * 2**20
