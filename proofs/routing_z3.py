"""Routing (rule R5) as a transition system: the routing table never guesses.

Theory of operation
-------------------
The lifecycle encoding takes for granted that an event reaches the entry it concerns.
Whether it does is the routing table's job, and this module proves it.  The system
keeps what routing reads — which entries are admitted and closed, the slot each is
bound to, which ids name which entries (the aliases of R4), and each slot's state —
and three kinds of step (``RoutingKind``):

- ``ADMIT``: an ``output_item.added`` admits the next entry at a slot with an id; the
  slot moves through ``tables.slots`` if the lifecycle row ``(ABSENT, ITEM_ADDED)``
  binds it;
- ``CLOSE``: an ``output_item.done`` closes an admitted entry; its slot moves by the
  slot table's ``TOMBSTONE`` column if the row ``(ADDED, ITEM_DONE)`` says so (in the
  reference the binding stays as it is);
- ``ROUTE``: a payload event with an optional ``output_index`` and an optional
  ``item_id``.  The slot view and id view are ``model.routing.route_views`` — the very
  function the driver runs — on Z3 terms (``ops_z3``), the action is read from
  ``tables.routing``, and the target is ``model.routing.route_target``.  A routed event
  records its id as an alias of its entry where the lifecycle rows carry
  ``LEARN_ITEM_ID`` (open entries, in the reference).

The properties all speak of the entries that *fit* an event (``fits``): those named by
at least one of its keys and by every key that names an admitted entry — bound to the
slot if the slot is bound to anything, named by the id if the id names anything.  That
is R5 without its table: "never guessed onto some call", stated without knowing which
call the producer meant.

- ``ambiguity_rejected`` (safety): an event the router delivers goes to the only entry
  that fits it, and a rejection is reported as ``ambiguous_route``;
- ``routed_to_its_entry`` (completeness): an event exactly one entry fits reaches it —
  together with the first, an event is delivered exactly when one entry fits it;
- ``refusal_reported`` (diagnostics): the codes the step raises (``raised_by``, a
  ghost read off the routing cell, as ``contracts`` reads the other cells) are
  ``orphan_event`` for a refused event no key of which names an entry,
  ``ambiguous_route`` for any other refused event, ``item_id_unrecognized`` for a
  delivered one whose id names nothing, and nothing else.

The id tokens are ``N + 1`` (so that ids can be unseen or shared by several entries);
``ROUTE`` steps may omit either key.  The lifecycle is abstracted to open and closed,
which is all routing reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3
from responses_oracle.model.lifecycle import CLOSED_STATES, OPEN_STATES
from responses_oracle.model.routing import route_target, route_views
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    ROUTED_TRIGGERS,
    Code,
    Effect,
    EntryState,
    IdView,
    RouteAction,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)

from .encoding import SLOT, Bounds, Term, finite_sort, select
from .ops_z3 import Z3Ops, exactly_one, lookup


class RoutingKind(Enum):
    """What a producer sends, as far as routing is concerned."""

    ADMIT = "admit"
    CLOSE = "close"
    ROUTE = "route"


KIND = finite_sort(RoutingKind)
"""The sort of routing step kinds."""
SLOT_VIEW = finite_sort(SlotView)
"""The sort of slot views."""
ID_VIEW = finite_sort(IdView)
"""The sort of id views."""
ACTION = finite_sort(RouteAction)
"""The sort of route actions."""

DELIVERED: tuple[RouteAction, ...] = (RouteAction.BY_SLOT, RouteAction.BY_ID)
"""The actions that deliver the event to an entry."""


@dataclass(frozen=True)
class RoutingState:
    """Routing's view of a response, as Z3 terms.  The last four fields are ghosts that
    record the last step's views and decision (``DROP``/-1 for steps not routed)."""

    admitted: tuple[Term, ...]
    closed: tuple[Term, ...]
    entry_slot: tuple[Term, ...]
    first_token: tuple[Term, ...]
    named: tuple[tuple[Term, ...], ...]
    slot_state: tuple[Term, ...]
    slot_view: Term
    id_view: Term
    action: Term
    target: Term


@dataclass(frozen=True)
class RoutingStep:
    """One step: its kind, entry (admitted or closed), slot and id token, each key
    optional for ``ROUTE``."""

    kind: Term
    entry: Term
    slot: Term
    has_slot: Term
    token: Term
    has_id: Term


@dataclass(frozen=True)
class ConcreteRoutingState:
    """A ``RoutingState`` read back from a model."""

    admitted: tuple[bool, ...]
    closed: tuple[bool, ...]
    entry_slot: tuple[int, ...]
    first_token: tuple[int, ...]
    named: tuple[tuple[bool, ...], ...]
    slot_state: tuple[SlotState, ...]
    slot_view: SlotView
    id_view: IdView
    action: RouteAction
    target: int


