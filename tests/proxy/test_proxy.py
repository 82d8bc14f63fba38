"""``proxy`` between an upstream and real clients, all on 127.0.0.1.

serve is the upstream where a scenario is needed (its gateway mode compares what the
client behind the proxy received with what serve sent); small aiohttp apps play the
faulty providers.  Downstream: openai-python's streaming client, driven as an
application drives it, and plain HTTP (the bytes, reduced by the reference).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import openai
import pytest
from aiohttp import web
from helpers import REPO
from responses_oracle.proxy import REPAIRS_COMMENT, REPAIRS_HEADER, ProxyConfig, Relay, running
from responses_oracle.proxy.endpoint import READ_SLICE, _drain
from responses_oracle.reducer import reduce
from responses_oracle.serve import load_scenario
from responses_oracle.serve import running as serving
from responses_oracle.wire import read_wire_events
from serve.test_clients import PARALLEL, WEATHER, two_turns

from .upstreams import SSE, frames, sse_body, upstream

S01 = str(REPO / "fixtures" / "scenarios" / "s01-one-call.jsonl")
S03 = str(REPO / "fixtures" / "scenarios" / "s03-cut-before-terminal.jsonl")
KEY = "sk-proxy-test-key-0123456789"


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None
         ) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` as JSON; the status, headers and whole body (an error's too)."""
    request = urllib.request.Request(
        f"{url}/responses", json.dumps(body).encode(),
        {"Content-Type": "application/json", "Authorization": f"Bearer {KEY}",
         **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def first_turn(stream: bool = True) -> dict[str, Any]:
    return {"model": "gpt-test", "input": "Weather in Paris?", "tools": [WEATHER],
            "stream": stream}


def test_openai_python_behind_the_proxy_runs_every_call_as_serve_judges_it(
    tmp_path: Path,
) -> None:
    with serving([load_scenario(PARALLEL)], out=tmp_path) as served, running(
        ProxyConfig(served.base_url)
    ) as proxy:
        two_turns(proxy.base_url)
        verdicts = served.verdicts()
    assert verdicts.ok, verdicts.failures()
    [scenario] = verdicts.scenarios
    assert len(scenario.calls) == 2
    assert all(v.value is not False for call in scenario.calls for v in call.verdicts)


@pytest.mark.parametrize("scenario", [S01, PARALLEL])
def test_what_the_client_receives_reduces_to_the_answer_serve_sent(
    scenario: str, tmp_path: Path
) -> None:
    with serving([load_scenario(scenario)], out=tmp_path) as served, running(
        ProxyConfig(served.base_url)
    ) as proxy:
        status, headers, body = post(proxy.base_url, first_turn())
        verdict = served.record_downstream(body)
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
    assert verdict.value, verdict.reason
    assert body.rstrip().endswith(f": {REPAIRS_COMMENT} 0".encode())


def test_the_key_and_headers_reach_the_upstream_and_the_key_is_never_logged(
    tmp_path: Path,
) -> None:
    seen: list[Any] = []
    events = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                                  "output": []}},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
                                                    "output": []}},
    ]

    async def answer(request: web.Request) -> web.StreamResponse:
        seen.append(request.headers.copy())
        return await sse_body(frames(events))(request)

    log = tmp_path / "repairs.jsonl"
    with upstream(answer) as url, running(ProxyConfig(url, log=log)) as proxy:
        status, _, _ = post(proxy.base_url, first_turn(), {"OpenAI-Organization": "org-x"})
    assert status == 200
    assert seen[0]["Authorization"] == f"Bearer {KEY}"
    assert seen[0]["OpenAI-Organization"] == "org-x"
    written = log.read_text()
    assert [json.loads(line)["ended"] for line in written.splitlines()] == ["terminal"]
    assert KEY not in written


def test_an_upstream_http_error_reaches_the_client_with_its_status_and_body() -> None:
    error = {"error": {"message": "Rate limit reached", "type": "rate_limit_exceeded"}}

    async def answer(request: web.Request) -> web.StreamResponse:
        return web.json_response(error, status=429, headers={"Retry-After": "7"})

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        for stream in (True, False):
            status, headers, body = post(proxy.base_url, first_turn(stream))
            assert (status, json.loads(body), headers["Retry-After"]) == (429, error, "7")
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(openai.RateLimitError, match="Rate limit reached"):
            client.responses.create(model="gpt-test", input="hi", stream=True)


