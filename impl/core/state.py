"""The reducer's state for one response: entries, their channels, slots and aliases.

The state is owned by one ``step`` loop and updated in place, so that reducing a stream
costs time linear in its length (no copying per event, no string concatenation per
delta: deltas are kept as a list and joined once).  ``snapshot()`` turns it into the
plain, frozen ``model.invariants.ResponseSnapshot`` that invariants and tests read.

External ids are interned: the routing maps are keyed by small ints handed out by
``Interner``, and entries are named everywhere by their admission ordinal.  Strings are
kept only where the result needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from responses_oracle.model.admission import Refusal
from responses_oracle.model.catalogue import ChannelKind, ItemTypeSpec
from responses_oracle.model.execution import Execution
from responses_oracle.model.recordkit import field, record
from responses_oracle.model.routing import Route
from responses_oracle.model.vocabulary import (
    Code,
    EntryState,
    IdSource,
    ItemKind,
    PayloadSource,
    ResponseStatus,
    SlotState,
)

if TYPE_CHECKING:  # at run time imported by ``snapshot``, which only invariants call
    from responses_oracle.model.invariants import EntrySnapshot, ResponseSnapshot


@record(frozen=True, slots=True)
class Diagnostic:
    """One finding about the stream: what, where, and the event that caused it."""

    code: Code
    event_index: int | None
    sequence_number: int | None
    detail: str
    event: Any = None


@record(slots=True)
class Channel:
    """One payload of an entry (R7).  ``deltas`` holds unjoined deltas until first use.

    ``attached``: the channel is its entry's (in ``Entry.channels`` under its kind and
    index).  The driver makes a detached one for an event that may turn out late, so
    that only an effect attaches it (``step._attach``).
    """

    kind: ChannelKind
    index: int
    deltas: list[str] = field(default_factory=list)
    delta_chars: int = 0
    value: str | None = None
    source: PayloadSource = PayloadSource.NONE
    closed: bool = False
    part: dict[str, Any] | None = None
    any_nonempty: bool = False
    last_nonempty: str | None = None
    attached: bool = False


@record(slots=True)
class Entry:
    """One admitted output item.  ``completions`` is the ghost counter of ``complete_once``.

    ``channel_kinds`` are the kinds of the channels ``spec`` gives the item, read from
    it once so that checking a payload event's channel is one tuple lookup.
    """

    ordinal: int
    item_type: str
    spec: ItemTypeSpec
    slot: int | None
    state: EntryState = EntryState.ABSENT
    completions: int = 0
    call_id: str | None = None
    name: str | None = None
    namespace: str | None = None
    item_id: str | None = None
    id_source: IdSource | None = None
    confirmed: bool = False
    executable: bool = False
    execution: Execution = Execution.NOT_A_CALL
    in_snapshot: bool = False
    done_item: bool = False
    """An ``output_item.done`` item was merged into the entry (``identity.merge_item``)."""
    given_ids: list[str] = field(default_factory=list)
    """Every id the stream named the item by (a wire ``id``, a rotated one, a gateway's
    ``item_id``), first first: the entry's aliases (``StepContext.add_alias``)."""
    given_call_ids: list[str] = field(default_factory=list)
    """Every ``call_id`` the stream gave the item that no other entry holds, first first,
    whether the identity table kept it or not (``identity.merge_item``): a client that
    pairs the call's output by any of them pairs it with this call."""
    item: dict[str, Any] = field(default_factory=dict)
    channels: dict[tuple[ChannelKind, int], Channel] = field(default_factory=dict)
    channel_kinds: tuple[ChannelKind, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.channel_kinds = tuple(location.channel for location in self.spec.channels)


@record(slots=True)
class Slot:
    """One ``output_index``: its state and the ordinals bound to it, first binding first."""

    state: SlotState = SlotState.FREE
    entries: list[int] = field(default_factory=list)


class Interner:
    """Hands out small ints for external id strings, so routing maps key on ints."""

    __slots__ = ("_ids", "find")

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        # The dict's own ``get``: a lookup on the path of every event that carries an
        # ``item_id``, without a Python frame.
        self.find: Callable[[str], int | None] = self._ids.get
        """The int for ``text`` if it was ever interned (None otherwise)."""

    def __getstate__(self) -> dict[str, int]:
        """What a copy or a pickle keeps: the ids (``find`` is bound to them anew)."""
        return self._ids

    def __setstate__(self, ids: dict[str, int]) -> None:
        """Restore a copy or a pickle of ``__getstate__``."""
        self._ids = ids
        self.find = ids.get

    def intern(self, text: str) -> int:
        """The int for ``text``, allocating one on first sight."""
        return self._ids.setdefault(text, len(self._ids))


@record(slots=True)
class ResponseState:
    """Everything the reducer knows about one response."""

    response_id: str | None = None
    status: ResponseStatus = ResponseStatus.IN_PROGRESS
    terminal: bool = False
    started: bool = False
    events: int = 0
    entries: list[Entry] = field(default_factory=list)
    slots: dict[int, Slot] = field(default_factory=dict)
    interner: Interner = field(default_factory=Interner)
    aliases: dict[int, list[int]] = field(default_factory=dict)
    routes: dict[tuple[int | None, str | None], tuple[Route, int, bool, str]] = field(
        default_factory=dict
    )
    """Routing cells already decided, by ``(output_index, item_id)``: the route, the
    target, whether the id names it already and the summary a trace shows
    (``route.resolve_route``).  A cache of what ``route.on_scoped`` computes from
    ``slots`` and ``aliases``, emptied whenever either changes."""
    call_ids: dict[tuple[ItemKind, int], int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    snapshot_items: int = 0
    snapshot_placed: int = 0
    done_items: int = 0
    done_placed: int = 0
    refusals: list[Refusal] = field(default_factory=list)
    """Every done or snapshot item no entry took, with why (``nothing_lost``)."""
    last_sequence: int | None = None
    resumed_at: int | None = None
    """The first ``sequence_number`` of a resumed stream (``model/responses.resumes``)."""
    held_over: list[tuple[int | None, str | None, Diagnostic]] = field(default_factory=list)
    """A resumed stream's payload events that reached no entry, by ``(output_index,
    item_id)``, each with the ``orphan_event`` it is unless its item, opened before the
    resume point, is admitted by the end (``settle``)."""
    entries_limit_hit: bool = False
    tools: Any = None
    """The last ``response.tools`` a lifecycle event carried (who runs a call)."""
    amendable: bool = False
    """The response was ended by an ``error`` and no event has come since: a terminal
    now is the same failure (``model/responses.AMENDABLE_TERMINALS``)."""

    @property
    def snapshot_rejected(self) -> int:
        """How many snapshot items no entry took (each with its ``Refusal``)."""
        return sum(refusal.snapshot for refusal in self.refusals)

    def snapshot(self) -> ResponseSnapshot:
        """The state as plain frozen data for invariants and tests."""
        from responses_oracle.model.invariants import ResponseSnapshot, SlotSnapshot

        entries = tuple(_entry_snapshot(entry) for entry in self.entries)
        slots = tuple(
            SlotSnapshot(index, slot.state, tuple(slot.entries))
            for index, slot in sorted(self.slots.items())
        )
        return ResponseSnapshot(
            status=self.status,
            terminal=self.terminal,
            entries=entries,
            slots=slots,
            snapshot_items=self.snapshot_items,
            snapshot_placed=self.snapshot_placed,
            output_ordinals=tuple(entry.ordinal for entry in self.entries),
            done_items=self.done_items,
            done_placed=self.done_placed,
            refusals=tuple(self.refusals),
        )


def channel_text(channel: Channel) -> str | None:
    """A channel's current value: the held value, or the deltas not yet joined."""
    if channel.deltas:
        return "".join(channel.deltas) if channel.value is None else channel.value
    return channel.value


def _entry_snapshot(entry: Entry) -> EntrySnapshot:
    from responses_oracle.model.invariants import ChannelSnapshot, EntrySnapshot

    channels = tuple(
        ChannelSnapshot(
            kind=channel.kind,
            index=channel.index,
            final=channel_text(channel),
            any_nonempty_offer=channel.any_nonempty or bool(channel.deltas),
            last_nonempty_offer=(
                "".join(channel.deltas) if channel.deltas else channel.last_nonempty
            ),
        )
        for channel in entry.channels.values()
    )
    return EntrySnapshot(
        ordinal=entry.ordinal,
        item_type=entry.item_type,
        state=entry.state,
        completions=entry.completions,
        call_id=entry.call_id,
        name=entry.name,
        item_id=entry.item_id,
        slot=entry.slot,
        confirmed=entry.confirmed,
        executable=entry.executable,
        channels=channels,
        execution=entry.execution,
    )
