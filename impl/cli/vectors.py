"""``responses-oracle vectors``: export the conformance vectors, or check a candidate on them.

``vectors export DIR`` writes one JSON file per case (name, rules, event stream,
expected result) and a versioned ``manifest.json``, from the streams of the rule tests,
the proof counterexamples and seeded generated streams
(``responses_oracle.testing.vectors``; the format is in docs/conformance-vectors.md).
``vectors check DIR --candidate CMD`` runs a candidate on an exported folder.

Exit status: export 0; check 0 when every vector passes, 1 when one fails; 2 for
unusable arguments or an unreadable folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..testing.candidate import ProcessCandidate
from ..testing.vectors import (
    Vector,
    check,
    counterexample_vectors,
    export,
    generated_vectors,
    load,
    rule_test_vectors,
)
from .common import CliError, command_parser
from .diff import add_candidate_arguments, command

if TYPE_CHECKING:
    from .common import Subparsers

RULE_TESTS = Path("tests/core/test_rules.py")
"""Where ``export`` looks for the rule tests by default (relative to the working folder)."""

COUNTEREXAMPLES = Path("tests/proofs/counterexamples")
"""Where ``export`` looks for proof counterexamples by default."""


def register(subparsers: Subparsers) -> None:
    """Add ``vectors`` (with ``export`` and ``check``) to the command set."""
    parser = command_parser(
        subparsers,
        "vectors",
        summary="export the conformance vectors, or check a candidate parser on them",
        description="Export a language-neutral corpus of conformance vectors (one JSON file "
        "per case with its name, rules, event stream and expected result, plus a versioned "
        "manifest), or run a candidate parser on an exported corpus.",
        examples=(
            "vectors export vectors/ --generated 200 --seed 0",
            "vectors check vectors/ --candidate 'node my-parser.js'",
        ),
        run=_no_action,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    out = actions.add_parser(
        "export", help="write the vectors and manifest.json into DIR", description=export.__doc__
    )
    out.add_argument("directory", metavar="DIR")
    out.add_argument("--seed", type=int, default=0, help="seed of the generated vectors")
    out.add_argument(
        "--generated", type=int, default=100, metavar="N", help="generated vectors (default: 100)"
    )
    out.add_argument(
        "--rule-tests",
        type=Path,
        default=RULE_TESTS,
        metavar="PATH",
        help=f"the rule tests to harvest (default: {RULE_TESTS}, when present)",
    )
    out.add_argument("--no-rule-tests", action="store_true", help="do not harvest the rule tests")
    out.add_argument(
        "--counterexamples",
        type=Path,
        default=COUNTEREXAMPLES,
        metavar="DIR",
        help=f"folder of counterexample streams (default: {COUNTEREXAMPLES}, when present)",
    )
    out.add_argument(
        "--no-counterexamples", action="store_true", help="do not include counterexamples"
    )
    out.set_defaults(run=run_export)
    checking = actions.add_parser(
        "check", help="run a candidate on the vectors in DIR", description=check.__doc__
    )
    checking.add_argument("directory", metavar="DIR")
    add_candidate_arguments(checking)
    checking.add_argument(
        "--json", action="store_true", help="one JSON object per failing vector, then a summary"
    )
    checking.set_defaults(run=run_check)


def _no_action(args: argparse.Namespace) -> int:
    raise CliError("name an action: 'vectors export DIR' or 'vectors check DIR --candidate CMD'")


def run_export(args: argparse.Namespace) -> int:
    """Collect the vectors and write them."""
    vectors: list[Vector] = []
    provenance: dict[str, Any] = {"seed": args.seed, "generated": args.generated}
    if not args.no_rule_tests and args.rule_tests.exists():
        try:
            vectors += rule_test_vectors(args.rule_tests)
        except RuntimeError as error:
            raise CliError(f"{error}; pass --no-rule-tests to export without them") from None
        provenance["rule_tests"] = str(args.rule_tests)
    if not args.no_counterexamples and args.counterexamples.is_dir():
        vectors += counterexample_vectors(args.counterexamples)
        provenance["counterexamples"] = str(args.counterexamples)
    vectors += generated_vectors(args.seed, args.generated)
    try:
        manifest = export(args.directory, vectors, **provenance)
    except OSError as error:
        raise CliError(f"cannot write {args.directory}: {error.strerror or error}") from None
    by_source: dict[str, int] = {}
    for entry in manifest["cases"]:
        by_source[entry["source"]] = by_source.get(entry["source"], 0) + 1
    counts = ", ".join(f"{n} {source}" for source, n in sorted(by_source.items()))
    print(f"wrote {manifest['count']} vectors ({counts}) to {args.directory}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Run the candidate on every vector and report the failures."""
    try:
        _, vectors = load(args.directory)
    except (OSError, ValueError, KeyError) as error:
        raise CliError(f"cannot read vectors from {args.directory}: {error}") from None
    try:
        candidate = ProcessCandidate(command(args), timeout=args.timeout, sse=args.wire == "sse")
        try:
            outcomes = check(vectors, candidate, codes=args.codes)
        finally:
            candidate.close()
    except OSError as error:
        raise CliError(f"cannot start the candidate {args.candidate!r}: {error}") from None
    failed = [outcome for outcome in outcomes if not outcome.passed]
    for outcome in failed:
        if args.json:
            sys.stdout.write(
                json.dumps(
                    {
                        "name": outcome.vector.name,
                        "rules": list(outcome.vector.rules),
                        "differences": [
                            {"rule": d.rule, "path": d.path, "oracle": d.oracle,
                             "candidate": d.candidate, "why": d.why}
                            for d in outcome.differences
                        ],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
            continue
        print(f"FAIL {outcome.vector.name} ({', '.join(outcome.vector.rules)})")
        for d in outcome.differences:
            print(f"  [{d.rule}] {d.path}: expected {d.oracle!r}, got {d.candidate!r}")
            print(f"      why: {d.why}")
    summary = {"vectors": len(outcomes), "passed": len(outcomes) - len(failed)}
    if args.json:
        sys.stdout.write(json.dumps({"summary": summary}) + "\n")
    else:
        print(f"{summary['passed']} of {summary['vectors']} vectors pass")
    return 0 if not failed else 1
