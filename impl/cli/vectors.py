"""``responses-oracle vectors``: export the conformance vectors, or check a candidate on them.

``vectors export DIR`` writes one JSON file per case (name, rules, event stream,
expected result) and a versioned ``manifest.json``: the streams of the bundled corpus
(the rule tests' streams and the proof counterexamples, shipped with the package) and
``--generated`` seeded generated streams (``responses_oracle.differential.conformance_vectors``; the
format is in docs/conformance-vectors.md), each a complete provider stream with its
declared deviations (``differential.completion``).  Only package data is read, so the folder is
the same byte for byte wherever the command runs.  ``vectors check DIR --candidate
CMD`` runs a candidate on an exported folder and reports, per failing vector, each
difference with the rule it breaks.

Exit status: export 0, or 2 when DIR cannot be written; check 0 when every vector
passes, 1 when one fails, 2 for unusable arguments, an unreadable folder or a candidate
that cannot be started.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import PROG, CliError, Exit, ExitTable, command_parser, json_text, write_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..differential.conformance_vectors import VectorOutcome
    from .common import Subparsers

_EXPORT_DESCRIPTION = (
    "Write the conformance vectors into DIR: DIR/cases/NAME.json per case (its name, the "
    "rules it exercises, where it came from, the event stream and the oracle's expected "
    "results) and DIR/manifest.json (format version, oracle version, every file with its "
    "SHA-256). The cases are the bundled corpus -- the streams of the rule tests and of "
    "the proof counterexamples -- then --generated seeded generated streams, each a "
    "complete provider stream (every event and field a provider sends) but for the "
    "deviations it declares, the gaps that are its point. Each file and the manifest say "
    "whether the vector counts in a score (counted: a complete provider stream whose "
    "deviations a provider is shown to send, answered with no error) or is a robustness "
    "row, and why. The same "
    "oracle version, seed and count give the same files, from any folder. A file of an "
    "earlier export that is no longer a case is removed. The format: "
    "docs/conformance-vectors.md."
)

_CHECK_DESCRIPTION = (
    "Run a candidate parser on every vector of an exported DIR (checksums verified first) "
    "and compare its answers with the expected results, modulo minted ids. The report "
    "opens with the verdict (PASS or FAIL, how many vectors pass, how many the candidate "
    "raised on), then per rule the vectors that exercise it and how many pass, then the "
    "failures grouped by the rule each difference breaks (docs/rules/), with counts: "
    "each failing vector with the rules it exercises, where it differs, what was "
    "expected and what came, and why. --json gives one line per failing vector, then "
    "the summary with the counts by rule. The candidate speaks the candidate protocol "
    "(docs/conformance-vectors.md), or is a built-in name (oracle, openai-python, "
    "openai-agents, openai-node, ai-sdk, ai-streamtext)."
)


_EXPORT_EXIT: ExitTable = {Exit.OK: "the folder was written", Exit.USAGE: "DIR cannot be written"}
"""The exit statuses of ``vectors export``."""

_CHECK_EXIT: ExitTable = {
    Exit.OK: "every vector passes",
    Exit.FINDING: "a vector fails",
    Exit.USAGE: "unusable arguments, an unreadable folder, or a candidate that cannot be "
    "started",
}
"""The exit statuses of ``vectors check`` (and of ``vectors`` as a whole)."""


def register(subparsers: Subparsers) -> None:
    """Add ``vectors`` (with ``export`` and ``check``) to the command set."""
    parser = command_parser(
        subparsers,
        "vectors",
        description="Export a language-neutral corpus of conformance vectors (one JSON file "
        "per case with its name, rules, event stream and expected result, plus a versioned "
        "manifest), or run a candidate parser on an exported corpus. "
        "'vectors ACTION --help' describes each action.",
        examples=(
            "vectors export vectors/",
            "vectors export vectors/ --generated 200 --seed 7",
            "vectors check vectors/ --candidate 'node my-parser.js'",
        ),
        run=_no_action,
        exit_status=_CHECK_EXIT,
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    out = command_parser(
        actions,
        "export",
        summary="write the vectors and manifest.json into DIR",
        description=_EXPORT_DESCRIPTION,
        examples=(
            "vectors export vectors/",
            "vectors export vectors/ --generated 500 --seed 3",
            "vectors export vectors/ && jq '.count' vectors/manifest.json",
        ),
        run=run_export,
        exit_status=_EXPORT_EXIT,
    )
    out.add_argument("directory", metavar="DIR", help="the folder to write (made if missing)")
    out.add_argument(
        "--seed", type=int, default=0, help="seed of the generated vectors (default: 0)"
    )
    out.add_argument(
        "--generated",
        type=_count,
        default=100,
        metavar="N",
        help="generated vectors after the bundled ones (default: 100; 0 for none)",
    )
    out.add_argument(
        "--no-corpus",
        action="store_true",
        help="leave out the bundled corpus: only the generated vectors",
    )
    checking = command_parser(
        actions,
        "check",
        summary="run a candidate on the vectors in DIR",
        description=_CHECK_DESCRIPTION,
        examples=(
            "vectors check vectors/ --candidate 'node my-parser.js'",
            "vectors check vectors/ --candidate oracle",
            "vectors check vectors/ --candidate './parse' --json | jq -c 'select(.name)'",
            "vectors check vectors/ --candidate ai-sdk --json | tail -1 | jq .summary.by_rule",
        ),
        run=run_check,
        exit_status=_CHECK_EXIT,
    )
    checking.add_argument("directory", metavar="DIR", help="a folder written by vectors export")
    from .diff import add_candidate_arguments

    add_candidate_arguments(checking)
    checking.add_argument(
        "--json", action="store_true",
        help="one JSON object per failing vector, then a summary with the counts by rule"
    )


def _count(text: str) -> int:
    """A whole number of at least 0 (argparse type)."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a number of at least 0, got {text!r}")
    return number


