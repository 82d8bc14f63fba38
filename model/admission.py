"""Admitting and matching items: the decision tables of rule R6.

Theory of operation
-------------------
*Namespaces.*  A ``call_id`` names one entry per item kind (``ItemKind``, declared per
type in ``catalogue.ITEM_TYPES``): a call and its output share a ``call_id`` (OpenAI's
hosted shell puts ``shell_call`` and ``shell_call_output`` in one response), so the
output is an item of its own, never a second call.

*Added.*  ``output_item.added`` either admits a new entry or is a replay of one already
admitted (same type and ``call_id``, or without ``call_id`` the same non-empty id): a
replay is ignored, so a done call is never reopened.  A ``call_id`` already held by an
entry of another type (of the same kind) is ``duplicate_call_id``.  ``added_view`` picks
the cell of ``ADDED_ADMISSION``.

*Matching.*  ``output_item.done`` and each ``response.completed`` item are *matched*.
Three keys propose entries — the entry bound alone at the item's slot (on a
shared slot: the one its ``call_id`` or id picks there), the entry holding the item's
``call_id``, the entry the item's id names uniquely — and ``MATCHING`` decides, for each
proposed entry, whether the item fits it (``Fit``) from four views: type, ``call_id``, id and
slot (``fit_key``).  ``match_view`` combines them (``MatchView``): one fitting entry is the
item's entry; several are ``ambiguous_route`` (rejected); none admits a new entry
(done-only and snapshot-only items are recovered); a ``call_id`` held by another type is
``duplicate_call_id`` (rejected).  ``DONE_ADMISSION`` then acts, and says at which
``MergeStage`` the item's identity is merged.

*Identity is fixed at confirmation* (``first_admission_wins``).  An entry's ``call_id``,
``name`` and ``namespace`` are set by the first non-empty value an item brings; a later
different value is a ``metadata_conflict``, never an overwrite — with one exception: the
entry's *own done item* (``Fit.OWN``: its id, at its own slot, while the entry is
open) may rename the ``call_id`` the added item announced (``call_id_renamed``; OpenAI and
Azure rename a client ``tool_search_call``'s ``call_id`` between added and done, and the
snapshot agrees with the done).  After confirmation nothing re-keys an entry: a snapshot
item that reaches a done entry through its own slot with a new id and a new ``call_id``
(a LiteLLM→vLLM gateway) is that entry's (``snapshot_rekeyed``), its confirmed identity
kept.  And a ``call_id``, once bound, is never taken by a different entry (``TAKEN``).
``identity_relation`` picks the cell of ``IDENTITY`` for each field.

Every classifier here is written once against ``ops.Ops``: the reducer runs it on
Python values, the proofs on Z3 terms.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Final

from .ops import Entries, Entry, Fact, Ops, Text, Value
from .recordkit import NamedTuple, record
from .vocabulary import (
    AddedView,
    AdmissionAction,
    CallFit,
    Code,
    Fit,
    IdentityField,
    IdentityRelation,
    IdFit,
    ItemKind,
    MatchView,
    MergeStage,
    PayloadAction,
    SlotFit,
    Trigger,
    TypeFit,
)

NAMESPACES: dict[ItemKind, ItemKind] = {
    ItemKind.CALL: ItemKind.CALL,
    # A call and its output carry one call_id: the output is an item, not a second call.
    ItemKind.OUTPUT: ItemKind.OUTPUT,
    ItemKind.OTHER: ItemKind.OTHER,
}
"""The ``call_id`` namespace of each item kind (``catalogue.ITEM_TYPES`` gives the kind)."""


class Admission(NamedTuple):
    """The admission decision, the diagnostic it raises (if any), and the stage at which
    a matched item's identity is merged into its entry."""

    action: AdmissionAction
    code: Code | None
    stage: MergeStage = MergeStage.FIXED


