"""The driver refines the model: every step the reducer takes is a step of the encoding.

A proof covers the encoding; the reducer is other code.  ``conformance.replay`` checks
the other direction (the reducer follows a trace the encoding chose).  This module
checks the direction that matters for a driver edit: run the *reducer* on any stream,
abstract each of its steps, and ask Z3 whether the encoding allows that step under the
``ENVIRONMENT`` assumptions.  If it does for every event of every stream, everything
proved of the encoding holds of the reducer's runs on those streams; a driver edit the
model forbids — in whichever file of ``impl/core`` — fails here.

Theory of operation
-------------------
*Independent of the driver.*  The driver is reached only through its read-only view
(``responses_oracle.core.view``: ``DriverRun`` feeds one response to the reducer's
traced step and, on a twin state, to its fast path -- the ``advancer`` ``Reducer``
runs -- whose state must equal the traced one after every event; ``DriverView``
copies out what the abstraction reads); nothing else of
``impl/core`` is imported, and what each step owes comes from ``model/``: the codes of
the rows taken (``tables.note_codes``, ``tables.resume_waived``), the ending
(``terminal_status``, ``amendable``, ``UNENDED``), the sequence state
(``model.responses.next_sequence``: the last number taken after every event, and the
gap or regression it owes) and the events a resumed response holds (the routing
table's ``orphan_event`` held in arrival order, compared after every event, released
at the end by ``held_attaches``).  An event's keys are read as the wire catalogue says,
not by the driver's parser.

*Observing.*  The reducer's core runs with the model's kernels wrapped so that each
call of the lifecycle kernel is recorded: ``(state, trigger)`` is exactly one lifecycle
step the driver takes (``effects.deliver`` is the one way an entry moves).  Around each
event the driver's state is abstracted (``observe``): per entry its lifecycle state,
slot, completions, confirmed, whether the snapshot reached it and how many of its
channels are closed (the encoding has as many channels per entry as the driver's widest
entry; which stands for which is left to Z3); per slot its state; whether the response
is terminal and completed.

*Abstract steps.*  One wire event is zero or more encoding steps, in the order the
driver took them: one per recorded lifecycle call, except that the per-entry calls of
a response-wide trigger are one encoding step (the encoding delivers it to every entry
at once), and a terminal event that reached no entry is still one response-wide step
(it makes the response terminal).  The target entry and the event's slot of each step
are left to Z3; the trigger is the recorded one and the target's state before the step
the recorded state.

*The check* (``Refinement.check``) is one satisfiability query per event, over an
unrolling of the encoding from the model's abstract state before the event (the
previous answer, ghosts included): the steps' triggers as recorded, every
``ENVIRONMENT`` clause on every step, and the observed state after the last step.
Unsatisfiable: the event is a ``Violation``; the query is then asked again without the
environment to say whether the step is outside the transition relation or outside the
environment.  Satisfiable: the model's state after is the next abstract state.

*Matching* (R6).  The lifecycle encoding has no ids, so a driver that delivers a done
item to the wrong entry could still take an allowed step.  For ``output_item.added``
and ``output_item.done`` the expected target is therefore computed by the model's own
classifiers (``added_view``, ``match_view``, ``fit_key``) over facts read off the
driver's state before the event, decided by the model's tables read directly
(``interpreter.table_kernels``, not the kernels the driver runs), and the step's target
is fixed to it: the matched entry, the next ordinal for an admission, or no step for a
rejection.  Snapshot items are matched against intermediate states the driver does not
expose, so only their lifecycle steps are checked.

*Beside the abstraction* (``driver_steps``), each event's own obligations are checked
on the driver's view, each computed from ``model/`` or the wire catalogue: the reports
it owes, counted exactly (its ``invalid_field`` fields, its rows' notes, its slot
bindings' codes, its identity and payload cells' codes, the ending's, ``id_minted``
and ``call_withheld`` at the end); a done item's merged fields and each channel it
offers (the payload table over ``payload_key``); the channel a payload event writes;
and the fast path's state, equal to the traced step's.

Entries whose slot the driver never learned are bound, in the abstraction, to one
extra slot that nothing observes, so that the encoding (where every entry has a slot)
can follow them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3
from responses_oracle.core.view import DriverRun, DriverView, EntryFacts, SlotFacts
from responses_oracle.model.admission import (
    MatchFacts,
    added_view,
    fit_key,
    identity_relation,
    match_view,
)
from responses_oracle.model.annotations import ADDITION_TYPES, PartMerge, position_view
from responses_oracle.model.catalogue import (
    ITEM_TYPES,
    MAX_INDEX,
    PART_CHANNELS,
    PART_VALUE_FIELDS,
    STRAY_ITEM_FIELDS,
    TERMINALS,
    UNKNOWN_ITEM_TYPE,
    WIRE_EVENTS,
    ChannelKind,
    ChannelLocation,
    EventClass,
)
from responses_oracle.model.channels import channel_state
from responses_oracle.model.execution import (
    CLIENT_CALLS,
    EXECUTABLE,
    LOADED_TOOLS,
    CallFacts,
    Execution,
    answered_ordinals,
    decide_by,
    declared_tools,
)
from responses_oracle.model.interpreter import table_kernels
from responses_oracle.model.invariants import INVARIANTS_BY_NAME
from responses_oracle.model.lifecycle import OPEN_STATES, Transition
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.payload import payload_key, realigned_parts
from responses_oracle.model.responses import UNENDED, held_attaches, next_sequence, resumes
from responses_oracle.model.routing import route_target, route_views
from responses_oracle.model.tables import REFERENCE, KernelSet, ModelTables
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    RESPONSE_WIDE_TRIGGERS,
    AdmissionAction,
    Code,
    Effect,
    EntryState,
    Fit,
    IdentityField,
    PayloadAction,
    ResponseStatus,
    SlotState,
    SlotTrigger,
    Trigger,
)

from .encoding import (
    ENTRY,
    SLOT,
    TRIGGER,
    Bounds,
    ConcreteState,
    Encoding,
    State,
    Step,
    Term,
)
from .induction import new_solver

STARTING_EVENT = "response.created"
"""The event that starts a new response of a stream (as the reducer splits them)."""


@dataclass(frozen=True)
class EntryView:
    """One driver entry as the abstraction sees it."""

    state: EntryState
    slot: int | None
    completions: int
    confirmed: bool
    in_snapshot: bool
    closed_channels: int
    channels: int


@dataclass(frozen=True)
class Observation:
    """The driver's state, abstracted to what the encoding has."""

    entries: tuple[EntryView, ...]
    slots: tuple[tuple[int, SlotState | None], ...]
    terminal: bool
    completed: bool


@dataclass(frozen=True)
class Expected:
    """Where the model says an item or a payload event goes: ``target`` (an ordinal; the
    next one for an admission), or nowhere (``None``: the item is rejected, the event
    routed to no entry).

    ``required``: the driver must take a step on the target (an item; a payload event
    may still be refused by its channel, ``channel_mismatch``).  ``identity``: the
    identity fields the target holds after the event, where its row merges the item
    (R6, ``IDENTITY`` over ``identity_relation``).  ``item_id``: a payload event's id,
    which names the target after the event where its row carries ``LEARN_ITEM_ID`` (R4).
    """

    target: int | None
    required: bool = True
    identity: tuple[tuple[IdentityField, str | None], ...] = ()
    item_id: str | None = None
    """A payload event's ``item_id``: it names the target after a row that learns it."""
    orphan: tuple[int | None, str | None] | None = None
    """A payload event the routing table sends to no entry with ``orphan_event``: its
    ``(output_index, item_id)``, which a resumed response holds until its end (R14)."""
    code: Code | None = None
    """The code the item's admission cell raises (R6: ``duplicate_call_id``,
    ``ambiguous_route``, ``snapshot_rekeyed``)."""
    wire_id: str | None = None
    """The item's wire ``id``: it names the entry the item reaches after the event."""
    route_code: Code | None = None
    """A payload or progress event's routing cell's code (R5)."""
    identity_codes: tuple[Code, ...] | None = None
    """The codes the identity table's cells for the item's fields raise (R6), where its
    row merges it; None for an event that merges no item."""


@dataclass(frozen=True)
class DriverStep:
    """What the driver did with one event: the lifecycle calls, and the state after."""

    index: int
    type: str
    calls: tuple[tuple[EntryState, Trigger], ...]
    expected: Expected | None
    before: Observation
    after: Observation
    problems: tuple[str, ...] = ()
    positions: int = 0
    """How many items the terminal's snapshot (``response.output``) holds: its items
    sit at positions 0 to ``positions - 1``, some of them slots of the step."""


@dataclass(frozen=True)
class Violation:
    """An event whose driver step the encoding does not allow."""

    index: int
    type: str
    reason: str
    calls: tuple[tuple[EntryState, Trigger], ...]


def observe(view: DriverView, slotless: frozenset[int] = frozenset()) -> Observation:
    """The abstraction of the driver's state.

    ``slotless`` are the entries admitted without a slot: the driver fills a missing
    slot from a later done item (``admit.on_item``), a decision the model does not make
    (R6 in the driver), so such an entry stays at the unobserved slot and a slot such
    an entry was bound to is not observed (``None``).
    """
    return Observation(
        tuple(
            EntryView(
                entry.state,
                None if entry.ordinal in slotless else entry.slot,
                entry.completions,
                entry.confirmed,
                entry.in_snapshot,
                sum(closed for _, _, closed in entry.channels),
                len(entry.channels),
            )
            for entry in view.entries
        ),
        tuple(
            (index, None if slotless.intersection(slot.entries) else slot.state)
            for index, slot in view.slots
        ),
        view.terminal,
        view.status is ResponseStatus.COMPLETED,
    )


def _kind(item_type: Any) -> Any:
    return ITEM_TYPES.get(item_type, UNKNOWN_ITEM_TYPE).kind


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class _Facts:
    """The facts the model's R6 classifiers read, taken from the driver's view (its ids,
    ``call_id`` bindings, slots and entries), never from its matching code."""

    def __init__(self, view: DriverView) -> None:
        self.view = view
        self.entries = view.entries

    def named(self, item_id: str | None) -> Sequence[int]:
        return self.view.named(item_id)

    def holder(self, item_type: Any, call_id: str | None) -> Sequence[int]:
        return self.view.holder(_kind(item_type), call_id)

    def same_type(self, item_type: Any) -> Callable[[int], bool]:
        return lambda o: self.entries[o].item_type == item_type


