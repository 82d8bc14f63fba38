"""Vacuity: which rows of the lifecycle, routing and identity tables can a stream trigger?

A proof over a table is only as strong as the rows it exercises: a row no stream can
reach is never checked by anything, and a rule no stream can trigger is a finding.
``lifecycle_coverage`` unrolls the encoding depth by depth and asks, at each depth,
for a step that fires some row not yet seen; every trace found covers all the rows it
fires, and the search at a depth ends when no new row can fire there.  So each row
gets a *shortest* witness trace, or is reported unreachable up to the depth.

Rows are reachable or not under the environment of ``encoding.ENVIRONMENT``; some are
unreachable by design (a payload trigger for an absent entry: the router drops such an
event; any trigger for an ``INCOMPLETE`` or a ``COMPLETED`` entry: those states are
entered only by the terminal event or inside it).  The report says which, and the
tables keep those rows only so that they are total.  A search up to a depth cannot
show that a row is unreachable at every depth: ``prove_unreachable`` does, by
induction.  The clauses of ``model.lifecycle.REACHABILITY`` are checked inductive
(``induction.reachability_lemmas``: each, base and step, under the others kept), and a
row is *proved unreachable* when no step allowed by the environment fires it from any
state satisfying them.  Together the two
are exact: every row has a witness or a proof that it has none.  ``routing_coverage`` does the
same for the cells of the routing table, over ``routing.RoutingSystem``, and
``identity_coverage`` for the cells of the identity table (a relation between the name
an entry holds and the name an item merged into it brings), over the encoding with
names.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import z3
from responses_oracle.model.admission import identity_relation
from responses_oracle.model.completeness import COMPLETENESS_BY_NAME
from responses_oracle.model.lifecycle import OPEN_STATES, REACHABILITY
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.routing import route_views
from responses_oracle.model.slots import SlotTransition
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    RESPONSE_WIDE_TRIGGERS,
    Effect,
    EntryState,
    IdentityField,
    IdentityRelation,
    IdView,
    MergeStage,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)

from .encoding import (
    ENTRY,
    PAYLOAD,
    PROOF_CHANNELS,
    SLOT,
    TRIGGER,
    Bounds,
    ConcreteState,
    ConcreteStep,
    Encoding,
    Payload,
    State,
    Step,
    Term,
    select,
)
from .execution_z3 import client_run_antecedent, withheld_antecedent
from .induction import (
    Run,
    Trace,
    Unrolling,
    _check,
    new_solver,
    reachability_lemmas,
    search,
    system_for,
)
from .ops_z3 import PAYLOAD_OPS, exactly_one
from .properties import CLAUSES, PROPERTIES
from .routing_z3 import (
    ID_VIEW,
    KIND,
    SLOT_VIEW,
    ConcreteRoutingState,
    ConcreteRoutingStep,
    RoutingKind,
    RoutingState,
    RoutingStep,
    RoutingSystem,
    fits,
)
from .sorts import finite_sort

Row = tuple[EntryState, Trigger]
"""A cell of the lifecycle table."""


def fired_rows(trace: Trace, step_number: int) -> set[Row]:
    """The lifecycle rows step ``step_number`` (1-based) of ``trace`` fires."""
    before, step = trace.states[step_number - 1], trace.steps[step_number - 1]
    if before.terminal:
        return set()
    if step.trigger in RESPONSE_WIDE_TRIGGERS:
        return {
            (state, step.trigger)
            for state in before.entry_state
            if state is not EntryState.ABSENT
        }
    return {(before.entry_state[step.entry], step.trigger)}


def _fires(encoding: Encoding, state: State, step: Step, rows: set[Row]) -> Term:
    """Some row of ``rows`` fires on ``step`` taken in ``state``."""
    by_state: dict[EntryState, list[Trigger]] = {}
    for row_state, row_trigger in rows:
        by_state.setdefault(row_state, []).append(row_trigger)
    return z3.Or(
        [
            z3.And(
                encoding.delivers(state, step, i),
                z3.Or(
                    [
                        z3.And(
                            state.entry_state[i] == ENTRY[row_state],
                            TRIGGER.is_one_of(step.trigger, triggers),
                        )
                        for row_state, triggers in by_state.items()
                    ]
                ),
            )
            for i in range(encoding.bounds.entries)
        ]
    )


@dataclass(frozen=True)
class Coverage:
    """Each lifecycle row's shortest witness (trace and step), or None if unreached."""

    model: str
    bounds: Bounds
    depth: int
    renderable: bool
    seconds: float
    witnesses: dict[Row, tuple[Trace, int] | None]

    @property
    def unreached(self) -> tuple[Row, ...]:
        """The rows no trace up to ``depth`` fires, in table order."""
        return tuple(row for row, witness in self.witnesses.items() if witness is None)


