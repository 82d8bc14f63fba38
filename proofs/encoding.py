"""The Z3 encoding of the model, generated at run time from a ``ModelTables``.

Theory of operation
-------------------
The encoding is a transition system over ``N`` entries and ``M`` slots.  Nothing in
this module copies a table: every next-state term is built by iterating over
``tables.lifecycle``, ``tables.slots`` and ``tables.payload``, so a mutant (one row
changed) yields a different transition relation, and the reference model yields the
one the generated kernels follow.

*State* (``State``), per entry ``i``: its lifecycle state (an ``EnumSort`` built from
``EntryState``) and the slot it is bound to (an ``Int``, ``0 <= slot < M``), plus ghost
facts that the effects of its rows leave behind: how often it emitted its completion
(``EMIT_COMPLETION``) and how often it was admitted (``ADMIT``), whether it was
confirmed (``CONFIRM``), whether it ever received a confirming event (a ``*.done``, a
done item or a snapshot item), and whether the snapshot reached it.  Per channel of an
entry (``channels`` of them: a function call's arguments, a message's parts): whether
it was closed (``CLOSE_CHANNEL``).  Per slot ``s``: its ``SlotState``.  Per response:
how many snapshot items were delivered, whether one was dropped, whether the response
completed, and whether it is terminal.

With ``payload=True`` each channel also carries its values abstracted to ``Payload``
(missing, empty, ``A``, or ``B`` = ``A`` extended): the value held, the deltas not yet
joined, and the last non-empty offer offered (a ghost).  Each step then carries
the abstract value its event brings for each channel of its entry, and the effects
``APPEND_DELTA``, ``OFFER_PAYLOAD`` (on the channel the event names) and
``OFFER_ITEM_PAYLOADS`` (on every channel, each its item's value) decide through
``tables.payload`` exactly through ``model.payload.payload_key`` — the function the
driver's ``offer`` runs — evaluated on Z3 terms (``ops_z3``).

With ``identity=True`` each entry also carries its ``name`` in the same abstraction
(``A`` and ``B`` are two different names), and each step the name its item brings: the
effect ``MERGE_ITEM`` decides through ``tables.identity``, the cell picked by
``model.admission.identity_relation`` (the driver's classifier) as in the driver's
``merge_item`` does for each of ``call_id``, ``name`` and ``namespace`` (one table, so
one field stands for all three).

*Completeness ghosts* (issue #16) record what the events brought, never what an
effect did with it, so that a row that forgets its effect is caught: per channel the
last non-empty delta that reached it open (``delta_seen``, with ``payload``) and the
last non-empty value any event brought to it (``brought``, with ``payload``: a delta, a
``*.done``, a done item, the snapshot), whether a ``*.done`` reached it while its entry
was open (``done_seen``), whether an item that admits, confirms or reconciles the entry
brought a name (``name_brought``, with ``identity``; ``NAMING_ITEMS``), whether a done
item reached it absent or open (``item_done_seen``) and a delta reached it open
(``streamed``), whether an event carrying an item id reached it (``id_brought``)
against whether its rows took one (``id_named``: ``MERGE_ITEM`` of an item with an id,
``LEARN_ITEM_ID`` of an event with one), per channel how many ``content_part.added``
reached it while open (``parts_announced``) against how many parts its rows opened
(``parts_opened``), and per response whether a done item was left unadmitted
(``done_dropped``).  ``raised_by`` is the ghost set of the codes a step
raises: its row's note effects (``model.vocabulary.NOTE_CODES``) and the slot table's
code when it binds a slot.

*Step* (``Step``): the trigger the event carries (``event``), the trigger its entry
receives (``trigger``), the entry it is delivered to, the event's slot, the channel it
names (and its values).  The two triggers differ only by the reclassification of
``model.channels``: for an event naming a channel, the cell of
``tables.reclassification`` for that channel's state (``Encoding.received``; the
driver runs the same table as the ``reclassify`` kernel), so a delta after its own
channel's ``*.done`` is ``DELTA_ON_CLOSED_CHANNEL`` while a delta to another part is
not.  Entry-scoped triggers change only their target.  The response-wide triggers
(``RESPONSE_WIDE_TRIGGERS``) are applied, as the driver does, to the admitted entries
in ordinal order — only to those the snapshot did not reach, as the driver's
``settle`` does for either end — and make the response terminal.  After a terminal
event every event is ``after_terminal`` and the state does not change (the driver's
gate, rule R9).

Each entry update reads the lifecycle row of ``(state, trigger)``: the next state is an
``If`` chain over the table, the effect flags are disjunctions over the rows that carry
them, and the slot effects (``BIND_SLOT`` binds the event's slot on admission, the
entry's own slot otherwise; ``TOMBSTONE_SLOT`` tombstones the entry's slot) run in the
row's order through the slot table.  All next-state terms are functional: no frame
axioms, no uninterpreted functions.

*Environment.*  The relation would admit deliveries the driver never makes (a delta
to an entry that was never admitted).  ``ENVIRONMENT`` lists, with the reason for
each, the constraints that restrict steps to what the driver can deliver; they are
the only assumptions of every proof.  They are deliberately loose where the real
protocol is loose (any trigger order, duplicates, slot reuse, late events), so that a
proof covers misbehaving producers too.  ``RENDERABLE`` narrows the steps further to
what a stream of ``function_call`` items can produce (see ``counterexample.py``); it is
used, with one channel per entry, for the counterexample search.  The proofs run with
``PROOF_CHANNELS`` channels per entry and the full environment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

import z3
from responses_oracle.model.admission import identity_relation
from responses_oracle.model.catalogue import WIRE_EVENTS
from responses_oracle.model.channels import channel_state
from responses_oracle.model.lifecycle import OPEN_STATES, Transition
from responses_oracle.model.payload import payload_key
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    CONFIRMING_TRIGGERS,
    ITEM_TRIGGERS,
    PAYLOAD_EFFECTS,
    RESPONSE_WIDE_TRIGGERS,
    ROUTED_TRIGGERS,
    SLOT_EFFECTS,
    Code,
    Effect,
    EntryState,
    IdentityField,
    MergeStage,
    PayloadAction,
    SlotState,
    SlotTrigger,
    Trigger,
)

from .ops_z3 import Z3Ops, lookup
from .sorts import NONEMPTY, FiniteSort, Payload, Term, finite_sort

__all__ = ["NONEMPTY", "FiniteSort", "Payload", "Term", "finite_sort"]

ENTRY = finite_sort(EntryState)
"""The sort of entry states."""
TRIGGER = finite_sort(Trigger)
"""The sort of triggers."""
SLOT = finite_sort(SlotState)
"""The sort of slot states."""
PAYLOAD = finite_sort(Payload)
"""The sort of abstract payload values."""

NAMING_ITEMS: dict[Trigger, tuple[EntryState, ...]] = {
    Trigger.ITEM_ADDED: (EntryState.ABSENT,),
    Trigger.ITEM_DONE: (EntryState.ABSENT, *OPEN_STATES),
    Trigger.SNAPSHOT_ITEM: (EntryState.ABSENT, *OPEN_STATES, EntryState.DONE),
}
"""The item triggers whose item must give the entry its identity (``identity_taken``),
and the entry states in which it must: the item that admits the entry, the done item
that confirms it, and the snapshot that reconciles it (R3, R6).  A specification of
the obligation, not of the table: a row that does not merge such an item is caught."""

RENDERABLE_TRIGGERS: tuple[Trigger, ...] = tuple(
    trigger for trigger in Trigger if trigger is not Trigger.PART_ADDED
)
"""Triggers a stream of ``function_call`` items can produce: such items have no parts
(a ``content_part.added`` for one is a ``channel_mismatch`` and reaches no entry)."""


@dataclass(frozen=True)
class Bounds:
    """How many entries and slots the unrolled encoding has."""

    entries: int
    slots: int

    def __str__(self) -> str:
        return f"{self.entries}x{self.slots}"


@dataclass(frozen=True)
class State:
    """One state of the transition system, as Z3 terms (tuples are per entry, per
    channel or per slot: the channels of entry ``i`` are ``i * C .. i * C + C - 1``)."""

    entry_state: tuple[Term, ...]
    entry_slot: tuple[Term, ...]
    completions: tuple[Term, ...]
    admissions: tuple[Term, ...]
    channel_closed: tuple[Term, ...]
    confirmed: tuple[Term, ...]
    confirming_seen: tuple[Term, ...]
    in_snapshot: tuple[Term, ...]
    held: tuple[Term, ...]
    pending: tuple[Term, ...]
    last_offered: tuple[Term, ...]
    name: tuple[Term, ...]
    delta_seen: tuple[Term, ...]
    name_brought: tuple[Term, ...]
    parts_announced: tuple[Term, ...]
    parts_opened: tuple[Term, ...]
    done_seen: tuple[Term, ...]
    item_done_seen: tuple[Term, ...]
    streamed: tuple[Term, ...]
    brought: tuple[Term, ...]
    id_brought: tuple[Term, ...]
    id_named: tuple[Term, ...]
    slot_state: tuple[Term, ...]
    snapshot_items: Term
    snapshot_dropped: Term
    done_dropped: Term
    completed: Term
    terminal: Term


@dataclass(frozen=True)
class Step:
    """One event as the model sees it: the trigger its entry receives, target entry,
    slot, the abstract value it brings for each channel of the entry, the abstract name
    (of its item), the channel it names (for ``CHANNEL_TRIGGERS``), the trigger the
    event itself carries (before the reclassification of ``model.channels``) and whether
    it carries an item id (an item's ``id``, a payload event's ``item_id``)."""

    trigger: Term
    entry: Term
    slot: Term
    values: tuple[Term, ...]
    name: Term
    channel: Term
    event: Term
    carries_id: Term


@dataclass(frozen=True)
class ConcreteState:
    """A ``State`` read back from a model (field for field)."""

    entry_state: tuple[EntryState, ...]
    entry_slot: tuple[int, ...]
    completions: tuple[int, ...]
    admissions: tuple[int, ...]
    channel_closed: tuple[bool, ...]
    confirmed: tuple[bool, ...]
    confirming_seen: tuple[bool, ...]
    in_snapshot: tuple[bool, ...]
    held: tuple[Payload, ...]
    pending: tuple[Payload, ...]
    last_offered: tuple[Payload, ...]
    name: tuple[Payload, ...]
    delta_seen: tuple[Payload, ...]
    name_brought: tuple[bool, ...]
    parts_announced: tuple[int, ...]
    parts_opened: tuple[int, ...]
    done_seen: tuple[bool, ...]
    item_done_seen: tuple[bool, ...]
    streamed: tuple[bool, ...]
    brought: tuple[Payload, ...]
    id_brought: tuple[bool, ...]
    id_named: tuple[bool, ...]
    slot_state: tuple[SlotState, ...]
    snapshot_items: int
    snapshot_dropped: bool
    done_dropped: bool
    completed: bool
    terminal: bool


@dataclass(frozen=True)
class ConcreteStep:
    """A ``Step`` read back from a model; ``values`` (``name``) is None when payloads
    (names) are not tracked.  ``event`` None means the step's own trigger."""

    trigger: Trigger
    entry: int
    slot: int
    values: tuple[Payload, ...] | None = None
    name: Payload | None = None
    channel: int = 0
    event: Trigger | None = None
    carries_id: bool = True

    @property
    def value(self) -> Payload | None:
        """The value the event brings for the channel it names (channel 0 for an item)."""
        return None if self.values is None else self.values[self.channel]


