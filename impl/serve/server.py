"""The loopback Responses endpoint: plays scenarios, logs requests, hands them to the judge.

Rules
-----
1. **Loopback only.**  ``LOOPBACK`` is the one address it binds; ``bind_host`` refuses
   any other (``ServeError``), so no flag can expose it.
2. **One scenario per conversation, in order.**  A request *continues* a conversation
   when its ``input`` carries an item whose ``call_id`` the served stream carried, or
   its ``previous_response_id`` names a served response or a text answer given to that
   conversation; it gets a short text answer.  Otherwise the first request that offers
   tools gets the next scenario, mapped onto its tools (``mapping.map_scenario``; one
   that cannot be mapped is passed over with an error, one no offered tool fits as a
   model would call it as not applicable); a request without tools (a
   title request) or one that comes after the last scenario gets the text answer.
3. **A provider's stream with exactly the scenario's deviations.**  The mapped events
   are presented (``present.present``): every field of a valid OpenAI stream the
   scenario does not declare absent is played as the API sends it (item ``status``,
   ``object``, ``created_at``, ``usage``, ``sequence_number``, ...), the request's
   ``model`` and tools echoed in every ``response`` object.  A scenario that declares
   nothing (a recording, a user's file) is played as given, but for ``model``.
4. ``stream: true`` gets the events as SSE, framed as ``Framing`` says.  ``stream:
   false`` gets what a provider answers: the stream's own terminal ``response`` object,
   as presented, its quirks included (``terminal_response``).  A stream with no
   terminal has no non-streaming form: the request gets what a provider gives when its
   upstream is cut, HTTP 500 with an error body (``CUT_UPSTREAM``).
5. Every request is appended to ``requests.jsonl`` (one JSON object a line, flushed)
   before it is answered.
6. Gateway mode: ``POST /serve/downstream`` takes the bytes a gateway's client received
   and compares them with what was served (``gateway.py``); an empty body is answered
   400 and changes nothing.
7. **Responses only.**  A request to another OpenAI API (``OTHER_APIS``: Chat
   Completions, Completions) is logged, answered 404 with an error saying serve speaks
   only the Responses API, and kept as an error of the verdicts: a client configured
   for the wrong API is told so, never judged as one that dropped its calls.
8. **How it ended** is in the verdicts (``Verdicts.ended``): interrupted (SIGINT),
   terminated (SIGTERM), every scenario continued (``--once``), or a ``Timeout``.

Theory of operation: the conversations live in ``ServeState`` (touched only on the
server's event loop); ``build_app`` is the aiohttp application; ``running`` runs it in a
thread for in-process use (tests, the ``agents`` runner) and ``serve_forever`` in the
foreground for the CLI.  Both end by judging (``judge.judge``) what was served and asked.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from .gateway import GatewayVerdict, compare_downstream
from .judge import Served, Verdicts, judge
from .mapping import MappingError, NotApplicable, Override, map_scenario, offered_tools
from .present import Presentation, present
from .scenarios import Event, Scenario
from .twin import played

LOOPBACK: Final = "127.0.0.1"
"""The only address ``serve`` binds."""

TERMINALS: Final = frozenset({"response.completed", "response.failed", "response.incomplete"})
"""The events that end a response: their ``response`` is the non-streaming answer."""

TEXT_ANSWER: Final = "Done."
"""What a request that gets no scenario is told."""

DOWNSTREAM_PATH: Final = "/serve/downstream"
"""Gateway mode: POST the bytes the gateway's client received here (``gateway.py``)."""

REQUESTS_FILE: Final = "requests.jsonl"
VERDICTS_FILE: Final = "verdicts.json"


class ServeError(ValueError):
    """Arguments ``serve`` refuses (another host, a bad scenario mapping)."""


def bind_host(host: str) -> str:
    """``host`` if it is the loopback address, else ``ServeError`` (rule 1)."""
    if host not in (LOOPBACK, "localhost"):
        raise ServeError(f"responses-oracle binds {LOOPBACK} only; refusing to listen on {host!r}")
    return LOOPBACK