def lifecycle_coverage(
    tables: ModelTables, bounds: Bounds, depth: int, renderable: bool = False
) -> Coverage:
    """The shortest witness of every lifecycle row, up to ``depth`` steps."""
    started = time.perf_counter()
    witnesses: dict[Row, tuple[Trace, int] | None] = {
        (state, trigger): None for state, row in tables.lifecycle.items() for trigger in row
    }
    encoding = Encoding(tables, bounds, channels=1 if renderable else PROOF_CHANNELS)
    unrolling: Unrolling[ConcreteState, ConcreteStep] = Unrolling(encoding, renderable)
    for k in range(1, depth + 1):
        unrolling.extend()
        while True:
            uncovered = {row for row, witness in witnesses.items() if witness is None}
            if not uncovered:
                break
            trace = unrolling.find(
                _fires(encoding, *unrolling.frame(k)[:2], uncovered), canonical=False
            )
            if trace is None:
                break
            for number in range(1, k + 1):
                for row in fired_rows(trace, number) & uncovered:
                    witnesses[row] = (trace, number)
    return Coverage(
        tables.name, bounds, depth, renderable, time.perf_counter() - started, witnesses
    )


@dataclass(frozen=True)
class Reachability:
    """The reachability clauses checked inductive, and the rows proved unreachable."""

    model: str
    bounds: Bounds
    seconds: float
    inductive: dict[str, bool]
    unreachable: tuple[Row, ...]

    @property
    def proved(self) -> bool:
        """Every clause is inductive, so the rows listed are unreachable at any depth."""
        return all(self.inductive.values())


def prove_unreachable(tables: ModelTables, bounds: Bounds) -> Reachability:
    """Each ``REACHABILITY`` clause checked inductive (``induction.reachability_lemmas``:
    base, and every allowed step from a state satisfying the clauses kept keeps it), and
    the lifecycle rows no allowed step fires from a state satisfying those kept, in
    table order."""
    started = time.perf_counter()
    lemmas = reachability_lemmas(tables, bounds)
    encoding = Encoding(tables, bounds, channels=PROOF_CHANNELS)
    state, step = encoding.fresh_state("s"), encoding.fresh_step("e")
    solver = new_solver()
    solver.add(
        encoding.domain(state),
        *[CLAUSES[lemma](encoding, state) for lemma in lemmas],
        encoding.environment(state, step),
    )
    unreachable: list[Row] = []
    for row_state, row in tables.lifecycle.items():
        for trigger in row:
            solver.push()
            solver.add(_fires(encoding, state, step, {(row_state, trigger)}))
            if not _check(solver):
                unreachable.append((row_state, trigger))
            solver.pop()
    inductive = {clause: clause in lemmas for clause in REACHABILITY}
    return Reachability(
        tables.name, bounds, time.perf_counter() - started, inductive, tuple(unreachable)
    )


def indistinguishable_slot_states(
    slots: Mapping[Any, Mapping[SlotTrigger, SlotTransition]],
    free: Any = SlotState.FREE,
    shared: Any = SlotState.SHARED,
) -> list[frozenset[Any]]:
    """The classes of slot states no reader of a slot can tell apart, in table order.

    The router reads a slot through ``model.routing.route_views``: whether it is
    ``shared`` (``route.on_scoped`` and ``routing.RoutingSystem.keys`` pass exactly that)
    and the entries bound at it.  How many entries each state holds is read off the
    table: walking it from ``free`` (no entry), a ``BIND`` adds one entry, and the
    other triggers none (``slots_count_their_entries`` proves the count over the routing
    system); a state reached with several counts is seen with each.  The slot table's
    own outputs are its codes.  Starting from the router's slot views, the classes are
    refined (Moore's algorithm) until two states of a class raise the same code for
    every slot trigger and move to states of one class: the states left in one class
    behave identically for every event.  (The states are the table's keys, so a table
    over another vocabulary — the four states before issue #16 — can be checked too.)
    """
    states = list(slots)
    counts: dict[Any, set[int]] = {state: set() for state in states}
    frontier = [(free, 0)]
    while frontier:
        state, count = frontier.pop()
        if count in counts[state]:
            continue
        counts[state].add(count)
        for trigger, move in slots[state].items():
            added = 1 if trigger is SlotTrigger.BIND else 0
            frontier.append((move.next_state, min(count + added, 2)))

    def signature(state: Any, classes: dict[Any, int]) -> tuple[object, ...]:
        row = slots[state]
        return tuple((row[t].code, classes[row[t].next_state]) for t in row)

    views = {
        state: frozenset(
            route_views(PYTHON, tuple(range(count)), (), state is shared, False)[0]
            for count in counts[state]
        )
        for state in states
    }
    order = list(dict.fromkeys(views.values()))
    classes = {state: order.index(views[state]) for state in states}
    while True:
        keys = {state: (classes[state], signature(state, classes)) for state in states}
        numbering = {key: n for n, key in enumerate(dict.fromkeys(keys.values()))}
        refined = {state: numbering[keys[state]] for state in states}
        if len(set(refined.values())) == len(set(classes.values())):
            break
        classes = refined
    grouped: dict[int, list[Any]] = {}
    for state in states:
        grouped.setdefault(classes[state], []).append(state)
    return [frozenset(group) for group in grouped.values()]