@dataclass(frozen=True)
class ConcreteRoutingStep:
    """A ``RoutingStep`` read back from a model (absent keys are None)."""

    kind: RoutingKind
    entry: int
    slot: int | None
    token: int | None


@dataclass(frozen=True)
class Keys:
    """What an event's keys pick out: the entries bound to its slot, named by its id."""

    bound: list[Term]
    named: list[Term]
    slot_view: Term
    id_view: Term


class RoutingSystem:
    """The routing transition system of one ``ModelTables`` at one ``Bounds``."""

    def __init__(self, tables: ModelTables, bounds: Bounds) -> None:
        self.tables = tables
        self.bounds = bounds
        self.tokens = bounds.entries + 1
        lifecycle = tables.lifecycle
        self.binds = Effect.BIND_SLOT in lifecycle[EntryState.ABSENT][Trigger.ITEM_ADDED].effects
        self.tombstones = (
            Effect.TOMBSTONE_SLOT in lifecycle[EntryState.ADDED][Trigger.ITEM_DONE].effects
        )
        learning = [
            (state in CLOSED_STATES, Effect.LEARN_ITEM_ID in lifecycle[state][trigger].effects)
            for state in (*OPEN_STATES, *CLOSED_STATES)
            for trigger in ROUTED_TRIGGERS
        ]
        # Open entries learn only if every open row of a routed trigger does; a closed
        # entry learns if any closed row does (so a mutant that learns late is seen).
        self.learns_open = z3.BoolVal(all(learns for closed, learns in learning if not closed))
        self.learns_closed = z3.BoolVal(any(learns for closed, learns in learning if closed))
        self.ops = Z3Ops(bounds.entries)

    # -- variables --------------------------------------------------------------------

    def fresh_state(self, name: str) -> RoutingState:
        """A state of fresh variables."""
        entries, slots = range(self.bounds.entries), range(self.bounds.slots)
        return RoutingState(
            admitted=tuple(z3.Bool(f"{name}.admitted{i}") for i in entries),
            closed=tuple(z3.Bool(f"{name}.closed{i}") for i in entries),
            entry_slot=tuple(z3.Int(f"{name}.slot_of{i}") for i in entries),
            first_token=tuple(z3.Int(f"{name}.token_of{i}") for i in entries),
            named=tuple(
                tuple(z3.Bool(f"{name}.named{d}_{i}") for i in entries)
                for d in range(self.tokens)
            ),
            slot_state=tuple(SLOT.var(f"{name}.slot{s}") for s in slots),
            slot_view=SLOT_VIEW.var(f"{name}.slot_view"),
            id_view=ID_VIEW.var(f"{name}.id_view"),
            action=ACTION.var(f"{name}.action"),
            target=z3.Int(f"{name}.target"),
        )

    def fresh_step(self, name: str) -> RoutingStep:
        """A step of fresh variables."""
        return RoutingStep(
            KIND.var(f"{name}.kind"),
            z3.Int(f"{name}.entry"),
            z3.Int(f"{name}.slot"),
            z3.Bool(f"{name}.has_slot"),
            z3.Int(f"{name}.token"),
            z3.Bool(f"{name}.has_id"),
        )

    # -- the system -------------------------------------------------------------------

    def domain(self, state: RoutingState) -> Term:
        """Ranges of the integer variables."""
        n, m = self.bounds.entries, self.bounds.slots
        return z3.And(
            *[z3.And(s >= 0, s < m) for s in state.entry_slot],
            *[z3.And(d >= 0, d < self.tokens) for d in state.first_token],
            state.target >= -1,
            state.target < n,
        )

    def initial(self, state: RoutingState) -> Term:
        """Nothing admitted, every slot free, no decision yet."""
        return z3.And(
            *[z3.Not(flag) for flag in (*state.admitted, *state.closed)],
            *[z3.Not(flag) for row in state.named for flag in row],
            *[slot == SLOT[SlotState.FREE] for slot in state.slot_state],
            state.action == ACTION[RouteAction.DROP],
            state.target == -1,
        )

    def environment(self, state: RoutingState, step: RoutingStep, renderable: bool = False) -> Term:
        """What a producer can send: admissions in ordinal order, a close for an open
        entry, payload events with any keys (absent keys normalised to 0)."""
        n, m = self.bounds.entries, self.bounds.slots
        kind_is = step.kind.__eq__
        admit = z3.And(
            step.has_slot,
            step.has_id,
            *[
                z3.Implies(
                    step.entry == i,
                    z3.And(z3.Not(state.admitted[i]), *[state.admitted[j] for j in range(i)]),
                )
                for i in range(n)
            ],
        )
        close = z3.And(
            select(state.admitted, step.entry),
            z3.Not(select(state.closed, step.entry)),
            z3.Not(step.has_slot),
            z3.Not(step.has_id),
        )
        route = z3.And(step.entry == 0)
        return z3.And(
            step.entry >= 0,
            step.entry < n,
            step.slot >= 0,
            step.slot < m,
            step.token >= 0,
            step.token < self.tokens,
            z3.Implies(z3.Not(step.has_slot), step.slot == 0),
            z3.Implies(z3.Not(step.has_id), step.token == 0),
            z3.Implies(kind_is(KIND[RoutingKind.ADMIT]), admit),
            z3.Implies(kind_is(KIND[RoutingKind.CLOSE]), close),
            z3.Implies(kind_is(KIND[RoutingKind.ROUTE]), route),
        )

    def keys(self, state: RoutingState, step: RoutingStep) -> Keys:
        """The slot and id views of a payload event: ``model.routing.route_views``, the
        function the driver runs, on the entries bound at its slot and named by its id."""
        n = self.bounds.entries
        bound = tuple(
            z3.And(step.has_slot, state.admitted[i], state.entry_slot[i] == step.slot)
            for i in range(n)
        )
        named = tuple(
            z3.And(step.has_id, select([row[i] for row in state.named], step.token))
            for i in range(n)
        )
        shared = select(state.slot_state, step.slot) == SLOT[SlotState.SHARED]
        slot_view, id_view = route_views(self.ops, bound, named, shared, step.has_id)
        return Keys(list(bound), list(named), slot_view, id_view)

    def route_cell(self, keys: Keys, predicate: Any) -> Term:
        """The event's routing cell is one for which ``predicate(route)`` holds."""
        return z3.Or(
            [
                z3.And(keys.slot_view == SLOT_VIEW[sv], keys.id_view == ID_VIEW[iv])
                for sv, row in self.tables.routing.items()
                for iv, route in row.items()
                if predicate(route)
            ]
        )

    def decision(self, state: RoutingState, step: RoutingStep) -> tuple[Term, Term]:
        """The routing table's action and the entry ``model.routing.route_target`` picks
        (-1 for none)."""
        keys = self.keys(state, step)
        action = lookup(
            self.tables.routing, keys.slot_view, keys.id_view, project=lambda r: r.action
        )
        target = route_target(self.ops, action, tuple(keys.bound), tuple(keys.named))
        return action, target

    def raised_by(self, state: RoutingState, step: RoutingStep) -> dict[Code, Term]:
        """The codes a ``ROUTE`` step raises (a ghost of the step): per code, whether the
        routing cell its keys select carries it (false for the other kinds of step)."""
        keys = self.keys(state, step)
        route = step.kind == KIND[RoutingKind.ROUTE]
        return {
            code: z3.And(route, self.route_cell(keys, lambda r, code=code: r.code is code))
            for code in Code
        }

    def successor(self, state: RoutingState, step: RoutingStep) -> RoutingState:
        """The state after ``step`` (functional terms)."""
        n = self.bounds.entries
        admit = step.kind == KIND[RoutingKind.ADMIT]
        close = step.kind == KIND[RoutingKind.CLOSE]
        route = step.kind == KIND[RoutingKind.ROUTE]
        keys = self.keys(state, step)
        action, target = self.decision(state, step)
        delivered = z3.And(route, ACTION.is_one_of(action, DELIVERED))
        # The lifecycle rows say whether a routed event's id is learned (LEARN_ITEM_ID);
        # routing abstracts an entry's state to open or closed.
        learns = z3.If(select(state.closed, target), self.learns_closed, self.learns_open)
        aliased = z3.And(delivered, step.has_id, learns)
        slots = list(state.slot_state)
        if self.binds:
            slots = [
                z3.If(z3.And(admit, step.slot == s), self._slot_move(old, SlotTrigger.BIND), old)
                for s, old in enumerate(slots)
            ]
        if self.tombstones:
            closing_slot = select(state.entry_slot, step.entry)
            slots = [
                z3.If(
                    z3.And(close, closing_slot == s),
                    self._slot_move(old, SlotTrigger.TOMBSTONE),
                    old,
                )
                for s, old in enumerate(slots)
            ]
        admitted_here = [z3.And(admit, step.entry == i) for i in range(n)]
        gains_id = [z3.Or(admitted_here[i], z3.And(aliased, target == i)) for i in range(n)]
        return RoutingState(
            admitted=tuple(z3.Or(a, h) for a, h in zip(state.admitted, admitted_here, strict=True)),
            closed=tuple(
                z3.Or(c, z3.And(close, step.entry == i)) for i, c in enumerate(state.closed)
            ),
            entry_slot=tuple(
                z3.If(h, step.slot, s) for h, s in zip(admitted_here, state.entry_slot, strict=True)
            ),
            first_token=tuple(
                z3.If(h, step.token, d)
                for h, d in zip(admitted_here, state.first_token, strict=True)
            ),
            named=tuple(
                tuple(
                    z3.Or(flag, z3.And(step.token == d, gains_id[i]))
                    for i, flag in enumerate(row)
                )
                for d, row in enumerate(state.named)
            ),
            slot_state=tuple(slots),
            slot_view=keys.slot_view,
            id_view=keys.id_view,
            action=z3.If(route, action, ACTION[RouteAction.DROP]),
            target=z3.If(delivered, target, z3.IntVal(-1)),
        )

    def _slot_move(self, slot_state: Term, trigger: SlotTrigger) -> Term:
        result = slot_state
        for state, row in self.tables.slots.items():
            result = z3.If(slot_state == SLOT[state], SLOT[row[trigger].next_state], result)
        return result

    def equal(self, left: RoutingState, right: RoutingState) -> Term:
        """Every component equal."""
        return z3.And([a == b for a, b in zip(_components(left), _components(right), strict=True)])

    # -- reading models and canonical runs ---------------------------------------------

    def read_state(self, model: z3.ModelRef, state: RoutingState) -> ConcreteRoutingState:
        """The concrete values of ``state``."""

        def flag(term: Term) -> bool:
            return bool(z3.is_true(model.eval(term, model_completion=True)))

        def number(term: Term) -> int:
            value: int = model.eval(term, model_completion=True).as_long()
            return value

        return ConcreteRoutingState(
            admitted=tuple(flag(t) for t in state.admitted),
            closed=tuple(flag(t) for t in state.closed),
            entry_slot=tuple(number(t) for t in state.entry_slot),
            first_token=tuple(number(t) for t in state.first_token),
            named=tuple(tuple(flag(t) for t in row) for row in state.named),
            slot_state=tuple(SLOT.read(model, t) for t in state.slot_state),
            slot_view=SLOT_VIEW.read(model, state.slot_view),
            id_view=ID_VIEW.read(model, state.id_view),
            action=ACTION.read(model, state.action),
            target=number(state.target),
        )

    def read_step(self, model: z3.ModelRef, step: RoutingStep) -> ConcreteRoutingStep:
        """The concrete values of ``step``."""

        def number(term: Term) -> int:
            value: int = model.eval(term, model_completion=True).as_long()
            return value

        has_slot = z3.is_true(model.eval(step.has_slot, model_completion=True))
        has_id = z3.is_true(model.eval(step.has_id, model_completion=True))
        return ConcreteRoutingStep(
            KIND.read(model, step.kind),
            number(step.entry),
            number(step.slot) if has_slot else None,
            number(step.token) if has_id else None,
        )

    def canonical_order(
        self, first: RoutingState, steps: list[RoutingStep]
    ) -> list[tuple[Term, list[Term]]]:
        """Kinds in ``RoutingKind`` order, keys present before absent, small numbers."""
        order: list[tuple[Term, list[Term]]] = [
            *[(s, [z3.IntVal(0)]) for s in first.entry_slot],
            *[(d, [z3.IntVal(0)]) for d in first.first_token],
        ]
        for step in steps:
            order.append((step.kind, [KIND[k] for k in RoutingKind]))
            order.append((step.entry, [z3.IntVal(i) for i in range(self.bounds.entries)]))
            order.append((step.has_slot, [z3.BoolVal(True), z3.BoolVal(False)]))
            order.append((step.slot, [z3.IntVal(s) for s in range(self.bounds.slots)]))
            order.append((step.has_id, [z3.BoolVal(True), z3.BoolVal(False)]))
            order.append((step.token, [z3.IntVal(d) for d in range(self.tokens)]))
        return order


