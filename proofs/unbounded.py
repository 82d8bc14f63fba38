"""Induction for any number of entries: arrays and a universally quantified invariant.

Theory of operation
-------------------
The bounded proofs fix ``N`` entries and ``M`` slots.  For the invariants that speak
about each entry on its own (``UNBOUNDED``), this module proves them for every ``N``
and ``M`` at once.  Each per-entry field of ``encoding.State`` becomes an array indexed
by the entry ordinal (an unbounded ``Int``); the response-level fields stay scalars.
Slots are abstracted away: no per-entry field and no formula here reads a slot, so
dropping them (and the environment clauses about them) only adds behaviours — a proof
over more behaviours is still a proof.  ``admission_in_order`` is dropped for the same
reason.

Each entry has ``PROOF_CHANNELS`` channels, as in the bounded proofs: a per-channel
field is one array per channel.  The transition reuses the bounded encoding itself, on
a *view*: the one-entry
``State`` whose fields are the array cells at one index.  An entry-scoped step stores
the view of its target, updated by ``Encoding._apply`` of a one-entry encoding; a
response-wide step updates every admitted entry at once (a ``Lambda``), which equals
the driver's entry-by-entry loop because, without slots, entries do not interact.
The invariant and its strengthening are the same formulas (``properties``) read on a
view, so nothing is written twice.  Who runs a call (``execution_z3``) is proved the
same way: the per-entry fields ``ExecutionEncoding`` adds (``call_id`` and the
evidence) become arrays too, ``tools`` a response-level term, and the transition is the
one-entry ``ExecutionEncoding`` on a view (``_ExecutionArrays``).

The queries: base, ``Init ∧ ¬(Inv ∧ Str)(view(k))``; induction,
``(∀i. (Inv ∧ Str)(view(i))) ∧ Env ∧ ¬(Inv ∧ Str)(view'(k))`` for a fresh ``k``.  A
per-entry *step* invariant ``P`` (``first_admission_wins``) is read the same way:
``Inv`` is dropped from the hypothesis and ``P(view(k), e, view'(k))`` joins the goal.
Both unsatisfiable: ``PROVED_UNBOUNDED``.  When the invariant does not hold Z3 may
answer ``sat`` (a counterexample to induction) or ``unknown`` (pitfall 4 of the tool
notes): either is reported as not proved, never as a counterexample.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import z3
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    RESPONSE_WIDE_TRIGGERS,
    ROUTED_TRIGGERS,
    EntryState,
    Trigger,
)

from .encoding import (
    ENTRY,
    FIELD_SCOPES,
    PAYLOAD,
    PROOF_CHANNELS,
    TRIGGER,
    Bounds,
    Encoding,
    Payload,
    State,
    Step,
    Term,
)
from .execution_z3 import ANSWER, ExecutionEncoding, ExecutionState
from .properties import Property, stated

UNBOUNDED: tuple[str, ...] = (
    "complete_once",
    "first_admission_wins",
    "empty_never_erases",
    "latest_nonempty_wins",
    "nothing_lost",
    "executable_needs_completion",
    # completeness obligations (model.completeness) about each entry on its own
    "confirmation_sticks",
    "end_settles",
    "identity_taken",
    "deltas_accounted",
    "parts_opened",
    "done_closes_its_channel",
    "closed_by_its_events",
    "open_state_follows_events",
    "values_offered",
    "item_id_learned",
    # who runs a call (execution_z3): each entry's verdict is its own
    "executable_is_confirmed",
    "executable_in_completed_response",
    "executable_has_call_id",
    "executable_is_client_run",
    "client_run_is_executable",
    "verdict_says_why",
    "withheld_reported",
)
"""The invariants proved for any number of entries: those about each entry on its own."""

_RESPONSE_FIELDS = tuple(f for f, scope in FIELD_SCOPES.items() if scope == "response")
_SLOT_FIELDS = ("entry_slot", "slot_state")
_ENTRY_FIELDS = tuple(
    f.name for f in fields(State) if f.name not in _RESPONSE_FIELDS + _SLOT_FIELDS
)
_CHANNELS = PROOF_CHANNELS
"""Channels per entry: each per-channel field is one array per channel."""


def _arrays(field: str) -> tuple[str, ...]:
    """The array names of one per-entry field: one, or one per channel."""
    if FIELD_SCOPES[field] == "channel":
        return tuple(f"{field}#{c}" for c in range(_CHANNELS))
    return (field,)

_SORT_OF: dict[str, Any] = {
    "entry_state": ENTRY.sort,
    "completions": z3.IntSort(),
    "admissions": z3.IntSort(),
    "channel_closed": z3.BoolSort(),
    "confirmed": z3.BoolSort(),
    "confirming_seen": z3.BoolSort(),
    "in_snapshot": z3.BoolSort(),
    "held": PAYLOAD.sort,
    "pending": PAYLOAD.sort,
    "last_offered": PAYLOAD.sort,
    "name": PAYLOAD.sort,
    "delta_seen": PAYLOAD.sort,
    "name_brought": z3.BoolSort(),
    "parts_announced": z3.IntSort(),
    "parts_opened": z3.IntSort(),
    "done_seen": z3.BoolSort(),
    "item_done_seen": z3.BoolSort(),
    "streamed": z3.BoolSort(),
    "brought": PAYLOAD.sort,
    "id_brought": z3.BoolSort(),
    "id_named": z3.BoolSort(),
}
_INITIAL: dict[str, Term] = {
    "entry_state": ENTRY[EntryState.ABSENT],
    "completions": z3.IntVal(0),
    "admissions": z3.IntVal(0),
    "channel_closed": z3.BoolVal(False),
    "confirmed": z3.BoolVal(False),
    "confirming_seen": z3.BoolVal(False),
    "in_snapshot": z3.BoolVal(False),
    "held": PAYLOAD[Payload.MISSING],
    "pending": PAYLOAD[Payload.MISSING],
    "last_offered": PAYLOAD[Payload.MISSING],
    "name": PAYLOAD[Payload.MISSING],
    "delta_seen": PAYLOAD[Payload.MISSING],
    "name_brought": z3.BoolVal(False),
    "parts_announced": z3.IntVal(0),
    "parts_opened": z3.IntVal(0),
    "done_seen": z3.BoolVal(False),
    "item_done_seen": z3.BoolVal(False),
    "streamed": z3.BoolVal(False),
    "brought": PAYLOAD[Payload.MISSING],
    "id_brought": z3.BoolVal(False),
    "id_named": z3.BoolVal(False),
}
assert set(_SORT_OF) == set(_ENTRY_FIELDS) == set(_INITIAL)

Arrays = dict[str, Term]
"""The state: an array per per-entry field, a term per response-level field."""


def _fresh(name: str) -> Arrays:
    state: Arrays = {
        a: z3.Array(f"{name}.{a}", z3.IntSort(), _SORT_OF[f])
        for f in _ENTRY_FIELDS
        for a in _arrays(f)
    }
    state["snapshot_items"] = z3.Int(f"{name}.snapshot_items")
    for flag in _RESPONSE_FIELDS[1:]:
        state[flag] = z3.Bool(f"{name}.{flag}")
    return state


def _initial(state: Arrays) -> Term:
    return z3.And(
        *[
            state[a] == z3.K(z3.IntSort(), _INITIAL[f])
            for f in _ENTRY_FIELDS
            for a in _arrays(f)
        ],
        state["snapshot_items"] == 0,
        z3.Not(state["snapshot_dropped"]),
        z3.Not(state["done_dropped"]),
        z3.Not(state["completed"]),
        z3.Not(state["terminal"]),
    )


def _view(state: Arrays, index: Term) -> State:
    """The one-entry state of entry ``index``: array cells and the response fields."""
    values: dict[str, Any] = {
        f: tuple(state[a][index] for a in _arrays(f)) for f in _ENTRY_FIELDS
    }
    values.update({f: state[f] for f in _RESPONSE_FIELDS})
    return State(**values, entry_slot=(z3.IntVal(0),), slot_state=())


class ArraySystem:
    """The array transition system of one model (``_ExecutionArrays`` adds fields: the
    ``call_id`` and evidence of ``execution_z3``)."""

    def __init__(self, tables: ModelTables, payload: bool, identity: bool) -> None:
        self.one = Encoding(tables, Bounds(1, 0), payload, identity, _CHANNELS)
        self.payload = payload

    def fresh(self, name: str) -> Arrays:
        """A state of fresh arrays."""
        return _fresh(name)

    def initial(self, state: Arrays) -> Term:
        """The state before the first event."""
        return _initial(state)

    def view(self, state: Arrays, index: Term) -> State:
        """The one-entry state of entry ``index``."""
        return _view(state, index)

    def in_domain(self, state: Arrays, index: Term) -> Term:
        """The range of entry ``index``'s fields (none beyond their sorts here)."""
        return z3.BoolVal(True)

    def wide(self, step: Step) -> Term:
        """``step`` is response-wide: it reaches every entry at once."""
        return TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS)

    def updated(self, state: Arrays, step: Step, index: Term, active: Term) -> State:
        """The view of entry ``index`` after ``step`` reached it (if ``active``)."""
        local = replace(step, entry=z3.IntVal(0))
        return self.one._apply(self.view(state, index), local, 0, active)

    def successor(self, state: Arrays, step: Step) -> Arrays:
        """The arrays after ``step``."""
        live = z3.Not(state["terminal"])
        wide = self.wide(step)
        i = z3.Int("i")
        target = self.updated(state, step, step.entry, live)
        everyone = self.updated(state, step, i, self.one.delivers(self.view(state, i), step, 0))
        after: Arrays = {}
        for f in _ENTRY_FIELDS:
            for position, a in enumerate(_arrays(f)):
                stored = z3.Store(state[a], step.entry, getattr(target, f)[position])
                at_once = z3.Lambda([i], getattr(everyone, f)[position])
                after[a] = z3.If(wide, at_once, stored)
        after.update(response_after(state, step, target.entry_state[0]))
        return after

    def environment(self, state: Arrays, step: Step) -> Term:
        """The environment clauses that speak of the target entry and the response
        (the ones about slots and admission order are dropped: fewer assumptions)."""
        local = replace(step, entry=z3.IntVal(0))
        return z3.And(
            step.entry >= 0,
            step.channel >= 0,
            step.channel < _CHANNELS,
            *target_environment(self.one, self.view(state, step.entry), local),
        )


