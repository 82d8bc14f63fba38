"""``responses-oracle proxy``: a loopback Responses endpoint in front of a provider that
streams back the oracle's canonical stream of each answer.

A thin face over ``responses_oracle.proxy``: the arguments become a ``ProxyConfig``;
``proxy_forever`` prints the ``listening on http://127.0.0.1:PORT/v1`` line first
(flushed, so a harness can read the port from a pipe), as ``serve`` does, and proxies
until SIGINT or SIGTERM, then lets the requests in flight finish.

Exit status: 130 after an interrupt (Ctrl-C or SIGTERM), once the requests in flight
finished, or at once on a second interrupt (the status every command has for an
interrupt); 2 for unusable arguments (an upstream that is no http(s) URL, a host other
than 127.0.0.1, a port in use, a log file that cannot be written, unusable limits).
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from .common import CliError, Exit, ExitTable, add_limit_arguments, command_parser, limits_from

UPSTREAM_TIMEOUT: Final = 300.0
"""``--upstream-timeout``'s default, the same as ``proxy.endpoint.UPSTREAM_TIMEOUT`` (a
test holds them equal: the endpoint needs the serve extra, which ``--help`` does not)."""

if TYPE_CHECKING:
    from .common import Subparsers

_EXTRA: Final = frozenset({"aiohttp", "jsonschema"})
"""The modules of the ``serve`` extra, which the proxy shares."""

PROXY_EXIT: Final[ExitTable] = {
    Exit.USAGE: "unusable arguments: an --upstream that is no http(s) URL, a host other "
    "than 127.0.0.1, a port in use, a --log that cannot be written, unusable limits",
}

_DESCRIPTION = (
    "Listen on 127.0.0.1 as a Responses API and forward every request to UPSTREAM "
    "(headers, key and body as the client sent them; the key is never logged). A "
    "streamed POST /v1/responses comes back as the upstream sent it, repaired where the "
    "oracle finds it wrong: every event the oracle does not repair passes on as it came "
    "(text deltas at once, hosted-tool progress, partial images); a call's deltas and "
    "done events are held until the oracle's answer for it is settled (at the latest the "
    "terminal), then sent reconciled -- real id, complete arguments, once; nothing the "
    "upstream did not finish is ended, no field it did not send is filled. Every change "
    "is logged. 'stream: false' gets the terminal's response object. Every other route, "
    "and every upstream error, passes through unchanged; a cut stream stays cut; an "
    "unreachable upstream is a 502 with a JSON error; a limit passed ends the answer "
    "with an error event, except an event over --max-event-bytes that the oracle passes "
    "on as it came (a partial image, a hosted tool's progress), which goes on unread, "
    "logged. A streamed answer ends with the SSE comment "
    "': responses-oracle-repairs N'; a JSON answer carries the header "
    "X-Responses-Oracle-Repairs. Docs: the 'Repairing a provider's stream' page. The "
    "first stdout line is 'listening on http://127.0.0.1:PORT/v1'."
)


def register(subparsers: Subparsers) -> None:
    """Add ``proxy`` to the command set."""
    parser = command_parser(
        subparsers,
        "proxy",
        description=_DESCRIPTION,
        examples=(
            "proxy --upstream https://openrouter.ai/api/v1 --port 8300 --log repairs.jsonl",
            "proxy --upstream http://127.0.0.1:8000/v1   # then OPENAI_BASE_URL=<printed URL>",
            "proxy --upstream https://api.example.com/v1 --dry-run --log would-repair.jsonl",
        ),
        run=run,
        exit_status=PROXY_EXIT,
    )
    parser.add_argument("--upstream", required=True, metavar="URL",
                        help="the provider's base URL, /v1 included")
    parser.add_argument("--port", type=int, default=0, help="port to bind (default 0: a free one)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="only 127.0.0.1 is accepted (anything else exits 2)")
    parser.add_argument("--log", metavar="FILE",
                        help="append one JSON line per response: its id, the oracle's codes, "
                        "what was changed (never a header or a body)")
    parser.add_argument("--upstream-timeout", type=float, default=UPSTREAM_TIMEOUT,
                        metavar="SECONDS",
                        help="end an upstream answer that sends nothing for this long, a read "
                        f"timeout between two reads (default: {UPSTREAM_TIMEOUT:g})")
    parser.add_argument("--dry-run", action="store_true",
                        help="forward every answer unchanged; only log what would be repaired")
    # Per upstream answer; passing one ends it with an error event and is logged.
    add_limit_arguments(
        parser,
        oversized="a larger one passes on unread if the proxy passes its type on as it came "
        "(a partial image, a hosted tool's progress), else the answer ends with an error "
        "event and response.failed; the log names it either way",
    )


def run(args: argparse.Namespace) -> int:
    """Check the arguments, then proxy until interrupted; the exit status."""
    try:
        from responses_oracle.proxy.endpoint import ProxyConfig, proxy_forever
        from responses_oracle.serve.server import ServeError, bind_host
    except ModuleNotFoundError as error:
        if error.name not in _EXTRA:
            raise
        raise CliError(
            f"proxy needs {error.name}: install the serve extra from a checkout "
            "(pip install -e '.[serve]') or a built wheel (pip install 'WHEEL[serve]')"
        ) from None
    try:
        bind_host(args.host)
    except ServeError as error:
        raise CliError(str(error)) from None
    if not args.upstream_timeout > 0:
        raise CliError(f"--upstream-timeout must be positive, got {args.upstream_timeout}")
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port must be 0..65535, got {args.port}")
    parts = urlsplit(args.upstream)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise CliError(
            f"--upstream must be an http(s) base URL such as https://api.openai.com/v1, "
            f"got {args.upstream!r}"
        )
    log = Path(args.log) if args.log else None
    if log is not None:
        try:
            log.touch()
        except OSError as error:
            raise CliError(f"cannot write --log {log}: {error.strerror or error}") from None
    wire_limits, limits = limits_from(args)
    config = ProxyConfig(
        args.upstream, dry_run=args.dry_run, log=log, wire_limits=wire_limits, limits=limits,
        upstream_timeout=args.upstream_timeout,
    )

    def announce(line: str) -> None:
        print(line, flush=True)

    try:
        asyncio.run(proxy_forever(config, port=args.port, announce=announce))
    except OSError as error:
        raise CliError(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}") from None
    return Exit.INTERRUPTED