def _components(state: RoutingState) -> list[Term]:
    return [
        *state.admitted,
        *state.closed,
        *state.entry_slot,
        *state.first_token,
        *[flag for row in state.named for flag in row],
        *state.slot_state,
        state.slot_view,
        state.id_view,
        state.action,
        state.target,
    ]


# -- the properties and their strengthening -------------------------------------------


def fits(system: RoutingSystem, state: RoutingState, step: RoutingStep) -> list[Term]:
    """Per entry, whether it *fits* the payload event (R5): at least one of the event's
    keys names it, and every key that names an admitted entry names it — the slot by
    its bindings, the ``item_id`` by the aliases of R4.  A key that names nothing (an
    absent or unbound slot, an unseen or absent id) constrains nothing."""
    keys = system.keys(state, step)
    any_bound, any_named = z3.Or(keys.bound), z3.Or(keys.named)
    return [
        z3.And(
            state.admitted[i],
            z3.Or(keys.bound[i], keys.named[i]),
            z3.Or(z3.Not(any_bound), keys.bound[i]),
            z3.Or(z3.Not(any_named), keys.named[i]),
        )
        for i in range(system.bounds.entries)
    ]


def ambiguity_rejected(
    system: RoutingSystem, before: RoutingState, step: RoutingStep, after: RoutingState
) -> Term:
    """A delivered event reaches the one admitted entry that fits it; a rejected one is
    reported as ``ambiguous_route``."""
    keys = system.keys(before, step)
    fit = fits(system, before, step)
    action, target = system.decision(before, step)
    route = step.kind == KIND[RoutingKind.ROUTE]
    delivered_well = z3.And(
        [
            z3.Implies(target == i, z3.And(fit[i], exactly_one(fit)))
            for i in range(system.bounds.entries)
        ]
    )
    silent_reject = system.route_cell(
        keys, lambda r: r.action is RouteAction.REJECT and r.code is not Code.AMBIGUOUS_ROUTE
    )
    return z3.Implies(
        route,
        z3.And(
            z3.Implies(
                ACTION.is_one_of(action, DELIVERED),
                z3.And(target >= 0, delivered_well),
            ),
            z3.Not(silent_reject),
        ),
    )