@dataclass(frozen=True)
class Framing:
    """How the SSE bytes are cut: ``event:`` lines or data only, one write per event or
    ``chunked`` into small writes that split events, LF or CRLF line ends."""

    event_lines: bool = True
    chunked: bool = False
    crlf: bool = False
    chunk_bytes: int = 7

    @classmethod
    def parse(cls, text: str) -> Framing:
        """``events``, ``data-only``, ``chunked``, ``crlf``, comma-separated."""
        words = {word.strip() for word in text.split(",") if word.strip()}
        unknown = words - {"events", "data-only", "chunked", "crlf"}
        if unknown or {"events", "data-only"} <= words:
            raise ServeError(
                f"--framing takes events or data-only, chunked, crlf (comma-separated); "
                f"got {text!r}"
            )
        return cls("data-only" not in words, "chunked" in words, "crlf" in words)

    def data(self, event: Event) -> str:
        """The JSON text of one event, as its ``data:`` line carries it (compact, UTF-8)."""
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"))

    def frames(self, events: Sequence[Event]) -> Iterator[bytes]:
        """The writes that carry ``events``."""
        end = "\r\n" if self.crlf else "\n"
        body = bytearray()
        for event in events:
            name = event.get("type")
            head = f"event: {name}{end}" if self.event_lines and isinstance(name, str) else ""
            try:
                frame = f"{head}data: {self.data(event)}{end}{end}".encode()
            except UnicodeEncodeError:
                # A lone surrogate (what a JSON escape such as "\ud800" decodes to) has no
                # UTF-8 form: the JSON says it as an escape, as it came; in an event type
                # it is replaced.
                data = json.dumps(event, separators=(",", ":"))
                frame = f"{head}data: {data}{end}{end}".encode(errors="replace")
            if not self.chunked:
                yield frame
                continue
            body += frame
            while len(body) >= self.chunk_bytes:
                yield bytes(body[: self.chunk_bytes])
                del body[: self.chunk_bytes]
        if body:
            yield bytes(body)


@dataclass
class ServeState:
    """Everything the server learned: the requests and the scenarios served."""

    scenarios: tuple[Scenario, ...]
    out: Path | None
    overrides: tuple[Override, ...] = ()
    framing: Framing = Framing()
    once: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    served: list[Served] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    not_applicable: list[str] = field(default_factory=list)
    """``SCENARIO: why`` for each scenario no offered tool fits (``NotApplicable``)."""
    downstream: dict[int, GatewayVerdict] = field(default_factory=dict)
    text_answers: dict[str, Served] = field(default_factory=dict)
    """The id of each text answer given to a served conversation → that conversation."""
    position: int = 0
    """The next scenario to serve; one that cannot be mapped is passed over (an error)."""
    done: asyncio.Event | None = None
    ended: str = ""
    """How the server ended (rule 8); ``""`` while it runs."""
    last_request: float = field(default_factory=time.monotonic)
    """When the last request came (or the server started): what an idle timeout reads."""

    def end(self, how: str) -> None:
        """End the server (the first cause is kept), as ``serve_forever`` waits for."""
        self.ended = self.ended or how
        if self.done is not None:
            self.done.set()

    def log(self, path: str, body: Any) -> int:
        """Record one request (rule 5); its index."""
        self.last_request = time.monotonic()
        index = len(self.requests)
        record = {"index": index, "time": time.time(), "path": path, "body": body}
        self.requests.append(record)
        if self.out is not None:
            with open(self.out / REQUESTS_FILE, "a", encoding="utf-8") as log:
                log.write(json.dumps(record, ensure_ascii=False) + "\n")
        return index

    def continues(self, body: Mapping[str, Any]) -> Served | None:
        """The served scenario this request continues (rule 2), the latest first."""
        call_ids = _call_ids(body.get("input"))
        previous = body.get("previous_response_id")
        for served in reversed(self.served):
            if call_ids & served.carried_call_ids or (
                isinstance(previous, str) and previous in _response_ids(served.mapped.events)
            ):
                return served
        return self.text_answers.get(previous) if isinstance(previous, str) else None

    def judged(self) -> Verdicts:
        """The verdicts on everything served so far."""
        unserved = [scenario.name for scenario in self.scenarios[self.position :]]
        verdicts = judge(self.served, self.requests, unserved, self.errors, self.downstream)
        return replace(verdicts, not_applicable=tuple(self.not_applicable))

    def record_downstream(self, data: bytes, scenario: int | None = None) -> GatewayVerdict:
        """Gateway mode: compare what the gateway's client received for scenario
        ``scenario`` (default the last served) with what was served; kept for the
        verdicts.  ``ServeError`` when no such scenario was served, or ``data`` is empty
        (no client receives nothing from a stream; a record already made is kept)."""
        if not data:
            raise ServeError(
                "empty body: POST the bytes the gateway's client received (an earlier "
                "record of this scenario is kept)"
            )
        position = len(self.served) - 1 if scenario is None else scenario
        if not 0 <= position < len(self.served):
            raise ServeError(f"no served scenario {position} (served: {len(self.served)})")
        served = self.served[position]
        verdict = compare_downstream(
            served.mapped.events, data, self.requests[served.request_index]
        )
        self.downstream[position] = verdict
        return verdict

    def finished(self) -> bool:
        """``--once``: every scenario was tried, and every one served has its next
        request (as the judge finds it)."""
        if self.position < len(self.scenarios):
            return False
        return all(scenario.next_request is not None for scenario in self.judged().scenarios)

    def write_verdicts(self) -> Verdicts:
        """Judge, and write ``verdicts.json`` when there is an output folder."""
        verdicts = replace(self.judged(), ended=self.ended)
        if self.out is not None:
            (self.out / VERDICTS_FILE).write_text(
                json.dumps(verdicts.to_dict(), indent=2, ensure_ascii=False) + "\n", "utf-8"
            )
        return verdicts


