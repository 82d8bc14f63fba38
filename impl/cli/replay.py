"""``responses-oracle replay``: a stream in, the next request's ``input`` items out (R12).

Output format, one JSON array per response, one array a line (JSON Lines): the
wire-shaped items of the response in output order, stray gateway fields removed, each
client call without an output followed by its synthetic ``"aborted"`` output
(``replay.replay_input``).  A file holding a tool loop gives one line per response, in
order.  ``--pretty`` indents each array instead (then the output is a sequence of JSON
values, no longer one per line).  The exit status is that of ``reduce``: a replay built
from a response with an error-severity diagnostic exits 1.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..replay import replay_input
from .common import InputSession, Tally, add_input_arguments, command_parser
from .render import write_json

if TYPE_CHECKING:
    from .common import Subparsers

_PRETTY_INDENT = 2
"""Indentation of ``--pretty`` arrays."""


def register(subparsers: Subparsers) -> None:
    """Add ``replay`` to the command set."""
    parser = command_parser(
        subparsers,
        "replay",
        summary="print the next request's input items (one JSON array per response)",
        description="Reduce the stream and print, per response, the 'input' items a client "
        "sends back in its next request (rule R12): the output items, wire-shaped, with a "
        "synthetic \"aborted\" output after every call that has none. One JSON array per "
        "response, one array a line. Exit status as for reduce.",
        examples=(
            "replay examples/parallel-calls.sse",
            "replay capture.sse | tail -n 1 | jq '.[] | select(.type == \"function_call\")'",
        ),
        run=run,
    )
    add_input_arguments(parser)
    parser.add_argument(
        "--pretty", action="store_true", help="indent each array (no longer one a line)"
    )


def run(args: argparse.Namespace) -> int:
    """Reduce the input and print each response's replay ``input`` items."""
    tally = Tally()
    indent = _PRETTY_INDENT if args.pretty else None
    with InputSession(args) as session:
        for result in session.results():
            tally.add(result)
            session.make_room()
            write_json(replay_input(item.item for item in result.items), indent)
    return tally.exit_status(session)
