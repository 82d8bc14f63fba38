"""Effects: the lifecycle kernel (R8) moves an entry, and its row's effects are run here.

``deliver`` is the one way an entry changes state: it asks the lifecycle kernel for the
row of ``(entry.state, trigger)`` and runs the row's effects in order.  Each effect is
one branch below; the rules they apply live in the modules named there — slots (R3,
``move_slot``), identity (R6, ``identity.py``), payloads (R7, ``payload.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from responses_oracle.model.vocabulary import (
    EVENT_NOTES,
    Code,
    Effect,
    IdSource,
    MergeStage,
    PayloadSource,
    SlotTrigger,
    Trigger,
)

from . import identity, reconcile
from .context import StepContext, said
from .state import Channel, Entry, Slot

_ITEM_SOURCE: dict[Trigger, PayloadSource] = {
    Trigger.ITEM_DONE: PayloadSource.ITEM_DONE,
    Trigger.SNAPSHOT_ITEM: PayloadSource.SNAPSHOT,
}
"""The payload source of the item a trigger carries."""

# The effect of almost every event, bound once: on Python 3.11 reading a member off its
# class goes through the ``__getattr__`` hook of ``EnumType``.
_APPEND_DELTA, _LEARN_ITEM_ID = Effect.APPEND_DELTA, Effect.LEARN_ITEM_ID


def deliver(
    step: StepContext,
    entry: Entry,
    trigger: Trigger,
    *,
    item: Mapping[str, Any] | None = None,
    channel: Channel | None = None,
    snapshot_nonempty: bool = False,
    stage: MergeStage = MergeStage.FIXED,
) -> None:
    """Move ``entry`` along the lifecycle table and execute the row's effects."""
    transition = step.kernels.lifecycle(entry.state, trigger)
    if step.tracing and step.entry is None:
        step.entry, step.before = entry, entry.state
    for effect in transition.effects:
        # The two effects of almost every event run here, without the call to _execute.
        if effect is _APPEND_DELTA:
            event = step.event
            if channel is not None and event is not None:
                # An entry's own channel needs no ``attach`` (nearly every delta's).
                held = channel if channel.attached else _opened_by_delta(step, entry, channel)
                reconcile.append_delta(step, held, event.value)
        elif effect is _LEARN_ITEM_ID:
            if step.learn is not None:
                _learn_item_id(step, entry)
        else:
            _execute(step, effect, entry, trigger, item, channel, snapshot_nonempty, stage)
    entry.state = transition.next_state


def _opened_by_delta(step: StepContext, entry: Entry, channel: Channel) -> Channel:
    """Attach a channel a delta opens; a part the API announces first (the ``announces``
    kernel: ``model.catalogue.ANNOUNCED_PARTS``) is reported, in a resumed stream too: a
    delta reaches only an entry the stream's own ``output_item.added`` opened, after the
    resume point, so its part-added events were due after it too (R7; an item opened
    before the resume point has its events held, R14)."""
    if step.kernels.announces(channel.kind):
        step.note(
            Code.PART_NOT_ADDED,
            f"entry {entry.ordinal} ({entry.item_type}): {channel.kind.value}"
            f"[{channel.index}] streamed without its part-added event",
        )
    return reconcile.attach(entry, channel)