def _response_ids(events: Sequence[Event]) -> set[str]:
    return {
        event["response"]["id"]
        for event in events
        if isinstance(event.get("response"), dict) and isinstance(event["response"].get("id"), str)
    }


def _call_ids(value: Any) -> set[str]:
    if not isinstance(value, list):
        return set()
    return {
        item["call_id"]
        for item in value
        if isinstance(item, dict) and isinstance(item.get("call_id"), str)
    }


def text_response_id(serial: int) -> str:
    """The response id of the text answer to request ``serial``."""
    return f"resp_serve_text_{serial}"


def text_events(serial: int) -> list[Event]:
    """A short text answer, one message saying ``TEXT_ANSWER``, which ``present``
    completes to a valid stream."""
    response_id, item_id = text_response_id(serial), f"msg_serve_text_{serial}"
    part = {"type": "output_text", "text": TEXT_ANSWER, "annotations": []}
    message = {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": [part],
    }
    scoped = {"item_id": item_id, "output_index": 0, "content_index": 0}
    events: list[Event] = [
        {"type": "response.created", "response": _response(response_id, "in_progress", [])},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "status": "in_progress", "content": []},
        },
        {"type": "response.content_part.added", **scoped, "part": {**part, "text": ""}},
        {"type": "response.output_text.delta", **scoped, "delta": TEXT_ANSWER},
        {"type": "response.output_text.done", **scoped, "text": TEXT_ANSWER},
        {"type": "response.content_part.done", **scoped, "part": part},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.completed", "response": _response(response_id, "completed", [message])},
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _response(response_id: str, status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    # The rest of the object (object, created_at, usage, echoes) is presented (rule 3).
    return {"id": response_id, "status": status, "output": output}


CUT_UPSTREAM: Final = {
    "error": {
        "message": "The upstream connection closed before the response completed.",
        "type": "server_error",
        "param": None,
        "code": "server_error",
    }
}
"""The body of ``stream: false`` for a stream with no terminal (rule 4), with HTTP 500:
what a provider answers when its upstream is cut (OpenAI's error object)."""


def terminal_response(events: Sequence[Event]) -> dict[str, Any] | None:
    """The response object of ``stream: false`` (rule 4): the ``response`` of the
    stream's first terminal event (completed, failed or incomplete) as served; None
    when the stream has none."""
    for event in events:
        if event.get("type") in TERMINALS and isinstance(event.get("response"), dict):
            return dict(event["response"])
    return None


def build_app(state: ServeState) -> web.Application:
    """The aiohttp application serving ``state``'s scenarios."""
    app = web.Application(client_max_size=64 << 20)

    async def responses(request: web.Request) -> web.StreamResponse:
        try:
            body = await request.json()
        except ValueError:
            state.log(request.path, None)
            return web.json_response(
                {"error": {"message": "body is not JSON", "type": "invalid_request_error"}},
                status=400,
            )
        index = state.log(request.path, body)
        if not isinstance(body, dict):
            return web.json_response(
                {"error": {"message": "body is not an object", "type": "invalid_request_error"}},
                status=400,
            )
        events = _answer(state, body, index)
        if body.get("stream") is True:
            reply = web.StreamResponse(
                headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
            )
            await reply.prepare(request)
            for frame in state.framing.frames(events):
                await reply.write(frame)
            await reply.write_eof()
        else:
            final = terminal_response(events)
            reply = web.json_response(final if final is not None else CUT_UPSTREAM,
                                      status=200 if final is not None else 500)
        _maybe_finish(state)
        return reply

    async def other_api(request: web.Request) -> web.Response:
        # Rule 7: logged, told, and kept as an error of the verdicts.
        index = state.log(request.path, await _json_or_none(request))
        message = (
            f"serve speaks only the Responses API (POST /v1/responses); this request went "
            f"to {request.path}: point the client's Responses API at serve"
        )
        state.errors.append(f"request {index}: {message}")
        return web.json_response(
            {"error": {"message": message, "type": "invalid_request_error"}}, status=404
        )

    async def models(request: web.Request) -> web.Response:
        state.log(request.path, None)
        return web.json_response(
            {"object": "list", "data": [{"id": "serve", "object": "model", "owned_by": "serve"}]}
        )

    async def downstream(request: web.Request) -> web.Response:
        data = await request.read()
        state.log(request.path, {"downstream_bytes": len(data), "query": dict(request.query)})
        scenario = request.query.get("scenario")
        try:
            verdict = state.record_downstream(
                data, int(scenario) if scenario is not None else None
            )
        except (ServeError, ValueError) as error:
            return web.json_response({"error": {"message": str(error)}}, status=400)
        return web.json_response(verdict.to_dict())

    app.router.add_post(DOWNSTREAM_PATH, downstream)
    for prefix in ("/v1", ""):
        app.router.add_post(f"{prefix}/responses", responses)
        app.router.add_get(f"{prefix}/models", models)
        for path in OTHER_APIS:
            app.router.add_post(f"{prefix}{path}", other_api)
    return app


OTHER_APIS: Final = ("/chat/completions", "/completions")
"""The other OpenAI APIs a client may be configured for by mistake (rule 7)."""


async def _json_or_none(request: web.Request) -> Any:
    try:
        return await request.json()
    except ValueError:
        return None


def _answer(state: ServeState, body: dict[str, Any], index: int) -> list[Event]:
    """The events one request gets (rule 2)."""
    offered = offered_tools(body)
    continued = state.continues(body)
    text = present(text_events(index), body)
    if continued is not None:
        # A later turn may name this answer by previous_response_id: still that conversation.
        state.text_answers[text_response_id(index)] = continued
        return text
    if not offered or state.position >= len(state.scenarios):
        return text
    scenario = state.scenarios[state.position]
    state.position += 1
    try:
        mapped = map_scenario(scenario.events, offered, state.overrides)
    except NotApplicable as why:
        state.not_applicable.append(f"{scenario.name}: {why}")
        return text
    except MappingError as error:
        state.errors.append(f"{scenario.name}: {error}")
        return text
    mapped = played(scenario, mapped)
    # The clean twin is a valid stream: presented with no deviation.
    how = Presentation() if scenario.twin else scenario.presentation
    shown = present(mapped.events, body, how)
    state.served.append(Served(scenario, replace(mapped, events=tuple(shown)), index, body))
    return shown


def _maybe_finish(state: ServeState) -> None:
    if state.once and state.done is not None and state.finished():
        state.end("every scenario was served and continued (--once)")


@dataclass
class Running:
    """A server running in a thread (``running``): its URL, and the verdicts so far."""

    base_url: str
    state: ServeState

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self.base_url.rsplit(":", 1)[1].split("/")[0])

    def verdicts(self) -> Verdicts:
        """The judge's verdicts on what was served and asked so far."""
        return self.state.judged()

    def record_downstream(self, data: bytes, scenario: int | None = None) -> GatewayVerdict:
        """Gateway mode: the bytes the gateway's client received for ``scenario``
        (default the last served), compared with what was served upstream."""
        return self.state.record_downstream(data, scenario)


