"""Replaying a rendered trace through the generated reducer, state by state.

A counterexample is only as good as the claim that the stream it renders really
drives the reducer the way the trace says.  ``replay`` feeds a trace's rendered frames
(``counterexample.render_frames``) to a ``Reducer`` built from the trace's own model
(``model.codegen.load_kernels``), and after every frame compares the reducer's
``snapshot()`` with the state the encoding predicted: every entry's lifecycle state,
completion count and slot, every slot's state, whether the response is terminal, and
(when the trace tracks payloads) each entry's final and last non-empty argument value
and (when it tracks names) each entry's name, read back into the ``Payload``
abstraction.
A difference means the encoding's environment or the renderer does not describe the
driver; it is reported, never ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from responses_oracle.model.catalogue import WIRE_EVENTS, ChannelKind
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.invariants import (
    INVARIANTS,
    EntrySnapshot,
    ResponseSnapshot,
    Scope,
    StepRecord,
)
from responses_oracle.model.tables import KernelSet, ModelTables
from responses_oracle.model.vocabulary import EntryState, SlotState
from responses_oracle.reducer import Reducer

from .counterexample import Event, name_text, payload_text, render_frames
from .encoding import Bounds, ConcreteState, Payload
from .induction import Run
from .routing_z3 import ConcreteRoutingState, RoutingKind


@dataclass(frozen=True)
class Observed:
    """The part of a reducer snapshot the encoding predicts, in the encoding's terms."""

    entry_state: tuple[EntryState, ...]
    completions: tuple[int, ...]
    entry_slot: tuple[int | None, ...]
    slot_state: tuple[SlotState, ...]
    terminal: bool
    payloads: tuple[tuple[Payload, Payload], ...] | None
    names: tuple[Payload, ...] | None = None


def _abstract(
    entry: int,
    text: str | None,
    rendering: Callable[[int, Payload], str | None] = payload_text,
) -> Payload:
    """The abstract value of a concrete text of entry ``entry`` (a payload, or a name
    with ``rendering=name_text``)."""
    for value in Payload:
        if rendering(entry, value) == text:
            return value
    raise ValueError(f"entry {entry}: {text!r} is no rendered value")


def _channel(entry: EntrySnapshot | None) -> tuple[str | None, str | None]:
    """The final value and last non-empty offer of an entry's arguments channel."""
    for channel in entry.channels if entry is not None else ():
        if channel.kind is ChannelKind.ARGUMENTS and channel.index == 0:
            return channel.final, channel.last_nonempty_offer
    return None, None


def observe(
    snapshot: ResponseSnapshot, bounds: Bounds, payloads: bool = False, names: bool = False
) -> Observed:
    """Read ``snapshot`` as the encoding would: absent entries, free slots by default."""
    entries = {entry.ordinal: entry for entry in snapshot.entries}
    slots = {slot.index: slot.state for slot in snapshot.slots}
    ordinals = range(max(bounds.entries, len(entries)))
    channels = [_channel(entries.get(i)) for i in ordinals]
    return Observed(
        entry_state=tuple(
            entries[i].state if i in entries else EntryState.ABSENT for i in ordinals
        ),
        completions=tuple(entries[i].completions if i in entries else 0 for i in ordinals),
        entry_slot=tuple(entries[i].slot if i in entries else None for i in ordinals),
        slot_state=tuple(
            slots.get(s, SlotState.FREE) for s in range(max(bounds.slots, len(slots)))
        ),
        terminal=snapshot.terminal,
        payloads=tuple(
            (_abstract(i, final), _abstract(i, last))
            for i, (final, last) in zip(ordinals, channels, strict=True)
        )
        if payloads
        else None,
        names=tuple(
            _abstract(i, entries[i].name if i in entries else None, name_text) for i in ordinals
        )
        if names
        else None,
    )


def predicted(state: ConcreteState, payloads: bool = False, names: bool = False) -> Observed:
    """What the encoding says ``observe`` must show in ``state``."""
    admitted = [entry is not EntryState.ABSENT for entry in state.entry_state]
    return Observed(
        entry_state=state.entry_state,
        completions=state.completions,
        entry_slot=tuple(
            slot if is_admitted else None
            for slot, is_admitted in zip(state.entry_slot, admitted, strict=True)
        ),
        slot_state=state.slot_state,
        terminal=state.terminal,
        payloads=tuple(
            _predicted_payload(held, pending, last)
            for held, pending, last in zip(
                state.held, state.pending, state.last_offered, strict=True
            )
        )
        if payloads
        else None,
        names=state.name if names else None,
    )


