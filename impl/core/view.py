"""The driver seen from outside: one response run event by event, read through a view.

The refinement check (``proofs/refinement.py``) compares the driver with the model
after every event.  It must not call the driver's parts (``dispatch.step``,
``ResponseState``, ``parse_event``): an edit of one of them would move what the check
observes along with what it checks.  This module is its one door into ``impl/core``:

- ``DriverRun(kernels)`` feeds one response's events (``feed``) and its end of input
  (``end``) to the reducer's own entries into the rules, nothing else: the traced
  ``step`` (every route decided anew: the reference for the route cache) and, on twin
  states, the untraced ``advancer`` (what ``Reducer`` runs: the fast path) and the
  cached traced ``tracer`` (what ``Reducer(trace=True)`` runs: ``explain``, ``diff``
  and the proxy's canonicalizer);
- ``run.view`` is a ``DriverView``: read-only facts of the traced state after the last
  event, each a fresh immutable value (``EntryFacts``, ``SlotFacts``, tuples), never a
  reference into the state; ``run.fast`` and ``run.cached`` the same of the twins'
  states.  The three must agree after every event (``DriverView.facts``): the twins
  are the traced step without its trace or with its routes cached, so checking the one
  against the model checks all three.

Theory of operation
-------------------
The view reads the state's fields and copies them; it decides nothing (no table, no
classifier is consulted here).  What it shows is what the model's abstract state has:
per entry its lifecycle state, slot, completions, confirmation, snapshot flag,
channels and identity; per slot its state and bindings; the ids and ``call_id``s that
name an entry; the response's status and end; the sequence state (the last number
taken, the resume point); the events a resumed response holds for items opened before
its resume point; the codes raised so far; each entry's merged item fields and the
value of each of its channels.

Example::

    run = DriverRun(KERNELS)
    run.feed(0, {"type": "response.created", "response": {"id": "r"}})
    run.view.codes  # ()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from responses_oracle.model.catalogue import ChannelKind
from responses_oracle.model.execution import Execution
from responses_oracle.model.recordkit import record
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
    Code,
    EntryState,
    ItemKind,
    ResponseStatus,
    SlotState,
)

from .dispatch import advancer, end_of_input, step, tracer
from .events import parse_event
from .state import ResponseState, channel_text

if TYPE_CHECKING:
    from responses_oracle.model.invariants import ResponseSnapshot


@record(frozen=True, slots=True)
class EntryFacts:
    """One entry, as plain values."""

    ordinal: int
    item_type: str
    state: EntryState
    slot: int | None
    completions: int
    confirmed: bool
    in_snapshot: bool
    channels: tuple[tuple[ChannelKind, int, bool], ...]
    """Each channel: its kind, its part index and whether it is closed."""
    delta_chars: int
    call_id: str | None
    name: str | None
    namespace: str | None
    item_id: str | None
    executable: bool
    execution: Execution


@record(frozen=True, slots=True)
class SlotFacts:
    """One ``output_index``: its state and the ordinals bound to it, first first."""

    state: SlotState
    entries: tuple[int, ...]


class DriverView:
    """Read-only facts of one response's driver state (each call reads it afresh)."""

    __slots__ = ("_state",)

    def __init__(self, state: ResponseState) -> None:
        self._state = state

    @property
    def entries(self) -> tuple[EntryFacts, ...]:
        """Every admitted entry, in admission order."""
        return tuple(
            EntryFacts(
                entry.ordinal,
                entry.item_type,
                entry.state,
                entry.slot,
                entry.completions,
                entry.confirmed,
                entry.in_snapshot,
                tuple((c.kind, c.index, c.closed) for c in entry.channels.values()),
                sum(c.delta_chars for c in entry.channels.values()),
                entry.call_id,
                entry.name,
                entry.namespace,
                entry.item_id,
                entry.executable,
                entry.execution,
            )
            for entry in self._state.entries
        )

    @property
    def slots(self) -> tuple[tuple[int, SlotFacts], ...]:
        """Every slot by index, in index order."""
        return tuple(
            (index, SlotFacts(slot.state, tuple(slot.entries)))
            for index, slot in sorted(self._state.slots.items())
        )

    def slot(self, index: Any) -> SlotFacts | None:
        """The slot at ``index`` (None: no such slot, or not an int)."""
        held = self._state.slots.get(index) if isinstance(index, int) else None
        return None if held is None else SlotFacts(held.state, tuple(held.entries))

    def named(self, item_id: str | None) -> tuple[int, ...]:
        """The entries an item id names (its aliases)."""
        if item_id is None:
            return ()
        key = self._state.interner.find(item_id)
        return tuple(self._state.aliases.get(key, ())) if key is not None else ()

    def holder(self, kind: ItemKind, call_id: str | None) -> tuple[int, ...]:
        """The entry of ``kind``'s namespace that holds ``call_id`` (none or one)."""
        if call_id is None:
            return ()
        key = self._state.interner.find(call_id)
        ordinal = self._state.call_ids.get((kind, key)) if key is not None else None
        return (ordinal,) if ordinal is not None else ()

    def part(self, ordinal: int, kind: ChannelKind, index: int) -> Mapping[str, Any] | None:
        """A copy of the part object the channel ``(kind, index)`` of entry ``ordinal``
        holds (R15: its annotations), or None."""
        entries = self._state.entries
        channel = entries[ordinal].channels.get((kind, index)) if ordinal < len(entries) else None
        part = channel.part if channel is not None else None
        return (
            None
            if part is None
            else {key: list(v) if isinstance(v, list) else v for key, v in part.items()}
        )

    def arguments(self, ordinal: int) -> str | None:
        """The text of entry ``ordinal``'s ``arguments`` channel (part 0), or None."""
        return self.channel_value(ordinal, ChannelKind.ARGUMENTS, 0)

    def channel_value(self, ordinal: int, kind: ChannelKind, index: int) -> str | None:
        """The value of entry ``ordinal``'s channel ``kind[index]`` (its held value, or its
        deltas not yet joined), or None: no such channel, or no value."""
        entries = self._state.entries
        channel = entries[ordinal].channels.get((kind, index)) if ordinal < len(entries) else None
        return None if channel is None else channel_text(channel)

    def channel_values(
        self, ordinal: int
    ) -> tuple[tuple[ChannelKind, int, str | None, str | None], ...]:
        """Every channel of entry ``ordinal``: its kind, part index, held value and the
        deltas not yet joined (None: none)."""
        channels = self._state.entries[ordinal].channels.values()
        return tuple(
            (c.kind, c.index, c.value, "".join(c.deltas) if c.deltas else None) for c in channels
        )

    def item(self, ordinal: int) -> dict[str, Any]:
        """A copy of entry ``ordinal``'s merged item fields (``identity.merge_item``)."""
        return dict(self._state.entries[ordinal].item)

    @property
    def terminal(self) -> bool:
        """The response ended."""
        return self._state.terminal

    @property
    def status(self) -> ResponseStatus:
        """The response's status."""
        return self._state.status

    @property
    def codes(self) -> tuple[Code, ...]:
        """The codes raised so far, in order."""
        return tuple(d.code for d in self._state.diagnostics)

    @property
    def last_sequence(self) -> int | None:
        """The last ``sequence_number`` taken (R1)."""
        return self._state.last_sequence

    @property
    def resumed_at(self) -> int | None:
        """The first ``sequence_number`` of a resumed response (R14), or None."""
        return self._state.resumed_at

    @property
    def held(self) -> tuple[tuple[int | None, str | None], ...]:
        """The payload events a resumed response holds, by ``(output_index, item_id)``."""
        return tuple((index, item_id) for index, item_id, _ in self._state.held_over)

    @property
    def snapshot_items(self) -> int:
        """How many items the terminal's output held."""
        return self._state.snapshot_items

    @property
    def snapshot_rejected(self) -> int:
        """How many of them no entry took."""
        return self._state.snapshot_rejected

    def snapshot(self) -> ResponseSnapshot:
        """The state as ``model.invariants`` reads it (frozen data)."""
        return self._state.snapshot()

    def facts(self) -> tuple[Any, ...]:
        """Everything this view shows, with each diagnostic's event and detail: two
        states that reduced the same events the same way have equal facts."""
        ordinals = range(len(self._state.entries))
        return (
            self.entries,
            self.slots,
            tuple((d.code, d.event_index, d.detail) for d in self._state.diagnostics),
            tuple(self._state.held_over),
            tuple(self.item(o) for o in ordinals),
            tuple(self.channel_values(o) for o in ordinals),
            self.terminal,
            self.status,
            self.last_sequence,
            self.resumed_at,
            self.snapshot_items,
            self.snapshot_rejected,
        )


