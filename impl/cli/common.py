"""What every command shares: its parser, the input, the output, the exit status.

Theory of operation
-------------------
``COMMANDS`` names every command once: its name, the module that implements it and the
one-line summary the command list shows.  ``responses_oracle.cli.main`` imports only
the module of the command being run (the list needs only the summaries), so that
``--help`` and a small ``reduce`` do not pay for the proof, differential and rendering
code they do not use.  A command module has one entry point, ``register(subparsers)``,
which adds its parser through ``command_parser`` -- a description, examples and the
exit statuses, all shown by ``--help`` -- and names the ``run(args) -> int`` function
``main`` calls.

``add_input_arguments`` puts the same inputs and options on every command that reads
streams: any number of ``FILE``s (none, or ``-``, is standard input, as for ``cat`` and
``jq``), ``--format``, the front-end limits (``--max-event-bytes``,
``--max-total-bytes``), the reducer limits (``--max-entries``,
``--max-channel-chars``) and ``--quiet``.  ``inputs`` opens the files one after the
other, each as an ``InputSession`` that turns bytes into ``WireEvent``s and results.  A
``FILE`` is a stream argument as every command reads one (``stream_names.resolve``): a
path, or a bundled name (``examples/parallel-calls.sse`` from any folder, ``q07``,
``s03``, a vector name).
Every input is read the way ``wire.inputs`` says: gzip and Zstandard decompressed (by
suffix or magic number, standard input too), and an input that holds no Responses API
event is ``not_a_stream`` -- reported on stderr with the words ``audit`` writes in its
rows, nothing of it printed, exit status 3.
A file that cannot be opened is reported on stderr and the others are still read (as
``cat`` does); nothing of a file is printed before it is open.  A progress bar on
stderr is shown only where it helps and cannot hurt: stderr is a terminal,
``--quiet`` is not given, and the input is long (a file of at least
``PROGRESS_MIN_BYTES``, or standard input, whose length is unknown).

Output: machine output is JSON, one value a line (``write_json``), written with
``ensure_ascii=False`` for readable payloads; a value holding a lone surrogate (legal in
a JSON escape, not encodable as UTF-8) is written ASCII-escaped instead, so hostile
input cannot crash the printer.  ``--pretty`` means the same wherever it is offered:
a rendering for people *on a terminal* (``pretty``); into a pipe or a file the output
stays plain JSON Lines, so that ``--pretty`` left in a script never feeds tables to
``jq``.

Exit status (``Exit``), the same for every command that reads streams (``Tally``):
0 when every response reduced without an error-severity diagnostic; 1 when one did;
2 for unusable arguments or an unreadable file (a missing extra, a corrupt archive);
3 when an input held no response (it is empty, or no stream: text, binary data, a Chat
Completions stream, JSON that is no event -- an oracle that found nothing must not
pass); 141 when the reader of stdout went away (``| head -1``: output stops quietly,
as ``cat``'s does on SIGPIPE); 130 when interrupted.  Several conditions: the first
of 2, 3, 1 that holds.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from enum import IntEnum
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Final, TypeAlias

from responses_oracle.model.recordkit import NamedTuple

if TYPE_CHECKING:
    from responses_oracle.core.step import ReducerLimits
    from responses_oracle.result import Result
    from responses_oracle.wire.formats import InputFormat
    from responses_oracle.wire.records import Limits, WireEvent
    from rich.progress import Progress, TaskID

PROG: Final = "responses-oracle"
"""The command's name, as messages print it."""

STDIN: Final = "-"
"""The ``FILE`` argument that means standard input."""

HELP_WIDTH: Final = 79
"""Width of the help paragraphs (the examples must keep their lines, so no rewrapping)."""

PROGRESS_MIN_BYTES: Final = 1 << 20
"""Files shorter than this get no progress bar: they are reduced in a blink."""

_UNITS: Final[dict[str, int]] = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
"""Suffixes a quantity option accepts, in powers of 1024 (``16M`` = 16 MiB)."""

_QUANTITY: Final = r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*"
"""A quantity option's text (compiled by ``re``'s cache when one is given, not at start-up)."""


class Exit(IntEnum):
    """The exit statuses of every command (each ``--help`` lists the ones it uses)."""

    OK = 0
    """Nothing to report: every response is clean, every proof holds, no divergence."""
    FINDING = 1
    """What the command looks for was found: an error-severity diagnostic, a
    counterexample of the reference, a divergence, a failing vector."""
    USAGE = 2
    """Unusable arguments or an unreadable file; the message says what to do next."""
    NO_RESPONSE = 3
    """An input held no response: it is empty, or its format was not recognised."""
    INTERRUPTED = 130
    """Ctrl-C, as shells report a SIGINT."""
    CLOSED_PIPE = 141
    """The reader of stdout went away; as shells report a SIGPIPE (``cat | head``)."""


