"""Where partitions run: a local process pool, or a ``dask.distributed`` cluster.

Both engines are generators of ``PartitionOutput`` in completion order; the driver
writes each one as it arrives, so rows are on disk partition by partition whatever
happens to the run afterwards.  Both run the same function, ``work.run_partition``,
in long-lived worker processes: one reducer per worker, no process per stream.

``local_outputs`` (the default engine) runs in this process for ``jobs=1`` and on a
``ProcessPoolExecutor`` of ``jobs`` workers otherwise (started with ``forkserver``: the
driver has threads, the progress bar's, that ``fork`` must not copy).  A worker that
dies (killed, out of memory, a native crash on one input) breaks a Python pool, and the
pool does not say whose partition killed it.  So a pool is given at most ``jobs``
partitions at a time: when it breaks, the culprit is one of those in flight.  Each of
them is blamed once and goes back to the front of the queue for a new pool; the
partitions not yet handed out are not blamed and wait untouched.  A partition blamed
``SUSPECT_BREAKS`` times is run alone on a pool of its own; if it kills even that, it
is a poisoned partition and becomes ``worker_lost`` rows (retried by the next run).
One poisoned partition thus costs a few pools, whatever the number of partitions: the
rest of the run goes on sharing ``jobs`` workers, never a process per partition.  A
partition that raises becomes ``partition_failed`` rows.

Before the first partition, each engine has one worker run ``_started``: workers that
cannot start at all (a script that calls ``run_audit`` without ``if __name__ ==
"__main__":``, whose workers import it again and fail while bootstrapping; a module the
workers cannot import) are no fault of the inputs, so the audit stops with an
``EngineError`` saying why instead of blaming every input with ``worker_lost`` rows.

``dask_outputs`` maps one task per partition, in one graph, to an existing scheduler
(``scheduler``) or to a ``LocalCluster`` of ``jobs`` single-threaded worker processes it
starts and stops itself.  Dask reschedules the tasks of a worker that dies; a task
that keeps killing its workers ends as ``KilledWorker`` (the scheduler's
``allowed-failures``) and becomes ``worker_lost`` rows, and ``retries`` re-runs a task
that raised.  A finished partition whose result was on a worker that died is recomputed,
not failed.  The workers of an existing cluster must have ``responses-oracle``
installed; they only read inputs (and need access to them), the driver writes.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter, deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from enum import Enum
from multiprocessing import get_context
from typing import Final

from responses_oracle.audit.libraries import require
from responses_oracle.audit.sources import Fault, Partition
from responses_oracle.audit.work import PartitionOutput, Settings, failed_partition, run_partition
from responses_oracle.workers import end_quietly_on_interrupt

CONNECT_SECONDS = 20
"""How long ``--scheduler`` is tried before the audit gives up (``EngineError``)."""

SUSPECT_BREAKS: Final = 2
"""Pool breaks a local partition may be in flight for before it is run alone."""


class EngineError(Exception):
    """The engine cannot start: the Dask scheduler cannot be reached, or the worker
    processes die before running anything (``cannot_start``)."""


def _started() -> int:
    """What a worker runs first, to show it started: its process id."""
    return os.getpid()


def cannot_start(engine: str, error: BaseException) -> EngineError:
    """The error for workers of ``engine`` that died before running ``_started``: the
    likely cause first, and its fix."""
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    guard = (
        f"run_audit is called at the top level of the script {script}: its worker "
        "processes import the script again and fail while bootstrapping. Call it under "
        '`if __name__ == "__main__":` (docs/usage/audit.md, "From Python"; '
        "https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-"
        "start-methods)"
    )
    imports = (
        "a worker cannot import responses_oracle or a module it needs: install "
        "responses-oracle[audit] where the workers run (their tracebacks are on stderr)"
    )
    causes = f"{guard}; or {imports}" if script else imports
    return EngineError(
        f"the {engine} worker processes could not start ({_describe(error)}). "
        f"Likely cause: {causes}. jobs=1 (--jobs 1) audits in this process."
    )


class Engine(Enum):
    """The ``--engine`` choices."""

    LOCAL = "local"
    DASK = "dask"


def _guarded(partition: Partition, settings: Settings) -> PartitionOutput:
    try:
        return run_partition(partition, settings)
    except Exception as error:
        return failed_partition(partition, Fault.PARTITION_FAILED, _describe(error))


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _pool(
    waiting: deque[Partition], settings: Settings, jobs: int, *, first: bool = False
) -> Generator[PartitionOutput, None, list[Partition]]:
    """Run partitions from the front of ``waiting`` on one new pool, at most ``jobs`` in
    flight, until none is left or the pool breaks; return those the break took down.
    The ``first`` pool of a run checks that its workers start (``EngineError``)."""
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=get_context("forkserver"),
        initializer=end_quietly_on_interrupt,
    )
    in_flight: dict[Future[PartitionOutput], Partition] = {}
    lost: list[Partition] = []
    broken = False
    try:
        if first:
            try:
                pool.submit(_started).result()
            except BrokenProcessPool as error:
                raise cannot_start("local pool's", error) from None
        while in_flight or (waiting and not broken):
            while waiting and not broken and len(in_flight) < jobs:
                partition = waiting.popleft()
                try:
                    in_flight[pool.submit(run_partition, partition, settings)] = partition
                except BrokenProcessPool:
                    # Broke since the last result: this one never ran, so no blame.
                    waiting.appendleft(partition)
                    broken = True
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                partition = in_flight.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    lost.append(partition)
                    broken = True
                except Exception as error:
                    yield failed_partition(partition, Fault.PARTITION_FAILED, _describe(error))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return lost


def local_outputs(
    partitions: Sequence[Partition], settings: Settings, jobs: int
) -> Iterator[PartitionOutput]:
    """Run every partition on the local engine (rules in the module docstring)."""
    if jobs == 1:
        for partition in partitions:
            yield _guarded(partition, settings)
        return
    waiting = deque(partitions)
    blamed: Counter[str] = Counter()
    first = True
    while waiting:
        lost = yield from _pool(waiting, settings, jobs, first=first)
        first = False
        suspects = []
        for partition in reversed(lost):
            blamed[partition.key] += 1
            if blamed[partition.key] < SUSPECT_BREAKS:
                waiting.appendleft(partition)
            else:
                suspects.append(partition)
        for partition in reversed(suspects):
            if (yield from _pool(deque([partition]), settings, 1)):
                yield failed_partition(
                    partition,
                    Fault.WORKER_LOST,
                    f"the worker process died on each of {SUSPECT_BREAKS + 1} runs of this "
                    "partition, the last one alone on a pool of its own",
                )


def dask_outputs(
    partitions: Sequence[Partition],
    settings: Settings,
    jobs: int,
    scheduler: str | None,
    retries: int,
) -> Iterator[PartitionOutput]:
    """Run every partition on Dask (rules in the module docstring)."""
    distributed = require("distributed", "dask", "--engine dask")
    cluster = None
    if scheduler is None:
        try:
            cluster = distributed.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        except Exception as error:  # "Nanny failed to start", and whatever a worker raised
            raise cannot_start("Dask LocalCluster's", error) from None
    try:
        client = distributed.Client(scheduler or cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()
        raise EngineError(
            f"cannot reach the Dask scheduler at {scheduler}: {error}; "
            "check --scheduler, or leave it out to start a LocalCluster"
        ) from None
    try:
        try:
            client.submit(_started, pure=False).result()
        except Exception as error:  # whatever killed the workers or the task
            raise cannot_start("Dask", error) from None
        # One graph of every partition (``map``, not a ``submit`` each): the scheduler
        # then sees one large group of root tasks and queues them, handing a worker only
        # what it can run now (``worker-saturation``), so that a dying worker takes down
        # its own partitions, not a backlog of others.
        launched = client.map(
            run_partition,
            partitions,
            key=[f"audit-partition-{partition.key}" for partition in partitions],
            retries=retries,
            pure=False,
            settings=settings,
        )
        futures = dict(zip(launched, partitions, strict=True))
        for future in distributed.as_completed(futures):
            partition = futures.pop(future)
            # Not ``future.status``: a task that finished on a worker that then died (the
            # next partition on it killed it) is "pending" again while Dask recomputes
            # it, and ``result`` waits for that run, or raises what the task raised.
            try:
                output = future.result()
            except distributed.KilledWorker as raised:
                output = failed_partition(partition, Fault.WORKER_LOST, _describe(raised))
            except Exception as raised:  # whatever the task raised
                output = failed_partition(partition, Fault.PARTITION_FAILED, _describe(raised))
            yield output
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