def expected_target(
    driver: DriverView, payload: Mapping[str, Any], tables: ModelTables, snapshot: bool = False
) -> Expected | None:
    """The model's decision for an ``output_item.added`` or ``output_item.done`` in the
    driver's state before it, read through its view ``driver`` (None for any other event, or
    an item with no type); with ``snapshot``, the ``output_item.done`` stands for a
    snapshot item at its ``output_index`` (matched as one, R6)."""
    kernels = table_kernels(tables)
    facts = _Facts(driver)
    item = payload.get("item")
    if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
        return _routed(driver, payload, facts, kernels)
    item_type = item["type"]
    call_id = _text(item.get("call_id"))
    item_id = _text(item.get("id")) or _text(item.get("item_id"))
    entries = facts.entries
    fresh = len(entries)
    if payload.get("type") == "response.output_item.added":
        view, target = added_view(
            PYTHON,
            facts.holder(item_type, call_id),
            facts.named(item_id),
            facts.same_type(item_type),
            call_id,
        )
        admission = kernels.admit_added(view)
    elif payload.get("type") == "response.output_item.done":
        slot = driver.slot(_index(payload.get("output_index")))
        match = MatchFacts(
            call=call_id,
            has_id=item_id is not None,
            snapshot=snapshot,
            bound=tuple(slot.entries) if slot is not None else (),
            shared=slot is not None and slot.state is SlotState.SHARED,
            named=facts.named(item_id),
            holder=facts.holder(item_type, call_id),
            same_type=facts.same_type(item_type),
            call_of=lambda o: entries[o].call_id,
            has_id_of=lambda o: entries[o].item_id is not None,
            open_=lambda o: entries[o].state in OPEN_STATES,
        )

        def fit(ordinal: int) -> Fit:
            fitted: Fit = kernels.fit(*fit_key(PYTHON, match, ordinal))
            return fitted

        view, target = match_view(PYTHON, match, fit)
        admission = kernels.admit_done(view)
    else:
        return None
    if admission.action is AdmissionAction.MATCH and target is not None:
        chosen: int | None = target
    elif admission.action is AdmissionAction.ADMIT:
        chosen = fresh
    else:
        return Expected(None, code=admission.code)
    assert chosen is not None
    trigger = Trigger.ITEM_ADDED if payload["type"].endswith(".added") else Trigger.ITEM_DONE
    trigger = Trigger.SNAPSHOT_ITEM if snapshot else trigger
    held = entries[chosen] if chosen < fresh else None
    row = kernels.lifecycle(held.state if held is not None else EntryState.ABSENT, trigger)
    if Effect.MERGE_ITEM not in row.effects:
        # A row that does not take the item (a duplicate or a late one) leaves the entry
        # as it was: the item's id is not one the entry is seen with (R4), and owes
        # no id_changed.
        return Expected(chosen, code=admission.code)
    identity: list[tuple[IdentityField, str | None]] = []
    codes: list[Code] = []
    for field in IdentityField:
        value = _text(item.get(field.value))
        before = getattr(held, field.value) if held is not None else None
        # A value another entry holds is taken, for a field that names one entry.
        owners = facts.holder(item_type, value) if kernels.names_one(field) else ()
        taken = bool(owners) and owners[0] != chosen
        cell = kernels.identity(
            field, admission.stage, identity_relation(PYTHON, before, value, taken)
        )
        identity.append((field, value if cell.action is PayloadAction.TAKE else before))
        codes += [] if cell.code is None else [cell.code]
    wire_id = _text(item.get("id"))
    return Expected(
        chosen,
        identity=tuple(identity),
        code=admission.code,
        wire_id=wire_id,
        identity_codes=tuple(codes),
    )


def _index(value: Any) -> int | None:
    """A wire ``output_index`` or part index: an int in ``0..MAX_INDEX``, or none (a field
    of a wrong type or out of range is dropped and reported: R1)."""
    return value if type(value) is int and 0 <= value <= MAX_INDEX else None


def _routed(
    view: DriverView, payload: Mapping[str, Any], facts: _Facts, kernels: KernelSet
) -> Expected | None:
    """The model's route (R5) for a payload or progress event: ``route_views`` over the
    entries bound at its slot and named by its ``item_id``, then the routing table.
    The event's keys are read as the wire catalogue says (``WIRE_EVENTS``)."""
    spec = WIRE_EVENTS.get(payload.get("type"))  # type: ignore[arg-type]
    if spec is None or spec.event_class is not EventClass.ITEM_SCOPED:
        return None
    output_index, item_id = _index(payload.get("output_index")), _text(payload.get("item_id"))
    slot = view.slot(output_index)
    bound = slot.entries if slot is not None else ()
    named = facts.named(item_id)
    shared = slot is not None and slot.state is SlotState.SHARED
    views = route_views(PYTHON, bound, named, shared, item_id is not None)
    route = kernels.route(*views)
    target: int | None = route_target(PYTHON, route.action, bound, named)
    orphan = (output_index, item_id) if route.code is Code.ORPHAN_EVENT else None
    # A payload event the route sends to an entry is delivered to it, unless it names a
    # channel the entry's type does not have (channel_mismatch, no step); a part event's
    # channel is its part's.
    channel = _channel_named(payload)
    required = target is not None and (
        spec.trigger not in CHANNEL_TRIGGERS
        or (channel is not None and _channel_kind_of(facts.entries[target], channel[0]))
    )
    return Expected(
        target, required=required, item_id=item_id, orphan=orphan, route_code=route.code
    )


class _Recorder:
    """The driver's kernels, with every lifecycle call recorded."""

    def __init__(self, kernels: KernelSet) -> None:
        self.calls: list[tuple[EntryState, Trigger]] = []
        inner = kernels.lifecycle

        def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
            self.calls.append((state, trigger))
            return inner(state, trigger)

        self.kernels = kernels._replace(lifecycle=lifecycle)

    def take(self) -> tuple[tuple[EntryState, Trigger], ...]:
        calls, self.calls = tuple(self.calls), []
        return calls