class CommandSpec(NamedTuple):
    """A command: its name, the module that implements it, its one-line summary."""

    name: str
    module: str
    summary: str


COMMANDS: Final[tuple[CommandSpec, ...]] = (
    CommandSpec(
        "reduce",
        "responses_oracle.cli.reduce",
        "reduce streams to their final output items (JSON Lines, one per response)",
    ),
    CommandSpec(
        "explain",
        "responses_oracle.cli.explain",
        "show, event by event, the route, state transition and diagnostics",
    ),
    CommandSpec(
        "replay",
        "responses_oracle.cli.replay",
        "print the next request's input items (one JSON array per response)",
    ),
    CommandSpec(
        "diff",
        "responses_oracle.cli.diff",
        "diff a candidate parser against the oracle on generated and recorded streams",
    ),
    CommandSpec(
        "vectors",
        "responses_oracle.cli.vectors",
        "export the conformance vectors, or check a candidate parser on them",
    ),
    CommandSpec(
        "prove",
        "responses_oracle.cli.prove",
        "prove the invariants with Z3, or refute a peer's policy with a shortest stream",
    ),
    CommandSpec(
        "diff-policies",
        "responses_oracle.cli.diff_policies",
        "find the shortest stream on which two policies give different results",
    ),
    CommandSpec(
        "agents",
        "responses_oracle.cli.agents",
        "run real agents and gateways against serve and report its verdicts",
    ),
    CommandSpec(
        "audit",
        "responses_oracle.cli.audit",
        "audit many recorded streams into a Parquet dataset and a summary",
    ),
    CommandSpec(
        "serve",
        "responses_oracle.cli.serve",
        "serve scenarios on 127.0.0.1 to a real client and judge its next request",
    ),
    CommandSpec(
        "proxy",
        "responses_oracle.cli.proxy",
        "stand in front of a provider on 127.0.0.1 and stream back its answers repaired",
    ),
)
"""The subcommands, in the order ``--help`` lists them."""

SUMMARIES: Final[dict[str, str]] = {command.name: command.summary for command in COMMANDS}
"""Command name → summary."""

ExitTable: TypeAlias = Mapping[int, str]
"""Exit status → what it means for one command."""

READING_EXIT: Final[ExitTable] = {
    Exit.OK: "every response reduced without an error-severity diagnostic",
    Exit.FINDING: "a response has an error-severity diagnostic",
    Exit.USAGE: "unusable arguments, or a FILE that cannot be read",
    Exit.NO_RESPONSE: "an input held no response: empty, or no stream (not_a_stream: "
    "text, binary data, Chat Completions, JSON that is no event; else try --format)",
}
"""The exit statuses of the commands that read streams (``reduce``, ``explain``...)."""

_ALWAYS_EXIT: Final[ExitTable] = {
    Exit.INTERRUPTED: "interrupted (Ctrl-C)",
    Exit.CLOSED_PIPE: "the reader of the output went away (| head): stops quietly",
}
"""The statuses every command may end with."""


if TYPE_CHECKING:
    Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"
    """What ``register`` receives: the ``responses-oracle`` parser's subcommand set."""

Run: TypeAlias = Callable[[argparse.Namespace], int]
"""A command's body: parsed arguments in, exit status out."""


def wrap(text: str) -> str:
    """``text`` as a help paragraph: the raw help formatter keeps line breaks as written."""
    import textwrap

    return textwrap.fill(text, HELP_WIDTH)