def _no_action(args: argparse.Namespace) -> int:
    raise CliError("name an action: 'vectors export DIR' or 'vectors check DIR --candidate CMD'")


def run_export(args: argparse.Namespace) -> int:
    """Collect the vectors and write them."""
    from ..differential.conformance_vectors import corpus_vectors, export, generated_vectors

    bundled = [] if args.no_corpus else corpus_vectors()
    vectors = bundled + generated_vectors(args.seed, args.generated)
    provenance = {"seed": args.seed, "generated": args.generated, "corpus": len(bundled)}
    try:
        manifest = export(args.directory, vectors, **provenance)
    except OSError as error:
        raise CliError(f"cannot write {args.directory}: {error.strerror or error}") from None
    by_source: dict[str, int] = {}
    for entry in manifest["cases"]:
        by_source[entry["source"]] = by_source.get(entry["source"], 0) + 1
    counts = ", ".join(f"{n} {source}" for source, n in sorted(by_source.items()))
    counted = sum(1 for entry in manifest["cases"] if entry.get("counted"))
    print(f"wrote {manifest['count']} vectors ({counts}) to {args.directory}: {counted} "
          f"count in a score, {manifest['count'] - counted} are robustness rows")
    return Exit.OK


def run_check(args: argparse.Namespace) -> int:
    """Run the candidate on every vector and report the failures."""
    from ..differential.candidate import ProcessCandidate
    from ..differential.conformance_vectors import MANIFEST, by_rule, check, load
    from .diff import command

    folder = Path(args.directory)
    export_hint = f"write them with '{PROG} vectors export {args.directory}'"
    if not folder.is_dir():
        raise CliError(f"cannot read vectors from {folder}: no such folder; {export_hint}")
    if not (folder / MANIFEST).is_file():
        raise CliError(
            f"cannot read vectors from {folder}: it has no {MANIFEST}, so it holds no "
            f"exported vectors; {export_hint}"
        )
    try:
        _, vectors = load(folder)
    except OSError as error:
        raise CliError(f"cannot read vectors from {folder}: {error.strerror or error}") from None
    except (ValueError, KeyError) as error:
        raise CliError(f"cannot read vectors from {folder}: {error}") from None
    try:
        candidate = ProcessCandidate(command(args), timeout=args.timeout, sse=args.wire == "sse")
        try:
            outcomes = check(vectors, candidate, codes=args.codes)
        finally:
            candidate.close()
    except OSError as error:
        raise CliError(f"cannot start the candidate {args.candidate!r}: {error}") from None
    failed = [outcome for outcome in outcomes if not outcome.passed]
    if args.json:
        for outcome in failed:
            write_json(failure_json(outcome))
        write_json({"summary": {
            "vectors": len(outcomes), "passed": len(outcomes) - len(failed),
            "by_rule": {t.rule: t.to_json() for t in by_rule(outcomes)},
        }})
    else:
        print(check_text(outcomes))
    return Exit.FINDING if failed else Exit.OK


