"""Auditing recorded traffic at scale: many streams in, a Parquet dataset and a summary out.

Theory of operation
-------------------
A gateway or an agent platform records streams by the million.  An audit reduces
each of them once with the reference reducer and keeps one row per response -- what
the oracle answered and every diagnostic, and, where the caller's own parser persisted
its output, the divergence classes of the differential taxonomy -- so that "which
provider sends which quirk", "which streams did our parser get wrong" and "what changed
since last week" become queries.

The pieces, in the order data flows:

- ``sources``: SOURCE arguments (files, folders, globs, fsspec URLs, compressed) and
  corpus manifests (JSON Lines or Parquet), planned into ``Partition``\\ s: groups of
  whole files, or manifest row groups.  A partition is the unit of work, retry and
  resume;
- ``work``: what a worker does with one partition (``run_partition``): every input is
  reduced in the worker's process, every failure is a row; ``rows`` is the schema;
  ``persisted`` pairs persisted output with responses and calls the taxonomy;
- ``engines``: a local process pool (default) or ``dask.distributed``, both yielding
  partition outputs as they complete;
- ``store``: the output folder; each partition's rows are written atomically as one
  Parquet file, which is what makes a run resumable and a killed worker harmless;
- ``summary``: totals that reconcile with the input count, findings by provider x
  code x class, the comparison with an earlier audit, as Markdown and HTML;
- ``run``: the driver that ties them (``run_audit``), ``progress`` its terminal bar.

Everything here needs the ``audit`` extra (pyarrow, fsspec, zstandard); the Dask
engine the ``dask`` extra, ``s3://`` sources the ``s3`` extra.  The modules import
them on first use, so ``import responses_oracle.audit`` works without them and a
missing one is a ``MissingExtra`` with the install line.
"""

from responses_oracle.audit.engines import Engine, EngineError
from responses_oracle.audit.libraries import MissingExtra
from responses_oracle.audit.run import AuditOptions, AuditReport, run_audit
from responses_oracle.audit.sources import Fault, PlanError
from responses_oracle.audit.store import StoreError

__all__ = [
    "AuditOptions",
    "AuditReport",
    "Engine",
    "EngineError",
    "Fault",
    "MissingExtra",
    "PlanError",
    "StoreError",
    "run_audit",
]
