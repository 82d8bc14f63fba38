"""Structural facts about the reference tables that the prose of DESIGN.md promises.

These are the table-level halves of ``complete_once``, ``late_is_inert`` and
``slot_first_write``: each is checked on every row, so a changed row that breaks one
fails here before any proof runs.
"""

from __future__ import annotations

from responses_oracle.model.lifecycle import CLOSED_STATES, LIFECYCLE, OPEN_STATES
from responses_oracle.model.slots import SLOTS
from responses_oracle.model.vocabulary import Effect, EntryState, SlotState, SlotTrigger, Trigger

S, T = EntryState, Trigger
NOT_ADMITTED_OR_OPEN = (S.ABSENT, *OPEN_STATES)
ROWS = [
    (state, trigger, cell.next_state, cell.effects)
    for state, row in LIFECYCLE.items()
    for trigger, cell in row.items()
]


def test_the_state_partition_covers_every_state_once() -> None:
    assert OPEN_STATES == (S.ADDED, S.STREAMING, S.PAYLOAD_DONE)
    assert CLOSED_STATES == (S.DONE, S.COMPLETED)
    partition = [S.ABSENT, *OPEN_STATES, *CLOSED_STATES, S.INCOMPLETE]
    assert sorted(partition, key=list(S).index) == list(S)


def test_the_lifecycle_table_is_total() -> None:
    assert list(LIFECYCLE) == list(EntryState)
    for state, row in LIFECYCLE.items():
        assert list(row) == list(Trigger), state
    assert len(ROWS) == len(EntryState) * len(Trigger)


def test_no_transition_leaves_a_closed_state_for_an_open_one() -> None:
    for state, trigger, next_state, _ in ROWS:
        if state in CLOSED_STATES:
            assert next_state in CLOSED_STATES, (state, trigger)
    # Precisely: DONE only moves on to COMPLETED, on the snapshot or the response end.
    assert {
        (state, trigger, next_state)
        for state, trigger, next_state, _ in ROWS
        if state in CLOSED_STATES and next_state is not state
    } == {
        (S.DONE, T.SNAPSHOT_ITEM, S.COMPLETED),
        (S.DONE, T.RESPONSE_COMPLETED, S.COMPLETED),
    }


def test_nothing_returns_to_absent_and_incomplete_is_absorbing() -> None:
    for state, trigger, next_state, _ in ROWS:
        if next_state is S.ABSENT:
            assert state is S.ABSENT, (state, trigger)
        if state is S.INCOMPLETE:
            assert next_state is S.INCOMPLETE, trigger
    assert {state for state, _, next_state, _ in ROWS if next_state is S.INCOMPLETE} == {
        *OPEN_STATES,
        S.INCOMPLETE,
    }


def test_emit_completion_only_on_edges_from_a_non_closed_into_a_closed_state() -> None:
    emitting = [row for row in ROWS if Effect.EMIT_COMPLETION in row[3]]
    for state, trigger, next_state, effects in emitting:
        assert state not in CLOSED_STATES, (state, trigger)
        assert next_state in CLOSED_STATES, (state, trigger)
        assert effects.count(Effect.EMIT_COMPLETION) == 1, (state, trigger)
    assert {(state, trigger, next_state) for state, trigger, next_state, _ in emitting} == {
        *((state, T.ITEM_DONE, S.DONE) for state in NOT_ADMITTED_OR_OPEN),
        *((state, T.SNAPSHOT_ITEM, S.COMPLETED) for state in NOT_ADMITTED_OR_OPEN),
        (S.PAYLOAD_DONE, T.RESPONSE_COMPLETED, S.COMPLETED),
    }


def test_every_entry_into_a_closed_state_from_outside_emits_completion() -> None:
    for state, trigger, next_state, effects in ROWS:
        if state not in CLOSED_STATES and next_state in CLOSED_STATES:
            assert Effect.EMIT_COMPLETION in effects, (state, trigger)
    for closed in CLOSED_STATES:
        for state in NOT_ADMITTED_OR_OPEN:
            assert any(
                source is state and next_state is closed and Effect.EMIT_COMPLETION in effects
                for source, _, next_state, effects in ROWS
            ), (state, closed)


def test_closed_entries_are_never_confirmed_or_tombstoned_twice() -> None:
    for state, trigger, _, effects in ROWS:
        if state in CLOSED_STATES:
            assert Effect.CONFIRM not in effects, (state, trigger)
            assert Effect.TOMBSTONE_SLOT not in effects, (state, trigger)
            assert Effect.ADMIT not in effects, (state, trigger)


def test_admission_happens_only_from_absent() -> None:
    assert {
        (state, trigger) for state, trigger, _, effects in ROWS if Effect.ADMIT in effects
    } == {(S.ABSENT, T.ITEM_ADDED), (S.ABSENT, T.ITEM_DONE), (S.ABSENT, T.SNAPSHOT_ITEM)}


def test_slot_first_write_in_the_slot_table() -> None:
    assert list(SLOTS) == list(SlotState)
    for state, row in SLOTS.items():
        assert list(row) == list(SlotTrigger), state
        for trigger, cell in row.items():
            if state is SlotState.SHARED:
                assert cell.next_state is SlotState.SHARED, trigger
            if trigger is SlotTrigger.TOMBSTONE:
                # R3: the binding stays when its entry is done.
                assert cell.next_state is state, state
            if state is not SlotState.FREE:
                assert cell.next_state is not SlotState.FREE, (state, trigger)
    assert [cell.next_state for cell in (row[SlotTrigger.BIND] for row in SLOTS.values())] == [
        SlotState.LIVE,
        SlotState.SHARED,
        SlotState.SHARED,
    ]
