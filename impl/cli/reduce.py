"""``responses-oracle reduce``: streams in, the result contract out.

Prints one result per response (``Result.to_dict()``, whose JSON Schema is
``docs/schema/result.schema.json``) as JSON Lines: a file holding a tool loop gives one
line per response, each printed as soon as its response is closed, and several FILEs
give their lines one file after the other.  ``--pretty`` renders for people on a
terminal: the output items as a table of wire-shaped items with their provenance, then
the diagnostics (``render.result_view``); into a pipe or a file the output stays JSON
Lines.  Exit statuses: ``common.READING_EXIT``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import (
    Tally,
    add_input_arguments,
    add_pretty_argument,
    command_parser,
    plain_arguments,
    pretty,
    results,
    write_json,
)

if TYPE_CHECKING:
    from .common import Subparsers


def register(subparsers: Subparsers) -> None:
    """Add ``reduce`` to the command set."""
    parser = command_parser(
        subparsers,
        "reduce",
        description="Reduce Responses API event streams to their final output items and "
        "diagnostics: one JSON object per response (the result contract, "
        "docs/schema/result.schema.json), one per line, FILE after FILE. With no FILE, or "
        "'-', read standard input.",
        examples=(
            "reduce examples/parallel-calls.sse --pretty",
            "reduce capture.jsonl | jq '.items[].item.arguments'",
            "reduce examples/*.jsonl | jq -c '.response'",
            "reduce --format sse < capture.txt",
        ),
        run=run,
    )
    add_input_arguments(parser)
    add_pretty_argument(parser, "tables of the items and diagnostics")


def plain(files: list[str]) -> argparse.Namespace | None:
    """``reduce FILE...`` with no option: what its parser would make of ``files``, made
    without one (``common.plain_arguments``); None when one of them may be an option."""
    return plain_arguments(files, run)


def run(args: argparse.Namespace) -> int:
    """Reduce each input and print each response's result."""
    tally = Tally()
    console = None
    if pretty(args):
        from .render import result_view, stdout_console

        console = stdout_console()
    for result in results(args, tally):
        if console is None:
            write_json(result.to_dict())
        else:
            console.print(result_view(result, tally.responses))
    return tally.exit_status()
