"""What every command shares: its parser, the input options, the input, the exit status.

Theory of operation
-------------------
``command_parser`` adds a command to the ``responses-oracle`` parser in one uniform
shape: a one-line summary for the command list, a description, and an epilog of
examples (every ``--help`` shows at least one).  A command module calls it from its
``register(subparsers)`` and sets ``run``, the function ``main`` calls with the parsed
arguments; that is the whole contract a new command has to meet.

``add_input_arguments`` puts the same positional ``FILE`` and the same options on every
command that reads a stream: ``--format``, the front-end limits (``--max-event-bytes``,
``--max-total-bytes``), the reducer limits (``--max-entries``, ``--max-channel-chars``)
and ``--quiet``.  ``InputSession`` turns those parsed options into ``WireEvent``s: it
opens the file *before* anything is printed, so an unreadable file is a ``CliError``
(exit status 2) and never half an output, then pulls byte chunks through
``wire.formats.iter_wire_events``, advancing a progress bar on stderr as it goes.

The bar is shown only where it helps and cannot hurt: stderr is a terminal, ``--quiet``
is not given, and the input is long (a file of at least ``PROGRESS_MIN_BYTES``, or
standard input, whose length is unknown).  It is transient, and it goes away for good
when a command prints its first result to the same terminal (``make_room``).

``Tally`` decides the exit status every command shares: 0 when every response reduced
without an error-severity diagnostic, 1 otherwise -- and 1 when the input held no
response at all, because an oracle that found nothing must not pass.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import IO, TYPE_CHECKING, Final, TypeAlias

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from ..core.step import ReducerLimits
from ..reducer import Reducer
from ..result import Result
from ..wire.formats import CHUNK_BYTES, InputFormat, iter_wire_events
from ..wire.records import Limits, WireEvent

PROG: Final = "responses-oracle"
"""The command's name, as messages print it."""

STDIN: Final = "-"
"""The ``FILE`` argument that means standard input."""

FORMATS: Final[dict[str, InputFormat]] = {
    member.value.replace("_", "-"): member for member in InputFormat
}
"""``--format`` choice → front-end format (the CLI spells ``json_array`` ``json-array``)."""

HELP_WIDTH: Final = 79
"""Width of the help paragraphs (the examples must keep their lines, so no rewrapping)."""

PROGRESS_MIN_BYTES: Final = 1 << 20
"""Files shorter than this get no progress bar: they are reduced in a blink."""

_UNITS: Final[dict[str, int]] = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
"""Suffixes a quantity option accepts, in powers of 1024 (``16M`` = 16 MiB)."""

_QUANTITY: Final = re.compile(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", re.IGNORECASE)


if TYPE_CHECKING:
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
    """What ``register`` receives: the ``responses-oracle`` parser's subcommand set."""

Run: TypeAlias = Callable[[argparse.Namespace], int]
"""A command's body: parsed arguments in, exit status out."""


def wrap(text: str) -> str:
    """``text`` as a help paragraph: the raw help formatter keeps line breaks as written."""
    return textwrap.fill(text, HELP_WIDTH)


def command_parser(
    subparsers: Subparsers,
    name: str,
    *,
    summary: str,
    description: str,
    examples: tuple[str, ...],
    run: Run,
) -> argparse.ArgumentParser:
    """Add the command ``name``; ``examples`` are command lines shown under ``--help``."""
    epilog = "examples:\n" + "\n".join(f"  {PROG} {example}" for example in examples)
    parser = subparsers.add_parser(
        name,
        help=summary,
        description=wrap(description),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run)
    return parser


class CliError(Exception):
    """A problem with the arguments or the input file: printed, then exit status 2.

    The message says what went wrong and what to do next.
    """


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
    match = _QUANTITY.fullmatch(text)
    if match is None or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(
            f"expected a positive number such as 65536, 64k or 16M, got {text!r}"
        )
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``FILE`` and the options every stream-reading command takes."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the stream to read: SSE, JSON Lines, a JSON array of events, an HTTP "
        "recording, AxonHub lines or a WebSocket-mode transcript; '-' reads standard input",
    )
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        default="auto",
        help="the input format (default: auto, detected from the first bytes)",
    )
    limits = parser.add_argument_group(
        "limits", "bounds for hostile input; passing one is a limit_exceeded diagnostic"
    )
    defaults, reducer_defaults = Limits(), ReducerLimits()
    limits.add_argument(
        "--max-event-bytes",
        type=quantity,
        default=defaults.max_event_bytes,
        metavar="N",
        help="largest event; a larger one is skipped (default: 16M)",
    )
    limits.add_argument(
        "--max-total-bytes",
        type=quantity,
        default=defaults.max_total_bytes,
        metavar="N",
        help="bytes of input read at most (default: no limit)",
    )
    limits.add_argument(
        "--max-entries",
        type=quantity,
        default=reducer_defaults.max_entries,
        metavar="N",
        help=f"output items per response (default: {reducer_defaults.max_entries})",
    )
    limits.add_argument(
        "--max-channel-chars",
        type=quantity,
        default=reducer_defaults.max_channel_chars,
        metavar="N",
        help="characters of deltas per payload (default: 64M)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")


