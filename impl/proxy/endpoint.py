"""The proxy's HTTP face: a loopback Responses endpoint in front of an upstream.

Rules
-----
1. **Loopback only**, as ``serve``: ``serve.server.bind_host`` and ``start_loopback``.
2. **Forwarded as sent.**  Every request goes to the upstream with its method, path
   (the part after ``/v1``, appended to ``--upstream``: ``ProxyState.target``), query,
   headers and body as the client sent them -- the client's key included -- minus the
   hop-by-hop headers (``HOP_BY_HOP``), which belong to one connection.  No header and
   no body is ever written to the log or stdout.  One exception: a ``POST /v1/responses`` with
   ``stream`` not ``true`` is forwarded with ``"stream": true``, because the canonical
   answer is made from the stream (rule 5).
3. **Only a streamed 2xx answer is rewritten.**  A ``POST /v1/responses`` answered with
   status 2xx and ``text/event-stream`` goes through a ``Relay``; any other answer (an
   HTTP error and its body, JSON, another route) reaches the client byte for byte, with
   the upstream's status and headers, as it arrives.
4. **A cut stays a cut.**  When the upstream body ends without its terminal event the
   client gets what the oracle released and then the body's end, with no made-up
   terminal; when the upstream connection breaks, the client's connection is broken too
   (``transport.abort``), so the client sees the same fault.
5. **``stream: false``** gets the ``response`` object of the canonical stream's terminal
   event (``Relay.answer``): the reconciled snapshot, with the upstream's status.  With
   no terminal (the stream was cut) the client gets HTTP 502 and an error body, what a
   provider answers when its own upstream fails; an ``error`` event becomes that body.
6. **The repairs are never hidden** (``REPAIRS_HEADER``, ``REPAIRS_COMMENT``, ``--log``).
   A streamed answer's headers leave before its repairs are known (a call is repaired at
   the latest at the terminal, and a header carrying the count known at header time
   would be wrong), and HTTP trailers are not read by SSE clients; so a streamed answer
   ends with one SSE comment line, ``: responses-oracle-repairs N``, which every SSE
   parser skips.  A ``stream: false`` answer carries the count in the header.  The count
   is of the repairs alone (``changes``); the events canonical added that the upstream's
   other events say again (a payload's ``done`` the item's done repeats, ``respelled``,
   ``model.vocabulary.RESTATED``) are logged apart and count as none.  The log
   gets one JSON line per response either way; with ``--dry-run`` only the log (the
   bytes stay the upstream's, byte for byte, and a ``stream: false`` request is
   forwarded as it is and not logged: its JSON answer is no stream to check).
7. **The path stays under the upstream's base path.**  The path is decoded once, its
   dot segments resolved (``..``, ``%2e%2e``), and each segment encoded again, so a
   decoded ``?`` or ``#`` (``%3F``, ``%23``) stays part of its segment and never starts
   a query or a fragment; a path whose ``..`` climbs above the root is answered 400 with
   a JSON error, never forwarded.
8. **Faults are answered as a gateway answers them.**  An upstream that cannot be
   reached (refused, unknown host, connect timeout) is a 502 with a JSON error body
   (``{"error": {"type": "upstream_unreachable", ...}}``) and a log line; no traceback
   reaches the client.  An upstream that sends nothing for ``upstream_timeout`` seconds
   (``--upstream-timeout``, a read timeout: the time between two reads, not the whole
   answer) is ended there: its request closed, the client's connection broken as for a
   break (rule 4), ``ended: upstream_timeout`` in the log.
9. **A client that leaves is let go at once.**  While a request is handled, its
   client connection is watched (every ``CLIENT_POLL_SECONDS``); when the client is gone
   the handler is cancelled, which closes the upstream request whether the upstream is
   sending or silent, and the log says ``ended: client_gone``.
10. **Each request is independent**: its own ``Relay`` and canonicalizer; the upstream
   connection pool is the only thing shared.  SIGINT or SIGTERM stops accepting
   connections and lets the requests in flight finish (``DRAIN_SECONDS`` at most).
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from aiohttp import ClientError, ClientSession, ClientTimeout, web
from multidict import CIMultiDict, CIMultiDictProxy
from responses_oracle.core.step import DEFAULT_LIMITS, ReducerLimits
from responses_oracle.serve.server import LOOPBACK, start_loopback
from responses_oracle.wire.records import DEFAULT_LIMITS as DEFAULT_WIRE_LIMITS
from responses_oracle.wire.records import Limits
from yarl import URL

from .relay import Relay

REPAIRS_HEADER: Final = "X-Responses-Oracle-Repairs"
"""The count of repairs, on a ``stream: false`` answer (rule 6)."""

REPAIRS_COMMENT: Final = "responses-oracle-repairs"
"""The SSE comment that ends a streamed answer: ``: responses-oracle-repairs N``."""

HOP_BY_HOP: Final = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
    "trailer", "trailers", "transfer-encoding", "upgrade", "host", "content-length",
    "content-encoding", "accept-encoding",
})
"""Headers of one connection, not of the message (RFC 9110 section 7.6.1), plus those the
proxy's own HTTP client sets: it asks for and undoes its own compression and framing."""

