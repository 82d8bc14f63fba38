"""The invariants of ``model.invariants`` as Z3 formulas over the encoding.

Theory of operation
-------------------
Each ``Property`` is the Z3 reading of one named invariant of DESIGN section 4 over
the abstract state of ``encoding.py``: a *state* property is a formula over one
``State`` (``STATE`` and ``FINAL`` invariants: what holds in every state holds at the
end), a *step* property one over ``(before, step, after)``.  The names are those of
``model.invariants.INVARIANTS``, so a proof and a Hypothesis check of the same name
state the same thing at two levels of abstraction.

An induction proof also needs the invariant's strengthening: the clauses written in
words in ``model.invariants.STRENGTHENING``.  ``CLAUSES`` maps each such sentence,
verbatim, to its formula; ``Property.strengthening`` looks them up by the sentence, so
the model's text and the proof's formula cannot drift apart unnoticed (a sentence
without a formula is an error, and a test checks the mapping both ways).

``STRUCTURAL`` names the invariants that hold by the construction of the driver (and
so of the encoding), not by any table: a proof of them is a check of the encoding, and
no one-row mutant of the tables can break them; their mutants are of the driver's
encoding instead (``tests/proofs/test_invariant_proofs.py`` drops the terminal gate, or
delivers an event to a second entry, and sees each refuted).  Every other invariant
has a mutant in ``mutants.py`` that it refutes.

A payload invariant is stated per channel (``_each_channel``): an entry has several
(a message's parts), and each keeps its own value.  Every lifecycle proof also carries
the reachability clauses of ``model.lifecycle.REACHABILITY`` that are inductive for
its model (``induction.reachability_lemmas``).

``COMPLETENESS_PROPERTIES`` are the obligations of ``model.completeness`` (issue #16):
the invariants above say "never too much", these say "enough" — confirmation sticks,
the end settles every entry, identity is taken, every delta is accounted for, every
announced part is opened, a ``*.done`` closes its own channel only, the
diagnostics of unconfirmed calls, late events, slot reuse and replayed items are
raised exactly where their rules say, and the lifecycle state, the payload offers
and the item ids follow the wire events.  They are stated over the ghosts of
``encoding.py`` (what the events brought: the wire trigger ``Step.event`` and the
values it carries, never the trigger a table reclassified it to), and each has a mutant
it refutes.  They join ``PROPERTIES``, so ``prove`` and the induction see one list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3
from responses_oracle.model.completeness import COMPLETENESS_BY_NAME
from responses_oracle.model.completeness import STRENGTHENING as COMPLETENESS_STRENGTHENING
from responses_oracle.model.invariants import INVARIANTS_BY_NAME, STRENGTHENING, Scope
from responses_oracle.model.lifecycle import (
    CLOSED_STATES,
    CONFIRMING_STATES,
    OPEN_STATES,
    REACHABILITY,
)
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    LATE_EFFECTS,
    RESPONSE_WIDE_TRIGGERS,
    Code,
    Effect,
    EntryState,
    SlotState,
    Trigger,
    late_codes,
    note_effects,
)

from .encoding import (
    ENTRY,
    NONEMPTY,
    PAYLOAD,
    SLOT,
    TRIGGER,
    Encoding,
    Payload,
    State,
    Step,
    Term,
    select,
)
from .execution_z3 import EXECUTABLE_FACTS, EXECUTABLE_OBLIGATIONS
from .routing_z3 import (
    ambiguity_rejected,
    ids_name_admitted_entries,
    refusal_reported,
    routed_to_its_entry,
    slots_count_their_entries,
)

StateFormula = Callable[[Any, Any], Term]
"""A formula over one state of a system (``Encoding`` or ``RoutingSystem``)."""

StepFormula = Callable[[Any, Any, Any, Any], Term]
"""A formula over one step of a system: the state before, the step, the state after."""


def _each_entry(encoding: Encoding, formula: Callable[[int], Term]) -> Term:
    return z3.And([formula(i) for i in range(encoding.bounds.entries)])


def _each_channel(encoding: Encoding, formula: Callable[[int, int], Term]) -> Term:
    """``formula(i, k)`` for every entry ``i`` and each of its channels ``k`` (an index
    of the per-channel fields)."""
    c = encoding.channels
    return z3.And(
        [formula(i, i * c + j) for i in range(encoding.bounds.entries) for j in range(c)]
    )


def _closed(state: State, i: int) -> Term:
    return ENTRY.is_one_of(state.entry_state[i], CLOSED_STATES)


def _admitted(state: State, i: int) -> Term:
    return state.entry_state[i] != ENTRY[EntryState.ABSENT]


# -- strengthening clauses ------------------------------------------------------------


def _completions_zero_unless_closed(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding, lambda i: z3.Implies(z3.Not(_closed(state, i)), state.completions[i] == 0)
    )


def _completions_one_when_closed(encoding: Encoding, state: State) -> Term:
    return _each_entry(encoding, lambda i: z3.Implies(_closed(state, i), state.completions[i] == 1))


def _confirmed_only_by_confirming_events(encoding: Encoding, state: State) -> Term:
    return _each_entry(encoding, lambda i: z3.Implies(state.confirmed[i], state.confirming_seen[i]))


def _absent_channel_untouched(encoding: Encoding, state: State) -> Term:
    missing = PAYLOAD[Payload.MISSING]
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            z3.Not(_admitted(state, i)),
            z3.And(
                state.held[k] == missing,
                state.pending[k] == missing,
                state.last_offered[k] == missing,
            ),
        ),
    )


def _pending_deltas_only_before_any_offer(encoding: Encoding, state: State) -> Term:
    missing = PAYLOAD[Payload.MISSING]
    return _each_channel(
        encoding,
        lambda i, k: z3.Or(
            state.pending[k] == missing,
            z3.And(
                PAYLOAD.is_one_of(state.pending[k], NONEMPTY),
                state.held[k] == missing,
                state.last_offered[k] == missing,
            ),
        ),
    )


def _offered_channel_is_closed(encoding: Encoding, state: State) -> Term:
    missing = PAYLOAD[Payload.MISSING]
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            z3.Or(state.held[k] != missing, state.last_offered[k] != missing),
            z3.Or(
                state.channel_closed[k],
                z3.Not(ENTRY.is_one_of(state.entry_state[i], OPEN_STATES)),
            ),
        ),
    )


def _held_is_last_offered(encoding: Encoding, state: State) -> Term:
    return _each_channel(
        encoding,
        lambda i, k: z3.Or(
            state.last_offered[k] == PAYLOAD[Payload.MISSING],
            z3.And(
                PAYLOAD.is_one_of(state.last_offered[k], NONEMPTY),
                state.held[k] == state.last_offered[k],
            ),
        ),
    )


def _completed_only_by_snapshot_or_end(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding,
        lambda i: z3.And(
            z3.Implies(
                state.entry_state[i] == ENTRY[EntryState.COMPLETED],
                z3.Or(state.in_snapshot[i], state.terminal),
            ),
            z3.Implies(state.entry_state[i] == ENTRY[EntryState.INCOMPLETE], state.terminal),
        ),
    )


CLAUSES: dict[str, StateFormula] = {
    "an entry in an open state (or absent, or incomplete) has completed zero times": (
        _completions_zero_unless_closed
    ),
    "an entry in a closed state (done, completed) has completed exactly once": (
        _completions_one_when_closed
    ),
    "an entry is confirmed only after it received a *.done, a done item or a snapshot item": (
        _confirmed_only_by_confirming_events
    ),
    "an absent entry's channel holds nothing, has no deltas and was offered nothing": (
        _absent_channel_untouched
    ),
    "deltas wait unjoined only while nothing was offered to their channel, and are not empty": (
        _pending_deltas_only_before_any_offer
    ),
    "a channel that was offered a value is closed, or its entry is no longer open": (
        _offered_channel_is_closed
    ),
    "a channel holds the last non-empty offer offered to it, if there was one": (
        _held_is_last_offered
    ),
    "an entry is completed only by the snapshot or at the end, and incomplete only at the end": (
        _completed_only_by_snapshot_or_end
    ),
    "a free slot has no entry bound, a live one exactly one, a shared one more": (
        slots_count_their_entries
    ),
    "ids name only admitted entries, and only admitted entries are closed": (
        ids_name_admitted_entries
    ),
}
"""Every strengthening sentence of ``model.invariants.STRENGTHENING``, as a formula."""


# -- completeness (issue #16): obligations that say "enough" ---------------------------


def _confirmation_sticks(encoding: Encoding, state: State) -> Term:
    def sticks(i: int) -> Term:
        confirming = ENTRY.is_one_of(state.entry_state[i], CONFIRMING_STATES)
        return z3.Or(
            state.entry_state[i] == ENTRY[EntryState.INCOMPLETE],
            z3.And(
                z3.Implies(state.confirming_seen[i], confirming),
                state.confirmed[i] == confirming,
            ),
        )

    return _each_entry(encoding, sticks)


def _snapshot_reached_is_completed(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            state.in_snapshot[i], state.entry_state[i] == ENTRY[EntryState.COMPLETED]
        ),
    )


def _delta_has_offer(encoding: Encoding, state: State) -> Term:
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            PAYLOAD.is_one_of(state.delta_seen[k], NONEMPTY), _any_nonempty(state, k)
        ),
    )


def _end_settles(encoding: Encoding, state: State) -> Term:
    def settled(i: int) -> Term:
        entry_state = state.entry_state[i]
        # "Every entry is completed": a done entry left done by response.completed is
        # not settled (CLOSED_STATES here let the end leave a done item unfinished).
        after_completed = z3.Or(
            ENTRY.is_one_of(entry_state, (EntryState.ABSENT, EntryState.COMPLETED)),
            z3.And(ENTRY.is_one_of(entry_state, OPEN_STATES), z3.Not(state.confirmed[i])),
        )
        after_abort = z3.Not(ENTRY.is_one_of(entry_state, OPEN_STATES))
        return z3.Implies(state.terminal, z3.If(state.completed, after_completed, after_abort))

    return _each_entry(encoding, settled)


def _identity_taken(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding,
        lambda i: z3.Implies(state.name_brought[i], PAYLOAD.is_one_of(state.name[i], NONEMPTY)),
    )


def _deltas_accounted(encoding: Encoding, state: State) -> Term:
    missing = PAYLOAD[Payload.MISSING]

    def accounted(i: int, k: int) -> Term:
        unoffered = z3.And(state.held[k] == missing, state.last_offered[k] == missing)
        return z3.Implies(
            PAYLOAD.is_one_of(state.delta_seen[k], NONEMPTY),
            z3.And(
                PAYLOAD.is_one_of(final_value(state, k), NONEMPTY),
                z3.Implies(unoffered, state.pending[k] == state.delta_seen[k]),
            ),
        )

    return _each_channel(encoding, accounted)


def _reported_at_completion(
    encoding: Encoding,
    before: State,
    step: Step,
    code: Code,
    when: Callable[[int], Term],
    *,
    only_if: Term | None = None,
) -> Term:
    """At response.completed (and ``only_if``), each entry the end reaches is reported
    ``code`` exactly when ``when`` holds of it (R9's two reports at the end)."""

    def reported(i: int) -> Term:
        return z3.Implies(
            z3.And(
                encoding.delivers(before, step, i),
                step.trigger == TRIGGER[Trigger.RESPONSE_COMPLETED],
                z3.BoolVal(True) if only_if is None else only_if,
            ),
            encoding.raised_by(before, step, i)[code] == when(i),
        )

    return _each_entry(encoding, reported)


def _unconfirmed_reported(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    return _reported_at_completion(
        encoding,
        before,
        step,
        Code.UNCONFIRMED_ITEM,
        lambda i: z3.And(
            ENTRY.is_one_of(before.entry_state[i], OPEN_STATES), z3.Not(before.confirmed[i])
        ),
    )


def _late(encoding: Encoding) -> tuple[Code, ...]:
    """The codes a late event is reported as, in ``Code`` order (one ``Or`` term each):
    ``late_codes`` of the note codes the encoding reads, so a proof that asks counts
    ``note_codes`` among its reads and no other proof does (``proofs.reads``)."""
    late = late_codes(encoding.tables.note_codes)
    return tuple(code for code in Code if code in late)


def _late_reported(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    codes = _late(encoding)

    def reported(i: int) -> Term:
        raised = encoding.raised_by(before, step, i)
        late = z3.And(
            encoding.delivers(before, step, i),
            ENTRY.is_one_of(before.entry_state[i], (*CLOSED_STATES, EntryState.INCOMPLETE)),
            z3.Not(TRIGGER.is_one_of(step.trigger, _RECONCILING)),
        )
        return z3.Implies(late, z3.Or([raised[code] for code in (*codes, Code.DUPLICATE_ITEM)]))

    return _each_entry(encoding, reported)


def _slot_reuse_reported(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    def reported(i: int) -> Term:
        admitted_at_bound_slot = z3.And(
            encoding.delivers(before, step, i),
            before.entry_state[i] == ENTRY[EntryState.ABSENT],
            after.entry_state[i] != ENTRY[EntryState.ABSENT],
            select(before.slot_state, step.slot) != SLOT[SlotState.FREE],
        )
        return z3.Implies(
            admitted_at_bound_slot, encoding.raised_by(before, step, i)[Code.SLOT_REUSED]
        )

    return _each_entry(encoding, reported)


def _parts_opened(encoding: Encoding, state: State) -> Term:
    return _each_channel(
        encoding, lambda i, k: state.parts_opened[k] == state.parts_announced[k]
    )


def _done_closes_its_channel(encoding: Encoding, state: State) -> Term:
    return _each_channel(encoding, lambda i, k: state.channel_closed[k] == state.done_seen[k])


def _closed_by_its_events(encoding: Encoding, state: State) -> Term:
    def closed(i: int) -> Term:
        entry_state = state.entry_state[i]
        done, completed = ENTRY[EntryState.DONE], ENTRY[EntryState.COMPLETED]
        return z3.And(
            z3.Implies(entry_state == done, state.item_done_seen[i]),
            z3.Implies(
                state.item_done_seen[i], z3.Or(entry_state == done, entry_state == completed)
            ),
            z3.Implies(state.in_snapshot[i], entry_state == completed),
            z3.Implies(entry_state == completed, z3.Or(state.in_snapshot[i], state.completed)),
        )

    return _each_entry(encoding, closed)


def _open_state_follows_events(encoding: Encoding, state: State) -> Term:
    def follows(i: int) -> Term:
        entry_state = state.entry_state[i]
        called_for = z3.If(
            z3.Or(list(encoding.of_entry(state.done_seen, i))),
            ENTRY[EntryState.PAYLOAD_DONE],
            z3.If(state.streamed[i], ENTRY[EntryState.STREAMING], ENTRY[EntryState.ADDED]),
        )
        return z3.Implies(ENTRY.is_one_of(entry_state, OPEN_STATES), entry_state == called_for)

    return _each_entry(encoding, follows)


def _values_offered(encoding: Encoding, state: State) -> Term:
    return _each_channel(encoding, lambda i, k: last_offer(state, k) == state.brought[k])


def _channel_events_stay_in_channel(
    encoding: Encoding, before: State, step: Step, after: State
) -> Term:
    closed = encoding.named_channel(before.channel_closed, step)
    codes = _late(encoding)

    def local(i: int) -> Term:
        was_open = ENTRY.is_one_of(before.entry_state[i], OPEN_STATES)
        late = z3.And(
            step.entry == i,
            encoding.delivers(before, step, i),
            _admitted(before, i),
            step.event == TRIGGER[Trigger.DELTA],
            closed,
        )
        return z3.And(
            z3.If(
                was_open,
                ENTRY.is_one_of(after.entry_state[i], OPEN_STATES),
                after.entry_state[i] == before.entry_state[i],
            ),
            z3.Implies(late, z3.Or([encoding.raised_by(before, step, i)[code] for code in codes])),
        )

    return z3.Implies(
        TRIGGER.is_one_of(step.event, CHANNEL_TRIGGERS),
        z3.And(after.terminal == before.terminal, _each_entry(encoding, local)),
    )


def _duplicate_reported(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    def repeated(i: int) -> Term:
        # What the event repeats, from the ghosts of the events that reached the entry.
        return z3.Or(
            z3.And(step.event == TRIGGER[Trigger.ITEM_ADDED], _admitted(before, i)),
            z3.And(step.event == TRIGGER[Trigger.ITEM_DONE], before.item_done_seen[i]),
            z3.And(step.event == TRIGGER[Trigger.SNAPSHOT_ITEM], before.in_snapshot[i]),
        )

    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            z3.And(encoding.delivers(before, step, i), repeated(i)),
            encoding.raised_by(before, step, i)[Code.DUPLICATE_ITEM],
        ),
    )


_FIRST_SIGHT: dict[Trigger, Code] = {
    Trigger.ITEM_DONE: Code.DONE_ONLY_ITEM,
    Trigger.SNAPSHOT_ITEM: Code.SNAPSHOT_ONLY_ITEM,
}
"""The report an item is owed when its event is the first that reaches its entry (R6):
the obligation ``first_sight_reported``, stated against the codes the rows raise
(``Encoding.raised_by``: the lifecycle's note effects through ``NOTE_CODES``)."""


def _first_sight_reported(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    def reported(i: int) -> Term:
        first = z3.And(
            encoding.delivers(before, step, i), before.entry_state[i] == ENTRY[EntryState.ABSENT]
        )
        return z3.And(
            [
                z3.Implies(
                    z3.And(first, step.event == TRIGGER[trigger]),
                    encoding.raised_by(before, step, i)[code],
                )
                for trigger, code in _FIRST_SIGHT.items()
            ]
        )

    return _each_entry(encoding, reported)


def _missing_from_snapshot_reported(
    encoding: Encoding, before: State, step: Step, after: State
) -> Term:
    return _reported_at_completion(
        encoding,
        before,
        step,
        Code.SNAPSHOT_MISSING_ITEM,
        lambda i: before.confirmed[i],
        only_if=before.snapshot_items > 0,
    )


def _item_id_learned(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding, lambda i: z3.Implies(state.id_brought[i], state.id_named[i])
    )


def _unreached_is_blank(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            z3.Not(_admitted(state, i)),
            z3.Not(
                z3.Or(
                    state.streamed[i],
                    state.item_done_seen[i],
                    state.in_snapshot[i],
                    state.id_brought[i],
                    *encoding.of_entry(state.done_seen, i),
                )
            ),
        ),
    )


CLAUSES.update(
    {
        COMPLETENESS_STRENGTHENING["end_settles"][0]: _confirmation_sticks,
        "an entry the snapshot reached is completed": _snapshot_reached_is_completed,
        "the response is completed only by its terminal event": (
            lambda encoding, state: z3.Implies(state.completed, state.terminal)
        ),
        "an entry that received a non-empty delta has a non-empty offer": (
            _delta_has_offer
        ),
        "if any offer was non-empty, the channel's value is non-empty": (
            lambda encoding, state: _empty_never_erases(encoding, state)
        ),
        COMPLETENESS_STRENGTHENING["closed_by_its_events"][0]: _unreached_is_blank,
        "an entry a done item reached is done or completed": (
            lambda encoding, state: _each_entry(
                encoding,
                lambda i: z3.Implies(
                    state.item_done_seen[i],
                    ENTRY.is_one_of(state.entry_state[i], CLOSED_STATES),
                ),
            )
        ),
    }
)


# -- reachability (model.lifecycle.REACHABILITY): why the unreachable rows are -----------


def _snapshot_reached_while_delivered(encoding: Encoding, state: State) -> Term:
    return _each_entry(
        encoding, lambda i: z3.Implies(state.in_snapshot[i], state.snapshot_items > 0)
    )


def _closed_channel_past_streaming(encoding: Encoding, state: State) -> Term:
    early = (EntryState.ABSENT, EntryState.ADDED, EntryState.STREAMING)
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            state.channel_closed[k], z3.Not(ENTRY.is_one_of(state.entry_state[i], early))
        ),
    )


CLAUSES.update(
    {
        REACHABILITY[1]: _snapshot_reached_while_delivered,
        REACHABILITY[2]: _closed_channel_past_streaming,
    }
)
assert set(REACHABILITY) <= set(CLAUSES)


@dataclass(frozen=True)
class Property:
    """One invariant as a formula: exactly one of ``state`` and ``step`` is set.

    ``payload`` says the formula reads the abstract channels (``Encoding(payload=True)``),
    ``identity`` the abstract names (``Encoding(identity=True)``); ``routing`` that it is
    a formula over ``routing.RoutingSystem``; ``execution`` over
    ``execution_z3.ExecutionEncoding`` (the lifecycle with ``call_id`` and the evidence).
    """

    name: str
    state: StateFormula | None = None
    step: StepFormula | None = None
    payload: bool = False
    identity: bool = False
    routing: bool = False
    execution: bool = False

    @property
    def clauses(self) -> tuple[str, ...]:
        """The strengthening sentences this invariant's induction uses (the reachability
        lemmas join them in ``induction.check_induction``, where proved)."""
        return STRENGTHENING.get(self.name, ()) or COMPLETENESS_STRENGTHENING.get(self.name, ())

    def strengthening(self, encoding: Any, state: Any) -> Term:
        """The conjunction of the strengthening clauses over ``state``."""
        return z3.And([CLAUSES[clause](encoding, state) for clause in self.clauses])

    def holds(self, encoding: Any, before: Any, step: Any, after: Any) -> Term:
        """The invariant over one step (a state property is read on ``after``)."""
        if self.state is not None:
            return self.state(encoding, after)
        assert self.step is not None
        return self.step(encoding, before, step, after)


# -- the invariants -------------------------------------------------------------------


def _complete_once(encoding: Encoding, state: State) -> Term:
    return _each_entry(encoding, lambda i: state.completions[i] <= 1)


def _first_admission_wins(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    # Stated for the name; call_id and namespace are merged by the same table.  The
    # type never changes (matching requires it equal) and the encoding has no other.
    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            PAYLOAD.is_one_of(before.name[i], NONEMPTY), after.name[i] == before.name[i]
        ),
    )


