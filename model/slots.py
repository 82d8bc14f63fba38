"""Slots: the first-write-only binding of an ``output_index`` (rule R3).

A slot is bound by the first entry admitted at it and keeps that binding for the whole
response.  When the entry is done the binding stays as a *tombstone*, so that a late
event on the slot still finds the done entry (and is a ``late_event``) instead of being
guessed onto a newer call.  A second entry admitted at an already-bound slot is kept,
but the slot becomes *shared*: an event that only the slot could route is then
ambiguous.  No transition leaves ``SHARED`` and no transition makes a ``TOMB`` live
again: that is ``slot_first_write``.
"""

from __future__ import annotations

from typing import NamedTuple

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
        _T.TOMBSTONE: SlotTransition(_S.TOMB, None),
    },
    _S.TOMB: {
        _T.BIND: SlotTransition(_S.SHARED, Code.SLOT_REUSED),
        _T.TOMBSTONE: SlotTransition(_S.TOMB, None),
    },
    _S.SHARED: {
        _T.BIND: SlotTransition(_S.SHARED, Code.SLOT_REUSED),
        _T.TOMBSTONE: SlotTransition(_S.SHARED, None),
    },
}
"""The slot table (R3)."""
