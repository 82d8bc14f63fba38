"""``responses-oracle replay``: streams in, the next request's ``input`` items out (R12).

Output format, one JSON array per response, one array a line (JSON Lines): the
wire-shaped items of the response in output order, stray gateway fields removed, each
client call without an output followed by its synthetic ``"aborted"`` output
(``replay.replay_input``).  A file holding a tool loop gives one line per response, in
order; several FILEs follow one another.  ``--pretty`` renders each array for people
on a terminal (highlighted, indented JSON under a title per response); into a pipe or a
file the output stays JSON Lines.  Exit statuses: those of ``reduce``
(``common.READING_EXIT``): a replay built from a response with an error-severity
diagnostic exits 1.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..next_input import replay_input
from .common import (
    Tally,
    add_input_arguments,
    add_pretty_argument,
    command_parser,
    pretty,
    results,
    write_json,
)

if TYPE_CHECKING:
    from .common import Subparsers


def register(subparsers: Subparsers) -> None:
    """Add ``replay`` to the command set."""
    parser = command_parser(
        subparsers,
        "replay",
        description="Reduce the streams and print, per response, the 'input' items a client "
        "sends back in its next request (rule R12, docs/rules/R12.md): the output items, "
        "wire-shaped, with a synthetic \"aborted\" output after every call that has none. "
        "One JSON array per response, one array a line. With no FILE, or '-', read "
        "standard input.",
        examples=(
            "replay examples/parallel-calls.sse",
            "replay capture.sse | tail -n 1 | jq '.[] | select(.type == \"function_call\")'",
        ),
        run=run,
    )
    add_input_arguments(parser)
    add_pretty_argument(parser, "each array as highlighted, indented JSON")


def run(args: argparse.Namespace) -> int:
    """Reduce each input and print each response's replay ``input`` items."""
    tally = Tally()
    console = None
    if pretty(args):
        from .render import replay_view, stdout_console

        console = stdout_console()
    for result in results(args, tally):
        items = replay_input(item.item for item in result.items)
        if console is None:
            write_json(items)
        else:
            console.print(replay_view(result, items, tally.responses))
    return tally.exit_status()
