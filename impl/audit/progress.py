"""Progress of an audit on a terminal: streams done of total, rate, responses, errors.

The driver reports each written partition (``run.Progress``), whatever the engine, so
the local pool and Dask show the same bar.  The rate counts only the streams reduced
by this run, not those a resumed run found already written.  The bar is drawn on
stderr and only when stderr is a terminal (``TerminalProgress.wanted``).
"""

from __future__ import annotations

import sys
import time

from responses_oracle.audit.work import PartitionOutput
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class TerminalProgress:
    """A ``rich`` progress bar on stderr for one audit."""

    def __init__(self, console: Console | None = None) -> None:
        self._progress = Progress(
            TextColumn("auditing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "streams · {task.fields[rate]} streams/s · {task.fields[responses]} "
                "responses · {task.fields[errors]} errors"
            ),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console or Console(stderr=True),
            transient=False,
        )
        self._task: TaskID | None = None
        self._started = 0.0
        self._streams = self._responses = self._errors = 0

    @staticmethod
    def wanted() -> bool:
        """True when stderr is a terminal."""
        return sys.stderr.isatty()

    def start(self, total: int, done: int) -> None:
        """Show the bar with ``done`` of ``total`` streams already written."""
        self._started = time.perf_counter()
        self._task = self._progress.add_task(
            "audit", total=total, completed=done, rate="-", responses=0, errors=0
        )
        self._progress.start()

    def advance(self, output: PartitionOutput) -> None:
        """Count one written partition."""
        self._streams += output.inputs
        self._responses += output.responses
        self._errors += output.failed
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        if self._task is not None:
            self._progress.update(
                self._task,
                advance=output.inputs,
                rate=f"{self._streams / elapsed:,.0f}",
                responses=f"{self._responses:,}",
                errors=f"{self._errors:,}",
            )

    def stop(self) -> None:
        """Leave the final bar on the terminal."""
        self._progress.stop()