def _slot_first_write(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    slot = SLOT.__getitem__

    def slot_moves(old: Term, new: Term) -> Term:
        return z3.And(
            z3.Implies(old != slot(SlotState.FREE), new != slot(SlotState.FREE)),
            z3.Implies(old == slot(SlotState.SHARED), new == slot(SlotState.SHARED)),
        )

    return z3.And(
        *[
            slot_moves(old, new)
            for old, new in zip(before.slot_state, after.slot_state, strict=True)
        ],
        _each_entry(
            encoding,
            lambda i: z3.Implies(_admitted(before, i), after.entry_slot[i] == before.entry_slot[i]),
        ),
    )


def _entry_components(encoding: Encoding, state: State, i: int) -> list[Term]:
    per_entry = [
        state.entry_state,
        state.entry_slot,
        state.completions,
        state.admissions,
        state.confirmed,
        state.name,
    ]
    per_channel = [state.channel_closed, state.held, state.pending, state.last_offered]
    return [terms[i] for terms in per_entry] + [
        term for terms in per_channel for term in encoding.of_entry(terms, i)
    ]


def _unchanged_entry(encoding: Encoding, before: State, after: State, i: int) -> Term:
    pairs = zip(
        _entry_components(encoding, before, i),
        _entry_components(encoding, after, i),
        strict=True,
    )
    return z3.And([old == new for old, new in pairs])


def _no_cross_talk(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    wide = TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS)
    return z3.Or(
        wide,
        _each_entry(
            encoding,
            lambda i: z3.Or(step.entry == i, _unchanged_entry(encoding, before, after, i)),
        ),
    )


_RECONCILING: tuple[Trigger, ...] = (Trigger.SNAPSHOT_ITEM, *RESPONSE_WIDE_TRIGGERS)
"""Triggers that legitimately change a done entry: the snapshot reconciles (R3), the
response end settles."""


def _late_is_inert(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    notes = note_effects(encoding.tables.note_codes)

    def late(state: EntryState, trigger: Trigger, effects: tuple[Effect, ...]) -> bool:
        return not LATE_EFFECTS.isdisjoint(effects) or (
            state in CLOSED_STATES and trigger not in _RECONCILING
        )

    def inert(state: EntryState, next_state: EntryState, effects: tuple[Effect, ...]) -> bool:
        return next_state is state and all(effect in notes for effect in effects)

    def reached_late(i: int) -> Term:
        return z3.And(
            encoding.delivers(before, step, i),
            encoding.rows_where(
                before.entry_state[i], step.trigger, lambda s, t, move: late(s, t, move.effects)
            ),
        )

    def row_inert(i: int) -> Term:
        return encoding.rows_where(
            before.entry_state[i],
            step.trigger,
            lambda s, t, move: inert(s, move.next_state, move.effects),
        )

    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            reached_late(i), z3.And(row_inert(i), _unchanged_entry(encoding, before, after, i))
        ),
    )