Cell = tuple[SlotView, IdView]
"""A cell of the routing table."""


@dataclass(frozen=True)
class RoutingCoverage:
    """Each routing cell's shortest witness (run and step), or None if unreached."""

    model: str
    bounds: Bounds
    depth: int
    seconds: float
    witnesses: dict[Cell, tuple[Run[ConcreteRoutingState, ConcreteRoutingStep], int] | None]

    @property
    def unreached(self) -> tuple[Cell, ...]:
        """The cells no run up to ``depth`` routes through, in table order."""
        return tuple(cell for cell, witness in self.witnesses.items() if witness is None)


def routing_coverage(tables: ModelTables, bounds: Bounds, depth: int) -> RoutingCoverage:
    """The shortest witness of every routing cell, up to ``depth`` steps."""
    started = time.perf_counter()
    witnesses: dict[Cell, tuple[Run[ConcreteRoutingState, ConcreteRoutingStep], int] | None] = {
        (slot_view, id_view): None for slot_view, row in tables.routing.items() for id_view in row
    }
    system = RoutingSystem(tables, bounds)
    unrolling: Unrolling[ConcreteRoutingState, ConcreteRoutingStep] = Unrolling(system)
    for k in range(1, depth + 1):
        unrolling.extend()
        before, step, _ = unrolling.frame(k)
        keys = system.keys(before, step)
        while True:
            uncovered = [cell for cell, witness in witnesses.items() if witness is None]
            if not uncovered:
                break
            goal = z3.And(
                step.kind == KIND[RoutingKind.ROUTE],
                z3.Or(
                    [
                        z3.And(keys.slot_view == SLOT_VIEW[sv], keys.id_view == ID_VIEW[iv])
                        for sv, iv in uncovered
                    ]
                ),
            )
            run = unrolling.find(goal, canonical=False)
            if run is None:
                break
            for number in range(1, k + 1):
                after = run.states[number]
                cell = (after.slot_view, after.id_view)
                if run.steps[number - 1].kind is RoutingKind.ROUTE and witnesses[cell] is None:
                    witnesses[cell] = (run, number)
    return RoutingCoverage(tables.name, bounds, depth, time.perf_counter() - started, witnesses)


@dataclass(frozen=True)
class IdentityCoverage:
    """Each identity cell's shortest witness (trace and step), or None if unreached."""

    model: str
    bounds: Bounds
    depth: int
    seconds: float
    witnesses: dict[IdentityRelation, tuple[Trace, int] | None]

    @property
    def unreached(self) -> tuple[IdentityRelation, ...]:
        """The cells no trace up to ``depth`` merges through, in table order."""
        return tuple(cell for cell, witness in self.witnesses.items() if witness is None)


def merged_relation(tables: ModelTables, trace: Trace, step_number: int) -> IdentityRelation | None:
    """The identity cell step ``step_number`` (1-based) of ``trace`` consults, if its
    row merges an item: ``model.admission.identity_relation`` on the trace's values)."""
    before, step = trace.states[step_number - 1], trace.steps[step_number - 1]
    row = tables.lifecycle[before.entry_state[step.entry]][step.trigger]
    if before.terminal or step.name is None or Effect.MERGE_ITEM not in row.effects:
        return None
    relation: IdentityRelation = identity_relation(
        PAYLOAD_OPS, before.name[step.entry], step.name, False
    )
    return relation