def responses(events: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The events of each response of a stream, split where the reducer splits them."""
    split: list[list[Mapping[str, Any]]] = [[]]
    for event in events:
        if event.get("type") == STARTING_EVENT and split[-1]:
            split.append([])
        split[-1].append(event)
    return [events for events in split if events]


class _Ending:
    """Where the response ends and what that owes (R9, R14), read off the events by the
    model's own tables, never by the driver: the first terminal event ends it with its
    ``terminal_status``; the terminal right after an ``amendable`` one is the same
    failure; any other event after the end owes ``after_terminal``; input that ends
    before a terminal leaves the response ``UNENDED`` and owes ``missing_terminal``."""

    def __init__(self, tables: ModelTables) -> None:
        self.tables = tables
        self.status = ResponseStatus.IN_PROGRESS
        self.ended = False
        self.amendable = False

    def take(self, event_type: str) -> Code | None:
        """One event of ``event_type``: the code it owes, if any."""
        spec = WIRE_EVENTS.get(event_type)
        terminal = TERMINALS.get(spec.event_class) if spec is not None else None
        if self.ended:
            amends, self.amendable = self.amendable and terminal is not None, False
            return None if amends else Code.AFTER_TERMINAL
        if terminal is not None:
            self.ended = True
            self.status = self.tables.terminal_status[terminal]
            self.amendable = self.tables.amendable[terminal]
        return None

    def end_of_input(self) -> Code | None:
        """The input ended: the code that owes, if any."""
        if self.ended:
            return None
        self.ended, self.status = True, UNENDED
        return Code.MISSING_TERMINAL

    def problems(self, owed: Code | None, view: DriverView, raised: int) -> tuple[str, ...]:
        """Where the driver's response status or the codes it raised since ``raised``
        are not what the ending owes."""
        found: list[str] = []
        if view.status is not self.status:
            found.append(f"the response is {view.status.value}, the model's {self.status.value}")
        said = [c for c in view.codes[raised:] if c in _ENDING_CODES]
        if said != ([] if owed is None else [owed]):
            owes = "nothing" if owed is None else owed.value
            found.append(f"the event owes {owes}, raised {[c.value for c in said]}")
        return tuple(found)


_ENDING_CODES = frozenset({Code.AFTER_TERMINAL, Code.MISSING_TERMINAL})
"""The codes ``_Ending`` decides."""


SEQUENCE_CODES: frozenset[Code] = frozenset({Code.SEQUENCE_GAP, Code.SEQUENCE_REGRESSION})
"""The codes of R1's sequence check (``model.responses.next_sequence``)."""


class _Sequence:
    """The sequence state the model reaches (R1): the last ``sequence_number`` taken,
    moved by ``model.responses.next_sequence`` on each event before the end (an event
    the driver does not know still takes its number; after the end none is checked)."""

    def __init__(self) -> None:
        self.last: int | None = None

    def take(self, payload: Mapping[str, Any], live: bool) -> Code | None:
        """One event: the code it owes."""
        sequence = payload.get("sequence_number")
        if not live or type(sequence) is not int:
            return None
        self.last, code = next_sequence(self.last, sequence)
        return code

    def problems(self, owed: Code | None, view: DriverView, raised: int) -> tuple[str, ...]:
        """Where the driver's sequence state or its sequence codes since ``raised`` are
        not the model's."""
        found: list[str] = []
        if view.last_sequence != self.last:
            found.append(
                f"the last sequence_number is {view.last_sequence}, the model's {self.last}"
            )
        said = [code for code in view.codes[raised:] if code in SEQUENCE_CODES]
        if said != ([] if owed is None else [owed]):
            found.append(f"the event raised {[c.value for c in said]}, owes {owed}")
        return tuple(found)


_OPENINGS_AND_ENDS: frozenset[EventClass] = frozenset(
    {EventClass.RESPONSE_STARTED, EventClass.RESPONSE_PROGRESS, *TERMINALS}
)
"""The events whose ``response`` object names the response (R14)."""


class _Response:
    """What the response's own events owe (R1, R14), read off the events: the first
    event of a resumed response ``response_resumed``; an event type the catalogue
    lacks, before the end, ``unknown_event``; an opening or ending event (before the
    end, or the terminal that amends it) whose ``response.id`` is not the first one
    held ``response_id_changed`` (the first id is kept)."""

    def __init__(self, resumed: bool) -> None:
        self.resumed = resumed
        self.first = True
        self.response_id: str | None = None
        self.tools: Any = None
        """The last ``response.tools`` a live opening or ending event carried (R13)."""

    def take(self, payload: Mapping[str, Any], live: bool, amends: bool) -> list[Code]:
        """One event: the codes it owes."""
        owed: list[Code] = []
        if self.first and self.resumed:
            owed.append(Code.RESPONSE_RESUMED)
        self.first = False
        spec = WIRE_EVENTS.get(payload["type"])
        if spec is None:
            return [*owed, Code.UNKNOWN_EVENT] if live else owed
        response = payload.get("response")
        if live and spec.event_class in _OPENINGS_AND_ENDS and isinstance(response, Mapping):
            self.tools = response.get("tools", self.tools)
        if (live or amends) and spec.event_class in _OPENINGS_AND_ENDS:
            found = _text(response.get("id")) if isinstance(response, Mapping) else None
            if found is not None and self.response_id is None:
                self.response_id = found
            elif found is not None and found != self.response_id:
                owed.append(Code.RESPONSE_ID_CHANGED)
        return owed

    @staticmethod
    def problems(owed: list[Code], view: DriverView, raised: int) -> tuple[str, ...]:
        """The codes of these kinds the driver raised since ``raised``, if not owed."""
        said = [c for c in view.codes[raised:] if c in _RESPONSE_CODES]
        if said == owed:
            return ()
        return (f"the event raised {[c.value for c in said]}, owes {[c.value for c in owed]}",)


_RESPONSE_CODES = frozenset({Code.RESPONSE_RESUMED, Code.UNKNOWN_EVENT, Code.RESPONSE_ID_CHANGED})
"""The codes ``_Response`` decides."""


class _Held:
    """The events a resumed response holds (R14): each payload event the routing table
    sends to no entry with ``orphan_event`` is held for an item opened before the resume
    point, in arrival order, raising nothing; in a response that is not resumed it is
    the ``orphan_event`` at once.  At the end every held event is released: the ones
    that do not attach (``model.responses.held_attaches``) are reported."""

    def __init__(self, resumed: bool) -> None:
        self.resumed = resumed
        self.events: list[tuple[int | None, str | None]] = []

    def take(self, expected: Expected | None) -> int:
        """One live event the model routed as ``expected``: the ``orphan_event`` codes
        it owes now."""
        if expected is None or expected.orphan is None:
            return 0
        if self.resumed:
            self.events.append(expected.orphan)
            return 0
        return 1

    def release(self, view: DriverView) -> int:
        """The response ended: the ``orphan_event`` codes the held events owe."""
        facts = _Facts(view)
        owed = sum(
            not held_attaches(view.slot(index) is not None, bool(facts.named(item_id)))
            for index, item_id in self.events
        )
        self.events = []
        return owed

    def problems(self, owed: int, view: DriverView, raised: int) -> tuple[str, ...]:
        """Where the driver's held events, or the ``orphan_event`` codes it raised since
        ``raised`` outside a lifecycle row, are not the model's."""
        found: list[str] = []
        if list(view.held) != self.events:
            found.append(f"the driver holds {list(view.held)}, the model {self.events}")
        said = sum(code is Code.ORPHAN_EVENT for code in view.codes[raised:])
        if said != owed:
            found.append(f"the step and its held events owe {owed} orphan_event; {said} raised")
        return tuple(found)


def driver_steps(
    events: Sequence[Mapping[str, Any]], kernels: KernelSet, tables: ModelTables
) -> list[DriverStep]:
    """Run the driver on the events of one response (and the end of input), observing
    each step through its read-only view (``core.view``)."""
    recorder = _Recorder(kernels)
    run = DriverRun(recorder.kernels, kernels)
    view = run.view
    steps: list[DriverStep] = []
    slotless: frozenset[int] = frozenset()
    typed = [payload for payload in events if isinstance(payload.get("type"), str)]
    # R14 from the first event, by the model: a resumed response waives RESUME_WAIVED.
    resumed = bool(typed) and resumes(typed[0]["type"], typed[0].get("sequence_number"))
    ending, sequence, held = _Ending(tables), _Sequence(), _Held(resumed)
    response, wire_ids, divergent = _Response(resumed), _WireIds(), _Divergent()
    for index, payload in enumerate(events):
        if not isinstance(payload.get("type"), str):
            continue
        before = observe(view, slotless)
        live = not view.terminal
        entries = view.entries
        expected = expected_target(view, payload, tables) if live else None
        chars = _delta_chars(view)
        raised = len(view.codes)
        slots_before = view.slots
        annotation = _Annotation(payload, expected if live else None, entries, view, tables)
        merge = _ItemMerge.of_event(payload, expected if live else None, entries, view, tables)
        spec = WIRE_EVENTS.get(payload["type"])
        terminal = spec is not None and spec.event_class in TERMINALS
        snapshot = _SnapshotMerge(payload, view, tables) if live and terminal else None
        divergences = divergent.owed(payload, view) if live and terminal else (0, True)
        offer = _PayloadDone(payload, expected if live else None, view)
        codes = view.codes
        wire_ids.given(payload)
        run.feed(index, payload)
        calls = recorder.take()
        problems = _unaccounted(payload, calls, view, chars) if live else ()
        problems += _fast_path(run)
        amends = ending.amendable and spec is not None and spec.event_class in TERMINALS
        owes = response.take(payload, live, amends)
        problems += ending.problems(ending.take(payload["type"]), view, raised)
        problems += response.problems(owes, view, raised)
        problems += _kept(codes, view, amends)
        problems += sequence.problems(sequence.take(payload, live), view, raised)
        ends = live and ending.ended
        problems += _fields_checked(invalid_fields(payload, ends), view, raised)
        if live:
            owed = held.take(expected)
            owed += held.release(view) if view.terminal else 0
            # A lifecycle row's orphan note is _misreported's; the route's is owed here.
            rows = sum(Effect.NOTE_ORPHAN in _effects(call, tables) for call in calls)
            problems += held.problems(owed + rows, view, raised)
            nonempty = ends and _snapshot_size(payload) > 0
            problems += _misreported(calls, view, raised, tables, resumed, nonempty)
            if ends:
                problems += _snapshot_absent(payload, ending.status, view, raised)
                problems += divergent.problems(divergences, view, raised)
            divergent.took_done(expected, calls, tables)
            problems += _identity(expected, view)
            problems += _learned(expected, calls, view, tables)
            problems += _route_reported(payload, expected, calls, view, raised, tables)
            problems += _reclassified(payload, expected, entries, calls, tables)
            problems += annotation.problems(view)
            problems += merge.problems(view, raised)
            offered, wrong = offer.check(calls, view, tables)
            problems += wrong
            if not ends:
                problems += _payload_reported([*merge.codes, *offered], view, raised, tables)
                problems += _identity_reported(expected, view, raised, tables)
            elif snapshot is not None:
                problems += snapshot.problems(view, raised, tables)
            problems += _admitted(expected, view, raised)
            problems += wire_ids.problems(expected, view, raised)
            problems += _slots_reported(slots_before, view, raised, tables)
            if view.terminal:
                problems += _arguments_checked(view, raised)
                problems += wire_ids.minted(view, raised)
                problems += _withheld(view, raised, tables)
                completed = ending.status is ResponseStatus.COMPLETED
                problems += _executions(view, tables, completed, response.tools)
            problems += _channel_written(payload, expected, calls, view, tables)
        slotless |= {entry.ordinal for entry in view.entries if entry.slot is None}
        after = observe(view, slotless)
        positions = _snapshot_size(payload) if ends else 0
        steps.append(
            DriverStep(index, payload["type"], calls, expected, before, after, problems, positions)
        )
    before = observe(view, slotless)
    live = not view.terminal
    raised = len(view.codes)
    run.end()
    calls = recorder.take()
    problems = tuple(_executability(view)) if live else ()
    problems += _fast_path(run)
    if live:
        problems += _misreported(calls, view, raised, tables, resumed, False)
    problems += ending.problems(ending.end_of_input(), view, raised)
    if live:
        problems += held.problems(held.release(view), view, raised)
        problems += _arguments_checked(view, raised)
        problems += wire_ids.minted(view, raised)
        problems += _withheld(view, raised, tables)
        problems += _executions(view, tables, False, response.tools)
    steps.append(
        DriverStep(
            len(events),
            "end of input",
            calls,
            None,
            before,
            observe(view, slotless),
            problems,
        )
    )
    return steps


def _snapshot_size(payload: Mapping[str, Any]) -> int:
    """How many items a terminal event's snapshot (``response.output``) holds."""
    response = payload.get("response")
    output = response.get("output") if isinstance(response, Mapping) else None
    return len(output) if isinstance(output, list) else 0


def _snapshot_absent(
    payload: Mapping[str, Any], status: ResponseStatus, view: DriverView, raised: int
) -> tuple[str, ...]:
    """R9: the terminal that completes the response with no snapshot items (none, or an
    output that is not an array) owes one ``snapshot_absent``; any other owes none."""
    owed = int(status is ResponseStatus.COMPLETED and _snapshot_size(payload) == 0)
    said = view.codes[raised:].count(Code.SNAPSHOT_ABSENT)
    if said == owed:
        return ()
    return (f"the terminal owes {owed} snapshot_absent, {said} raised",)


def _executions(
    view: DriverView, tables: ModelTables, completed: bool, response_tools: Any
) -> tuple[str, ...]:
    """R13 at the end: each entry's execution verdict is the model's ``decide`` over
    the table kernels of ``tables``, on the facts of the entry (its merged item under
    its identity fields, its confirmation and ``call_id``, whether an output answers it:
    ``answered_ordinals``), the response's completion by the model, and the declared
    tools (``declared_tools``: the last ``response.tools``, plus those a tool search
    loaded)."""
    kernels = table_kernels(tables)
    entries = view.entries
    loaded = [
        tool
        for entry in entries
        if entry.item_type == LOADED_TOOLS
        and isinstance(tools := view.item(entry.ordinal).get("tools"), list)
        for tool in tools
        if isinstance(tool, Mapping)
    ]
    declared = declared_tools(response_tools, loaded)
    answered = answered_ordinals(entries)
    found: list[str] = []
    for entry in entries:
        item = {**view.item(entry.ordinal), "type": entry.item_type, "name": entry.name}
        if entry.namespace is not None:
            item["namespace"] = entry.namespace
        facts = CallFacts(
            item, completed, entry.confirmed, entry.call_id, entry.ordinal in answered, declared
        )
        owed = decide_by(facts, kernels)
        if entry.execution is not owed:
            found.append(
                f"entry {entry.ordinal} is {entry.execution.value}, the model's {owed.value}"
            )
    return tuple(found)


class _Divergent:
    """R6 on the snapshot: a field of a snapshot item that differs from the non-blank
    value its entry's ``output_item.done`` gave, where no rule decides it (not an
    identity field, not one of the type's ``payload_fields``, not ``id``, ``type`` or a
    stray field), owes one ``divergent_item_field``.  The snapshot item's entry is the
    one its ``id`` names before the terminal; where some snapshot item names no single
    entry, what the others owe is a lower bound."""

    def __init__(self) -> None:
        self.done: set[int] = set()
        """The entries an ``output_item.done`` was merged into."""

    def took_done(
        self,
        expected: Expected | None,
        calls: Sequence[tuple[EntryState, Trigger]],
        tables: ModelTables,
    ) -> None:
        """After an item event: an ``output_item.done`` merged into its target."""
        if expected is None or expected.target is None or not calls:
            return
        if calls[0][1] is Trigger.ITEM_DONE and Effect.MERGE_ITEM in _effects(calls[0], tables):
            self.done.add(expected.target)

    def owed(self, payload: Mapping[str, Any], view: DriverView) -> tuple[int, bool]:
        """Before a terminal: the reports its snapshot owes, and whether that is exact."""
        response = payload.get("response")
        output = response.get("output") if isinstance(response, Mapping) else None
        owed, exact, seen = 0, True, set()
        entries = view.entries
        for item in output if isinstance(output, list) else []:
            named = view.named(_text(item.get("id"))) if isinstance(item, Mapping) else ()
            if len(named) != 1 or named[0] in seen:
                exact = False
                continue
            ordinal = named[0]
            seen.add(ordinal)
            if ordinal not in self.done:
                continue
            entry, held = entries[ordinal], view.item(ordinal)
            decided = ITEM_TYPES.get(entry.item_type, UNKNOWN_ITEM_TYPE).payload_fields
            skip = {f.value for f in IdentityField} | decided | {"id", "type", *STRAY_ITEM_FIELDS}
            owed += sum(
                name not in skip
                and not _blank(held.get(name))
                and not _blank(value)
                and held.get(name) != value
                for name, value in item.items()
            )
        return owed, exact

    @staticmethod
    def problems(owed: tuple[int, bool], view: DriverView, raised: int) -> tuple[str, ...]:
        """Where the terminal's ``divergent_item_field`` reports are not what it owes."""
        count, exact = owed
        said = view.codes[raised:].count(Code.DIVERGENT_ITEM_FIELD)
        if said == count or (not exact and said > count):
            return ()
        return (f"the snapshot owes {count} divergent_item_field, {said} raised",)


def _blank(value: Any) -> bool:
    """A value that says nothing (R7: empty never erases)."""
    return value is None or any(value == b and type(value) is type(b) for b in _BLANK)


def _withheld(view: DriverView, raised: int, tables: ModelTables) -> tuple[str, ...]:
    """R13 at the end: each entry whose execution verdict the model's ``withheld`` table
    marks owes one ``call_withheld`` (never withheld in silence), and no other does."""
    owed = sum(tables.withheld[entry.execution] for entry in view.entries)
    said = view.codes[raised:].count(Code.CALL_WITHHELD)
    if said == owed:
        return ()
    return (f"{owed} calls withheld owe call_withheld, {said} raised",)


_WRITES_CHANNEL = frozenset(
    {Effect.APPEND_DELTA, Effect.OPEN_PART, Effect.OFFER_PAYLOAD, Effect.CLOSE_CHANNEL}
)
"""The effects that write the channel a payload event names (attaching it)."""


def _channel_named(payload: Mapping[str, Any]) -> tuple[ChannelKind, int] | None:
    """The channel a payload event names by the wire catalogue: its spec's channel (or
    its part's, ``PART_CHANNELS``) at the part its ``index_field`` names (0 without
    one, or with one not an index)."""
    spec = WIRE_EVENTS.get(payload["type"])
    if spec is None or spec.event_class is not EventClass.ITEM_SCOPED:
        return None
    part = payload.get("part")
    part_type = part.get("type") if isinstance(part, Mapping) else None
    kind = spec.channel or PART_CHANNELS.get(part_type if isinstance(part_type, str) else "")
    if kind is None:
        return None
    index = _index(payload.get(spec.index_field)) if spec.index_field is not None else 0
    return kind, index or 0


def _channel_written(
    payload: Mapping[str, Any],
    expected: Expected | None,
    calls: Sequence[tuple[EntryState, Trigger]],
    view: DriverView,
    tables: ModelTables,
) -> tuple[str, ...]:
    """A payload event whose row writes its channel (``_WRITES_CHANNEL``) leaves its
    entry holding the channel the event names (``_channel_named``)."""
    named = _channel_named(payload)
    if named is None or expected is None or expected.target is None or not calls:
        return ()
    if not _WRITES_CHANNEL.intersection(_effects(calls[0], tables)):
        return ()
    if expected.target >= len(view.entries):
        return ()
    if named in {(k, i) for k, i, _, _ in view.channel_values(expected.target)}:
        return ()
    kind, index = named
    return (f"entry {expected.target} holds no {kind.value}[{index}] after the event",)


def _fast_path(run: DriverRun) -> tuple[str, ...]:
    """The fast path (``Reducer``'s ``advancer``) and the cached traced step
    (``Reducer(trace=True)``'s ``tracer``) reached the state the traced step reached:
    each is the other without its trace or with its routes cached, so every check here
    holds of them."""
    facts = run.view.facts()
    twins = (("fast path (advancer)", run.fast), ("cached trace (tracer)", run.cached))
    return tuple(
        f"the {name} reached another state than the traced step"
        for name, twin in twins
        if twin.facts() != facts
    )


def _channel_of(payload: Mapping[str, Any]) -> tuple[Trigger, ChannelKind, int] | None:
    """The trigger and the channel a payload event names, read by the wire catalogue:
    its ``WireEventSpec.channel`` and the part its ``index_field`` names (0 without one)."""
    spec = WIRE_EVENTS.get(payload["type"])
    if spec is None or spec.trigger not in CHANNEL_TRIGGERS or spec.channel is None:
        return None
    index = _index(payload.get(spec.index_field)) if spec.index_field is not None else 0
    return spec.trigger, spec.channel, index or 0


def _reclassified(
    payload: Mapping[str, Any],
    expected: Expected | None,
    before: Sequence[EntryFacts],
    calls: Sequence[tuple[EntryState, Trigger]],
    tables: ModelTables,
) -> tuple[str, ...]:
    """A channel event delivers the trigger ``tables.reclassification`` gives for the
    state of its own channel (R7, ``model.channels``): a delta after that part's
    ``*.done`` is late, a delta of another part is not.  The abstraction counts closed
    channels without telling them apart, so which channel a step reached is checked
    here, on the driver's channels before the event."""
    named = _channel_of(payload)
    if named is None or expected is None or expected.target is None or not calls:
        return ()
    if expected.target >= len(before):
        return ()
    trigger, kind, index = named
    entry = before[expected.target]
    if kind not in {k for k, _, _ in entry.channels} and not _channel_kind_of(entry, kind):
        return ()  # the entry has no such channel: channel_mismatch, not a step
    closed = (kind, index, True) in entry.channels
    owed = tables.reclassification[trigger][channel_state(PYTHON, closed)]
    if calls[0][1] is owed:
        return ()
    return (
        f"{payload['type']} on {kind.value}[{index}] delivered {calls[0][1].value}, "
        f"owes {owed.value}",
    )


def _channel_kind_of(entry: EntryFacts, kind: ChannelKind) -> bool:
    """Whether the catalogue gives ``entry``'s item type a channel of ``kind``."""
    spec = ITEM_TYPES.get(entry.item_type, UNKNOWN_ITEM_TYPE)
    return any(location.channel is kind for location in spec.channels)


class _Annotation:
    """A part addition event reaching an open entry, and the part's array before it:
    after the event the array is the model's merge (R15, ``tables.part_merge`` over
    ``model.annotations.position_view``, the fields ``PART_ADDITIONS`` names): the value
    appended, or put in place of the element at its position, nothing else changed (the
    contract ``part_additions`` proves this of the tables; here the driver is held to
    it)."""

    def __init__(
        self,
        payload: Mapping[str, Any],
        expected: Expected | None,
        before: Sequence[EntryFacts],
        view: DriverView,
        tables: ModelTables,
    ) -> None:
        self.owed: tuple[int, Any, int, list[Any]] | None = None
        kind = ADDITION_TYPES.get(payload["type"])
        if kind is None or expected is None or expected.target is None:
            return
        if expected.target >= len(before) or before[expected.target].state not in OPEN_STATES:
            return
        self.addition = addition = tables.part_additions[kind]
        index = payload.get(addition.part_index.value, 0)
        value = payload.get(addition.value.value)
        if type(index) is not int or index < 0 or value is None:
            return
        part = view.part(expected.target, addition.channel, index) or {}
        array = list(part.get(addition.array) or [])
        position = payload.get(addition.position.value)
        at = position if type(position) is int and position >= 0 else None
        inside = at is not None and at < len(array)
        merge = tables.part_merge[position_view(PYTHON, at is not None, inside)]
        if merge is PartMerge.APPEND:
            array.append(value)
        elif merge is PartMerge.REPLACE and at is not None and inside:
            array[at] = value
        self.owed = (expected.target, index, value, array)

    def problems(self, view: DriverView) -> tuple[str, ...]:
        """Where the driver's part after the event is not the model's merge."""
        if self.owed is None:
            return ()
        target, index, _, array = self.owed
        part = view.part(target, self.addition.channel, index) or {}
        found = list(part.get(self.addition.array) or [])
        if found == array:
            return ()
        return (
            f"part {index}'s {self.addition.array} holds {len(found)} elements, the "
            f"model's merge {len(array)}",
        )


def _carried(item: Mapping[str, Any], location: ChannelLocation) -> list[tuple[int, Any]]:
    """The ``(part index, value)`` offers an item makes to one channel, where the wire
    catalogue's ``ChannelLocation`` puts them: the scalar ``field`` of its container
    (part 0, if the field is there), or each element of its ``array`` that is a part
    of ``part_type`` (its ``field``; a plain string without a part type), at its
    position.  A value that is not a string is an offer of nothing (None)."""
    node: Any = item
    for key in location.container:
        node = node.get(key) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping):
        return []
    if location.array is None:
        present = location.field is not None and location.field in node
        return [(0, node[location.field])] if present else []
    parts = node.get(location.array)
    offers: list[tuple[int, Any]] = []
    for position, part in enumerate(parts if isinstance(parts, list) else []):
        if location.part_type is None and isinstance(part, str):
            offers.append((position, part))
        elif isinstance(part, Mapping) and location.part_type is not None:
            typed = part.get("type") == location.part_type
            offers += [(position, part.get(location.field or ""))] if typed else []
    return [(index, value if isinstance(value, str) else None) for index, value in offers]


