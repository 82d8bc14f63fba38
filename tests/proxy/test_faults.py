"""The proxy in front of an upstream that misbehaves, and a client that leaves.

What a gateway owes (proxy endpoint rules 7-9), each measured on 127.0.0.1:

- a client that leaves while the upstream is silent frees the upstream request within
  a second (the upstream sees its connection close);
- an upstream that stops sending is ended at ``--upstream-timeout``, and the log says so;
- an upstream that cannot be reached is a 502 with a JSON error body and a log line;
- a path stays under the upstream's base path: ``..``, ``%2e%2e``, ``%3F``, ``%23``;
- a port in use is refused with status 2 and nothing left open ("Unclosed client
  session").
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web
from responses_oracle.proxy import ProxyConfig, endpoint, running
from responses_oracle.serve import load_scenario

from .test_cli import _proxy
from .test_proxy import S01, first_turn
from .upstreams import SSE, frames, sse_body, upstream

OPENING = b"".join(frames(list(load_scenario(S01).events[:1])))
"""The first event of s01 (``response.created``): the upstream is under way."""


def _stalling(freed: list[float]) -> Any:
    """An upstream that sends the opening, then nothing; ``freed`` gets the time its
    request's connection closed (the proxy let it go)."""

    async def answer(request: web.Request) -> web.StreamResponse:
        await request.read()
        reply = web.StreamResponse(headers=SSE)
        await reply.prepare(request)
        await reply.write(OPENING)
        for _ in range(600):  # 30 s at most
            transport = request.transport
            if transport is None or transport.is_closing():
                freed.append(time.monotonic())
                break
            await asyncio.sleep(0.05)
        return reply

    return answer


def _open(
    base_url: str,
    path: str = "/responses",
    method: str = "POST",
    body: dict[str, Any] | None = None,
) -> http.client.HTTPConnection:
    """Send a request to the proxy with ``path`` as written (no normalisation)."""
    host, port = base_url.removeprefix("http://").split("/")[0].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    payload = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, payload, {"Content-Type": "application/json"})
    return connection


def test_a_client_that_leaves_while_the_upstream_is_silent_frees_it_within_a_second() -> None:
    freed: list[float] = []
    with upstream(_stalling(freed)) as url, running(ProxyConfig(url)) as proxy:
        connection = _open(proxy.base_url, "/v1/responses", body=first_turn())
        reply = connection.getresponse()
        assert reply.status == 200
        assert b"response.created" in reply.read1(65536)  # the upstream is under way
        assert connection.sock is not None
        connection.sock.shutdown(socket.SHUT_RDWR)
        connection.close()
        left = time.monotonic()
        deadline = left + 5
        while not freed and time.monotonic() < deadline:
            time.sleep(0.02)
        # The log line is written as the handler ends.
        while not proxy.logged and time.monotonic() < deadline:
            time.sleep(0.02)
    assert freed, "the upstream request was never closed"
    assert freed[0] - left < 1.0
    [line] = proxy.logged
    assert line["ended"] == "client_gone"


def test_an_upstream_that_stops_sending_is_ended_at_the_timeout() -> None:
    freed: list[float] = []
    timeout = 0.5
    with (
        upstream(_stalling(freed)) as url,
        running(ProxyConfig(url, upstream_timeout=timeout)) as proxy,
    ):
        started = time.monotonic()
        connection = _open(proxy.base_url, "/v1/responses", body=first_turn())
        reply = connection.getresponse()
        got = b""
        with pytest.raises(http.client.IncompleteRead):  # broken, as a break is
            while chunk := reply.read1(65536):
                got += chunk
        ended = time.monotonic() - started
        connection.close()
    assert b"response.created" in got and b"response.completed" not in got
    assert timeout <= ended < timeout + 1.0
    [line] = proxy.logged
    assert line["ended"] == "upstream_timeout"
    assert freed and freed[0] - started < timeout + 1.0