def exit_help(table: ExitTable) -> str:
    """The ``exit status:`` section of a ``--help``, with the statuses every command has
    (a command's table may say more of one of them: serve's 130)."""
    import textwrap

    rows = {**_ALWAYS_EXIT, **table}
    lines = [
        textwrap.fill(
            meaning, HELP_WIDTH, initial_indent=f"  {status:<4} ", subsequent_indent=" " * 7
        )
        for status, meaning in sorted(rows.items())
    ]
    return "exit status:\n" + "\n".join(lines)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it: ``COLUMNS`` when it
    is a positive number, else the width of stdout's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return 80
    try:
        columns = os.get_terminal_size(stdout.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description formatter, as wide as the terminal (``_columns``).

    argparse's own asks ``shutil`` for the width, and makes a formatter for every
    argument a parser adds: so every run, help or not, imported ``shutil`` (with
    ``bz2``, ``lzma`` and ``fnmatch``), a fifth of a bare Python's start-up.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    """argparse's parser, with ``HelpFormatter``, whose description and epilog are
    written when its help is shown: ``help_text`` returns them.

    Wrapping them imports ``textwrap`` and fills every paragraph; a run that shows no
    help needs neither.  The command's subparsers are of this class too.
    """

    def __init__(
        self,
        *args: Any,
        help_text: Callable[[], tuple[str, str]] | None = None,
        deferred: bool = False,
        **kwargs: Any,
    ) -> None:
        if deferred:
            # A command this run does not run (``build_parser``): only its name and
            # summary are read, by the top-level help or an invalid choice.  Made in
            # full on first use (``__getattr__``): argparse's parser, its ``-h`` and
            # the translations it looks up cost 7.6M instructions for twelve commands,
            # ~4% of a small reduce.
            self.__dict__["_deferred"] = (args, help_text, kwargs)
            return
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self._help_text = help_text

    if not TYPE_CHECKING:  # type checkers keep seeing argparse's attributes only

        def __getattr__(self, name: str) -> Any:
            """A deferred parser is made in full when first used; else the usual error."""
            deferred = self.__dict__.pop("_deferred", None)
            if deferred is None:
                raise AttributeError(
                    f"{type(self).__name__!r} object has no attribute {name!r}",
                    name=name,
                    obj=self,
                )
            args, help_text, kwargs = deferred
            self.__init__(*args, help_text=help_text, **kwargs)
            return getattr(self, name)

    def format_help(self) -> str:
        """The help, its description and epilog written first if they are not yet."""
        if self._help_text is not None:
            self.description, self.epilog = self._help_text()
            self._help_text = None
        return super().format_help()


def command_parser(
    subparsers: Subparsers,
    name: str,
    *,
    description: str,
    examples: tuple[str, ...],
    run: Run,
    exit_status: ExitTable = READING_EXIT,
    summary: str | None = None,
) -> Parser:
    """Add the command ``name``; ``examples`` are command lines shown under ``--help``
    (after ``responses-oracle``), then the ``exit_status`` table.  The summary is the
    one ``COMMANDS`` gives, unless ``summary`` names one (for an action of a command,
    such as ``vectors export``)."""
    def help_text() -> tuple[str, str]:
        epilog = "examples:\n" + "\n".join(f"  {PROG} {example}" for example in examples)
        return wrap(description), f"{epilog}\n\n{exit_help(exit_status)}"

    parser = subparsers.add_parser(
        name, help=summary if summary is not None else SUMMARIES[name], help_text=help_text
    )
    # The parser rides along so that ``main`` reports a stray argument with this
    # command's usage, not the top-level one.
    parser.set_defaults(run=run, parser=parser)
    return parser


class CliError(Exception):
    """A problem with the arguments or the input file: printed, then exit status 2.

    The message says what went wrong and what to do next.
    """


def report_error(error: CliError) -> None:
    """Print a ``CliError`` as every command does."""
    print(f"{PROG}: error: {error}", file=sys.stderr)


@contextmanager
def needs_proofs_extra(command: str) -> Iterator[None]:
    """Import the proof modules inside this block: a missing Z3 becomes a ``CliError``
    that says which extra to install, any other import error stays a bug."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name != "z3":
            raise
        raise CliError(
            f"{command} needs Z3: install the proofs extra "
            "(pip install 'responses-oracle[proofs]')"
        ) from None


def positive(unit: str) -> Callable[[str], int]:
    """An argparse type for a positive whole number of ``unit`` (events, steps...)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = 0
        if number < 1:
            raise argparse.ArgumentTypeError(f"expected a positive number of {unit}, got {text!r}")
        return number

    return parse


def quantity(text: str) -> int:
    """Parse a positive count such as ``65536``, ``64k`` or ``16MiB`` (argparse type)."""
    match = re.fullmatch(_QUANTITY, text, re.IGNORECASE)
    if match is None or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(
            f"expected a positive number such as 65536, 64k or 16M, got {text!r}"
        )
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def format_names() -> dict[str, InputFormat]:
    """``--format`` choice → front-end format (the CLI spells ``json_array`` ``json-array``)."""
    from responses_oracle.wire.formats import InputFormat

    return {member.value.replace("_", "-"): member for member in InputFormat}


def _import_reader() -> None:
    """Import what a stream-reading command runs: the reducer (with the wire front end).

    Called while its arguments are parsed: ``main`` parses with the cyclic collector
    off and freezes what was made, so no collection, nor the one at exit, walks these
    modules' objects (1.4M instructions of a small ``reduce``).
    """
    importlib.import_module("responses_oracle.reducer")


def input_defaults() -> dict[str, Any]:
    """The options ``add_input_arguments`` adds, each (by its ``dest``) with the value it
    takes when not given: the defaults its parser declares, and ``plain_arguments`` reads."""
    from responses_oracle.core.step import ReducerLimits
    from responses_oracle.wire.records import Limits

    wire, reducer = Limits(), ReducerLimits()
    return {
        "format": "auto",
        "max_event_bytes": wire.max_event_bytes,
        "max_total_bytes": wire.max_total_bytes,
        "max_entries": reducer.max_entries,
        "max_channel_chars": reducer.max_channel_chars,
        "quiet": False,
    }


def plain_arguments(files: list[str], run: Run) -> argparse.Namespace | None:
    """What a stream-reading command's parser (``add_input_arguments`` and
    ``add_pretty_argument``, under the ``responses-oracle`` parser) makes of ``files``
    when none is an option: ``None`` when one may be (it starts with ``-``).

    ``main`` runs such a command line without building a parser: argparse's parsers and
    the translations they look up (``gettext`` imports ``locale``) cost 8.7M
    instructions, ~5% of a small ``reduce``.  ``parser`` is ``None``: it is read only to
    report a stray argument, and a plain command line has none.
    ``tests/cli/test_cli_contract.py`` checks that the parser makes the same namespace.
    """
    if any(name.startswith("-") for name in files):
        return None
    _import_reader()
    return argparse.Namespace(
        version=None, files=files, **input_defaults(), pretty=False, run=run, parser=None
    )


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``FILE``s and the options every stream-reading command takes."""
    _import_reader()
    defaults = input_defaults()
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="streams to read, one after the other: SSE, JSON Lines, a JSON array of "
        "events, an HTTP recording, AxonHub lines or a WebSocket-mode transcript; '-' or "
        "none reads standard input",
    )
    parser.add_argument(
        "--format",
        choices=tuple(format_names()),
        default=defaults["format"],
        help="the input format (default: auto, detected from the first bytes of each FILE)",
    )
    add_limit_arguments(parser, defaults)
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=defaults["quiet"],
        help="no progress bar on stderr",
    )


