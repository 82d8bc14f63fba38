"""``responses-oracle diff``: differential testing of a candidate parser against the oracle.

The candidate is any program speaking the candidate protocol (JSON Lines, one request
body in, one answer out; docs/usage/oracle.md), or a built-in name: the real clients
``openai-python``, ``openai-agents``, ``openai-node``, ``ai-sdk`` and ``ai-streamtext``
(the last three from the checkout's ``adapters/node``), the Go candidates
``openai-go``, ``axonhub-stream`` and ``axonhub-stored`` (the checkout's ``adapters/go``,
built first; AxonHub's against the checkout ``--src`` gives), or ``oracle`` (the
reference itself, which must agree with itself). The harness
(``responses_oracle.differential.harness``) feeds it ``--count`` generated streams of
``--seed`` (``--generator``, ``--profile``) and the ``--corpus`` files, classes every
difference by harm, clusters the cases by cause and shows each cluster shrunk to a
minimal well-formed stream with both answers, the rule that decides it and the oracle's
trace. Deterministic for a given seed, whatever ``--jobs``.

Exit status: 0 when the candidate agrees on every stream (or diverges only in the
``--allow``-ed classes), 1 when it diverges, 2 for unusable arguments or a candidate
that cannot run (its stderr shown once), 130 on Ctrl-C, after printing the streams
compared so far and those that disagree (``interrupted``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from responses_oracle.differential.candidate import BUILTIN_CANDIDATES, candidate_command
from responses_oracle.differential.findings import (
    Cluster,
    DiffReport,
    class_counts,
    representative_page,
)
from responses_oracle.differential.harness import Generation, Interrupted, run_diff
from responses_oracle.model.divergence import HYPOTHESES, SEVERE, Divergence
from responses_oracle.streamgen.cases import GENERATORS, MIX, check_profiles, corpus_cases, mix_of
from responses_oracle.streamgen.provider_profiles import PROFILES
from responses_oracle.wire.inputs import NotAStream

from .common import CliError, Exit, Tally, command_parser

if TYPE_CHECKING:
    from .common import Subparsers


def add_candidate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--candidate``, ``--wire``, ``--timeout`` and ``--codes``: shared with ``vectors``."""
    parser.add_argument(
        "--candidate",
        required=True,
        metavar="CMD",
        help="the parser under test: a command line speaking the candidate protocol, or "
        f"one of {', '.join(BUILTIN_CANDIDATES)}",
    )
    parser.add_argument(
        "--wire",
        choices=("events", "sse"),
        default="events",
        help="what a request carries: decoded events only, or also the SSE text "
        "(default: events)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds to wait for one answer before the candidate is restarted (default: 60)",
    )
    parser.add_argument(
        "--codes",
        action="store_true",
        help="also compare diagnostic codes (for ports of the oracle)",
    )
    parser.add_argument(
        "--src",
        metavar="DIR",
        default=None,
        help="the checkout of AxonHub the axonhub-stream and axonhub-stored candidates "
        "build against (its root or its llm folder; default: $AXONHUB_SRC)",
    )


def command(args: argparse.Namespace) -> list[str]:
    """The candidate's command line, checked to be non-empty."""
    try:
        argv = candidate_command(args.candidate, args.src)
    except OSError as error:
        raise CliError(str(error)) from None
    if not argv:
        raise CliError("--candidate is empty; give a command line or a built-in name")
    return argv


