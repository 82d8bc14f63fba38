"""Where partitions run: a local process pool, or a ``dask.distributed`` cluster.

Both engines are generators of ``PartitionOutput`` in completion order; the driver
writes each one as it arrives, so rows are on disk partition by partition whatever
happens to the run afterwards.  Both run the same function, ``work.run_partition``,
in long-lived worker processes: one reducer per worker, no process per stream.

``local_outputs`` (the default engine) runs in this process for ``jobs=1`` and on a
``ProcessPoolExecutor`` of ``jobs`` workers otherwise (started with ``forkserver``: the
driver has threads, the progress bar's, that ``fork`` must not copy).  A worker that
dies (killed, out of memory) breaks a Python pool: the partitions it took down are run
again on a new pool; one that breaks a pool a second time is run alone, and if it kills
even its own pool it is a poisoned partition and becomes ``worker_lost`` rows.  A
partition that raises becomes ``partition_failed`` rows.

``dask_outputs`` submits one task per partition to an existing scheduler
(``scheduler``) or to a ``LocalCluster`` of ``jobs`` single-threaded worker processes it
starts and stops itself.  Dask reschedules the tasks of a worker that dies; a task
that keeps killing its workers ends as ``KilledWorker`` (the scheduler's
``allowed-failures``) and becomes ``worker_lost`` rows, and ``retries`` re-runs a task
that raised.  The workers of an existing cluster must have ``responses-oracle``
installed; they only read inputs (and need access to them), the driver writes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from enum import Enum
from multiprocessing import get_context

from responses_oracle.audit.extras import require
from responses_oracle.audit.sources import Fault, Partition
from responses_oracle.audit.work import PartitionOutput, Settings, failed_partition, run_partition

CONNECT_SECONDS = 20
"""How long ``--scheduler`` is tried before the audit gives up (``EngineError``)."""


class EngineError(Exception):
    """The engine cannot start: the Dask scheduler cannot be reached."""


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


def _pool_round(
    partitions: Sequence[Partition], settings: Settings, jobs: int, broken: list[Partition]
) -> Iterator[PartitionOutput]:
    """Run ``partitions`` on one pool; those a dying worker took down go to ``broken``."""
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("forkserver"))
    try:
        futures: dict[Future[PartitionOutput], Partition] = {
            pool.submit(run_partition, partition, settings): partition for partition in partitions
        }
        for future in as_completed(futures):
            partition = futures.pop(future)
            try:
                yield future.result()
            except BrokenProcessPool:
                broken.append(partition)
            except Exception as error:
                yield failed_partition(partition, Fault.PARTITION_FAILED, _describe(error))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def local_outputs(
    partitions: Sequence[Partition], settings: Settings, jobs: int
) -> Iterator[PartitionOutput]:
    """Run every partition on the local engine (rules in the module docstring)."""
    if jobs == 1:
        for partition in partitions:
            yield _guarded(partition, settings)
        return
    broken: list[Partition] = []
    yield from _pool_round(partitions, settings, jobs, broken)
    again, broken = broken, []
    yield from _pool_round(again, settings, jobs, broken)
    for partition in broken:
        alone: list[Partition] = []
        yield from _pool_round([partition], settings, 1, alone)
        if alone:
            yield failed_partition(
                partition, Fault.WORKER_LOST, "the worker process died on every try (3 tries)"
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
        cluster = distributed.LocalCluster(
            n_workers=jobs,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
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
        futures = {
            client.submit(
                run_partition,
                partition,
                settings,
                key=f"audit-partition-{partition.key}",
                retries=retries,
                pure=False,
            ): partition
            for partition in partitions
        }
        for future in distributed.as_completed(futures):
            partition = futures.pop(future)
            if future.status == "finished":
                yield future.result()
            else:
                raised = future.exception()
                kind = (
                    Fault.WORKER_LOST
                    if isinstance(raised, distributed.KilledWorker)
                    else Fault.PARTITION_FAILED
                )
                yield failed_partition(partition, kind, _describe(raised))
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
