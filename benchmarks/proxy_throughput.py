"""What the proxy costs in throughput: the whole answer, sent in bursts, and a 50 MB one.

An upstream on 127.0.0.1 (an aiohttp app in a thread) sends one streamed answer as fast
as it can, ``--burst`` events per write: the message and two calls of
``proxy_latency.answer`` with ``--deltas`` text deltas (the burst stream: its fields in
the order serve and LM Studio write them, ``sequence_number`` last), the same in
OpenAI's spelling (``openai_spelling``: ``sequence_number`` second, an ``obfuscation``
on each delta), and the same answer with its text grown to ``--megabytes`` MB in deltas
of ``--delta-bytes`` (the large stream: the text is sent five times -- deltas, text
done, part done, item done, snapshot -- so 10 MB of text is a 50 MB stream). A client
reads each answer as a client does (SSE decoded, every event parsed as JSON), straight
from the upstream and through ``responses-oracle proxy`` run as a user runs it (its own
process), alternately, ``--runs`` times each. Printed per stream: the median (max)
seconds from the request to the body's end on each path, and their ratio (#39's bounds:
1.3 for bursts, 1.5 for 50 MB), and the CPU seconds the proxy process used per answer
(median; Linux ``/proc``). In the same alternation openai-python reads each answer as
its users stream one (``client.responses.create(..., stream=True)``, every event
iterated and parsed into its model; the version the test extra pins): a second table,
the same columns, beside the bare reader's (a bound on what the proxy adds: no client
reads an answer faster, and #39's reporter measured the clients); and the AI SDK reads
them as an app does (``streamText`` over its OpenAI Responses provider, the answer's
tool declared, ``fullStream`` consumed: ``benchmarks/ai_sdk_reader.mjs``, one Node
process for the whole run, the SDK of ``adapters/node``'s pinned install), a third
table; and the bare reader once more through the same proxy process, the answer asked
for at ``FLOOR``, which the proxy passes on unread (it is no Responses request): the
floor, what the proxy's own reading and writing cost with no relay, a fourth table. The
machine these run on is shared and loaded, so the relay alone is measured too, in this
process: each stream's body through a ``Relay`` in the chunks the proxy reads (the
upstream's writes in ``endpoint.READ_SLICE`` slices), ``--relay-runs`` times with its
fast paths on and off (``Relay(fast=...)``, rule 6 of ``proxy.relay``), alternately; the
CPU seconds of each run (``time.process_time``: what the neighbours take is not
counted), best and median. To set two checkouts side by side: ``--against PATH`` also
runs the answers through a second proxy, the package found at ``PATH`` (first on
``PYTHONPATH``: another checkout's ``responses_oracle`` laid out as installed), in the
same alternation; ``--relay-only`` measures the relay alone and nothing else (run it
alternately with the other package on ``PYTHONPATH``). Not a timed test: a measurement,
recorded in ``benchmarks/RESULTS.md``.

    python benchmarks/proxy_throughput.py --runs 7 --relay-runs 9
    python benchmarks/proxy_throughput.py --runs 7 --relay-runs 1 --against /tmp/main/src
    python benchmarks/proxy_throughput.py --relay-only --relay-runs 9
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Final

from aiohttp import ClientSession
from openai import OpenAI
from responses_oracle.proxy.endpoint import READ_SLICE
from responses_oracle.proxy.relay import Relay
from responses_oracle.serve.server import Framing
from responses_oracle.wire.sse import SSEDecoder

sys.path.insert(0, str(Path(__file__).parent))
from proxy_latency import answer, proxy_started, upstream_of


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


FLOOR: Final = "floor"
"""The upstream's path that answers as ``responses`` does but is no Responses request:
the proxy passes it on unread (the floor of what the proxy costs)."""

_TEXT: list[str] = []
"""The message text of the base answer, replaced by ``large`` (set in ``main``)."""


def openai_spelling(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` as OpenAI spells them: ``sequence_number`` second, and each delta with
    its ``obfuscation`` (a different 12 characters each, as OpenAI sends them) last."""
    out = []
    for n, event in enumerate(events):
        spelled = {"type": event["type"], "sequence_number": event["sequence_number"], **event}
        if event["type"].endswith(".delta"):
            spelled["obfuscation"] = f"{n * 7919:012x}"
        out.append(spelled)
    return out


def bursts(frames: list[bytes], burst: int) -> list[bytes]:
    """The writes of an upstream that sends ``frames``, ``burst`` of them per write."""
    return [b"".join(frames[i : i + burst]) for i in range(0, len(frames), burst)]


async def whole(
    session: ClientSession, base_url: str, path: str = "responses"
) -> tuple[float, int]:
    """Seconds from the request to the body's end, and the events read (the answer
    asked for at ``path``)."""
    decoder = SSEDecoder()
    count = 0
    started = time.perf_counter()
    body = {"model": "bench", "input": "hi", "stream": True}
    async with session.post(f"{base_url}/{path}", json=body) as reply:
        async for chunk in reply.content.iter_any():
            for message in decoder.feed(chunk):
                if message.data != "[DONE]":
                    json.loads(message.data)
                    count += 1
    return time.perf_counter() - started, count


