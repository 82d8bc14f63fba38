"""Admitting and matching items: the decision tables of rule R6.

``output_item.added`` either admits a new entry or is a replay of one already admitted
(same type and ``call_id``, or without ``call_id`` the same non-empty id): a replay is
ignored, so a done call is never reopened.  A ``call_id`` already held by an entry of
another type is ``duplicate_call_id``.

``output_item.done`` and each ``response.completed`` item are *matched*.  Three keys
are tried — the entry bound at the slot, the entry admitted with the item's
``call_id``, the entry the item's id names uniquely — each counting only when the
entry is *compatible* (same type; equal ``call_id`` where both have one; otherwise
equal ids or one missing).  ``MatchView`` summarises what they found.  If they agree,
the item is that entry's; if two keys name different entries the item is ambiguous
and rejected; if none finds anything a new entry is admitted (done-only and
snapshot-only items are recovered).

First admission wins (``first_admission_wins``): an entry's ``call_id``, ``name`` and
``namespace`` are set by the first non-empty value an item brings (``IDENTITY``); a later
different value is a ``metadata_conflict``, never an overwrite, and a blank one says
nothing.  The type never changes because matching requires it equal, and the id has its
own rules (``id_changed``, R6).  The driver asks ``IDENTITY`` once per field of every
item merged into an entry — the added item, each done item, the snapshot item.
"""

from __future__ import annotations

from typing import NamedTuple

from .vocabulary import (
    AddedView,
    AdmissionAction,
    Code,
    IdentityRelation,
    MatchView,
    PayloadAction,
)


class Admission(NamedTuple):
    """The admission decision and the diagnostic it raises, if any."""

    action: AdmissionAction
    code: Code | None


ADDED_ADMISSION: dict[AddedView, Admission] = {
    AddedView.NEW: Admission(AdmissionAction.ADMIT, None),
    # A replay is delivered to the entry it repeats; the lifecycle notes the duplicate.
    AddedView.REPLAY: Admission(AdmissionAction.MATCH, None),
    AddedView.CALL_ID_TAKEN: Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID),
}
"""``output_item.added``: what the item finds → what happens."""

DONE_ADMISSION: dict[MatchView, Admission] = {
    MatchView.NONE: Admission(AdmissionAction.ADMIT, None),
    MatchView.AGREE: Admission(AdmissionAction.MATCH, None),
    MatchView.CONFLICT: Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE),
    MatchView.CALL_ID_TAKEN: Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID),
}
"""``output_item.done`` and snapshot items: what the match keys found → what happens."""


class IdentityDecision(NamedTuple):
    """Keep the entry's value or take the item's, and the diagnostic raised, if any."""

    action: PayloadAction
    code: Code | None


IDENTITY: dict[IdentityRelation, IdentityDecision] = {
    IdentityRelation.MISSING: IdentityDecision(PayloadAction.KEEP, None),
    # A done or snapshot item may supply what the added item lacked (AxonHub test 14,
    # opencode test 17): the first non-empty value is the admission of that field.
    IdentityRelation.FIRST: IdentityDecision(PayloadAction.TAKE, None),
    IdentityRelation.EQUAL: IdentityDecision(PayloadAction.KEEP, None),
    # Tools were already dispatched under the first name: a rename is reported, not obeyed.
    IdentityRelation.DIFFERS: IdentityDecision(PayloadAction.KEEP, Code.METADATA_CONFLICT),
}
"""Each identity field of a merged item: how it relates to the entry's value → what happens."""

IDENTITY_FIELDS: tuple[str, ...] = ("call_id", "name", "namespace")
"""The item fields ``IDENTITY`` decides, in the order the driver merges them."""
