"""Three readings of the model tables drive the same Reducer to the same results.

The generated kernels (the reference parser), the dict-lookup interpreter
(``table_kernels``) and the ``transitions`` machines (``machine_kernels``) are each
plugged into a ``Reducer``; on every stream of the corpus — all real captures and
Hypothesis-drawn plausible and faulty streams — the three ``to_json()`` results must be
identical, diagnostics included.  ``tests/model`` compares the kernels cell by cell;
this suite shows that the driver exercises them the same way end to end.

The same generated streams are checked against every invariant of ``model/invariants.py``
on every prefix (``invariant_check``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from responses_oracle import Reducer
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.model.lifecycle import Transition
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.tables import REFERENCE, KernelSet, ModelTables
from responses_oracle.model.vocabulary import (
    Effect,
    EntryState,
    OfferRelation,
    PayloadAction,
    PayloadHeld,
    Trigger,
)

from .corpus import CAPTURES, capture_events
from .invariant_check import check_invariants
from .strategies import streams

interpreter = pytest.importorskip("responses_oracle.model.interpreter")
machine = pytest.importorskip("responses_oracle.model.machine")

KERNEL_SETS: dict[str, KernelSet] = {
    "generated": KERNELS,
    "tables": interpreter.table_kernels(REFERENCE),
    "machine": machine.machine_kernels(REFERENCE),
}
"""The three interpretations of the reference tables."""

GENERATED = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

_MANTLE_SHAPE: list[dict[str, Any]] = [
    {"type": "response.created", "response": {"id": "resp_1"}},
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"type": "function_call", "id": "fc_0", "call_id": "call_0", "arguments": ""},
    },
    {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"a"'},
    {"type": "response.function_call_arguments.done", "item_id": "fc_0", "arguments": ""},
    {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": {"type": "function_call", "item_id": "fc_0", "call_id": "call_0"},
    },
    {"type": "response.completed", "response": {"id": "resp_1", "output": []}},
]
"""A hand-written stream with the Mantle quirks, so each run covers them at least once."""


def _results(events: Iterable[Mapping[str, Any]], kernels: KernelSet) -> list[dict[str, Any]]:
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    return [result.to_json() for result in reducer.finish()]


def _disagreements(events: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each interpretation whose results differ from the generated kernels', with them."""
    reference = _results(events, KERNELS)
    assert reference, "every stream yields at least one result"
    found = {name: _results(events, kernels) for name, kernels in KERNEL_SETS.items()}
    return {name: results for name, results in found.items() if results != reference}


@pytest.mark.parametrize("name", CAPTURES)
def test_interpreters_agree_on_capture(name: str) -> None:
    assert _disagreements(capture_events(name)) == {}


@GENERATED
@given(streams())
@example(_MANTLE_SHAPE)
def test_interpreters_agree_on_generated_streams(events: list[dict[str, Any]]) -> None:
    assert _disagreements(events) == {}


@GENERATED
@given(streams())
@example(_MANTLE_SHAPE)
def test_invariants_hold_on_every_prefix_of_generated_streams(
    events: list[dict[str, Any]],
) -> None:
    assert check_invariants(events, every_prefix=True) == []


def _payload_mutant() -> ModelTables:
    """A blank value replaces a real one (breaks R7)."""
    payload = copy.deepcopy(REFERENCE.payload)
    payload[PayloadHeld.VALUE][OfferRelation.EMPTY] = PayloadDecision(PayloadAction.TAKE, None)
    return dataclasses.replace(REFERENCE, name="blank_erases", payload=payload)


def _lifecycle_mutant() -> ModelTables:
    """A done entry still takes deltas, and says they were late (breaks R3)."""
    lifecycle = copy.deepcopy(REFERENCE.lifecycle)
    effects = (Effect.NOTE_LATE_EVENT, Effect.APPEND_DELTA)
    lifecycle[EntryState.DONE][Trigger.DELTA] = Transition(EntryState.DONE, effects)
    return dataclasses.replace(REFERENCE, name="late_delta_appends", lifecycle=lifecycle)


_LATE_DELTA = [
    *_MANTLE_SHAPE[:2],
    _MANTLE_SHAPE[4],
    {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{}"},
]


@pytest.mark.parametrize(
    ("mutant", "events", "caught"),
    [
        (_payload_mutant, _MANTLE_SHAPE, {"empty_never_erases", "latest_nonempty_wins"}),
        (_lifecycle_mutant, _LATE_DELTA, {"late_is_inert"}),
    ],
)
def test_invariant_check_catches_a_mutant(
    mutant: Callable[[], ModelTables], events: list[dict[str, Any]], caught: set[str]
) -> None:
    # One row changed: the checker must name exactly the invariants the row breaks, or a
    # green run above would prove nothing.
    assert check_invariants(events) == []
    violations = check_invariants(events, interpreter.table_kernels(mutant()))
    assert {violation.split()[0] for violation in violations} == caught