DRAIN_SECONDS: Final = 60.0
"""How long requests in flight may go on after SIGINT or SIGTERM."""

CONNECT_SECONDS: Final = 30.0
"""How long connecting to the upstream may take."""

UPSTREAM_TIMEOUT: Final = 300.0
"""``--upstream-timeout``'s default: how long the upstream may send nothing before its
answer is ended (rule 8).  Long, because a model may think for minutes between two
events; a hung upstream still frees its handler."""

CLIENT_POLL_SECONDS: Final = 0.1
"""How often a handler looks whether its client is still there (rule 9)."""

_SEGMENT_SAFE: Final = "!$&'()*+,;=:@~"
"""What a path segment may hold unencoded besides letters, digits and ``-._`` (RFC
3986's ``pchar``): never ``/``, ``?``, ``#`` or ``%`` (rule 7)."""

RESPONSES_PATH: Final = "/responses"
"""The route whose streamed answers are canonicalized (under ``/v1`` or not)."""


@dataclass(frozen=True)
class ProxyConfig:
    """What the proxy does: where it forwards, whether it repairs, where it logs."""

    upstream: str
    """The upstream's base URL, ``/v1`` included (``https://api.openai.com/v1``)."""
    dry_run: bool = False
    log: Path | None = None
    wire_limits: Limits = DEFAULT_WIRE_LIMITS
    """Bounds on each upstream body's bytes (events, total)."""
    limits: ReducerLimits = DEFAULT_LIMITS
    """Bounds on what each response may make the oracle hold (items, payload chars)."""
    upstream_timeout: float = UPSTREAM_TIMEOUT
    """Seconds the upstream may send nothing before its answer is ended (rule 8)."""


