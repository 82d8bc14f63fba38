"""Vacuity: every lifecycle row a stream can trigger has a witness within 8 steps, and
so has every routing and identity cell.

The rows no stream can reach are a finding; the test pins them, so that a change of
the tables or the environment that makes a row (un)reachable is noticed.  The
renderable witnesses are replayed through the reference reducer, which must walk
exactly the states the encoding predicts: the encoding and the generated reducer
agree on every row a ``function_call`` stream can exercise.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest
from responses_oracle.model.lifecycle import OPEN_STATES, REACHABILITY
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import REFERENCE
from responses_oracle.model.vocabulary import (
    RESPONSE_WIDE_TRIGGERS,
    ROUTED_TRIGGERS,
    Code,
    EntryState,
    IdentityRelation,
    IdView,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)
from responses_oracle.proofs.conformance import replay
from responses_oracle.proofs.encoding import (
    Bounds,
    Payload,
)
from responses_oracle.proofs.induction import close_snapshot
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, MUTANTS
from responses_oracle.proofs.vacuity import (
    identity_coverage,
    indistinguishable_slot_states,
    lifecycle_coverage,
    prove_unreachable,
    routing_coverage,
)

S, T = EntryState, Trigger

UNREACHABLE: set[tuple[EntryState, Trigger]] = {
    # The router drops payload events for entries never admitted; response ends
    # reach admitted entries only.
    *((S.ABSENT, t) for t in (*ROUTED_TRIGGERS, *RESPONSE_WIDE_TRIGGERS)),
    # A channel is closed only by a *.done, which moves the entry to PAYLOAD_DONE
    # (model.lifecycle.REACHABILITY, like the reasons below).
    (S.ADDED, T.DELTA_ON_CLOSED_CHANNEL),
    (S.STREAMING, T.DELTA_ON_CLOSED_CHANNEL),
    # COMPLETED is entered only inside a terminal event's snapshot, INCOMPLETE only by
    # the terminal event: after either nothing but the rest of the snapshot and the
    # terminal's own end arrives — and either end skips the entries the snapshot
    # reached, as the driver's settle does, so no end reaches a COMPLETED entry.
    *((S.COMPLETED, t) for t in Trigger if t is not T.SNAPSHOT_ITEM),
    *((S.INCOMPLETE, t) for t in Trigger),
}


def test_every_other_row_has_a_witness_within_8_steps() -> None:
    coverage = lifecycle_coverage(REFERENCE, Bounds(2, 2), depth=8)
    assert set(coverage.unreached) == UNREACHABLE
    depths = [witness[1] for witness in coverage.witnesses.values() if witness is not None]
    assert max(depths) <= 8


@pytest.mark.parametrize("bounds", [Bounds(2, 2), Bounds(3, 3)], ids=str)
def test_the_unreached_rows_are_proved_unreachable_at_any_depth(bounds: Bounds) -> None:
    # The search above stops at depth 8; the reachability clauses, each inductive, show
    # that the rows it did not reach are unreachable at every depth: the two together
    # are exact.
    reachability = prove_unreachable(REFERENCE, bounds)
    assert list(reachability.inductive) == list(REACHABILITY)
    assert reachability.proved
    assert set(reachability.unreachable) == UNREACHABLE


def test_a_mutant_that_reopens_a_done_part_breaks_a_reachability_clause() -> None:
    # Back in streaming with a closed channel, the entry can receive
    # DELTA_ON_CLOSED_CHANNEL there: the clause is no longer inductive, and nothing is
    # claimed unreachable on its strength.
    mutant = next(m for m in CHANNEL_MUTANTS if m.tables.name == "delta-reopens-done-part")
    reachability = prove_unreachable(mutant.tables, Bounds(2, 2))
    assert [clause for clause, ok in reachability.inductive.items() if not ok] == [
        REACHABILITY[2]
    ]
    assert not reachability.proved
    coverage = lifecycle_coverage(mutant.tables, Bounds(2, 2), depth=4)
    assert (S.STREAMING, T.DELTA_ON_CLOSED_CHANNEL) not in coverage.unreached


def test_renderable_witnesses_replay_state_by_state() -> None:
    # Every witness is at most 4 steps deep (the other test), so depth 4 finds them all.
    coverage = lifecycle_coverage(REFERENCE, Bounds(2, 2), depth=4, renderable=True)
    traces = {id(w[0]): w[0] for w in coverage.witnesses.values() if w is not None}
    for trace in traces.values():
        assert replay(trace, REFERENCE).mismatches == ()
    reached = {row for row, witness in coverage.witnesses.items() if witness is not None}
    # Every row of an open state that a function_call stream can reach is exercised.
    assert {(s, t) for s in OPEN_STATES for t in (T.ITEM_DONE, T.PAYLOAD_DONE, T.DELTA)} - {
        (S.PAYLOAD_DONE, T.DELTA)
    } <= reached


def test_every_possible_routing_cell_has_a_witness_and_replays() -> None:
    # Four entries are needed for a shared slot whose event id names two others.
    coverage = routing_coverage(REFERENCE, Bounds(4, 2), depth=8)
    assert set(coverage.unreached) == {
        # T (the slot's entries) is empty for an unbound slot, and has one entry for
        # a slot bound to one: these views cannot occur (routing.py says so).
        (SlotView.NONE, IdView.ONE_OF_SLOT),
        (SlotView.NONE, IdView.SEVERAL_OF_SLOT),
        (SlotView.ONE, IdView.SEVERAL_OF_SLOT),
    }
    runs = {id(w[0]): w[0] for w in coverage.witnesses.values() if w is not None}
    for run in runs.values():
        assert replay(run, REFERENCE).mismatches == ()


def test_every_identity_cell_has_a_witness_that_replays_with_names() -> None:
    coverage = identity_coverage(REFERENCE, Bounds(2, 2), depth=8)
    assert coverage.unreached == ()
    # Each cell is reached by the first or second item merged into an entry.
    depths = {cell: witness[1] for cell, witness in coverage.witnesses.items() if witness}
    assert depths == {
        IdentityRelation.MISSING: 1,
        IdentityRelation.FIRST: 1,
        IdentityRelation.EQUAL: 2,
        IdentityRelation.DIFFERS: 2,
    }
    # Closed, a trace that stops inside response.completed is compared after it too.
    traces = {
        cell: close_snapshot(witness[0], REFERENCE)
        for cell, witness in coverage.witnesses.items()
        if witness is not None
    }
    for trace in traces.values():
        # The reducer holds, after every step, the name the encoding predicts.
        assert replay(trace, REFERENCE).mismatches == ()
    # The comparison of names can fail: the mutant that overwrites on DIFFERS, fed the
    # same stream (added with one name, done with another), holds the other name.
    differs = traces[IdentityRelation.DIFFERS]
    assert [step.name for step in differs.steps] == [Payload.A, Payload.B]
    mutant = MUTANTS["later-name-overwrites"].tables
    (mismatch,) = replay(differs, mutant).mismatches
    assert mismatch.startswith("after step 2:") and "names=(<Payload.B" in mismatch


def test_no_two_slot_states_behave_alike() -> None:
    # Issue #16 merged TOMB into LIVE: every slot state left is told apart by the router
    # (no entry, one, several) or by the slot table.
    assert indistinguishable_slot_states(REFERENCE.slots) == [
        frozenset({SlotState.FREE}),
        frozenset({SlotState.LIVE}),
        frozenset({SlotState.SHARED}),
    ]
    assert len(indistinguishable_slot_states(MUTANTS["done-frees-the-slot"].tables.slots)) == 3


class _FourStates(Enum):
    """The slot states before issue #16: a done entry's binding was a state of its own."""

    FREE = "free"
    LIVE = "live"
    TOMB = "tomb"
    SHARED = "shared"