def _refusing_port() -> int:
    """A port on 127.0.0.1 nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("method", "path"), [("POST", "/v1/responses"), ("GET", "/v1/models")])
def test_an_unreachable_upstream_is_a_502_with_a_json_error(method: str, path: str) -> None:
    url = f"http://127.0.0.1:{_refusing_port()}/v1"
    with running(ProxyConfig(url)) as proxy:
        body = first_turn() if method == "POST" else None
        reply = _open(proxy.base_url, path, method, body).getresponse()
        answer = reply.read()
    assert reply.status == 502
    assert reply.getheader("Content-Type", "").startswith("application/json")
    error = json.loads(answer)["error"]
    assert error["type"] == "upstream_unreachable" and "Traceback" not in answer.decode()
    [line] = proxy.logged
    assert (line["ended"], line["upstream_status"]) == ("upstream_unreachable", None)


CONFINED = {
    "/v1/a/../models": ("/base/v1/models", ""),
    "/v1/models/%2e%2e/files": ("/base/v1/files", ""),
    "/v1/models%3Fafter=x": ("/base/v1/models%3Fafter=x", ""),
    "/v1/models%23frag?limit=1": ("/base/v1/models%23frag", "limit=1"),
    "/v1/files/%2F..%2Fsecret": ("/base/v1/files/secret", ""),
}
"""A path as the client wrote it → the path and query the upstream got, under its base
path ``/base/v1``: decoded once (``%2F`` is a slash), dot segments resolved, a decoded
``?`` or ``#`` encoded again inside its segment."""

REFUSED = ("/v1/%2e%2e/%2e%2e/secret", "/v1/..%2F..%2Fsecret", "/v1/%2E%2E/x")
"""Paths that climb above the base path once decoded: answered 400, never forwarded."""


def test_paths_stay_under_the_upstreams_base_path() -> None:
    seen: list[tuple[str, str]] = []

    async def echo(request: web.Request) -> web.Response:
        seen.append((request.raw_path.split("?")[0], request.query_string))
        return web.json_response({"object": "list", "data": []})

    base = ProxyConfig("")
    with upstream(echo) as url, running(replace(base, upstream=f"{url[:-3]}/base/v1")) as proxy:
        for path, expected in CONFINED.items():
            seen.clear()
            reply = _open(proxy.base_url, path, "GET").getresponse()
            reply.read()
            assert (reply.status, seen) == (200, [expected]), path
        for path in REFUSED:
            seen.clear()
            reply = _open(proxy.base_url, path, "GET").getresponse()
            answer = json.loads(reply.read())
            assert (reply.status, seen) == (400, []), path
            assert answer["error"]["type"] == "invalid_path"


def test_a_port_in_use_is_refused_with_nothing_left_open() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = _proxy("--upstream", "http://127.0.0.1:9/v1", "--port", str(port))
        out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (2, "")
    assert "cannot listen on 127.0.0.1" in err
    assert "Unclosed" not in err and "Traceback" not in err


def test_the_command_lines_proxy_keeps_no_log_line_in_memory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``proxy_forever`` (``responses-oracle proxy``) runs for days in front of real
    traffic: each request's log line goes to ``--log``, none is kept in memory (an
    in-process proxy, ``running``, keeps them for its caller)."""
    made: list[endpoint.ProxyState] = []

    class Kept(endpoint.ProxyState):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(endpoint, "ProxyState", Kept)
    log = tmp_path / "proxy.log"
    events = [
        {"type": kind, "response": {"id": "resp_1", "status": status}, "sequence_number": n}
        for n, (kind, status) in enumerate(
            [("response.created", "in_progress"), ("response.completed", "completed")]
        )
    ]

    async def one_request(url: str) -> None:
        listening: asyncio.Queue[str] = asyncio.Queue()
        config = ProxyConfig(url, log=log)
        task = asyncio.create_task(endpoint.proxy_forever(config, announce=listening.put_nowait))
        base = (await listening.get()).removeprefix("listening on ")
        async with ClientSession() as session, session.post(
            f"{base}/responses", json=first_turn()
        ) as reply:
            assert reply.status == 200
            await reply.read()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    with upstream(sse_body(frames(events))) as url:
        asyncio.run(one_request(url))
    [state] = made
    assert state.logged is None
    [line] = [json.loads(text) for text in log.read_text().splitlines()]
    assert line["ended"] == "terminal"