@dataclass
class ProxyState:
    """The running proxy: its configuration, the upstream connection pool, the log."""

    config: ProxyConfig
    session: ClientSession | None = None
    logged: list[dict[str, Any]] | None = field(default_factory=list)
    """Every log line written, as data, for in-process users (``running``); None: none
    is kept (``proxy_forever``: a proxy in front of real traffic runs for days, and a
    line kept for each request nobody reads would grow without end -- ``--log`` writes
    them)."""

    def target(self, path: str, query: str) -> URL | None:
        """The upstream URL of a request's decoded ``path`` (rules 2 and 7); None for a
        path that climbs above the root."""
        rest = path[len("/v1"):] if path == "/v1" or path.startswith("/v1/") else path
        segments: list[str] = []
        for segment in rest.split("/")[1:]:
            if segment == "..":
                if not segments:
                    return None
                segments.pop()
            elif segment != ".":
                segments.append(segment)
        if rest.endswith(("/.", "/..")):
            segments.append("")  # a resolved dot segment leaves its slash
        encoded = "".join("/" + quote(segment, safe=_SEGMENT_SAFE) for segment in segments)
        base = self.config.upstream.rstrip("/")
        return URL(base + encoded + (f"?{query}" if query else ""), encoded=True)

    def record(self, request: web.Request, status: int | None, stream: bool, ended: str,
               relay: Relay | None) -> None:
        """One log line per response the relay saw (rule 6), or one for a request no
        relay read (a fault, rule 8); never a header or a body."""
        records: list[Mapping[str, Any] | None] = [*(relay.repairs if relay else ())] or [None]
        for repair in records:
            line = {
                "time": round(time.time(), 3),
                "path": request.path,
                "upstream_status": status,
                "stream": stream,
                "mode": "dry-run" if self.config.dry_run else "repair",
                "ended": ended,
                "limit": relay.limit if relay else None,
                **_repair_fields(repair),
            }
            if self.logged is not None:
                self.logged.append(line)
            if self.config.log is not None:
                with open(self.config.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps(line, ensure_ascii=False) + "\n")


def _repair_fields(repair: Mapping[str, Any] | None) -> dict[str, Any]:
    """A repair record as log fields (None: the body held no response)."""
    if repair is None:
        return {"response_id": None, "codes": [], "changes": [], "respelled": [], "repairs": 0}
    return {**repair, "repairs": repair_count([repair])}


def repair_count(repairs: Sequence[Mapping[str, Any]]) -> int:
    """How many changes ``repairs`` (``Relay.repairs``) made: each record's ``changes``."""
    return sum(len(repair["changes"]) for repair in repairs)


def _forwarded(headers: CIMultiDictProxy[str] | Mapping[str, str]) -> CIMultiDict[str]:
    return CIMultiDict((k, v) for k, v in headers.items() if k.lower() not in HOP_BY_HOP)


def build_app(state: ProxyState) -> web.Application:
    """The aiohttp application: every route forwarded, streamed answers repaired."""
    app = web.Application(client_max_size=64 << 20)

    async def handle(request: web.Request) -> web.StreamResponse:
        task = asyncio.current_task()
        assert task is not None
        watch = asyncio.ensure_future(_watch(request, task))
        try:
            return await _forward(state, request)
        finally:
            watch.cancel()

    app.router.add_route("*", "/{tail:.*}", handle)
    return app


async def _watch(request: web.Request, handler: asyncio.Task[Any]) -> None:
    """Cancel ``handler`` once its client is gone (rule 9): the cancellation closes the
    upstream request, sending or silent."""
    while True:
        await asyncio.sleep(CLIENT_POLL_SECONDS)
        transport = request.transport
        if transport is None or transport.is_closing():
            handler.cancel()
            return


async def _forward(state: ProxyState, request: web.Request) -> web.StreamResponse:
    """One request, forwarded and answered (rules 2-8)."""
    url = state.target(request.path, request.query_string)
    if url is None:
        state.record(request, None, False, "refused_path", None)
        return _error(400, "invalid_path", "the path climbs above the upstream's base path")
    body = await request.read()
    asked = (
        _json(body)
        if request.method == "POST" and request.path.removeprefix("/v1") == RESPONSES_PATH
        else None
    )
    parsed: dict[str, Any] | None = asked if isinstance(asked, dict) else None
    stream = parsed is not None and parsed.get("stream") is True
    # With --dry-run a JSON request goes as it is: its JSON answer is no stream to check.
    canonical = parsed is not None and (stream or not state.config.dry_run)
    if parsed is not None and canonical and not stream:
        body = json.dumps({**parsed, "stream": True}).encode()  # rule 2's exception
    assert state.session is not None
    try:
        upstream = await state.session.request(
            request.method, url, data=body, headers=_forwarded(request.headers),
            allow_redirects=False,
        )
    except (TimeoutError, ClientError, OSError) as error:
        state.record(request, None, stream, "upstream_unreachable", None)
        return _error(502, "upstream_unreachable",
                      f"the upstream could not be reached: {_reason(error)}")
    async with upstream:
        streamed = upstream.content_type == "text/event-stream"
        if not (canonical and streamed and 200 <= upstream.status < 300):
            return await _pass_through(request, upstream)
        config = state.config
        relay = Relay(dry_run=config.dry_run, wire_limits=config.wire_limits, limits=config.limits)
        if stream:
            return await _stream(state, request, upstream, relay)
        return await _answer(state, request, upstream, relay)


