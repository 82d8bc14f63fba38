"""Every invariant can fail: each named mutant is refuted, rendered and replayed.

For each mutant, Z3 breaks the induction step, bounded model checking finds a shortest
trace, the trace's stream drives the mutant's generated reducer exactly along the
trace, and the Python invariants (what the Hypothesis suites check) fail on that
reducer and hold on the reference reducer.  The streams are kept as fixtures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import pytest
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.invariants import INVARIANTS_BY_NAME
from responses_oracle.model.tables import REFERENCE, ModelTables, table_cells
from responses_oracle.model.vocabulary import Code
from responses_oracle.proofs.conformance import replay, violated_invariants
from responses_oracle.proofs.counterexample import (
    WRITE_COMMAND,
    fixture_path,
    render,
    to_jsonl,
)
from responses_oracle.proofs.encoding import Bounds
from responses_oracle.proofs.induction import Run, check_induction
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, MUTANT_LIST, MUTANTS, TRACED, Mutant
from responses_oracle.proofs.properties import PROPERTIES, STRUCTURAL
from responses_oracle.proofs.unbounded import prove_unbounded
from responses_oracle.reducer import Reducer

TraceOf = Callable[[Mutant], Run[Any, Any]]
"""The session fixture ``trace_of`` (``conftest.py``): a mutant's counterexample run."""

IDS = [mutant.tables.name for mutant in MUTANT_LIST]
LIFECYCLE = [mutant for mutant in MUTANT_LIST if mutant.system == "lifecycle"]
"""The mutants refuted in the lifecycle encoding (the matcher's: test_matching.py)."""
LIFECYCLE_IDS = [mutant.tables.name for mutant in LIFECYCLE]

PYTHON_BLIND: dict[str, str] = {
    "delta-confirms": "model.invariants checks executable against the reducer's own "
    "confirmed flag, which the mutant sets; the stream has no *.done at all",
    "slot-beats-item-id": "model.invariants keys ambiguity on the ambiguous_route code, "
    "which a router that guesses never raises",
    "shared-slot-routes-by-slot": "as slot-beats-item-id",
    "closed-channel-delta-appended": "model.invariants counts only the offers the driver "
    "made; the late delta the mutant appends waits unoffered behind the *.done value "
    "(the refinement check and test_channels see it: no late_event)",
}
"""Mutants the Python predicates of model.invariants cannot see, and why."""


def _cells(tables: ModelTables) -> dict[tuple[object, ...], object]:
    # Every table, the kernels' and the proxy's (``restated``, which no kernel reads).
    return {
        (table.name, *path): cell
        for table in fields(tables)
        if table.name != "name"
        for path, cell in table_cells(getattr(tables, table.name))
    }


@pytest.mark.parametrize("mutant", MUTANT_LIST, ids=IDS)
def test_mutant_changes_exactly_one_cell(mutant: Mutant) -> None:
    mine, reference = _cells(mutant.tables), _cells(REFERENCE)
    assert mine.keys() == reference.keys()
    assert len([key for key in mine if mine[key] != reference[key]]) == 1


def test_every_table_invariant_has_a_mutant() -> None:
    # Over the lifecycle no table cell can break a structural invariant; over the
    # matcher no_cross_talk is a table question (the matching table's cells).
    # Who runs a call is refuted over execution_z3's encoding (test_execution_proofs.py).
    execution = [mutant for mutant in MUTANT_LIST if mutant.system == "execution"]
    broken = {mutant.breaks for mutant in (*LIFECYCLE, *execution, *CHANNEL_MUTANTS)}
    assert broken == set(PROPERTIES) - set(STRUCTURAL)
    over_matcher = {mutant.breaks for mutant in MUTANT_LIST if mutant.system == "matcher"}
    assert "no_cross_talk" in over_matcher


@pytest.mark.parametrize("mutant", LIFECYCLE, ids=LIFECYCLE_IDS)
def test_mutant_breaks_the_induction_step(mutant: Mutant) -> None:
    result = check_induction(mutant.tables, mutant.breaks, Bounds(3, 3))
    assert result.base_holds and not result.step_holds