def response_after(state: Arrays, step: Step, target: Term) -> Arrays:
    """The response-level fields after ``step``, whose target entry is in state
    ``target`` after it (an item no row admitted leaves it absent: dropped)."""
    live = z3.Not(state["terminal"])
    snapshot_item = z3.And(live, step.trigger == TRIGGER[Trigger.SNAPSHOT_ITEM])
    absent = target == ENTRY[EntryState.ABSENT]
    return {
        "snapshot_items": z3.If(
            snapshot_item, state["snapshot_items"] + 1, state["snapshot_items"]
        ),
        "snapshot_dropped": z3.Or(state["snapshot_dropped"], z3.And(snapshot_item, absent)),
        "done_dropped": z3.Or(
            state["done_dropped"],
            z3.And(live, step.trigger == TRIGGER[Trigger.ITEM_DONE], absent),
        ),
        "completed": z3.Or(
            state["completed"],
            z3.And(live, step.trigger == TRIGGER[Trigger.RESPONSE_COMPLETED]),
        ),
        "terminal": z3.Or(
            state["terminal"], TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS)
        ),
    }


def target_environment(encoding: Encoding, view: State, local: Step) -> list[Term]:
    """The environment clauses that speak of the target entry and the response, on the
    target's one-entry ``view`` and the ``local`` step (its entry 0): the ones about
    slots and admission order are dropped (fewer assumptions), and the range of the
    step's entry and channel is the caller's."""
    clauses = encoding.environment_clauses(view, local)
    return [
        z3.Implies(
            TRIGGER.is_one_of(local.trigger, ROUTED_TRIGGERS),
            view.entry_state[0] != ENTRY[EntryState.ABSENT],
        ),
        clauses["wire_trigger"],
        clauses["channel_reclassified"],
        clauses["snapshot_is_one_event"],
        clauses["deltas_only_grow"],
    ]


