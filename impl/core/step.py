"""The driver: one event in, the state of one response updated.  Pure and total.

Theory of operation
-------------------
``advance(state, event, kernels)`` is the whole reducer.  It never does I/O, never
reads a clock, never draws a random number, and never raises on any input: whatever is
wrong with an event becomes a ``Diagnostic`` and the next event is reduced as usual.
``step`` is ``advance`` that also says what the event did (a ``StepTrace``, for
``explain``); the summaries a trace carries are formatted only then, so reducing
without a trace does no work for it.

Every decision is taken by a kernel generated from a model table; this module only
*classifies* (what the router, the matcher, the payload rule see) and *executes* the
named effects the kernels return.  The flow is one way:

    event ─ classify ─► route (R5) / admit or match (R6) ─► entry
          ─ lifecycle kernel (R8) ─► next state + effects ─► execute effects
                                      (slot kernel R3, payload kernel R7)

The state is updated in place (see ``state.py``); the diagnostics an event raises are
appended to the state (and their codes to the trace).

A response ends (``finish``) on its first terminal event or at the end of input; then
the snapshot is reconciled (R9), unconfirmed entries are reported, ids are minted for
entries that never had one (R11), and executability is decided.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from responses_oracle.model.admission import IDENTITY_FIELDS
from responses_oracle.model.catalogue import (
    ITEM_TYPES,
    STRAY_ITEM_FIELDS,
    UNKNOWN_ITEM_TYPE,
    ChannelKind,
    ChannelLocation,
    EventClass,
)
from responses_oracle.model.lifecycle import OPEN_STATES
from responses_oracle.model.routing import Route
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
    AddedView,
    AdmissionAction,
    CandidateRelation,
    Code,
    Effect,
    EntryState,
    IdentityRelation,
    IdSource,
    IdView,
    MatchView,
    PayloadAction,
    PayloadHeld,
    PayloadSource,
    ResponseStatus,
    RouteAction,
    SlotState,
    SlotTrigger,
    SlotView,
    Trigger,
)

from .events import Event
from .ids import mint_item_id
from .state import Channel, Diagnostic, Entry, ResponseState, Slot


@dataclass(frozen=True, slots=True)
class ReducerLimits:
    """Bounds on what one response may make the reducer hold (hostile input)."""

    max_entries: int = 100_000
    """Entries admitted per response; more items are dropped with ``limit_exceeded``."""
    max_channel_chars: int = 64 * 1024 * 1024
    """Characters of deltas per channel; more are dropped with ``limit_exceeded``."""


DEFAULT_LIMITS = ReducerLimits()
"""The limits used unless the caller gives others."""


@dataclass(frozen=True, slots=True)
class StepTrace:
    """What one event did, for ``explain``: the route and the entry's transition."""

    index: int
    type: str
    decision: str
    entry: int | None
    before: EntryState | None
    after: EntryState | None
    codes: tuple[Code, ...]


_TERMINAL_STATUS: dict[EventClass, ResponseStatus] = {
    EventClass.RESPONSE_COMPLETED: ResponseStatus.COMPLETED,
    EventClass.RESPONSE_INCOMPLETE: ResponseStatus.INCOMPLETE,
    EventClass.RESPONSE_FAILED: ResponseStatus.FAILED,
    EventClass.RESPONSE_CANCELLED: ResponseStatus.CANCELLED,
    EventClass.ERROR: ResponseStatus.FAILED,
}
"""Terminal event classes and the status each gives the response (R9)."""

_ITEM_SOURCE: dict[Trigger, PayloadSource] = {
    Trigger.ITEM_DONE: PayloadSource.ITEM_DONE,
    Trigger.SNAPSHOT_ITEM: PayloadSource.SNAPSHOT,
}

_CHANNEL_TRIGGERS: tuple[Trigger, ...] = (Trigger.DELTA, Trigger.PAYLOAD_DONE, Trigger.PART_ADDED)
"""The triggers of item-scoped events that name a channel of their entry."""

# The enum members the path of every payload event compares with, bound once: on
# Python 3.11 reading a member off its class (``SlotView.ONE``) goes through the
# ``__getattr__`` hook of ``EnumType`` and costs ten times a global name.
_ITEM_SCOPED = EventClass.ITEM_SCOPED
_DELTA = Trigger.DELTA
_APPEND_DELTA = Effect.APPEND_DELTA
_SHARED = SlotState.SHARED
_BY_SLOT, _BY_ID = RouteAction.BY_SLOT, RouteAction.BY_ID
_NO_SLOT, _ONE_SLOT, _SHARED_SLOT = SlotView.NONE, SlotView.ONE, SlotView.SHARED
_ID_ABSENT, _ID_UNSEEN = IdView.ABSENT, IdView.UNSEEN
_ONE_OF_SLOT, _SEVERAL_OF_SLOT = IdView.ONE_OF_SLOT, IdView.SEVERAL_OF_SLOT
_ONE_OUTSIDE, _SEVERAL_OUTSIDE = IdView.ONE_OUTSIDE, IdView.SEVERAL_OUTSIDE


