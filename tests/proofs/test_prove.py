"""The ``prove`` API: one row per invariant, with the evidence."""

from __future__ import annotations

import pytest
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs.conformance import follow
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANTS


def test_reference_invariant_is_proved_bounded_and_unbounded() -> None:
    rows = prove("complete_once", REFERENCE, bound=(3, 3), unbounded=True)
    assert [(r.invariant, r.system, r.status) for r in rows] == [
        ("complete_once", "lifecycle", Status.PROVED_BOUNDED),
        ("complete_once", "lifecycle", Status.PROVED_UNBOUNDED),
        ("complete_once", "channels", Status.PROVED_UNBOUNDED),
        ("complete_once", "matcher", Status.PROVED_BOUNDED),
    ]
    assert {r.model for r in rows} == {"reference"}
    assert "over the matcher (R6): base and induction hold" in rows[3].detail
    assert rows[0].counterexample is None
    assert "2x2..3x3" in rows[0].detail


def test_mutant_gets_a_counterexample_stream() -> None:
    row, over_matcher = prove(
        "complete_once", MUTANTS["duplicate-done-re-completes"].tables, bound=(2, 2)
    )
    # The matcher runs the lifecycle table too: a duplicate done completes twice there.
    assert over_matcher.status is Status.COUNTEREXAMPLE
    assert row.status is Status.COUNTEREXAMPLE
    assert row.counterexample is not None
    assert [e["type"] for e in row.counterexample] == [
        "response.created",
        "response.output_item.done",
        "response.output_item.done",
    ]
    # The replay is its own step: the stream and the encoding's predictions suffice.
    assert row.expected is not None
    kernels = load_kernels(MUTANTS["duplicate-done-re-completes"].tables)
    assert follow(row.counterexample, row.expected, kernels).mismatches == ()


def test_first_admission_wins_is_proved_bounded_and_unbounded_and_can_fail() -> None:
    bounded, unbounded, _ = prove("first_admission_wins", REFERENCE, unbounded=True)
    assert (bounded.status, unbounded.status) == (Status.PROVED_BOUNDED, Status.PROVED_UNBOUNDED)
    (row,) = prove(
        "first_admission_wins", MUTANTS["later-name-overwrites"].tables, matcher=False
    )
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is not None
    added, done = (event["item"] for event in row.counterexample[1:])
    assert (added["name"], done["name"]) == ("tool_0", "tool_0_renamed")
    # The replay is its own step: the stream and the encoding's predictions suffice.
    assert row.expected is not None
    kernels = load_kernels(MUTANTS["later-name-overwrites"].tables)
    assert follow(row.counterexample, row.expected, kernels).mismatches == ()


def test_routing_invariant_is_proved_and_its_mutant_refuted() -> None:
    (row,) = prove("ambiguity_rejected", REFERENCE, bound=(3, 3))
    assert row.status is Status.PROVED_BOUNDED
    (row,) = prove("ambiguity_rejected", MUTANTS["slot-beats-item-id"].tables, bound=(2, 2))
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is not None
    assert row.counterexample[-1] == {
        "type": "response.function_call_arguments.delta",
        "delta": " ",
        "output_index": 0,
        "item_id": "fc_1",
        "sequence_number": 3,
    }


def test_structural_invariant_says_so() -> None:
    (row,) = prove("terminal_is_final", REFERENCE, bound=(2, 2))
    assert row.status is Status.PROVED_BOUNDED and "structural" in row.detail


def test_unknown_invariant_name_is_an_error() -> None:
    with pytest.raises(KeyError):
        prove("no_such_invariant", REFERENCE)


def test_a_matcher_mutant_is_refuted_over_the_matcher_with_a_stream() -> None:
    tables = MUTANTS["snapshot-re-keys-a-confirmed-call"].tables
    bounded, over_matcher = prove("first_admission_wins", tables, bound=(2, 2))
    assert bounded.status is Status.PROVED_BOUNDED
    assert over_matcher.status is Status.COUNTEREXAMPLE
    assert over_matcher.counterexample is not None
    assert [e["type"] for e in over_matcher.counterexample] == [
        "response.created",
        "response.output_item.done",
        "response.completed",
    ]
