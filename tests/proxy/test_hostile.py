"""The canonicalizer and the relay are total: a hostile stream is diagnosed, never raised on.

The core is pure and total (README, docs/invariants): bad input becomes a diagnostic
and, behind the proxy, a logged change -- never an exception that ends a client's
answer with a traceback.  Streams come from ``testing.strategies.edited_streams``
(resumes, extra terminals, bad fields, changed snapshots, dropped or moved events),
then have field values of any event, or of the item or part it carries, replaced by
values of the wrong type (``_retyped``).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import Canonicalizer
from responses_oracle.proxy.relay_refinement import body, check, relay_output
from responses_oracle.reducer import reduce
from responses_oracle.testing.strategies import edited_streams
from responses_oracle.wire import read_wire_events

Event = dict[str, Any]

_WRONG: tuple[Any, ...] = ({}, [], {"a": [1]}, [[]], 1.5, -1, True, None, "", "x" * 3)
"""Values of every JSON type, each the wrong type for some field of every event."""


@st.composite
def _retyped(draw: st.DrawFn) -> list[Event]:
    """An edited stream with 1..6 field values (an event's own, or its item's, part's
    or response's) replaced by one of ``_WRONG``."""
    events = [json.loads(json.dumps(e)) for e in draw(edited_streams()).events]
    for _ in range(draw(st.integers(1, 6)) if events else 0):
        event = events[draw(st.integers(0, len(events) - 1))]
        nested = [v for v in event.values() if isinstance(v, dict) and v]
        target = draw(st.sampled_from([event, *nested]))
        if target:
            # A copy: the same object placed twice could be placed inside itself, a
            # cycle no JSON body can carry.
            wrong = json.loads(json.dumps(draw(st.sampled_from(_WRONG))))
            target[draw(st.sampled_from(sorted(target)))] = wrong
    return events


@settings(max_examples=150, deadline=None)
@given(_retyped(), st.lists(st.integers(min_value=1, max_value=20_000), max_size=6))
def test_hostile_streams_never_raise(events: list[Event], cuts: list[int]) -> None:
    canonical = Canonicalizer()
    out = [e for event in events for e in canonical.feed(event)]
    out += canonical.close()
    assert all(isinstance(e.get("type"), str) for e in out)
    data, _ = relay_output(body(events, sentinel=True), cuts)
    assert data.endswith(b"data: [DONE]\n\n")
    reduce(data)  # what the client got reads as a stream
    check(events, cuts, sentinel=True)  # and the relay's refinement judges it, raising nothing


_UNHASHABLE_INDEX: list[Event] = [
    {"type": "response.created", "response": {"id": "resp_h", "status": "in_progress"}},
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"id": "msg_h", "type": "message", "role": "assistant", "content": []},
    },
    {"type": "response.output_text.delta", "item_id": "msg_h", "output_index": {}, "delta": "Hi"},
]
"""The ``sample`` helper's reproduction: a delta whose ``output_index`` is an object
made ``Canonicalizer._note_upstream`` raise ``TypeError: unhashable type: 'dict'``."""


def test_an_object_output_index_is_diagnosed_not_raised() -> None:
    data, repairs = relay_output(body(_UNHASHABLE_INDEX, sentinel=False), [])
    deltas = [
        e.payload
        for e in read_wire_events(data)
        if e.payload and e.payload["type"].endswith("delta")
    ]
    assert [d["delta"] for d in deltas] == ["Hi"]
    assert "invalid_field" in repairs[0]["codes"]