@dataclass(frozen=True)
class _Field:
    """How one ``State`` field is declared, read back and initialised."""

    per: str
    make: Callable[[str], Term]
    read: Callable[[z3.ModelRef, Term], Any]
    initial: Callable[[Term], Term]
    constant: Callable[[Any], Term]


def _int(model: z3.ModelRef, term: Term) -> int:
    value: int = model.eval(term, model_completion=True).as_long()
    return value


def _bool(model: z3.ModelRef, term: Term) -> bool:
    return bool(z3.is_true(model.eval(term, model_completion=True)))


def _enum_field(per: str, sort: FiniteSort[Any], initial: Enum) -> _Field:
    return _Field(per, sort.var, sort.read, lambda term: term == sort[initial], sort.__getitem__)


def _true(term: Term) -> Term:
    return z3.BoolVal(True)


_COUNTER = _Field("entry", z3.Int, _int, lambda term: term == 0, z3.IntVal)
_FLAG = _Field("entry", z3.Bool, _bool, z3.Not, z3.BoolVal)
_ABSTRACT = _enum_field("entry", PAYLOAD, Payload.MISSING)
_CHANNEL_COUNTER = replace(_COUNTER, per="channel")
_CHANNEL_FLAG = replace(_FLAG, per="channel")
_CHANNEL_ABSTRACT = replace(_ABSTRACT, per="channel")