def _nothing_lost(encoding: Encoding, state: State) -> Term:
    return z3.And(
        _each_entry(
            encoding,
            lambda i: state.admissions[i] == z3.If(_admitted(state, i), 1, 0),
        ),
        z3.Not(state.snapshot_dropped),
        z3.Not(state.done_dropped),
    )


def _terminal_is_final(encoding: Encoding, before: State, step: Step, after: State) -> Term:
    return z3.Implies(before.terminal, encoding.equal(before, after))


def _executable_needs_completion(encoding: Encoding, state: State) -> Term:
    # The driver's rule (R9): an entry is executable when the response completed and
    # the entry was confirmed; the invariant asks that "confirmed" meant an event.
    return _each_entry(
        encoding,
        lambda i: z3.Implies(
            z3.And(state.completed, state.confirmed[i]),
            state.confirming_seen[i],
        ),
    )


def final_value(state: State, k: int) -> Term:
    """Channel ``k``'s final value as the driver reads it: the held value, or the joined
    deltas when nothing is held."""
    missing = PAYLOAD[Payload.MISSING]
    return z3.If(
        z3.And(state.pending[k] != missing, state.held[k] == missing),
        state.pending[k],
        state.held[k],
    )


def last_offer(state: State, k: int) -> Term:
    """Channel ``k``'s last non-empty offer: the deltas not yet offered, else the last
    offered."""
    return z3.If(
        state.pending[k] != PAYLOAD[Payload.MISSING], state.pending[k], state.last_offered[k]
    )


