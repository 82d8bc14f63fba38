"""``responses-oracle serve``: a loopback Responses endpoint that plays scenarios and
judges what the client sends back.

A thin face over ``responses_oracle.serve``: the arguments become scenarios
(``load_scenario``), overrides and a ``Framing``; ``serve_forever`` prints the
``listening on http://127.0.0.1:PORT/v1`` line first (flushed, so a harness can read
the port from a pipe), serves until SIGINT/SIGTERM or, with ``--once``, until every
scenario was served and continued, then writes ``DIR/verdicts.json`` and prints one
line per call.

Exit status: 0 when every verdict holds (or does not apply), 1 when one fails or a
scenario was never asked for, 2 for unusable arguments (a SCENARIO that finds nothing,
a ``--deviation`` the scenario does not carry,
a host other than 127.0.0.1, a port out of range or in use, bad ``--args`` JSON), 130
when interrupted (Ctrl-C: the verdicts are still written and printed first, as every
command's 130 means).  A harness that wants the verdicts' status ends serve with
SIGTERM, ``--once`` or ``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .common import CliError, Exit, ExitTable, command_parser

if TYPE_CHECKING:
    from ..serve.judge import Verdicts
    from .common import Subparsers

_EXTRA: Final = frozenset({"aiohttp", "jsonschema"})
"""The modules of the ``serve`` extra: without one, ``serve`` says which extra to install."""

SERVE_EXIT: Final[ExitTable] = {
    Exit.OK: "every verdict holds or does not apply",
    Exit.FINDING: "a verdict failed (a call dropped, run with other arguments, replayed "
    "unfaithfully or invalidly), or a scenario was never asked for",
    Exit.USAGE: "unusable arguments: a SCENARIO that finds nothing, a --deviation it does "
    "not carry, a host other than "
    "127.0.0.1, a port out of range (0-65535) or in use, --args that is not JSON",
    Exit.INTERRUPTED: "interrupted (Ctrl-C), after writing and printing the verdicts; "
    "SIGTERM, --once and --timeout end with the verdicts' status",
}

PORTS: Final = range(0, 65536)
"""The ports --port takes (0: a free one)."""

_DESCRIPTION = (
    "Listen on 127.0.0.1 as a Responses API (POST /v1/responses and /responses, GET "
    "/v1/models) and play each SCENARIO to one conversation: the first request that offers "
    "tools gets the first scenario, its calls renamed onto an offered tool with harmless "
    "arguments (an echo for shell tools); later requests get a short text answer. Then "
    "judge the client's next request per call: executed, history_faithful, api_valid "
    "(docs: the 'Checking a client over HTTP' page). A SCENARIO is a name `agents --list` "
    "shows (q05, s01, peers-unconfirmed-call: a complete base stream plus its declared "
    "deviations), a stream file or a conformance vector file, a quirk file, a stream the "
    "package ships (examples/parallel-calls.sse, captures/...), a generated case "
    "(seed7/12) or a conformance vector name. The first stdout line is 'listening on "
    "http://127.0.0.1:PORT/v1'; every request goes to DIR/requests.jsonl, the verdicts to "
    "DIR/verdicts.json on exit."
)


def register(subparsers: Subparsers) -> None:
    """Add ``serve`` to the command set."""
    parser = command_parser(
        subparsers,
        "serve",
        description=_DESCRIPTION,
        examples=(
            "serve q05 --port 0 --out run/   # then point OPENAI_BASE_URL at the printed URL",
            "serve examples/parallel-calls.sse seed7/12 --once --out run/",
            'serve q07 --tool lookup --args \'{"query": "{marker}"}\' --out run/',
            "serve q05 --framing data-only,chunked,crlf --out run/",
            "serve q05 --twin --once --timeout 60 --out run-twin/   # its clean twin",
            "serve r6_done_only_item_is_recovered --deviation empty-terminal-output "
            "--out run/   # one deviation of its two",
        ),
        run=run,
        exit_status=SERVE_EXIT,
    )
    parser.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="what to play, in order")
    parser.add_argument("--port", type=int, default=0, help="port to bind (default 0: a free one)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="only 127.0.0.1 is accepted (anything else exits 2)"
    )
    parser.add_argument(
        "--out",
        default="serve-out",
        metavar="DIR",
        help="folder for requests.jsonl and verdicts.json (default serve-out)",
    )
    parser.add_argument(
        "--once",
        action="store_true",
        help="exit once every scenario was served and its next request came",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS[,TOTAL]",
        help="end once no request came for SECONDS (idle), or TOTAL seconds after the "
        "start (overall); default with --once 120,600, without it none",
    )
    parser.add_argument(
        "--twin",
        action="store_true",
        help="play each scenario's clean twin: a built-in scenario's complete base "
        "without its deviations, any other stream's answer re-emitted as a valid stream; "
        "mapped the same way (what a verdict is checked against)",
    )
    parser.add_argument(
        "--deviation",
        action="append",
        default=[],
        metavar="NAME",
        help="play a built-in scenario's base with only this deviation of its own "
        "(repeatable; agents --list shows each scenario's; the catalogue: "
        "docs/usage/serve.md); --twin plays the base with none",
    )
    parser.add_argument(
        "--tool",
        action="append",
        default=[],
        metavar="NAME",
        help="map every call onto this tool (pair with --args)",
    )
    parser.add_argument(
        "--args",
        action="append",
        default=[],
        metavar="JSON",
        help="the arguments for --tool; the text {marker} becomes the call's marker",
    )
    parser.add_argument(
        "--framing",
        default="events",
        metavar="WORDS",
        help="events (default) or data-only, plus chunked and crlf, comma-separated",
    )


def run(args: argparse.Namespace) -> int:
    """Load the scenarios, serve, print the verdicts; the exit status."""
    try:
        from ..serve.mapping import Override
        from ..serve.scenarios import ScenarioError, load_scenario
        from ..serve.server import (
            INTERRUPTED,
            ONCE_TIMEOUT,
            Framing,
            ServeError,
            Timeout,
            bind_host,
            serve_forever,
        )
    except ModuleNotFoundError as error:
        if error.name not in _EXTRA:
            raise
        raise CliError(
            f"serve needs {error.name}: install the serve extra "
            "(pip install 'responses-oracle[serve]')"
        ) from None
    if args.port not in PORTS:
        raise CliError(f"--port takes 0 (a free port) to 65535; got {args.port}")
    try:
        bind_host(args.host)
        framing = Framing.parse(args.framing)
        timeout = (
            Timeout.parse(args.timeout) if args.timeout else ONCE_TIMEOUT if args.once
            else Timeout()
        )
        scenarios = [load_scenario(spec) for spec in args.scenarios]
        if args.deviation:
            scenarios = [scenario.only(args.deviation) for scenario in scenarios]
        if args.twin:
            scenarios = [scenario.clean_twin() for scenario in scenarios]
        overrides = [Override(name, args) for name, args in _overrides(args.tool, args.args)]
    except (ScenarioError, ServeError) as error:
        raise CliError(str(error)) from None

    def announce(line: str) -> None:
        print(line, flush=True)

    try:
        verdicts = asyncio.run(
            serve_forever(
                scenarios,
                out=args.out,
                port=args.port,
                once=args.once,
                overrides=overrides,
                framing=framing,
                announce=announce,
                timeout=timeout,
            )
        )
    except OSError as error:
        raise CliError(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}") from None
    _print(verdicts, args.out)
    if verdicts.ended == INTERRUPTED:
        return Exit.INTERRUPTED
    return Exit.OK if verdicts.ok else Exit.FINDING


def _overrides(tools: list[str], texts: list[str]) -> list[tuple[str, Any]]:
    """``--tool NAME --args JSON`` pairs, the JSON parsed."""
    if len(tools) != len(texts):
        raise CliError("give --args once for each --tool")
    found = []
    for name, text in zip(tools, texts, strict=True):
        try:
            found.append((name, json.loads(text)))
        except ValueError:
            raise CliError(f"--args for {name} is not JSON: {text!r}") from None
    return found


def _print(verdicts: Verdicts, out: str) -> None:
    from ..serve.server import VERDICTS_FILE
    from ..serve.verdicts import ANSWER_KEPT

    head = "ok" if verdicts.ok else "FAILED"
    where = Path(out) / VERDICTS_FILE
    ended = f" ({verdicts.ended})" if verdicts.ended else ""
    print(f"{head}: {len(verdicts.scenarios)} scenario(s) served{ended}; verdicts in {where}")
    for scenario in verdicts.scenarios:
        name = scenario.scenario + (" (twin)" if scenario.twin else "")
        for call in scenario.calls:
            cells = " ".join(
                f"{v.name.value}={_value(v.value)}" for v in call.verdicts
            )
            print(f"  {name} {call.call_id}: {cells}")
        if scenario.gateway is not None:
            print(f"  {name} gateway: {ANSWER_KEPT}={_value(scenario.gateway.value)}")
    for line in verdicts.failures():
        print(f"  {line}")
    for line in verdicts.not_applicable:
        print(f"  not applicable: {line}")
    sys.stdout.flush()


def _value(value: bool | None) -> str:
    """A verdict's value as the closing lines print it: true, false, or - (n/a)."""
    return "-" if value is None else str(value).lower()