# -- the execution encoding's arrays ----------------------------------------------------

_EXECUTION_SORTS: dict[str, Any] = {
    "call_id": PAYLOAD.sort,
    "call": z3.BoolSort(),
    "answered": z3.BoolSort(),
    "answer": ANSWER.sort,
}
"""The per-entry fields ``ExecutionEncoding`` adds (``call_id`` and the evidence), as array
sorts (``tools`` is per response)."""


class _ExecutionArrays(ArraySystem):
    """``ArraySystem`` over ``ExecutionEncoding``: the lifecycle's arrays, and the
    per-entry fields it adds as arrays too; the transition is the one-entry
    ``ExecutionEncoding`` on a view, as for the lifecycle."""

    def __init__(self, tables: ModelTables) -> None:
        super().__init__(tables, payload=False, identity=False)
        self.one = ExecutionEncoding(tables, Bounds(1, 0), PROOF_CHANNELS)

    def fresh(self, name: str) -> Arrays:
        """The lifecycle arrays, and one per added per-entry field."""
        state = super().fresh(name)
        for field, sort in _EXECUTION_SORTS.items():
            state[field] = z3.Array(f"{name}.{field}", z3.IntSort(), sort)
        state["tools"] = z3.Bool(f"{name}.tools")
        return state

    def initial(self, state: Arrays) -> Term:
        """The lifecycle's initial arrays and no ``call_id`` anywhere."""
        missing = z3.K(z3.IntSort(), PAYLOAD[Payload.MISSING])
        return z3.And(super().initial(state), state["call_id"] == missing)

    def view(self, state: Arrays, index: Term) -> State:
        """The one-entry ``ExecutionState`` of entry ``index``."""
        base = super().view(state, index)
        return ExecutionState(
            **{f.name: getattr(base, f.name) for f in fields(State)},
            **{field: (state[field][index],) for field in _EXECUTION_SORTS},
            tools=state["tools"],
        )

    def successor(self, state: Arrays, step: Step) -> Arrays:
        """The lifecycle's successor; ``call_id`` updated as the lifecycle arrays are;
        the evidence kept."""
        after = super().successor(state, step)
        after.update({field: state[field] for field in (*_EXECUTION_SORTS, "tools")})
        i = z3.Int("i")
        target = self.updated(state, step, step.entry, z3.Not(state["terminal"]))
        everyone = self.updated(state, step, i, self.one.delivers(self.view(state, i), step, 0))
        assert isinstance(target, ExecutionState) and isinstance(everyone, ExecutionState)
        after["call_id"] = z3.If(
            self.wide(step),
            z3.Lambda([i], everyone.call_id[0]),
            z3.Store(state["call_id"], step.entry, target.call_id[0]),
        )
        return after