def split_responses(args: argparse.Namespace) -> bool:
    """Whether a multi-response body goes one request per response: as
    ``--split-responses`` says, else for a built-in client (the SDKs answer one response
    per call, so a body of two would only show that), not for another candidate."""
    if args.split_responses is not None:
        return bool(args.split_responses)
    return args.candidate in BUILTIN_CANDIDATES


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def register(subparsers: Subparsers) -> None:
    """Add ``diff`` to the command set."""
    parser = command_parser(
        subparsers,
        "diff",
        description="Run a candidate parser as one subprocess speaking the candidate protocol "
        "(JSON Lines: {\"id\", \"events\"} in, one {\"id\", \"results\"} or {\"id\", "
        "\"error\"} line out per request; see docs/usage/oracle.md), feed it generated "
        "streams (OpenAI-valid, provider profiles, model-guided walks, single faults) and the "
        "corpus files, and compare with the oracle modulo minted ids. Items in an answer are "
        "wire-shaped (as the API sends them: type, id, call_id, name, arguments ...), except "
        "that an entry with \"arguments_parsed\": true gives the arguments as the JSON "
        "value the client parsed them to (compared with the oracle's arguments parsed as "
        "JSON, or its text where that is not JSON); an answer is items or an error, never "
        "both; a body holding several responses is sent one request per response to a "
        "built-in client (each answers one response per call) and as one request to "
        "another candidate (--split-responses / --no-split-responses choose); an empty "
        "stream is a request too. Every difference is classed "
        "by harm (wrong_tool_run, confirmed_call_lost, ... unconfirmed_call_dropped, "
        "candidate_raised_on_invalid: a raise on a stream the oracle flags or the API's "
        "event types do not allow); cases are clustered by cause (a candidate that raises: "
        "by its check, the masked message, or for a runtime lookup error such as "
        "IndexError by the event it gives up at and the oracle's decision there; every "
        "message and trip listed; the causes on every case of which the candidate answers "
        "as a known client policy does wherever the cause differs, e.g. the terminal "
        "snapshot verbatim, are that policy's one cluster, which names the rule it breaks "
        "and lists the oracle's decisions it met), and each cluster's shortest case is "
        "shrunk to a minimal well-formed stream that keeps the cause, shown with both "
        "answers, the rule that decides it (with its docs page) and the oracle's trace. "
        "The report opens with the verdict (PASS or FAIL), the streams per class (each "
        "by its own most harmful difference, the severe classes marked) and one line per "
        "cause (a policy's cluster named by the candidate's mistake, e.g. 'answers the "
        "terminal snapshot verbatim'), then each cluster in detail, ids shown whole where "
        "they differ. --report-dir writes an upstream bug report per root cause (one stream "
        "and one test; the clusters that share them merged), with a failing test in the "
        "client's own style for a built-in client, and an index DIR/README.md "
        "(docs/conformance-vectors.md). Progress goes to stderr on a terminal.",
        examples=(
            "diff --candidate openai-python",
            "diff --candidate openai-node --profile bedrock-mantle,github-copilot --count 100",
            "diff --candidate 'node my-parser.js' --seed 7 --corpus recordings/ --json",
            "diff --candidate ai-sdk --allow candidate_raised_on_invalid,unconfirmed_call_dropped",
            "diff --candidate openai-python --report-dir reports/; pytest reports/",
            "diff --candidate axonhub-stream --src ../axonhub --report-dir reports/",
        ),
        run=run,
        exit_status={
            Exit.OK: "no divergence, or only --allow-ed classes",
            Exit.FINDING: "the candidate diverges",
            Exit.USAGE: "unusable arguments, or a candidate that cannot run (its stderr is "
            "shown once)",
            Exit.NO_RESPONSE: "a --corpus file is no stream (text, a Chat Completions "
            "stream...)",
        },
    )
    add_candidate_arguments(parser)
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the generated streams (default: 0)"
    )
    parser.add_argument(
        "--count",
        type=int,
        default=300,
        metavar="N",
        help="generated streams to run (default: 300)",
    )
    parser.add_argument(
        "--generator",
        type=_names,
        default=None,
        metavar="NAME,...",
        help=f"generators to draw from (default: all of {', '.join(GENERATORS)})",
    )
    parser.add_argument(
        "--profile",
        type=_names,
        default=None,
        metavar="NAME,...",
        help=f"provider profiles the profile generators apply (default: all of "
        f"{', '.join(PROFILES)})",
    )
    parser.add_argument(
        "--corpus",
        action="append",
        default=[],
        metavar="PATH",
        help="a recorded stream file or a folder of them, any input format (repeatable); "
        "each file is one request",
    )
    parser.add_argument(
        "--split-responses",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="send each response of a multi-response body as its own request (the "
        "default for a built-in client, which answers one response per call) or the body "
        "as one request (the default for any other candidate)",
    )
    parser.add_argument(
        "--allow",
        type=_names,
        default=[],
        metavar="CLASS,...",
        help="divergence classes that are reported but do not fail the run, e.g. "
        "candidate_raised_on_invalid,unconfirmed_call_dropped",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes to use (default: 1)"
    )
    parser.add_argument(
        "--no-shrink",
        action="store_true",
        help="report clusters on their original streams, unshrunk",
    )
    parser.add_argument(
        "--show",
        type=int,
        default=None,
        metavar="N",
        help="print only the first N clusters (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument(
        "--pages",
        metavar="DIR",
        default=None,
        help="also write each cluster's representative as a timeline page DIR/<cluster>.html",
    )
    parser.add_argument(
        "--report-dir",
        metavar="DIR",
        default=None,
        help="also write an upstream-ready bug report per root cause, DIR/<cluster>.md (a "
        "title in the client's terms, the recorded streams it was seen on, a short "
        "readable stream, what "
        "the app expects and gets), and for a built-in client a failing test in its own "
        "style beside it, DIR/<cluster>/test_*.py (pytest, openai-python and "
        "openai-agents), DIR/<cluster>/*.test.mjs (node:test, openai-node, ai-sdk, "
        "ai-streamtext) or DIR/<cluster>/oracle_*_test.go (go test in AxonHub's "
        "llm/transformer/openai/responses), needing nothing of responses-oracle; a "
        "cluster whose stream "
        "and test are another's is merged into that report; DIR/README.md indexes them by "
        "cluster id (as printed), class and stream count",
    )


