"""Routing a payload event to an entry: the decision table of rule R5.

The router sees two things: the event's slot (``output_index``) and its ``item_id``.
``SlotView`` says whether the slot is absent or unbound (``NONE``), bound to one entry
(``ONE``: the slot is ``LIVE``, whether its entry is open or done) or shared.  A done
entry's binding (R3's tombstone) was a slot state of its own, ``TOMB``, until issue #16:
``proofs.vacuity.indistinguishable_slot_states`` proved no table told it from ``LIVE``
(the router sees one entry either way, and a second entry at it shares the slot, as
R3's worked example shows), so the two were merged; whether the bound entry is done is
the lifecycle's to say.

``IdView`` says what the id names relative to the slot's entries ``T``: with ``S`` the
entries the id names (R4), ``ONE_OF_SLOT`` is ``|S ∩ T| = 1``, ``SEVERAL_OF_SLOT`` is
``|S ∩ T| > 1``, and the ``*_OUTSIDE`` views are ``S ∩ T = ∅`` with ``|S|`` one or
several.

The slot is the primary key; the id only confirms it or, without a slot, chooses.
An event is never guessed onto a call: every cell that is not a clear pick rejects
(``ambiguous_route``) or drops (``orphan_event``) it, and a rejected or dropped event
changes nothing.  Said without the table (``proofs/routing_z3.py``): an entry *fits* an
event when some key of the event names it and every key that names an admitted entry
names it; the event is delivered exactly when one entry fits, to that entry
(``ambiguity_rejected``, ``routed_to_its_entry``), and a refused event is an
``orphan_event`` when no key names an entry, else ``ambiguous_route``
(``refusal_reported``; the words are in ``model.completeness``).

Which cell applies is ``route_views`` below, and which entry a delivering cell picks is
``route_target``: both are written once against ``ops.Ops`` and run by the reducer
(Python values) and by ``proofs/routing_z3.py`` (Z3 terms).
"""

from __future__ import annotations

from .ops import Entries, Entry, Fact, Ops, Value
from .recordkit import NamedTuple
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


# -- the classifier (written once; run by the reducer and by the proofs) ---------------


def route_views(
    ops: Ops, bound: Entries, named: Entries, shared: Fact, has_id: Fact
) -> tuple[SlotView, IdView]:
    """The cell of ``ROUTING`` a payload event selects.

    ``bound`` are the entries bound at the event's slot (none for an absent or unbound
    slot), ``shared`` whether that slot is shared, ``named`` the entries the event's
    ``item_id`` names (R4), ``has_id`` whether the event carries an ``item_id``.
    """
    inside = ops.meet(named, bound)
    slot_view = ops.cond(
        ops.empty(bound), _SV.NONE, ops.cond(shared, _SV.SHARED, _SV.ONE)
    )
    id_view = ops.cond(
        ops.not_(has_id),
        _IV.ABSENT,
        ops.cond(
            ops.empty(named),
            _IV.UNSEEN,
            ops.cond(
                ops.empty(inside),
                ops.cond(ops.single(named), _IV.ONE_OUTSIDE, _IV.SEVERAL_OUTSIDE),
                ops.cond(ops.single(inside), _IV.ONE_OF_SLOT, _IV.SEVERAL_OF_SLOT),
            ),
        ),
    )
    return slot_view, id_view


def route_target(ops: Ops, action: Value, bound: Entries, named: Entries) -> Entry:
    """The entry a routed event goes to: the slot's first binding for ``BY_SLOT``, the
    entry the id names — at the slot if it names one there — for ``BY_ID``, else none.
    """
    inside = ops.meet(named, bound)
    by_id = ops.first(ops.cond(ops.empty(inside), named, inside))
    return ops.cond(
        ops.is_(action, _A.BY_SLOT),
        ops.first(bound),
        ops.cond(ops.is_(action, _A.BY_ID), by_id, None),
    )