def _four_state_table(tomb_rebinds: bool) -> dict[Any, dict[SlotTrigger, SlotTransition]]:
    free, live, tomb, shared = _FourStates
    reused = SlotTransition(shared, Code.SLOT_REUSED)  # type: ignore[arg-type]

    def move(state: _FourStates, code: Code | None = None) -> SlotTransition:
        return SlotTransition(state, code)  # type: ignore[arg-type]

    return {
        free: {SlotTrigger.BIND: move(live), SlotTrigger.TOMBSTONE: move(free)},
        live: {SlotTrigger.BIND: reused, SlotTrigger.TOMBSTONE: move(tomb)},
        tomb: {
            SlotTrigger.BIND: move(live) if tomb_rebinds else reused,
            SlotTrigger.TOMBSTONE: move(tomb),
        },
        shared: {SlotTrigger.BIND: reused, SlotTrigger.TOMBSTONE: move(shared)},
    }


def test_the_check_finds_two_alike_states_in_the_old_slot_table() -> None:
    # The table before the merge: TOMB routes, binds and reports exactly as LIVE.
    free, live, tomb, shared = _FourStates
    classes = indistinguishable_slot_states(_four_state_table(False), free, shared)
    assert classes == [frozenset({free}), frozenset({live, tomb}), frozenset({shared})]
    # A tombstone re-bound without slot_reused is told apart by its code.
    assert len(indistinguishable_slot_states(_four_state_table(True), free, shared)) == 4
