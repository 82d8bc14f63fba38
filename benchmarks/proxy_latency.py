"""What the proxy costs in latency: the first text byte, and each call's ``done``.

A slow upstream on 127.0.0.1 (an aiohttp app in a thread) sends one streamed answer as
a provider does, an event every ``--gap`` seconds: a message of ``--deltas`` text
deltas, then two function calls, each with argument deltas, then ``response.completed``.
A client reads the raw bytes (aiohttp) straight from the upstream, and again through
``responses-oracle proxy`` run as a user runs it (its own process), and notes when each
event arrives.  Printed per path: the first text delta's arrival (from the request
being sent), and each call's ``output_item.done`` arrival; the proxy's extra time is
the difference of the medians.  Not a timed test: a measurement, recorded in
``benchmarks/RESULTS.md``.

    python benchmarks/proxy_latency.py --runs 20 --gap 0.05
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from aiohttp import ClientSession, web
from responses_oracle.serve.server import Framing, start_loopback
from responses_oracle.wire.sse import SSEDecoder

LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+/v1)")


def answer(deltas: int) -> list[dict[str, Any]]:
    """One response as the API streams it: a message, then two calls, then the end."""
    rid = "resp_bench"
    text = [f"word{n} " for n in range(deltas)]
    message = {"type": "message", "id": "msg_bench", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": "".join(text), "annotations": []}]}
    scoped = {"item_id": "msg_bench", "output_index": 0, "content_index": 0}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": _response(rid, "in_progress", [])},
        {"type": "response.in_progress", "response": _response(rid, "in_progress", [])},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {**message, "status": "in_progress", "content": []}},
        {"type": "response.content_part.added", **scoped,
         "part": {"type": "output_text", "text": "", "annotations": []}},
        *({"type": "response.output_text.delta", **scoped, "delta": d, "logprobs": []}
          for d in text),
        {"type": "response.output_text.done", **scoped, "text": "".join(text), "logprobs": []},
        {"type": "response.content_part.done", **scoped, "part": message["content"][0]},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
    ]
    calls = []
    for n in (1, 2):
        arguments = json.dumps({"city": f"city number {n}"})
        pieces = [arguments[i:i + 6] for i in range(0, len(arguments), 6)]
        call = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
                "name": "get_weather", "arguments": arguments, "status": "completed"}
        at = {"output_index": n, "item_id": f"fc_{n}"}
        events += [
            {"type": "response.output_item.added", "output_index": n,
             "item": {**call, "arguments": "", "status": "in_progress"}},
            *({"type": "response.function_call_arguments.delta", **at, "delta": p}
              for p in pieces),
            {"type": "response.function_call_arguments.done", **at, "arguments": arguments},
            {"type": "response.output_item.done", "output_index": n, "item": call},
        ]
        calls.append(call)
    events.append({"type": "response.completed",
                   "response": _response(rid, "completed", [message, *calls])})
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _response(rid: str, status: str, output: list[Any]) -> dict[str, Any]:
    usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 2}
    return {"id": rid, "object": "response", "created_at": 1, "status": status,
            "model": "bench", "output": output, "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
            "usage": usage if status != "in_progress" else None}


@contextmanager
def upstream_of(writes: list[bytes], gap: float = 0.0) -> Iterator[str]:
    """A loopback upstream: every request gets ``writes``, one write every ``gap``
    seconds (at once for 0); its base URL."""

    async def handle(request: web.Request) -> web.StreamResponse:
        await request.read()
        reply = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await reply.prepare(request)
        for write in writes:
            await reply.write(write)
            if gap:
                await asyncio.sleep(gap)
        await reply.write_eof()
        return reply

    app = web.Application()
    app.router.add_post("/v1/responses", handle)
    # The same answer where the proxy passes it on unread (proxy_throughput's floor).
    app.router.add_post("/v1/floor", handle)
    loop = asyncio.new_event_loop()
    runner, port = loop.run_until_complete(start_loopback(app, 0))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def slow_upstream(events: list[dict[str, Any]], gap: float) -> AbstractContextManager[str]:
    """The upstream: every request gets ``events``, one every ``gap`` seconds."""
    return upstream_of(list(Framing().frames(events)), gap)


@contextmanager
def proxy_started(upstream: str, package: str | None = None) -> Iterator[tuple[str, int]]:
    """``responses-oracle proxy --upstream`` in its own process; its base URL and pid.
    With ``package``, the package found there (first on ``PYTHONPATH``) is run."""
    main = "import sys; from responses_oracle.cli import main; sys.exit(main())"
    env = None if package is None else {**os.environ, "PYTHONPATH": package}
    process = subprocess.Popen([sys.executable, "-c", main, "proxy", "--upstream", upstream],
                               stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        found = LISTENING.search(process.stdout.readline())
        assert found, "the proxy did not start"
        yield found.group(1), process.pid
    finally:
        process.terminate()
        process.wait(30)


@contextmanager
def proxy_process(upstream: str) -> Iterator[str]:
    """``responses-oracle proxy --upstream`` in its own process; its base URL."""
    with proxy_started(upstream) as (url, _):
        yield url


async def arrivals(session: ClientSession, base_url: str) -> dict[str, float]:
    """Seconds from the request to the first text delta and to each call's done."""
    decoder = SSEDecoder()
    seen: dict[str, float] = {}
    started = time.perf_counter()
    body = {"model": "bench", "input": "hi", "stream": True}
    async with session.post(f"{base_url}/responses", json=body) as reply:
        async for chunk in reply.content.iter_any():
            now = time.perf_counter() - started
            for message in decoder.feed(chunk):
                event = json.loads(message.data)
                if event["type"] == "response.output_text.delta":
                    seen.setdefault("first text delta", now)
                elif event["type"] == "response.output_item.done" and event["item"].get(
                    "call_id"
                ):
                    seen.setdefault(f"{event['item']['call_id']} done", now)
                elif event["type"] == "response.completed":
                    seen.setdefault("terminal", now)
    return seen


async def measure(urls: dict[str, str], runs: int) -> dict[str, dict[str, list[float]]]:
    found: dict[str, dict[str, list[float]]] = {name: {} for name in urls}
    async with ClientSession() as session:
        for _ in range(runs):
            for name, url in urls.items():
                for key, value in (await arrivals(session, url)).items():
                    found[name].setdefault(key, []).append(value)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between events")
    parser.add_argument("--deltas", type=int, default=10, help="text deltas in the message")
    args = parser.parse_args()
    events = answer(args.deltas)
    with slow_upstream(events, args.gap) as upstream, proxy_process(upstream) as proxied:
        found = asyncio.run(measure({"upstream": upstream, "proxy": proxied}, args.runs))
    print(f"{len(events)} events, one every {args.gap * 1000:.0f} ms; {args.runs} runs each; "
          "median (max) seconds from the request")
    keys = list(found["upstream"])
    print(f"{'arrival of':<18} {'upstream':>16} {'via proxy':>16} {'proxy - upstream':>17}")
    for key in keys:
        up, px = found["upstream"][key], found["proxy"].get(key, [])
        if not px:
            print(f"{key:<18} {_cell(up):>16} {'never':>16}")
            continue
        extra = statistics.median(px) - statistics.median(up)
        print(f"{key:<18} {_cell(up):>16} {_cell(px):>16} {extra * 1000:>14.1f} ms")


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.4f} ({max(values):.4f})"


if __name__ == "__main__":
    main()