def identity_coverage(tables: ModelTables, bounds: Bounds, depth: int) -> IdentityCoverage:
    """The shortest renderable witness of every identity cell, up to ``depth`` steps."""
    started = time.perf_counter()
    # The encoding tracks the name, merged at the FIXED stage, which no entry ever holds
    # taken from another: TAKEN is the call_id's (the matching proofs cover it).
    witnesses: dict[IdentityRelation, tuple[Trace, int] | None] = dict.fromkeys(
        r for r in tables.identity[IdentityField.NAME][MergeStage.FIXED]
        if r is not IdentityRelation.TAKEN
    )
    encoding = Encoding(tables, bounds, identity=True)
    unrolling: Unrolling[ConcreteState, ConcreteStep] = Unrolling(encoding, renderable=True)
    for k in range(1, depth + 1):
        unrolling.extend()
        before, step, _ = unrolling.frame(k)
        while True:
            uncovered = [cell for cell, witness in witnesses.items() if witness is None]
            if not uncovered:
                break
            goal = z3.Or(
                [
                    z3.And(
                        encoding.delivers(before, step, i),
                        encoding.has_effect(before.entry_state[i], step.trigger, Effect.MERGE_ITEM),
                        z3.Or(
                            [
                                encoding.name_relation(before.name[i], step.name)
                                == finite_sort(IdentityRelation)[cell]
                                for cell in uncovered
                            ]
                        ),
                    )
                    for i in range(bounds.entries)
                ]
            )
            # Canonical: the witnesses are test fixtures' streams, so they must not
            # depend on what Z3 was asked before in the same process.
            trace = unrolling.find(goal)
            if trace is None:
                break
            found = {merged_relation(tables, trace, number): number for number in range(k, 0, -1)}
            if not set(found) & set(uncovered):
                # The goal said some step merges through an uncovered cell: the
                # concrete reading must see it, or the two readings disagree.
                raise AssertionError(f"merged_relation misreads the trace of depth {k}")
            for cell, number in found.items():
                if cell is not None and witnesses[cell] is None:
                    witnesses[cell] = (trace, number)
    return IdentityCoverage(tables.name, bounds, depth, time.perf_counter() - started, witnesses)


# -- completeness obligations: their antecedents are reachable ------------------------

ObligationGoal = Callable[[Encoding, State, Step, State], Term]
"""A formula over one step: the obligation has something to say on it."""


def _some_entry(encoding: Encoding, formula: Callable[[int], Term]) -> Term:
    return z3.Or([formula(i) for i in range(encoding.bounds.entries)])


def _delivered(trigger: Trigger) -> ObligationGoal:
    def goal(encoding: Encoding, before: State, step: Step, after: State) -> Term:
        return z3.And(
            step.trigger == TRIGGER[trigger],
            _some_entry(encoding, lambda i: encoding.delivers(before, step, i)),
        )

    return goal