def test_an_upstream_server_error_streamed_as_text_passes_through() -> None:
    async def answer(request: web.Request) -> web.StreamResponse:
        return web.Response(status=503, text="upstream overloaded", headers=SSE)

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
    assert (status, body) == (503, b"upstream overloaded")


def test_a_stream_cut_before_its_terminal_reaches_the_client_cut(tmp_path: Path) -> None:
    with serving([load_scenario(S03)] * 2, out=tmp_path) as served, running(
        ProxyConfig(served.base_url)
    ) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
        verdict = served.record_downstream(body)
        non_streaming = post(proxy.base_url, first_turn(stream=False))
    assert status == 200 and verdict.value, verdict.reason
    [result] = reduce(body)
    assert result.status.value == "interrupted"
    types = [e.payload["type"] for e in read_wire_events(body) if e.payload]
    assert not {"response.completed", "response.failed", "response.incomplete"} & set(types)
    # stream: false has no terminal to answer with: a gateway's 502 and an error body.
    assert non_streaming[0] == 502
    assert "ended before its terminal" in json.loads(non_streaming[2])["error"]["message"]


def test_a_broken_upstream_connection_breaks_the_client_connection() -> None:
    events = load_scenario(S01).events
    with upstream(sse_body(frames(list(events[:3])), abort=True)) as url, running(
        ProxyConfig(url)
    ) as proxy:
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        received: list[str] = []
        with pytest.raises(openai.APIError), client.responses.create(
            model="gpt-test", input="hi", stream=True
        ) as stream:
            received.extend(event.type for event in stream)
        assert received[0] == "response.created"
        assert proxy.logged[-1]["ended"] == "broken"


def test_stream_false_gets_the_canonical_response_object_and_the_repair_count(
    tmp_path: Path,
) -> None:
    with serving([load_scenario(PARALLEL)], out=tmp_path) as served, running(
        ProxyConfig(served.base_url)
    ) as proxy:
        status, headers, body = post(proxy.base_url, first_turn(stream=False))
        [asked] = [r["body"] for r in served.state.requests]
    assert status == 200 and headers[REPAIRS_HEADER] == "0"
    response = json.loads(body)
    assert response["status"] == "completed"
    assert [item["type"] for item in response["output"]] == [
        "reasoning", "function_call", "function_call"
    ]
    assert asked["stream"] is True  # the one change to the forwarded body


def test_dry_run_forwards_the_bytes_unchanged_and_logs() -> None:
    events = load_scenario(PARALLEL).events
    sent = frames(list(events))
    with upstream(sse_body(sent)) as url, running(ProxyConfig(url, dry_run=True)) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
    assert status == 200
    assert body == b"".join(sent)
    assert [line["mode"] for line in proxy.logged] == ["dry-run"]


def test_other_routes_are_forwarded_unchanged() -> None:
    async def answer(request: web.Request) -> web.StreamResponse:
        return web.json_response(
            {"method": request.method, "path": request.path, "query": request.query_string},
            status=201,
        )

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        request = urllib.request.Request(f"{proxy.base_url}/files?purpose=x", method="DELETE")
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.status == 201
            assert json.loads(reply.read()) == {
                "method": "DELETE", "path": "/v1/files", "query": "purpose=x"
            }


