"""``explain`` holds one response at a time: its memory does not grow with the stream.

A tool loop of many responses is explained through ``explain_events`` (what the text,
``--json`` and ``--html`` outputs all read), each response dropped once it is handed on,
as the command prints it.  ``tracemalloc``'s peak over forty responses is that over
four, within what one response takes.  (How much memory and
time a 200 MB stream takes in the real command: ``benchmarks/explain_memory.py``.)
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator

from responses_oracle.cli.explain import explain_events
from responses_oracle.wire.records import WireEvent

from .cli_helpers import Event, function_call_stream

DELTAS = 400
"""Argument deltas per response: enough events that a response's traces weigh."""


def _response(number: int) -> list[Event]:
    """One response of ``DELTAS`` argument deltas for one call."""
    events = function_call_stream(f"resp_{number}", f"fc_{number}", f"call_{number}", "{")
    delta = events[2]
    return [*events[:2], *([delta] * DELTAS), *events[3:]]


def _loop(responses: int) -> Iterator[WireEvent]:
    index = 0
    for number in range(responses):
        for event in _response(number):
            yield WireEvent(index, event)
            index += 1


def _peak(responses: int) -> int:
    """The most bytes allocated at once while ``responses`` were explained in turn."""
    tracemalloc.start()
    try:
        count = sum(1 for _ in explain_events(_loop(responses)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == responses
    return peak


def test_explain_holds_one_response_at_a_time() -> None:
    one, few, many = _peak(1), _peak(4), _peak(40)
    # Ten times the responses: the peak of four, with at most one response's worth more.
    assert many - few < one, (one, few, many)