def _system_for(prop: Property, tables: ModelTables) -> ArraySystem:
    """The array system ``prop`` is stated over: the lifecycle's, or with ``execution``
    the one with each entry's ``call_id`` and evidence (``execution_z3``)."""
    if prop.execution:
        return _ExecutionArrays(tables)
    return ArraySystem(tables, prop.payload, prop.identity)


RLIMIT = 20_000_000
"""Z3's resource limit for each unbounded query (``rlimit``: a count of its own steps,
the same on every machine and under any load).  The heaviest proof of the reference
takes about 5.5 million (``empty_never_erases``' induction step); a wall-clock timeout
gave ``unknown`` on a busy machine and so another proof record on a re-run."""


def prove_unbounded(
    tables: ModelTables, invariant: str, rlimit: int = RLIMIT
) -> tuple[bool, str]:
    """Base and induction of ``invariant`` for any number of entries and slots, each
    query given ``rlimit`` (``unknown`` past it: not proved).

    Returns whether both hold, and what was found.
    """
    if invariant not in UNBOUNDED:
        return False, f"{invariant} has no unbounded encoding"
    prop = stated(invariant)
    system = _system_for(prop, tables)
    one = system.one

    def holds(state: Arrays, index: Term) -> Term:
        view = system.view(state, index)
        own = [prop.state(one, view)] if prop.state is not None else []
        return z3.And(*own, prop.strengthening(one, view))

    state = system.fresh("s")
    k = z3.Int("k")
    base = z3.Solver()
    base.set(rlimit=rlimit)
    base.add(system.initial(state), k >= 0, system.in_domain(state, k), z3.Not(holds(state, k)))
    base_result = base.check()

    step = system.one.fresh_step("e")
    after = system.successor(state, step)
    goal = holds(after, k)
    if prop.step is not None:
        local = replace(step, entry=z3.IntVal(0))
        goal = z3.And(goal, prop.step(one, system.view(state, k), local, system.view(after, k)))
    j = z3.Int("j")
    induction = z3.Solver()
    induction.set(rlimit=rlimit)
    induction.add(
        z3.ForAll([j], z3.Implies(z3.And(j >= 0, system.in_domain(state, j)), holds(state, j))),
        system.in_domain(state, k),
        # The domain of the response-level counter (the bounded encoding's ``domain``).
        state["snapshot_items"] >= 0,
        system.environment(state, step),
        k >= 0,
        z3.Not(goal),
    )
    step_result = induction.check()
    # The premise of the step must be satisfiable, or the step proves nothing.  The
    # initial state satisfies the hypothesis (that is the base case), so it is enough
    # that the environment allows a step from it: a quantifier-free query.
    premise = z3.Solver()
    premise.add(system.initial(state), system.environment(state, step))
    return induction_verdict(
        base_result, step_result, premise, "any number of entries and slots"
    )


def induction_verdict(
    base: z3.CheckSatResult, step: z3.CheckSatResult, premise: z3.Solver, scope: str
) -> tuple[bool, str]:
    """Whether an induction over ``scope`` holds (``base`` and ``step`` unsatisfiable),
    and what was found; ``premise`` (the initial state and a step the environment
    allows) must be satisfiable, or the step proves nothing."""
    if premise.check() != z3.sat:
        return False, "no step is allowed from the initial state (vacuous)"
    if base == z3.unsat and step == z3.unsat:
        return True, f"base and induction hold for {scope}"
    return False, f"base: {base}, induction: {step} (not proved)"