def _any_nonempty(state: State, k: int) -> Term:
    return last_offer(state, k) != PAYLOAD[Payload.MISSING]


def _empty_never_erases(encoding: Encoding, state: State) -> Term:
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            _any_nonempty(state, k), PAYLOAD.is_one_of(final_value(state, k), NONEMPTY)
        ),
    )


def _latest_nonempty_wins(encoding: Encoding, state: State) -> Term:
    return _each_channel(
        encoding,
        lambda i, k: z3.Implies(
            _any_nonempty(state, k), final_value(state, k) == last_offer(state, k)
        ),
    )


PROPERTIES: dict[str, Property] = {
    prop.name: prop
    for prop in (
        Property("complete_once", state=_complete_once),
        Property("first_admission_wins", step=_first_admission_wins, identity=True),
        Property("slot_first_write", step=_slot_first_write),
        Property("no_cross_talk", step=_no_cross_talk),
        Property("ambiguity_rejected", step=ambiguity_rejected, routing=True),
        Property("late_is_inert", step=_late_is_inert),
        Property("empty_never_erases", state=_empty_never_erases, payload=True),
        Property("latest_nonempty_wins", state=_latest_nonempty_wins, payload=True),
        Property("nothing_lost", state=_nothing_lost),
        Property("terminal_is_final", step=_terminal_is_final),
        Property("executable_needs_completion", state=_executable_needs_completion),
        *(
            Property(name, state=formula, execution=True)
            for name, formula in EXECUTABLE_FACTS.items()
        ),
    )
}
"""Every invariant of ``model.invariants``, as a Z3 formula, by name, in DESIGN order."""