class DriverRun:
    """One response fed to the reducer, event by event, with ``kernels``: to the traced
    ``step`` and, on twin states, to the fast path (``advancer``) and the cached traced
    step (``tracer``), both of which run ``fast_kernels`` (``kernels`` unless given)."""

    __slots__ = (
        "_advance",
        "_cached",
        "_fast",
        "_fast_kernels",
        "_kernels",
        "_state",
        "_trace",
        "cached",
        "fast",
        "view",
    )

    def __init__(self, kernels: KernelSet, fast_kernels: KernelSet | None = None) -> None:
        self._kernels = kernels
        self._fast_kernels = kernels if fast_kernels is None else fast_kernels
        self._state = ResponseState()
        self.view = DriverView(self._state)
        """The traced step's state after the last event, read-only."""
        self._fast = ResponseState()
        self._advance = advancer(self._fast, self._fast_kernels)
        self.fast = DriverView(self._fast)
        """The fast path's state after the last event, read-only."""
        self._cached = ResponseState()
        self._trace = tracer(self._cached, self._fast_kernels)
        self.cached = DriverView(self._cached)
        """The cached traced step's state after the last event, read-only."""

    def feed(self, index: int, payload: Mapping[str, Any]) -> None:
        """Reduce the event ``payload``, the ``index``-th of the stream, on all three paths."""
        step(self._state, parse_event(index, payload), self._kernels)
        self._advance(parse_event(index, payload))
        self._trace(parse_event(index, payload))

    def end(self) -> None:
        """The input ended."""
        end_of_input(self._state, self._kernels)
        end_of_input(self._fast, self._fast_kernels)
        end_of_input(self._cached, self._fast_kernels)