@record(frozen=True, slots=True)
class Refusal:
    """A done or snapshot item that no entry took: what ``nothing_lost`` asks of it.

    ``item_type`` is ``None`` for an item with no string type; ``view`` is the
    ``MatchView`` the matching classifier gave (``None`` when it did not run);
    ``limited``: the response already held ``max_entries`` entries; ``snapshot``: the
    item was the terminal snapshot's (else an ``output_item.done``'s).
    """

    item_type: str | None
    call_id: str | None
    view: MatchView | None
    limited: bool
    snapshot: bool


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
    MatchView.OWN: Admission(AdmissionAction.MATCH, None, MergeStage.CONFIRMING),
    MatchView.REKEYED: Admission(AdmissionAction.MATCH, Code.SNAPSHOT_REKEYED),
    MatchView.CONFLICT: Admission(AdmissionAction.REJECT, Code.AMBIGUOUS_ROUTE),
    MatchView.CALL_ID_TAKEN: Admission(AdmissionAction.REJECT, Code.DUPLICATE_CALL_ID),
}
"""``output_item.done`` and snapshot items: what the match keys found → what happens."""


class MatchedItem(Enum):
    """Where a matched item comes from (the key of ``FILLS_MISSING_SLOT``)."""

    DONE = "done"
    """An ``output_item.done`` item (``Trigger.ITEM_DONE``)."""
    SNAPSHOT = "snapshot"
    """An item of a terminal's ``response.output`` (``Trigger.SNAPSHOT_ITEM``)."""


class MatchTrigger(Enum):
    """The trigger a matched item is delivered with: the finite domain of the triggers
    of matched items (the member's value is the ``Trigger``'s).  The key of
    ``MATCHED_ITEMS``."""

    ITEM_DONE = Trigger.ITEM_DONE.value
    """``Trigger.ITEM_DONE``: the item of an ``output_item.done``."""
    SNAPSHOT_ITEM = Trigger.SNAPSHOT_ITEM.value
    """``Trigger.SNAPSHOT_ITEM``: an item of a terminal's ``response.output``."""


MATCH_TRIGGERS: Final[dict[Trigger, MatchTrigger]] = {
    Trigger(member.value): member for member in MatchTrigger
}
"""The ``Trigger`` of each ``MatchTrigger``: the triggers the matcher delivers."""

MATCHED_ITEMS: dict[MatchTrigger, MatchedItem] = {
    MatchTrigger.ITEM_DONE: MatchedItem.DONE,
    MatchTrigger.SNAPSHOT_ITEM: MatchedItem.SNAPSHOT,
}
"""The trigger of a matched item → where the item comes from (R6; decided by the
``reads_matched`` kernel, proved with ``FILLS_MISSING_SLOT`` by the contract
``slot_fill``, which is stated over the trigger)."""

ReadsMatched = Callable[[MatchTrigger], MatchedItem]
"""The kernel deciding ``MATCHED_ITEMS``' cells (``KernelSet.reads_matched``)."""

FILLS_MISSING_SLOT: dict[MatchedItem, bool] = {
    # A slot the added item lacked is filled by a later event like any missing identity
    # (R6): the done item's output_index is the producer's word for the slot.
    MatchedItem.DONE: True,
    # A snapshot position is where the item ended up in ``response.output``, not a slot
    # one can trust (gateways drop and reorder items there).
    MatchedItem.SNAPSHOT: False,
}
"""Whether a matched item's ``output_index`` binds the slot of an entry that has none
(decided by the ``fills_slot`` kernel; proved by ``proofs/responses_z3.py``)."""


def binds_missing_slot(ops: Ops, entry_has_slot: Fact, item_has_slot: Fact, fills: Fact) -> Fact:
    """Whether a matched item binds its slot to its entry: the entry has none, the item
    has one, and ``fills`` (the ``FILLS_MISSING_SLOT`` cell of the item's source)."""
    return ops.and_(ops.not_(entry_has_slot), item_has_slot, fills)


MatchingTable = dict[TypeFit, dict[CallFit, dict[IdFit, dict[SlotFit, Fit]]]]
"""type fit → call_id fit → id fit → slot fit → does the item fit the proposed entry."""

_TF, _CF, _IF, _SF = TypeFit, CallFit, IdFit, SlotFit
_NO, _AGREE, _OWN, _REKEYED = Fit.NONE, Fit.AGREE, Fit.OWN, Fit.REKEYED

