"""Slots: the first-write-only binding of an ``output_index`` (rule R3).

A slot is bound by the first entry admitted at it and keeps that binding for the whole
response.  When the entry is done the binding stays (R3's *tombstone*: the ``TOMBSTONE``
column moves no slot), so that a late event on the slot still finds the done entry (and
is a ``late_event``) instead of being guessed onto a newer call.  A second entry
admitted at an already-bound slot is kept, but the slot becomes *shared*: an event that
only the slot could route is then ambiguous.  No transition frees a bound slot and no
transition leaves ``SHARED``: that is ``slot_first_write``.

There is no separate state for a done entry's binding: it would route, bind and report
exactly as ``LIVE`` (a second entry at it shares the slot, as at a live one; R3's worked
example), and whether the bound entry is done is the lifecycle's to say.  A fourth state
``TOMB`` existed until issue #16 proved it indistinguishable from ``LIVE``
(``proofs.vacuity.indistinguishable_slot_states``, which now finds every state alone).
"""

from __future__ import annotations

from .recordkit import NamedTuple
from .vocabulary import Code, SlotState, SlotTrigger


class SlotTransition(NamedTuple):
    """The next slot state and the diagnostic the move raises, if any."""

    next_state: SlotState
    code: Code | None


SlotTable = dict[SlotState, dict[SlotTrigger, SlotTransition]]
"""slot state → slot trigger → transition."""

_S, _T = SlotState, SlotTrigger

SLOTS: SlotTable = {
    _S.FREE: {
        _T.BIND: SlotTransition(_S.LIVE, None),
        _T.TOMBSTONE: SlotTransition(_S.FREE, None),
    },
    _S.LIVE: {
        _T.BIND: SlotTransition(_S.SHARED, Code.SLOT_REUSED),
        _T.TOMBSTONE: SlotTransition(_S.LIVE, None),
    },
    _S.SHARED: {
        _T.BIND: SlotTransition(_S.SHARED, Code.SLOT_REUSED),
        _T.TOMBSTONE: SlotTransition(_S.SHARED, None),
    },
}
"""The slot table (R3)."""
