"""What the proxy costs in throughput: the whole answer, sent in bursts, and a 50 MB one.

An upstream on 127.0.0.1 (an aiohttp app in a thread) sends one streamed answer as fast
as it can, ``--burst`` events per write: the message and two calls of
``proxy_latency.answer`` with ``--deltas`` text deltas (the burst stream), and the same
answer with its text grown to ``--megabytes`` MB in deltas of ``--delta-bytes`` (the
large stream: the text is sent five times -- deltas, text done, part done, item done,
snapshot -- so 10 MB of text is a 50 MB stream).  A client reads each answer as a
client does (SSE decoded, every event parsed as JSON), straight from the upstream and
through ``responses-oracle proxy`` run as a user runs it (its own process),
alternately, ``--runs`` times each.  Printed per stream: the median (max) seconds from
the request to the body's end on each path, and their ratio (#39's bounds: 1.3 for
bursts, 1.5 for 50 MB).  Not a timed test: a measurement, recorded in
``benchmarks/RESULTS.md``.

    python benchmarks/proxy_throughput.py --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from aiohttp import ClientSession
from responses_oracle.serve.server import Framing
from responses_oracle.wire.sse import SSEDecoder

sys.path.insert(0, str(Path(__file__).parent))
from proxy_latency import answer, proxy_process, upstream_of


def large(events: list[dict[str, Any]], megabytes: float, delta_bytes: int) -> list[dict[str, Any]]:
    """``events`` with the message's text grown to ``megabytes`` MB, in deltas of
    ``delta_bytes`` (the done events and the snapshot say the same text)."""
    piece = ("lorem ipsum dolor sit amet " * (delta_bytes // 27 + 1))[:delta_bytes]
    count = int(megabytes * 1e6 // delta_bytes)
    text = piece * count
    out: list[dict[str, Any]] = []
    for event in events:
        kind = event["type"]
        if kind == "response.output_text.delta":
            if not any(e["type"] == kind for e in out):
                out += [{**event, "delta": piece} for _ in range(count)]
            continue
        out.append(json.loads(json.dumps(event).replace(_TEXT[0], text)) if _TEXT else event)
    return [{**event, "sequence_number": n} for n, event in enumerate(out)]


_TEXT: list[str] = []
"""The message text of the base answer, replaced by ``large`` (set in ``main``)."""


def bursting_upstream(frames: list[bytes], burst: int) -> AbstractContextManager[str]:
    """The upstream: every request gets ``frames``, ``burst`` of them per write."""
    return upstream_of([b"".join(frames[i : i + burst]) for i in range(0, len(frames), burst)])


async def whole(session: ClientSession, base_url: str) -> tuple[float, int]:
    """Seconds from the request to the body's end, and the events read."""
    decoder = SSEDecoder()
    count = 0
    started = time.perf_counter()
    body = {"model": "bench", "input": "hi", "stream": True}
    async with session.post(f"{base_url}/responses", json=body) as reply:
        async for chunk in reply.content.iter_any():
            for message in decoder.feed(chunk):
                if message.data != "[DONE]":
                    json.loads(message.data)
                    count += 1
    return time.perf_counter() - started, count


async def measure(urls: dict[str, str], runs: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {name: [] for name in urls}
    async with ClientSession() as session:
        for _ in range(runs):
            for name, url in urls.items():
                found[name].append((await whole(session, url))[0])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deltas", type=int, default=3000, help="text deltas, burst stream")
    parser.add_argument("--burst", type=int, default=200, help="events per upstream write")
    parser.add_argument("--megabytes", type=float, default=10.0, help="text of the large one")
    parser.add_argument("--delta-bytes", type=int, default=4096)
    args = parser.parse_args()
    base = answer(args.deltas)
    _TEXT.append(base[-1]["response"]["output"][0]["content"][0]["text"])
    streams = {
        f"burst ({args.deltas} deltas)": base,
        f"large ({args.megabytes:g} MB text)": large(
            answer(args.deltas), args.megabytes, args.delta_bytes
        ),
    }
    print(f"{args.runs} runs each, alternately; median (max) seconds to the body's end")
    print(f"{'stream':<22} {'events':>7} {'MB':>6} {'upstream':>16} {'via proxy':>16} {'ratio':>6}")
    for name, events in streams.items():
        frames = list(Framing().frames(events))
        size = sum(map(len, frames)) / 1e6
        with bursting_upstream(frames, args.burst) as upstream, proxy_process(upstream) as proxied:
            found = asyncio.run(measure({"upstream": upstream, "proxy": proxied}, args.runs))
        up, px = found["upstream"], found["proxy"]
        ratio = statistics.median(px) / statistics.median(up)
        print(
            f"{name:<22} {len(events):>7} {size:>6.1f} {_cell(up):>16} {_cell(px):>16} "
            f"{ratio:>6.2f}"
        )


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({max(values):.3f})"


if __name__ == "__main__":
    main()