READ_PAST: Final = (
    "a larger one is skipped unread: a limit_exceeded diagnostic, and the rest is read"
)
"""What a command that reads streams (``add_input_arguments``) does with an event over
``--max-event-bytes``: the front end keeps none of it, and reading goes on."""


def add_limit_arguments(
    parser: argparse.ArgumentParser,
    defaults: Mapping[str, Any] | None = None,
    *,
    oversized: str = READ_PAST,
) -> None:
    """Add the front-end and reducer limits (``--max-event-bytes``, ``--max-total-bytes``,
    ``--max-entries``, ``--max-channel-chars``); ``limits_from`` reads them back.
    ``defaults``: ``input_defaults()``, when the caller has it already; ``oversized``:
    what the command does with an event over ``--max-event-bytes`` (``READ_PAST``)."""
    if defaults is None:
        defaults = input_defaults()
    limits = parser.add_argument_group(
        "limits", "bounds for hostile input; passing one is a limit_exceeded diagnostic"
    )
    limits.add_argument(
        "--max-event-bytes",
        type=quantity,
        default=defaults["max_event_bytes"],
        metavar="N",
        help=f"largest event; {oversized} (default: 16M)",
    )
    limits.add_argument(
        "--max-total-bytes",
        type=quantity,
        default=defaults["max_total_bytes"],
        metavar="N",
        help="bytes of each input read at most (default: no limit)",
    )
    limits.add_argument(
        "--max-entries",
        type=quantity,
        default=defaults["max_entries"],
        metavar="N",
        help=f"output items per response (default: {defaults['max_entries']})",
    )
    limits.add_argument(
        "--max-channel-chars",
        type=quantity,
        default=defaults["max_channel_chars"],
        metavar="N",
        help="characters of deltas per payload (default: 64M)",
    )


