"""Identity (R6): an item's ``call_id``, ``name``, ``namespace`` and id merged into its entry.

For each ``IdentityField`` the classifier ``model.admission.identity_relation`` (the same
function the proofs run) says how the item's value relates to the entry's, and the
identity kernel decides keep or take at the item's ``MergeStage`` — the stage the
matching table gave (``CONFIRMING`` for the entry's own confirming item).  The wire id
has its own rules (``merge_id``): the first wire id stays, a rotated one is an alias.
The other fields of the item are merged so that empty never erases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from responses_oracle.model.admission import identity_relation
from responses_oracle.model.catalogue import STRAY_ITEM_FIELDS
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.vocabulary import (
    Code,
    IdentityField,
    IdSource,
    MergeStage,
    PayloadAction,
    Trigger,
)

from .context import StepContext, nonempty, said
from .state import Entry

_IDENTITY_NAMES = frozenset(field.value for field in IdentityField)


def merge_item(
    step: StepContext,
    entry: Entry,
    item: Mapping[str, Any],
    stage: MergeStage,
    trigger: Trigger = Trigger.ITEM_DONE,
) -> None:
    """Merge ``item`` into ``entry``: identity fields by the identity table (only a blank
    one is copied raw, so that the output keeps the wire's ``null`` or ``""``), the id by
    ``merge_id``, every other field so that a blank never replaces a value.

    A snapshot item's field that differs from the value an ``output_item.done`` gave,
    where no rule decides it (not identity, not a payload), is reported
    (``divergent_item_field``) and the snapshot's value kept: the snapshot is the
    response as stored, what ``GET /responses/{id}`` returns and a later turn refers to."""
    for field in IdentityField:
        name = field.value
        value = nonempty(item.get(name))
        held: str | None = getattr(entry, name)
        owners = step.holder(entry.spec.kind, value) if step.kernels.names_one(field) else ()
        taken = bool(owners) and owners[0] != entry.ordinal
        relation = identity_relation(PYTHON, held, value, taken)
        given = entry.given_call_ids
        if field is IdentityField.CALL_ID and value is not None and not taken \
                and value not in given:
            # Kept or not, the stream gave the call this call_id (``Entry.given_call_ids``).
            given.append(value)
        decision = step.kernels.identity(field, stage, relation)
        take = decision.action is PayloadAction.TAKE
        if decision.code is not None:
            outcome = "took the new one" if take else "kept the first"
            step.note(
                decision.code,
                f"{name} {said(value)} differs from first admission {said(held)}; {outcome}",
            )
        if take:
            if field is IdentityField.CALL_ID and value is not None:
                step.bind_call_id(entry, value)
            setattr(entry, name, value)
    merge_id(step, entry, item)
    merged = entry.item
    if trigger is Trigger.SNAPSHOT_ITEM and entry.done_item:
        _report_divergent(step, entry, item)
    elif trigger is Trigger.ITEM_DONE:
        entry.done_item = True
    for name, wire_value in item.items():
        if name in STRAY_ITEM_FIELDS:
            continue
        if name in _IDENTITY_NAMES and nonempty(wire_value) is not None:
            # The identity table alone decides a non-empty identity value: one it kept
            # out (a later name, a taken call_id) must not reach the output this way.
            # The key keeps its wire position; the output writes the entry's value there.
            merged.setdefault(name, None)
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


def _report_divergent(step: StepContext, entry: Entry, item: Mapping[str, Any]) -> None:
    """Report each field of the snapshot ``item`` that differs from the non-blank value
    the entry's ``output_item.done`` gave, where no rule decides it (R6 decides the
    identity fields, R7 the payloads)."""
    decided = entry.spec.payload_fields
    held = entry.item
    for name, wire_value in item.items():
        if name in _IDENTITY_NAMES or name in decided or name in _NOT_ITEM_FIELDS:
            continue
        before = held.get(name)
        if _blank(before) or _blank(wire_value) or before == wire_value:
            continue
        step.note(
            Code.DIVERGENT_ITEM_FIELD,
            f"{entry.item_type} {said(entry.item_id)}: {name} differs between "
            f"output_item.done ({_shown(before)}) and the snapshot ({_shown(wire_value)}); "
            "kept the snapshot's, the response as stored",
        )


_NOT_ITEM_FIELDS = frozenset({"id", "type", *STRAY_ITEM_FIELDS})
"""Fields an item merge never reports as divergent: the id (``merge_id``), the type (the
entry's), and the gateways' stray fields."""


def _blank(value: Any) -> bool:
    """Whether ``value`` says nothing (empty never erases, so it never diverges)."""
    return value is None or value == "" or value == []


def _shown(value: Any) -> str:
    """``value`` shortened for a diagnostic (an ``encrypted_content`` is kilobytes)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:18]}…{text[-18:]} ({len(text)} chars)"


def merge_id(step: StepContext, entry: Entry, item: Mapping[str, Any]) -> None:
    """The item's wire id (or a gateway's ``item_id`` in its place) names the entry; the
    first wire id is the entry's id, a later different one is reported (``id_changed``),
    and so is an item of an entry with an id that carries only ``item_id``
    (``id_only_as_item_id``)."""
    wire_id = nonempty(item.get("id"))
    renamed = nonempty(item.get("item_id")) if wire_id is None else None
    if wire_id is not None:
        step.add_alias(entry, wire_id)
        if entry.id_source is not IdSource.WIRE:
            entry.item_id, entry.id_source = wire_id, IdSource.WIRE
        elif wire_id != entry.item_id:
            # The item was matched by a stronger key (slot, call_id): a rotated id.
            step.note(
                Code.ID_CHANGED,
                f"id {said(wire_id)} differs from the first, {said(entry.item_id)}; kept the first",
            )
    elif renamed is not None:
        step.add_alias(entry, renamed)
        if entry.id_source not in (IdSource.WIRE, IdSource.RENAMED_FIELD):
            entry.item_id, entry.id_source = renamed, IdSource.RENAMED_FIELD
            step.note(Code.ID_RENAMED_FIELD, f"item has no id; took item_id {said(renamed)}")
        else:
            # The entry's id is known, but a client reading this item finds none.
            step.note(Code.ID_ONLY_AS_ITEM_ID, f"item has no id, only item_id {said(renamed)}")
