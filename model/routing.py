"""Routing a payload event to an entry: the decision table of rule R5.

The router sees two things: the event's slot (``output_index``) and its ``item_id``.
``SlotView`` says whether the slot is absent or unbound (``NONE``), bound to one entry
(``ONE``, live or tombstoned alike) or shared.  ``IdView`` says what the id names
relative to the slot's entries ``T``: with ``S`` the entries the id names (R4),
``ONE_OF_SLOT`` is ``|S ∩ T| = 1``, ``SEVERAL_OF_SLOT`` is ``|S ∩ T| > 1``, and the
``*_OUTSIDE`` views are ``S ∩ T = ∅`` with ``|S|`` one or several.

The slot is the primary key; the id only confirms it or, without a slot, chooses.
An event is never guessed onto a call: every cell that is not a clear pick rejects
(``ambiguous_route``) or drops (``orphan_event``) it, and a rejected or dropped event
changes nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from .vocabulary import Code, IdView, RouteAction, SlotView


class Route(NamedTuple):
    """The router's decision and the diagnostic it raises, if any."""

    action: RouteAction
    code: Code | None


RoutingTable = dict[SlotView, dict[IdView, Route]]
"""slot view → id view → route."""

_SV, _IV, _A = SlotView, IdView, RouteAction
_REJECT = Route(_A.REJECT, Code.AMBIGUOUS_ROUTE)
_ORPHAN = Route(_A.DROP, Code.ORPHAN_EVENT)

ROUTING: RoutingTable = {
    _SV.NONE: {
        _IV.ABSENT: _ORPHAN,
        _IV.UNSEEN: _ORPHAN,
        # T is empty for an unbound slot, so the *_OF_SLOT views cannot occur; the
        # cells exist so that the table is total.
        _IV.ONE_OF_SLOT: Route(_A.BY_ID, None),
        _IV.SEVERAL_OF_SLOT: _REJECT,
        _IV.ONE_OUTSIDE: Route(_A.BY_ID, None),
        _IV.SEVERAL_OUTSIDE: _REJECT,
    },
    _SV.ONE: {
        _IV.ABSENT: Route(_A.BY_SLOT, None),
        # Ids can rotate on every event (GitHub Copilot): the slot still routes.
        _IV.UNSEEN: Route(_A.BY_SLOT, Code.ITEM_ID_UNRECOGNIZED),
        _IV.ONE_OF_SLOT: Route(_A.BY_SLOT, None),
        _IV.SEVERAL_OF_SLOT: Route(_A.BY_SLOT, None),
        _IV.ONE_OUTSIDE: _REJECT,
        _IV.SEVERAL_OUTSIDE: _REJECT,
    },
    _SV.SHARED: {
        _IV.ABSENT: _REJECT,
        _IV.UNSEEN: _REJECT,
        _IV.ONE_OF_SLOT: Route(_A.BY_ID, None),
        _IV.SEVERAL_OF_SLOT: _REJECT,
        _IV.ONE_OUTSIDE: _REJECT,
        _IV.SEVERAL_OUTSIDE: _REJECT,
    },
}
"""The routing table (R5)."""
