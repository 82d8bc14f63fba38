"""The relay's refinement (``responses_oracle.proxy.refinement``), checked on every
stream under ``fixtures/`` and on generated streams split into random chunks.

#39's first Done-when: on every capture the proxy's stream holds every upstream event
except those the log names, with a code per change; #41 part 3: the canonicalizer and
the relay get their own refinement, ``[DONE]`` and terminals in the relay's order.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import FIXTURES, REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle.proxy.refinement import check, relay_output
from responses_oracle.proxy.relay import DONE_FRAME
from responses_oracle.testing.strategies import (
    faulty_streams,
    model_guided_streams,
    provider_streams,
    valid_streams,
)
from responses_oracle.wire import InputFormat, read_wire_events

Event = dict[str, Any]

CAPTURES = sorted(
    str(path.relative_to(REPO))
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix in (".jsonl", ".json", ".sse")
)


def _events(name: str) -> list[Event]:
    wire = read_wire_events(REPO / name, InputFormat.AUTO)
    return [e.payload for e in wire if e.payload is not None]


def test_every_fixture_is_checked() -> None:
    assert len(CAPTURES) > 100
    assert any(name.startswith("fixtures/captures/") for name in CAPTURES)


@pytest.mark.parametrize("name", CAPTURES)
def test_every_fixture_refines_through_the_relay(name: str) -> None:
    events = _events(name)
    sizes = [len(str(e)) for e in events]
    cuts = [sum(sizes[: i + 1]) // 2 for i in range(0, len(sizes), 3)]  # split mid-event
    assert check(events, cuts, sentinel=True) == []


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(valid_streams(), provider_streams(), model_guided_streams(), faulty_streams()),
    st.lists(st.integers(min_value=1, max_value=20_000), max_size=12),
    st.booleans(),
)
def test_generated_streams_refine_in_any_chunking(stream: Any, cuts: list[int], done: bool) -> None:
    assert check(list(stream.events), cuts, sentinel=done) == []


_ANNOUNCED_LATE: list[Event] = [
    {"type": "response.created", "response": {"id": "resp_a", "status": "in_progress"}},
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"id": "msg_a", "type": "message", "role": "assistant", "content": []},
    },
    {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": {
            "id": "msg_a",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
        },
    },
    {"type": "response.completed", "response": {"id": "resp_a", "status": "completed"}},
    # A second response in the same body, whose call has no slot: nothing of it can be
    # announced before the body ends.
    {"type": "response.created", "response": {"status": "in_progress"}},
    {
        "type": "response.output_item.added",
        "item": {
            "id": "fc_b",
            "type": "function_call",
            "call_id": "call_b",
            "name": "f",
            "arguments": "",
        },
    },
    {"type": "response.function_call_arguments.delta", "item_id": "fc_b", "delta": "{}"},
]
"""#41's relay finding: the last event out is response A's terminal while the relay
still holds response B's call; a ``[DONE]`` sent then reaches a client that stops at
``[DONE]`` before B's events."""


def test_done_never_leaves_before_a_call_held_in_a_later_response() -> None:
    data = b"".join(_frames(_ANNOUNCED_LATE)) + DONE_FRAME
    out, _ = relay_output(data, [])
    assert out.count(DONE_FRAME) == 1
    after = out[out.index(DONE_FRAME) :]
    assert b"data: {" not in after, "an event after [DONE]"
    assert b"fc_b" in out[: out.index(DONE_FRAME)]
    assert check(_ANNOUNCED_LATE, [], sentinel=True) == []


def _frames(events: list[Event]) -> list[bytes]:
    from responses_oracle.serve.server import Framing

    return list(Framing().frames(events))
