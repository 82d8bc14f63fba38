"""The oracle's side of a divergence: its results, its trace, and the rule in play.

``oracle_json`` is the oracle's answer in the result contract.  ``explain_lines`` is
its event-by-event trace (``Reducer(trace=True)``: the route or admission decision of
each event, the entry's state move, the codes raised), the same story the ``explain``
command tells, as plain text lines for a report.  ``DECISION_RULES`` names the rule
behind a step's decision, for a cluster where the candidate gave up at that step
(``cause.trip_rule``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from responses_oracle import Reducer, reduce
from responses_oracle.core.step import StepTrace

from .streams import Event


def oracle_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The oracle's result objects for ``events``."""
    return [result.to_dict() for result in reduce(events)]


def _traced(events: Sequence[Event]) -> tuple[list[StepTrace], list[str]]:
    """The oracle's step traces of ``events`` and the codes raised at the end of input."""
    reducer = Reducer(trace=True)
    reducer.feed_all(events)
    results = reducer.finish()
    at_end = [d.code.value for r in results for d in r.diagnostics if d.event_index is None]
    return list(reducer.traces or []), at_end


def trace_line(trace: StepTrace) -> str:
    """One step of the reference's trace: event, decision, entry move, codes."""
    line = f"#{trace.index} {trace.type}: {trace.decision}"
    if trace.entry is not None and trace.before is not None and trace.after is not None:
        line += f"; entry {trace.entry} {trace.before.value} -> {trace.after.value}"
    if trace.codes:
        line += f" [{', '.join(code.value for code in trace.codes)}]"
    return line


def explain_lines(events: Sequence[Event]) -> list[str]:
    """The oracle's trace of ``events``: per event its decision, entry move and codes."""
    traces, at_end = _traced(events)
    lines = [trace_line(trace) for trace in traces]
    if at_end:
        lines.append(f"end of input: [{', '.join(at_end)}]")
    return lines


DECISION_RULES: tuple[tuple[str, str], ...] = (
    ("added:", "R6"),
    ("item_done:", "R6"),
    ("snapshot_item:", "R6"),
    ("route", "R5"),
    ("terminal:", "R9"),
    ("after terminal", "R9"),
    ("response", "R9"),
    ("unknown", "R1"),
    ("no-op", "R1"),
    ("no item", "R1"),
)
"""The rule behind a step's decision, by the decision's first words (``core.step``)."""


def completed(events: Sequence[Event]) -> list[Event]:
    """``events`` with a ``response.completed`` appended (no snapshot)."""
    ids = [
        e["response"].get("id")
        for e in events
        if e.get("type") == "response.created" and isinstance(e.get("response"), dict)
    ]
    return [*events, {"type": "response.completed", "response": {"id": ids[0] if ids else None}}]