MATCHING: MatchingTable = {
    _TF.SAME: {
        # Equal call_ids are the strongest key: ids may rotate (GitHub Copilot, vLLM).
        _CF.EQUAL: {
            _IF.BLANK: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
            _IF.NAMES: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
            _IF.UNSEEN: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
            _IF.OTHER: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
        },
        # Without two call_ids to compare, the ids decide.  Through its own slot an open
        # entry, or the snapshot, also takes a never-seen id (rotated ids); a done entry
        # does not take a done item with a new id: a second item done at a used slot.
        _CF.BLANK: {
            _IF.BLANK: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
            _IF.NAMES: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _AGREE, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _AGREE},
            _IF.UNSEEN: {_SF.OPEN_DONE: _AGREE, _SF.OPEN_SNAPSHOT: _AGREE, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _AGREE, _SF.ELSEWHERE: _NO},
            _IF.OTHER: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
        },
        # Different call_ids are different calls, with two exceptions.  The entry's own
        # done (its id, its slot, still open) renames it: OpenAI and Azure change a client
        # tool_search_call's call_id between added and done.  The snapshot's item at a
        # done entry's own slot, with the entry's id or a never-seen one, re-keys it: the
        # entry keeps its confirmed identity (a LiteLLM→vLLM gateway).  The snapshot never
        # renames an open entry (opencode test 14: a colliding id is not a rename).
        _CF.DIFFERS: {
            _IF.BLANK: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.NAMES: {_SF.OPEN_DONE: _OWN, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _REKEYED, _SF.ELSEWHERE: _NO},
            _IF.UNSEEN: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _REKEYED, _SF.ELSEWHERE: _NO},
            _IF.OTHER: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
        },
    },
    # An item of another type is never the entry's, whatever its keys say.
    _TF.DIFFERS: {
        _CF.EQUAL: {
            _IF.BLANK: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.NAMES: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.UNSEEN: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.OTHER: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
        },
        _CF.BLANK: {
            _IF.BLANK: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.NAMES: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.UNSEEN: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.OTHER: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
        },
        _CF.DIFFERS: {
            _IF.BLANK: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.NAMES: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.UNSEEN: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
            _IF.OTHER: {_SF.OPEN_DONE: _NO, _SF.OPEN_SNAPSHOT: _NO, _SF.CLOSED_DONE: _NO, _SF.CLOSED_SNAPSHOT: _NO, _SF.ELSEWHERE: _NO},
        },
    },
}
"""The matching table (R6): does a done or snapshot item fit one proposed entry."""


class IdentityDecision(NamedTuple):
    """Keep the entry's value or take the item's, and the diagnostic raised, if any."""

    action: PayloadAction
    code: Code | None


IdentityTable = dict[IdentityField, dict[MergeStage, dict[IdentityRelation, IdentityDecision]]]
"""field → merge stage → relation of the item's value to the entry's → decision."""

_F, _ST, _IR, _K, _T = IdentityField, MergeStage, IdentityRelation, PayloadAction.KEEP, PayloadAction.TAKE
_D = IdentityDecision

