"""Model-guided streams: a random walk that only takes transitions the lifecycle allows.

Theory of operation
-------------------
Random events almost never form a stream worth testing: the first stray event makes
the rest late, orphaned or ambiguous, and every reducer agrees on that trivial answer
(formal-tools-and-style §1d).  This walk therefore draws each next event from the
model itself.  It keeps, per entry, the state the lifecycle table (``LIFECYCLE``)
predicts, and offers only the triggers whose row raises no diagnostic — *enabled*
triggers: admission from ``ABSENT``, deltas and ``*.done`` while a channel is open,
``output_item.done`` once every channel is settled.  The table's next state is the
walk's new prediction, so the walk is as much a reading of the table as the reducer.

A fault is drawn separately (``inject_fault``): either a list fault of ``faults.py``
applied to the next valid event(s), or a *disabled* trigger — a row of the table that
does raise a diagnostic (a late delta, a replayed item, an orphan payload event).

Payload text is drawn when a channel opens and streamed as successive chunks, so the
``*.done`` and ``output_item.done`` values always agree with the deltas; the final
``response.completed`` lists every entry at its slot with its final payloads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from responses_oracle.model.lifecycle import LIFECYCLE
from responses_oracle.model.vocabulary import NOTE_EFFECTS, EntryState, Trigger

from .choices import Chooser
from .faults import LIST_FAULTS, FaultKind, apply_fault
from .streams import (
    Event,
    GeneratedStream,
    Ids,
    Item,
    chunks,
    json_arguments,
    response_object,
    words,
)

STREAM_TRIGGERS: tuple[Trigger, ...] = (
    Trigger.ITEM_ADDED,
    Trigger.PART_ADDED,
    Trigger.DELTA,
    Trigger.DELTA_ON_CLOSED_CHANNEL,
    Trigger.PAYLOAD_DONE,
    Trigger.PROGRESS,
    Trigger.ITEM_DONE,
)
"""Triggers one item-level event delivers (the rest come from the response's end)."""


ENABLED: frozenset[tuple[EntryState, Trigger]] = frozenset(
    (state, trigger)
    for state, row in LIFECYCLE.items()
    for trigger, cell in row.items()
    if NOTE_EFFECTS.isdisjoint(cell.effects)
)
"""The (state, trigger) rows of the lifecycle table that raise no diagnostic."""


def enabled(state: EntryState, trigger: Trigger) -> bool:
    """True when the lifecycle row for (state, trigger) raises no diagnostic."""
    return (state, trigger) in ENABLED


@dataclass(frozen=True)
class KindSpec:
    """How the walk writes one item type: its payload events and item fields."""

    prefix: str
    call: bool = False
    family: str | None = None
    done_field: str = ""
    item_field: str = ""
    index_field: str | None = None
    part_event: str | None = None
    part_type: str | None = None
    parts: int = 1
    progress: tuple[str, ...] = ()


KINDS: dict[str, KindSpec] = {
    "function_call": KindSpec(
        "fc", True, "function_call_arguments", "arguments", "arguments"
    ),
    "custom_tool_call": KindSpec("ctc", True, "custom_tool_call_input", "input", "input"),
    "message": KindSpec(
        "msg",
        family="output_text",
        done_field="text",
        item_field="content",
        index_field="content_index",
        part_event="content_part",
        part_type="output_text",
        progress=("response.output_text.annotation.added",),
    ),
    "reasoning": KindSpec(
        "rs",
        family="reasoning_summary_text",
        done_field="text",
        item_field="summary",
        index_field="summary_index",
        part_event="reasoning_summary_part",
        part_type="summary_text",
        parts=2,
    ),
    "web_search_call": KindSpec(
        "ws",
        progress=("response.web_search_call.in_progress", "response.web_search_call.searching"),
    ),
}
"""The item types the walk admits, simplest first."""


@dataclass
class WalkChannel:
    """One payload channel: its target text, cut into chunks, and how far it got."""

    target: str
    pieces: list[str]
    sent: int = 0
    closed: bool = False

    @property
    def settled(self) -> bool:
        """Nothing streamed yet, or everything: a ``*.done`` may come now."""
        return self.sent in (0, len(self.pieces))


@dataclass
class WalkEntry:
    """One admitted item as the walk sees it, with the state the table predicts."""

    kind: str
    slot: int
    item_id: str
    call_id: str | None
    name: str | None
    state: EntryState = EntryState.ABSENT
    channels: list[WalkChannel] = field(default_factory=list)

    @property
    def spec(self) -> KindSpec:
        """The entry's ``KindSpec``."""
        return KINDS[self.kind]


class ModelWalk:
    """A stream under construction, one model-guided event at a time."""

    def __init__(self, ids: Ids) -> None:
        self.ids = ids
        self.entries: list[WalkEntry] = []
        self.events: list[Event] = []
        self.ended = False
        self.faults: list[str] = []
        self.sequence = 0
        self.shared = False

    # -- emitting ------------------------------------------------------------------

    def emit(self, event: Event) -> Event:
        """Append ``event`` with the next ``sequence_number``."""
        numbered = {**event, "sequence_number": self.sequence}
        self.sequence += 1
        self.events.append(numbered)
        return numbered

    def start(self) -> Event:
        """``response.created``."""
        return self.emit({"type": "response.created",
                          "response": self._response("in_progress", [])})

    def _response(self, status: str, output: list[Item] | None = None) -> Item:
        # The same response object an OpenAI stream carries (created_at, model, ...):
        # a client that validates it must not fail a walk for a field OpenAI always sends.
        return response_object(self.ids, status, output)

    # -- what the table allows -----------------------------------------------------

    def _offers(self, entry: WalkEntry, trigger: Trigger) -> bool:
        """Whether the entry's kind and channels make ``trigger`` expressible now."""
        spec = entry.spec
        channels = entry.channels
        if trigger is Trigger.PART_ADDED:
            return spec.part_event is not None and len(channels) < spec.parts
        if trigger is Trigger.DELTA:
            return spec.family is not None and (
                any(not c.closed and c.sent < len(c.pieces) for c in channels)
                or len(channels) < spec.parts
            )
        if trigger is Trigger.DELTA_ON_CLOSED_CHANNEL:
            return any(c.closed for c in channels)
        if trigger is Trigger.PAYLOAD_DONE:
            return spec.family is not None and (
                any(not c.closed and c.settled for c in channels) or len(channels) < spec.parts
            )
        if trigger is Trigger.PROGRESS:
            return bool(spec.progress)
        if trigger is Trigger.ITEM_DONE:
            return entry.state is EntryState.ABSENT or all(c.settled for c in channels)
        return trigger is Trigger.ITEM_ADDED

    def moves(self, entry: WalkEntry, allowed: bool = True) -> list[Trigger]:
        """The triggers the table enables (or, with ``allowed=False``, disables) for it."""
        return [
            trigger
            for trigger in STREAM_TRIGGERS
            if enabled(entry.state, trigger) is allowed and self._offers(entry, trigger)
        ]

    def live(self) -> list[WalkEntry]:
        """Entries with at least one enabled move."""
        return [entry for entry in self.entries if self.moves(entry)]

    # -- one move --------------------------------------------------------------------

    def new_entry(self, choose: Chooser, serial: int | None = None) -> WalkEntry:
        """A fresh, not yet admitted entry at the next free slot."""
        kind = choose.choice(tuple(KINDS))
        serial = len(self.entries) if serial is None else serial
        spec = KINDS[kind]
        slot = 1 + max((e.slot for e in self.entries), default=-1)
        # A second item at a bound slot: the lifecycle allows it, the slot becomes shared
        # (R3) and its events route by item id (R5).  Not beside an item of its own kind
        # without call_ids: a new id there reads as the first item's rotated id (R6).
        sharable = [e.slot for e in self.entries if spec.call or e.kind != kind]
        if serial < 1000 and sharable and choose.choice((False, False, True)):
            slot, self.shared = choose.choice(sharable), True
        call_id = self.ids.call(serial) if spec.call else None
        name = ("get_weather" if kind == "function_call" else "apply_patch") if spec.call else None
        return WalkEntry(kind, slot, self.ids.item(spec.prefix, serial), call_id, name)

    def admit(self, choose: Chooser) -> Event:
        """Admit a new entry by ``output_item.added`` or, done-only, ``output_item.done``."""
        entry = self.new_entry(choose)
        self.entries.append(entry)
        trigger = choose.choice((Trigger.ITEM_ADDED, Trigger.ITEM_ADDED, Trigger.ITEM_DONE))
        return self.render(entry, trigger, choose)

    def advance(self, choose: Chooser) -> Event | None:
        """One enabled move of one live entry; None when no entry can move."""
        live = self.live()
        if not live:
            return None
        entry = choose.choice(live)
        return self.render(entry, choose.choice(self.moves(entry)), choose)

    def step(self, choose: Chooser, max_entries: int) -> Event | None:
        """Admit or advance, whichever the walk can do; None when it can do neither."""
        can_admit = len(self.entries) < max_entries
        if self.live() and (not can_admit or choose.boolean()):
            return self.advance(choose)
        return self.admit(choose) if can_admit else None

    def render(self, entry: WalkEntry, trigger: Trigger, choose: Chooser) -> Event:
        """The concrete event for ``trigger`` on ``entry``; the walk's state moves on."""
        spec = entry.spec
        event: Event
        channel: WalkChannel | None = None
        index = 0
        if trigger is Trigger.ITEM_ADDED:
            event = {
                "type": "response.output_item.added",
                "output_index": entry.slot,
                "item": self.item(entry, final=False),
            }
        elif trigger is Trigger.ITEM_DONE:
            for channel_ in self._all_channels(entry, choose):
                channel_.closed = True
            event = {
                "type": "response.output_item.done",
                "output_index": entry.slot,
                "item": self._varied(self.item(entry, final=True), choose),
            }
        elif trigger is Trigger.PROGRESS:
            event = self._scoped(entry, choose.choice(spec.progress))
        elif trigger is Trigger.PART_ADDED:
            index = len(entry.channels)
            self._open(entry, choose)
            event = self._scoped(entry, f"response.{spec.part_event}.added")
            event[spec.index_field or "content_index"] = index
            event["part"] = self._part(spec, "")
        else:
            index, channel = self._pick_channel(entry, trigger, choose)
            suffix = "done" if trigger is Trigger.PAYLOAD_DONE else "delta"
            event = self._scoped(entry, f"response.{spec.family}.{suffix}")
            if spec.index_field:
                event[spec.index_field] = index
            if spec.family == "output_text":  # required by the API's types, always sent
                event["logprobs"] = []
            if trigger is Trigger.PAYLOAD_DONE:
                event[spec.done_field] = self._terminal(channel.target, choose)
                channel.closed = True
            elif trigger is Trigger.DELTA:
                event["delta"] = channel.pieces[channel.sent]
                channel.sent += 1
            else:
                event["delta"] = words(choose, 1, 1)
        entry.state = LIFECYCLE[entry.state][trigger].next_state
        return self.emit(event)

    def _scoped(self, entry: WalkEntry, kind: str) -> Event:
        return {"type": kind, "item_id": entry.item_id, "output_index": entry.slot}

    def _part(self, spec: KindSpec, text: str) -> Item:
        part: Item = {"type": spec.part_type, "text": text}
        if spec.part_type == "output_text":
            part["annotations"] = []
        return part

    def _open(self, entry: WalkEntry, choose: Chooser) -> WalkChannel:
        target = json_arguments(choose) if entry.kind == "function_call" else words(choose)
        channel = WalkChannel(target, chunks(choose, target))
        entry.channels.append(channel)
        return channel

    def _all_channels(self, entry: WalkEntry, choose: Chooser) -> list[WalkChannel]:
        """The entry's channels, opening the first one for a payload-carrying item."""
        if not entry.channels and entry.spec.family is not None:
            self._open(entry, choose)
        return entry.channels

    def _pick_channel(
        self, entry: WalkEntry, trigger: Trigger, choose: Chooser
    ) -> tuple[int, WalkChannel]:
        channels = entry.channels
        if trigger is Trigger.DELTA_ON_CLOSED_CHANNEL:
            fits = [n for n, c in enumerate(channels) if c.closed]
        elif trigger is Trigger.DELTA:
            fits = [n for n, c in enumerate(channels) if not c.closed and c.sent < len(c.pieces)]
        else:
            fits = [n for n, c in enumerate(channels) if not c.closed and c.settled]
        if not fits or (len(channels) < entry.spec.parts and trigger is not
                        Trigger.DELTA_ON_CLOSED_CHANNEL and choose.boolean()):
            self._open(entry, choose)
            fits = [len(channels) - 1]
        index = choose.choice(fits)
        return index, channels[index]

    def item(self, entry: WalkEntry, final: bool) -> Item:
        """The entry's wire item: empty payloads when added, final ones when done."""
        spec = entry.spec
        item: Item = {"id": entry.item_id, "type": entry.kind}
        if spec.call:
            item.update(call_id=entry.call_id, name=entry.name)
        if entry.kind == "message":
            item["role"] = "assistant"
        if entry.kind != "reasoning":
            item["status"] = "completed" if final else "in_progress"
        if entry.kind == "web_search_call" and final:
            item["action"] = {"type": "search", "query": "weather"}
        if spec.part_type is not None:
            item[spec.item_field] = (
                [self._part(spec, c.target) for c in entry.channels] if final else []
            )
        elif spec.family is not None:
            item[spec.item_field] = entry.channels[0].target if final and entry.channels else ""
        return item

    def _terminal(self, target: str, choose: Chooser) -> str:
        """A terminal payload value: usually the streamed text, sometimes blanked (as
        gateways do) or different (R7 must then pick the latest non-empty one)."""
        kind = choose.choice(("same", "same", "blank", "other"))
        return target if kind == "same" else "" if kind == "blank" else words(choose, 1, 2)

    def _varied(self, item: Item, choose: Chooser) -> Item:
        """``item`` with each payload value passed through ``_terminal``."""
        spec = KINDS[item["type"]]
        value = item.get(spec.item_field) if spec.item_field else None
        if isinstance(value, str):
            item[spec.item_field] = self._terminal(value, choose)
        elif isinstance(value, list):
            for part in value:
                part["text"] = self._terminal(part["text"], choose)
        return item

    # -- faults ----------------------------------------------------------------------

    def inject_fault(self, choose: Chooser) -> None:
        """Exactly one fault here: a list fault on the next valid event(s), or a move the
        table disables (a late, replayed or orphan event)."""
        kind = choose.choice((FaultKind.DISABLED, *LIST_FAULTS))
        if kind is FaultKind.DISABLED:
            self._disabled(choose)
            return
        start = len(self.events)
        for _ in range(2 if kind is FaultKind.REORDER else 1):
            if self.step(choose, max_entries=len(self.entries) + 1) is None:
                break
        pending = self.events[start:]
        del self.events[start:]
        if not pending:
            return
        slots = [entry.slot for entry in self.entries]
        changed, detail = apply_fault(kind, pending, choose, slots)
        self.faults.append(f"fault:{kind.value}@{start}({detail})")
        if kind is FaultKind.TRUNCATE:
            self.ended = True
            return
        # What the fault left keeps its own numbers: a dropped event leaves a gap, a
        # duplicate repeats a number, a reorder makes one go back.
        self.events.extend(changed)

    def _disabled(self, choose: Chooser) -> None:
        targets = [(e, t) for e in self.entries for t in self.moves(e, allowed=False)]
        if not targets or choose.boolean():
            # Its own serial, so that no entry admitted later shares its id.
            ghost = self.new_entry(choose, serial=1000 + len(self.faults))
            trigger = choose.choice(self.moves(ghost, allowed=False))
            # An orphan: a payload event for a slot and an id nothing was admitted at.
            self.faults.append(f"fault:disabled@{len(self.events)}(orphan {trigger.value})")
            self.render(ghost, trigger, choose)
            return
        entry, trigger = choose.choice(targets)
        self.faults.append(
            f"fault:disabled@{len(self.events)}({entry.state.value} {trigger.value})"
        )
        self.render(entry, trigger, choose)

    # -- the end ---------------------------------------------------------------------

    def finish(self, choose: Chooser) -> None:
        """End the response: completed (with or without snapshot), failed, or nothing."""
        # A snapshot lists one item per position, which a shared slot cannot have.
        endings = ("no_snapshot", "failed", "eof") if self.shared else _ENDINGS
        ending = choose.choice(endings)
        self.ended = True
        final = {
            "completed": Trigger.SNAPSHOT_ITEM,
            "no_snapshot": Trigger.RESPONSE_COMPLETED,
        }.get(ending, Trigger.RESPONSE_ABORTED)
        for entry in self.entries:
            entry.state = LIFECYCLE[entry.state][final].next_state
        if ending == "eof":
            return
        if ending == "failed":
            self.emit(
                {
                    "type": "response.failed",
                    "response": self._response("failed", [])
                    | {"error": {"code": "server_error", "message": "The model failed."}},
                }
            )
            return
        output = None
        if ending == "completed":
            by_slot = sorted(self.entries, key=lambda e: e.slot)
            output = [self._varied(self.item(entry, final=True), choose) for entry in by_slot]
        self.emit({"type": "response.completed", "response": self._response("completed", output)})

    def stream(self) -> GeneratedStream:
        """The events so far as a ``GeneratedStream``."""
        return GeneratedStream(tuple(self.events), ("model-guided", *self.faults))


_ENDINGS: tuple[str, ...] = ("completed", "completed", "no_snapshot", "failed", "eof")
"""How a walk ends: with a snapshot (twice as likely), without, failed, or cut off."""


def model_guided_stream(
    choose: Chooser, max_entries: int = 3, max_steps: int = 16, fault: bool = False
) -> GeneratedStream:
    """A stream whose every event is an enabled move; with ``fault``, exactly one fault."""
    walk = ModelWalk(Ids(f"{choose.integer(0, 2**64 - 1):016x}"))
    walk.start()
    steps = choose.integer(1, max_steps)
    fault_at = choose.integer(0, steps) if fault else -1
    for number in range(steps + 1):
        if number == fault_at:
            walk.inject_fault(choose)
            if walk.ended:
                return walk.stream()
        if number < steps and walk.step(choose, max_entries) is None:
            break
    walk.finish(choose)
    return walk.stream()