def _open(path: str) -> tuple[IO[bytes], int | None]:
    """The input stream and its size when known; a ``CliError`` when it cannot be read."""
    if path == STDIN:
        if sys.stdin is None:
            raise CliError("standard input is closed; pass a FILE instead of '-'")
        return sys.stdin.buffer, None
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed by InputSession.__exit__
    except FileNotFoundError:
        raise CliError(
            f"cannot read {path}: no such file; check the path, or pass '-' to read standard input"
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

    def __init__(self, args: argparse.Namespace) -> None:
        self.name: str = "<stdin>" if args.file == STDIN else args.file
        self.format = FORMATS[args.format]
        self.limits = ReducerLimits(
            max_entries=args.max_entries, max_channel_chars=args.max_channel_chars
        )
        try:
            self.wire_limits = Limits(
                max_event_bytes=args.max_event_bytes, max_total_bytes=args.max_total_bytes
            )
        except ValueError as error:
            raise CliError(f"invalid limits: {error}") from None
        self._stream, size = _open(args.file)
        self._owned = args.file != STDIN
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if not args.quiet and sys.stderr.isatty() and (size is None or size >= PROGRESS_MIN_BYTES):
            self._progress = Progress(
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
            self._task = self._progress.add_task(f"reducing {self.name}", total=size)

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
        if self._owned:
            self._stream.close()

    def events(self) -> Iterator[WireEvent]:
        """The input's events, decoded by the wire front end."""
        return iter_wire_events(self._chunks(), self.format, self.wire_limits)

    def results(self) -> Iterator[Result]:
        """Each response's result, as soon as the response is closed.

        A tool loop's results come out one by one while a live pipe is still open.
        """
        reducer = Reducer(limits=self.limits)
        for event in self.events():
            closed = len(reducer.results)
            reducer.feed(event)
            yield from reducer.results[closed:]
        closed = len(reducer.results)
        yield from reducer.finish()[closed:]

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
        # Read with read1 where there is one, as the front end does, so that a live pipe
        # yields each event as it arrives instead of after 64 KiB.
        read = getattr(self._stream, "read1", self._stream.read)
        while True:
            try:
                chunk = read(CHUNK_BYTES)
            except OSError as error:
                raise CliError(f"cannot read {self.name}: {error.strerror or error}") from None
            if not chunk:
                return
            if self._progress is not None and self._task is not None:
                self._progress.advance(self._task, len(chunk))
            yield chunk


class Tally:
    """Counts the results a command printed and gives its exit status."""

    def __init__(self) -> None:
        self.responses = 0
        self.failed = 0

    def add(self, result: Result) -> None:
        """Count one result; it fails when it carries an error-severity diagnostic."""
        self.responses += 1
        if not result.ok:
            self.failed += 1

    def exit_status(self, session: InputSession) -> int:
        """0 when every response is ok, 1 otherwise or when there was no response."""
        if self.responses == 0:
            print(
                f"{PROG}: no events in {session.name}; if it is not empty, "
                "name its format with --format",
                file=sys.stderr,
            )
            return 1
        return 0 if self.failed == 0 else 1