def routed_to_its_entry(
    system: RoutingSystem, before: RoutingState, step: RoutingStep, after: RoutingState
) -> Term:
    """A payload event that exactly one admitted entry fits reaches that entry (open or
    done: a late event is the lifecycle's to report, not routing's to drop)."""
    fit = fits(system, before, step)
    return z3.Implies(
        step.kind == KIND[RoutingKind.ROUTE],
        z3.And(
            [
                z3.Implies(z3.And(fit[i], exactly_one(fit)), after.target == i)
                for i in range(system.bounds.entries)
            ]
        ),
    )


def refusal_reported(
    system: RoutingSystem, before: RoutingState, step: RoutingStep, after: RoutingState
) -> Term:
    """The codes a payload event's route raises (``RoutingSystem.raised_by``) are
    exactly R5's: a refused event is ``orphan_event`` when neither key names an admitted
    entry and ``ambiguous_route`` when one does; a delivered event whose ``item_id``
    names no entry is ``item_id_unrecognized`` (ids can rotate); no other code."""
    keys = system.keys(before, step)
    raised = system.raised_by(before, step)
    refused = after.target == -1
    named_any = z3.Or(*keys.bound, *keys.named)
    expected = {
        Code.ORPHAN_EVENT: z3.And(refused, z3.Not(named_any)),
        Code.AMBIGUOUS_ROUTE: z3.And(refused, named_any),
        Code.ITEM_ID_UNRECOGNIZED: z3.And(
            z3.Not(refused), step.has_id, z3.Not(z3.Or(keys.named))
        ),
    }
    return z3.Implies(
        step.kind == KIND[RoutingKind.ROUTE],
        z3.And([raised[code] == expected.get(code, z3.BoolVal(False)) for code in Code]),
    )


def slots_count_their_entries(system: RoutingSystem, state: RoutingState) -> Term:
    """A free slot has no entry bound, a live one exactly one, a shared one two or more."""
    clauses = []
    for s, slot_state in enumerate(state.slot_state):
        bound = [
            z3.And(state.admitted[i], state.entry_slot[i] == s)
            for i in range(system.bounds.entries)
        ]
        clauses.append(
            z3.And(
                (slot_state == SLOT[SlotState.FREE]) == z3.Not(z3.Or(bound)),
                (slot_state == SLOT[SlotState.LIVE]) == exactly_one(bound),
            )
        )
    return z3.And(clauses)


def ids_name_admitted_entries(system: RoutingSystem, state: RoutingState) -> Term:
    """Ids name only admitted entries, and only admitted entries are closed."""
    return z3.And(
        *[
            z3.Implies(flag, state.admitted[i])
            for row in state.named
            for i, flag in enumerate(row)
        ],
        *[z3.Implies(c, a) for c, a in zip(state.closed, state.admitted, strict=True)],
    )