def _predicted_payload(held: Payload, pending: Payload, last: Payload) -> tuple[Payload, Payload]:
    """The final value and last offer, as ``properties.final_value`` and
    ``properties.last_offer`` define them over the abstract channel."""
    missing = Payload.MISSING
    final = pending if pending is not missing and held is missing else held
    return final, pending if pending is not missing else last


@dataclass(frozen=True)
class Replay:
    """The reducer's snapshot after every frame, and every difference from the trace."""

    snapshots: tuple[ResponseSnapshot, ...]
    mismatches: tuple[str, ...]

    @property
    def final(self) -> ResponseSnapshot:
        """The snapshot after the whole stream."""
        return self.snapshots[-1]


@dataclass(frozen=True)
class RoutingObserved:
    """What the routing system predicts: admitted and closed entries, slot states,
    and the entry the last event was delivered to (None if it was not)."""

    admitted: tuple[bool, ...]
    closed: tuple[bool, ...]
    slot_state: tuple[SlotState, ...]
    delivered: int | None


def _routing_predicted(state: ConcreteRoutingState, routed: bool) -> RoutingObserved:
    return RoutingObserved(
        state.admitted,
        state.closed,
        state.slot_state,
        state.target if routed and state.target >= 0 else None,
    )


def _routing_observed(
    snapshot: ResponseSnapshot, bounds: Bounds, delivered: int | None
) -> RoutingObserved:
    states = {entry.ordinal: entry.state for entry in snapshot.entries}
    slots = {slot.index: slot.state for slot in snapshot.slots}
    ordinals = range(bounds.entries)
    return RoutingObserved(
        tuple(i in states for i in ordinals),
        tuple(states.get(i) is EntryState.DONE for i in ordinals),
        tuple(slots.get(s, SlotState.FREE) for s in range(bounds.slots)),
        delivered,
    )


def replay(trace: Run[Any, Any], tables: ModelTables, kernels: KernelSet | None = None) -> Replay:
    """Feed ``trace``'s stream to the reducer of ``tables`` and compare every frame.

    ``kernels`` overrides the reducer's kernels (to replay a mutant's stream through
    the reference reducer); then states are not compared, only snapshots kept.
    """
    compare = kernels is None
    reducer = Reducer(kernels=kernels or load_kernels(tables), trace=True)
    snapshots: list[ResponseSnapshot] = []
    mismatches: list[str] = []
    payloads = any(getattr(step, "value", None) is not None for step in trace.steps)
    names = any(getattr(step, "name", None) is not None for step in trace.steps)
    for frame in render_frames(trace):
        for event in frame.events:
            reducer.feed(event)
        snapshot = reducer.snapshot()
        snapshots.append(snapshot)
        if not compare or frame.steps is None:
            continue
        state = trace.states[frame.steps]
        expected: Any
        if isinstance(state, ConcreteRoutingState):
            last = reducer.traces[-1] if reducer.traces else None
            routed = frame.steps > 0 and trace.steps[frame.steps - 1].kind is RoutingKind.ROUTE
            expected = _routing_predicted(state, routed)
            actual: Any = _routing_observed(
                snapshot, trace.bounds, last.entry if routed and last is not None else None
            )
        else:
            expected = predicted(state, payloads, names)
            actual = observe(snapshot, trace.bounds, payloads, names)
        if expected != actual:
            mismatches.append(f"after step {frame.steps}: expected {expected}, got {actual}")
    return Replay(tuple(snapshots), tuple(mismatches))


def violated_invariants(events: Sequence[Event], kernels: KernelSet) -> frozenset[str]:
    """The invariants of ``model.invariants`` that the reducer built from ``kernels``
    breaks on ``events``, as the Hypothesis suites check them: state invariants after
    every event, step invariants on every event, final ones once the response ended."""
    reducer = Reducer(kernels=kernels, trace=True)
    broken: set[str] = set()
    before = reducer.snapshot()
    for event in events:
        reducer.feed(event)
        after = reducer.snapshot()
        traces = reducer.traces or []
        spec = WIRE_EVENTS.get(str(event.get("type")))
        record = StepRecord(
            before,
            after,
            spec.event_class if spec is not None else None,
            frozenset(traces[-1].codes if traces else ()),
        )
        for invariant in INVARIANTS:
            if invariant.scope is Scope.STEP:
                holds = invariant.holds(record)
            elif invariant.scope is Scope.STATE or after.terminal:
                holds = invariant.holds(after)
            else:
                continue
            if not holds:
                broken.add(invariant.name)
        before = after
    return frozenset(broken)