_BLANK: tuple[Any, ...] = ("", [])
"""Item field values that say nothing but are values (R7: empty never erases; a blank
fills only a field that holds nothing)."""


def _offered(
    tables: ModelTables, value: str | None, deltas: str | None, offered: str | None
) -> tuple[str | None, list[Code]]:
    """R7: a channel holding ``value`` and unjoined ``deltas`` is offered ``offered``:
    the deltas first (their own offer), then it, each decided by the payload table
    (``tables.payload`` over ``model.payload.payload_key``).  The value after, and the
    codes the offers raise."""
    codes: list[Code] = []
    for offer in [deltas, offered] if deltas else [offered]:
        held, relation = payload_key(PYTHON, value, offer)
        cell = tables.payload[held][relation]
        codes += [] if cell.code is None else [cell.code]
        value = offer if cell.action is PayloadAction.TAKE else value
    return value, codes


class _PayloadDone:
    """A payload ``*.done`` event whose row offers its value (``OFFER_PAYLOAD``): the
    channel it names (``_channel_named``) is offered the event's value, a string in its
    ``value_field`` or its part's ``PART_VALUE_FIELDS`` field (R7, ``_offered``)."""

    def __init__(
        self, payload: Mapping[str, Any], expected: Expected | None, view: DriverView
    ) -> None:
        self.pending: tuple[int, tuple[ChannelKind, int], Any, Any, str | None] | None = None
        spec = WIRE_EVENTS.get(payload["type"])
        named = _channel_named(payload)
        if spec is None or named is None or expected is None or expected.target is None:
            return
        if expected.target >= len(view.entries):
            return
        part = payload.get("part")
        if spec.value_in_part:
            value = part.get(PART_VALUE_FIELDS[named[0]]) if isinstance(part, Mapping) else None
        else:
            value = payload.get(spec.value_field) if spec.value_field is not None else None
        held = {(k, i): (v, d) for k, i, v, d in view.channel_values(expected.target)}
        before, deltas = held.get(named, (None, None))
        offered = value if isinstance(value, str) else None
        self.pending = (expected.target, named, before, deltas, offered)

    def check(
        self, calls: Sequence[tuple[EntryState, Trigger]], view: DriverView, tables: ModelTables
    ) -> tuple[list[Code], tuple[str, ...]]:
        """The codes the offer owes, and where the channel after is not the model's."""
        if self.pending is None or not calls:
            return [], ()
        if Effect.OFFER_PAYLOAD not in _effects(calls[0], tables):
            return [], ()
        target, (kind, index), before, deltas, offered = self.pending
        value, codes = _offered(tables, before, deltas, offered)
        held = {(k, i): (v, d) for k, i, v, d in view.channel_values(target)}
        found = held.get((kind, index), (None, None))
        if found == (value, None):
            return codes, ()
        return codes, (
            f"entry {target}'s {kind.value}[{index}] holds {found!r}, the model's "
            f"{(value, None)!r}",
        )


