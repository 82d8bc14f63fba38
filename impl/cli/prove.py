"""``responses-oracle prove``: the Z3 verdict on every invariant, for the reference or a peer.

One row per (invariant, policy): ``PROVED`` -- for any number of entries and slots
(``any size``), or for every number up to ``--bound`` (``bounded``) --,
``COUNTEREXAMPLE`` with the shortest stream bounded model checking found (printed; with
``--write-dir`` also written there as JSON Lines, with the ``explain`` command that
walks through it -- without it nothing is written, not even to a temporary folder), or
``UNKNOWN`` with the reason; and the solver's seconds.  The invariants are those of
``docs/invariants.md``.  The
default run proves the reference at the default bounds (``proofs.prove.DEFAULT_BOUND``)
and is part of the test suite; ``--bound`` and ``--depth`` go deeper.

``--policy NAME`` (repeatable; ``all`` for every peer) runs the same proofs on a peer
implementation's rules encoded as a policy (``proofs.policies``).  Each policy comes
with what its tables cannot say (``not modelled``) and the payload offers it
ignores, which the payload invariants see only for the snapshot (``unoffered``): both
are printed, so
that a PROVED row is never read as more than it is.

Exit status: 1 when the reference (by default, or named with ``--policy reference``)
has a counterexample or an unknown verdict (a proof that did not go through is no
proof); 0 otherwise.  A counterexample on a peer's policy is the expected
finding, not a failure, so it exits 0.  2 for unusable arguments, or when Z3 is not
installed.  The proofs are imported only when the command runs, so the rest of the
command line works without Z3.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ..model.completeness import COMPLETENESS_BY_NAME
from ..model.invariants import INVARIANTS_BY_NAME
from ..proofs.contracts import CONTRACTS
from ..words import counted
from .common import (
    PROG,
    CliError,
    Exit,
    clean,
    command_parser,
    json_text,
    needs_proofs_extra,
    positive,
    write_json,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from ..proofs.inventory import ProofResult
    from ..proofs.policies import Policy
    from .common import Subparsers

ALL_PEERS: Final = "all"
"""The ``--policy`` value that names every peer policy."""

REFERENCE: Final = "reference"
"""The policy proved when no ``--policy`` is given."""

_STYLE: Final[dict[str, str]] = {
    "proved": "bold green",
    "counterexample": "bold red",
    "unknown": "yellow",
}
"""How each verdict is coloured in the table."""


@dataclass(frozen=True)
class Row:
    """One invariant on one policy: the verdict merged from ``prove``'s rows.

    ``scope`` says what a ``proved`` verdict covers (``any size``, or ``bounded NxM``);
    ``path`` is where the counterexample stream was written.
    """

    invariant: str
    policy: str
    verdict: str
    scope: str
    seconds: float
    detail: str
    proofs: tuple[ProofResult, ...]
    path: Path | None

    @property
    def counterexample(self) -> list[dict[str, Any]] | None:
        """The stream that breaks the invariant, with a counterexample verdict."""
        return next((p.counterexample for p in self.proofs if p.counterexample), None)

    def explain_command(self) -> str | None:
        """The command that walks through the counterexample stream event by event
        (None when the stream was not written: no ``--write-dir``)."""
        return f"{PROG} explain {self.path}" if self.path is not None else None


def merge(policy: str, proofs: Sequence[ProofResult], bound: tuple[int, int]) -> Row:
    """The one row of an invariant's ``prove`` results (bounded, then unbounded if run)."""
    statuses = [proof.status.value for proof in proofs]
    matcher = [proof for proof in proofs if proof.system == "matcher"]
    if "counterexample" in statuses:
        verdict, scope = "counterexample", ""
    elif "proved_unbounded" in statuses:
        verdict, scope = "proved", "any size"
    elif "proved_bounded" in statuses:
        verdict, scope = "proved", f"bounded {bound[0]}x{bound[1]}"
    else:
        verdict, scope = "unknown", ""
    if verdict == "proved" and proofs[0].system == "contract":
        # A diagnostic contract is one decision step, over entries or over none.
        scope = "one step" if "proved_unbounded" in statuses else "one step, 2-4 entries"
    if verdict == "proved" and any(
        proof.system == "channels" and proof.status.value == "proved_unbounded" for proof in proofs
    ):
        scope += ", any channels"
    if verdict == "proved" and matcher:
        from responses_oracle.proofs.inventory import MATCHER_BOUNDS

        scope += f"; matcher {MATCHER_BOUNDS[-1]}"
    return Row(
        proofs[0].invariant,
        policy,
        verdict,
        scope,
        sum(proof.seconds for proof in proofs),
        "; ".join(proof.detail for proof in proofs),
        tuple(proofs),
        None,
    )


