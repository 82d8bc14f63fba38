"""The quick loop passes in any order: no test depends on what ran before it.

The quick loop (``pytest -m 'not slow'``, in one process, as the README runs it on a
shared machine) runs here in shuffled orders: every test of every file in one global
shuffle (``pytest-random-order``, ``--random-order-bucket=global``), one seed per case.
A test that passes only after another -- a cache another test filled, a module state it
left -- fails here.  The seeds are fixed so that a failure is the same on every run (its
seed is in the test's name: ``pytest -p no:xdist -m 'not slow' --random-order-bucket=global
--random-order-seed=SEED`` repeats it).  It runs the whole quick loop once per seed
(minutes): ``slow``; one seed by default, two with ``RESPONSES_ORACLE_DEEP=1``.

The slow files are not shuffled here, yet under ``-n auto --dist loadfile`` any of
them shares a worker with quick files, before or after them (CI's Go candidate test
read a scenario a quick file had edited).  What covers every file, slow or quick, in
every run is the isolation guard of ``conftest.py`` (``isolation.py``): the file that
leaves shared state changed fails, wherever it runs.  Here, in a global shuffle, the
guard checks at every change of file, so it names the very test.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import DEEP, REPO

SEEDS = (1686, 40) if DEEP else (1686,)
"""The shuffles run (any seed would do; fixed so that a failure repeats).  One by default:
each is a whole quick loop in one process (5-6 minutes of one CI worker);
``RESPONSES_ORACLE_DEEP=1`` runs the second too."""


@pytest.mark.parametrize("seed", SEEDS)
def test_the_quick_loop_passes_in_a_shuffled_order(seed: int) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "not slow", "-p", "no:xdist", "-q",
         "-p", "no:cacheprovider", "--random-order-bucket=global",
         f"--random-order-seed={seed}"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=3600,
    )
    summary = done.stdout.strip().splitlines()[-1:] or [done.stderr]
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in summary[0] and "failed" not in summary[0], summary
