"""Payload reconciliation: rule R7 as a decision table.

Per channel the candidates arrive in this order: the concatenated deltas, the
``*.done`` value, the ``output_item.done`` item's value, the ``response.completed``
item's value (``PayloadSource``).  The final value is the **last non-empty**
candidate: an empty or missing candidate never replaces a non-empty one (gateways
blank terminal fields), and a later non-empty candidate always wins.  When two
non-empty candidates differ the change is reported: ``payload_extended`` (info) when
the held value is a prefix of the new one, ``divergent_payload`` (warning) otherwise.
Payloads are opaque strings: never parsed, trimmed or re-serialised.
"""

from __future__ import annotations

from typing import NamedTuple

from .vocabulary import CandidateRelation, Code, PayloadAction, PayloadHeld, PayloadSource


class PayloadDecision(NamedTuple):
    """Keep or take the candidate, and the diagnostic it raises, if any."""

    action: PayloadAction
    code: Code | None


PayloadTable = dict[PayloadHeld, dict[CandidateRelation, PayloadDecision]]
"""held → candidate relation → decision."""

_H, _R, _KEEP, _TAKE = PayloadHeld, CandidateRelation, PayloadAction.KEEP, PayloadAction.TAKE

PAYLOAD: PayloadTable = {
    _H.NOTHING: {
        _R.MISSING: PayloadDecision(_KEEP, None),
        _R.EMPTY: PayloadDecision(_KEEP, None),
        _R.FIRST: PayloadDecision(_TAKE, None),
        # With nothing held every non-empty candidate is FIRST; total for the proofs.
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

CANDIDATE_ORDER: tuple[PayloadSource, ...] = (
    PayloadSource.DELTAS,
    PayloadSource.PAYLOAD_DONE,
    PayloadSource.ITEM_DONE,
    PayloadSource.SNAPSHOT,
)
"""The order in which a well-formed stream offers a channel's candidates."""