def _bound(text: str) -> tuple[int, int]:
    """Parse ``N,M`` (entries, slots), each at least 2 (argparse type)."""
    parts = text.split(",")
    try:
        entries, slots = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N,M such as 4,4, got {text!r}") from None
    if entries < 2 or slots < 2:
        raise argparse.ArgumentTypeError(f"N and M must be at least 2, got {text!r}")
    return entries, slots


def register(subparsers: Subparsers) -> None:
    """Add ``prove`` to the command set."""
    parser = command_parser(
        subparsers,
        "prove",
        description="Prove every invariant of docs/invariants.md (or --invariant NAME) with "
        "Z3 over the encoding generated from the model's tables: one row per invariant and "
        "policy, PROVED (for any size, or bounded up to --bound entries and slots), "
        "COUNTEREXAMPLE with the shortest stream that breaks it (with --write-dir, written "
        "there with the command to explain it), or UNKNOWN with the reason. --policy runs "
        "the same proofs on a peer implementation's rules (opencode, axonhub, codex; 'all' "
        "for every peer). Needs the proofs extra: pip install 'responses-oracle[proofs]'.",
        examples=(
            "prove",
            "prove --policy opencode --write-dir counterexamples/",
            "prove --invariant complete_once --bound 5,5 --depth 10",
            "prove --policy all --json | jq '.rows[] | select(.verdict == \"counterexample\")'",
        ),
        run=run,
        exit_status={
            Exit.OK: "the reference proves every invariant asked for (a peer's "
            "counterexamples are the expected finding)",
            Exit.FINDING: "the reference has a counterexample",
            Exit.USAGE: "unusable arguments, a --write-dir that cannot be written, or no Z3 "
            "(the proofs extra)",
        },
    )
    parser.add_argument(
        "--invariant",
        choices=(*INVARIANTS_BY_NAME, *COMPLETENESS_BY_NAME, *CONTRACTS),
        metavar="NAME",
        help="prove only this invariant (default: all of docs/invariants.md)",
    )
    parser.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help="prove a policy: reference, opencode, axonhub, codex, or all (the three "
        "peers); repeatable (default: reference)",
    )
    parser.add_argument(
        "--bound",
        type=_bound,
        default=None,
        metavar="N,M",
        help="largest numbers of entries and slots of the bounded proofs (default: 4,4)",
    )
    parser.add_argument(
        "--depth",
        type=positive("steps"),
        default=None,
        metavar="K",
        help="steps bounded model checking looks for a counterexample (default: 8)",
    )
    parser.add_argument(
        "--write-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each counterexample stream here as JSON Lines, for explain (default: "
        "print them only)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def _policies(names: list[str] | None, known: dict[str, Policy]) -> list[Policy]:
    """The policies ``--policy`` names, in the order given, each once."""
    chosen: list[Policy] = []
    for name in names or [REFERENCE]:
        if name == ALL_PEERS:
            picked = [policy for key, policy in known.items() if key != REFERENCE]
        elif name in known:
            picked = [known[name]]
        else:
            raise CliError(
                f"no policy named {name!r}; choose one of {', '.join(known)} or {ALL_PEERS}"
            )
        chosen += [policy for policy in picked if policy not in chosen]
    return chosen


def _write(directory: Path, name: str, text: str) -> Path:
    """Write one counterexample stream into ``--write-dir``; a ``CliError`` if it cannot."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / name
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CliError(
            f"cannot write {name} into {directory}: {error.strerror or error}; "
            "pass another --write-dir"
        ) from None
    return path


def run(args: argparse.Namespace) -> int:
    """Prove the invariants asked for on each policy asked for and report."""
    with needs_proofs_extra("prove"):
        from ..proofs.counterexample import to_jsonl
        from ..proofs.inventory import DEFAULT_BOUND, DEFAULT_DEPTH
        from ..proofs.policies import POLICIES, prove_policy
    policies = _policies(args.policy, POLICIES)
    bound: tuple[int, int] = args.bound or DEFAULT_BOUND
    depth: int = args.depth or DEFAULT_DEPTH
    names = [args.invariant] if args.invariant else [
        *INVARIANTS_BY_NAME,
        *COMPLETENESS_BY_NAME,
        *CONTRACTS,
    ]
    rows: list[Row] = []
    status = _Status(quiet=args.json)
    try:
        for policy in policies:
            for name in names:
                status.update(f"proving {name} on {policy.name}")
                proofs = replayed(
                    prove_policy(policy, name, bound, depth, matcher=policy.name == "reference"),
                    policy.tables,
                )
                row = merge(policy.name, proofs, bound)
                events = row.counterexample
                if events is not None and args.write_dir is not None:
                    path = _write(args.write_dir, f"{policy.name}-{name}.jsonl", to_jsonl(events))
                    row = replace(row, path=path)
                rows.append(row)
    finally:
        status.stop()
    if args.json:
        write_json(report_json(rows, policies, bound, depth))
    else:
        from .render import stdout_console

        print_report(stdout_console(), rows, policies)
    return exit_status(rows)


def replayed(proofs: list[ProofResult], tables: Any) -> list[ProofResult]:
    """``proofs`` with each counterexample's replay through the reducer generated from
    ``tables`` added to its detail (``conformance.finding``; ``prove`` leaves it out)."""
    from ..model.codegen import load_kernels
    from ..proofs.conformance import finding

    kernels = None
    results: list[ProofResult] = []
    for proof in proofs:
        if proof.counterexample is not None and proof.expected is not None:
            kernels = kernels or load_kernels(tables)
            found = finding(proof.counterexample, proof.expected, kernels)
            proof = replace(proof, detail=f"{proof.detail}; {found}")
        results.append(proof)
    return results


def exit_status(rows: Sequence[Row]) -> int:
    """1 when the reference has a counterexample or any UNKNOWN proof (bounded or for any
    size), else 0."""
    failed = ("counterexample", "unknown")
    refuted = any(
        row.policy == REFERENCE
        and (row.verdict in failed or any(p.status.value == "unknown" for p in row.proofs))
        for row in rows
    )
    return Exit.FINDING if refuted else Exit.OK


class _Status:
    """A transient line on stderr saying what is being proved, on a terminal only."""

    def __init__(self, quiet: bool) -> None:
        self._status = None
        if sys.stderr.isatty() and not quiet:
            from rich.console import Console

            self._status = Console(stderr=True).status("")
            self._status.start()

    def update(self, message: str) -> None:
        if self._status is not None:
            self._status.update(message)

    def stop(self) -> None:
        if self._status is not None:
            self._status.stop()


def policy_json(policy: Policy) -> dict[str, Any]:
    """A policy as the JSON report gives it."""
    return {
        "name": policy.name,
        "description": policy.description,
        "evidence": policy.evidence,
        "changes": [
            {"table": c.table, "cell": c.cell, "value": c.value, "evidence": c.evidence}
            for c in policy.changes
        ],
        "not_modelled": list(policy.not_modelled),
        "unoffered": list(policy.unoffered_cells),
    }


def report_json(
    rows: Sequence[Row], policies: Sequence[Policy], bound: tuple[int, int], depth: int
) -> dict[str, Any]:
    """The whole report as one JSON object (``--json``)."""
    return {
        "bound": list(bound),
        "depth": depth,
        "ok": exit_status(rows) == 0,
        "rows": [
            {
                "invariant": row.invariant,
                "policy": row.policy,
                "verdict": row.verdict,
                "scope": row.scope,
                "seconds": round(row.seconds, 3),
                "detail": row.detail,
                "counterexample": None
                if row.counterexample is None
                else {
                    "file": None if row.path is None else str(row.path),
                    "explain": row.explain_command(),
                    "events": row.counterexample,
                },
                "proofs": [
                    {
                        "status": proof.status.value,
                        "seconds": round(proof.seconds, 3),
                        "detail": proof.detail,
                    }
                    for proof in row.proofs
                ],
            }
            for row in rows
        ],
        "policies": [policy_json(policy) for policy in policies],
    }


def rows_table(rows: Sequence[Row]) -> Table:
    """One line per (invariant, policy); the details are printed under the table."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title="proofs", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("invariant", no_wrap=True)
    table.add_column("policy", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("scope", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(
            row.invariant,
            row.policy,
            Text(row.verdict.upper(), style=_STYLE[row.verdict]),
            row.scope,
            f"{row.seconds:.2f}s",
        )
    return table


def total_line(rows: Sequence[Row]) -> str:
    """The line under the table: how many rows, of each verdict, and the solver's time."""
    verdicts = ", ".join(
        f"{sum(row.verdict == verdict for row in rows)} {verdict}" for verdict in _STYLE
    )
    seconds = sum(row.seconds for row in rows)
    return f"total: {counted(len(rows), 'proof')} ({verdicts}), {seconds:.2f}s"


def print_report(console: Console, rows: Sequence[Row], policies: Sequence[Policy]) -> None:
    """The report for people: the table and its total, each counterexample, each
    policy's caveats.  Into a file or a pipe the table keeps its whole width (no column
    is cut to fit 80 characters: nobody resizes a file)."""
    from rich.text import Text

    table = rows_table(rows)
    if not console.is_terminal:
        unbounded = console.options.update_width(1 << 16)
        console.width = max(console.width, console.measure(table, options=unbounded).maximum)
    console.print(table)
    console.print(total_line(rows))
    for row in rows:
        if row.verdict == "unknown":
            console.print(
                Text.assemble(
                    (f"{row.invariant} ({row.policy}) not proved: ", "yellow"),
                    (clean(row.detail), "dim"),
                    overflow="fold",
                )
            )
    for row in rows:
        events = row.counterexample
        if events is None:
            continue
        console.rule(
            Text.assemble(
                (row.policy, "bold"),
                " breaks ",
                (row.invariant, "bold"),
                f": {counted(len(events) - 1, 'event')} after response.created",
            ),
            style="red",
        )
        console.print(Text(clean(row.detail), style="dim", overflow="fold"))
        for event in events:
            console.print(Text(json_text(event), overflow="fold"))
        command = row.explain_command()
        console.print(
            Text.assemble(
                ("explain it: ", "dim"),
                command or f"rerun with --write-dir DIR, then {PROG} explain DIR/"
                f"{row.policy}-{row.invariant}.jsonl",
                ("  (the reference reducer's answer on this stream)", "dim"),
            )
        )
    for policy in policies:
        if not policy.not_modelled and not policy.unoffered:
            continue
        console.rule(Text.assemble("what the ", (policy.name, "bold"), " policy leaves out"))
        for note in policy.not_modelled:
            console.print(Text(f"- not modelled: {note}", overflow="fold"))
        if policy.unoffered:
            console.print(
                Text(
                    "- unoffered: this policy ignores the payload offer of "
                    f"{', '.join(policy.unoffered_cells)}; empty_never_erases and "
                    "latest_nonempty_wins are stated over offered candidates (and the "
                    "snapshot, which counts on arrival), so their PROVED rows do not cover "
                    "the other cells. See "
                    f"'{PROG} diff-policies reference {policy.name}'.",
                    overflow="fold",
                )
            )
