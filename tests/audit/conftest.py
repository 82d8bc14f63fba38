"""The audit tests' shared fixture: the environment as each test found it.

A Dask scheduler writes its own address into the process's environment
(``DASK_SCHEDULER_ADDRESS``, distributed's ``Scheduler.start``); left there, a later
test's client could connect to a scheduler that is gone, and the isolation guard
(``tests/isolation.py``) rightly fails the file.  Each audit test puts the environment
back as it found it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def environment_as_found() -> Iterator[None]:
    """Restore ``os.environ`` after the test, whatever a library wrote into it."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)