def sdk(client: OpenAI) -> tuple[float, int]:
    """openai-python as its users stream an answer (``client.responses.create(...,
    stream=True)``, every event iterated, each parsed into its model): seconds from
    the request to the last event, and the events read."""
    count = 0
    started = time.perf_counter()
    with client.responses.create(model="bench", input="hi", stream=True) as stream:
        for _ in stream:
            count += 1
    return time.perf_counter() - started, count


class AiSdk:
    """The AI SDK as an app streams an answer (``benchmarks/ai_sdk_reader.mjs``): one
    Node process kept for the whole run, asked for one answer at a time."""

    def __init__(self) -> None:
        reader = Path(__file__).with_name("ai_sdk_reader.mjs")
        self._node = subprocess.Popen(
            ["node", str(reader)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def read(self, base_url: str) -> float:
        """Seconds from ``streamText`` to the end of its ``fullStream``; an answer the
        SDK did not read whole (an error, not both calls) stops the benchmark."""
        assert self._node.stdin is not None and self._node.stdout is not None
        self._node.stdin.write(base_url + "\n")
        self._node.stdin.flush()
        line = self._node.stdout.readline()
        if not line:
            raise SystemExit(f"the AI SDK reader stopped (exit {self._node.wait()})")
        answer = json.loads(line)
        if answer["error"] is not None or answer["calls"] != 2:
            raise SystemExit(f"the AI SDK did not read the answer from {base_url}: {answer}")
        return float(answer["seconds"])

    def close(self) -> None:
        """End the Node process."""
        assert self._node.stdin is not None
        self._node.stdin.close()
        self._node.wait()


def relay_cpu(writes: list[bytes], runs: int) -> dict[bool, list[float]]:
    """CPU seconds of ``writes`` through a ``Relay``, fast paths on (True) and off, per
    run, fed as the proxy feeds them (``endpoint._drain``: each write in slices of
    ``READ_SLICE``); the two relays' bytes are checked equal first."""
    reads = [w[i : i + READ_SLICE] for w in writes for i in range(0, len(w), READ_SLICE)]

    def through(fast: bool) -> list[bytes]:
        # The writes as the proxy sends them, one per read: not joined.
        relay = Relay(fast=fast)
        return [*map(relay.feed, reads), relay.close()]

    assert b"".join(through(True)) == b"".join(through(False))
    found: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(runs):
        for fast in (True, False):
            started = time.process_time()
            through(fast)
            found[fast].append(time.process_time() - started)
    return found


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) process ``pid`` has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(urls: dict[str, str], runs: int, pid: int) -> dict[str, list[float]]:
    """Per path, the seconds to each answer's end, read by the bare reader (``whole``;
    under ``floor proxy``, through the proxy at ``FLOOR``),
    under ``sdk <path>`` by openai-python (``sdk``) and under ``ai <path>`` by the AI
    SDK (``AiSdk``), in the same alternation;
    under ``cpu``, the CPU seconds the proxy process ``pid`` used for each answer the
    bare reader read."""
    found: dict[str, list[float]] = {name: [] for name in [*urls, "cpu"]}
    clients = {
        name: OpenAI(base_url=url, api_key="bench", max_retries=0) for name, url in urls.items()
    }
    ai = AiSdk()
    for name, client in clients.items():  # a first answer builds models: not counted
        sdk(client)
        ai.read(urls[name])
    async with ClientSession() as session:
        for _ in range(runs):
            for name, url in urls.items():
                before = cpu_seconds(pid)
                found[name].append((await whole(session, url))[0])
                if name == "proxy":
                    found["cpu"].append(cpu_seconds(pid) - before)
                    # The floor: the same answer on a path the proxy passes on unread.
                    floor = (await whole(session, url, FLOOR))[0]
                    found.setdefault("floor proxy", []).append(floor)
                found.setdefault(f"sdk {name}", []).append(sdk(clients[name])[0])
                found.setdefault(f"ai {name}", []).append(ai.read(url))
    for client in clients.values():
        client.close()
    ai.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deltas", type=int, default=3000, help="text deltas, burst stream")
    parser.add_argument("--burst", type=int, default=200, help="events per upstream write")
    parser.add_argument("--megabytes", type=float, default=10.0, help="text of the large one")
    parser.add_argument("--delta-bytes", type=int, default=4096)
    parser.add_argument("--relay-runs", type=int, default=9, help="relay-alone runs, each way")
    parser.add_argument("--relay-only", action="store_true", help="only the relay alone")
    parser.add_argument("--against", metavar="PATH", help="a second proxy, the package at PATH")
    args = parser.parse_args()
    base = answer(args.deltas)
    _TEXT.append(base[-1]["response"]["output"][0]["content"][0]["text"])
    streams = {
        f"burst ({args.deltas} deltas)": base,
        "burst, OpenAI's order": openai_spelling(base),
        f"large ({args.megabytes:g} MB text)": large(
            answer(args.deltas), args.megabytes, args.delta_bytes
        ),
    }
    writes = {
        name: bursts(list(Framing().frames(events)), args.burst) for name, events in streams.items()
    }
    if not args.relay_only:
        whole_answers(streams, writes, args.runs, args.against)
    print(f"\nthe relay alone, {args.relay_runs} runs each way, alternately; CPU s, best (median)")
    print(f"{'stream':<22} {'fast paths on':>16} {'off':>16} {'on/off':>7}")
    for name, chunks in writes.items():
        cpu = relay_cpu(chunks, args.relay_runs)
        on, off = cpu[True], cpu[False]
        print(f"{name:<22} {_best(on):>16} {_best(off):>16} {min(on) / min(off):>7.2f}")


def whole_answers(
    streams: dict[str, list[dict[str, Any]]],
    writes: dict[str, list[bytes]],
    runs: int,
    against: str | None,
) -> None:
    """Each stream's answer straight from the upstream and through the proxy (and the
    proxy of the package at ``against``), ``runs`` times each, alternately: the table
    of seconds, ratios and the proxy's CPU."""
    print(f"{runs} runs each, alternately; median (max) seconds to the body's end")
    other = f" {'via against':>16} {'ratio':>6}" if against else ""
    print(
        f"{'stream':<22} {'events':>7} {'MB':>6} {'upstream':>16} {'via proxy':>16} {'ratio':>6} "
        f"{'proxy CPU':>10}{other}"
    )
    sdk_rows: list[str] = []
    ai_rows: list[str] = []
    floor_rows: list[str] = []
    for name, events in streams.items():
        size = sum(map(len, writes[name])) / 1e6
        with ExitStack() as stack:
            upstream = stack.enter_context(upstream_of(writes[name]))
            proxied, pid = stack.enter_context(proxy_started(upstream))
            urls = {"upstream": upstream, "proxy": proxied}
            if against:
                urls["against"] = stack.enter_context(proxy_started(upstream, against))[0]
            found = asyncio.run(measure(urls, runs, pid))
        up, px, cpu = found["upstream"], found["proxy"], found["cpu"]
        ratio = statistics.median(px) / statistics.median(up)
        theirs = found.get("against")
        other = (
            f" {_cell(theirs):>16} {statistics.median(theirs) / statistics.median(up):>6.2f}"
            if theirs
            else ""
        )
        print(
            f"{name:<22} {len(events):>7} {size:>6.1f} {_cell(up):>16} {_cell(px):>16} "
            f"{ratio:>6.2f} {statistics.median(cpu):>10.3f}{other}"
        )
        sdk_rows.append(f"{name:<22} " + " ".join(_ratios(found, "sdk ")))
        ai_rows.append(f"{name:<22} " + " ".join(_ratios(found, "ai ")))
        found["floor upstream"] = found["upstream"]
        floor_rows.append(f"{name:<22} " + " ".join(_ratios(found, "floor ")))
    print("\nthe same answers read by openai-python (client.responses.create, stream=True),")
    print("in the same alternation; median (max) seconds to the last event")
    other = f" {'via against':>16} {'ratio':>6}" if against else ""
    header = f"{'stream':<22} {'upstream':>16} {'via proxy':>16} {'ratio':>6}{other}"
    print(header)
    print("\n".join(sdk_rows))
    print("\nthe same answers read by the AI SDK (streamText, the tool declared, fullStream),")
    print("in the same alternation; median (max) seconds to the stream's end")
    print(header)
    print("\n".join(ai_rows))
    print("\nthe floor: the bare reader through the proxy with nothing read or changed (the")
    print(f"answer at /{FLOOR}, which the proxy passes on as it passes any answer that is not a")
    print("Responses stream: its own reading and writing only), in the same alternation")
    print(f"{'stream':<22} {'upstream':>16} {'via proxy':>16} {'ratio':>6}")
    print("\n".join(floor_rows))


def _ratios(found: dict[str, list[float]], prefix: str) -> list[str]:
    """The cells of one row: the upstream's times, then each proxy's and its ratio."""
    up = found[f"{prefix}upstream"]
    cells = [f"{_cell(up):>16}"]
    for path in ("proxy", "against"):
        times = found.get(f"{prefix}{path}")
        if times:
            ratio = statistics.median(times) / statistics.median(up)
            cells += [f"{_cell(times):>16}", f"{ratio:>6.2f}"]
    return cells


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({max(values):.3f})"


def _best(values: list[float]) -> str:
    return f"{min(values):.3f} ({statistics.median(values):.3f})"


if __name__ == "__main__":
    main()
