"""Induction for any number of channels per entry (and any number of entries and slots).

Theory of operation
-------------------
The other proofs give each entry ``PROOF_CHANNELS`` (two) channels: a message of one or
two parts.  A message may have any number of parts, and this module proves the
invariants that speak about each channel on its own (the payload invariants, the parts
and the closing of channels) or about the entry alone (``ANY_CHANNELS``) for every
number of channels, as ``unbounded.py`` does for entries.

*State.*  ``unbounded.py``'s arrays, with one more index: a per-channel field is an
array over entries of arrays over channels (``Int`` → ``Int`` → value); an entry's
fields are arrays over entries; the response's fields are scalars.  No slot.

*Step.*  The event's ``channel`` is any ``Int >= 0`` and it brings one abstract value
per channel (an array, ``values``).  The transition is the bounded encoding's own
``Encoding._apply`` on a two-channel one-entry *view*: channel 0 of the view is the
channel ``q`` being updated, channel 1 the channel the event names (``j``).  A channel's
next value reads only its entry, itself and the channel the event names (the named
channel's closed flag reclassifies a delta, R7): every other channel is outside the
view and cannot matter.  That is checked, not assumed: ``agrees_with_encoding`` proves
that the view computes what the bounded encoding with three channels per entry computes,
for every state, step and channel (each proof asks it first).  The event names view
channel 0 when ``j == q`` (both view channels are then the same channel), view channel 1
otherwise.  Each channel of the
target is updated with a ``Lambda`` over ``q``; the entry's own fields from the view in
which ``q`` is ``j``; a response-wide step updates every channel of every admitted entry
at once, as ``unbounded.py`` updates every entry.

*Invariant.*  The property and its strengthening are read on a one-channel view
(entry ``i``, channel ``c``), so the hypothesis is ``∀ i, c. (Inv ∧ Str)(view(i, c))`` and
the goal ``(Inv ∧ Str)(view'(k, q))`` for fresh ``k`` and ``q``.  That is the invariant
for every number of channels only if the property *is* the conjunction of its readings
on each channel: ``separable`` proves, before anything else, that on a two-channel entry
the formula equals the conjunction of its two one-channel readings (a formula that
relates two channels is refused, never proved).  A run of a concrete encoding with
``C`` channels is a run of this system (the values of the channels beyond ``C`` all
missing), so a proof here covers every ``C``.

A mutant that breaks an invariant at some number of channels breaks it here; one that
needs two channels to show (a part's ``*.done`` and another part's delta: the
``CHANNEL_MUTANTS``) is proved on one channel and refuted at two
(``tests/proofs/test_any_channels.py``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import z3
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import RESPONSE_WIDE_TRIGGERS

from .encoding import (
    FIELD_SCOPES,
    PAYLOAD,
    TRIGGER,
    Bounds,
    Encoding,
    State,
    Step,
    Term,
    select,
)
from .properties import Property, stated
from .reads import remembered
from .unbounded import (
    _ENTRY_FIELDS,
    _INITIAL,
    _RESPONSE_FIELDS,
    _SORT_OF,
    RLIMIT,
    induction_verdict,
    response_after,
    target_environment,
)

ANY_CHANNELS: tuple[str, ...] = (
    # about each channel on its own
    "empty_never_erases",
    "latest_nonempty_wins",
    "deltas_accounted",
    "values_offered",
    "parts_opened",
    "done_closes_its_channel",
    # about each entry, whatever its channels do
    "complete_once",
    "nothing_lost",
    "executable_needs_completion",
    "confirmation_sticks",
    "end_settles",
    "identity_taken",
    "closed_by_its_events",
    "item_id_learned",
)
"""The invariants proved for any number of channels: the state invariants of
``unbounded.UNBOUNDED`` that are ``separable`` (about each channel on its own, or about
the entry alone).  ``open_state_follows_events`` is not: it relates an entry's state to
all of its channels (``separable`` refuses it)."""

Arrays = dict[str, Term]
"""The state: per field an array over entries (of arrays over channels), or a term."""

_INT = z3.IntSort()


def _per_channel(field: str) -> bool:
    return FIELD_SCOPES[field] == "channel"


def _sort(field: str) -> Any:
    sort = _SORT_OF[field]
    return z3.ArraySort(_INT, sort) if _per_channel(field) else sort


def _fresh(name: str) -> Arrays:
    state: Arrays = {f: z3.Array(f"{name}.{f}", _INT, _sort(f)) for f in _ENTRY_FIELDS}
    state["snapshot_items"] = z3.Int(f"{name}.snapshot_items")
    for flag in _RESPONSE_FIELDS[1:]:
        state[flag] = z3.Bool(f"{name}.{flag}")
    return state


def _initial(state: Arrays) -> Term:
    def constant(field: str) -> Term:
        value = _INITIAL[field]
        return z3.K(_INT, z3.K(_INT, value) if _per_channel(field) else value)

    return z3.And(
        *[state[f] == constant(f) for f in _ENTRY_FIELDS],
        state["snapshot_items"] == 0,
        *[z3.Not(state[flag]) for flag in _RESPONSE_FIELDS[1:]],
    )


def _view(state: Arrays, index: Term, channels: tuple[Term, ...]) -> State:
    """The one-entry state of entry ``index`` whose channels are ``channels`` (ordinals)."""
    values: dict[str, Any] = {
        f: tuple(state[f][index][c] for c in channels) if _per_channel(f) else (state[f][index],)
        for f in _ENTRY_FIELDS
    }
    values.update({f: state[f] for f in _RESPONSE_FIELDS})
    return State(**values, entry_slot=(z3.IntVal(0),), slot_state=())


class _System:
    """The transition system of one model over entries and channels without bound."""

    def __init__(self, tables: ModelTables, prop: Property) -> None:
        self.one = Encoding(tables, Bounds(1, 0), prop.payload, prop.identity, 1)
        self.two = Encoding(tables, Bounds(1, 0), prop.payload, prop.identity, 2)
        self.values = z3.Array("e.values", _INT, PAYLOAD.sort)
        self.step = replace(self.two.fresh_step("e"), values=())

    def local(self, q: Term) -> Step:
        """The step on the view whose channel 0 is ``q`` and channel 1 the named one."""
        step, named = self.step, self.step.channel
        return replace(
            step,
            entry=z3.IntVal(0),
            channel=z3.If(named == q, 0, 1),
            values=(self.values[q], self.values[named]),
        )

    def updated(self, state: Arrays, index: Term, q: Term, active: Term) -> State:
        """The view ``(q, named)`` of entry ``index`` after the step reached it."""
        view = _view(state, index, (q, self.step.channel))
        return self.two._apply(view, self.local(q), 0, active)

    def successor(self, state: Arrays) -> Arrays:
        step, named = self.step, self.step.channel
        live = z3.Not(state["terminal"])
        wide = TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS)
        i, q = z3.Int("i"), z3.Int("q")

        def reached(index: Term) -> Term:
            return self.two.delivers(_view(state, index, (named, named)), step, 0)

        target, target_q = self.updated(state, step.entry, named, live), self.updated(
            state, step.entry, q, live
        )
        everyone, everyone_q = self.updated(state, i, named, reached(i)), self.updated(
            state, i, q, reached(i)
        )
        after: Arrays = {}
        for f in _ENTRY_FIELDS:
            if _per_channel(f):
                stored = z3.Store(state[f], step.entry, z3.Lambda([q], getattr(target_q, f)[0]))
                at_once = z3.Lambda([i], z3.Lambda([q], getattr(everyone_q, f)[0]))
            else:
                stored = z3.Store(state[f], step.entry, getattr(target, f)[0])
                at_once = z3.Lambda([i], getattr(everyone, f)[0])
            after[f] = z3.If(wide, at_once, stored)
        after.update(response_after(state, step, target.entry_state[0]))
        return after

    def environment(self, state: Arrays) -> Term:
        """The target's environment clauses, on the view whose channels are both the
        named one."""
        step, named = self.step, self.step.channel
        view = _view(state, step.entry, (named, named))
        local = replace(self.local(named), channel=z3.IntVal(0))
        return z3.And(
            step.entry >= 0,
            named >= 0,
            *target_environment(self.two, view, local),
        )


def agrees_with_encoding(tables: ModelTables, channels: int) -> bool:
    """Whether the two-channel view computes what the bounded encoding with ``channels``
    channels per entry computes (proved by Z3 for every state, step and channel ``q``,
    whether the step reaches the entry or not): the entry's own fields, and channel
    ``q``'s as channel 0 of the view ``(q, named)``.  The check that a channel's next
    value reads nothing but its entry, itself and the named channel."""
    wide = Encoding(tables, Bounds(1, 1), True, True, channels)
    two = Encoding(tables, Bounds(1, 1), True, True, 2)
    state, step = wide.fresh_state("w"), wide.fresh_step("we")
    active = z3.Bool("active")
    after = wide._apply(state, step, 0, active)
    named = step.channel
    disagreements = []
    for q in range(channels):
        view = replace(
            state,
            **{
                f: (getattr(state, f)[q], select(getattr(state, f), named))
                for f in _ENTRY_FIELDS
                if _per_channel(f)
            },
        )
        local = replace(
            step,
            channel=z3.If(named == q, 0, 1),
            values=(step.values[q], select(step.values, named)),
        )
        moved = two._apply(view, local, 0, active)
        for f in _ENTRY_FIELDS:
            mine, theirs = getattr(after, f), getattr(moved, f)
            pair = (mine[q], theirs[0]) if _per_channel(f) else (mine[0], theirs[0])
            disagreements.append(pair[0] != pair[1])
    solver = z3.Solver()
    solver.add(wide.domain(state), wide.environment(state, step))
    # The environment must allow steps, or the check says nothing.
    if solver.check() != z3.sat:
        return False
    solver.add(z3.Or(disagreements))
    return bool(solver.check() == z3.unsat)


CHECKED_AT = 3
"""The number of channels at which every proof first checks ``agrees_with_encoding``:
the least at which a channel could read one that is neither itself nor the named one."""

_AGREES: dict[int, tuple[ModelTables, frozenset[str], bool]] = {}
"""``agrees_with_encoding`` per model (every invariant of a run asks it)."""


def _agrees(tables: ModelTables) -> bool:
    return remembered(_AGREES, id(tables), tables, lambda: agrees_with_encoding(tables, CHECKED_AT))


def _holds(prop: Property, encoding: Encoding, view: State) -> Term:
    assert prop.state is not None
    return z3.And(prop.state(encoding, view), prop.strengthening(encoding, view))


def separable(tables: ModelTables, prop: Property) -> bool:
    """Whether ``prop`` and its strengthening, on an entry of two channels, are exactly
    the conjunction of their readings on each channel alone (proved by Z3 for every
    state of the entry): the condition under which a proof on one channel at a time is a
    proof for any number.  A step property is not (it reads the step's channel)."""
    if prop.state is None:
        return False
    system = _System(tables, prop)
    state = _fresh("p")
    k, a, b = z3.Ints("k a b")
    pair = _holds(prop, system.two, _view(state, k, (a, b)))
    each = z3.And(
        _holds(prop, system.one, _view(state, k, (a,))),
        _holds(prop, system.one, _view(state, k, (b,))),
    )
    solver = z3.Solver()
    solver.add(pair != each)
    return bool(solver.check() == z3.unsat)


def prove_any_channels(
    tables: ModelTables, invariant: str, rlimit: int = RLIMIT
) -> tuple[bool, str]:
    """Base and induction of ``invariant`` for any number of channels, entries and
    slots, each query given ``rlimit``.  Returns whether both hold, and what was found."""
    if invariant not in ANY_CHANNELS:
        return False, f"{invariant} has no encoding for any number of channels"
    prop = stated(invariant)
    if not separable(tables, prop):
        return False, f"{invariant} is not the conjunction of its readings per channel"
    if not _agrees(tables):
        return False, f"the two-channel view differs from the encoding at {CHECKED_AT} channels"
    system = _System(tables, prop)

    def holds(state: Arrays, index: Term, channel: Term) -> Term:
        return _holds(prop, system.one, _view(state, index, (channel,)))

    state = _fresh("s")
    k, q = z3.Ints("k q")
    base = z3.Solver()
    base.set(rlimit=rlimit)
    base.add(_initial(state), k >= 0, q >= 0, z3.Not(holds(state, k, q)))
    base_result = base.check()

    after = system.successor(state)
    i, c = z3.Ints("i c")
    induction = z3.Solver()
    induction.set(rlimit=rlimit)
    induction.add(
        z3.ForAll([i, c], z3.Implies(z3.And(i >= 0, c >= 0), holds(state, i, c))),
        state["snapshot_items"] >= 0,
        system.environment(state),
        k >= 0,
        q >= 0,
        z3.Not(holds(after, k, q)),
    )
    step_result = induction.check()
    premise = z3.Solver()
    premise.add(_initial(state), system.environment(state))
    return induction_verdict(
        base_result, step_result, premise, "any number of channels, entries and slots"
    )