_FIELDS: dict[str, _Field] = {
    "entry_state": _enum_field("entry", ENTRY, EntryState.ABSENT),
    "entry_slot": _Field("entry", z3.Int, _int, _true, z3.IntVal),
    "completions": _COUNTER,
    "admissions": _COUNTER,
    "channel_closed": _CHANNEL_FLAG,
    "confirmed": _FLAG,
    "confirming_seen": _FLAG,
    "in_snapshot": _FLAG,
    "held": _CHANNEL_ABSTRACT,
    "pending": _CHANNEL_ABSTRACT,
    "last_offered": _CHANNEL_ABSTRACT,
    "name": _ABSTRACT,
    "delta_seen": _CHANNEL_ABSTRACT,
    "name_brought": _FLAG,
    "parts_announced": _CHANNEL_COUNTER,
    "parts_opened": _CHANNEL_COUNTER,
    "done_seen": _CHANNEL_FLAG,
    "item_done_seen": _FLAG,
    "streamed": _FLAG,
    "brought": _CHANNEL_ABSTRACT,
    "id_brought": _FLAG,
    "id_named": _FLAG,
    "slot_state": _enum_field("slot", SLOT, SlotState.FREE),
    "snapshot_items": replace(_COUNTER, per="response"),
    "snapshot_dropped": replace(_FLAG, per="response"),
    "done_dropped": replace(_FLAG, per="response"),
    "completed": replace(_FLAG, per="response"),
    "terminal": replace(_FLAG, per="response"),
}
assert tuple(_FIELDS) == tuple(f.name for f in fields(State))

FIELD_SCOPES: dict[str, str] = {name: spec.per for name, spec in _FIELDS.items()}
"""Each ``State`` field's scope: ``entry``, ``channel``, ``slot`` or ``response``."""


@dataclass(frozen=True)
class EnvironmentClause:
    """One assumption about what the driver can deliver, and why it is sound."""

    name: str
    reason: str


ENVIRONMENT: tuple[EnvironmentClause, ...] = (
    EnvironmentClause(
        "in_range",
        "the target entry and the event's slot are within the bounds",
    ),
    EnvironmentClause(
        "routed_only_to_admitted",
        "payload triggers (ROUTED_TRIGGERS) reach an admitted entry: the router (R5) "
        "returns an existing entry or drops the event (orphan_event), which changes nothing",
    ),
    EnvironmentClause(
        "admission_in_order",
        "a trigger for an absent entry admits the lowest absent ordinal: entries are "
        "numbered in admission order",
    ),
    EnvironmentClause(
        "wire_trigger",
        "the event's own trigger is one a wire event carries (WIRE_TRIGGERS: the "
        "catalogue's item-scoped triggers, the item triggers, the response ends)",
    ),
    EnvironmentClause(
        "channel_reclassified",
        "the trigger the entry receives is the event's, except that an event naming a "
        "channel (CHANNEL_TRIGGERS) delivers the cell of model.channels.RECLASSIFICATION "
        "for its trigger and the state of that channel of its entry (the driver's "
        "reclassify kernel, the same table)",
    ),
    EnvironmentClause(
        "event_carries_entry_slot",
        "an event for an admitted entry carries that entry's slot, except a snapshot "
        "item, whose slot is its array position",
    ),
    EnvironmentClause(
        "snapshot_in_array_order",
        "the k-th snapshot item delivered has slot k or more: the driver walks the "
        "terminal's response.output in order, each item at its array position, and an "
        "item it refuses (not an object, no string type, a match rejected) takes a "
        "position but delivers nothing",
    ),
    EnvironmentClause(
        "snapshot_is_one_event",
        "once a snapshot item was delivered only further snapshot items or the "
        "response-wide trigger of the same terminal event follow (they are all one "
        "event: the driver reconciles the output of every terminal, response.completed "
        "or not, then ends the entries it did not reach), until the response is terminal",
    ),
    EnvironmentClause(
        "deltas_only_grow",
        "a delta's value is the concatenation of the deltas so far: once they spell B "
        "they cannot spell A (a prefix of B); a delta is never missing",
    ),
)
"""The environment assumptions of every proof, by name."""

RENDERABLE: tuple[EnvironmentClause, ...] = (
    EnvironmentClause(
        "function_call_triggers",
        "only RENDERABLE_TRIGGERS, as the event's trigger and as its entry's: function_call "
        "items have no content parts",
    ),
    EnvironmentClause(
        "snapshot_ends_completed",
        "a rendered snapshot is the output of a response.completed: after snapshot items "
        "RESPONSE_ABORTED does not follow (the renderer writes no other terminal's output)",
    ),
    EnvironmentClause(
        "single_channel",
        "an event names channel 0: a function_call has one channel, its arguments",
    ),
    EnvironmentClause(
        "ids_carried",
        "every event carries an item id: the renderer gives each item its id and each "
        "payload event its item's item_id",
    ),
    EnvironmentClause(
        "snapshot_item_own_slot",
        "a snapshot item reaches the entry bound at its position or a new entry at a free "
        "one: rendered at a position another entry holds, the driver's matcher re-keys or "
        "refuses it (R6, proved over the matcher, not this encoding)",
    ),
    EnvironmentClause(
        "snapshot_items_dense",
        "the k-th snapshot item delivered has slot k: the renderer writes into a snapshot "
        "only items the driver takes, none it refuses (ENVIRONMENT allows k or more)",
    ),
)
"""Extra constraints for streams of ``function_call`` items (one channel per entry)."""

WIRE_TRIGGERS: tuple[Trigger, ...] = tuple(
    trigger
    for trigger in Trigger
    if trigger in {spec.trigger for spec in WIRE_EVENTS.values()}
    or trigger in ITEM_TRIGGERS
    or trigger in RESPONSE_WIDE_TRIGGERS
)
"""The triggers a wire event carries before reclassification: those of the catalogue's
item-scoped events, the item triggers and the response ends (not
``DELTA_ON_CLOSED_CHANNEL``, which only ``model.channels`` gives)."""

PROOF_CHANNELS = 2
"""Channels per entry in the proofs (a message with two parts); the renderable search has
one.  The proofs are bounded in channels as in entries: they cover entries of one or two
channels.  A channel's fields change only by an event naming it or by an item (which
treats every channel alike), so channels interact only through their entry's lifecycle
state, and two already show a part's ``*.done`` next to another part's events.  Most
invariants proved for any number of entries are also proved for any number of channels
(``any_channels.py``), where that argument is checked rather than assumed."""


