"""The ``responses-oracle`` command line: a thin face over ``reduce``, traces and replay.

Theory of operation
-------------------
``main`` builds one ``argparse`` parser whose subcommands come from ``COMMANDS``, an
explicit tuple of command modules.  A command module has one job and one entry point,
``register(subparsers)``, which adds its parser through ``common.command_parser`` and
names the ``run(args) -> int`` function ``main`` calls.  Adding a command (``prove``,
``diff``, ``diff-policies``, ``vectors``) is one new module and one entry in
``COMMANDS``; nothing else changes.

The CLI holds no reduction logic: it reads bytes (``common.InputSession``), hands them
to the wire front end and the ``Reducer``, and prints what comes back (``render``).

Exit status, the same for every command: 0 when every response reduced without an
error-severity diagnostic; 1 when one did (or the input held no response); 2 for
unusable arguments or an unreadable file, with a message on stderr saying what to do
next; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Final, Protocol

from . import audit, diff, diff_policies, explain, prove, reduce, replay, vectors
from .common import PROG, CliError, wrap

if TYPE_CHECKING:
    from .common import Subparsers


class Command(Protocol):
    """What a command module provides."""

    def register(self, subparsers: Subparsers) -> None:
        """Add the command's parser (``common.command_parser``) to ``subparsers``."""


COMMANDS: Final[tuple[Command, ...]] = (
    reduce,
    explain,
    replay,
    diff,
    vectors,
    prove,
    diff_policies,
    audit,
)
"""The subcommands, in the order ``--help`` lists them."""

_DESCRIPTION: Final = (
    "The reference answer to 'what are the final output items and tool calls of this "
    "OpenAI Responses API event stream?' -- ids, call ids and payloads reconciled by the "
    "rules of a formally checked model, every finding reported as a diagnostic."
)

_EPILOG: Final = f"""examples:
  {PROG} reduce examples/parallel-calls.sse --pretty
  {PROG} explain examples/mantle-missing-id.jsonl
  {PROG} replay examples/parallel-calls.sse

exit status: 0 no error-severity diagnostic, 1 at least one, 2 unusable arguments
or unreadable file.  '{PROG} COMMAND --help' shows each command's options."""

_INTERRUPTED: Final = 130
"""Exit status after Ctrl-C, as shells report a SIGINT."""


def _version() -> str:
    try:
        return version("responses-oracle")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The ``responses-oracle`` parser with every command of ``COMMANDS``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=wrap(_DESCRIPTION),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``responses-oracle`` with ``argv`` (default: the process arguments).

    Returns the exit status; never raises ``SystemExit`` (``--help`` returns 0, an
    argument error 2).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.run(args)
    except CliError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return _INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep the interpreter from
        # reporting the same broken pipe again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