def limits_from(args: argparse.Namespace) -> tuple[Limits, ReducerLimits]:
    """The front-end and reducer limits ``add_limit_arguments`` parsed; a ``CliError``
    for an unusable combination."""
    from responses_oracle.core.step import ReducerLimits
    from responses_oracle.wire.records import Limits

    reducer = ReducerLimits(max_entries=args.max_entries, max_channel_chars=args.max_channel_chars)
    try:
        wire = Limits(max_event_bytes=args.max_event_bytes, max_total_bytes=args.max_total_bytes)
    except ValueError as error:
        raise CliError(f"invalid limits: {error}") from None
    return wire, reducer


def add_pretty_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--pretty``, with the one meaning it has in every command (``pretty``)."""
    parser.add_argument(
        "--pretty",
        action="store_true",
        help=f"on a terminal, {what}; into a pipe or a file the output stays JSON Lines",
    )


def pretty(args: argparse.Namespace) -> bool:
    """Whether to render for people: ``--pretty`` was given and stdout is a terminal."""
    return bool(args.pretty) and sys.stdout.isatty()


def _open(path: str) -> tuple[IO[bytes], int | None]:
    """The input ``path`` names (``stream_names.resolve``: a file, or a bundled name) and
    its size when known; a ``CliError`` when it cannot be read."""
    if path == STDIN:
        if sys.stdin is None:
            raise CliError("standard input is closed; pass a FILE instead of '-'")
        return sys.stdin.buffer, None
    from responses_oracle.stream_names import resolve

    named = resolve(path)
    if named is not None and named.decoded is not None:
        # A stream with no file of its own (a vector, a generated case), or a vector file.
        data = named.jsonl()
        return io.BytesIO(data), len(data)
    try:
        stream = open(  # noqa: SIM115 - closed by InputSession.__exit__
            path if named is None or named.path is None else named.path, "rb"
        )
    except FileNotFoundError:
        raise CliError(
            f"cannot read {path}: no such file, nor a bundled name (q05, s01, "
            "examples/..., a vector name); check the path, or pass '-' to read standard input"
        ) from None
    except IsADirectoryError:
        raise CliError(f"cannot read {path}: it is a directory; pass a stream file") from None
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        size = os.fstat(stream.fileno()).st_size
    except OSError:
        size = None
    return stream, size


class InputSession:
    """One input being read: the open stream, its format and limits, the progress bar.

    Use it as a context manager; ``events()`` yields the input's ``WireEvent``s and
    ``results()`` their reduced responses.
    """

    def __init__(self, args: argparse.Namespace, path: str = STDIN) -> None:
        self.name: str = "<stdin>" if path == STDIN else path
        self.format = format_names()[args.format]
        self.wire_limits, self.limits = limits_from(args)
        from responses_oracle.extras import MissingExtra
        from responses_oracle.wire.inputs import StreamCheck, decompressed

        self._file, size = _open(path)
        self._owned = path != STDIN
        try:
            self._stream: IO[bytes] = decompressed(self._file, path)  # type: ignore[arg-type]
        except MissingExtra as error:
            self.close()
            raise CliError(f"cannot read {self.name}: {error}") from None
        except OSError as error:
            self.close()
            raise CliError(f"cannot read {self.name}: {error.strerror or error}") from None
        self.check = StreamCheck()
        """Whether the input is a stream (``wire.inputs``), as its events go by."""
        self._unshown: list[Result] = []
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if not args.quiet and sys.stderr.isatty() and (size is None or size >= PROGRESS_MIN_BYTES):
            self._progress, self._task = _progress_bar(self.name, size)

    def __enter__(self) -> InputSession:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
        self.close()

    def close(self) -> None:
        """Close the input file (standard input stays open)."""
        if self._owned:
            self._file.close()

    def events(self) -> Iterator[WireEvent]:
        """The input's events, decoded by the wire front end."""
        from responses_oracle.wire.formats import iter_wire_events

        return self.check.watch(iter_wire_events(self._chunks(), self.format, self.wire_limits))

    def admit(self, result: Result) -> bool:
        """Whether ``result`` may be shown: not when the input is no stream so far (then
        the reducer made it of no response event; ``verdict`` reports it instead)."""
        if self.check.recognised:
            return True
        self._unshown.append(result)
        return False

    def verdict(self) -> str | None:
        """None when the input was a stream; else why not (read it all first)."""
        return self.check.verdict(self._unshown)

    def results(self) -> Iterator[Result]:
        """Each response's result, as soon as the response is closed.

        A tool loop's results come out one by one while a live pipe is still open.
        """
        from responses_oracle.reducer import Reducer

        reducer = Reducer(limits=self.limits)
        for event in self.events():
            closed = len(reducer.results)
            reducer.feed(event)
            yield from filter(self.admit, reducer.results[closed:])
        closed = len(reducer.results)
        yield from filter(self.admit, reducer.finish()[closed:])

    def make_room(self) -> None:
        """Call before printing a result: on a shared terminal, the bar goes for good.

        Output already scrolling on the terminal shows the progress; hiding and
        redrawing the bar around every result of a long tool loop would cost more than
        the reduction itself.
        """
        if self._progress is not None and sys.stdout.isatty():
            self._progress.stop()
            self._progress = None

    def _chunks(self) -> Iterator[bytes]:
        from responses_oracle.wire.formats import CHUNK_BYTES

        # Read with read1 where there is one, as the front end does, so that a live pipe
        # yields each event as it arrives instead of after 64 KiB.
        from responses_oracle.wire.inputs import corrupt_errors

        corrupt = corrupt_errors()
        read = getattr(self._stream, "read1", self._stream.read)
        while True:
            try:
                chunk = read(CHUNK_BYTES)
            except corrupt as error:
                raise CliError(f"cannot read {self.name}: corrupt archive ({error})") from None
            except OSError as error:
                raise CliError(f"cannot read {self.name}: {error.strerror or error}") from None
            if not chunk:
                return
            if self._progress is not None and self._task is not None:
                self._progress.advance(self._task, len(chunk))
            yield chunk


