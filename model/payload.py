"""Payload reconciliation: rule R7 as a decision table.

Per channel the offers arrive in this order: the concatenated deltas, the
``*.done`` value, the ``output_item.done`` item's value, the ``response.completed``
item's value (``PayloadSource``).  The final value is the **last non-empty**
offer: an empty or missing offer never replaces a non-empty one (gateways
blank terminal fields), and a later non-empty offer always wins.  When two
non-empty offers differ the change is reported: ``payload_extended`` (info) when
the held value is a prefix of the new one, ``divergent_payload`` (warning) otherwise;
a value after an explicit empty one, ``empty_payload_filled`` (info).
Payloads are opaque strings: never parsed, trimmed or re-serialised.

An explicit empty value is a value (a zero-argument call's ``""``): it fills a channel
that holds nothing (``NOTHING``/``EMPTY`` → take) but never replaces a non-empty one.
Which cell applies is ``payload_key``, written once against ``ops.Ops`` and run by the
reducer and by the Z3 encoding.
"""

from __future__ import annotations

from collections.abc import Sequence

from .ops import Ops, Text
from .recordkit import NamedTuple
from .vocabulary import Code, OfferRelation, PayloadAction, PayloadHeld, PayloadSource


class PayloadDecision(NamedTuple):
    """Keep or take the offer, and the diagnostic it raises, if any."""

    action: PayloadAction
    code: Code | None


PayloadTable = dict[PayloadHeld, dict[OfferRelation, PayloadDecision]]
"""held → offer relation → decision."""

_H, _R, _KEEP, _TAKE = PayloadHeld, OfferRelation, PayloadAction.KEEP, PayloadAction.TAKE

PAYLOAD: PayloadTable = {
    _H.NOTHING: {
        _R.MISSING: PayloadDecision(_KEEP, None),
        # An empty value is a value: it replaces nothing held.
        _R.EMPTY: PayloadDecision(_TAKE, None),
        _R.FIRST: PayloadDecision(_TAKE, None),
        # With nothing held every non-empty offer is FIRST; total for the proofs.
        _R.EQUAL: PayloadDecision(_TAKE, None),
        _R.EXTENDS: PayloadDecision(_TAKE, None),
        _R.DIFFERS: PayloadDecision(_TAKE, None),
    },
    _H.EMPTY: {
        _R.MISSING: PayloadDecision(_KEEP, None),
        # The first empty value stays (its source too).
        _R.EMPTY: PayloadDecision(_KEEP, None),
        # A value after an explicit empty one: taken, and reported -- a client that read
        # the empty one (a blanked done) holds another answer.
        _R.FIRST: PayloadDecision(_TAKE, Code.EMPTY_PAYLOAD_FILLED),
        # With an empty value held every non-empty offer is FIRST.
        _R.EQUAL: PayloadDecision(_TAKE, None),
        _R.EXTENDS: PayloadDecision(_TAKE, None),
        _R.DIFFERS: PayloadDecision(_TAKE, None),
    },
    _H.VALUE: {
        _R.MISSING: PayloadDecision(_KEEP, None),
        _R.EMPTY: PayloadDecision(_KEEP, Code.EMPTY_PAYLOAD_IGNORED),
        _R.FIRST: PayloadDecision(_TAKE, None),
        _R.EQUAL: PayloadDecision(_TAKE, None),
        _R.EXTENDS: PayloadDecision(_TAKE, Code.PAYLOAD_EXTENDED),
        _R.DIFFERS: PayloadDecision(_TAKE, Code.DIVERGENT_PAYLOAD),
    },
}
"""The payload table (R7)."""

OFFER_ORDER: tuple[PayloadSource, ...] = (
    PayloadSource.DELTAS,
    PayloadSource.PAYLOAD_DONE,
    PayloadSource.ITEM_DONE,
    PayloadSource.SNAPSHOT,
)
"""The order in which a well-formed stream offers a channel's offers."""


# -- the classifier (written once; run by the reducer and by the proofs) ---------------


def payload_key(ops: Ops, held: Text, offer: Text) -> tuple[PayloadHeld, OfferRelation]:
    """The cell of ``PAYLOAD`` an offer selects, given what the channel holds."""
    held_view = ops.cond(
        ops.present(held), _H.VALUE, ops.cond(ops.blank(held), _H.EMPTY, _H.NOTHING)
    )
    relation = ops.cond(
        ops.missing(offer),
        _R.MISSING,
        ops.cond(
            ops.blank(offer),
            _R.EMPTY,
            ops.cond(
                ops.not_(ops.present(held)),
                _R.FIRST,
                ops.cond(
                    ops.same(offer, held),
                    _R.EQUAL,
                    ops.cond(ops.extends(offer, held), _R.EXTENDS, _R.DIFFERS),
                ),
            ),
        ),
    )
    return held_view, relation


def realigned_parts(streamed: Sequence[int], positions: Sequence[int]) -> list[tuple[int, int]]:
    """Where an item puts the parts streamed at indexes it does not use (R7,
    ``part_realigned``): ``(streamed index, position)`` pairs.

    ``streamed`` are a channel's part indexes the stream opened, ``positions`` the
    indexes the item holds that channel's parts at.  The streamed indexes the item does
    not use take, in order, the item's positions that no streamed part has; the others
    stay.  Bedrock Mantle streams a message's only text part at ``content_index`` 1 while
    its item holds it at 0: ``realigned_parts([1], [0]) == [(1, 0)]``.
    """
    strays = [index for index in sorted(streamed) if index not in positions]
    free = [position for position in positions if position not in streamed]
    return list(zip(strays, free, strict=False))
