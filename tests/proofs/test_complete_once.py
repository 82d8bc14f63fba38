"""``complete_once`` end to end: proved on the reference, refuted on its mutant, replayed.

The mutant "duplicate done re-completes" (opencode after #46965) must be caught three
ways: the induction step is satisfiable, bounded model checking finds a trace, and the
stream rendered from that trace makes the mutant's generated reducer complete an entry
twice while the reference reducer completes it once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.invariants import INVARIANTS_BY_NAME
from responses_oracle.model.tables import REFERENCE
from responses_oracle.model.vocabulary import EntryState, Trigger
from responses_oracle.proofs.conformance import replay
from responses_oracle.proofs.counterexample import (
    fixture_path,
    render,
    to_jsonl,
)
from responses_oracle.proofs.encoding import Bounds
from responses_oracle.proofs.induction import Run, bmc, check_induction
from responses_oracle.proofs.mutants import MUTANTS, Mutant
from responses_oracle.reducer import Reducer

TraceOf = Callable[[Mutant], Run[Any, Any]]
"""The session fixture ``trace_of`` (``conftest.py``): a mutant's counterexample run."""

MUTANT = MUTANTS["duplicate-done-re-completes"]
BOUNDS = [Bounds(n, m) for n in (2, 3, 4) for m in (2, 3, 4)]
COMPLETE_ONCE = INVARIANTS_BY_NAME["complete_once"]


@pytest.mark.parametrize("bounds", BOUNDS, ids=str)
def test_reference_proved_by_induction(bounds: Bounds) -> None:
    result = check_induction(REFERENCE, "complete_once", bounds)
    assert (result.base_holds, result.step_holds, result.broken) == (True, True, ())


def test_mutant_breaks_the_induction_step() -> None:
    result = check_induction(MUTANT.tables, "complete_once", Bounds(3, 3))
    assert result.base_holds and not result.step_holds
    assert result.counterexample is not None
    (step,) = result.counterexample.steps
    before, after = result.counterexample.states
    # The only changed row is the one that can break it: a done entry's duplicate done.
    assert step.trigger is Trigger.ITEM_DONE
    assert before.entry_state[step.entry] is EntryState.DONE
    assert after.completions[step.entry] == 2
    assert "complete_once" in result.broken


def test_mutant_counterexample_is_the_shortest_duplicate_done() -> None:
    result = bmc(MUTANT.tables, "complete_once", Bounds(2, 2), depth=8)
    assert result.trace is not None and result.depth == 2
    assert [(s.trigger, s.entry, s.slot) for s in result.trace.steps] == [
        (Trigger.ITEM_DONE, 0, 0),
        (Trigger.ITEM_DONE, 0, 0),
    ]
    assert result.trace.states[-1].completions == (2, 0)


def test_reference_has_no_counterexample_to_depth_8() -> None:
    result = bmc(REFERENCE, "complete_once", Bounds(2, 2), depth=8)
    assert (result.trace, result.depth) == (None, 8)


def test_rendered_stream_is_the_duplicate_done(trace_of: TraceOf) -> None:
    events = render(trace_of(MUTANT))
    assert [event["type"] for event in events] == [
        "response.created",
        "response.output_item.done",
        "response.output_item.done",
    ]
    assert [event["sequence_number"] for event in events] == [0, 1, 2]
    done = events[1]
    assert done["output_index"] == 0
    assert done["item"] == {
        "type": "function_call",
        "id": "fc_0",
        "call_id": "call_0",
        "name": "tool_0",
        "arguments": '{"entry": 0}',
        "status": "completed",
    }
    assert events[2]["item"] == done["item"]


def test_replay_breaks_complete_once_in_the_mutant_reducer_only(trace_of: TraceOf) -> None:
    trace = trace_of(MUTANT)
    in_mutant = replay(trace, MUTANT.tables)
    # The mutant's generated reducer walks exactly the states the trace predicts ...
    assert in_mutant.mismatches == ()
    assert [entry.completions for entry in in_mutant.final.entries] == [2]
    assert not COMPLETE_ONCE.holds(in_mutant.final)
    # ... and the reference reducer, on the same stream, completes the call once.
    in_reference = replay(trace, MUTANT.tables, kernels=load_kernels(REFERENCE))
    assert [entry.completions for entry in in_reference.final.entries] == [1]
    assert COMPLETE_ONCE.holds(in_reference.final)


def test_replay_notices_a_trace_the_reducer_does_not_follow(trace_of: TraceOf) -> None:
    # The mutant's trace replayed through the reference reducer's own tables: the
    # second done is a duplicate there, so the predicted completion count is wrong.
    result = replay(trace_of(MUTANT), REFERENCE)
    assert result.mismatches and "after step 2" in result.mismatches[0]


def test_fixture_stream_is_up_to_date_and_still_fails(trace_of: TraceOf) -> None:
    path = fixture_path(MUTANT)
    assert path.read_text(encoding="utf-8") == to_jsonl(render(trace_of(MUTANT))), (
        "stale: run python -m responses_oracle.proofs.counterexample --write"
    )
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for kernels, holds in ((load_kernels(MUTANT.tables), False), (load_kernels(REFERENCE), True)):
        reducer = Reducer(kernels=kernels)
        for event in events:
            reducer.feed(event)
        assert COMPLETE_ONCE.holds(reducer.snapshot()) is holds