@pytest.mark.parametrize("mutant", LIFECYCLE, ids=LIFECYCLE_IDS)
def test_counterexample_replays_through_the_mutant_reducer(
    mutant: Mutant, trace_of: TraceOf
) -> None:
    trace = trace_of(mutant)
    assert 1 <= len(trace.steps) <= 4
    assert replay(trace, mutant.tables).mismatches == ()
    events = render(trace)
    in_mutant = violated_invariants(events, load_kernels(mutant.tables))
    in_reference = violated_invariants(events, load_kernels(REFERENCE))
    assert in_reference == frozenset()
    # A completeness obligation has no Python predicate (model.completeness): it is
    # held to the reducer by the refinement check, and test_completeness checks each
    # of these streams on the reducer's result.
    if mutant.tables.name not in PYTHON_BLIND and mutant.breaks in INVARIANTS_BY_NAME:
        assert mutant.breaks in in_mutant


def test_delta_confirms_makes_an_unconfirmed_call_executable(trace_of: TraceOf) -> None:
    # The one mutant the Python predicates are blind to, checked on the result itself.
    mutant = next(m for m in MUTANT_LIST if m.tables.name == "delta-confirms")
    events = render(trace_of(mutant))
    assert not any(e["type"].endswith(".done") for e in events)
    cases = ((load_kernels(mutant.tables), True), (load_kernels(REFERENCE), False))
    for kernels, executable in cases:
        reducer = Reducer(kernels=kernels)
        for event in events:
            reducer.feed(event)
        (result,) = reducer.finish()
        assert [item.executable for item in result.items] == [executable]


@pytest.mark.parametrize("name", ["slot-beats-item-id", "shared-slot-routes-by-slot"], ids=str)
def test_routing_mutant_guesses_where_the_reference_rejects(name: str, trace_of: TraceOf) -> None:
    events = render(trace_of(MUTANTS[name]))
    outcomes = []
    for kernels in (load_kernels(MUTANTS[name].tables), load_kernels(REFERENCE)):
        reducer = Reducer(kernels=kernels, trace=True)
        for event in events:
            reducer.feed(event)
        last = (reducer.traces or [])[-1]
        outcomes.append((last.entry, Code.AMBIGUOUS_ROUTE in last.codes))
    assert outcomes == [(0, False), (None, True)]


def test_snapshot_only_item_lost_loses_the_call(trace_of: TraceOf) -> None:
    mutant = next(m for m in MUTANT_LIST if m.tables.name == "snapshot-only-item-lost")
    events = render(trace_of(mutant))
    (snapshot,) = [e["response"]["output"] for e in events if e["type"] == "response.completed"]
    assert [item["call_id"] for item in snapshot] == ["call_0"]
    cases = ((load_kernels(mutant.tables), []), (load_kernels(REFERENCE), ["call_0"]))
    for kernels, calls in cases:
        reducer = Reducer(kernels=kernels)
        for event in events:
            reducer.feed(event)
        (result,) = reducer.finish()
        assert [item.item["call_id"] for item in result.items] == calls


@pytest.mark.parametrize("mutant", TRACED, ids=[mutant.tables.name for mutant in TRACED])
def test_fixture_is_up_to_date(mutant: Mutant, trace_of: TraceOf) -> None:
    path = fixture_path(mutant)
    expected = to_jsonl(render(trace_of(mutant)))
    assert path.read_text(encoding="utf-8") == expected, f"stale: run {WRITE_COMMAND}"
    events = [json.loads(line) for line in expected.splitlines()]
    assert violated_invariants(events, load_kernels(REFERENCE)) == frozenset()


def test_unbounded_proof_fails_on_a_mutant() -> None:
    mutant = next(m for m in MUTANT_LIST if m.tables.name == "delta-confirms")
    proved, detail = prove_unbounded(mutant.tables, mutant.breaks)
    assert not proved and "induction: sat" in detail


def test_mutant_names_are_unique() -> None:
    # MUTANTS is keyed by name, and each name is a fixture file: a repeated name would
    # silently shadow a mutant and overwrite its counterexample stream.
    names = [mutant.tables.name for mutant in (*MUTANT_LIST, *CHANNEL_MUTANTS)]
    assert len(names) == len(set(names))
