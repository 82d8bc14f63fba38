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
   that cannot be mapped is passed over with an error); a request without tools (a
   title request) or one that comes after the last scenario gets the text answer.
3. **The answer's ``model`` is the one asked for**, written into every ``response``
   object of the stream, and a ``response`` object without ``created_at`` gets serve's
   clock (the API always sends both; the recorded scenarios often drop them, and a
   client may validate them: the Vercel AI SDK rejects a ``response.created`` without
   ``created_at``).  Nothing else of the mapped scenario changes.
4. ``stream: true`` gets the events as SSE, framed as ``Framing`` says; ``stream: false``
   gets the oracle's reduction of the same events as one response object
   (``final_response``): a non-streaming client is judged on what a stream reduces to.
5. Every request is appended to ``requests.jsonl`` (one JSON object a line, flushed)
   before it is answered.
6. Gateway mode: ``POST /serve/downstream`` takes the bytes a gateway's client received
   and compares them with what was served (``gateway.py``).

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
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from .gateway import GatewayVerdict, compare_downstream
from .judge import Served, Verdicts, judge
from .mapping import MappingError, Override, map_scenario, offered_tools
from .scenarios import Event, Scenario

LOOPBACK: Final = "127.0.0.1"
"""The only address ``serve`` binds."""

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

    def frames(self, events: Sequence[Event]) -> Iterator[bytes]:
        """The writes that carry ``events``."""
        end = "\r\n" if self.crlf else "\n"
        body = bytearray()
        for event in events:
            data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            name = event.get("type")
            head = f"event: {name}{end}" if self.event_lines and isinstance(name, str) else ""
            frame = f"{head}data: {data}{end}{end}".encode()
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
    downstream: dict[int, GatewayVerdict] = field(default_factory=dict)
    text_answers: dict[str, Served] = field(default_factory=dict)
    """The id of each text answer given to a served conversation → that conversation."""
    position: int = 0
    """The next scenario to serve; one that cannot be mapped is passed over (an error)."""
    done: asyncio.Event | None = None

    def log(self, path: str, body: Any) -> int:
        """Record one request (rule 5); its index."""
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
        return judge(self.served, self.requests, unserved, self.errors, self.downstream)

    def record_downstream(self, data: bytes, scenario: int | None = None) -> GatewayVerdict:
        """Gateway mode: compare what the gateway's client received for scenario
        ``scenario`` (default the last served) with what was served; kept for the
        verdicts.  ``ServeError`` when no such scenario was served."""
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
        verdicts = self.judged()
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


def with_model(events: Sequence[Event], model: Any) -> list[Event]:
    """``events`` with ``model`` (when the request names one) written into every
    ``response`` object, and serve's clock as ``created_at`` where one has none (rule 3)."""
    now = int(time.time())
    served: list[Event] = []
    for event in events:
        response = event.get("response")
        if isinstance(response, dict):
            response = {**response, **({"model": model} if isinstance(model, str) else {})}
            response.setdefault("created_at", now)
            event = {**event, "response": response}
        served.append(event)
    return served


def text_response_id(serial: int) -> str:
    """The response id of the text answer to request ``serial``."""
    return f"resp_serve_text_{serial}"


def text_events(serial: int) -> list[Event]:
    """A short, well-formed text answer: one message saying ``TEXT_ANSWER``."""
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
    return {
        "id": response_id,
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "output": output,
        "usage": None if status == "in_progress" else {
            "input_tokens": 0, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 0, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 0,
        },
    }


def final_response(events: Sequence[Event]) -> dict[str, Any]:
    """The response object of ``stream: false`` (rule 4): the oracle's last result of
    ``events``, its items wire-shaped, in the shape of a Responses API object."""
    from responses_oracle.reducer import reduce

    results = reduce(list(events))
    last = results[-1] if results else None
    model = next(
        (
            e["response"]["model"]
            for e in events
            if isinstance(e.get("response"), dict) and isinstance(e["response"].get("model"), str)
        ),
        None,
    )
    body = _response(
        (last.response_id if last else None) or "resp_serve",
        last.status.value if last else "failed",
        [item.item for item in last.items] if last else [],
    )
    if model is not None:
        body["model"] = model
    return body


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
        events = with_model(events, body.get("model"))
        if body.get("stream") is True:
            reply = web.StreamResponse(
                headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
            )
            await reply.prepare(request)
            for frame in state.framing.frames(events):
                await reply.write(frame)
            await reply.write_eof()
        else:
            reply = web.json_response(final_response(events))
        _maybe_finish(state)
        return reply

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
    return app


def _answer(state: ServeState, body: dict[str, Any], index: int) -> list[Event]:
    """The events one request gets (rule 2)."""
    offered = offered_tools(body)
    continued = state.continues(body)
    if continued is not None:
        # A later turn may name this answer by previous_response_id: still that conversation.
        state.text_answers[text_response_id(index)] = continued
        return text_events(index)
    if not offered or state.position >= len(state.scenarios):
        return text_events(index)
    scenario = state.scenarios[state.position]
    state.position += 1
    try:
        mapped = map_scenario(scenario.events, offered, state.overrides)
    except MappingError as error:
        state.errors.append(f"{scenario.name}: {error}")
        return text_events(index)
    state.served.append(Served(scenario, mapped, index, body))
    return list(mapped.events)


def _maybe_finish(state: ServeState) -> None:
    if state.once and state.done is not None and state.finished():
        state.done.set()


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


async def serve_forever(
    scenarios: Sequence[Scenario],
    *,
    out: str | Path,
    port: int = 0,
    once: bool = False,
    overrides: Sequence[Override] = (),
    framing: Framing = Framing(),
    announce: Any = print,
) -> Verdicts:
    """Serve until SIGINT/SIGTERM (or, with ``once``, until every scenario was served
    and continued); then judge and write ``verdicts.json``.  ``announce`` gets the
    ``listening on ...`` line first."""
    import signal

    state = _state(scenarios, out, overrides, framing, once)
    state.done = asyncio.Event()
    runner, bound = await start_loopback(build_app(state), port)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, state.done.set)
    announce(f"listening on http://{LOOPBACK}:{bound}/v1")
    try:
        await state.done.wait()
    finally:
        await runner.cleanup()
    return state.write_verdicts()
