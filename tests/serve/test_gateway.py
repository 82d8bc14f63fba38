"""Gateway mode: client → gateway → ``serve``; a gateway must not change the answer.

The gateways here are small aiohttp proxies on 127.0.0.1 written for the test: one
passes the stream through, one loses the terminal event on the way (as a proxy that
closes the connection early does).  A plain client (``urllib.request``) records the bytes
the gateway sends it and hands them back to ``serve``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, web
from helpers import REPO
from responses_oracle.serve import GatewayVerdict, load_scenario, running
from responses_oracle.serve.gateway import compare_downstream
from responses_oracle.serve.server import DOWNSTREAM_PATH

from .test_clients import PARALLEL

Frames = Callable[[bytes], bytes]


@contextmanager
def gateway(
    upstream: str,
    rewrite: Frames = lambda body: body,
    forward_as: Frames = lambda body: body,
    port: int = 0,
) -> Iterator[str]:
    """A proxy on 127.0.0.1:``port`` (0: a free one) forwarding ``/v1/responses`` to
    ``upstream`` (the request rewritten by ``forward_as``, the answer by ``rewrite``);
    its base URL.  ``tests/agents/fake_gateway.py`` runs it as a gateway process."""

    async def forward(request: web.Request) -> web.Response:
        async with ClientSession() as session, session.post(
            f"{upstream}/responses", data=forward_as(await request.read()),
            headers={"Content-Type": "application/json"},
        ) as reply:
            body = await reply.read()
            kind = reply.headers.get("Content-Type", "")
        return web.Response(body=rewrite(body), headers={"Content-Type": kind})

    app = web.Application()
    app.router.add_post("/v1/responses", forward)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", port)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def without_terminal(body: bytes) -> bytes:
    frames = body.split(b"\n\n")
    return b"\n\n".join(f for f in frames if b"response.completed" not in f)


TOOLS = [{"type": "function", "name": "get_weather",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]


def _post(url: str, data: bytes) -> bytes:
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        body: bytes = reply.read()
    return body


def _first_turn(base_url: str) -> bytes:
    body = {"model": "gpt-test", "input": "weather?", "tools": TOOLS, "stream": True}
    return _post(f"{base_url}/responses", json.dumps(body).encode())


def test_a_gateway_that_passes_the_stream_through_keeps_the_answer(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url
    ) as through:
        verdict = server.record_downstream(_first_turn(through))
        verdicts = server.verdicts()
    assert verdict.value is True and verdict.differences == ()
    assert verdict.reason == "the downstream reduces to the served answer (1 response)"
    assert verdicts.scenarios[0].gateway == verdict
    written = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["scenarios"][0]["gateway"]["answer_kept"] is True


def test_a_gateway_that_loses_the_terminal_changes_the_answer(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url, without_terminal
    ) as lossy:
        downstream = _first_turn(lossy)
        url = server.base_url.removesuffix("/v1") + DOWNSTREAM_PATH
        reply = json.loads(_post(url, downstream))
        verdicts = server.verdicts()
    assert reply["answer_kept"] is False
    aspects = {d["aspect"] for d in reply["differences"]}
    assert "status" in aspects
    count = len(reply["differences"])
    assert reply["reason"].startswith(f"{count} difference{'' if count == 1 else 's'}; first:")
    assert not verdicts.ok and verdicts.scenarios[0].failed


def with_own_response_ids(body: bytes) -> bytes:
    # As LiteLLM's proxy does: the upstream's response id replaced by one it can decode.
    for spacing in (b'"id": "resp_', b'"id":"resp_'):
        body = body.replace(spacing, spacing + b"gw")
    return body


def test_a_gateway_that_gives_responses_ids_of_its_own_keeps_the_answer(
    tmp_path: Path,
) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url, with_own_response_ids
    ) as minting:
        verdict = server.record_downstream(_first_turn(minting))
    assert verdict.value is True and verdict.differences == ()
    assert [d["aspect"] for d in verdict.uncounted] == ["response_id"]
    assert verdict.uncounted[0]["downstream"].startswith("resp_gw")
    assert verdict.reason.endswith("an id of its own (reported, not counted)")


def with_null_ids(body: bytes) -> bytes:
    request = json.loads(body)
    request["input"] = [{"role": "user", "content": request["input"], "id": None}]
    return json.dumps(request).encode()


def test_the_request_a_gateway_forwards_upstream_is_checked_against_the_schema(
    tmp_path: Path,
) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server, gateway(
        server.base_url, forward_as=with_null_ids
    ) as rewriting:
        verdict = server.record_downstream(_first_turn(rewriting))
    assert verdict.differences == () and verdict.value is False
    assert verdict.upstream_problems and verdict.upstream_problems == (
        "input[0]: item: Additional properties are not allowed ('id' was unexpected)",
    )
    assert verdict.reason.startswith("the request forwarded upstream is invalid")


S03 = REPO / "fixtures" / "scenarios" / "s03-cut-before-terminal.jsonl"


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"data: {json.dumps(event)}\n\n".encode() for event in events)


def _ended_by(terminal: str, output: list[dict[str, Any]]) -> GatewayVerdict:
    """s03 (cut before its terminal) as a gateway relays it, ending it with ``terminal``."""
    served = [json.loads(line) for line in S03.read_text().splitlines()]
    ended = {"type": f"response.{terminal}", "sequence_number": len(served),
             "response": {"id": "resp_s03", "status": terminal, "output": output}}
    return compare_downstream(served, _sse([*served, ended]))


def test_a_gateway_that_ends_a_cut_upstream_with_failed_keeps_run_nothing() -> None:
    # LiteLLM's proxy: the upstream was cut, its client gets an explicit response.failed.
    # The oracle's status is interrupted; both say nothing in the response may run.
    verdict = _ended_by("failed", [])
    assert verdict.value is True and verdict.differences == ()
    [status] = verdict.uncounted
    assert (status["aspect"], status["upstream"], status["downstream"]) == (
        "status", "interrupted", "failed")
    assert "neither completed, so nothing in it may run (R9)" in status["because"]
    assert verdict.reason.endswith("(reported, not counted)")


def test_a_gateway_that_completes_a_cut_upstream_changes_what_may_run() -> None:
    call = {"type": "function_call", "id": "fc_s03", "call_id": "call_s03",
            "name": "get_weather", "arguments": '{"city":"Paris"}', "status": "completed"}
    verdict = _ended_by("completed", [call])
    assert verdict.value is False
    aspects = {d["aspect"] for d in verdict.differences}
    assert {"status", "executable"} <= aspects
    assert verdict.uncounted == ()