def _payload_codes(tables: ModelTables) -> frozenset[Code]:
    """Every code a cell of the payload table raises (R7)."""
    return frozenset(
        c.code for row in tables.payload.values() for c in row.values() if c.code is not None
    )


def _payload_reported(
    owed: Sequence[Code], view: DriverView, raised: int, tables: ModelTables
) -> tuple[str, ...]:
    """The payload table's codes raised since ``raised`` are exactly the offers' (R7)."""
    said = sorted(c.value for c in view.codes[raised:] if c in _payload_codes(tables))
    if said == sorted(c.value for c in owed):
        return ()
    return (f"the offers owe {sorted(c.value for c in owed)}, raised {said}",)


class _ItemMerge:
    """An ``output_item.done`` reaching its entry (R6, R7): where its row merges the
    item (``MERGE_ITEM``), every field but the stray ones (``STRAY_ITEM_FIELDS``) and
    the identity fields (``_identity``'s) is merged so that a blank never replaces a
    value; where its row offers the item's payloads (``OFFER_ITEM_PAYLOADS``), each
    channel the wire catalogue locates in the item is offered, after its unjoined
    deltas, to the model's payload table (``tables.payload`` over
    ``model.payload.payload_key``), and no other channel appears."""

    def __init__(
        self,
        item: Any,
        target: int | None,
        before: Sequence[EntryFacts],
        view: DriverView,
        tables: ModelTables,
        trigger: Trigger = Trigger.ITEM_DONE,
    ) -> None:
        self.target: int | None = None
        self.codes: list[Code] = []
        """The codes the item's offers owe (``tables.payload``)."""
        if target is None or not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
            return
        held = before[target] if target < len(before) else None
        state = held.state if held is not None else EntryState.ABSENT
        effects = tables.lifecycle[state][trigger].effects
        self.target, self.item = target, item
        self.fields = self._merged(view.item(target) if held is not None else {}, item)
        self.merges = Effect.MERGE_ITEM in effects
        self.channels: dict[tuple[ChannelKind, int], tuple[str | None, str | None]] | None = None
        if Effect.OFFER_ITEM_PAYLOADS not in effects:
            return
        owed = {
            (kind, index): (value, deltas)
            for kind, index, value, deltas in (view.channel_values(target) if held else ())
        }
        spec = ITEM_TYPES.get(item["type"], UNKNOWN_ITEM_TYPE)
        for location in spec.channels:
            carried = _carried(item, location)
            if location.array is not None:
                # Parts streamed where the item does not hold them move first (R7).
                kind = location.channel
                streamed = [index for k, index in owed if k is kind]
                positions = [index for index, _ in carried]
                for old, new in realigned_parts(streamed, positions):
                    owed[(kind, new)] = owed.pop((kind, old))
            for index, offered in carried:
                key = (location.channel, index)
                value, codes = _offered(tables, *owed.get(key, (None, None)), offered)
                owed[key] = (value, None)
                self.codes += codes
        self.channels = owed

    @classmethod
    def of_event(
        cls,
        payload: Mapping[str, Any],
        expected: Expected | None,
        before: Sequence[EntryFacts],
        view: DriverView,
        tables: ModelTables,
    ) -> _ItemMerge:
        """The merge an ``output_item.done`` owes its expected target."""
        done = payload["type"] == "response.output_item.done" and expected is not None
        target = expected.target if done and expected is not None else None
        return cls(payload.get("item"), target, before, view, tables)

    @staticmethod
    def _merged(before: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
        merged = dict(before)
        identity = {field.value for field in IdentityField}
        for name, value in item.items():
            if name in STRAY_ITEM_FIELDS:
                continue
            if value is None or (name in identity and _text(value) is not None):
                merged.setdefault(name, None)  # the identity table's, or nothing said
            elif _blank(value):
                merged[name] = value if merged.get(name) is None else merged[name]
            else:
                merged[name] = value
        return merged

    def problems(self, view: DriverView, raised: int) -> tuple[str, ...]:
        """Where the entry's merged fields or channels after the event are not the
        model's (channels after the parts streamed elsewhere moved where the item holds
        them: ``model.payload.realigned_parts``)."""
        if self.target is None or self.target >= len(view.entries):
            return ()
        found: list[str] = []
        merged = view.item(self.target)
        identity = {field.value for field in IdentityField}
        if self.merges:
            wrong = sorted(
                name
                for name, value in self.fields.items()
                if name in self.item
                and name not in STRAY_ITEM_FIELDS
                and (name not in merged or (name not in identity and merged[name] != value))
            )
            if wrong:
                found.append(f"entry {self.target}'s merged fields {wrong} are not the model's")
        if self.channels is None:
            return tuple(found)
        after = {
            (kind, index): (value, deltas)
            for kind, index, value, deltas in view.channel_values(self.target)
        }
        if set(after) - set(self.channels):
            found.append(f"entry {self.target} has channels the item did not offer")
        found += [
            f"entry {self.target}'s {kind.value}[{index}] holds "
            f"{after.get((kind, index), (None, None))!r}, the model's {owed!r}"
            for (kind, index), owed in self.channels.items()
            if after.get((kind, index), (None, None)) != owed
        ]
        return tuple(found)


class _SnapshotMerge:
    """R6, R7 at the terminal: each snapshot item (``response.output``) is merged into
    its entry as an ``output_item.done`` is, by its ``SNAPSHOT_ITEM`` row: every field
    and every channel of the entry after the terminal is the model's (``_ItemMerge``),
    and the payload codes the offers owe are raised.  An item is placed where the model's
    matching of a snapshot item at its position (``expected_target``, before the terminal)
    and its ``id`` name the same one entry, named by no other snapshot item and matched
    to none; where some
    item is not so placed (a snapshot-only item, an item matched by another key), the
    entries of the others are still compared and the codes are a lower bound."""

    def __init__(self, payload: Mapping[str, Any], view: DriverView, tables: ModelTables):
        response = payload.get("response")
        output = response.get("output") if isinstance(response, Mapping) else None
        items = output if isinstance(output, list) else []
        named = [
            view.named(_text(item.get("id"))) if isinstance(item, Mapping) else () for item in items
        ]
        shared = [ordinal for ordinals in named for ordinal in ordinals]
        entries = view.entries
        self.merges: list[_ItemMerge] = []
        self.exact = True
        targets = [
            expected.target if expected is not None else None
            for expected in (
                expected_target(view, done, tables, snapshot=True)
                for done in (
                    {"type": "response.output_item.done", "output_index": position, "item": item}
                    for position, item in enumerate(items)
                )
            )
        ]
        for item, ordinals, target in zip(items, named, targets, strict=True):
            if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
                continue  # not an item: invalid_field, no entry
            # Placed: its id and the matching name one entry, which no other item names
            # or is matched to (another item would change the entry first).
            if (
                len(ordinals) != 1
                or shared.count(ordinals[0]) > 1
                or target != ordinals[0]
                or targets.count(target) > 1
            ):
                self.exact = False
                continue
            merge = _ItemMerge(item, target, entries, view, tables, Trigger.SNAPSHOT_ITEM)
            self.merges.append(merge)

    def problems(self, view: DriverView, raised: int, tables: ModelTables) -> tuple[str, ...]:
        """Where a placed item's entry, or the payload codes, are not the model's."""
        found = [problem for merge in self.merges for problem in merge.problems(view, raised)]
        owed = [code for merge in self.merges for code in merge.codes]
        reported = _payload_reported(owed, view, raised, tables)
        if reported and not self.exact:
            said = [c for c in view.codes[raised:] if c in _payload_codes(tables)]
            reported = () if all(said.count(c) >= owed.count(c) for c in owed) else reported
        return (*found, *reported)


def _admitted(expected: Expected | None, view: DriverView, raised: int) -> tuple[str, ...]:
    """An item event raises the code of its admission cell (R6), and the item's wire id
    names the entry it reached (R4: an entry is found again by any id it was given)."""
    if expected is None:
        return ()
    found: list[str] = []
    if expected.code is not None and expected.code not in view.codes[raised:]:
        found.append(f"the item's admission owes {expected.code.value}")
    reached = expected.target is not None and expected.target < len(view.entries)
    if (
        reached
        and expected.wire_id is not None
        and expected.target not in view.named(expected.wire_id)
    ):
        found.append(f"id {expected.wire_id!r} does not name entry {expected.target}")
    return tuple(found)


def _index_ok(value: Any) -> bool:
    return _index(value) is not None


def _string_ok(value: Any) -> bool:
    return isinstance(value, str)


def _ill_typed(payload: Mapping[str, Any], checks: Mapping[str, Callable[[Any], bool]]) -> int:
    """How many of the fields ``checks`` names ``payload`` has (not null) of a wrong type."""
    return sum(
        payload.get(name) is not None and not ok(payload.get(name)) for name, ok in checks.items()
    )


_NO_RESPONSE_OBJECT = frozenset({EventClass.KEEPALIVE, EventClass.UNROUTABLE, EventClass.ERROR})
"""The event classes whose ``response`` field nothing reads."""


def invalid_fields(payload: Mapping[str, Any], ends: bool) -> int:
    """The ``invalid_field`` reports an event owes (R1), by the wire catalogue: each field
    its class reads that is present but of the wrong type (``sequence_number``; an
    item-scoped event's ``output_index``, ``item_id``, part index and value, or its part
    object and the part's value; an item event's ``output_index`` and its item, an
    object with a string ``type``; any other event's ``response`` object); a delta's
    ``delta`` absent or null (a ``*.done`` without its value is R7's missing offer, owed
    nothing); and, for the terminal that ``ends`` the response, its ``response.output``
    that is not an array and each element of it that is not an object with a string
    ``type``."""
    spec = WIRE_EVENTS.get(payload["type"])
    owed = _ill_typed(payload, {"sequence_number": lambda v: type(v) is int})
    event_class = spec.event_class if spec is not None else None
    if spec is not None and event_class is EventClass.ITEM_SCOPED:
        checks = {"output_index": _index_ok, "item_id": _string_ok}
        if spec.index_field is not None:
            checks[spec.index_field] = _index_ok
        if not spec.value_in_part and spec.value_field is not None:
            checks[spec.value_field] = _string_ok
            owed += spec.trigger is Trigger.DELTA and payload.get(spec.value_field) is None
        owed += _ill_typed(payload, checks)
        part = payload.get("part")
        if spec.value_in_part and "part" in payload and not isinstance(part, Mapping):
            owed += 1
        elif spec.value_in_part and isinstance(part, Mapping):
            part_type = part.get("type")
            kind = spec.channel or PART_CHANNELS.get(
                part_type if isinstance(part_type, str) else ""
            )
            owed += kind is not None and _ill_typed(part, {PART_VALUE_FIELDS[kind]: _string_ok})
    elif event_class in (EventClass.ITEM_ADDED, EventClass.ITEM_DONE):
        owed += _ill_typed(payload, {"output_index": _index_ok})
        item = payload.get("item")
        # A null item is null_item's; an absent one, or one of the wrong shape, is ours.
        owed += ("item" not in payload) or (
            item is not None
            and not (isinstance(item, Mapping) and isinstance(item.get("type"), str))
        )
    elif event_class is not None and event_class not in _NO_RESPONSE_OBJECT:
        response = payload.get("response")
        owed += "response" in payload and not isinstance(response, Mapping)
        output = response.get("output") if isinstance(response, Mapping) and ends else None
        if isinstance(output, list):
            owed += sum(
                not (isinstance(i, Mapping) and isinstance(i.get("type"), str)) for i in output
            )
        else:
            owed += output is not None
    return owed


def _fields_checked(owed: int, view: DriverView, raised: int) -> tuple[str, ...]:
    """The ``invalid_field`` reports the driver raised since ``raised``, if not ``owed``."""
    said = sum(code is Code.INVALID_FIELD for code in view.codes[raised:])
    if said == owed:
        return ()
    return (f"the event's fields owe {owed} invalid_field, {said} raised",)


def _slots_reported(
    before: Sequence[tuple[int, SlotFacts]], view: DriverView, raised: int, tables: ModelTables
) -> tuple[str, ...]:
    """R3 on the slots an event bound: each entry a step binds to a slot (it appears in
    the slot's bindings) is one ``BIND`` of the slot table (``tables.slots``) from the
    slot's state before, and raises that row's code (``slot_reused`` at a bound slot);
    the step raises no other code of the slot table."""
    held = dict(before)
    owed: list[Code] = []
    for index, slot in view.slots:
        was = held.get(index)
        state = SlotState.FREE if was is None else was.state
        for ordinal in slot.entries:
            if was is not None and ordinal in was.entries:
                continue
            moved = tables.slots[state][SlotTrigger.BIND]
            state = moved.next_state
            owed += [] if moved.code is None else [moved.code]
        if state is not slot.state:
            return (f"slot {index} is {slot.state.value}, the slot table's {state.value}",)
    codes = {t.code for row in tables.slots.values() for t in row.values() if t.code is not None}
    said = sorted(c.value for c in view.codes[raised:] if c in codes)
    if said == sorted(c.value for c in owed):
        return ()
    return (f"the slots bound owe {sorted(c.value for c in owed)}, raised {said}",)


def _kept(before: Sequence[Code], view: DriverView, amends: bool) -> tuple[str, ...]:
    """The codes raised before an event stay as they were: a step only adds codes,
    but the terminal that amends an ``error`` replaces its ``response_error``: a
    response's failure is reported once (R14)."""
    kept = [c for c in before if not (amends and c is Code.RESPONSE_ERROR)]
    # The amended report may stay where it was (a terminal that says nothing of its
    # error keeps the error's words) or move to the end: either way it is there once.
    after = [c for c in view.codes if not (amends and c is Code.RESPONSE_ERROR)]
    found: list[str] = []
    if after[: len(kept)] != kept:
        found.append("the step removed or changed codes raised before it")
    if view.codes.count(Code.RESPONSE_ERROR) > 1:
        found.append("the response's failure is reported more than once")
    return tuple(found)


class _WireIds:
    """R4 on the ids items give their entries: the first wire ``id`` an item event
    brings an entry is its id from then on; a later different one is reported
    ``id_changed`` and the first kept.  R11 at the end: an entry whose id is none the
    stream gave (an item's ``id`` or ``item_id``, an event's ``item_id``) never carried
    one; it is given a minted id, and each such entry owes one ``id_minted``."""

    def __init__(self) -> None:
        self.first: dict[int, str] = {}
        self.ids: set[str] = set()

    def given(self, payload: Mapping[str, Any]) -> None:
        """The ids the event ``payload`` carries, for any entry."""
        response = payload.get("response")
        output = response.get("output") if isinstance(response, Mapping) else None
        items = [payload.get("item"), *(output if isinstance(output, list) else [])]
        found = [payload.get("item_id")]
        found += [i.get(k) for i in items if isinstance(i, Mapping) for k in ("id", "item_id")]
        self.ids |= {text for value in found if (text := _text(value)) is not None}

    def minted(self, view: DriverView, raised: int) -> tuple[str, ...]:
        """The response ended: every entry has an id, and the ones minted are reported."""
        found = [f"entry {e.ordinal} has no id" for e in view.entries if e.item_id is None]
        owed = sum(e.item_id is not None and e.item_id not in self.ids for e in view.entries)
        said = sum(code is Code.ID_MINTED for code in view.codes[raised:])
        if said != owed:
            found.append(f"{owed} entries never carried an id, {said} id_minted raised")
        return tuple(found)

    def problems(self, expected: Expected | None, view: DriverView, raised: int) -> tuple[str, ...]:
        """After an item event that reached its entry: the entry's id and the code owed."""
        if expected is None or expected.wire_id is None or expected.target is None:
            return ()
        entries = view.entries
        if expected.target >= len(entries):
            return ()
        first = self.first.setdefault(expected.target, expected.wire_id)
        found: list[str] = []
        if entries[expected.target].item_id != first:
            found.append(f"entry {expected.target}'s id is not its first wire id {first!r}")
        owed = first != expected.wire_id
        if owed != (Code.ID_CHANGED in view.codes[raised:]):
            found.append(f"the item's id owes {'an' if owed else 'no'} id_changed")
        return tuple(found)


def _arguments_checked(view: DriverView, raised: int) -> tuple[str, ...]:
    """At the response's end each ``function_call`` whose arguments are not JSON owes
    ``invalid_json_arguments`` (R9: the call's arguments are what a client parses)."""
    owed = 0
    for entry in view.entries:
        text = view.arguments(entry.ordinal) if entry.item_type == "function_call" else None
        if text:
            try:
                json.loads(text)
            except ValueError:
                owed += 1
    said = sum(code is Code.INVALID_JSON_ARGUMENTS for code in view.codes[raised:])
    if said == owed:
        return ()
    return (f"{owed} invalid_json_arguments owed at the end, {said} raised",)


def _effects(call: tuple[EntryState, Trigger], tables: ModelTables) -> tuple[Effect, ...]:
    """The effects of the lifecycle row ``call`` took, in the model's table."""
    return tables.lifecycle[call[0]][call[1]].effects


def _delta_chars(view: DriverView) -> int:
    return sum(entry.delta_chars for entry in view.entries)


def _executability(view: DriverView) -> Iterator[str]:
    """Each entry whose execution verdict is not settled as the model says (R9,
    ``model.execution``): once the response ended every client call has a verdict,
    ``executable`` is exactly "the verdict is one of ``EXECUTABLE``", and an executable
    entry was confirmed in a completed response (``executable_needs_completion``)."""
    completed = view.status is ResponseStatus.COMPLETED
    for entry in view.entries:
        unsettled = entry.execution is Execution.NOT_A_CALL
        if view.terminal and entry.item_type in CLIENT_CALLS and unsettled:
            yield f"entry {entry.ordinal} ({entry.item_type}) got no execution verdict"
        if entry.executable != (entry.execution in EXECUTABLE):
            yield f"entry {entry.ordinal} executable={entry.executable}, {entry.execution}"
        if entry.executable and not (completed and entry.confirmed):
            yield f"entry {entry.ordinal} executable, unconfirmed or not completed"


def _unaccounted(
    payload: Mapping[str, Any],
    calls: Sequence[tuple[EntryState, Trigger]],
    view: DriverView,
    chars: int,
) -> tuple[str, ...]:
    """What the event brought that the driver's step does not account for — the
    completeness obligations checked on the driver's own data, where the lifecycle
    abstraction has no payloads: every snapshot item is delivered or rejected
    (``nothing_lost``), and a non-empty delta that reached an open entry is joined into
    a channel (``deltas_accounted``; a channel past its size limit drops deltas, with
    ``limit_exceeded``)."""
    problems = list(_executability(view))
    response = payload.get("response")
    output = response.get("output") if isinstance(response, Mapping) else None
    if payload.get("type") == "response.completed" and isinstance(output, list):
        delivered = sum(1 for _, trigger in calls if trigger is Trigger.SNAPSHOT_ITEM)
        if delivered + view.snapshot_rejected != len(output):
            problems.append(
                f"{len(output)} snapshot items, {delivered} delivered and "
                f"{view.snapshot_rejected} rejected"
            )
    delta = payload.get("delta")
    opened = any(s in OPEN_STATES and t is Trigger.DELTA for s, t in calls)
    if opened and isinstance(delta, str) and delta:
        grown = _delta_chars(view) - chars
        limited = Code.LIMIT_EXCEEDED in view.codes
        if grown != len(delta) and not limited:
            problems.append(f"a delta of {len(delta)} characters grew the channels by {grown}")
    return tuple(problems)


PAYLOAD_INVARIANTS = tuple(
    INVARIANTS_BY_NAME[name] for name in ("empty_never_erases", "latest_nonempty_wins")
)
"""R7 on the driver's own channels (the lifecycle abstraction has no payloads): the
Python predicates of ``model.invariants``, on the driver's snapshot after each event."""


def _misreported(
    calls: Sequence[tuple[EntryState, Trigger]],
    view: DriverView,
    raised: int,
    tables: ModelTables,
    resumed: bool,
    snapshot_nonempty: bool,
) -> tuple[str, ...]:
    """The diagnostics the event's steps owe, exactly -- each note effect of each row
    taken raises its ``tables.note_codes`` code once (``missing_from_snapshot`` only
    when the terminal's snapshot has items, none ``tables.resume_waived`` waives in a
    ``resumed`` response), and no row-note code is raised that no row owes (the
    route's ``orphan_event`` is ``_Held``'s to count) -- and the payload invariants the
    driver's channels break after it."""
    owed: dict[Code, int] = {}
    for call in calls:
        for effect in _effects(call, tables):
            code = tables.note_codes[effect]
            if code is None or (resumed and tables.resume_waived[effect]):
                continue
            if effect is Effect.NOTE_MISSING_FROM_SNAPSHOT and not snapshot_nonempty:
                continue
            owed[code] = owed.get(code, 0) + 1
    row_codes = {c for c in tables.note_codes.values() if c is not None}
    problems = [
        f"the rows taken: owes {code.value} x{owed.get(code, 0)}, {said} raised"
        for code in sorted(row_codes, key=lambda c: c.value)
        if (said := view.codes[raised:].count(code)) != owed.get(code, 0)
        and not (code is Code.ORPHAN_EVENT and said >= owed.get(code, 0))
    ]
    snapshot = view.snapshot()
    problems += [
        f"the driver's channels break {invariant.name}"
        for invariant in PAYLOAD_INVARIANTS
        if not invariant.holds(snapshot)
    ]
    return tuple(problems)


def _identity(expected: Expected | None, view: DriverView) -> tuple[str, ...]:
    """The identity fields of the item's entry that are not the model's merge (R6)."""
    entries = view.entries
    if expected is None or expected.target is None or expected.target >= len(entries):
        return ()
    entry = entries[expected.target]
    return tuple(
        f"entry {entry.ordinal} holds {field.value} {getattr(entry, field.value)!r}, the "
        f"model's merge {value!r}"
        for field, value in expected.identity
        if getattr(entry, field.value) != value
    )


def _identity_reported(
    expected: Expected | None, view: DriverView, raised: int, tables: ModelTables
) -> tuple[str, ...]:
    """An item event whose row merges the item raises exactly the codes of its identity
    cells (``metadata_conflict``, ...: R6), besides its admission cell's (which may be
    one of them: ``duplicate_call_id``); any other live event but the terminal raises
    none of the identity table's codes."""
    owed: list[Code] = []
    if expected is not None:
        owed += expected.identity_codes or ()
        owed += [] if expected.code is None else [expected.code]
    codes = {
        cell.code
        for stages in tables.identity.values()
        for cells in stages.values()
        for cell in cells.values()
        if cell.code is not None
    }
    said = sorted(c.value for c in view.codes[raised:] if c in codes)
    if said == sorted(c.value for c in owed if c in codes):
        return ()
    return (f"the item's identity owes {sorted(c.value for c in owed)}, raised {said}",)


def _route_reported(
    payload: Mapping[str, Any],
    expected: Expected | None,
    calls: Sequence[tuple[EntryState, Trigger]],
    view: DriverView,
    raised: int,
    tables: ModelTables,
) -> tuple[str, ...]:
    """R5 on a payload or progress event: its routing cell's code (``orphan_event`` is
    ``_Held``'s) is raised once where the event reaches no entry, or where its row
    learns the event's ``item_id`` (``LEARN_ITEM_ID``); else no routing code is."""
    spec = WIRE_EVENTS.get(payload["type"])
    if expected is None or spec is None or spec.event_class is not EventClass.ITEM_SCOPED:
        return ()
    code = expected.route_code
    learns = bool(calls) and Effect.LEARN_ITEM_ID in _effects(calls[0], tables)
    reported = expected.target is None or (learns and expected.item_id is not None)
    owed = [code] if code is not None and code is not Code.ORPHAN_EVENT and reported else []
    codes = {
        route.code
        for row in tables.routing.values()
        for route in row.values()
        if route.code is not None and route.code is not Code.ORPHAN_EVENT
    }
    said = [c for c in view.codes[raised:] if c in codes]
    if said == owed:
        return ()
    return (f"the route owes {[c.value for c in owed]}, raised {[c.value for c in said]}",)


def _learned(
    expected: Expected | None,
    calls: Sequence[tuple[EntryState, Trigger]],
    view: DriverView,
    tables: ModelTables,
) -> tuple[str, ...]:
    """The payload event's ``item_id`` that its row says to learn (``LEARN_ITEM_ID``) but
    that does not name its entry after the event (R4)."""
    if expected is None or expected.item_id is None or expected.target is None or not calls:
        return ()
    if Effect.LEARN_ITEM_ID not in _effects(calls[0], tables):
        return ()
    if expected.target in view.named(expected.item_id):
        return ()
    return (f"item_id {expected.item_id!r} was to be learned by entry {expected.target}",)


def _triggers(driver: DriverStep) -> list[tuple[EntryState | None, Trigger]]:
    """The encoding steps of one driver step: ``(state of the target, trigger)``; the
    state is None for a response-wide step (delivered to every entry)."""
    steps: list[tuple[EntryState | None, Trigger]] = []
    for entry_state, trigger in driver.calls:
        if trigger in RESPONSE_WIDE_TRIGGERS:
            if not steps or steps[-1] != (None, trigger):
                steps.append((None, trigger))
        else:
            steps.append((entry_state, trigger))
    ended = driver.after.terminal and not driver.before.terminal
    if ended and not any(state is None for state, _ in steps):
        wide = Trigger.RESPONSE_COMPLETED if driver.after.completed else Trigger.RESPONSE_ABORTED
        steps.append((None, wide))
    return steps


class Refinement:
    """The encoding of ``tables`` at ``bounds``, unrolled for the steps of one event."""

    def __init__(self, tables: ModelTables, bounds: Bounds, channels: int = 1) -> None:
        self.encoding = Encoding(tables, bounds, channels=channels)
        self.bounds = bounds
        self.unobserved_slot = bounds.slots - 1
        # A plain incremental solver: each query fixes the first state and the triggers
        # to constants, and the tactic pipeline of ``new_solver`` would re-run over every
        # frame of the unrolling on each query.
        self.solver = z3.Solver()
        self.states: list[State] = [self.encoding.fresh_state("r0")]
        self.steps: list[Step] = []
        self.transitions: list[Term] = []
        self.environments: list[Term] = []
        self.known: dict[tuple[Any, ...], ConcreteState | Violation] = {}

    def _frames(self, count: int) -> None:
        while len(self.steps) < count:
            k = len(self.steps) + 1
            before = self.states[-1]
            move = self.encoding.fresh_step(f"r{k}.e")
            after = self.encoding.fresh_state(f"r{k}")
            self.transitions.append(
                self.encoding.equal(after, self.encoding.successor(before, move))
            )
            self.environments.append(self.encoding.environment(before, move))
            self.states.append(after)
            self.steps.append(move)

    def observed(self, state: State, seen: Observation) -> Term:
        """``state`` shows what the driver's state ``seen`` shows."""
        clauses: list[Term] = []
        for i in range(self.bounds.entries):
            if i >= len(seen.entries):
                clauses.append(state.entry_state[i] == ENTRY[EntryState.ABSENT])
                continue
            entry = seen.entries[i]
            slot = self.unobserved_slot if entry.slot is None else entry.slot
            clauses += [
                state.entry_state[i] == ENTRY[entry.state],
                state.entry_slot[i] == slot,
                state.completions[i] == entry.completions,
                state.admissions[i] == 1,
                state.confirmed[i] == entry.confirmed,
                state.in_snapshot[i] == entry.in_snapshot,
                # Which encoding channel stands for which driver channel is left to
                # Z3 (each step's channel is free): the counts must agree.
                z3.Sum([z3.If(c, 1, 0) for c in self.encoding.of_entry(state.channel_closed, i)])
                == entry.closed_channels,
            ]
        slots = dict(seen.slots)
        for s in range(self.unobserved_slot):
            seen_state = slots.get(s, SlotState.FREE)
            if seen_state is not None:
                clauses.append(state.slot_state[s] == SLOT[seen_state])
        clauses += [state.terminal == seen.terminal, state.completed == seen.completed]
        return z3.And(clauses)

    def check(self, before: ConcreteState, driver: DriverStep) -> ConcreteState | Violation:
        """The abstract state after ``driver``, or the violation.

        The answer depends only on the abstract state before, the steps and the
        observation after, so it is remembered: the many deltas of a stream in a row
        are one query.  An event the driver took no step on and that changed nothing
        observable leaves the abstract state as it is (the encoding has no step for it).
        """
        if driver.problems:
            return Violation(driver.index, driver.type, "; ".join(driver.problems), driver.calls)
        moves = _triggers(driver)
        if not moves and driver.expected is None and driver.before == driver.after:
            return before
        target = None if driver.expected is None else driver.expected.target
        key = (before, tuple(moves), driver.expected is not None, target, driver.after)
        if key not in self.known:
            self.known[key] = self._query(before, driver, moves)
        found = self.known[key]
        if isinstance(found, Violation):
            return Violation(driver.index, driver.type, found.reason, driver.calls)
        return found

    def _query(
        self,
        before: ConcreteState,
        driver: DriverStep,
        moves: list[tuple[EntryState | None, Trigger]],
    ) -> ConcreteState | Violation:
        if driver.expected is not None and driver.calls and driver.expected.target is None:
            reason = "the model sends this event to no entry"
            return Violation(driver.index, driver.type, reason, driver.calls)
        self._frames(len(moves))
        first = self.encoding.constant_state(before)
        goal: list[Term] = [self.encoding.equal(self.states[0], first)]
        # Only the frames this event uses: an unused frame is a free step the solver
        # would have to satisfy too.
        goal += self.transitions[: len(moves)]
        environment: list[Term] = []
        for k, (entry_state, trigger) in enumerate(moves):
            move, state = self.steps[k], self.states[k]
            goal.append(move.trigger == TRIGGER[trigger])
            if entry_state is not None:
                target = z3.Or(
                    [
                        z3.And(move.entry == i, state.entry_state[i] == ENTRY[entry_state])
                        for i in range(self.bounds.entries)
                    ]
                )
                goal.append(target)
            if driver.expected is not None and driver.expected.target is not None and k == 0:
                goal.append(move.entry == driver.expected.target)
            environment.append(self.environments[k])
        required = driver.expected is not None and driver.expected.required
        if (
            required
            and driver.expected is not None
            and driver.expected.target is not None
            and not moves
        ):
            return Violation(
                driver.index,
                driver.type,
                "the model places this item; the driver did not",
                driver.calls,
            )
        goal.append(self.observed(self.states[len(moves)], driver.after))
        self.solver.push()
        try:
            self.solver.add(*goal, *environment)
            if self.solver.check() == z3.sat:
                return self.encoding.read_state(self.solver.model(), self.states[len(moves)])
        finally:
            self.solver.pop()
        self.solver.push()
        try:
            self.solver.add(*goal)
            allowed = self.solver.check() == z3.sat
        finally:
            self.solver.pop()
        reason = (
            "an allowed step, but outside the ENVIRONMENT assumptions"
            if allowed
            else "not a step of the encoding"
        )
        return Violation(driver.index, driver.type, reason, driver.calls)


def _round(count: int) -> int:
    """``count`` rounded up to an even number (at least 2), so that streams of similar
    size share one unrolling."""
    return max(2, count + count % 2)


def _dense(steps: Sequence[DriverStep]) -> list[DriverStep]:
    """The steps with the slots renamed 0, 1, 2, ... in the order of their indexes.  The
    encoding's slots are told apart by equality and by one order, ``ENVIRONMENT``'s
    ``snapshot_in_array_order`` (the k-th snapshot item delivered has slot k or more):
    the renaming keeps the order, and the snapshot's positions 0, 1, ... are among the
    indexes renamed, so each keeps its number.  It keeps the unrolling as
    small as the number of slots used, not the largest ``output_index`` (up to
    ``MAX_INDEX``)."""
    entries = {e.slot for s in steps for o in (s.before, s.after) for e in o.entries}
    used = sorted(
        {position for s in steps for position in range(s.positions)}
        | {slot for slot in entries if slot is not None}
        | {index for s in steps for o in (s.before, s.after) for index, _ in o.slots}
    )
    rank = {index: position for position, index in enumerate(used)}

    def renamed(seen: Observation) -> Observation:
        entries = tuple(
            replace(e, slot=None if e.slot is None else rank[e.slot]) for e in seen.entries
        )
        slots = tuple((rank[index], state) for index, state in seen.slots)
        return replace(seen, entries=entries, slots=slots)

    return [replace(s, before=renamed(s.before), after=renamed(s.after)) for s in steps]


def _bounds(steps: Sequence[DriverStep]) -> Bounds:
    entries = max(len(s.after.entries) for s in steps)
    slots = [e.slot for s in steps for e in s.after.entries if e.slot is not None]
    slots += [index for s in steps for index, _ in s.after.slots]
    slots += [s.positions - 1 for s in steps if s.positions]  # a snapshot item's slot
    # One more slot than the driver ever used: the unobserved one (see the module doc).
    return Bounds(_round(entries), _round((max(slots) + 1 if slots else 0) + 1))


def _channels(steps: Sequence[DriverStep]) -> int:
    """Channels per entry of the abstraction: as many as the driver's widest entry."""
    return max([1, *(e.channels for s in steps for e in s.after.entries)])


_UNROLLINGS: dict[tuple[int, Bounds, int], tuple[ModelTables, Refinement]] = {}
"""One unrolling per model, bounds and channels, reused by every stream of the process
(building the successor terms costs far more than a query)."""


def refinement_for(tables: ModelTables, bounds: Bounds, channels: int = 1) -> Refinement:
    """The (cached) ``Refinement`` of ``tables`` at ``bounds`` with ``channels``."""
    key = (id(tables), bounds, channels)
    cached = _UNROLLINGS.get(key)
    if cached is None or cached[0] is not tables:
        cached = (tables, Refinement(tables, bounds, channels))
        _UNROLLINGS[key] = cached
    return cached[1]


def check_stream(
    events: Iterable[Mapping[str, Any]],
    kernels: KernelSet | None = None,
    tables: ModelTables = REFERENCE,
) -> list[Violation]:
    """Every violation of the refinement on one stream (each response checked from its
    start): the driver runs ``kernels`` (the generated ones of ``tables`` by default),
    the encoding and the expected matches are ``tables``'."""
    if kernels is None:
        from responses_oracle.model.codegen import load_kernels

        kernels = load_kernels(tables)
    violations: list[Violation] = []
    for response in responses(events):
        steps = _dense(driver_steps(response, kernels, tables))
        refinement = refinement_for(tables, _bounds(steps), _channels(steps))
        solver = new_solver()
        initial = refinement.encoding.fresh_state("init")
        solver.add(
            refinement.encoding.initial(initial),
            *[slot == 0 for slot in initial.entry_slot],
        )
        solver.check()
        state = refinement.encoding.read_state(solver.model(), initial)
        for driver in steps:
            outcome = refinement.check(state, driver)
            if isinstance(outcome, Violation):
                violations.append(outcome)
                break
            state = outcome
    return violations
