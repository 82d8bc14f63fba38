"""``responses-oracle reduce``: a stream in, the result contract out.

Prints one DESIGN section 3 result per response as JSON Lines (a file holding a tool
loop gives one line per response, each printed as soon as its response is closed), or
with ``--pretty`` a rich rendering for people: the output items as a table of
wire-shaped items with their provenance, then the diagnostics.  Exit status 0 when
every response reduced without an error-severity diagnostic, 1 otherwise, 2 for
unusable arguments or an unreadable file.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import InputSession, Tally, add_input_arguments, command_parser
from .render import result_view, stdout_console, write_json

if TYPE_CHECKING:
    from .common import Subparsers


def register(subparsers: Subparsers) -> None:
    """Add ``reduce`` to the command set."""
    parser = command_parser(
        subparsers,
        "reduce",
        summary="reduce a stream to its final output items (JSON Lines, one per response)",
        description="Reduce a Responses API event stream to its final output items and "
        "diagnostics: one JSON object per response (the result contract), one per line. "
        "Exit status: 0 when no response has an error-severity diagnostic, 1 otherwise, "
        "2 for unusable arguments or an unreadable file.",
        examples=(
            "reduce examples/parallel-calls.sse --pretty",
            "reduce capture.jsonl | jq '.items[].item.arguments'",
            "reduce - --format sse < capture.txt",
        ),
        run=run,
    )
    add_input_arguments(parser)
    parser.add_argument(
        "--pretty",
        action="store_true",
        help="render for people (tables) instead of JSON Lines",
    )


def run(args: argparse.Namespace) -> int:
    """Reduce the input and print each response's result."""
    tally = Tally()
    console = stdout_console() if args.pretty else None
    with InputSession(args) as session:
        for result in session.results():
            tally.add(result)
            session.make_room()
            if console is not None:
                console.print(result_view(result, tally.responses))
            else:
                write_json(result.to_json())
    return tally.exit_status(session)