COMPLETENESS_PROPERTIES: dict[str, Property] = {
    prop.name: prop
    for prop in (
        Property("confirmation_sticks", state=_confirmation_sticks),
        Property("end_settles", state=_end_settles),
        Property("identity_taken", state=_identity_taken, identity=True),
        Property("deltas_accounted", state=_deltas_accounted, payload=True),
        Property("parts_opened", state=_parts_opened),
        Property("done_closes_its_channel", state=_done_closes_its_channel),
        Property("unconfirmed_reported", step=_unconfirmed_reported),
        Property("late_reported", step=_late_reported),
        Property("slot_reuse_reported", step=_slot_reuse_reported),
        Property("routed_to_its_entry", step=routed_to_its_entry, routing=True),
        Property("refusal_reported", step=refusal_reported, routing=True),
        Property("closed_by_its_events", state=_closed_by_its_events),
        Property("open_state_follows_events", state=_open_state_follows_events),
        Property("values_offered", state=_values_offered, payload=True),
        Property("channel_events_stay_in_channel", step=_channel_events_stay_in_channel),
        Property("duplicate_reported", step=_duplicate_reported),
        Property("item_id_learned", state=_item_id_learned),
        Property("missing_from_snapshot_reported", step=_missing_from_snapshot_reported),
        Property("first_sight_reported", step=_first_sight_reported),
        *(
            Property(name, state=formula, execution=True)
            for name, formula in EXECUTABLE_OBLIGATIONS.items()
        ),
    )
}
"""Every obligation of ``model.completeness``, as a Z3 formula, by name."""
PROPERTIES.update(COMPLETENESS_PROPERTIES)


STRUCTURAL: dict[str, str] = {
    "no_cross_talk": "the driver delivers an entry-scoped event to one entry; the tables "
    "cannot say otherwise (misrouting is a routing-table question: ambiguity_rejected)",
    "terminal_is_final": "the driver ignores every event after the terminal one before any "
    "table is consulted",
}
"""Invariants that hold by construction of the driver, not by a table row."""


def stated(name: str) -> Property:
    """The property of invariant or obligation ``name``, checked against its entry's
    scope: a state formula for ``STATE`` and ``FINAL``, a step formula for ``STEP``.

    Checked here, when a row proves it, not when the property is made: the row then
    reads its own entry of ``INVARIANTS_BY_NAME`` or ``COMPLETENESS_BY_NAME``
    (``proofs.reads.Entries``), so an edit of one entry re-runs the rows that prove it.
    """
    prop = PROPERTIES[name]
    known = INVARIANTS_BY_NAME.get(name) or COMPLETENESS_BY_NAME[name]
    expected_state = known.scope is not Scope.STEP
    if (prop.state is not None) != expected_state or (prop.step is not None) == expected_state:
        raise ValueError(f"{name}: the formula does not match scope {known.scope.value}")
    return prop