IDENTITY: IdentityTable = {
    _F.CALL_ID: {
        _ST.FIXED: {
            _IR.MISSING: _D(_K, None),
            # A done or snapshot item may supply what the added item lacked (AxonHub
            # test 14, opencode test 17): the first non-empty value is its admission.
            _IR.FIRST: _D(_T, None),
            # One call_id names one entry of a kind: never taken from another.
            _IR.TAKEN: _D(_K, Code.DUPLICATE_CALL_ID),
            _IR.EQUAL: _D(_K, None),
            # Tools were dispatched under the confirmed call_id: reported, not obeyed.
            _IR.DIFFERS: _D(_K, Code.METADATA_CONFLICT),
        },
        _ST.CONFIRMING: {
            _IR.MISSING: _D(_K, None),
            _IR.FIRST: _D(_T, None),
            _IR.TAKEN: _D(_K, Code.DUPLICATE_CALL_ID),
            _IR.EQUAL: _D(_K, None),
            # The entry's own done renames what added announced (tool_search_call).
            _IR.DIFFERS: _D(_T, Code.CALL_ID_RENAMED),
        },
    },
    _F.NAME: {
        _ST.FIXED: {
            _IR.MISSING: _D(_K, None),
            _IR.FIRST: _D(_T, None),
            _IR.TAKEN: _D(_K, None),
            _IR.EQUAL: _D(_K, None),
            _IR.DIFFERS: _D(_K, Code.METADATA_CONFLICT),
        },
        # No provider renames a tool between added and done; AxonHub's overwrite (C.2)
        # is the bug this keeps out: a rename is reported, not obeyed.
        _ST.CONFIRMING: {
            _IR.MISSING: _D(_K, None),
            _IR.FIRST: _D(_T, None),
            _IR.TAKEN: _D(_K, None),
            _IR.EQUAL: _D(_K, None),
            _IR.DIFFERS: _D(_K, Code.METADATA_CONFLICT),
        },
    },
    _F.NAMESPACE: {
        _ST.FIXED: {
            _IR.MISSING: _D(_K, None),
            _IR.FIRST: _D(_T, None),
            _IR.TAKEN: _D(_K, None),
            _IR.EQUAL: _D(_K, None),
            _IR.DIFFERS: _D(_K, Code.METADATA_CONFLICT),
        },
        _ST.CONFIRMING: {
            _IR.MISSING: _D(_K, None),
            _IR.FIRST: _D(_T, None),
            _IR.TAKEN: _D(_K, None),
            _IR.EQUAL: _D(_K, None),
            _IR.DIFFERS: _D(_K, Code.METADATA_CONFLICT),
        },
    },
}
"""Each identity field of a merged item: its stage and relation → keep or take."""

NAMES_ONE_ENTRY: dict[IdentityField, bool] = {
    # One call_id names one entry of a kind (R6): a value another entry holds is TAKEN.
    IdentityField.CALL_ID: True,
    # Many calls share a tool's name or namespace: another entry's value is no claim.
    IdentityField.NAME: False,
    IdentityField.NAMESPACE: False,
}
"""Whether a field's value, held by another entry, is ``TAKEN`` (``identity_relation``);
the reducer asks it through the ``names_one`` kernel (``ModelTables.names_one_entry``)."""


# -- the classifiers (written once; run by the reducer and by the proofs) --------------


def identity_relation(ops: Ops, held: Text, value: Text, taken: Fact) -> Value:
    """The ``IdentityRelation`` of an item's field ``value`` to the entry's ``held`` one.

    ``taken``: another entry of the item's kind holds ``value`` (only ``call_id`` can be).
    A blank or missing value says nothing.
    """
    return ops.cond(
        ops.not_(ops.present(value)),
        _IR.MISSING,
        ops.cond(
            ops.and_(ops.present(held), ops.same(value, held)),
            _IR.EQUAL,
            ops.cond(taken, _IR.TAKEN, ops.cond(ops.present(held), _IR.DIFFERS, _IR.FIRST)),
        ),
    )


def added_view(
    ops: Ops,
    holder: Entries,
    named: Entries,
    same_type: Callable[[Entry], Fact],
    call: Text,
) -> tuple[Value, Entry]:
    """The cell of ``ADDED_ADMISSION`` an added item selects, and the entry it replays.

    ``holder``: the entry holding the item's ``call_id`` in its kind's namespace (none or
    one); ``named``: the entries its id names; ``same_type(e)``: entry ``e`` has its type.
    """
    held = ops.not_(ops.empty(holder))
    same = ops.where(named, same_type)
    by_id = ops.and_(ops.not_(ops.present(call)), ops.not_(ops.empty(same)))
    view = ops.cond(
        held,
        ops.cond(ops.of(ops.first(holder), same_type, False), AddedView.REPLAY, AddedView.CALL_ID_TAKEN),
        ops.cond(by_id, AddedView.REPLAY, AddedView.NEW),
    )
    target = ops.cond(held, ops.first(holder), ops.cond(by_id, ops.first(same), None))
    return view, target


