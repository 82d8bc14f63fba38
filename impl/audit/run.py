"""The driver of an audit: plan, skip what is done, run the rest, write, summarize.

``run_audit`` is the library face of ``responses-oracle audit``.  In order:

1. check the output folder (``store.OutputDir.check``: same settings as the run it
   holds, or ``fresh``), touching nothing yet;
2. plan the partitions (``sources.plan``), leaving the output folder itself out; only
   a plan that succeeds creates the folder or, under ``fresh``, discards the old
   results (``store.OutputDir.prepare``), so a refused run changes nothing on disk;
3. skip every partition already written (resume), remove the files of partitions no
   longer planned;
4. run the others on the chosen engine (``engines``) and write each partition's rows
   as it completes, reporting progress to ``progress``;
5. read the dataset back, summarize it (``summary``), compare it with ``since``, draw
   the example streams' timelines (``example_pages``), and write ``summary.md``,
   ``summary.html`` and ``run.json``.

Interrupting at any point loses at most the partitions in flight; running the same
audit again resumes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from responses_oracle.audit.engines import Engine, dask_outputs, local_outputs
from responses_oracle.audit.example_pages import MAX_PAGES, example_pages
from responses_oracle.audit.sources import PARTITION_SIZE, Fault, Plan, StorageOptions, plan
from responses_oracle.audit.store import SCHEMA_VERSION, OutputDir, StoreError
from responses_oracle.audit.summary import (
    SUMMARY_HTML,
    Summary,
    document,
    summarize,
    to_html,
    to_markdown,
)
from responses_oracle.audit.work import PartitionOutput, Settings
from responses_oracle.wire import InputFormat
from responses_oracle.words import counted

SUMMARY_MD = "summary.md"


class Progress(Protocol):
    """Where the driver reports progress (``progress.TerminalProgress`` on a TTY)."""

    def start(self, total: int, done: int) -> None:
        """The run has ``total`` inputs, of which ``done`` were already written."""

    def advance(self, output: PartitionOutput) -> None:
        """One more partition was written."""

    def stop(self) -> None:
        """The run ended (or was interrupted)."""


@dataclass(frozen=True)
class AuditOptions:
    """What to audit and how (the ``audit`` command's options)."""

    sources: tuple[str, ...]
    out: Path
    manifests: tuple[str, ...] = ()
    engine: Engine = Engine.LOCAL
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    scheduler: str | None = None
    retries: int = 1
    since: Path | None = None
    partition_size: int = PARTITION_SIZE
    provider_from_dir: bool = False
    format: InputFormat = InputFormat.AUTO
    fresh: bool = False
    pages: int = MAX_PAGES
    """Example streams drawn as timeline pages at most (0: none)."""
    storage_options: StorageOptions = field(default_factory=dict)
    """fsspec options for every URL SOURCE and manifest (``--storage-option``)."""

    def settings_record(self) -> dict[str, Any]:
        """The settings that change rows: a resumed run must have the same."""
        return {
            "schema": SCHEMA_VERSION,
            "format": self.format.value,
            "partition_size": self.partition_size,
            "provider_from_dir": self.provider_from_dir,
        }


@dataclass
class RunStats:
    """What the engine did in one ``run_audit`` (the partitions it ran, not those reused)."""

    computed: int = 0
    """Partitions run."""
    events: int = 0
    """Events reduced."""
    seconds: float = 0.0
    """Wall time of the engine, from the first submission to the last write."""
    cpu_seconds: float = 0.0
    """CPU time the workers spent on the partitions, added up."""
    peak_rss: dict[str, int] = field(default_factory=dict)
    """Peak resident memory per worker (``host:pid``), in bytes."""

    def add(self, output: PartitionOutput) -> None:
        """Count one written partition."""
        self.computed += 1
        self.events += output.events
        self.cpu_seconds += output.cpu_seconds
        self.peak_rss[output.worker] = max(output.peak_rss, self.peak_rss.get(output.worker, 0))


@dataclass(frozen=True)
class AuditReport:
    """What one ``run_audit`` did, and the summary of the whole output."""

    out: OutputDir
    plan: Plan
    summary: Summary
    stats: RunStats
    reused: int
    """Partitions already written by an earlier run, not run again."""
    pruned: int
    """Partition files removed because no source names them any more."""

    @property
    def exit_status(self) -> int:
        """3 when an input is no stream (``not_a_stream``, as every command says of it);
        else 0 when every input was reduced and no response has an error-severity
        diagnostic; 1 otherwise (or when the totals do not reconcile)."""
        return self.verdict[0]

    @property
    def verdict(self) -> tuple[int, str]:
        """The exit status and its reason, in words (the summary's first line)."""
        summary = self.summary
        not_streams = sum(
            f.inputs for f in summary.failures if f.kind == Fault.NOT_A_STREAM.value
        )
        if not_streams:
            return 3, f"not_a_stream: {counted(not_streams, 'input')} with no Responses stream"
        errors = sum(line.errors for line in summary.providers)
        reasons = [
            *([] if summary.reconciles else ["the totals do not reconcile: rows were lost"]),
            *([f"{counted(summary.failed_inputs, 'input')} failed"] if summary.failed_inputs
              else []),
            *([f"{counted(errors, 'response')} with an error-severity diagnostic"] if errors
              else []),
        ]
        if reasons:
            return 1, "; ".join(reasons)
        return 0, "every input was reduced and no response has an error-severity diagnostic"


def _outputs(
    options: AuditOptions, partitions: Sequence[Any], settings: Settings
) -> Iterator[PartitionOutput]:
    if options.engine is Engine.DASK:
        return dask_outputs(partitions, settings, options.jobs, options.scheduler, options.retries)
    return local_outputs(partitions, settings, options.jobs)


def previous_summary(folder: Path) -> Summary:
    """The summary of an earlier audit output (for ``since``)."""
    previous = OutputDir(folder)
    record = previous.read_run()
    if record is None:
        raise StoreError(f"--since {folder}: no audit there (no run.json)")
    return summarize(previous.dataset(), int(record.get("inputs", 0)))


def run_audit(options: AuditOptions, progress: Progress | None = None) -> AuditReport:
    """Audit ``options.sources`` into ``options.out`` (steps in the module docstring)."""
    out = OutputDir(options.out)
    before = previous_summary(options.since) if options.since is not None else None
    out.check(options.settings_record(), fresh=options.fresh)
    the_plan = plan(
        options.sources,
        options.manifests,
        partition_size=options.partition_size,
        provider_from_dir=options.provider_from_dir,
        skip=str(out.path),
        storage_options=options.storage_options,
    )
    out.prepare(options.settings_record(), fresh=options.fresh)
    keys = {partition.key for partition in the_plan.partitions}
    finished = out.finished() & keys
    todo = [p for p in the_plan.partitions if p.key not in finished]
    reused = len(the_plan.partitions) - len(todo)
    pruned = out.prune(keys)
    record: dict[str, Any] = {
        "settings": options.settings_record(),
        "sources": list(options.sources),
        "manifests": list(options.manifests),
        # Names only: the values may be credentials.
        "storage_options": sorted(options.storage_options),
        "inputs": the_plan.inputs,
        "partitions": len(the_plan.partitions),
        "state": "running",
    }
    out.write_run(record)
    if progress is not None:
        progress.start(
            the_plan.inputs, sum(p.inputs for p in the_plan.partitions if p.key in finished)
        )
    stats = RunStats()
    settings = Settings(format=options.format, storage_options=options.storage_options)
    started = time.perf_counter()
    try:
        for output in _outputs(options, todo, settings):
            out.write(output)
            stats.add(output)
            if progress is not None:
                progress.advance(output)
    finally:
        stats.seconds = time.perf_counter() - started
        if progress is not None:
            progress.stop()
    report = AuditReport(
        out, the_plan, summarize(out.dataset(), the_plan.inputs), stats, reused, pruned
    )
    since = None if before is None else (str(options.since), before)
    pages = example_pages(out.path, report.summary, options.manifests, settings, options.pages)
    sections = document(report.summary, since, pages)
    status, reason = report.verdict
    title = f"Exit status {status}: {reason} (audit of {counted(the_plan.inputs, 'input')})"
    (out.path / SUMMARY_MD).write_text(to_markdown(sections, title), encoding="utf-8")
    (out.path / SUMMARY_HTML).write_text(to_html(sections, title), encoding="utf-8")
    record.update(
        state="finished",
        responses=report.summary.responses,
        failed_inputs=report.summary.failed_inputs,
        reconciles=report.summary.reconciles,
    )
    out.write_run(record)
    return report
