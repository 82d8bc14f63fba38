"""The shortest stream on which two policies give different results.

Theory of operation
-------------------
Two policies (``policies.py``) are two sets of tables, so two generated reducers
(``model.codegen.load_kernels``).  ``shortest_difference`` enumerates streams in
shortlex order -- by length, then by the order of ``ALPHABET`` -- reduces each with
both reducers, and stops at the first whose results differ: ``Result.to_json()``
without its diagnostics, or with them when asked.  The stream found is therefore a
shortest one, and of those the first in a fixed order: the search is deterministic.

A stream is ``response.created`` followed by ``1..max_length`` event *shapes* of one
``function_call`` (``fc_1`` / ``call_1`` at ``output_index`` 0): its ``added``, a
delta carrying the whole arguments, ``function_call_arguments.done`` and
``output_item.done`` each with the full or the empty arguments, and the ends of a
response -- ``response.completed`` whose snapshot holds the call with full or empty
arguments, holds nothing, or is absent, and ``response.incomplete``.  A duplicate is a
shape repeated.  Within one length the order of ``ALPHABET`` decides.  Only the last
shape may end the response: the driver ignores every event after a terminal one before
any table is read, so a longer stream could not differ where its prefix does not.  A
stream may also stop without a terminal event (the response is interrupted).
Differences that need two calls with crossed keys (routing) are outside this alphabet;
``prove`` finds those (``ambiguity_rejected``).

Cost: there are ``11 * (6**L - 1) / 5`` streams of up to ``L`` shapes (about 10**5 for
``L = 6``), each reduced twice from scratch (copying a reducer's state costs more than
reducing six events again).  The search stops at the first difference, which for the
policies here comes within three shapes; two policies with identical tables are not
searched at all, as their reducers are the same code.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import KernelSet, ModelTables
from responses_oracle.reducer import Reducer

Event = dict[str, Any]
"""One wire event as a JSON object."""

RESPONSE_ID = "resp_diff_policies"
"""The response id of every stream searched."""

ARGUMENTS = '{"city":"Paris"}'
"""The call's arguments when a shape carries them in full."""

DEFAULT_LENGTH = 6
"""How many shapes after ``response.created`` the search tries at most."""


def _item(arguments: str, status: str) -> Event:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": arguments,
        "status": status,
    }


def _scoped(type_: str, **fields: str) -> Event:
    return {"type": type_, "output_index": 0, "item_id": "fc_1", **fields}


def _completed(output: list[Event] | None) -> Event:
    response: Event = {"id": RESPONSE_ID, "object": "response", "status": "completed"}
    if output is not None:
        response["output"] = output
    return {"type": "response.completed", "response": response}


@dataclass(frozen=True)
class Shape:
    """One event of the alphabet; ``terminal`` when it ends the response."""

    name: str
    event: Event
    terminal: bool = False


ALPHABET: tuple[Shape, ...] = (
    Shape(
        "added",
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": _item("", "in_progress"),
        },
    ),
    Shape("delta", _scoped("response.function_call_arguments.delta", delta=ARGUMENTS)),
    Shape("args.done empty", _scoped("response.function_call_arguments.done", arguments="")),
    Shape("args.done", _scoped("response.function_call_arguments.done", arguments=ARGUMENTS)),
    Shape(
        "done empty",
        {"type": "response.output_item.done", "output_index": 0, "item": _item("", "completed")},
    ),
    Shape(
        "done",
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": _item(ARGUMENTS, "completed"),
        },
    ),
    Shape("completed empty", _completed([_item("", "completed")]), terminal=True),
    Shape("completed", _completed([_item(ARGUMENTS, "completed")]), terminal=True),
    Shape("completed output []", _completed([]), terminal=True),
    Shape("completed no output", _completed(None), terminal=True),
    Shape(
        "incomplete",
        {
            "type": "response.incomplete",
            "response": {
                "id": RESPONSE_ID,
                "object": "response",
                "status": "incomplete",
                "incomplete_details": {"reason": "max_output_tokens"},
            },
        },
        terminal=True,
    ),
)
"""The event shapes streams are made of, in search order.  A shape with empty arguments
comes before the same shape with full ones: empty values are where the peers disagree
(peer-implementations.md D), so of two equally short streams the one that shows such a
disagreement is found first."""

_CREATED: Event = {
    "type": "response.created",
    "response": {"id": RESPONSE_ID, "object": "response", "status": "in_progress", "output": []},
}


def stream_events(shapes: tuple[Shape, ...]) -> list[Event]:
    """The wire events of a stream: ``response.created``, then one event per shape,
    numbered by ``sequence_number``."""
    events = [_CREATED, *(shape.event for shape in shapes)]
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


def streams(max_length: int) -> Iterator[tuple[Shape, ...]]:
    """Every stream of ``1..max_length`` shapes in shortlex order; only the last shape
    may be terminal."""
    ongoing = [shape for shape in ALPHABET if not shape.terminal]
    for length in range(1, max_length + 1):
        for prefix in itertools.product(ongoing, repeat=length - 1):
            for last in ALPHABET:
                yield (*prefix, last)


def outcome(kernels: KernelSet, events: list[Event], diagnostics: bool = False) -> Event:
    """The result of the one response of ``events`` under ``kernels``, as compared:
    ``Result.to_json()``, without its diagnostics unless ``diagnostics``."""
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    (result,) = reducer.finish()
    document = result.to_json()
    if not diagnostics:
        del document["diagnostics"]
    return document


@dataclass(frozen=True)
class Difference:
    """A stream on which two policies disagree, and what each made of it."""

    shapes: tuple[str, ...]
    events: tuple[Event, ...]
    a: Event
    b: Event


@dataclass(frozen=True)
class PolicyDiff:
    """The outcome of a search: the first difference, or None up to ``max_length``.

    ``identical`` says the tables are the same (nothing was searched); ``searched``
    counts the streams reduced.
    """

    a: str
    b: str
    max_length: int
    diagnostics: bool
    identical: bool
    searched: int
    difference: Difference | None


def shortest_difference(
    a: ModelTables,
    b: ModelTables,
    max_length: int = DEFAULT_LENGTH,
    diagnostics: bool = False,
) -> PolicyDiff:
    """The shortest stream (first in shortlex order) on which the reducers of ``a``
    and ``b`` give different results, searched up to ``max_length`` shapes."""
    if replace(a, name=b.name) == b:
        return PolicyDiff(a.name, b.name, max_length, diagnostics, True, 0, None)
    kernels_a, kernels_b = load_kernels(a), load_kernels(b)
    searched = 0
    for shapes in streams(max_length):
        searched += 1
        events = stream_events(shapes)
        result_a = outcome(kernels_a, events, diagnostics)
        result_b = outcome(kernels_b, events, diagnostics)
        if result_a != result_b:
            names = tuple(shape.name for shape in shapes)
            found = Difference(names, tuple(events), result_a, result_b)
            return PolicyDiff(a.name, b.name, max_length, diagnostics, False, searched, found)
    return PolicyDiff(a.name, b.name, max_length, diagnostics, False, searched, None)