@record(frozen=True)
class MatchFacts:
    """What matching reads about a done or snapshot item and the entries.

    The item: its ``call_id``, whether it has an id, whether it is the snapshot's;
    ``bound`` the entries bound at its slot (none without a slot) and ``shared`` whether
    that slot is shared; ``named`` the entries its id names; ``holder`` the entry holding
    its ``call_id`` in its kind's namespace.  Per entry: ``same_type``, ``call_of`` (its
    ``call_id``), ``has_id_of`` (it has an id) and ``open_`` (not yet done).
    """

    call: Text
    has_id: Fact
    snapshot: Fact
    bound: Entries
    shared: Fact
    named: Entries
    holder: Entries
    same_type: Callable[[Entry], Fact]
    call_of: Callable[[Entry], Text]
    has_id_of: Callable[[Entry], Fact]
    open_: Callable[[Entry], Fact]


def fit_key(ops: Ops, facts: MatchFacts, entry: Entry) -> tuple[Value, Value, Value, Value]:
    """The cell of ``MATCHING`` for the item against proposed entry ``entry``."""
    theirs = facts.call_of(entry)
    type_fit = ops.cond(facts.same_type(entry), _TF.SAME, _TF.DIFFERS)
    call_fit = ops.cond(
        ops.or_(ops.not_(ops.present(facts.call)), ops.not_(ops.present(theirs))),
        _CF.BLANK,
        ops.cond(ops.same(facts.call, theirs), _CF.EQUAL, _CF.DIFFERS),
    )
    id_fit = ops.cond(
        ops.not_(facts.has_id),
        _IF.BLANK,
        ops.cond(
            ops.member(facts.named, entry),
            _IF.NAMES,
            ops.cond(
                ops.not_(facts.has_id_of(entry)),
                _IF.BLANK,
                ops.cond(ops.empty(facts.named), _IF.UNSEEN, _IF.OTHER),
            ),
        ),
    )
    own = ops.and_(
        ops.not_(facts.shared),
        ops.single(facts.bound),
        ops.member(facts.bound, entry),
    )
    slot_fit = ops.cond(
        own,
        ops.cond(
            facts.open_(entry),
            ops.cond(facts.snapshot, _SF.OPEN_SNAPSHOT, _SF.OPEN_DONE),
            ops.cond(facts.snapshot, _SF.CLOSED_SNAPSHOT, _SF.CLOSED_DONE),
        ),
        _SF.ELSEWHERE,
    )
    return type_fit, call_fit, id_fit, slot_fit


def match_view(
    ops: Ops, facts: MatchFacts, fit: Callable[[Entry], Value]
) -> tuple[Value, Entry]:
    """The cell of ``DONE_ADMISSION`` a done or snapshot item selects, and its entry.

    ``fit(e)`` is the matching table's ``Fit`` for proposed entry ``e`` (the kernel applied to
    ``fit_key``).  The slot proposes its one binding (on a shared slot, the binding its
    ``call_id`` holder or id picks there); the ``call_id`` its holder; the id the one
    entry it names.
    """
    at_slot = ops.cond(
        facts.shared,
        ops.meet(facts.bound, ops.cond(ops.empty(facts.holder), facts.named, facts.holder)),
        facts.bound,
    )
    proposed = ops.join(ops.join(ops.only(at_slot), facts.holder), ops.only(facts.named))
    fitting = ops.where(proposed, lambda e: ops.not_(ops.is_(fit(e), Fit.NONE)))
    entry = ops.first(fitting)
    fitted = ops.of(
        entry,
        lambda e: ops.cond(
            ops.is_(fit(e), Fit.OWN),
            MatchView.OWN,
            ops.cond(ops.is_(fit(e), Fit.REKEYED), MatchView.REKEYED, MatchView.AGREE),
        ),
        MatchView.NONE,
    )
    taken = ops.and_(
        ops.not_(ops.empty(facts.holder)),
        ops.not_(ops.of(ops.first(facts.holder), facts.same_type, True)),
    )
    view = ops.cond(
        taken,
        MatchView.CALL_ID_TAKEN,
        ops.cond(ops.or_(ops.empty(fitting), ops.single(fitting)), fitted, MatchView.CONFLICT),
    )
    return view, ops.cond(ops.single(fitting), entry, None)
