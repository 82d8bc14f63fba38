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

The replay needs the trace only for what the encoding predicts after each frame
(``counterexample.expectations``); ``follow`` replays a stream from those predictions
alone.  So the proof record keeps a counterexample's stream and predictions, and
replays them through the reducer as its own step, without re-running a proof
(``docsite.proofs.replayed``).
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

from .counterexample import (
    Event,
    Expectations,
    Observed,
    RoutingObserved,
    expectations,
    name_text,
    payload_text,
)
from .encoding import Bounds, Payload
from .induction import Run


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


@dataclass(frozen=True)
class Replay:
    """The reducer's snapshot after every frame, and every difference from the trace."""

    snapshots: tuple[ResponseSnapshot, ...]
    mismatches: tuple[str, ...]

    @property
    def final(self) -> ResponseSnapshot:
        """The snapshot after the whole stream."""
        return self.snapshots[-1]


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


def follow(
    events: Sequence[Event], expected: Expectations, kernels: KernelSet, compare: bool = True
) -> Replay:
    """Feed ``events`` to the reducer of ``kernels`` frame by frame and, unless
    ``compare`` is off, compare each observation with the one ``expected`` predicts."""
    reducer = Reducer(kernels=kernels, trace=True)
    snapshots: list[ResponseSnapshot] = []
    mismatches: list[str] = []
    position = 0
    for frame in expected.frames:
        for event in events[position : position + frame.events]:
            reducer.feed(event)
        position += frame.events
        snapshot = reducer.snapshot()
        snapshots.append(snapshot)
        if not compare or frame.expected is None:
            continue
        actual: Any
        if frame.routed is not None:
            last = reducer.traces[-1] if reducer.traces else None
            delivered = last.entry if frame.routed and last is not None else None
            actual = _routing_observed(snapshot, expected.bounds, delivered)
        else:
            actual = observe(snapshot, expected.bounds, expected.payloads, expected.names)
        if str(actual) != frame.expected:
            mismatches.append(f"after step {frame.steps}: expected {frame.expected}, got {actual}")
    return Replay(tuple(snapshots), tuple(mismatches))


FOLLOWED = "the generated reducer follows it"
"""What ``finding`` says of a stream the reducer followed frame by frame."""


def finding(events: Sequence[Event], expected: Expectations, kernels: KernelSet) -> str:
    """The replay's finding, as a proof row reports it: ``FOLLOWED``, or the first
    frame where the reducer of ``kernels`` did not do what the encoding predicts."""
    mismatches = follow(events, expected, kernels).mismatches
    return mismatches[0] if mismatches else FOLLOWED


def replay(trace: Run[Any, Any], tables: ModelTables, kernels: KernelSet | None = None) -> Replay:
    """Feed ``trace``'s stream to the reducer of ``tables`` and compare every frame.

    ``kernels`` overrides the reducer's kernels (to replay a mutant's stream through
    the reference reducer); then states are not compared, only snapshots kept.
    """
    events, expected = expectations(trace)
    return follow(events, expected, kernels or load_kernels(tables), compare=kernels is None)


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
