"""Worker processes that end quietly on Ctrl-C, leaving the report to their parent.

Ctrl-C sends SIGINT to the whole foreground process group: the command and every worker
of its process pools (``audit --jobs``, ``diff --jobs``).  A worker left with Python's
default handler raises ``KeyboardInterrupt`` wherever it is -- while it waits for work,
a traceback per worker (``Process ForkServerProcess-2: Traceback ...``) on the user's
terminal.  A pool started with ``initializer=end_quietly_on_interrupt`` has workers that
exit at once and print nothing; the command itself catches its ``KeyboardInterrupt``,
prints what was done so far and exits 130.  The parent sees the pool broken, which it
expects after an interrupt.
"""

from __future__ import annotations

import os
import signal
from types import FrameType


def end_quietly_on_interrupt() -> None:
    """A pool initializer: on SIGINT this worker process exits at once, silently."""
    signal.signal(signal.SIGINT, _end)


def _end(signum: int, frame: FrameType | None) -> None:
    # os._exit: no exception to be reported from wherever the worker was.
    os._exit(128 + signum)