def test_a_slow_conversation_does_not_hold_up_another() -> None:
    events = load_scenario(S01).events
    slow = frames(list(events))

    async def answer(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        return await sse_body(slow, delay=0.3 if body["input"] == "slow" else 0.0)(request)

    finished: dict[str, float] = {}

    def ask(proxy_url: str, text: str) -> None:
        post(proxy_url, {**first_turn(), "input": text})
        finished[text] = time.monotonic()

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        slow_one = threading.Thread(target=ask, args=(proxy.base_url, "slow"))
        slow_one.start()
        time.sleep(0.2)
        ask(proxy.base_url, "fast")
        slow_one.join()
    assert finished["fast"] < finished["slow"]


def test_text_deltas_leave_the_proxy_before_the_upstream_ends() -> None:
    """No buffering: each text delta is sent on as it arrives (rule 2 of the relay)."""
    created = {"type": "response.created",
               "response": {"id": "resp_t", "status": "in_progress", "output": []}}
    message = {"type": "message", "id": "msg_t", "role": "assistant", "status": "in_progress",
               "content": []}
    scoped = {"item_id": "msg_t", "output_index": 0, "content_index": 0}
    head: list[dict[str, Any]] = [created,
            {"type": "response.output_item.added", "output_index": 0, "item": message},
            {"type": "response.content_part.added", **scoped,
             "part": {"type": "output_text", "text": "", "annotations": []}},
            {"type": "response.output_text.delta", **scoped, "delta": "Hello", "logprobs": []}]
    gate = threading.Event()

    async def answer(request: web.Request) -> web.StreamResponse:
        reply = web.StreamResponse(headers=SSE)
        await reply.prepare(request)
        for chunk in frames(head):
            await reply.write(chunk)
        await asyncio.to_thread(gate.wait, 10)
        await reply.write_eof()
        return reply

    with upstream(answer) as url, running(ProxyConfig(url)) as proxy:
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with client.responses.create(model="gpt-test", input="hi", stream=True) as stream:
            deltas = (event for event in stream if event.type == "response.output_text.delta")
            first = next(deltas)
            held_open = not gate.is_set()
            gate.set()
    assert first.delta == "Hello" and held_open


def test_a_burst_read_at_once_leaves_in_slices_with_the_same_bytes() -> None:
    """A read of many events is relayed a ``READ_SLICE`` at a time, each slice's events
    written before the next is read (the client parses while the relay reads); the
    bytes are those of the whole read relayed at once."""
    scoped = {"item_id": "msg_b", "output_index": 0, "content_index": 0}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_b", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "message", "id": "msg_b", "role": "assistant", "content": []}},
        {"type": "response.content_part.added", **scoped,
         "part": {"type": "output_text", "text": "", "annotations": []}},
        *({"type": "response.output_text.delta", **scoped, "delta": f"word{n} "}
          for n in range(4000)),
    ]
    burst = b"".join(frames(events))
    assert len(burst) > 3 * READ_SLICE

    async def read() -> AsyncIterator[bytes]:
        yield burst  # everything in one read, as a socket buffer holding a burst gives it

    writes: list[bytes] = []

    async def write(data: bytes) -> None:
        writes.append(data)

    upstream_ = SimpleNamespace(content=SimpleNamespace(iter_any=read))
    ended = asyncio.run(_drain(upstream_, Relay(), SimpleNamespace(write=write)))  # type: ignore[arg-type]
    assert ended == "body_end"
    assert len(writes) == -(-len(burst) // READ_SLICE)
    assert b"".join(writes) == Relay().feed(burst)


def test_dry_run_forwards_a_json_request_as_it_is_and_its_answer_unchanged() -> None:
    async def answer(request: web.Request) -> web.StreamResponse:
        return web.json_response({"asked": await request.json()})

    with upstream(answer) as url, running(ProxyConfig(url, dry_run=True)) as proxy:
        status, _, body = post(proxy.base_url, first_turn(stream=False))
    assert status == 200
    assert json.loads(body) == {"asked": first_turn(stream=False)}
    assert proxy.logged == []


DONE = b"data: [DONE]\n\n"


@pytest.mark.parametrize("sentinel", [True, False])
def test_done_reaches_the_client_at_the_end_only_when_the_upstream_sent_it(
    sentinel: bool,
) -> None:
    sent = frames(list(load_scenario(S01).events)) + ([DONE] if sentinel else [])
    with upstream(sse_body(sent)) as url, running(ProxyConfig(url)) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
    assert status == 200
    assert body.count(b"[DONE]") == int(sentinel)
    # Nothing but the repairs comment after it: every event is out before it.
    events, _, tail = body.partition(DONE)
    assert tail.startswith(b": " + REPAIRS_COMMENT.encode()) if sentinel else not tail
    assert reduce(events)[0].status.value == "completed"


def test_done_before_the_terminal_waits_for_the_end_and_after_it_goes_at_once() -> None:
    """A ``[DONE]`` that comes while the canonical stream holds events goes out after
    them (at ``close``); one after the terminal goes out as it arrives (relay rule 5)."""
    head, terminal = frames(list(load_scenario(S01).events[:-1])), frames(
        [load_scenario(S01).events[-1]])
    early = Relay()
    for chunk in head:
        early.feed(chunk)
    assert DONE not in early.feed(DONE)
    ended = early.feed(b"".join(terminal)) + early.close()
    assert ended.endswith(DONE) and ended.count(DONE) == 1
    prompt = Relay()
    for chunk in head + terminal:
        prompt.feed(chunk)
    assert prompt.feed(DONE) == DONE
    assert prompt.close() == b""