def _nonempty(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class _Step:
    """The execution context of one event: state, kernels, event, what it raised.

    ``tracing`` says whether a ``StepTrace`` will be read; only then is ``decision``
    (a summary for people) formatted.
    """

    __slots__ = (
        "before",
        "decision",
        "entry",
        "event",
        "kernels",
        "limits",
        "raised",
        "state",
        "tracing",
    )

    def __init__(
        self,
        state: ResponseState,
        kernels: KernelSet,
        limits: ReducerLimits,
        event: Event | None,
        tracing: bool = False,
    ) -> None:
        self.state = state
        self.kernels = kernels
        self.limits = limits
        self.event = event
        self.tracing = tracing
        self.raised: list[Diagnostic] = []
        self.decision = ""
        self.entry: Entry | None = None
        self.before: EntryState | None = None

    # -- diagnostics -----------------------------------------------------------------

    def note(self, code: Code, detail: str, with_event: bool = False) -> None:
        event = self.event
        diagnostic = Diagnostic(
            code,
            event.index if event is not None else None,
            event.sequence_number if event is not None else None,
            detail,
            event.payload if with_event and event is not None else None,
        )
        self.raised.append(diagnostic)
        self.state.diagnostics.append(diagnostic)

    # -- identity maps (R4) ------------------------------------------------------------

    def named_by(self, item_id: str | None) -> Sequence[int]:
        if not item_id:
            return ()
        key = self.state.interner.find(item_id)
        return self.state.aliases.get(key, ()) if key is not None else ()

    def add_alias(self, entry: Entry, item_id: str) -> None:
        aliases = self.state.aliases
        key = self.state.interner.intern(item_id)
        owners = aliases.get(key)
        if owners is None:
            aliases[key] = [entry.ordinal]
        elif entry.ordinal not in owners:
            owners.append(entry.ordinal)

    def entry_with_call_id(self, call_id: str | None) -> Entry | None:
        if not call_id:
            return None
        key = self.state.interner.find(call_id)
        ordinal = self.state.call_ids.get(key) if key is not None else None
        return self.state.entries[ordinal] if ordinal is not None else None

    # -- the lifecycle -----------------------------------------------------------------

    def deliver(
        self,
        entry: Entry,
        trigger: Trigger,
        *,
        item: Mapping[str, Any] | None = None,
        channel: Channel | None = None,
        snapshot_nonempty: bool = False,
    ) -> None:
        """Move ``entry`` along the lifecycle table and execute the row's effects."""
        transition = self.kernels.lifecycle(entry.state, trigger)
        if self.entry is None:
            self.entry, self.before = entry, entry.state
        for effect in transition.effects:
            self.execute(effect, entry, trigger, item, channel, snapshot_nonempty)
        entry.state = transition.next_state

    def execute(
        self,
        effect: Effect,
        entry: Entry,
        trigger: Trigger,
        item: Mapping[str, Any] | None,
        channel: Channel | None,
        snapshot_nonempty: bool,
    ) -> None:
        event = self.event
        # Each branch tests a different effect, so their order is free: the effect of
        # almost every event of a stream comes first.
        if effect is _APPEND_DELTA:
            if channel is not None and event is not None:
                # A delta's channel is the entry's own but for the first: skip the call.
                if not channel.attached:
                    channel = _attach(entry, channel)
                self.append_delta(channel, event.value)
        elif effect is Effect.ADMIT:
            self.state.entries.append(entry)
        elif effect is Effect.BIND_SLOT:
            self.move_slot(entry, SlotTrigger.BIND)
        elif effect is Effect.TOMBSTONE_SLOT:
            self.move_slot(entry, SlotTrigger.TOMBSTONE)
        elif effect is Effect.MERGE_ITEM and item is not None:
            self.merge_item(entry, item)
        elif effect is Effect.OFFER_ITEM_PAYLOADS and item is not None:
            self.offer_item_payloads(entry, item, _ITEM_SOURCE[trigger])
        elif effect is Effect.OFFER_PAYLOAD and channel is not None and event is not None:
            self.offer(_attach(entry, channel), event.value, PayloadSource.PAYLOAD_DONE)
        elif effect is Effect.CLOSE_CHANNEL and channel is not None:
            _attach(entry, channel).closed = True
        elif effect is Effect.OPEN_PART and channel is not None and event is not None:
            if event.part is not None and _attach(entry, channel).part is None:
                channel.part = dict(event.part)
        elif effect is Effect.CONFIRM:
            entry.confirmed = True
        elif effect is Effect.EMIT_COMPLETION:
            entry.completions += 1
        elif effect is Effect.NOTE_DUPLICATE_ITEM:
            self.note(
                Code.DUPLICATE_ITEM,
                f"entry {entry.ordinal} already {entry.state.value}; ignored",
                with_event=True,
            )
        elif effect is Effect.NOTE_LATE_EVENT:
            self.note(
                Code.LATE_EVENT,
                f"entry {entry.ordinal} is {entry.state.value}; event ignored",
                with_event=True,
            )
        elif effect is Effect.NOTE_UNCONFIRMED:
            self.note(
                Code.UNCONFIRMED_ITEM,
                f"entry {entry.ordinal} ({entry.item_type}) was never confirmed",
            )
        elif effect is Effect.NOTE_MISSING_FROM_SNAPSHOT and snapshot_nonempty:
            self.note(
                Code.SNAPSHOT_MISSING_ITEM,
                f"entry {entry.ordinal} ({entry.item_type}) is not in response.completed; kept",
            )
        elif effect is Effect.NOTE_ORPHAN:
            self.note(Code.ORPHAN_EVENT, "event for an entry never admitted", with_event=True)

    def move_slot(self, entry: Entry, trigger: SlotTrigger) -> None:
        if entry.slot is None:
            return
        slot = self.state.slots.get(entry.slot)
        if slot is None:
            slot = self.state.slots[entry.slot] = Slot()
        transition = self.kernels.slot(slot.state, trigger)
        if transition.code is not None:
            self.note(transition.code, f"output_index {entry.slot} now holds several entries")
        if trigger is SlotTrigger.BIND and entry.ordinal not in slot.entries:
            slot.entries.append(entry.ordinal)
        slot.state = transition.next_state

    # -- first admission wins (R6) -----------------------------------------------------

    def merge_item(self, entry: Entry, item: Mapping[str, Any]) -> None:
        for field in IDENTITY_FIELDS:
            value = _nonempty(item.get(field))
            held: str | None = getattr(entry, field)
            if value is None:
                relation = IdentityRelation.MISSING
            elif held is None:
                owner = self.entry_with_call_id(value) if field == "call_id" else None
                if owner is not None and owner is not entry:
                    # Matching rejects such an item (duplicate_call_id) before it gets
                    # here; were it to arrive, one call_id must still name one entry.
                    continue
                relation = IdentityRelation.FIRST
            else:
                relation = IdentityRelation.EQUAL if value == held else IdentityRelation.DIFFERS
            decision = self.kernels.identity(relation)
            take = decision.action is PayloadAction.TAKE
            if decision.code is not None:
                outcome = "took the new one" if take else "kept the first"
                self.note(
                    decision.code,
                    f"{field} {value!r} differs from first admission {held!r}; {outcome}",
                )
            if take:
                if field == "call_id" and value is not None:
                    self.state.call_ids[self.state.interner.intern(value)] = entry.ordinal
                setattr(entry, field, value)
        self.merge_id(entry, item)
        merged = entry.item
        for name, wire_value in item.items():
            if name in STRAY_ITEM_FIELDS:
                continue
            # Empty never erases: a blank field fills a gap but never replaces a value
            # (an empty string or list does replace a null).
            if wire_value is None:
                merged.setdefault(name, None)
            elif wire_value == "" or wire_value == []:
                if merged.get(name) is None:
                    merged[name] = wire_value
            else:
                merged[name] = wire_value

    def merge_id(self, entry: Entry, item: Mapping[str, Any]) -> None:
        wire_id = _nonempty(item.get("id"))
        renamed = _nonempty(item.get("item_id")) if wire_id is None else None
        if wire_id is not None:
            self.add_alias(entry, wire_id)
            if entry.id_source is not IdSource.WIRE:
                entry.item_id, entry.id_source = wire_id, IdSource.WIRE
            elif wire_id != entry.item_id:
                # The item was matched by a stronger key (slot, call_id): a rotated id.
                self.note(
                    Code.ID_CHANGED,
                    f"id {wire_id!r} differs from the first, {entry.item_id!r}; kept the first",
                )
        elif renamed is not None:
            self.add_alias(entry, renamed)
            if entry.id_source not in (IdSource.WIRE, IdSource.RENAMED_FIELD):
                entry.item_id, entry.id_source = renamed, IdSource.RENAMED_FIELD
                self.note(Code.ID_RENAMED_FIELD, f"item has no id; took item_id {renamed!r}")

    # -- payloads (R7) -----------------------------------------------------------------

    def channel(self, entry: Entry, kind: ChannelKind, index: int) -> Channel:
        key = (kind, index)
        channel = entry.channels.get(key)
        if channel is None:
            channel = entry.channels[key] = Channel(kind, index, attached=True)
        return channel

    def append_delta(self, channel: Channel, value: str | None) -> None:
        if not value:
            return
        channel.delta_chars += len(value)
        if channel.delta_chars > self.limits.max_channel_chars:
            if channel.delta_chars - len(value) <= self.limits.max_channel_chars:
                self.note(
                    Code.LIMIT_EXCEEDED,
                    f"channel {channel.kind.value}[{channel.index}] passed "
                    f"{self.limits.max_channel_chars} characters; later deltas dropped",
                )
            return
        channel.deltas.append(value)

    def offer(self, channel: Channel, value: str | None, source: PayloadSource) -> None:
        if channel.deltas:
            joined = "".join(channel.deltas)
            channel.deltas.clear()
            self.offer(channel, joined, PayloadSource.DELTAS)
        held_value = channel.value
        held = PayloadHeld.VALUE if held_value else PayloadHeld.NOTHING
        if value is None:
            relation = CandidateRelation.MISSING
        elif not value:
            relation = CandidateRelation.EMPTY
        elif not held_value:
            relation = CandidateRelation.FIRST
        elif value == held_value:
            relation = CandidateRelation.EQUAL
        elif value.startswith(held_value):
            relation = CandidateRelation.EXTENDS
        else:
            relation = CandidateRelation.DIFFERS
        if value:
            channel.any_nonempty, channel.last_nonempty = True, value
        decision = self.kernels.payload(held, relation)
        if decision.code is not None:
            self.note(
                decision.code,
                f"{channel.kind.value}[{channel.index}] from {source.value}: "
                f"held {_clip(held_value)}, candidate {_clip(value)}",
            )
        if decision.action is PayloadAction.TAKE:
            channel.value, channel.source = value, source
        elif value == "" and channel.value is None:
            # An explicit empty value is a value (a zero-argument call); it only never
            # replaces a non-empty one.
            channel.value, channel.source = "", source

    def offer_item_payloads(
        self, entry: Entry, item: Mapping[str, Any], source: PayloadSource
    ) -> None:
        for location in entry.spec.channels:
            values = _item_channel_values(item, location)
            if location.array is not None:
                self.align_parts(entry, location.channel, [index for index, _ in values])
            for index, value in values:
                self.offer(self.channel(entry, location.channel, index), value, source)

    def snapshot_arrives(self, entry: Entry, item: Mapping[str, Any]) -> None:
        """The first snapshot item of an entry: its values are candidates (a ghost).

        The snapshot is reconciliation, not a late event (R3), so its values count as
        candidates for ``empty_never_erases`` and ``latest_nonempty_wins`` whether or
        not the entry's lifecycle row offers them — a row that skips the snapshot
        (AxonHub's reported bug) is then a visible violation, not a silent loss.
        """
        if entry.in_snapshot:
            return
        entry.in_snapshot = True
        for location in entry.spec.channels:
            values = _item_channel_values(item, location)
            if location.array is not None:
                self.align_parts(entry, location.channel, [index for index, _ in values])
            for index, value in values:
                if value:
                    channel = self.channel(entry, location.channel, index)
                    channel.any_nonempty, channel.last_nonempty = True, value

    def align_parts(self, entry: Entry, kind: ChannelKind, positions: list[int]) -> None:
        """Give streamed parts the positions the item puts them at.

        Bedrock Mantle streams a message's only text part at ``content_index`` 1 while
        its items hold it at position 0; without this the text would appear twice.
        Streamed parts whose index the item does not use take, in order, the item's
        positions that no streamed part has.
        """
        streamed = sorted(index for (k, index) in entry.channels if k is kind)
        strays = [index for index in streamed if index not in positions]
        free = [p for p in positions if (kind, p) not in entry.channels]
        for old, new in zip(strays, free, strict=False):
            channel = entry.channels.pop((kind, old))
            channel.index = new
            entry.channels[(kind, new)] = channel
            self.note(
                Code.PART_REALIGNED,
                f"{kind.value} part streamed at index {old} is at position {new} in the item",
            )


def _attach(entry: Entry, channel: Channel) -> Channel:
    """The entry's channel for ``channel``'s key, attaching ``channel`` on first use."""
    if channel.attached:  # the entry's own: no lookup (its key hashes an enum in Python)
        return channel
    held = entry.channels.setdefault((channel.kind, channel.index), channel)
    held.attached = True
    return held


def _clip(value: str | None) -> str:
    if value is None:
        return "nothing"
    return repr(value) if len(value) <= 40 else repr(value[:37] + "...")


def _container(item: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any] | None:
    node: Any = item
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else None


def _item_channel_values(
    item: Mapping[str, Any], location: ChannelLocation
) -> list[tuple[int, str | None]]:
    """The (part index, value) pairs a wire item carries for one channel location."""
    container = _container(item, location.container)
    if container is None:
        return []
    if location.array is None:
        if location.field is None or location.field not in container:
            return []
        value = container.get(location.field)
        return [(0, value if isinstance(value, str) else None)]
    parts = container.get(location.array)
    if not isinstance(parts, list):
        return []
    found: list[tuple[int, str | None]] = []
    for index, part in enumerate(parts):
        if location.part_type is None:
            if isinstance(part, str):
                found.append((index, part))
        elif isinstance(part, Mapping) and part.get("type") == location.part_type:
            value = part.get(location.field or "")
            found.append((index, value if isinstance(value, str) else None))
    return found


# -- classification -------------------------------------------------------------------


def _compatible(
    entry: Entry,
    item_type: str,
    call_id: str | None,
    item_id: str | None,
    aliases: Sequence[int],
    by_slot: bool = False,
) -> bool:
    """R6: same type; equal call_ids where both have one; otherwise ids agree or one is missing.

    Through its own slot (``by_slot``, the slot bound to this one entry) an item may also
    carry an id never seen before: GitHub Copilot rotates item ids on every event and
    vLLM's final ids differ from its streamed ones, and for an item without a
    ``call_id`` the slot is then the only stable key.  An id that names another entry
    still refuses the match, and so does a done entry for a done item (a second item
    done at a used slot is a new item); the snapshot reconciles done entries too.
    """
    if entry.item_type != item_type:
        return False
    if entry.call_id is not None and call_id is not None:
        return entry.call_id == call_id
    if item_id is None or entry.item_id is None or entry.ordinal in aliases:
        return True
    return by_slot and not aliases


def _item_keys(item: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    item_id = _nonempty(item.get("id")) or _nonempty(item.get("item_id"))
    return item["type"], _nonempty(item.get("call_id")), item_id


def _new_entry(state: ResponseState, item_type: str, slot: int | None) -> Entry:
    return Entry(len(state.entries), item_type, ITEM_TYPES.get(item_type, UNKNOWN_ITEM_TYPE), slot)


def _admission_refused(step: _Step) -> bool:
    state = step.state
    if len(state.entries) < step.limits.max_entries:
        return False
    if not state.entries_limit_hit:
        state.entries_limit_hit = True
        step.note(Code.LIMIT_EXCEEDED, f"more than {step.limits.max_entries} entries; item dropped")
    return True


def _on_added(step: _Step, event: Event) -> None:
    item = event.item
    if item is None:
        step.decision = "no item"
        return
    item_type, call_id, item_id = _item_keys(item)
    holder = step.entry_with_call_id(call_id)
    if holder is not None:
        view = AddedView.REPLAY if holder.item_type == item_type else AddedView.CALL_ID_TAKEN
    else:
        same = [o for o in step.named_by(item_id) if step.state.entries[o].item_type == item_type]
        holder = step.state.entries[same[0]] if call_id is None and same else None
        view = AddedView.REPLAY if holder is not None else AddedView.NEW
    admission = step.kernels.admit_added(view)
    if step.tracing:
        step.decision = f"added: {view.value} -> {admission.action.value}"
    if admission.code is not None:
        step.note(admission.code, f"call_id {call_id!r} is held by another item type", True)
    if admission.action is AdmissionAction.MATCH and holder is not None:
        step.deliver(holder, Trigger.ITEM_ADDED, item=item)
    elif admission.action is AdmissionAction.ADMIT and not _admission_refused(step):
        step.deliver(
            _new_entry(step.state, item_type, event.output_index), Trigger.ITEM_ADDED, item=item
        )


def _match(
    step: _Step, item: Mapping[str, Any], slot_index: int | None, snapshot: bool
) -> tuple[MatchView, Entry | None]:
    """The three match keys of R6, summarised as a ``MatchView``."""
    state = step.state
    item_type, call_id, item_id = _item_keys(item)
    aliases = step.named_by(item_id)
    found: set[int] = set()
    slot = state.slots.get(slot_index) if slot_index is not None else None
    if slot is not None and slot.entries:
        bound = slot.entries
        if slot.state is SlotState.SHARED:
            by_call = step.entry_with_call_id(call_id)
            bound = [
                o
                for o in bound
                if (by_call is not None and o == by_call.ordinal)
                or (by_call is None and o in aliases)
            ]
        if len(bound) == 1 and _compatible(
            state.entries[bound[0]],
            item_type,
            call_id,
            item_id,
            aliases,
            by_slot=slot.state is not SlotState.SHARED
            and (snapshot or state.entries[bound[0]].state in OPEN_STATES),
        ):
            found.add(bound[0])
    holder = step.entry_with_call_id(call_id)
    if holder is not None:
        if holder.item_type != item_type:
            return MatchView.CALL_ID_TAKEN, None
        found.add(holder.ordinal)
    if len(aliases) == 1 and _compatible(
        state.entries[aliases[0]], item_type, call_id, item_id, aliases
    ):
        found.add(aliases[0])
    if not found:
        return MatchView.NONE, None
    if len(found) > 1:
        return MatchView.CONFLICT, None
    return MatchView.AGREE, state.entries[found.pop()]


def _on_item(
    step: _Step,
    item: Mapping[str, Any],
    slot_index: int | None,
    trigger: Trigger,
    snapshot_nonempty: bool = False,
) -> Entry | None:
    """Match or admit a done or snapshot item, and deliver ``trigger`` to its entry."""
    view, entry = _match(step, item, slot_index, trigger is Trigger.SNAPSHOT_ITEM)
    admission = step.kernels.admit_done(view)
    if step.tracing:
        step.decision = f"{trigger.value}: {view.value} -> {admission.action.value}"
    if admission.code is not None:
        step.note(
            admission.code, f"{item['type']} item at output_index {slot_index}: {view.value}", True
        )
    if admission.action is AdmissionAction.MATCH and entry is not None:
        if entry.slot is None and slot_index is not None and trigger is Trigger.ITEM_DONE:
            # A missing slot is filled by a later event like any missing identity (R6);
            # snapshot positions are not slots one can trust, so only a done item fills it.
            entry.slot = slot_index
            step.move_slot(entry, SlotTrigger.BIND)
    elif admission.action is AdmissionAction.ADMIT and not _admission_refused(step):
        entry = _new_entry(step.state, item["type"], slot_index)
    else:
        return None
    assert entry is not None
    if trigger is Trigger.SNAPSHOT_ITEM:
        step.snapshot_arrives(entry, item)
    step.deliver(entry, trigger, item=item, snapshot_nonempty=snapshot_nonempty)
    return entry


def resolve_route(
    route: Callable[[SlotView, IdView], Route],
    bound: Sequence[int],
    shared: bool,
    named: Sequence[int],
    item_id_present: bool,
) -> tuple[Route, int | None, str]:
    """R5 as the driver applies it: the route, the target ordinal (or None), a summary.

    ``bound`` are the entries bound at the event's slot (first binding first), ``shared``
    whether the slot is shared, ``named`` the entries the event's ``item_id`` names.
    """
    decision, target, slot_view, id_view = _routed(route, bound, shared, named, item_id_present)
    return decision, target, _route_summary(slot_view, id_view, decision)


def _route_summary(slot_view: SlotView, id_view: IdView, decision: Route) -> str:
    return f"route {slot_view.value}/{id_view.value} -> {decision.action.value}"


def _routed(
    route: Callable[[SlotView, IdView], Route],
    bound: Sequence[int],
    shared: bool,
    named: Sequence[int],
    item_id_present: bool,
) -> tuple[Route, int | None, SlotView, IdView]:
    """``resolve_route`` with the two views the kernel saw in place of the summary."""
    slot_view = _NO_SLOT if not bound else _SHARED_SLOT if shared else _ONE_SLOT
    picked: Sequence[int] = ()
    if not item_id_present:
        id_view = _ID_ABSENT
    elif not named:
        id_view = _ID_UNSEEN
    else:
        # An id that names one entry, bound at the slot, is the common case.
        single = len(named) == 1 and named[0] in bound
        picked = named if single else [o for o in named if o in bound]
        if picked:
            id_view = _ONE_OF_SLOT if len(picked) == 1 else _SEVERAL_OF_SLOT
        else:
            picked = named
            id_view = _ONE_OUTSIDE if len(named) == 1 else _SEVERAL_OUTSIDE
    decision = route(slot_view, id_view)
    action = decision.action
    target = bound[0] if action is _BY_SLOT else picked[0] if action is _BY_ID else None
    return decision, target, slot_view, id_view


def _on_scoped(step: _Step, event: Event) -> None:
    """Route a payload or progress event (R5) and deliver it to its entry."""
    state = step.state
    spec = event.spec
    assert spec is not None and spec.trigger is not None
    item_id = event.item_id
    slot = state.slots.get(event.output_index) if event.output_index is not None else None
    named = step.named_by(item_id)
    route, target, slot_view, id_view = _routed(
        step.kernels.route,
        slot.entries if slot is not None else (),
        slot is not None and slot.state is _SHARED,
        named,
        item_id is not None,
    )
    if step.tracing:
        step.decision = _route_summary(slot_view, id_view, route)
    if target is None:
        if route.code is not None:
            step.note(route.code, f"output_index {event.output_index}, item_id {item_id!r}", True)
        return
    entry = state.entries[target]
    trigger = spec.trigger
    channel: Channel | None = None
    if trigger in _CHANNEL_TRIGGERS:
        kind = event.channel
        if kind is None or kind not in entry.channel_kinds:
            step.note(
                Code.CHANNEL_MISMATCH,
                f"{event.type} cannot apply to a {entry.item_type} item",
                True,
            )
            return
        # Looked up, not created: a late event must leave the entry exactly as it was.
        channel = entry.channels.get((kind, event.part_index)) or Channel(kind, event.part_index)
        if trigger is _DELTA and channel.closed:
            trigger = Trigger.DELTA_ON_CLOSED_CHANNEL
    raised = len(step.raised)
    step.deliver(entry, trigger, channel=channel)
    if item_id is None or (
        len(step.raised) > raised
        and any(d.code is Code.LATE_EVENT for d in step.raised[raised:])
    ):
        return
    if entry.ordinal not in named:  # else the alias is known (aliases are never removed)
        step.add_alias(entry, item_id)
    if route.code is not None:
        step.note(route.code, f"item_id {item_id!r} routed by output_index")
    if entry.item_id is None:
        entry.item_id, entry.id_source = item_id, IdSource.SLOT
        step.note(Code.ID_ADOPTED_FROM_SLOT, f"took item_id {item_id!r} from an event")


def _check_sequence(step: _Step, sequence: int, last: int | None) -> None:
    """A sequence number that does not follow ``last``: the first, a gap or a regression."""
    if last is not None:
        if sequence <= last:
            step.note(Code.SEQUENCE_REGRESSION, f"sequence_number {sequence} after {last}")
            return
        if sequence != last + 1:
            step.note(Code.SEQUENCE_GAP, f"sequence_number {sequence} after {last}")
    step.state.last_sequence = sequence


def _response_id(step: _Step, response: Mapping[str, Any] | None) -> None:
    if response is None:
        return
    response_id = _nonempty(response.get("id"))
    if response_id is None:
        return
    state = step.state
    if state.response_id is None:
        state.response_id = response_id
    elif response_id != state.response_id:
        step.note(
            Code.RESPONSE_ID_CHANGED, f"response id {response_id!r}; kept {state.response_id!r}"
        )


def advance(
    state: ResponseState, event: Event, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> None:
    """Reduce one event into ``state`` (updated in place)."""
    _reduce(_Step(state, kernels, limits, event), event)


def advancer(
    state: ResponseState, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> Callable[[Event], None]:
    """``advance`` bound to one ``state``: ``advancer(state, k, l)(event)`` is
    ``advance(state, event, k, l)``.

    The context of an event is made once and reset per event, which saves building
    it (~0.5 µs) on every event of a stream.  Nothing reads its ``decision`` without
    a trace, so that one field is not reset.
    """
    context = _Step(state, kernels, limits, None)

    def advance_bound(event: Event) -> None:
        context.event, context.raised, context.entry, context.before = event, [], None, None
        _reduce(context, event)

    return advance_bound


def step(
    state: ResponseState, event: Event, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> StepTrace:
    """Reduce one event into ``state`` (updated in place) and say what it did."""
    context = _Step(state, kernels, limits, event, tracing=True)
    _reduce(context, event)
    return _trace(context, event)


def _reduce(context: _Step, event: Event) -> None:
    state = context.state
    state.events += 1
    spec = event.spec
    for code, problem in event.problems:
        context.note(code, f"{event.type}: {problem}", True)
    if state.terminal:
        context.note(Code.AFTER_TERMINAL, f"{event.type} after the terminal event; ignored")
        context.decision = "after terminal"
        return
    # Unknown events still consume a sequence number (Open Responses extensions do).
    sequence = event.sequence_number
    if sequence is not None:
        last = state.last_sequence
        if last is not None and sequence == last + 1:  # nearly every event: nothing to say
            state.last_sequence = sequence
        else:
            _check_sequence(context, sequence, last)
    if spec is None:
        context.note(Code.UNKNOWN_EVENT, f"unknown event type {event.type!r}; ignored")
        context.decision = "unknown"
        return
    # The classes are disjoint; the one of almost every event is tested first.
    event_class = spec.event_class
    if event_class is _ITEM_SCOPED:
        _on_scoped(context, event)
    elif event_class is EventClass.RESPONSE_STARTED or event_class is EventClass.RESPONSE_PROGRESS:
        state.started = True
        _response_id(context, event.response)
        context.decision = "response"
    elif event_class is EventClass.ITEM_ADDED:
        _on_added(context, event)
    elif event_class is EventClass.ITEM_DONE:
        if event.item is not None:
            _on_item(context, event.item, event.output_index, Trigger.ITEM_DONE)
    elif event_class in _TERMINAL_STATUS:
        _response_id(context, event.response)
        _end(context, _TERMINAL_STATUS[event_class], event)
        if context.tracing:
            context.decision = f"terminal: {state.status.value}"
    else:
        context.decision = "no-op"


def _trace(context: _Step, event: Event) -> StepTrace:
    entry = context.entry
    return StepTrace(
        event.index,
        event.type,
        context.decision,
        entry.ordinal if entry is not None else None,
        context.before,
        entry.state if entry is not None else None,
        tuple(d.code for d in context.raised),
    )


def _end(step: _Step, status: ResponseStatus, event: Event | None) -> None:
    """The response ends (R9): reconcile the snapshot or abort every open entry."""
    state = step.state
    state.status, state.terminal = status, True
    if status is ResponseStatus.COMPLETED:
        _reconcile_snapshot(step, event.response if event is not None else None)
    else:
        if event is not None:
            error = (
                event.payload.get("error")
                or event.payload.get("message")
                or (event.response or {}).get("error")
                or (event.response or {}).get("incomplete_details")
            )
            step.note(Code.RESPONSE_ERROR, f"response {status.value}: {_clip(json.dumps(error))}")
        for entry in list(state.entries):
            step.deliver(entry, Trigger.RESPONSE_ABORTED)
    _settle(step)


def _reconcile_snapshot(step: _Step, response: Mapping[str, Any] | None) -> None:
    state = step.state
    output = response.get("output") if response is not None else None
    items = output if isinstance(output, list) else []
    if output is not None and not isinstance(output, list):
        step.note(Code.INVALID_FIELD, "response.output must be an array; ignored", True)
    if not items:
        step.note(Code.SNAPSHOT_ABSENT, "response.completed carries no output; streamed items kept")
    state.snapshot_items = len(items)
    touched: set[int] = set()
    for position, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
            step.note(Code.INVALID_FIELD, f"response.output[{position}] has no string type", True)
            state.snapshot_rejected += 1
            continue
        entry = _on_item(step, item, position, Trigger.SNAPSHOT_ITEM)
        if entry is None:
            state.snapshot_rejected += 1
        else:
            state.snapshot_placed += 1
            touched.add(entry.ordinal)
    for entry in list(step.state.entries):
        if entry.ordinal not in touched:
            step.deliver(entry, Trigger.RESPONSE_COMPLETED, snapshot_nonempty=bool(items))


def _settle(step: _Step) -> None:
    """Mint missing ids (R11), decide executability (R9), check arguments (R7)."""
    state = step.state
    completed = state.status is ResponseStatus.COMPLETED
    for entry in state.entries:
        if entry.item_id is None:
            entry.item_id = mint_item_id(
                state.response_id, entry.slot, entry.ordinal, entry.item_type
            )
            entry.id_source = IdSource.MINTED
            step.note(
                Code.ID_MINTED, f"entry {entry.ordinal} never had an id; minted {entry.item_id}"
            )
        entry.executable = (
            completed and entry.spec.client_call and entry.confirmed and entry.call_id is not None
        )
        if entry.item_type == "function_call":
            arguments = entry.channels.get((ChannelKind.ARGUMENTS, 0))
            text = None if arguments is None else (arguments.value or "".join(arguments.deltas))
            if text:
                try:
                    json.loads(text)
                except ValueError:
                    step.note(
                        Code.INVALID_JSON_ARGUMENTS,
                        f"entry {entry.ordinal} arguments are not JSON: {_clip(text)}",
                    )


def end_of_input(
    state: ResponseState, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> None:
    """Input ended: a response with no terminal event is interrupted (R9)."""
    if state.terminal:
        return
    context = _Step(state, kernels, limits, None)
    context.note(Code.MISSING_TERMINAL, "input ended before a terminal event")
    _end(context, ResponseStatus.INTERRUPTED, None)
