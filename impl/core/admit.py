"""Admission and matching (R6): which entry an added, done or snapshot item belongs to.

The decisions are the model's (``model/admission.py``): ``added_view`` and
``match_view`` pick the cell — the same functions the proofs run with Z3 terms — and the
admission kernels act.  This module reads the classifiers' facts off the state
(``view_of_added``, ``MatchFacts``), admits new entries, and delivers the item's trigger
to its entry.  The canonical stream asks ``view_of_added`` too, of an added it makes up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from responses_oracle.model.admission import (
    MATCH_TRIGGERS,
    MatchFacts,
    Refusal,
    added_view,
    binds_missing_slot,
    fit_key,
    match_view,
)
from responses_oracle.model.catalogue import ITEM_TYPES, UNKNOWN_ITEM_TYPE
from responses_oracle.model.lifecycle import OPEN_STATES
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.vocabulary import (
    AddedView,
    AdmissionAction,
    Code,
    Fit,
    ItemKind,
    MergeStage,
    SlotState,
    SlotTrigger,
    Trigger,
)

from . import reconcile
from .context import StepContext, nonempty, said
from .effects import deliver, move_slot
from .events import Event
from .state import Entry, ResponseState


def new_entry(state: ResponseState, item_type: str, slot: int | None) -> Entry:
    """A not yet admitted entry for an item of ``item_type`` at ``slot``."""
    return Entry(len(state.entries), item_type, ITEM_TYPES.get(item_type, UNKNOWN_ITEM_TYPE), slot)


def admission_refused(step: StepContext) -> bool:
    """The response holds ``max_entries`` entries: report once, admit no more."""
    state = step.state
    if len(state.entries) < step.limits.max_entries:
        return False
    if not state.entries_limit_hit:
        state.entries_limit_hit = True
        step.note(Code.LIMIT_EXCEEDED, f"more than {step.limits.max_entries} entries; item dropped")
    return True


def _keys(item: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    """The item's type, ``call_id`` and id (a gateway's ``item_id`` standing in for it)."""
    item_id = nonempty(item.get("id")) or nonempty(item.get("item_id"))
    return item["type"], nonempty(item.get("call_id")), item_id


def _kind(item_type: str) -> Any:
    return ITEM_TYPES.get(item_type, UNKNOWN_ITEM_TYPE).kind


def on_added(step: StepContext, event: Event) -> None:
    """``output_item.added``: admit a new entry, or deliver the replay to its entry."""
    item = event.item
    if item is None:
        step.decision = "no item"
        return
    item_type, call_id, _ = _keys(item)
    entries = step.state.entries
    view, target = view_of_added(item, entries, step.holder, step.named_by)
    admission = step.kernels.admit_added(view)
    if step.tracing:
        step.decision = f"added: {view.value} -> {admission.action.value}"
    if admission.code is not None:
        step.note(admission.code, f"call_id {said(call_id)} is held by another item type", True)
    if admission.action is AdmissionAction.MATCH and target is not None:
        deliver(step, entries[target], Trigger.ITEM_ADDED, item=item)
    elif admission.action is AdmissionAction.ADMIT and not admission_refused(step):
        entry = new_entry(step.state, item_type, event.output_index)
        deliver(step, entry, Trigger.ITEM_ADDED, item=item)


def view_of_added(
    item: Mapping[str, Any],
    entries: Sequence[Entry],
    holder: Callable[[ItemKind, str | None], Sequence[int]],
    named_by: Callable[[str | None], Sequence[int]],
) -> tuple[AddedView, int | None]:
    """The cell of ``ADDED_ADMISSION`` an ``output_item.added`` of ``item`` selects
    (``added_view``), and the ordinal of the entry it replays, if any.

    The facts: the item's type, ``call_id`` and id (``_keys``); ``holder(kind,
    call_id)``, the entry holding its ``call_id`` in its kind's namespace; ``named_by(id)``,
    the entries its id names; and the type of each.  The reducer reads the first two off
    its maps (``StepContext.holder``, ``StepContext.named_by``); the canonical stream, off
    the items it has sent (``Canonicalizer._added``).
    """
    item_type, call_id, item_id = _keys(item)
    view, target = added_view(
        PYTHON,
        holder(_kind(item_type), call_id),
        named_by(item_id),
        lambda o: entries[o].item_type == item_type,
        call_id,
    )
    return view, target


def match_facts(
    step: StepContext, item: Mapping[str, Any], slot_index: int | None, snapshot: bool
) -> MatchFacts:
    """What ``match_view`` reads about ``item`` and the entries, off the state."""
    state = step.state
    entries = state.entries
    item_type, call_id, item_id = _keys(item)
    slot = state.slots.get(slot_index) if slot_index is not None else None
    return MatchFacts(
        call=call_id,
        has_id=item_id is not None,
        snapshot=snapshot,
        bound=slot.entries if slot is not None else (),
        shared=slot is not None and slot.state is SlotState.SHARED,
        named=step.named_by(item_id),
        holder=step.holder(_kind(item_type), call_id),
        same_type=lambda o: entries[o].item_type == item_type,
        call_of=lambda o: entries[o].call_id,
        has_id_of=lambda o: entries[o].item_id is not None,
        open_=lambda o: entries[o].state in OPEN_STATES,
    )


def on_item(
    step: StepContext,
    item: Mapping[str, Any],
    slot_index: int | None,
    trigger: Trigger,
    snapshot_nonempty: bool = False,
) -> Entry | None:
    """Match or admit a done or snapshot item, deliver ``trigger`` to its entry, and
    count it placed or refused (``nothing_lost``); the entry holding it, if any."""
    snapshot = trigger is Trigger.SNAPSHOT_ITEM
    if not snapshot:
        step.state.done_items += 1
    facts = match_facts(step, item, slot_index, snapshot)
    kernels = step.kernels

    def fit(ordinal: int) -> Fit:
        fitted: Fit = kernels.fit(*fit_key(PYTHON, facts, ordinal))
        return fitted

    view, target = match_view(PYTHON, facts, fit)
    admission = kernels.admit_done(view)
    if step.tracing:
        step.decision = f"{trigger.value}: {view.value} -> {admission.action.value}"
    entry: Entry | None = None
    if admission.action is AdmissionAction.MATCH and target is not None:
        entry = step.state.entries[target]
    if admission.code is not None:
        step.note(admission.code, _admission_detail(item, slot_index, view.value, entry), True)
    if entry is not None:
        fills = kernels.fills_slot(kernels.reads_matched(MATCH_TRIGGERS[trigger]))
        if binds_missing_slot(PYTHON, entry.slot is not None, slot_index is not None, fills):
            entry.slot = slot_index
            move_slot(step, entry, SlotTrigger.BIND)
    elif admission.action is AdmissionAction.ADMIT and not admission_refused(step):
        entry = new_entry(step.state, item["type"], slot_index)
    else:
        limited = admission.action is AdmissionAction.ADMIT
        refused(step, item, view, limited=limited, snapshot=snapshot)
        return None
    if snapshot:
        reconcile.snapshot_arrives(step, entry, item)
    stage: MergeStage = admission.stage
    deliver(step, entry, trigger, item=item, snapshot_nonempty=snapshot_nonempty, stage=stage)
    state = step.state
    if entry.ordinal >= len(state.entries) or state.entries[entry.ordinal] is not entry:
        # No lifecycle row admitted it: counted neither placed nor refused, so that
        # nothing_lost sees the loss (the reference's rows admit every such item).
        return None
    if snapshot:
        state.snapshot_placed += 1
    else:
        state.done_placed += 1
    return entry


def refused(
    step: StepContext, item: Mapping[str, Any], view: Any, *, limited: bool, snapshot: bool
) -> None:
    """Record a done or snapshot item no entry took, with the facts ``nothing_lost`` asks
    for (``view`` is the matching classifier's, ``None`` when the item has no type)."""
    item_type = item.get("type")
    step.state.refusals.append(
        Refusal(
            item_type if isinstance(item_type, str) else None,
            nonempty(item.get("call_id")),
            view,
            limited,
            snapshot,
        )
    )


def _admission_detail(
    item: Mapping[str, Any], slot_index: int | None, view: str, entry: Entry | None
) -> str:
    """What an admission diagnostic says: the item, and for a match both identities."""
    told = f"{item['type']} item at output_index {said(slot_index)}: {view}"
    if entry is None:
        return told
    _, call_id, item_id = _keys(item)
    return (
        f"{told}; item ({said(item_id)}, call_id {said(call_id)}) is entry {entry.ordinal} "
        f"({said(entry.item_id)}, call_id {said(entry.call_id)}); kept the entry's identity"
    )
