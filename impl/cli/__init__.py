"""The ``responses-oracle`` command line: a thin face over ``reduce``, traces and replay.

Theory of operation
-------------------
``main`` builds one ``argparse`` parser whose subcommands are ``common.COMMANDS``: each
a name, the module that implements it and a one-line summary.  Only the module of the
command being run is imported and asked to ``register`` its full parser; every other
command is listed by its summary alone.  So ``responses-oracle --help`` imports no
command at all, and ``reduce`` never imports the proofs, the differential harness or
the rendering library unless it is asked to print for people (``benchmarks/startup.py``
measures it).  Adding a command is one new module with ``register(subparsers)`` and one
entry in ``COMMANDS``.  A command line with no option that its module can parse alone
(its ``plain``: ``reduce FILE...``) builds no parser at all (``_plain``).

Start-up is what a short command mostly costs (``benchmarks/ratios.py --startup-only``):
a run that shows no help imports neither ``shutil`` nor ``textwrap`` (``common.Parser``
writes the help texts when shown), and the objects the imports make are frozen for the
cyclic collector while the command runs (``_main``).

The CLI holds no reduction logic: it reads bytes (``common.InputSession``), hands them
to the wire front end and the ``Reducer``, and prints what comes back.

Exit status (``common.Exit``), listed in every ``--help``: 0 nothing to report; 1 what
the command looks for was found (an error-severity diagnostic, a counterexample, a
divergence); 2 unusable arguments or an unreadable file, with a message on stderr
saying what to do next; 3 an input held no response; 130 interrupted; 141 the reader of
the output went away (``| head``), which ends the command quietly.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from .common import COMMANDS, PROG, CliError, Exit, Parser, exit_help, report_error, wrap

if TYPE_CHECKING:
    from .common import Subparsers


class Command(Protocol):
    """What a command module provides."""

    def register(self, subparsers: Subparsers) -> None:
        """Add the command's parser (``common.command_parser``) to ``subparsers``."""


_DESCRIPTION: Final = (
    "The reference answer to 'what are the final output items and tool calls of this "
    "OpenAI Responses API event stream?' -- ids, call ids and payloads reconciled by the "
    "rules of a formally checked model, every finding reported as a diagnostic. The rules "
    "and invariants are in the docs site (docs/rules/, docs/invariants.md)."
)


def _epilog() -> str:
    """The top-level help's epilog (written when the help is shown)."""
    return f"""examples:
  {PROG} reduce examples/parallel-calls.sse --pretty
  {PROG} explain examples/mantle-missing-id.jsonl
  {PROG} replay examples/parallel-calls.sse
  curl -sN ... | {PROG} reduce | jq '.items[].item'

{exit_help({
    Exit.OK: "nothing to report (no error-severity diagnostic, proof holds...)",
    Exit.FINDING: "found what it looks for (an error diagnostic, a counterexample...)",
    Exit.USAGE: "unusable arguments, or a file that cannot be read",
    Exit.NO_RESPONSE: "an input held no response",
})}

'{PROG} COMMAND --help' shows each command's options, examples and exit statuses."""


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from responses_oracle import __version__

        sys.stdout.write(f"{PROG} {__version__}\n")
        parser.exit(0)


def _chosen(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs: its first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The ``responses-oracle`` parser: every command listed by its summary, and the one
    ``argv`` runs (its first argument that is not an option) registered in full; the
    others' parsers are made when first used (``common.Parser``'s ``deferred``)."""
    parser = Parser(prog=PROG, help_text=lambda: (wrap(_DESCRIPTION), _epilog()))
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    chosen = _chosen(argv)
    for spec in COMMANDS:
        if spec.name == chosen:
            module: Command = importlib.import_module(spec.module)
            module.register(subparsers)
        else:
            subparsers.add_parser(spec.name, help=spec.summary, deferred=True)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``responses-oracle`` with ``argv`` (default: the process arguments).

    Returns the exit status; never raises ``SystemExit`` (``--help`` returns 0, an
    argument error 2).
    """
    return _main(argv, thaw=True)


def console() -> int:
    """The ``responses-oracle`` console script: ``main`` in a process that exits next.

    What ``_main`` froze stays frozen: the interpreter's last collection, at exit,
    would walk every object the imports made to free none of them (~6% of a small
    ``reduce``, 19M instructions).
    """
    return _main(None, thaw=False)


def _main(argv: list[str] | None, *, thaw: bool) -> int:
    """``main``; ``thaw``: hand the objects frozen at start-up back to the collector."""
    arguments = sys.argv[1:] if argv is None else argv
    # Building the parser imports the command and what it runs (for reduce: the core,
    # the model's tables, the wire front end): tens of thousands of long-lived objects
    # and next to no garbage.  So the cyclic collector is off while they are made and
    # they are frozen: no later pass walks them.  A caller that runs without the
    # collector, or froze objects of its own, keeps its collector as it was.
    ours = gc.isenabled() and gc.get_freeze_count() == 0
    if ours:
        gc.disable()
    try:
        # A plain command line is parsed without a parser (``_plain``).
        made = _plain(arguments) or build_parser(arguments)
        if ours:
            gc.freeze()
    except KeyboardInterrupt:
        # Ctrl-C while the command's modules are still being imported: the same quiet
        # 130 as later, not an import traceback.
        return _interrupted()
    finally:
        if ours:
            gc.enable()
    try:
        if isinstance(made, argparse.ArgumentParser):
            return _run(made, arguments)
        return _execute(made)
    finally:
        if ours and thaw:
            gc.unfreeze()


def _plain(arguments: list[str]) -> argparse.Namespace | None:
    """The arguments, parsed without a parser by the command they run, when it can
    (its module's ``plain``: ``reduce FILE...``); else None, and argparse parses them."""
    chosen = arguments[0] if arguments else None
    spec = next((spec for spec in COMMANDS if spec.name == chosen), None)
    if spec is None:
        return None
    plain = getattr(importlib.import_module(spec.module), "plain", None)
    return None if plain is None else plain(arguments[1:])


def _run(parser: argparse.ArgumentParser, arguments: list[str]) -> int:
    """``main`` once its parser is built."""
    try:
        args, stray = parser.parse_known_args(arguments)
        if stray:
            # Reported by the command's own parser, so its usage line is the one shown.
            command: argparse.ArgumentParser = getattr(args, "parser", parser)
            command.error(f"unrecognized arguments: {' '.join(stray)}")
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else Exit.USAGE
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return Exit.USAGE
    return _execute(args)


def _execute(args: argparse.Namespace) -> int:
    """Run the command ``args`` names (``args.run``)."""
    try:
        status: int = args.run(args)
    except CliError as error:
        report_error(error)
        return Exit.USAGE
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as cat does, and keep the
        # interpreter from reporting the same broken pipe when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return Exit.CLOSED_PIPE
    return status


def _interrupted() -> int:
    """Ctrl-C before the command said what it had done: one line, status 130."""
    print(f"{PROG}: interrupted", file=sys.stderr)
    return Exit.INTERRUPTED