async def start_loopback(
    app: web.Application, port: int, shutdown_timeout: float = 60.0
) -> tuple[web.AppRunner, int]:
    """Run ``app`` on ``LOOPBACK``:``port`` (0: a free one), with no access log (a
    request's headers may carry a key); the runner and the port bound.  On cleanup the
    runner waits up to ``shutdown_timeout`` seconds for requests in flight."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    site = web.TCPSite(runner, LOOPBACK, port)
    await site.start()
    bound = runner.addresses[0][1]
    return runner, int(bound)


@contextmanager
def running(
    scenarios: Sequence[Scenario],
    *,
    out: str | Path | None = None,
    port: int = 0,
    overrides: Sequence[Override] = (),
    framing: Framing = Framing(),
) -> Iterator[Running]:
    """Run ``serve`` in a background thread on a free port (or ``port``).

    Yields a ``Running`` with ``base_url`` (``http://127.0.0.1:PORT/v1``) and
    ``verdicts()``; on exit the server stops and, with ``out``, ``verdicts.json`` is
    written there.
    """
    state = _state(scenarios, out, overrides, framing, once=False)
    loop = asyncio.new_event_loop()
    runner, bound = loop.run_until_complete(start_loopback(build_app(state), port))
    thread = threading.Thread(target=loop.run_forever, name="serve", daemon=True)
    thread.start()
    try:
        yield Running(f"http://{LOOPBACK}:{bound}/v1", state)
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()
        state.write_verdicts()


def _state(
    scenarios: Sequence[Scenario],
    out: str | Path | None,
    overrides: Sequence[Override],
    framing: Framing,
    once: bool,
) -> ServeState:
    folder = Path(out) if out is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / REQUESTS_FILE).write_text("", "utf-8")
    return ServeState(tuple(scenarios), folder, tuple(overrides), framing, once)


@dataclass(frozen=True)
class Timeout:
    """When ``serve_forever`` stops waiting (rule 8): ``idle`` seconds with no request
    (counted from the start too), ``overall`` seconds after the start; None: no limit."""

    idle: float | None = None
    overall: float | None = None

    @classmethod
    def parse(cls, text: str) -> Timeout:
        """``SECONDS`` (idle) or ``SECONDS,TOTAL`` (idle, then overall)."""
        parts = text.split(",")
        try:
            values = [float(part) for part in parts]
        except ValueError:
            values = []
        if len(values) not in (1, 2) or any(not value > 0 for value in values):
            raise ServeError(
                f"--timeout takes SECONDS or SECONDS,TOTAL, positive numbers; got {text!r}"
            )
        return cls(values[0], values[1] if len(values) == 2 else None)

    def expired(self, started: float, last_request: float, now: float) -> str:
        """Why the server should end now, or ``""``."""
        if self.overall is not None and now - started >= self.overall:
            return f"timed out: {self.overall:g} s after the start (--timeout)"
        if self.idle is not None and now - last_request >= self.idle:
            return f"timed out: no request for {self.idle:g} s (--timeout)"
        return ""


ONCE_TIMEOUT: Final = Timeout(idle=120.0, overall=600.0)
"""``--once``'s default ``--timeout``: a client that never comes, or never sends its
next request, does not hold a harness forever."""


async def serve_forever(
    scenarios: Sequence[Scenario],
    *,
    out: str | Path,
    port: int = 0,
    once: bool = False,
    overrides: Sequence[Override] = (),
    framing: Framing = Framing(),
    announce: Any = print,
    timeout: Timeout = Timeout(),
) -> Verdicts:
    """Serve until SIGINT/SIGTERM, the ``timeout`` or, with ``once``, until every
    scenario was served and continued; then judge and write ``verdicts.json``
    (``Verdicts.ended`` says which).  ``announce`` gets the ``listening on ...`` line
    first."""
    import signal

    state = _state(scenarios, out, overrides, framing, once)
    state.done = asyncio.Event()
    runner, bound = await start_loopback(build_app(state), port)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, state.end, INTERRUPTED)
    loop.add_signal_handler(signal.SIGTERM, state.end, TERMINATED)
    announce(f"listening on http://{LOOPBACK}:{bound}/v1")
    started = time.monotonic()
    try:
        while not state.done.is_set():
            why = timeout.expired(started, state.last_request, time.monotonic())
            if why:
                state.end(why)
                break
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(state.done.wait(), TICK)
    finally:
        await runner.cleanup()
    return state.write_verdicts()


INTERRUPTED: Final = "interrupted (SIGINT)"
TERMINATED: Final = "terminated (SIGTERM)"
"""How ``Verdicts.ended`` names an end by signal (the CLI exits 130 on the first)."""

TICK: Final = 0.5
"""Seconds between two looks at the timeout."""