def select(terms: Sequence[Term], index: Term) -> Term:
    """``terms[index]`` for a symbolic ``index``: an ``If`` chain (index assumed in range)."""
    result = terms[-1]
    for position in range(len(terms) - 2, -1, -1):
        result = z3.If(index == position, terms[position], result)
    return result


RowPredicate = Callable[[EntryState, Trigger, Transition], bool]
"""A test on one lifecycle row: its state, trigger and transition."""


class Encoding:
    """The transition system of one ``ModelTables`` at one ``Bounds``.

    Each entry has ``channels`` channels (their closed flags and parts always; their
    abstract values with ``payload``, without which the values never change).
    ``identity`` adds the abstract name of each entry; without it the names never change.
    """

    def __init__(
        self,
        tables: ModelTables,
        bounds: Bounds,
        payload: bool = False,
        identity: bool = False,
        channels: int = 1,
    ) -> None:
        self.tables = tables
        self.bounds = bounds
        self.payload = payload
        self.identity = identity
        self.channels = channels
        self.ops = Z3Ops(bounds.entries)
        self._slot_programs = self._programs(lambda e: e in SLOT_EFFECTS)
        self._payload_programs = self._programs(lambda e: e in PAYLOAD_EFFECTS)

    # -- variables ------------------------------------------------------------------

    def fresh_state(self, name: str) -> State:
        """A state of fresh variables, all named after ``name``."""
        counts = {
            "entry": self.bounds.entries,
            "channel": self.bounds.entries * self.channels,
            "slot": self.bounds.slots,
        }
        values: dict[str, Term] = {}
        for field_name, spec in _FIELDS.items():
            if spec.per == "response":
                values[field_name] = spec.make(f"{name}.{field_name}")
            else:
                values[field_name] = tuple(
                    spec.make(f"{name}.{field_name}{i}") for i in range(counts[spec.per])
                )
        return State(**values)

    def constant_state(self, concrete: ConcreteState) -> State:
        """The state ``concrete`` as Z3 constants."""
        values: dict[str, Term] = {}
        for field_name, spec in _FIELDS.items():
            value = getattr(concrete, field_name)
            if spec.per == "response":
                values[field_name] = spec.constant(value)
            else:
                values[field_name] = tuple(spec.constant(v) for v in value)
        return State(**values)

    def fresh_step(self, name: str) -> Step:
        """A step of fresh variables."""
        return Step(
            TRIGGER.var(f"{name}.trigger"),
            z3.Int(f"{name}.entry"),
            z3.Int(f"{name}.slot"),
            tuple(PAYLOAD.var(f"{name}.value{c}") for c in range(self.channels)),
            PAYLOAD.var(f"{name}.name"),
            z3.Int(f"{name}.channel"),
            TRIGGER.var(f"{name}.event"),
            z3.Bool(f"{name}.carries_id"),
        )

    def of_entry(self, terms: Sequence[Term], i: int) -> tuple[Term, ...]:
        """The terms of entry ``i``'s channels, from a per-channel field."""
        c = self.channels
        return tuple(terms[i * c : i * c + c])

    def named_channel(self, terms: Sequence[Term], step: Step) -> Term:
        """A per-channel field at the channel ``step`` names, of its target entry."""
        return select(terms, step.entry * self.channels + step.channel)

    def received(self, state: State, step: Step, trigger: Term) -> Term:
        """The trigger an entry receives for an event carrying ``trigger``: for
        ``CHANNEL_TRIGGERS`` the cell of ``tables.reclassification`` for the state of the
        channel the event names (``model.channels.channel_state``), else ``trigger``."""
        closed = self.named_channel(state.channel_closed, step)
        reclassified = lookup(
            self.tables.reclassification, trigger, channel_state(self.ops, closed)
        )
        return z3.If(TRIGGER.is_one_of(trigger, CHANNEL_TRIGGERS), reclassified, trigger)

    # -- the system ------------------------------------------------------------------

    def domain(self, state: State) -> Term:
        """The range of the integer variables (pitfall 2: no nonsense indices)."""
        m = self.bounds.slots
        return z3.And(
            *[z3.And(slot >= 0, slot < m) for slot in state.entry_slot],
            state.snapshot_items >= 0,
            state.snapshot_items <= m,
        )

    def initial(self, state: State) -> Term:
        """The state before the first event of a response."""
        return z3.And(
            [
                _FIELDS[name].initial(term)
                for name, term in _named_components(state)
            ]
        )

    def environment_clauses(self, state: State, step: Step) -> dict[str, Term]:
        """Each ``ENVIRONMENT`` clause for ``step`` taken in ``state``, by name."""
        n, m = self.bounds.entries, self.bounds.slots
        absent = ENTRY[EntryState.ABSENT]
        target = select(state.entry_state, step.entry)
        trigger_is = TRIGGER.is_one_of
        in_order = [
            z3.Implies(
                z3.And(step.entry == i, state.entry_state[i] == absent),
                z3.And([state.entry_state[j] != absent for j in range(i)]),
            )
            for i in range(n)
        ]
        snapshot_item = step.trigger == TRIGGER[Trigger.SNAPSHOT_ITEM]
        delta = step.event == TRIGGER[Trigger.DELTA]
        value = select(step.values, step.channel)
        clauses = {
            "in_range": z3.And(
                step.entry >= 0,
                step.entry < n,
                step.slot >= 0,
                step.slot < m,
                step.channel >= 0,
                step.channel < self.channels,
            ),
            "routed_only_to_admitted": z3.Implies(
                trigger_is(step.trigger, ROUTED_TRIGGERS), target != absent
            ),
            "admission_in_order": z3.And(in_order),
            "wire_trigger": TRIGGER.is_one_of(step.event, WIRE_TRIGGERS),
            "channel_reclassified": step.trigger == self.received(state, step, step.event),
            "event_carries_entry_slot": z3.Implies(
                z3.And(target != absent, z3.Not(snapshot_item)),
                step.slot == select(state.entry_slot, step.entry),
            ),
            "snapshot_in_array_order": z3.Implies(
                snapshot_item, step.slot >= state.snapshot_items
            ),
            "snapshot_is_one_event": z3.Implies(
                z3.And(state.snapshot_items > 0, z3.Not(state.terminal)),
                trigger_is(step.trigger, (Trigger.SNAPSHOT_ITEM, *RESPONSE_WIDE_TRIGGERS)),
            ),
            "deltas_only_grow": z3.Implies(
                delta,
                z3.And(
                    value != PAYLOAD[Payload.MISSING],
                    z3.Not(
                        z3.And(
                            self.named_channel(state.pending, step) == PAYLOAD[Payload.B],
                            value == PAYLOAD[Payload.A],
                        )
                    ),
                ),
            ),
        }
        assert tuple(clauses) == tuple(clause.name for clause in ENVIRONMENT)
        return clauses

    def renderable_clauses(self, state: State, step: Step) -> dict[str, Term]:
        """Each ``RENDERABLE`` clause, by name."""
        clauses = {
            "function_call_triggers": z3.And(
                TRIGGER.is_one_of(step.trigger, RENDERABLE_TRIGGERS),
                TRIGGER.is_one_of(step.event, RENDERABLE_TRIGGERS),
            ),
            "snapshot_ends_completed": z3.Implies(
                state.snapshot_items > 0, step.trigger != TRIGGER[Trigger.RESPONSE_ABORTED]
            ),
            "single_channel": step.channel == 0,
            "ids_carried": step.carries_id,
            "snapshot_item_own_slot": z3.Implies(
                step.trigger == TRIGGER[Trigger.SNAPSHOT_ITEM],
                z3.Or(
                    # Without slots in the state (no slot table read) nothing is bound.
                    select(state.slot_state, step.slot) == SLOT[SlotState.FREE]
                    if state.slot_state
                    else z3.BoolVal(True),
                    *[
                        z3.And(
                            step.entry == i,
                            state.entry_state[i] != ENTRY[EntryState.ABSENT],
                            state.entry_slot[i] == step.slot,
                        )
                        for i in range(self.bounds.entries)
                    ],
                ),
            ),
            "snapshot_items_dense": z3.Implies(
                step.trigger == TRIGGER[Trigger.SNAPSHOT_ITEM],
                step.slot == state.snapshot_items,
            ),
        }
        assert tuple(clauses) == tuple(clause.name for clause in RENDERABLE)
        return clauses

    def environment(self, state: State, step: Step, renderable: bool = False) -> Term:
        """All environment assumptions; with ``renderable`` also ``RENDERABLE``."""
        clauses = list(self.environment_clauses(state, step).values())
        if renderable:
            clauses.extend(self.renderable_clauses(state, step).values())
        return z3.And(clauses)

    def delivers(self, state: State, step: Step, i: int) -> Term:
        """``step`` reaches entry ``i``: its target, or for a response-wide trigger each
        admitted entry the snapshot did not reach (the driver's ``_reconcile_snapshot``
        ends exactly those, whether the response completed or not); nothing after a
        terminal event."""
        admitted = state.entry_state[i] != ENTRY[EntryState.ABSENT]
        return z3.And(
            z3.Not(state.terminal),
            z3.If(
                TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS),
                z3.And(admitted, z3.Not(state.in_snapshot[i])),
                step.entry == i,
            ),
        )

    def successor(self, state: State, step: Step) -> State:
        """The state after ``step``, as functional terms over ``state`` and ``step``."""
        current = state
        # Entries are updated one after the other, as the driver does for a
        # response-wide trigger; for an entry-scoped one only the target is reached.
        for i in range(self.bounds.entries):
            current = self._apply(current, step, i, self.delivers(state, step, i))
        live = z3.Not(state.terminal)
        snapshot_item = z3.And(live, step.trigger == TRIGGER[Trigger.SNAPSHOT_ITEM])
        still_absent = select(current.entry_state, step.entry) == ENTRY[EntryState.ABSENT]
        dropped = z3.And(snapshot_item, still_absent)
        # A done item the lifecycle does not admit is lost just as a snapshot item is
        # (nothing_lost covers done-only items too): a ghost of the event, not an effect.
        done_lost = z3.And(live, step.trigger == TRIGGER[Trigger.ITEM_DONE], still_absent)
        return replace(
            current,
            snapshot_items=z3.If(snapshot_item, state.snapshot_items + 1, state.snapshot_items),
            snapshot_dropped=z3.Or(state.snapshot_dropped, dropped),
            done_dropped=z3.Or(state.done_dropped, done_lost),
            completed=z3.Or(
                state.completed,
                z3.And(live, step.trigger == TRIGGER[Trigger.RESPONSE_COMPLETED]),
            ),
            terminal=z3.Or(state.terminal, TRIGGER.is_one_of(step.trigger, RESPONSE_WIDE_TRIGGERS)),
        )

    def equal(self, left: State, right: State) -> Term:
        """Every component of ``left`` equals the one of ``right``."""
        pairs = zip(_named_components(left), _named_components(right), strict=True)
        return z3.And([a == b for (_, a), (_, b) in pairs])

    def canonical_order(
        self, first: State, steps: list[Step]
    ) -> list[tuple[Term, list[Term]]]:
        """The terms a canonical run minimises, in order, with the values each may take."""
        entries = [z3.IntVal(i) for i in range(self.bounds.entries)]
        order: list[tuple[Term, list[Term]]] = [
            (slot, [z3.IntVal(0)]) for slot in first.entry_slot
        ]
        for step in steps:
            order.append((step.trigger, [TRIGGER[t] for t in Trigger]))
            order.append((step.event, [TRIGGER[t] for t in Trigger]))
            order.append((step.entry, entries))
            order.append((step.slot, [z3.IntVal(s) for s in range(self.bounds.slots)]))
            order.append((step.channel, [z3.IntVal(c) for c in range(self.channels)]))
            order.append((step.carries_id, [z3.BoolVal(True), z3.BoolVal(False)]))
            order.extend((value, [PAYLOAD[v] for v in Payload]) for value in step.values)
            if self.identity:
                order.append((step.name, [PAYLOAD[v] for v in Payload]))
        return order

    # -- reading models ---------------------------------------------------------------

    def read_state(self, model: z3.ModelRef, state: State) -> ConcreteState:
        """The concrete values ``model`` gives ``state``."""
        values: dict[str, Any] = {}
        for field_name, spec in _FIELDS.items():
            term = getattr(state, field_name)
            if spec.per == "response":
                values[field_name] = spec.read(model, term)
            else:
                values[field_name] = tuple(spec.read(model, t) for t in term)
        return ConcreteState(**values)

    def read_step(self, model: z3.ModelRef, step: Step) -> ConcreteStep:
        """The concrete values ``model`` gives ``step``."""
        trigger, event = TRIGGER.read(model, step.trigger), TRIGGER.read(model, step.event)
        return ConcreteStep(
            trigger,
            _int(model, step.entry),
            _int(model, step.slot),
            tuple(PAYLOAD.read(model, v) for v in step.values) if self.payload else None,
            PAYLOAD.read(model, step.name) if self.identity else None,
            _int(model, step.channel),
            None if event is trigger else event,
            _bool(model, step.carries_id),
        )

    # -- the tables as formulas -------------------------------------------------------

    def rows_where(self, entry_state: Term, trigger: Term, predicate: RowPredicate) -> Term:
        """``(entry_state, trigger)`` is a lifecycle row satisfying ``predicate`` (a
        disjunction over the table, grouped by state)."""
        disjuncts = []
        for state, row in self.tables.lifecycle.items():
            triggers = [trig for trig, move in row.items() if predicate(state, trig, move)]
            if triggers:
                disjuncts.append(
                    z3.And(entry_state == ENTRY[state], TRIGGER.is_one_of(trigger, triggers))
                )
        return z3.Or(disjuncts)

    def has_effect(self, entry_state: Term, trigger: Term, effect: Effect) -> Term:
        """The row of ``(entry_state, trigger)`` carries ``effect``."""
        return self.rows_where(entry_state, trigger, lambda s, t, move: effect in move.effects)

    def next_entry_state(self, entry_state: Term, trigger: Term) -> Term:
        """The lifecycle table's next state, as an ``If`` chain over its rows."""
        result = entry_state
        for state, row in self.tables.lifecycle.items():
            column = entry_state
            for trig, transition in row.items():
                column = z3.If(trigger == TRIGGER[trig], ENTRY[transition.next_state], column)
            result = z3.If(entry_state == ENTRY[state], column, result)
        return result

    def next_slot_state(self, slot_state: Term, slot_trigger: SlotTrigger) -> Term:
        """The slot table's next state for ``slot_trigger``, as an ``If`` chain."""
        result = slot_state
        for state, row in self.tables.slots.items():
            result = z3.If(slot_state == SLOT[state], SLOT[row[slot_trigger].next_state], result)
        return result

    def takes(self, held: Term, offer: Term) -> Term:
        """The payload table decides TAKE for ``offer`` made to a channel holding
        ``held``: the cell is ``model.payload.payload_key``, the function the driver runs."""
        held_view, relation = payload_key(self.ops, held, offer)
        return lookup(
            self.tables.payload,
            held_view,
            relation,
            project=lambda decision: decision.action is PayloadAction.TAKE,
        )

    def name_relation(self, held: Term, brought: Term) -> Term:
        """The ``IdentityRelation`` of a name ``brought`` to the ``held`` one, as
        ``merge_item`` computes it (``model.admission.identity_relation``)."""
        return identity_relation(self.ops, held, brought, z3.BoolVal(False))

    def merged_name(self, held: Term, brought: Term) -> Term:
        """The name an entry holds after an item bringing ``brought`` is merged into
        it: ``model.admission.identity_relation`` picks the cell of ``tables.identity``
        (the ``name`` field, merged at the ``FIXED`` stage: the lifecycle encoding has no
        matcher), and taking a blank leaves no name, as the driver's ``None``."""
        relation = self.name_relation(held, brought)
        take = lookup(
            self.tables.identity[IdentityField.NAME][MergeStage.FIXED],
            relation,
            project=lambda decision: decision.action is PayloadAction.TAKE,
        )
        taken = z3.If(PAYLOAD.is_one_of(brought, NONEMPTY), brought, PAYLOAD[Payload.MISSING])
        return z3.If(take, taken, held)

    # -- diagnostics ------------------------------------------------------------------

    def raised_by(self, state: State, step: Step, i: int) -> dict[Code, Term]:
        """The codes ``step`` raises through entry ``i`` (a ghost of the step): its
        row's note effects (``tables.note_codes``: ``model.vocabulary.NOTE_CODES``) and,
        when the row admits
        the entry and binds its slot, the slot table's code for the event's slot."""
        before = state.entry_state[i]
        reached = self.delivers(state, step, i)
        # Every code has an entry (false where no cell raises it), so that a formula may
        # ask about a code a mutant no longer raises anywhere.
        codes: dict[Code, list[Term]] = {code: [] for code in Code}
        for effect, code in self.tables.note_codes.items():
            if code is not None:
                codes.setdefault(code, []).append(self.has_effect(before, step.trigger, effect))
        binds = z3.And(
            before == ENTRY[EntryState.ABSENT],
            self.has_effect(before, step.trigger, Effect.BIND_SLOT),
        )
        slot_state = select(state.slot_state, step.slot) if state.slot_state else None
        for slot, row in self.tables.slots.items():
            slot_code = row[SlotTrigger.BIND].code
            if slot_code is not None and slot_state is not None:
                codes.setdefault(slot_code, []).append(z3.And(binds, slot_state == SLOT[slot]))
        return {
            code: z3.And(reached, z3.Or(terms)) if terms else z3.BoolVal(False)
            for code, terms in codes.items()
        }

    # -- one entry --------------------------------------------------------------------

    def _programs(
        self, selected: Callable[[Effect], bool]
    ) -> dict[tuple[Effect, ...], list[tuple[EntryState, Trigger]]]:
        """The rows grouped by the sequence of ``selected`` effects they carry, in order."""
        programs: dict[tuple[Effect, ...], list[tuple[EntryState, Trigger]]] = {}
        for state, row in self.tables.lifecycle.items():
            for trigger, transition in row.items():
                program = tuple(e for e in transition.effects if selected(e))
                if program:
                    programs.setdefault(program, []).append((state, trigger))
        return programs

    def _apply(self, state: State, step: Step, i: int, active: Term) -> State:
        """Deliver ``step.trigger`` to entry ``i`` when ``active`` holds."""
        before, trigger = state.entry_state[i], step.trigger

        def flag(effect: Effect) -> Term:
            return z3.And(active, self.has_effect(before, trigger, effect))

        def chosen(rows: list[tuple[EntryState, Trigger]]) -> Term:
            cells = [z3.And(before == ENTRY[s], trigger == TRIGGER[t]) for s, t in rows]
            return z3.And(active, z3.Or(cells))

        entry_slot, slot_state = state.entry_slot[i], state.slot_state
        for program, rows in self._slot_programs.items():
            moved_slot, moved_slots = self._run_slot_program(program, state, i, step.slot)
            picked = chosen(rows)
            entry_slot = z3.If(picked, moved_slot, entry_slot)
            slot_state = tuple(
                z3.If(picked, new, old) for new, old in zip(moved_slots, slot_state, strict=True)
            )
        # The row's next state, built once: the ghosts below ask whether the entry belongs
        # to the event (it is admitted after the step).
        next_state = self.next_entry_state(before, trigger)
        admitted_after = next_state != ENTRY[EntryState.ABSENT]
        channels = [
            self._apply_channel(state, step, i, c, active, admitted_after)
            for c in range(self.channels)
        ]
        name = state.name[i]
        name_brought = state.name_brought[i]
        if self.identity:
            name = z3.If(flag(Effect.MERGE_ITEM), self.merged_name(name, step.name), name)
            name_brought = z3.Or(
                name_brought,
                z3.And(
                    active,
                    PAYLOAD.is_one_of(step.name, NONEMPTY),
                    z3.Or(
                        [
                            z3.And(trigger == TRIGGER[t], ENTRY.is_one_of(before, states))
                            for t, states in NAMING_ITEMS.items()
                        ]
                    ),
                ),
            )
        seen = z3.And(active, TRIGGER.is_one_of(trigger, CONFIRMING_TRIGGERS))
        # Ghosts of the wire event (completeness), whatever trigger the entry receives:
        # a done item that reached the entry while it was absent or open (and belongs to
        # it), and a delta that reached it open.
        own = z3.And(active, step.entry == i)
        item_done = z3.And(
            own,
            step.event == TRIGGER[Trigger.ITEM_DONE],
            ENTRY.is_one_of(before, (EntryState.ABSENT, *OPEN_STATES)),
            admitted_after,
        )
        delta = z3.And(
            own, step.event == TRIGGER[Trigger.DELTA], ENTRY.is_one_of(before, OPEN_STATES)
        )
        # An item id the event brings to the entry (R4): the item that admits, confirms
        # or reconciles it (``NAMING_ITEMS``), or a payload event that is not late (not a
        # delta to a closed channel); the effects that must name the entry by it.
        late_delta = z3.And(
            step.event == TRIGGER[Trigger.DELTA],
            select(self.of_entry(state.channel_closed, i), step.channel),
        )
        id_brought = z3.And(
            own,
            step.carries_id,
            z3.Or(
                *[
                    z3.And(step.event == TRIGGER[t], ENTRY.is_one_of(before, states))
                    for t, states in NAMING_ITEMS.items()
                ],
                z3.And(
                    TRIGGER.is_one_of(step.event, ROUTED_TRIGGERS),
                    ENTRY.is_one_of(before, OPEN_STATES),
                    z3.Not(late_delta),
                ),
            ),
        )
        id_named = z3.And(
            step.carries_id, z3.Or(flag(Effect.MERGE_ITEM), flag(Effect.LEARN_ITEM_ID))
        )
        first = i * self.channels
        per_channel = {
            field_name: _put_all(
                getattr(state, field_name), first, [channel[field_name] for channel in channels]
            )
            for field_name in _CHANNEL_FIELDS
        }
        return replace(
            state,
            entry_state=_put(
                state.entry_state, i, z3.If(active, next_state, before)
            ),
            entry_slot=_put(state.entry_slot, i, entry_slot),
            completions=_put(
                state.completions,
                i,
                z3.If(flag(Effect.EMIT_COMPLETION), state.completions[i] + 1, state.completions[i]),
            ),
            admissions=_put(
                state.admissions,
                i,
                z3.If(flag(Effect.ADMIT), state.admissions[i] + 1, state.admissions[i]),
            ),
            confirmed=_put(state.confirmed, i, z3.Or(state.confirmed[i], flag(Effect.CONFIRM))),
            confirming_seen=_put(state.confirming_seen, i, z3.Or(state.confirming_seen[i], seen)),
            in_snapshot=_put(
                state.in_snapshot,
                i,
                z3.Or(
                    state.in_snapshot[i],
                    z3.And(active, trigger == TRIGGER[Trigger.SNAPSHOT_ITEM]),
                ),
            ),
            name=_put(state.name, i, name),
            name_brought=_put(state.name_brought, i, name_brought),
            item_done_seen=_put(state.item_done_seen, i, z3.Or(state.item_done_seen[i], item_done)),
            streamed=_put(state.streamed, i, z3.Or(state.streamed[i], delta)),
            id_brought=_put(state.id_brought, i, z3.Or(state.id_brought[i], id_brought)),
            id_named=_put(state.id_named, i, z3.Or(state.id_named[i], id_named)),
            slot_state=slot_state,
            **per_channel,
        )

    def _apply_channel(
        self, state: State, step: Step, i: int, c: int, active: Term, admitted_after: Term
    ) -> dict[str, Term]:
        """The fields of channel ``c`` of entry ``i`` after ``step`` (when ``active``;
        ``admitted_after``: the entry's row leaves it admitted).

        The effects of a row that name a channel (``APPEND_DELTA``, ``OFFER_PAYLOAD``,
        ``CLOSE_CHANNEL``, ``OPEN_PART``) act on the channel the event names only;
        ``OFFER_ITEM_PAYLOADS`` offers each channel the item's value for it.
        """
        before, trigger = state.entry_state[i], step.trigger
        k = i * self.channels + c
        # Only an event that names a channel reaches one (the driver passes no channel
        # for an item or a response end: their rows' channel effects do nothing).
        named = z3.And(
            active,
            step.entry == i,
            step.channel == c,
            TRIGGER.is_one_of(step.event, CHANNEL_TRIGGERS),
        )
        value = step.values[c]

        def flag(effect: Effect) -> Term:
            return z3.And(named, self.has_effect(before, trigger, effect))

        held, pending, last = state.held[k], state.pending[k], state.last_offered[k]
        delta_seen, brought = state.delta_seen[k], state.brought[k]
        if self.payload:
            for program, rows in self._payload_programs.items():
                cells = [z3.And(before == ENTRY[s], trigger == TRIGGER[t]) for s, t in rows]
                picked = z3.And(active, z3.Or(cells))
                new = self._run_payload_program(program, (held, pending, last), value, named)
                held, pending, last = (
                    z3.If(picked, n, o) for n, o in zip(new, (held, pending, last), strict=True)
                )
            # The snapshot is reconciliation, not a late event (R3): the first snapshot
            # item that reaches an entry is an offer whether or not its row offers it,
            # so a row that skips the snapshot (AxonHub's bug) is caught, as the driver's
            # ghost does.  An item no row admits belongs to no entry (nothing_lost's
            # concern, not the payload invariants').
            arrives = z3.And(
                active,
                trigger == TRIGGER[Trigger.SNAPSHOT_ITEM],
                z3.Not(state.in_snapshot[i]),
                admitted_after,
                PAYLOAD.is_one_of(value, NONEMPTY),
            )
            last = z3.If(arrives, value, last)
            # Ghost of the event (completeness): the last non-empty delta that reached
            # an open channel of an open entry, whether or not a row appends it.
            delta_arrives = z3.And(
                named,
                step.event == TRIGGER[Trigger.DELTA],
                z3.Not(state.channel_closed[k]),
                ENTRY.is_one_of(before, OPEN_STATES),
                PAYLOAD.is_one_of(value, NONEMPTY),
            )
            delta_seen = z3.If(delta_arrives, value, delta_seen)
            # Ghost of the events (completeness): the last non-empty value an event
            # brought to this channel — a delta (the joined text) to an open channel, a
            # *.done of this channel or a done item reaching its open entry (or admitting
            # it), the first snapshot item — whether or not a row offers it.
            done_brings = z3.And(
                named,
                step.event == TRIGGER[Trigger.PAYLOAD_DONE],
                ENTRY.is_one_of(before, OPEN_STATES),
            )
            item_brings = z3.And(
                active,
                step.entry == i,
                step.event == TRIGGER[Trigger.ITEM_DONE],
                ENTRY.is_one_of(before, (EntryState.ABSENT, *OPEN_STATES)),
                admitted_after,
            )
            snapshot_brings = z3.And(
                active,
                step.entry == i,
                step.event == TRIGGER[Trigger.SNAPSHOT_ITEM],
                z3.Not(state.in_snapshot[i]),
                admitted_after,
            )
            brings = z3.And(
                z3.Or(delta_arrives, done_brings, item_brings, snapshot_brings),
                PAYLOAD.is_one_of(value, NONEMPTY),
            )
            brought = z3.If(brings, value, brought)
        # Parts (R7): a content_part.added that reaches an open entry announces its part
        # (a ghost of the event); OPEN_PART is what keeps the part's fields.  A *.done
        # that reaches an open entry is due to close its own channel.
        reaches_open = z3.And(named, ENTRY.is_one_of(before, OPEN_STATES))
        part_arrives = z3.And(reaches_open, step.event == TRIGGER[Trigger.PART_ADDED])
        done_arrives = z3.And(reaches_open, step.event == TRIGGER[Trigger.PAYLOAD_DONE])
        return {
            "channel_closed": z3.Or(state.channel_closed[k], flag(Effect.CLOSE_CHANNEL)),
            "held": held,
            "pending": pending,
            "last_offered": last,
            "delta_seen": delta_seen,
            "brought": brought,
            "parts_announced": z3.If(
                part_arrives, state.parts_announced[k] + 1, state.parts_announced[k]
            ),
            "parts_opened": z3.If(
                flag(Effect.OPEN_PART), state.parts_opened[k] + 1, state.parts_opened[k]
            ),
            "done_seen": z3.Or(state.done_seen[k], done_arrives),
        }

    def _run_slot_program(
        self, program: tuple[Effect, ...], state: State, i: int, event_slot: Term
    ) -> tuple[Term, tuple[Term, ...]]:
        """Run the slot moves of one row: ``BIND_SLOT`` binds the event's slot when the
        entry is being admitted (the driver creates it with that slot), its own slot
        otherwise; ``TOMBSTONE_SLOT`` tombstones the entry's slot."""
        admitting = state.entry_state[i] == ENTRY[EntryState.ABSENT]
        entry_slot, slot_state = state.entry_slot[i], state.slot_state
        for effect in program:
            move = SLOT_EFFECTS[effect]
            if move is SlotTrigger.BIND:
                entry_slot = z3.If(admitting, event_slot, entry_slot)
            slot_state = tuple(
                z3.If(entry_slot == s, self.next_slot_state(old, move), old)
                for s, old in enumerate(slot_state)
            )
        return entry_slot, slot_state

    def _run_payload_program(
        self,
        program: tuple[Effect, ...],
        channel: tuple[Term, Term, Term],
        value: Term,
        named: Term,
    ) -> tuple[Term, Term, Term]:
        """Run the payload effects of one row on ``(held, pending, last)`` of one
        channel; ``named`` says the event names this channel (``APPEND_DELTA`` and
        ``OFFER_PAYLOAD`` act on that channel only)."""
        missing = PAYLOAD[Payload.MISSING]
        for effect in program:
            held, pending, last = channel
            if effect is Effect.APPEND_DELTA:
                # An empty delta is ignored; otherwise ``value`` is the joined deltas.
                appended = z3.And(named, value != PAYLOAD[Payload.EMPTY])
                channel = (held, z3.If(appended, value, pending), last)
                continue
            # As the driver's ``offer``: the pending deltas are offered first, as one
            # offer, then the value.
            flushed_held, flushed_last = self._offer(held, last, pending)
            has_pending = pending != missing
            held_1 = z3.If(has_pending, flushed_held, held)
            last_1 = z3.If(has_pending, flushed_last, last)
            offered_held, offered_last = self._offer(held_1, last_1, value)
            if effect is Effect.OFFER_ITEM_PAYLOADS:
                # An item without the field offers nothing, and flushes nothing.
                skip = value == missing
                channel = (
                    z3.If(skip, held, offered_held),
                    z3.If(skip, pending, missing),
                    z3.If(skip, last, offered_last),
                )
            else:
                channel = (
                    z3.If(named, offered_held, held),
                    z3.If(named, missing, pending),
                    z3.If(named, offered_last, last),
                )
        return channel

    def _offer(self, held: Term, last: Term, offer: Term) -> tuple[Term, Term]:
        """One offer made to a channel: the new held value and last offer."""
        take = self.takes(held, offer)
        return (
            z3.If(take, offer, held),
            z3.If(PAYLOAD.is_one_of(offer, NONEMPTY), offer, last),
        )


def _put(terms: tuple[Term, ...], index: int, value: Term) -> tuple[Term, ...]:
    return (*terms[:index], value, *terms[index + 1 :])


def _put_all(terms: tuple[Term, ...], first: int, values: list[Term]) -> tuple[Term, ...]:
    return (*terms[:first], *values, *terms[first + len(values) :])


_CHANNEL_FIELDS: tuple[str, ...] = tuple(
    name for name, scope in FIELD_SCOPES.items() if scope == "channel"
)


def _named_components(state: State) -> list[tuple[str, Term]]:
    named: list[tuple[str, Term]] = []
    for field_name, spec in _FIELDS.items():
        term = getattr(state, field_name)
        if spec.per == "response":
            named.append((field_name, term))
        else:
            named.extend((field_name, t) for t in term)
    return named
