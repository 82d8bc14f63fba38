"""``responses-oracle diff-policies A B``: the shortest stream on which two policies differ.

A and B are ``reference`` or a peer's policy (``opencode``, ``axonhub``, ``codex``;
``proofs.policies``).  The search (``proofs.diff_policies.shortest_difference``) reduces
every stream of one function call in shortlex order with both policies' generated
reducers, up to ``--length`` events after ``response.created``, and stops at the first
whose results differ (``Result.to_dict()`` without diagnostics; with ``--diagnostics``
including them).  It prints the stream, one event a line with its shape's name, and the
two results side by side; ``--json`` prints one JSON object for tools, and ``--write
FILE`` keeps the stream for ``responses-oracle explain``.  Deterministic.

Exit status, as diff(1): 0 when no stream up to the length tells A and B apart, 1 when
one does (so a script chains the next command with ``;``, not ``&&``), 2 for unusable
arguments (or without Z3, which the proofs package needs).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .common import PROG, CliError, Exit, command_parser, needs_proofs_extra, positive
from .render import json_text, json_view, stdout_console, write_json

if TYPE_CHECKING:
    from ..proofs.distinguishing import PolicyDiff
    from .common import Subparsers


def register(subparsers: Subparsers) -> None:
    """Add ``diff-policies`` to the command set."""
    parser = command_parser(
        subparsers,
        "diff-policies",
        description="Search the streams of one function call (added, delta, "
        "arguments.done and output_item.done with full or empty arguments, "
        "response.completed with a full, empty or absent snapshot, response.incomplete; "
        "repeats included) shortest first, reduce each with the generated reducers of "
        "policies A and B (reference, opencode, axonhub, codex), and print the first "
        "stream on which their results differ, with both results. As diff(1), finding "
        "one exits 1: chain the next command with ';', not '&&'. Needs the proofs extra: "
        "pip install 'responses-oracle[proofs]'.",
        examples=(
            "diff-policies reference axonhub",
            "diff-policies opencode codex --json | jq '.stream'",
            f"diff-policies reference codex --write stream.jsonl; {PROG} explain stream.jsonl",
        ),
        run=run,
        exit_status={
            Exit.OK: "no stream up to --length tells A and B apart",
            Exit.FINDING: "a stream tells them apart (it is printed)",
            Exit.USAGE: "unusable arguments, a --write FILE that cannot be written, or no "
            "Z3 (the proofs extra)",
        },
    )
    parser.add_argument("a", metavar="A", help="a policy: reference, opencode, axonhub, codex")
    parser.add_argument("b", metavar="B", help="another policy")
    parser.add_argument(
        "--length",
        type=positive("events"),
        default=None,
        metavar="N",
        help="events after response.created tried at most (default: 6)",
    )
    parser.add_argument(
        "--diagnostics",
        action="store_true",
        help="also compare the diagnostics (default: items and response status only)",
    )
    parser.add_argument(
        "--write",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the stream found as JSON Lines (for explain)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Search, print what was found, and exit as diff(1) does."""
    with needs_proofs_extra("diff-policies"):
        from ..proofs.counterexample import to_jsonl
        from ..proofs.distinguishing import DEFAULT_LENGTH, shortest_difference
        from ..proofs.policies import POLICIES
    for name in (args.a, args.b):
        if name not in POLICIES:
            raise CliError(f"no policy named {name!r}; choose among {', '.join(POLICIES)}")
    found = shortest_difference(
        POLICIES[args.a].tables,
        POLICIES[args.b].tables,
        args.length or DEFAULT_LENGTH,
        args.diagnostics,
    )
    difference = found.difference
    if difference is not None and args.write is not None:
        try:
            args.write.write_text(to_jsonl(difference.events), encoding="utf-8")
        except OSError as error:
            raise CliError(f"cannot write {args.write}: {error.strerror or error}") from None
    if args.json:
        write_json(report_json(found))
    else:
        print_report(stdout_console(), found, args.write)
    return Exit.OK if difference is None else Exit.FINDING


def report_json(found: PolicyDiff) -> dict[str, Any]:
    """The search's outcome as one JSON object (``--json``)."""
    difference = found.difference
    return {
        "a": found.a,
        "b": found.b,
        "length": found.max_length,
        "diagnostics": found.diagnostics,
        "identical_tables": found.identical,
        "searched": found.searched,
        "found": difference is not None,
        "shapes": list(difference.shapes) if difference is not None else None,
        "stream": list(difference.events) if difference is not None else None,
        "results": {found.a: difference.a, found.b: difference.b}
        if difference is not None
        else None,
    }


def print_report(console: Console, found: PolicyDiff, written: Path | None) -> None:
    """The stream and the two results, side by side, for people."""
    difference = found.difference
    if difference is None:
        why = (
            "their tables are identical, so their reducers are the same code"
            if found.identical
            else f"no stream of up to {found.max_length} events after response.created "
            f"tells them apart ({found.searched} streams searched)"
        )
        console.print(Text.assemble((found.a, "bold"), " and ", (found.b, "bold"), f": {why}"))
        return
    console.print(
        Text.assemble(
            (found.a, "bold"),
            " and ",
            (found.b, "bold"),
            f" differ on this stream of {len(difference.shapes)} "
            f"event{'s' if len(difference.shapes) != 1 else ''} after "
            f"response.created ({found.searched} streams searched, shortest first)",
        )
    )
    stream = Table(box=box.SIMPLE_HEAD, expand=True)
    stream.add_column("#", justify="right", no_wrap=True)
    stream.add_column("shape", no_wrap=True)
    stream.add_column("event", ratio=1)
    names = ("", *difference.shapes)
    for number, (name, event) in enumerate(zip(names, difference.events, strict=True)):
        stream.add_row(str(number), name, Text(json_text(event), overflow="fold"))
    console.print(stream)
    results = Table(title="results", title_justify="left", expand=True)
    results.add_column(found.a, ratio=1)
    results.add_column(found.b, ratio=1)
    results.add_row(json_view(difference.a), json_view(difference.b))
    console.print(results)
    if written is not None:
        console.print(Text.assemble(("explain it: ", "dim"), f"{PROG} explain {written}"))