OBLIGATION_ANTECEDENTS: dict[str, ObligationGoal] = {
    "confirmation_sticks": lambda e, b, s, a: _some_entry(e, lambda i: a.confirming_seen[i]),
    "end_settles": lambda e, b, s, a: z3.And(
        a.terminal, _some_entry(e, lambda i: a.entry_state[i] != ENTRY[EntryState.ABSENT])
    ),
    "identity_taken": lambda e, b, s, a: _some_entry(e, lambda i: a.name_brought[i]),
    "deltas_accounted": lambda e, b, s, a: z3.Or(
        [seen != PAYLOAD[Payload.MISSING] for seen in a.delta_seen]
    ),
    "parts_opened": lambda e, b, s, a: z3.Or([count > 0 for count in a.parts_announced]),
    # Two channels of one entry, one closed by its *.done and the other still open: the
    # interplay the obligation is about.
    "done_closes_its_channel": lambda e, b, s, a: _some_entry(
        e,
        lambda i: z3.And(
            z3.Or(list(e.of_entry(a.done_seen, i))),
            z3.Not(z3.And(list(e.of_entry(a.channel_closed, i)))),
        ),
    ),
    "unconfirmed_reported": _delivered(Trigger.RESPONSE_COMPLETED),
    "late_reported": lambda e, b, s, a: _some_entry(
        e,
        lambda i: z3.And(
            e.delivers(b, s, i),
            ENTRY.is_one_of(b.entry_state[i], (EntryState.DONE, EntryState.COMPLETED)),
            z3.Not(TRIGGER.is_one_of(s.trigger, (Trigger.SNAPSHOT_ITEM, *RESPONSE_WIDE_TRIGGERS))),
        ),
    ),
    "slot_reuse_reported": lambda e, b, s, a: _some_entry(
        e,
        lambda i: z3.And(
            b.entry_state[i] == ENTRY[EntryState.ABSENT],
            a.entry_state[i] != ENTRY[EntryState.ABSENT],
            select(b.slot_state, s.slot) != SLOT[SlotState.FREE],
        ),
    ),
    "closed_by_its_events": lambda e, b, s, a: _some_entry(e, lambda i: a.item_done_seen[i]),
    "open_state_follows_events": lambda e, b, s, a: _some_entry(
        e,
        lambda i: z3.And(a.streamed[i], ENTRY.is_one_of(a.entry_state[i], OPEN_STATES)),
    ),
    "values_offered": lambda e, b, s, a: z3.Or(
        [value != PAYLOAD[Payload.MISSING] for value in a.brought]
    ),
    # A delta after its own channel's *.done: the late delta the obligation reports.
    "channel_events_stay_in_channel": lambda e, b, s, a: z3.And(
        s.event == TRIGGER[Trigger.DELTA],
        e.named_channel(b.channel_closed, s),
        _some_entry(e, lambda i: z3.And(s.entry == i, e.delivers(b, s, i))),
    ),
    "duplicate_reported": lambda e, b, s, a: z3.And(
        s.event == TRIGGER[Trigger.ITEM_ADDED],
        _some_entry(
            e,
            lambda i: z3.And(
                e.delivers(b, s, i), b.entry_state[i] != ENTRY[EntryState.ABSENT]
            ),
        ),
    ),
    # An item first seen in its done (the snapshot's first sight is the same row kind).
    "first_sight_reported": lambda e, b, s, a: z3.And(
        s.event == TRIGGER[Trigger.ITEM_DONE],
        _some_entry(
            e,
            lambda i: z3.And(
                e.delivers(b, s, i), b.entry_state[i] == ENTRY[EntryState.ABSENT]
            ),
        ),
    ),
    # A confirmed entry the snapshot left out, at response.completed: the report.
    "missing_from_snapshot_reported": lambda e, b, s, a: z3.And(
        s.trigger == TRIGGER[Trigger.RESPONSE_COMPLETED],
        b.snapshot_items > 0,
        _some_entry(e, lambda i: z3.And(e.delivers(b, s, i), b.confirmed[i])),
    ),
    # An entry admitted without an id that a payload event names: the learning case.
    "item_id_learned": lambda e, b, s, a: _some_entry(
        e,
        lambda i: z3.And(
            b.entry_state[i] != ENTRY[EntryState.ABSENT], z3.Not(b.id_named[i]), a.id_named[i]
        ),
    ),
}
"""For each completeness obligation over the encoding, a step on which its antecedent
holds: a proof of an obligation whose antecedent no stream reaches would be vacuous."""

RoutingGoal = Callable[[RoutingSystem, RoutingState, RoutingStep, RoutingState], Term]
"""A formula over one step of the routing system."""


def _one_fits(system: RoutingSystem, before: RoutingState, step: RoutingStep) -> Term:
    return z3.And(step.kind == KIND[RoutingKind.ROUTE], exactly_one(fits(system, before, step)))


ROUTING_ANTECEDENTS: dict[str, RoutingGoal] = {
    # An event exactly one entry fits, while another entry is admitted: the choice the
    # obligation is about.
    "routed_to_its_entry": lambda r, b, s, a: z3.And(
        _one_fits(r, b, s), z3.And(list(b.admitted))
    ),
    # An event that reaches no entry although some key names one: refused, and not an
    # orphan (the obligation tells the two codes apart).
    "refusal_reported": lambda r, b, s, a: z3.And(
        s.kind == KIND[RoutingKind.ROUTE],
        a.target == -1,
        z3.Or(*r.keys(b, s).bound, *r.keys(b, s).named),
    ),
}
"""The same for the obligations over ``routing.RoutingSystem`` (R5)."""


def obligation_witnesses(
    tables: ModelTables, bounds: Bounds, depth: int
) -> dict[str, Run[Any, Any] | None]:
    """A shortest run reaching each obligation's antecedent (None: none up to
    ``depth``), over the system the obligation is proved on (the encoding, or the
    routing system for R5's)."""
    found: dict[str, Run[Any, Any] | None] = {}
    goals: dict[str, Callable[..., Term]] = {
        **OBLIGATION_ANTECEDENTS,
        **ROUTING_ANTECEDENTS,
        "client_run_is_executable": client_run_antecedent,
        "withheld_reported": withheld_antecedent,
    }
    for name in COMPLETENESS_BY_NAME:
        prop = PROPERTIES[name]
        system = system_for(prop, tables, bounds, channels=PROOF_CHANNELS)
        trace, _ = search(system, depth, goals[name])
        found[name] = trace
    return found