def _execute(
    step: StepContext,
    effect: Effect,
    entry: Entry,
    trigger: Trigger,
    item: Mapping[str, Any] | None,
    channel: Channel | None,
    snapshot_nonempty: bool,
    stage: MergeStage,
) -> None:
    event = step.event
    # Each branch tests a different effect, so their order is free (APPEND_DELTA and
    # LEARN_ITEM_ID are run by ``deliver`` itself).
    if effect is Effect.ADMIT:
        step.state.entries.append(entry)
    elif effect is Effect.BIND_SLOT:
        move_slot(step, entry, SlotTrigger.BIND)
    elif effect is Effect.TOMBSTONE_SLOT:
        move_slot(step, entry, SlotTrigger.TOMBSTONE)
    elif effect is Effect.MERGE_ITEM and item is not None:
        identity.merge_item(step, entry, item, stage, trigger)
    elif effect is Effect.OFFER_ITEM_PAYLOADS and item is not None:
        reconcile.offer_item_payloads(step, entry, item, _ITEM_SOURCE[trigger])
    elif effect is Effect.OFFER_PAYLOAD and channel is not None and event is not None:
        reconcile.offer(
            step, reconcile.attach(entry, channel), event.value, PayloadSource.PAYLOAD_DONE
        )
    elif effect is Effect.CLOSE_CHANNEL and channel is not None:
        reconcile.attach(entry, channel).closed = True
    elif effect is Effect.OPEN_PART and channel is not None and event is not None:
        # Attached even without a part object (a shell command's): it was announced.
        held = reconcile.attach(entry, channel)
        if event.part is not None and held.part is None:
            held.part = dict(event.part)
    elif effect is Effect.CONFIRM:
        entry.confirmed = True
    elif effect is Effect.EMIT_COMPLETION:
        entry.completions += 1
    else:
        code = step.kernels.notes(effect)
        if code is not None:
            _note(step, effect, code, entry, snapshot_nonempty)


def _note(
    step: StepContext, effect: Effect, code: Code, entry: Entry, snapshot_nonempty: bool
) -> None:
    """A note effect raises its code (the ``notes`` kernel: ``model.vocabulary.NOTE_CODES``),
    with a detail; nothing in a resumed response where the ``waives`` kernel says so
    (``model.vocabulary.RESUME_WAIVED``, R14)."""
    if step.state.resumed_at is not None and step.kernels.waives(effect):
        return
    if effect is Effect.NOTE_MISSING_FROM_SNAPSHOT:
        if not snapshot_nonempty:  # an empty snapshot is reported once, snapshot_absent
            return
        detail = f"entry {entry.ordinal} ({entry.item_type}) is not in response.completed; kept"
    elif effect is Effect.NOTE_UNCONFIRMED:
        detail = f"entry {entry.ordinal} ({entry.item_type}) was never confirmed"
    elif effect is Effect.NOTE_ORPHAN:
        detail = "event for an entry never admitted"
    elif effect is Effect.NOTE_DONE_ONLY:
        detail = f"entry {entry.ordinal} ({entry.item_type}) admitted from its done"
    elif effect is Effect.NOTE_SNAPSHOT_ONLY:
        detail = f"entry {entry.ordinal} ({entry.item_type}) admitted from the snapshot"
    elif effect is Effect.NOTE_DUPLICATE_ITEM:
        detail = f"entry {entry.ordinal} already {entry.state.value}; ignored"
    else:
        detail = f"entry {entry.ordinal} is {entry.state.value}; event ignored"
    step.note(code, detail, with_event=effect in EVENT_NOTES)



def move_slot(step: StepContext, entry: Entry, trigger: SlotTrigger) -> None:
    """Move the entry's slot along the slot table (R3); binding records the entry."""
    if entry.slot is None:
        return
    slot = step.state.slots.get(entry.slot)
    if slot is None:
        slot = step.state.slots[entry.slot] = Slot()
    transition = step.kernels.slot(slot.state, trigger)
    if transition.code is not None:
        step.note(transition.code, f"output_index {entry.slot} now holds several entries")
    if trigger is SlotTrigger.BIND and entry.ordinal not in slot.entries:
        slot.entries.append(entry.ordinal)
    slot.state = transition.next_state
    step.state.routes.clear()  # the cells cached from the slot's old binding


def _learn_item_id(step: StepContext, entry: Entry) -> None:
    """A routed event's ``item_id`` names its entry from now on (R4); an entry that had
    no id takes it (R6 ``id_adopted_from_slot``)."""
    item_id = step.learn
    assert item_id is not None
    if not step.learned:  # aliases are never removed: a known one needs no update
        step.add_alias(entry, item_id)
    if step.route_code is not None:
        step.note(step.route_code, f"item_id {said(item_id)} routed by output_index")
    if entry.item_id is None:
        entry.item_id, entry.id_source = item_id, IdSource.SLOT
        step.note(Code.ID_ADOPTED_FROM_SLOT, f"took item_id {said(item_id)} from an event")
