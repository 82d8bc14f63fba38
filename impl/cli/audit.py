"""``responses-oracle audit``: recorded traffic in, a Parquet dataset and a summary out.

A thin face over ``responses_oracle.audit.run_audit``: the options become
``AuditOptions``, a terminal gets a progress bar, and the last lines printed say where
the dataset and the summary are and whether the totals reconcile.  The library raises
``EngineError``, ``MissingExtra``, ``PlanError`` and ``StoreError`` for what the user
must fix; each is a ``CliError`` here (exit status 2).

Exit status: 0 when every input was reduced and no response has an error-severity
diagnostic, 1 when an input failed or a response has one (the summary says which), 2
for unusable arguments, a SOURCE that matches nothing or cannot be listed, an output
folder of another run, a missing extra or an unreachable scheduler; 130 when
interrupted (run the same command again to resume).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ..audit import (
    AuditOptions,
    Engine,
    EngineError,
    MissingExtra,
    PlanError,
    StoreError,
    run_audit,
)
from ..audit.example_pages import MAX_PAGES
from ..audit.progress import TerminalProgress
from ..audit.run import SUMMARY_MD
from ..audit.sources import PARTITION_SIZE
from ..audit.summary import SUMMARY_HTML
from ..words import counted
from .common import CliError, Exit, ExitTable, command_parser, format_names, positive

if TYPE_CHECKING:
    from .common import Subparsers

_DESCRIPTION = (
    "Reduce every stream of recorded traffic once -- files, folders, globs and fsspec URLs "
    "(s3://...) of any input format, .gz and .zst included, and corpus manifests -- and "
    "write one Parquet row per response (status, item and call counts, diagnostics with "
    "severities and rules, and the divergence classes of persisted output), a summary by "
    "provider x code x class in Markdown and HTML, and with --since what changed since an "
    "earlier audit. Inputs that cannot be read, corrupt archives and files that are not "
    "streams become rows with their error; nothing is skipped. Work runs in partitions "
    "(groups of files, manifest row groups) on a local process pool or on Dask; each "
    "partition's rows are written as it completes, so an interrupted audit resumes where "
    "it stopped when run again. Docs: the 'Auditing traffic' page of the documentation site."
)


AUDIT_EXIT: Final[ExitTable] = {
    Exit.OK: "every input was reduced and no response has an error-severity diagnostic",
    Exit.FINDING: "an input failed, or a response has an error-severity diagnostic (the "
    "summary says which)",
    Exit.USAGE: "unusable arguments, a SOURCE that matches nothing or cannot be listed (no "
    "credentials...), an output folder of an audit with other settings, a missing extra or "
    "an unreachable --scheduler",
    Exit.NO_RESPONSE: "an input is no stream (not_a_stream: text, binary data, a Chat "
    "Completions stream, JSON that is no event); its row says why",
}
"""The exit statuses of ``audit`` (interrupted: run the same command again to resume)."""


def register(subparsers: Subparsers) -> None:
    """Add ``audit`` to the command set."""
    parser = command_parser(
        subparsers,
        "audit",
        description=_DESCRIPTION,
        examples=(
            "audit examples/parallel-calls.sse examples/copilot-rotating-ids.jsonl --out audit-out",
            "audit 'traffic/2026-11-*/**/*.sse.gz' --provider-from-dir --jobs 8 --out week48",
            "audit --manifest corpus.parquet --engine dask --out week48",
            "audit --manifest corpus.jsonl --engine dask --scheduler tcp://sched:8786 --out w48",
            "audit s3://bucket/traffic/2026-11-30/ --out day --since previous-day",
            "audit s3://traffic/ --storage-option endpoint_url=http://minio:9000 --out day",
            'audit traffic/ --out audit-out && duckdb -c "select provider, unnest(codes) '
            "as code, count(*) from 'audit-out/results/*.parquet' group by all\"",
        ),
        run=run,
        exit_status=AUDIT_EXIT,
    )
    parser.add_argument(
        "sources",
        nargs="*",
        metavar="SOURCE",
        help="a stream file, a folder (every file below it), a glob, or an fsspec URL of "
        "any of those; .gz and .zst are decompressed; a path of the package's example "
        "streams (examples/parallel-calls.sse) where nothing here has it",
    )
    parser.add_argument(
        "--manifest",
        action="append",
        default=[],
        metavar="FILE",
        help="a corpus manifest (.jsonl or .parquet, local or URL): one row per stream with "
        "id, provider, model, body or path, and optionally output (persisted items); "
        "repeatable",
    )
    parser.add_argument(
        "--storage-option",
        action="append",
        default=[],
        type=storage_option,
        dest="storage_options",
        metavar="KEY=VALUE",
        help="an option of the filesystem of every URL SOURCE and manifest, as fsspec "
        "names it (endpoint_url=http://minio:9000, anon=true, profile=audit); VALUE is "
        "JSON when it parses as JSON, else a string; repeatable. The filesystem's own "
        "settings work too (AWS_ENDPOINT_URL, AWS_PROFILE, FSSPEC_S3_ENDPOINT_URL...)",
    )
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="the output folder")
    engine = parser.add_argument_group("engine")
    engine.add_argument(
        "--engine",
        choices=[e.value for e in Engine],
        default=Engine.LOCAL.value,
        help="local: a process pool on this machine (default); dask: dask.distributed",
    )
    engine.add_argument(
        "--jobs",
        type=positive("workers"),
        default=None,
        metavar="N",
        help="worker processes of the local pool or of the Dask LocalCluster "
        "(default: one per CPU)",
    )
    engine.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --engine dask: an existing scheduler (tcp://host:8786) instead of a "
        "LocalCluster; its workers need responses-oracle and access to the inputs",
    )
    engine.add_argument(
        "--retries",
        type=int,
        default=1,
        metavar="N",
        help="with --engine dask: re-runs of a partition that raised (default: 1)",
    )
    parser.add_argument(
        "--partition-size",
        type=positive("inputs"),
        default=PARTITION_SIZE,
        metavar="N",
        help=f"files or JSON Lines manifest rows per partition (default: {PARTITION_SIZE}); "
        "a Parquet manifest is cut by its row groups",
    )
    parser.add_argument(
        "--provider-from-dir",
        action="store_true",
        help="name each file's provider after its folder (traffic/bedrock/x.sse: bedrock); "
        "manifests name it in their provider column",
    )
    parser.add_argument(
        "--format",
        choices=tuple(format_names()),
        default="auto",
        help="the input format of every stream (default: auto, detected per stream)",
    )
    parser.add_argument(
        "--since",
        type=Path,
        metavar="PREVIOUS_OUT",
        help="an earlier audit's output folder: the summary adds what changed since",
    )
    parser.add_argument(
        "--pages",
        type=int,
        default=MAX_PAGES,
        metavar="N",
        help=f"draw at most N example streams as timeline pages linked from the summary "
        f"(default: {MAX_PAGES}; 0: none)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="discard the results already in --out instead of resuming",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")


def storage_option(text: str) -> tuple[str, Any]:
    """``--storage-option KEY=VALUE`` -> (key, value): VALUE decoded as JSON when it is
    JSON (``true``, ``3``, ``{"region_name": "eu-west-1"}``), else kept as the string."""
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        decoded: Any = json.loads(value)
    except ValueError:
        decoded = value
    return key.strip(), decoded


def run(args: argparse.Namespace) -> int:
    """Run the audit and print where its outputs are."""
    if not args.sources and not args.manifest:
        raise CliError("nothing to audit: give a SOURCE or a --manifest")
    if args.scheduler and args.engine != Engine.DASK.value:
        raise CliError("--scheduler needs --engine dask")
    options = AuditOptions(
        sources=tuple(args.sources),
        out=args.out,
        manifests=tuple(args.manifest),
        engine=Engine(args.engine),
        scheduler=args.scheduler,
        retries=max(args.retries, 0),
        since=args.since,
        partition_size=args.partition_size,
        provider_from_dir=args.provider_from_dir,
        format=format_names()[args.format],
        fresh=args.fresh,
        pages=max(args.pages, 0),
        storage_options=dict(args.storage_options),
        **({} if args.jobs is None else {"jobs": args.jobs}),
    )
    progress = None if args.quiet or not TerminalProgress.wanted() else TerminalProgress()
    try:
        report = run_audit(options, progress)
    except (EngineError, MissingExtra, PlanError, StoreError) as error:
        raise CliError(str(error)) from None
    except OSError as error:
        # What is written goes under --out (the inputs' faults are rows): it is at fault.
        written = error.filename is not None and Path(error.filename).is_relative_to(args.out)
        if not written:
            raise
        raise CliError(
            f"--out {args.out}: cannot write {error.filename}: {error.strerror or error}; "
            "pass a folder you can write to"
        ) from None
    except KeyboardInterrupt:
        print(
            f"audit interrupted; the partitions written so far are kept in {args.out}: "
            "run the same command again to resume",
            file=sys.stderr,
        )
        raise
    summary = report.summary
    print(
        f"{counted(summary.planned_inputs, 'input')}, {counted(summary.responses, 'response')}, "
        f"{counted(summary.failed_inputs, 'failed input')}; "
        f"{counted(report.stats.computed, 'partition')} run, {report.reused} reused"
        + ("" if summary.reconciles else "; TOTALS DO NOT RECONCILE")
    )
    print(f"dataset: {report.out.results}/*.parquet")
    print(f"summary: {report.out.path / SUMMARY_MD} and {report.out.path / SUMMARY_HTML}")
    return report.exit_status