def _error(status: int, kind: str, message: str) -> web.Response:
    """A JSON error answer, spelled as the API spells its errors."""
    return web.json_response(
        {"error": {"message": message, "type": kind, "param": None, "code": None}},
        status=status,
    )


def _reason(error: BaseException) -> str:
    """A fault in a few words, for an error body and the log (no traceback)."""
    if isinstance(error, TimeoutError):
        return "connect timeout"
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200]


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


async def _pass_through(request: web.Request, upstream: Any) -> web.StreamResponse:
    """The upstream's answer as it is, chunk by chunk (rule 3); a break stays a break."""
    reply = web.StreamResponse(status=upstream.status, reason=upstream.reason,
                               headers=_forwarded(upstream.headers))
    await reply.prepare(request)
    if await _drain(upstream, bytes, reply) != "body_end":
        _cut(request)
    else:
        await reply.write_eof()
    return reply


async def _stream(
    state: ProxyState, request: web.Request, upstream: Any, relay: Relay
) -> web.StreamResponse:
    """A streamed answer through the relay (rules 4, 6, 8, 9)."""
    reply = web.StreamResponse(status=upstream.status, reason=upstream.reason,
                               headers=_forwarded(upstream.headers))
    await reply.prepare(request)
    ended = "client_gone"
    try:
        read = await _drain(upstream, relay, reply)
        tail = relay.close()
        if not relay.dry_run:
            tail += f": {REPAIRS_COMMENT} {repair_count(relay.repairs)}\n\n".encode()
        ended = _ending(relay, read)
        await reply.write(tail)
        if read in _BROKEN:
            _cut(request)
        else:
            await reply.write_eof()
    except ConnectionError:
        ended = "client_gone"
    finally:
        state.record(request, upstream.status, True, ended, relay)
    return reply


READ_SLICE: Final = 64 * 1024
"""The most upstream bytes read before what they released is written (``_drain``): a
burst that arrived at once leaves in slices, and the client reads one while the relay
reads the next."""

_BROKEN: Final = frozenset({"broken", "upstream_timeout"})
"""How ``_drain`` says the upstream's body ended without its end: the client's
connection is broken too (rules 4 and 8)."""


async def _drain(
    upstream: Any, feed: Relay | Callable[[bytes], bytes], reply: web.StreamResponse | None
) -> str:
    """Feed the upstream body to ``feed``, writing what it gives back to ``reply`` (if
    any) as it comes, all that arrived together in one write -- a read of more than
    ``READ_SLICE`` bytes in writes of what each slice released; how the reading ended:
    ``body_end``, ``broken``, ``upstream_timeout`` (rule 8) or ``limit`` (a relay that
    stopped, rule 4 of ``relay``: the upstream request is closed unread)."""
    relay = feed if isinstance(feed, Relay) else None
    take = feed.feed if isinstance(feed, Relay) else feed
    try:
        async for chunk in upstream.content.iter_any():
            for start in range(0, len(chunk), READ_SLICE):
                out = take(chunk[start : start + READ_SLICE])
                if out and reply is not None:
                    await reply.write(out)
                if relay is not None and relay.stopped and not relay.dry_run:
                    upstream.close()
                    return "limit"
    except TimeoutError:
        return "upstream_timeout"
    except ClientError:
        return "broken"
    return "body_end"