def check_verdict(outcomes: Sequence[VectorOutcome]) -> str:
    """The verdict in one line: pass or fail, how many vectors pass, how many raise."""
    from ..differential.candidate import Failure

    failed = [o for o in outcomes if not o.passed]
    passed = f"{len(outcomes) - len(failed)} of {len(outcomes)} vectors pass"
    if not failed:
        return f"PASS: {passed}"
    raised = sum(1 for o in failed if isinstance(o.answer, Failure))
    return f"FAIL: {passed} ({len(failed)} fail" + (f", {raised} of them raise" if raised
                                                      else "") + ")"


def check_text(outcomes: Sequence[VectorOutcome]) -> str:
    """``vectors check`` for people: the verdict, the vectors passed per rule they
    exercise, then the failures grouped by the rule each difference breaks."""
    from ..differential.conformance_vectors import broken_by_rule, by_rule
    from ..differential.findings import RULE_DOCS
    from ..model.rules import RULES

    lines = [check_verdict(outcomes), "", "by rule exercised (pass / vectors, raised):"]
    for tally in by_rule(outcomes):
        raised = f"{tally.raised} raised" if tally.raised else ""
        lines.append(f"  {tally.rule:<4} {tally.passed:>4} / {tally.vectors:<4} {raised:<10}  "
                     f"{RULES.get(tally.rule, '')}")
    for rule, failing in broken_by_rule(outcomes):
        count = sum(len(differences) for _, differences in failing)
        lines += ["", f"breaks {rule}: {count} difference(s) in {len(failing)} vector(s) "
                  f"({RULE_DOCS.format(rule=rule)})"]
        for outcome, differences in failing:
            lines.append(f"  FAIL {outcome.vector.name}  "
                         f"(exercises {', '.join(outcome.vector.rules)})")
            for d in differences:
                lines.append(f"    at {d.path}: expected {json_text(d.oracle)}, "
                             f"got {json_text(d.answer)}")
                lines.append(f"        why: {d.why}")
    failed = [o for o in outcomes if not o.passed]
    # The counts again last, where a reader of a long report looks for them.
    tail = f"; {len(failed)} fail" if failed else ""
    lines += ["", f"{len(outcomes) - len(failed)} of {len(outcomes)} vectors pass{tail}"]
    return "\n".join(lines)


def failure_json(outcome: VectorOutcome) -> dict[str, Any]:
    """One failing vector as a ``--json`` line."""
    return {
        "name": outcome.vector.name,
        "rules": list(outcome.vector.rules),
        "differences": [
            {
                "rule": d.rule,
                "path": d.path,
                "oracle": d.oracle,
                "candidate": d.answer,
                "why": d.why,
            }
            for d in outcome.differences
        ],
    }