def _progress_bar(name: str, size: int | None) -> tuple[Progress, TaskID]:
    """A transient progress bar on stderr for reading ``name`` (``size`` bytes, if known)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    return progress, progress.add_task(f"reducing {name}", total=size)


class Tally:
    """Counts what a command read and printed, and gives its exit status (``Exit``)."""

    def __init__(self) -> None:
        self.responses = 0
        self.failed = 0
        self.empty = 0
        self.unreadable = 0

    def add(self, result: Result) -> None:
        """Count one result; it fails when it carries an error-severity diagnostic."""
        self.responses += 1
        if not result.ok:
            self.failed += 1

    def not_a_stream(self, name: str, reason: str) -> None:
        """Count an input that held no response, and say why on stderr."""
        from responses_oracle.wire.inputs import NOT_A_STREAM

        self.empty += 1
        print(
            f"{PROG}: {name}: {NOT_A_STREAM}: {reason}; "
            "if it is a stream, name its format with --format",
            file=sys.stderr,
        )

    def exit_status(self) -> int:
        """The first of 2 (a file unreadable), 3 (an input without a response), 1 (a
        response with an error) that holds; else 0."""
        if self.unreadable:
            return Exit.USAGE
        if self.empty:
            return Exit.NO_RESPONSE
        return Exit.FINDING if self.failed else Exit.OK


def inputs(args: argparse.Namespace, tally: Tally) -> Iterator[InputSession]:
    """Each input of ``args.files`` (standard input when none), opened in turn.

    A file that cannot be opened is reported and counted, and the next one is read; an
    input that is no stream is reported (with the ``--format`` hint) and counted.
    """
    files: list[str] = args.files or [STDIN]
    if not args.files and sys.stdin is not None and sys.stdin.isatty():
        print(f"{PROG}: reading standard input (end it with Ctrl-D)", file=sys.stderr)
    for path in files:
        try:
            session = InputSession(args, path)
        except CliError as error:
            report_error(error)
            tally.unreadable += 1
            continue
        with session:
            yield session
        reason = session.verdict()
        if reason is not None:
            tally.not_a_stream(session.name, reason)


def results(args: argparse.Namespace, tally: Tally) -> Iterator[Result]:
    """Every response of every input (``inputs``), counted by ``tally``, each as soon as
    it is closed, with the progress bar out of the way of what is printed next."""
    for session in inputs(args, tally):
        for result in session.results():
            tally.add(result)
            session.make_room()
            yield result


def clean(text: str) -> str:
    """``text`` with lone surrogates escaped as ``\\udXXX``, so any console can encode it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def encodable(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON text that any UTF-8 stream can take."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return text if encodable(text) else json.dumps(value, ensure_ascii=True, indent=indent)


def write_json(value: Any, indent: int | None = None) -> None:
    """Print ``value`` as JSON on stdout: one line, or indented when ``indent`` is given.

    Flushed at once, so that a consumer of a live pipe sees each value as it is made.
    """
    sys.stdout.write(json_text(value, indent) + "\n")
    sys.stdout.flush()
