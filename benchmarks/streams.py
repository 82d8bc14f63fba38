"""A deterministic benchmark stream: one long response shaped like a real agent turn.

``generate(n)`` builds a response of exactly ``n`` events (n >= ``min_events(calls)``):

- a ``reasoning`` item at output_index 0 streaming its summary (10% of the deltas);
- a ``message`` at output_index 1 streaming long text (30% of the deltas);
- ``calls`` parallel ``function_call`` items at output_index 2.. whose argument deltas
  (60% of the deltas, 16 to 64 characters each) are interleaved in a pseudo-random order,
  as parallel tool calls arrive from real models;
- every item closed by its ``*.done`` events and ``output_item.done``, and a
  ``response.completed`` whose snapshot repeats every item in full.

So the payloads grow with ``n`` (a 1M-event stream has ~1.5 MB of arguments per call):
a reducer that concatenates strings per delta or rescans its state shows it.  Every
event carries the fields of OpenAI's own event models (``sequence_number``,
``item_id``, ``logprobs``...) so that openai-python's accumulator takes them as they are.

The same events come out three ways: as decoded dicts, as the JSON text of each
event (what ``json.loads`` must decode: the floor), and as raw SSE bytes.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

RESPONSE_ID = "resp_bench"
"""The response id of the benchmark stream."""

_WORDS = (
    "the", "stream", "reducer", "parallel", "function", "arguments", "delta", "output",
    "index", "identity", "payload", "snapshot", "complete", "tool", "call", "oracle",
)  # fmt: skip
_CODE = (
    "def f(x):\\n", "    return x + 1\\n", "for i in range(10):\\n", "    total += i\\n",
    "if ok:\\n", "    print(\\\"done\\\")\\n", "class A:\\n", "    pass\\n", "# comment\\n",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class BenchStream:
    """One generated stream in every form the benchmark feeds."""

    events: list[dict[str, Any]]
    texts: list[bytes]
    """The compact JSON of each event, as it stands in the SSE ``data:`` line."""
    sse: bytes
    calls: int

    @property
    def arguments_bytes(self) -> int:
        """Total length of the final argument strings."""
        output = self.events[-1]["response"]["output"]
        return sum(len(item.get("arguments", "")) for item in output)


def min_events(calls: int) -> int:
    """The fewest events a stream with ``calls`` function calls can have."""
    # created, in_progress, completed; 5 framing events each for reasoning and message;
    # added, arguments.done, output_item.done per call; at least one delta per item.
    return 3 + 5 + 5 + 3 * calls + 2 + calls


def _response(status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": RESPONSE_ID,
        "object": "response",
        "created_at": 1767225600,
        "status": status,
        "model": "bench-model",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "temperature": 1.0,
        "top_p": 1.0,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "metadata": {},
        "usage": None,
    }


def _pieces(
    rng: random.Random, count: int, vocabulary: tuple[str, ...], low: int, high: int
) -> list[str]:
    """``count`` strings of ``low`` to ``high`` characters made of ``vocabulary`` words."""
    pieces = []
    for _ in range(count):
        target = rng.randint(low, high)
        piece = ""
        while len(piece) < target:
            piece += rng.choice(vocabulary) + ("" if vocabulary is _CODE else " ")
        pieces.append(piece)
    return pieces


def generate(n: int, calls: int = 16, seed: int = 0) -> BenchStream:
    """The benchmark stream of exactly ``n`` events with ``calls`` parallel calls."""
    if n < min_events(calls):
        raise ValueError(f"a stream with {calls} calls needs at least {min_events(calls)} events")
    rng = random.Random(seed)
    deltas = n - (min_events(calls) - 2 - calls)
    reasoning_n = max(1, deltas // 10)
    text_n = max(1, deltas * 3 // 10)
    call_n = deltas - reasoning_n - text_n
    per_call = [call_n // calls + (1 if c < call_n % calls else 0) for c in range(calls)]

    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": _response("in_progress", [])},
        {"type": "response.in_progress", "response": _response("in_progress", [])},
    ]
    final: list[dict[str, Any]] = []

    # reasoning summary at output_index 0
    rs = {"output_index": 0, "item_id": "rs_0"}
    summary = _pieces(rng, reasoning_n, _WORDS, 8, 32)
    summary_text = "".join(summary)
    events.append({"type": "response.output_item.added", "output_index": 0,
                   "item": {"type": "reasoning", "id": "rs_0", "summary": []}})  # fmt: skip
    events.append({"type": "response.reasoning_summary_part.added", **rs, "summary_index": 0,
                   "part": {"type": "summary_text", "text": ""}})  # fmt: skip
    events += [
        {"type": "response.reasoning_summary_text.delta", **rs, "summary_index": 0, "delta": d}
        for d in summary
    ]
    events.append({"type": "response.reasoning_summary_text.done", **rs, "summary_index": 0,
                   "text": summary_text})  # fmt: skip
    events.append({"type": "response.reasoning_summary_part.done", **rs, "summary_index": 0,
                   "part": {"type": "summary_text", "text": summary_text}})  # fmt: skip
    reasoning = {"type": "reasoning", "id": "rs_0",
                 "summary": [{"type": "summary_text", "text": summary_text}]}  # fmt: skip
    events.append({"type": "response.output_item.done", "output_index": 0, "item": reasoning})
    final.append(reasoning)

    # message text at output_index 1
    ms = {"output_index": 1, "item_id": "msg_1", "content_index": 0}
    text = _pieces(rng, text_n, _WORDS, 8, 32)
    full_text = "".join(text)
    events.append({"type": "response.output_item.added", "output_index": 1,
                   "item": {"type": "message", "id": "msg_1", "role": "assistant",
                            "status": "in_progress", "content": []}})  # fmt: skip
    events.append({"type": "response.content_part.added", **ms,
                   "part": {"type": "output_text", "text": "", "annotations": [],
                            "logprobs": []}})  # fmt: skip
    events += [
        {"type": "response.output_text.delta", **ms, "delta": d, "logprobs": []} for d in text
    ]
    events.append({"type": "response.output_text.done", **ms, "text": full_text, "logprobs": []})
    part = {"type": "output_text", "text": full_text, "annotations": [], "logprobs": []}
    events.append({"type": "response.content_part.done", **ms, "part": part})
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
               "content": [part]}  # fmt: skip
    events.append({"type": "response.output_item.done", "output_index": 1, "item": message})
    final.append(message)

    # parallel function calls at output_index 2.., argument deltas interleaved
    call_items = []
    arguments: list[list[str]] = []
    for c in range(calls):
        item = {"type": "function_call", "id": f"fc_{c}", "call_id": f"call_{c}",
                "name": "write_file", "arguments": "", "status": "in_progress"}  # fmt: skip
        call_items.append(item)
        events.append({"type": "response.output_item.added", "output_index": 2 + c, "item": item})
        body = _pieces(rng, max(0, per_call[c] - 2), _CODE, 16, 64)
        arguments.append([f'{{"path": "src/file_{c}.py", "content": "', *body, '"}'][: per_call[c]])
    cursors = [0] * calls
    live = [c for c in range(calls) if per_call[c]]
    while live:
        c = live[rng.randrange(len(live))]
        events.append({"type": "response.function_call_arguments.delta", "output_index": 2 + c,
                       "item_id": f"fc_{c}", "delta": arguments[c][cursors[c]]})  # fmt: skip
        cursors[c] += 1
        if cursors[c] == per_call[c]:
            live.remove(c)
    for c in range(calls):
        full = "".join(arguments[c])
        events.append({"type": "response.function_call_arguments.done", "output_index": 2 + c,
                       "item_id": f"fc_{c}", "name": "write_file", "arguments": full})  # fmt: skip
        done = {**call_items[c], "arguments": full, "status": "completed"}
        events.append({"type": "response.output_item.done", "output_index": 2 + c, "item": done})
        final.append(done)

    events.append({"type": "response.completed", "response": _response("completed", final)})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    assert len(events) == n, (len(events), n)
    texts = [json.dumps(event, separators=(",", ":")).encode() for event in events]
    sse = b"".join(
        b"event: " + event["type"].encode() + b"\ndata: " + text + b"\n\n"
        for event, text in zip(events, texts, strict=True)
    )
    return BenchStream(events, texts, sse, calls)
