"""Matching (rule R6) as a transition system: which entry an item belongs to, proved.

Theory of operation
-------------------
The lifecycle encoding takes for granted that an item reaches the entry it belongs to;
the routing system proves it for payload events.  This system proves it for *items*:
``output_item.added``, ``output_item.done`` and the snapshot's items, matched by the
classifiers of ``model/admission.py`` — ``added_view``, ``fit_key`` and ``match_view``,
the very functions the reducer runs, here on Z3 terms (``ops_z3``) — and decided by the
``namespace``, ``matching``, admission and identity tables.

*State*, per entry ``i``: admitted, lifecycle state (through ``tables.lifecycle``),
type, slot (-1 for none), ``call_id`` (abstracted like payloads: missing, ``A``, ``B``),
which ``call_id`` values it holds in its namespace's map (the driver's
``state.call_ids``: the first entry to take a value keeps it), whether it has an id,
which id tokens name it, and how often it completed; per slot its ``SlotState``.  The
types are three of the catalogue: two calls and an output (``TYPES``), their kinds read
from ``catalogue.ITEM_TYPES``.  Ghosts record the last step's decision.

*Step*: an item — added, done, or the snapshot's — with a type, an optional
``call_id``, an optional id token and an optional slot.  The environment is loose (any
order, repeats, reuse, renames); ``renderable`` narrows it to what one stream can say
(the snapshot's items last, at positions 0, 1, …), so that a run renders as a stream.

*Proofs*: ``induct_matcher`` proves an invariant for every depth at a bound by
induction, with the facts about reachable states in ``strengthening`` (each one
re-proved by the same step); ``check_matcher`` searches the shortest violating run.

*Properties* (``MATCHER_PROPERTIES``) restate four invariants of the model over the
matcher: ``no_cross_talk`` (an item reaches only an entry of its type whose
``call_id`` agrees, but for the entry's own done renaming it and a snapshot re-key),
``first_admission_wins`` (identity fixed at confirmation: a done entry's ``call_id``
never changes, an open entry's only from none or by its own done), ``nothing_lost``
(an item is placed or rejected with a diagnostic, and never for a ``call_id`` held by
an entry of the other kind: a call never rejects its output) and ``complete_once``
(each entry completes at most once, and one ``call_id`` names one entry of a kind).
The kind in the properties is read off the type's name (``*_output``), never off the
model's namespace table: that table is what they check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3
from responses_oracle.model.admission import (
    MatchFacts,
    added_view,
    fit_key,
    identity_relation,
    match_view,
)
from responses_oracle.model.catalogue import ITEM_TYPES
from responses_oracle.model.lifecycle import CLOSED_STATES, OPEN_STATES
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    AddedView,
    AdmissionAction,
    Effect,
    EntryState,
    IdentityField,
    IdentityRelation,
    ItemKind,
    MatchView,
    MergeStage,
    PayloadAction,
    SlotState,
    SlotTrigger,
    Trigger,
)

from .encoding import ENTRY, SLOT, Bounds, Encoding, Term, select
from .induction import Run, Unrolling, new_solver
from .ops_z3 import Z3Ops, exactly_one, lookup
from .sorts import NONEMPTY, Payload, finite_sort

TYPES: tuple[str, ...] = ("function_call", "custom_tool_call", "function_call_output")
"""The item types of the system: two calls and an output."""

TYPE_KINDS: tuple[ItemKind, ...] = tuple(ITEM_TYPES[name].kind for name in TYPES)
"""The kind of each of ``TYPES``: all the matcher reads of the catalogue, so that a new
item type changes no proof (the proof record's fingerprint reads this, not the catalogue)."""

CALLS: tuple[Payload, ...] = (Payload.A, Payload.B)
"""The abstract ``call_id`` values."""


class ItemStep(Enum):
    """What carries the item."""

    ADDED = "added"
    DONE = "done"
    SNAPSHOT = "snapshot"


STEP = finite_sort(ItemStep)
"""The sort of step kinds."""
PAYLOAD = finite_sort(Payload)
KIND = finite_sort(ItemKind)
ACTION = finite_sort(AdmissionAction)
STAGE = finite_sort(MergeStage)
MATCH = finite_sort(MatchView)
ADDED = finite_sort(AddedView)

_TRIGGER_OF: dict[ItemStep, Trigger] = {
    ItemStep.ADDED: Trigger.ITEM_ADDED,
    ItemStep.DONE: Trigger.ITEM_DONE,
    ItemStep.SNAPSHOT: Trigger.SNAPSHOT_ITEM,
}


@dataclass(frozen=True)
class MatchState:
    """The matcher's view of a response, as Z3 terms (see the module docstring)."""

    admitted: tuple[Term, ...]
    entry_state: tuple[Term, ...]
    type_: tuple[Term, ...]
    slot: tuple[Term, ...]
    call: tuple[Term, ...]
    holds: tuple[tuple[Term, ...], ...]
    has_id: tuple[Term, ...]
    named: tuple[tuple[Term, ...], ...]
    completions: tuple[Term, ...]
    slot_state: tuple[Term, ...]
    snapshots: Term
    action: Term
    view: Term
    target: Term
    coded: Term
    taken: Term


@dataclass(frozen=True)
class MatchStep:
    """One item: what carries it, its type, ``call_id``, id token and slot."""

    kind: Term
    type_: Term
    call: Term
    has_id: Term
    token: Term
    has_slot: Term
    slot: Term


@dataclass(frozen=True)
class ConcreteMatchStep:
    """A ``MatchStep`` read back from a model (absent keys are None)."""

    kind: ItemStep
    type_: str
    call: Payload
    token: int | None
    slot: int | None


@dataclass(frozen=True)
class ConcreteMatchState:
    """The parts of a ``MatchState`` a reader needs: entries and the last decision."""

    admitted: tuple[bool, ...]
    entry_state: tuple[EntryState, ...]
    type_: tuple[str, ...]
    call: tuple[Payload, ...]
    action: AdmissionAction


def is_output(type_index: Term) -> Term:
    """The type is an output item (by its name, not by the model's tables)."""
    return z3.Or([type_index == k for k, name in enumerate(TYPES) if name.endswith("_output")])


class MatchingSystem:
    """The matching transition system of one ``ModelTables`` at one ``Bounds``."""

    def __init__(self, tables: ModelTables, bounds: Bounds) -> None:
        self.tables = tables
        self.bounds = bounds
        self.tokens = bounds.entries + 1
        self.ops = Z3Ops(bounds.entries)
        self.rows = Encoding(tables, bounds)

    # -- variables --------------------------------------------------------------------

    def fresh_state(self, name: str) -> MatchState:
        """A state of fresh variables."""
        entries, slots = range(self.bounds.entries), range(self.bounds.slots)
        return MatchState(
            admitted=tuple(z3.Bool(f"{name}.admitted{i}") for i in entries),
            entry_state=tuple(ENTRY.var(f"{name}.state{i}") for i in entries),
            type_=tuple(z3.Int(f"{name}.type{i}") for i in entries),
            slot=tuple(z3.Int(f"{name}.slot{i}") for i in entries),
            call=tuple(PAYLOAD.var(f"{name}.call{i}") for i in entries),
            holds=tuple(
                tuple(z3.Bool(f"{name}.holds{i}_{v.name}") for v in CALLS) for i in entries
            ),
            has_id=tuple(z3.Bool(f"{name}.has_id{i}") for i in entries),
            named=tuple(
                tuple(z3.Bool(f"{name}.named{d}_{i}") for i in entries) for d in range(self.tokens)
            ),
            completions=tuple(z3.Int(f"{name}.completions{i}") for i in entries),
            slot_state=tuple(SLOT.var(f"{name}.slotstate{s}") for s in slots),
            snapshots=z3.Int(f"{name}.snapshots"),
            action=ACTION.var(f"{name}.action"),
            view=MATCH.var(f"{name}.view"),
            target=z3.Int(f"{name}.target"),
            coded=z3.Bool(f"{name}.coded"),
            taken=z3.Bool(f"{name}.taken"),
        )

    def fresh_step(self, name: str) -> MatchStep:
        """A step of fresh variables."""
        return MatchStep(
            STEP.var(f"{name}.kind"),
            z3.Int(f"{name}.type"),
            PAYLOAD.var(f"{name}.call"),
            z3.Bool(f"{name}.has_id"),
            z3.Int(f"{name}.token"),
            z3.Bool(f"{name}.has_slot"),
            z3.Int(f"{name}.slot"),
        )

    # -- the system -------------------------------------------------------------------

    def domain(self, state: MatchState) -> Term:
        """Ranges of the integer variables."""
        m = self.bounds.slots
        return z3.And(
            *[z3.And(t >= 0, t < len(TYPES)) for t in state.type_],
            *[z3.And(s >= -1, s < m) for s in state.slot],
            *[c >= 0 for c in state.completions],
            *[PAYLOAD.is_one_of(c, (Payload.MISSING, *CALLS)) for c in state.call],
            state.snapshots >= 0,
        )

    def initial(self, state: MatchState) -> Term:
        """Nothing admitted, every slot free."""
        return z3.And(
            *[z3.Not(a) for a in state.admitted],
            *[s == ENTRY[EntryState.ABSENT] for s in state.entry_state],
            *[c == PAYLOAD[Payload.MISSING] for c in state.call],
            *[z3.Not(h) for row in state.holds for h in row],
            *[z3.Not(h) for h in state.has_id],
            *[z3.Not(f) for row in state.named for f in row],
            *[c == 0 for c in state.completions],
            *[s == SLOT[SlotState.FREE] for s in state.slot_state],
            *[s == -1 for s in state.slot],
            *[t == 0 for t in state.type_],
            state.snapshots == 0,
        )

    def environment(self, state: MatchState, step: MatchStep, renderable: bool = False) -> Term:
        """Any item with any keys (absent keys normalised to 0).  ``renderable``: the
        snapshot's items come last, at positions 0, 1, …"""
        m = self.bounds.slots
        clauses = [
            step.type_ >= 0,
            step.type_ < len(TYPES),
            PAYLOAD.is_one_of(step.call, (Payload.MISSING, *CALLS)),
            step.token >= 0,
            step.token < self.tokens,
            step.slot >= 0,
            step.slot < m,
            z3.Implies(z3.Not(step.has_id), step.token == 0),
            z3.Implies(z3.Not(step.has_slot), step.slot == 0),
        ]
        if renderable:
            snapshot = step.kind == STEP[ItemStep.SNAPSHOT]
            clauses += [
                z3.Implies(state.snapshots > 0, snapshot),
                z3.Implies(snapshot, z3.And(step.has_slot, step.slot == state.snapshots)),
            ]
        return z3.And(clauses)

    def _namespace(self, type_index: Term) -> Term:
        kind: Term = KIND[TYPE_KINDS[-1]]
        for k in range(len(TYPES) - 2, -1, -1):
            kind = z3.If(type_index == k, KIND[TYPE_KINDS[k]], kind)
        return lookup(self.tables.namespaces, kind)

    def holds(self, state: MatchState, i: int, call: Term) -> Term:
        """Entry ``i`` holds ``call`` in its namespace's map (took it, or was renamed from it)."""
        return z3.Or([z3.And(call == PAYLOAD[v], state.holds[i][n]) for n, v in enumerate(CALLS)])

    def facts(self, state: MatchState, step: MatchStep) -> MatchFacts:
        """What the classifiers read, as the driver's ``admit.match_facts`` reads it."""
        n = self.bounds.entries
        space = self._namespace(step.type_)
        bound = tuple(
            z3.And(step.has_slot, state.admitted[i], state.slot[i] == step.slot) for i in range(n)
        )
        named = tuple(
            z3.And(step.has_id, select([row[i] for row in state.named], step.token))
            for i in range(n)
        )
        holder = tuple(
            z3.And(
                state.admitted[i],
                self._namespace(state.type_[i]) == space,
                self.holds(state, i, step.call),
            )
            for i in range(n)
        )
        shared = z3.And(
            step.has_slot, select(state.slot_state, step.slot) == SLOT[SlotState.SHARED]
        )
        return MatchFacts(
            call=step.call,
            has_id=step.has_id,
            snapshot=step.kind == STEP[ItemStep.SNAPSHOT],
            bound=bound,
            shared=shared,
            named=named,
            holder=holder,
            same_type=lambda i: state.type_[i] == step.type_,
            call_of=lambda i: state.call[i],
            has_id_of=lambda i: state.has_id[i],
            open_=lambda i: ENTRY.is_one_of(state.entry_state[i], OPEN_STATES),
        )

    def decide(self, state: MatchState, step: MatchStep) -> dict[str, Term]:
        """The step's decision: action, target, merge stage, view, whether a diagnostic
        is raised and whether the ``call_id`` was found taken."""
        facts = self.facts(state, step)
        ops = self.ops
        added, added_target = added_view(
            ops, facts.holder, facts.named, facts.same_type, facts.call
        )
        done, done_target = match_view(
            ops, facts, lambda i: lookup(self.tables.matching, *fit_key(ops, facts, i))
        )
        is_added = step.kind == STEP[ItemStep.ADDED]

        def cell(project: Callable[[Any], Any]) -> Term:
            return z3.If(
                is_added,
                lookup(self.tables.added_admission, added, project=project),
                lookup(self.tables.done_admission, done, project=project),
            )

        return {
            "action": cell(lambda a: a.action),
            "stage": cell(lambda a: a.stage),
            "coded": cell(lambda a: a.code is not None),
            "target": z3.If(is_added, added_target, done_target),
            "view": z3.If(is_added, MATCH[MatchView.AGREE], done),
            "taken": z3.If(
                is_added,
                added == ADDED[AddedView.CALL_ID_TAKEN],
                done == MATCH[MatchView.CALL_ID_TAKEN],
            ),
        }

    def successor(self, state: MatchState, step: MatchStep) -> MatchState:
        """The state after ``step`` (functional terms)."""
        n = self.bounds.entries
        decision = self.decide(state, step)
        target, stage = decision["target"], decision["stage"]
        fresh = z3.IntVal(-1)
        for i in range(n - 1, -1, -1):
            fresh = z3.If(z3.Not(state.admitted[i]), i, fresh)
        # With every entry admitted, an item to admit is dropped with a diagnostic, as
        # the driver drops it past ``max_entries`` (``limit_exceeded``).
        full = z3.And(decision["action"] == ACTION[AdmissionAction.ADMIT], fresh == -1)
        action = z3.If(full, ACTION[AdmissionAction.REJECT], decision["action"])
        receiver = z3.If(
            action == ACTION[AdmissionAction.MATCH],
            target,
            z3.If(action == ACTION[AdmissionAction.ADMIT], fresh, z3.IntVal(-1)),
        )
        trigger = z3.If(
            step.kind == STEP[ItemStep.ADDED],
            self.rows_trigger(Trigger.ITEM_ADDED),
            z3.If(
                step.kind == STEP[ItemStep.DONE],
                self.rows_trigger(Trigger.ITEM_DONE),
                self.rows_trigger(Trigger.SNAPSHOT_ITEM),
            ),
        )
        facts = self.facts(state, step)
        new = state
        for i in range(n):
            new = self._deliver(state, new, step, i, receiver == i, trigger, stage, facts)
        return MatchState(
            admitted=new.admitted,
            entry_state=new.entry_state,
            type_=new.type_,
            slot=new.slot,
            call=new.call,
            holds=new.holds,
            has_id=new.has_id,
            named=new.named,
            completions=new.completions,
            slot_state=new.slot_state,
            snapshots=z3.If(
                step.kind == STEP[ItemStep.SNAPSHOT], state.snapshots + 1, state.snapshots
            ),
            action=action,
            view=decision["view"],
            target=receiver,
            coded=z3.Or(decision["coded"], full),
            taken=decision["taken"],
        )

    @staticmethod
    def rows_trigger(trigger: Trigger) -> Term:
        """The trigger's constant."""
        from .encoding import TRIGGER

        return TRIGGER[trigger]

    def _deliver(
        self,
        before: MatchState,
        state: MatchState,
        step: MatchStep,
        i: int,
        active: Term,
        trigger: Term,
        stage: Term,
        facts: MatchFacts,
    ) -> MatchState:
        """Deliver the item to entry ``i`` when ``active``: the lifecycle row's effects."""
        rows = self.rows
        old = before.entry_state[i]

        def flag(effect: Effect) -> Term:
            return z3.And(active, rows.has_effect(old, trigger, effect))

        admit, merge = flag(Effect.ADMIT), flag(Effect.MERGE_ITEM)
        fill = z3.And(
            active,
            z3.Not(admit),
            trigger == self.rows_trigger(Trigger.ITEM_DONE),
            before.slot[i] == -1,
            step.has_slot,
        )
        slot = z3.If(
            admit, z3.If(step.has_slot, step.slot, -1), z3.If(fill, step.slot, before.slot[i])
        )
        slot_state = state.slot_state
        bind = z3.Or(flag(Effect.BIND_SLOT), fill)
        for effect, moved, when in (
            (Effect.BIND_SLOT, SlotTrigger.BIND, bind),
            (Effect.TOMBSTONE_SLOT, SlotTrigger.TOMBSTONE, flag(Effect.TOMBSTONE_SLOT)),
        ):
            del effect
            slot_state = tuple(
                z3.If(z3.And(when, slot == s), rows.next_slot_state(old_slot, moved), old_slot)
                for s, old_slot in enumerate(slot_state)
            )
        # Identity (R6): the call_id through the identity table at the admission's stage;
        # a value another entry of the namespace holds is TAKEN, never taken.
        others = [j for j in range(self.bounds.entries) if j != i]
        taken = z3.Or([facts.holder[j] for j in others]) if others else z3.BoolVal(False)
        relation = identity_relation(self.ops, before.call[i], step.call, taken)
        takes = z3.Or(
            [
                z3.And(stage == STAGE[st], relation == finite_sort(IdentityRelation)[r])
                for st, row in self.tables.identity[IdentityField.CALL_ID].items()
                for r, decision in row.items()
                if decision.action is PayloadAction.TAKE
            ]
        )
        take = z3.And(merge, takes)
        present = PAYLOAD.is_one_of(step.call, NONEMPTY)
        call = z3.If(take, z3.If(present, step.call, PAYLOAD[Payload.MISSING]), before.call[i])
        space = self._namespace(step.type_)
        holds = tuple(
            z3.Or(
                before.holds[i][n],
                z3.And(
                    take,
                    step.call == PAYLOAD[v],
                    *[
                        z3.Not(
                            z3.And(
                                before.admitted[j],
                                self._namespace(before.type_[j]) == space,
                                before.holds[j][n],
                            )
                        )
                        for j in others
                    ],
                ),
            )
            for n, v in enumerate(CALLS)
        )
        return MatchState(
            admitted=_put(state.admitted, i, z3.Or(before.admitted[i], admit)),
            entry_state=_put(
                state.entry_state, i, z3.If(active, rows.next_entry_state(old, trigger), old)
            ),
            type_=_put(state.type_, i, z3.If(admit, step.type_, before.type_[i])),
            slot=_put(state.slot, i, slot),
            call=_put(state.call, i, call),
            holds=_put(state.holds, i, holds),
            has_id=_put(state.has_id, i, z3.Or(before.has_id[i], z3.And(merge, step.has_id))),
            named=tuple(
                _put(row, i, z3.Or(before.named[d][i], z3.And(merge, step.has_id, step.token == d)))
                for d, row in enumerate(state.named)
            ),
            completions=_put(
                state.completions,
                i,
                z3.If(
                    flag(Effect.EMIT_COMPLETION), before.completions[i] + 1, before.completions[i]
                ),
            ),
            slot_state=slot_state,
            snapshots=state.snapshots,
            action=state.action,
            view=state.view,
            target=state.target,
            coded=state.coded,
            taken=state.taken,
        )

    def equal(self, left: MatchState, right: MatchState) -> Term:
        """Every component equal."""
        return z3.And([a == b for a, b in zip(_flat(left), _flat(right), strict=True)])

    # -- reading models ---------------------------------------------------------------

    def read_state(self, model: z3.ModelRef, state: MatchState) -> ConcreteMatchState:
        """The concrete entries and decision of ``state``."""

        def number(term: Term) -> int:
            value: int = model.eval(term, model_completion=True).as_long()
            return value

        return ConcreteMatchState(
            admitted=tuple(
                bool(z3.is_true(model.eval(a, model_completion=True))) for a in state.admitted
            ),
            entry_state=tuple(ENTRY.read(model, s) for s in state.entry_state),
            type_=tuple(TYPES[number(t)] for t in state.type_),
            call=tuple(PAYLOAD.read(model, c) for c in state.call),
            action=ACTION.read(model, state.action),
        )

    def read_step(self, model: z3.ModelRef, step: MatchStep) -> ConcreteMatchStep:
        """The concrete item of ``step``."""

        def number(term: Term) -> int:
            value: int = model.eval(term, model_completion=True).as_long()
            return value

        def flag(term: Term) -> bool:
            return bool(z3.is_true(model.eval(term, model_completion=True)))

        return ConcreteMatchStep(
            STEP.read(model, step.kind),
            TYPES[number(step.type_)],
            PAYLOAD.read(model, step.call),
            number(step.token) if flag(step.has_id) else None,
            number(step.slot) if flag(step.has_slot) else None,
        )

    def canonical_order(
        self, first: MatchState, steps: list[MatchStep]
    ) -> list[tuple[Term, list[Term]]]:
        """Kinds in ``ItemStep`` order, the first type, keys present, small numbers."""
        order: list[tuple[Term, list[Term]]] = []
        for step in steps:
            order.append((step.kind, [STEP[k] for k in ItemStep]))
            order.append((step.type_, [z3.IntVal(t) for t in range(len(TYPES))]))
            order.append(
                (step.call, [PAYLOAD[Payload.A], PAYLOAD[Payload.B], PAYLOAD[Payload.MISSING]])
            )
            order.append((step.has_id, [z3.BoolVal(True), z3.BoolVal(False)]))
            order.append((step.token, [z3.IntVal(d) for d in range(self.tokens)]))
            order.append((step.has_slot, [z3.BoolVal(True), z3.BoolVal(False)]))
            order.append((step.slot, [z3.IntVal(s) for s in range(self.bounds.slots)]))
        return order


def _put(terms: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*terms[:index], value, *terms[index + 1 :])


def _flat(state: MatchState) -> list[Term]:
    return [
        *state.admitted,
        *state.entry_state,
        *state.type_,
        *state.slot,
        *state.call,
        *[h for row in state.holds for h in row],
        *state.has_id,
        *[f for row in state.named for f in row],
        *state.completions,
        *state.slot_state,
        state.snapshots,
        state.action,
        state.view,
        state.target,
        state.coded,
        state.taken,
    ]


# -- the properties ---------------------------------------------------------------------

StepFormula = Callable[[MatchingSystem, MatchState, MatchStep, MatchState], Term]


def _present(call: Term) -> Term:
    return PAYLOAD.is_one_of(call, NONEMPTY)


def _open(state: MatchState, i: int) -> Term:
    return ENTRY.is_one_of(state.entry_state[i], OPEN_STATES)


def _closed(state: MatchState, i: int) -> Term:
    return ENTRY.is_one_of(state.entry_state[i], CLOSED_STATES)


def no_cross_talk(
    system: MatchingSystem, before: MatchState, step: MatchStep, after: MatchState
) -> Term:
    """A matched item reaches an admitted entry of its own type whose ``call_id`` agrees
    with the item's (or one has none) — but for the entry's own done renaming it (its
    id, while open) and a snapshot re-keying a done entry; every other entry is left as
    it was."""
    clauses = []
    for i in range(system.bounds.entries):
        receives = z3.And(after.action == ACTION[AdmissionAction.MATCH], after.target == i)
        # A call_id the entry was renamed from still names it (never another entry).
        agrees = z3.Or(
            z3.Not(_present(before.call[i])),
            z3.Not(_present(step.call)),
            before.call[i] == step.call,
            system.holds(before, i, step.call),
        )
        own = z3.And(
            after.view == MATCH[MatchView.OWN],
            step.kind == STEP[ItemStep.DONE],
            step.has_id,
            select([row[i] for row in before.named], step.token),
            _open(before, i),
        )
        rekey = z3.And(
            after.view == MATCH[MatchView.REKEYED],
            step.kind == STEP[ItemStep.SNAPSHOT],
            _closed(before, i),
        )
        clauses.append(
            z3.Implies(
                receives,
                z3.And(
                    before.admitted[i],
                    before.type_[i] == step.type_,
                    z3.Or(agrees, own, rekey),
                ),
            )
        )
        untouched = z3.And(
            after.entry_state[i] == before.entry_state[i],
            after.call[i] == before.call[i],
            after.type_[i] == before.type_[i],
        )
        clauses.append(z3.Implies(after.target != i, untouched))
    return z3.And(clauses)


def first_admission_wins(
    system: MatchingSystem, before: MatchState, step: MatchStep, after: MatchState
) -> Term:
    """Identity is fixed at confirmation: a ``call_id`` once held never changes on a done
    entry, and on an open one only by its own done (``OWN``); a missing one may be
    supplied by any later item."""
    clauses = []
    for i in range(system.bounds.entries):
        same = after.call[i] == before.call[i]
        renamed = z3.And(
            after.view == MATCH[MatchView.OWN],
            after.target == i,
            step.kind == STEP[ItemStep.DONE],
        )
        clauses.append(
            z3.Implies(
                before.admitted[i],
                z3.Or(
                    same,
                    z3.Not(_present(before.call[i])),
                    z3.And(_open(before, i), renamed),
                ),
            )
        )
    return z3.And(clauses)


def nothing_lost(
    system: MatchingSystem, before: MatchState, step: MatchStep, after: MatchState
) -> Term:
    """Every item is placed (matched or admitted) or rejected with a diagnostic, and
    only where R6 rejects: every entry is taken (the entry limit), several entries fit
    it (``CONFLICT``), or its ``call_id`` is held by an entry of another type *of the
    item's own kind* (took it, or was renamed from it) — a call never refuses its
    output, nor an output its call."""
    rejected = after.action == ACTION[AdmissionAction.REJECT]
    full = z3.And(*before.admitted)
    conflict = z3.And(step.kind != STEP[ItemStep.ADDED], after.view == MATCH[MatchView.CONFLICT])
    holders = [
        z3.And(
            before.admitted[j],
            system.holds(before, j, step.call),
            before.type_[j] != step.type_,
            is_output(before.type_[j]) == is_output(step.type_),
        )
        for j in range(system.bounds.entries)
    ]
    return z3.And(
        z3.Implies(rejected, after.coded),
        z3.Implies(z3.And(rejected, after.taken), z3.Or(holders)),
        z3.Implies(rejected, z3.Or(full, conflict, after.taken)),
    )


def complete_once(
    system: MatchingSystem, before: MatchState, step: MatchStep, after: MatchState
) -> Term:
    """Each entry completes at most once, and one ``call_id`` names at most one entry of
    a kind (a repeated or re-keyed item never becomes a second call)."""
    n = system.bounds.entries
    once = [c <= 1 for c in after.completions]
    unique = [
        z3.Not(
            z3.And(
                after.admitted[i],
                after.admitted[j],
                _present(after.call[i]),
                after.call[i] == after.call[j],
                is_output(after.type_[i]) == is_output(after.type_[j]),
            )
        )
        for i in range(n)
        for j in range(i + 1, n)
    ]
    return z3.And(*once, *unique)


MATCHER_PROPERTIES: dict[str, StepFormula] = {
    "complete_once": complete_once,
    "first_admission_wins": first_admission_wins,
    "no_cross_talk": no_cross_talk,
    "nothing_lost": nothing_lost,
}
"""The invariants of ``model.invariants`` restated over the matcher, by name."""


@dataclass(frozen=True)
class MatcherResult:
    """One invariant over the matcher: no violation in any run up to ``depth`` steps at
    ``bounds`` (``run`` None), or the shortest violating run."""

    invariant: str
    model: str
    bounds: Bounds
    depth: int
    seconds: float
    run: Run[ConcreteMatchState, ConcreteMatchStep] | None


def check_matcher(
    tables: ModelTables, invariant: str, bounds: Bounds, depth: int, renderable: bool = False
) -> MatcherResult:
    """Search every run of up to ``depth`` items for one that breaks ``invariant``."""
    started = time.perf_counter()
    formula = MATCHER_PROPERTIES[invariant]
    system = MatchingSystem(tables, bounds)
    unrolling: Unrolling[ConcreteMatchState, ConcreteMatchStep] = Unrolling(system, renderable)
    for k in range(1, depth + 1):
        unrolling.extend()
        before, step, after = unrolling.frame(k)
        run = unrolling.find(z3.Not(formula(system, before, step, after)))
        if run is not None:
            return MatcherResult(
                invariant, tables.name, bounds, k, time.perf_counter() - started, run
            )
    return MatcherResult(invariant, tables.name, bounds, depth, time.perf_counter() - started, None)


__all__ = ["MATCHER_PROPERTIES", "MatchingSystem", "check_matcher", "new_solver"]


# -- runs as streams ------------------------------------------------------------------

MATCHER_DEPTH = 4
"""How many items the matcher's runs hold, in ``prove`` and the fixtures."""

_VALUE_FIELD: dict[str, str] = {
    "function_call": "arguments",
    "custom_tool_call": "input",
    "function_call_output": "output",
}


def render_item(step: ConcreteMatchStep) -> dict[str, Any]:
    """The wire item of a step: ``id`` ``item_<token>``, ``call_id`` ``call_a``/``call_b``
    (left out for none), a tool named ``f`` for calls, an empty payload field."""
    item: dict[str, Any] = {"type": step.type_}
    if step.token is not None:
        item["id"] = f"item_{step.token}"
    if step.call in CALLS:
        item["call_id"] = f"call_{step.call.value}"
    if not step.type_.endswith("_output"):
        item["name"] = "f"
    item[_VALUE_FIELD[step.type_]] = ""
    return item


def render_run(run: Run[ConcreteMatchState, ConcreteMatchStep]) -> list[dict[str, Any]]:
    """The wire events of a matcher run: ``response.created``, an ``output_item.added`` or
    ``.done`` per item step, and ``response.completed`` whose output is the snapshot's
    items in order (empty when the run has none), numbered by ``sequence_number``."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_counterexample", "output": []}}
    ]
    snapshot: list[dict[str, Any]] = []
    for step in run.steps:
        item = render_item(step)
        if step.kind is ItemStep.SNAPSHOT:
            snapshot.append(item)
            continue
        name = "added" if step.kind is ItemStep.ADDED else "done"
        event: dict[str, Any] = {"type": f"response.output_item.{name}", "item": item}
        if step.slot is not None:
            event["output_index"] = step.slot
        events.append(event)
    events.append(
        {
            "type": "response.completed",
            "response": {"id": "resp_counterexample", "status": "completed", "output": snapshot},
        }
    )
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


# -- vacuity: which cells of the matching table a stream can reach ----------------------

Cell = tuple[Enum, Enum, Enum, Enum]
"""A cell of ``MATCHING``: type, call_id, id and slot fit."""


@dataclass(frozen=True)
class FitCoverage:
    """The cells of the matching table some run of up to ``depth`` items consults (the
    cell of an entry some key proposed), with the depth of the first such run."""

    model: str
    bounds: Bounds
    depth: int
    seconds: float
    reached: dict[Cell, int]
    unreached: tuple[Cell, ...]


def consulted_cells(
    system: MatchingSystem, before: MatchState, step: MatchStep, cells: list[Cell]
) -> dict[Cell, Term]:
    """Per cell of the matching table: the done or snapshot item of ``step`` consults it
    for some entry a key proposed (the slot's, the ``call_id`` holder, the named)."""
    ops = system.ops
    facts = system.facts(before, step)
    proposed = ops.join(ops.join(ops.only(facts.bound), facts.holder), ops.only(facts.named))
    item = z3.Not(step.kind == STEP[ItemStep.ADDED])
    sorts = [finite_sort(type(part)) for part in cells[0]]
    return {
        cell: z3.Or(
            [
                z3.And(
                    item,
                    proposed[i],
                    *[
                        key == sort[part]
                        for key, sort, part in zip(fit_key(ops, facts, i), sorts, cell, strict=True)
                    ],
                )
                for i in range(system.bounds.entries)
            ]
        )
        for cell in cells
    }


def consulting_runs(
    system: MatchingSystem, cells: list[Cell], depth: int, renderable: bool = False
) -> Iterator[tuple[int, Run[ConcreteMatchState, ConcreteMatchStep], list[Cell]]]:
    """Depth by depth, runs whose last item consults cells no earlier run consulted: each
    with its depth and those cells (one query covers many)."""
    reached: set[Cell] = set()
    unrolling: Unrolling[ConcreteMatchState, ConcreteMatchStep] = Unrolling(system, renderable)
    for k in range(1, depth + 1):
        unrolling.extend()
        before, step, _ = unrolling.frame(k)
        consulted = consulted_cells(system, before, step, cells)
        while True:
            open_cells = [cell for cell in cells if cell not in reached]
            if not open_cells:
                break
            solver = unrolling.solver
            solver.push()
            solver.add(z3.Or([consulted[cell] for cell in open_cells]))
            model = solver.model() if solver.check() == z3.sat else None
            solver.pop()
            if model is None:
                break
            newly = [
                cell
                for cell in open_cells
                if z3.is_true(model.eval(consulted[cell], model_completion=True))
            ]
            reached.update(newly)
            yield k, unrolling.read(model), newly


def fit_coverage(tables: ModelTables, bounds: Bounds, depth: int) -> FitCoverage:
    """Search, depth by depth, runs whose last item consults uncovered cells; every cell a
    found run's last step consults counts (one query covers many)."""
    from responses_oracle.model.tables import table_cells

    started = time.perf_counter()
    cells: list[Cell] = [path for path, _ in table_cells(tables.matching)]
    reached: dict[Cell, int] = {}
    system = MatchingSystem(tables, bounds)
    for k, _, newly in consulting_runs(system, cells, depth):
        reached.update(dict.fromkeys(newly, k))
    unreached = tuple(cell for cell in cells if cell not in reached)
    return FitCoverage(
        tables.name, bounds, depth, time.perf_counter() - started, reached, unreached
    )


# -- induction: every depth at a bound ----------------------------------------------------


def strengthening(system: MatchingSystem, state: MatchState) -> dict[str, Term]:
    """The facts about reachable matcher states the induction assumes and re-proves."""
    n, m = system.bounds.entries, system.bounds.slots
    clauses: dict[str, Term] = {}
    for i in range(n):
        clauses[f"an entry not admitted is blank ({i})"] = z3.Implies(
            z3.Not(state.admitted[i]),
            z3.And(
                state.entry_state[i] == ENTRY[EntryState.ABSENT],
                state.call[i] == PAYLOAD[Payload.MISSING],
                *[z3.Not(h) for h in state.holds[i]],
                z3.Not(state.has_id[i]),
                *[z3.Not(row[i]) for row in state.named],
                state.completions[i] == 0,
                state.slot[i] == -1,
            ),
        )
        clauses[f"an admitted entry is added, done or completed ({i})"] = z3.Implies(
            state.admitted[i],
            ENTRY.is_one_of(
                state.entry_state[i], (EntryState.ADDED, EntryState.DONE, EntryState.COMPLETED)
            ),
        )
        clauses[f"it completed once if closed, else never ({i})"] = state.completions[i] == z3.If(
            _closed(state, i), 1, 0
        )
        clauses[f"its call_id is one it holds ({i})"] = z3.And(
            [
                z3.Implies(state.call[i] == PAYLOAD[v], state.holds[i][k])
                for k, v in enumerate(CALLS)
            ]
        )
        clauses[f"it has an id exactly when a token names it ({i})"] = state.has_id[i] == z3.Or(
            [row[i] for row in state.named]
        )
        if i + 1 < n:
            clauses[f"entries are admitted in order ({i})"] = z3.Implies(
                state.admitted[i + 1], state.admitted[i]
            )
        for j in range(i + 1, n):
            clauses[f"one holder per call_id and namespace ({i}, {j})"] = z3.And(
                [
                    z3.Not(
                        z3.And(
                            state.holds[i][k],
                            state.holds[j][k],
                            system._namespace(state.type_[i]) == system._namespace(state.type_[j]),
                        )
                    )
                    for k in range(len(CALLS))
                ]
            )
    for s in range(m):
        bound = [z3.And(state.admitted[i], state.slot[i] == s) for i in range(n)]
        clauses[f"slot {s} counts its entries"] = z3.And(
            (state.slot_state[s] == SLOT[SlotState.FREE]) == z3.Not(z3.Or(bound)),
            (state.slot_state[s] == SLOT[SlotState.SHARED])
            == z3.And(z3.Or(bound), z3.Not(exactly_one(bound))),
        )
    return clauses


@dataclass(frozen=True)
class MatcherInduction:
    """Base case and induction step of one invariant over the matcher at ``bounds``."""

    invariant: str
    model: str
    bounds: Bounds
    proved: bool
    broken: tuple[str, ...]
    seconds: float


def induct_matcher(tables: ModelTables, invariant: str, bounds: Bounds) -> MatcherInduction:
    """``invariant`` holds after every step from every state the strengthening allows,
    and the strengthening holds initially and is kept: every depth, at ``bounds``."""
    started = time.perf_counter()
    system = MatchingSystem(tables, bounds)
    state, step = system.fresh_state("s"), system.fresh_step("e")
    after = system.successor(state, step)
    hypothesis = z3.And(system.domain(state), *strengthening(system, state).values())
    base = new_solver()
    base.add(system.initial(state), z3.Not(hypothesis))
    broken = ["base"] if base.check() != z3.unsat else []
    goals = {
        invariant: MATCHER_PROPERTIES[invariant](system, state, step, after),
        "domain": system.domain(after),
        **strengthening(system, after),
    }
    solver = new_solver()
    solver.add(hypothesis, system.environment(state, step))
    for name, goal in goals.items():
        solver.push()
        solver.add(z3.Not(goal))
        if solver.check() != z3.unsat:
            broken.append(name)
        solver.pop()
    return MatcherInduction(
        invariant, tables.name, bounds, not broken, tuple(broken), time.perf_counter() - started
    )