def _allowed(names: list[str]) -> frozenset[Divergence]:
    known = {d.value: d for d in Divergence}
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise CliError(
            f"unknown divergence class(es) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return frozenset(known[name] for name in names)


def _progress(stream: TextIO) -> Callable[[int, int], None] | None:
    """A progress line on ``stream`` when it is a terminal, else nothing."""
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        stream.write(f"\r{done}/{total} streams" + ("\n" if done >= total else ""))
        stream.flush()

    return show


def _write_pages(folder: Path, clusters: Sequence[Cluster]) -> None:
    """Each cluster's representative page into ``folder`` (``report.representative_page``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for cluster in clusters:
        page = representative_page(cluster)
        if page is None:
            raise CliError("--pages needs the timeline module (responses_oracle.timeline), "
                           "which this build does not have")
        (folder / f"{cluster.id}.html").write_text(page, encoding="utf-8")
        sys.stderr.write(f"{folder / cluster.id}.html: {cluster.divergence.value}\n")


def _write_reports(args: argparse.Namespace, folder: Path, clusters: Sequence[Cluster]) -> None:
    """Each cluster's upstream report (and test) into ``folder`` (``differential.upstream``),
    the candidate run again to keep each readable stream only where it still shows."""
    from responses_oracle.differential.candidate import ProcessCandidate
    from responses_oracle.differential.upstream import INDEX, write_reports

    candidate = ProcessCandidate(command(args), timeout=args.timeout, sse=args.wire == "sse")
    try:
        reports = write_reports(folder, args.candidate, [c.to_json() for c in clusters],
                                candidate, src=args.src)
    finally:
        candidate.close()
    for report in reports:
        test = f"{folder / report.id / report.test_file}" if report.test_file else "no test"
        sys.stderr.write(f"{folder / report.id}.md: {report.title} ({test})\n")
    sys.stderr.write(f"{folder / INDEX}: the index, {len(reports)} report(s)\n")


def verdict(report: DiffReport) -> str:
    """The run's verdict in one line: pass or fail, and how many streams diverge."""
    streams = f"{len(report.findings)} of {report.cases} streams diverge"
    if not report.findings:
        return f"PASS: the candidate agrees with the oracle on all {report.cases} streams"
    severe = f", {report.severe} of them in a severe class" if report.severe else ""
    if report.ok:
        return f"PASS (only allowed classes): {streams}{severe}"
    return f"FAIL: {streams}{severe}; {len(report.failing)} of {len(report.clusters)} causes fail"


def cause_line(number: int, cluster: Cluster) -> str:
    """One cause in a line: its cluster id, streams per class, and what it is -- the
    candidate's mistake for a policy's cluster, the message for one that raises, else
    what differs and the rule and decision that decide it."""
    if cluster.hypothesis is not None:
        what = f"the candidate {HYPOTHESES[cluster.hypothesis].mistake} ({cluster.rule})"
    elif cluster.message:
        what = f"raises {cluster.message} (gives up at {cluster.rule} {cluster.decision})"
    else:
        what = f"{cluster.cause.kind} ({cluster.rule} {cluster.decision or 'no code'})"
    classes = ", ".join(f"{d.value} x{n}" for d, n in cluster.classes) or (
        f"{cluster.divergence.value} x{len(cluster.cases)}")
    allowed = " [allowed]" if cluster.allowed else ""
    return f"  {number}. [{cluster.id}] {what}: {classes}{allowed}"


def overview(report: DiffReport) -> str:
    """What a candidate's author reads first: the verdict, the streams per class (each
    by its own most harmful difference, severe ones marked), then one line per cause;
    the clusters in detail follow it."""
    lines = [verdict(report)]
    counts = class_counts(report.findings)
    if counts:
        lines += ["", "streams by class (each by its most harmful difference):"]
        width = max(len(d.value) for d, _ in counts)
        lines += [
            f"  {d.value:<{width}} {n:>5}"
            + ("  severe" if d in SEVERE else "")
            + ("  allowed" if d in report.allowed else "")
            for d, n in counts
        ]
        lines += ["", "causes (in the order detailed below):"]
        lines += [cause_line(n + 1, c) for n, c in enumerate(report.clusters)]
    return "\n".join(lines)


def interrupted(stop: Interrupted) -> str:
    """What Ctrl-C leaves: how many streams were compared, those that disagree by class,
    and each of them by name (not clustered, not shrunk: that would run the candidate
    again); ``diff --seed`` and the names find each one again."""
    findings = stop.findings
    lines = [
        f"INTERRUPTED: {stop.compared} of {stop.total} streams compared before Ctrl-C; "
        f"{len(findings)} disagree with the oracle"
    ]
    if findings:
        lines += ["", "streams by class (each by its most harmful difference):"]
        lines += [f"  {d.value} {n}" for d, n in class_counts(findings)]
        lines += ["", "the streams:"]
        lines += [f"  {f.case}  {f.divergence.value}" for f in findings]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run the differential test and print the report."""
    if args.count < 0 or args.jobs < 1:
        raise CliError("--count must be at least 0 and --jobs at least 1")
    try:
        generation = Generation(
            args.seed,
            args.count,
            mix_of(args.generator) if args.generator is not None else MIX,
            check_profiles(args.profile) if args.profile is not None else tuple(PROFILES),
        )
    except ValueError as error:
        raise CliError(str(error)) from None
    if not generation.mix:
        raise CliError("--generator names no generator")
    allowed = _allowed(args.allow)
    if args.pages is not None and importlib.util.find_spec("responses_oracle.timeline") is None:
        raise CliError("--pages needs the timeline module (responses_oracle.timeline), "
                       "which this build does not have")
    try:
        corpus = corpus_cases(args.corpus)
    except NotAStream as error:
        tally = Tally()
        tally.not_a_stream(error.name, error.reason)
        return tally.exit_status()
    except OSError as error:
        raise CliError(f"cannot read {error.filename}: {error.strerror or error}") from None
    try:
        report = run_diff(
            command(args),
            generation=generation,
            corpus=corpus,
            jobs=args.jobs,
            codes=args.codes,
            sse=args.wire == "sse",
            split=split_responses(args),
            timeout=args.timeout,
            shrink_clusters=not args.no_shrink,
            allowed=allowed,
            progress=_progress(sys.stderr),
        )
    except OSError as error:
        raise CliError(
            f"cannot run the candidate {args.candidate!r}: {error.strerror or error}"
        ) from None
    except Interrupted as stop:
        sys.stdout.write(interrupted(stop) + "\n")
        return Exit.INTERRUPTED
    if args.pages is not None:
        _write_pages(Path(args.pages), report.clusters)
    if args.report_dir is not None:
        _write_reports(args, Path(args.report_dir), report.clusters)
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(overview(report) + "\n\n" + report.render(args.show) + "\n")
    return 0 if report.ok else 1