def _ending(relay: Relay, read: str) -> str:
    """How the upstream's answer ended, for the log."""
    if relay.limit is not None:
        return "limit"
    if read == "upstream_timeout":
        return read
    if relay.answer is not None:
        return "terminal"
    return "broken" if read == "broken" else "cut"


async def _answer(
    state: ProxyState, request: web.Request, upstream: Any, relay: Relay
) -> web.StreamResponse:
    """``stream: false`` (rule 5): the canonical terminal's response object."""
    read = await _drain(upstream, relay, None)
    relay.close()
    answer = relay.answer
    count = {REPAIRS_HEADER: str(repair_count(relay.repairs))}
    ended = _ending(relay, read)
    state.record(request, upstream.status, False, ended, relay)
    if answer is not None and isinstance(answer.get("response"), dict):
        # A JSON answer always has its items, the stream's terminal or not.
        return web.json_response({**answer["response"], "output": relay.output}, headers=count)
    error = {k: v for k, v in (answer or {}).items() if k not in ("type", "sequence_number")}
    if not error:
        error = {
            "message": "the upstream's stream ended before its terminal event",
            "type": "upstream_error",
        }
    return web.json_response({"error": error}, status=502, headers=count)


def _cut(request: web.Request) -> None:
    """End the client's connection mid-body, as the upstream's ended (rule 4)."""
    if request.transport is not None:
        request.transport.abort()


async def open_proxy(state: ProxyState, port: int) -> tuple[web.AppRunner, int]:
    """Start the proxy on 127.0.0.1:``port`` with its upstream pool; the runner and port.
    The pool is made once the port is bound: a port in use leaves nothing open."""
    started = await start_loopback(build_app(state), port, DRAIN_SECONDS)
    state.session = ClientSession(
        timeout=ClientTimeout(
            total=None, sock_connect=CONNECT_SECONDS, sock_read=state.config.upstream_timeout
        ),
        auto_decompress=True,
    )
    return started


async def close_proxy(state: ProxyState, runner: web.AppRunner) -> None:
    """Stop accepting, let requests in flight finish, close the upstream pool."""
    await runner.cleanup()
    if state.session is not None:
        await state.session.close()


async def proxy_forever(
    config: ProxyConfig, *, port: int = 0, announce: Callable[[str], None] = print
) -> None:
    """Proxy until SIGINT or SIGTERM, then drain (rule 7).  ``announce`` gets the
    ``listening on ...`` line first.  A second signal while draining is not caught: it
    ends the process at once."""
    state = ProxyState(config, logged=None)
    runner, bound = await open_proxy(state, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    announce(f"listening on http://{LOOPBACK}:{bound}/v1")
    try:
        await stop.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await close_proxy(state, runner)


@dataclass
class Running:
    """A proxy running in a thread (``running``): its URL and what it logged."""

    base_url: str
    state: ProxyState

    @property
    def logged(self) -> list[dict[str, Any]]:
        """The log lines so far, as data."""
        logged = self.state.logged
        assert logged is not None  # ``running`` keeps them
        return logged


@contextmanager
def running(config: ProxyConfig, *, port: int = 0) -> Iterator[Running]:
    """Run the proxy in a background thread on a free port (or ``port``); yields a
    ``Running`` whose ``base_url`` is ``http://127.0.0.1:PORT/v1``.  On exit it drains
    and stops, as on SIGINT."""
    state = ProxyState(config)
    loop = asyncio.new_event_loop()
    runner, bound = loop.run_until_complete(open_proxy(state, port))
    thread = threading.Thread(target=loop.run_forever, name="proxy", daemon=True)
    thread.start()
    try:
        yield Running(f"http://{LOOPBACK}:{bound}/v1", state)
    finally:
        asyncio.run_coroutine_threadsafe(close_proxy(state, runner), loop).result(
            timeout=DRAIN_SECONDS + 10
        )
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()
