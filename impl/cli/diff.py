"""``responses-oracle diff``: differential testing of a candidate parser against the oracle.

The candidate is any program speaking the candidate protocol (JSON Lines, one stream
in, one result out; ``docs/conformance-vectors.md``), or a built-in name:
``openai-python`` (openai-python's stream accumulator) or ``oracle`` (the reference
parser itself, which must agree with itself).  The harness
(``responses_oracle.testing.harness``) feeds it ``--count`` generated streams of
``--seed`` and the ``--corpus`` files, compares modulo minted ids, and reports each
distinct divergence shrunk to a minimal stream, with the rule it breaks, why, and the
oracle's trace.  Deterministic for a given seed, whatever ``--jobs``.

Exit status: 0 when the candidate agrees on every stream, 1 when it diverges, 2 for
unusable arguments or a candidate that cannot be started.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ..testing.candidate import BUILTIN_CANDIDATES, candidate_command
from ..testing.cases import corpus_cases
from ..testing.harness import run_diff
from .common import CliError, Exit, command_parser

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


def command(args: argparse.Namespace) -> list[str]:
    """The candidate's command line, checked to be non-empty."""
    argv = candidate_command(args.candidate)
    if not argv:
        raise CliError("--candidate is empty; give a command line or a built-in name")
    return argv


def register(subparsers: Subparsers) -> None:
    """Add ``diff`` to the command set."""
    parser = command_parser(
        subparsers,
        "diff",
        description="Run a candidate parser as one subprocess speaking the candidate protocol "
        "(JSON Lines: {\"id\", \"events\"} in, {\"id\", \"results\"} out), feed it generated "
        "streams (OpenAI-valid, provider profiles, model-guided walks, single faults) and the "
        "corpus files, and compare with the oracle modulo minted ids. Each distinct "
        "divergence is shrunk to a minimal stream and explained by the rule it breaks "
        "(docs/rules/).",
        examples=(
            "diff --candidate openai-python --count 200 --jobs 4",
            "diff --candidate 'node my-parser.js' --seed 7 --corpus recordings/",
            "diff --candidate oracle --count 1000 --json",
        ),
        run=run,
        exit_status={
            Exit.OK: "the candidate agrees with the oracle on every stream",
            Exit.FINDING: "the candidate diverges",
            Exit.USAGE: "unusable arguments, or a candidate that cannot be started",
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
        "--corpus",
        action="append",
        default=[],
        metavar="PATH",
        help="a recorded stream file or a folder of them, any input format (repeatable)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes to use (default: 1)"
    )
    parser.add_argument(
        "--no-shrink",
        action="store_true",
        help="report divergences on the original streams, unshrunk",
    )
    parser.add_argument(
        "--show",
        type=int,
        default=None,
        metavar="N",
        help="print only the first N divergences (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run the differential test and print the report."""
    if args.count < 0 or args.jobs < 1:
        raise CliError("--count must be at least 0 and --jobs at least 1")
    corpus = corpus_cases(args.corpus)
    try:
        report = run_diff(
            command(args),
            seed=args.seed,
            count=args.count,
            corpus=corpus,
            jobs=args.jobs,
            codes=args.codes,
            sse=args.wire == "sse",
            timeout=args.timeout,
            shrink_groups=not args.no_shrink,
        )
    except OSError as error:
        raise CliError(
            f"cannot start the candidate {args.candidate!r}: {error.strerror or error}; "
            "check the command line"
        ) from None
    if args.json:
        sys.stdout.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.render(args.show) + "\n")
    return 0 if report.ok else 1
