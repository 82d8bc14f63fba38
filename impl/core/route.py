"""Routing (R5): the entry a payload or progress event goes to.

The cell is the model's: ``model.routing.route_views`` reads the event's slot and
``item_id`` against the entries bound at the slot and named by the id (the same
function the proofs run with Z3 terms), the routing kernel decides, and
``route_target`` picks the entry.  A delivered event's ``item_id`` is learned only where
its lifecycle row says so (``Effect.LEARN_ITEM_ID``: never for a late event).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from responses_oracle.model.catalogue import EventClass
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.routing import Route, route_target, route_views
from responses_oracle.model.vocabulary import (
    Code,
    IdView,
    SlotState,
    SlotView,
    Trigger,
)

from .context import StepContext
from .effects import deliver
from .events import Event
from .state import Channel

ITEM_SCOPED = EventClass.ITEM_SCOPED
"""The class of the events this module routes (bound once: see ``effects``)."""

_CHANNEL_TRIGGERS: tuple[Trigger, ...] = (Trigger.DELTA, Trigger.PAYLOAD_DONE, Trigger.PART_ADDED)
"""The triggers of item-scoped events that name a channel of their entry."""

_DELTA = Trigger.DELTA
_SHARED = SlotState.SHARED


def resolve_route(
    route: Callable[[SlotView, IdView], Route],
    bound: Sequence[int],
    shared: bool,
    named: Sequence[int],
    item_id_present: bool,
) -> tuple[Route, int | None, str]:
    """R5 as the driver applies it: the route, the target ordinal (or None), a summary.

    ``bound`` are the entries bound at the event's slot (first binding first), ``shared``
    whether the slot is shared, ``named`` the entries the event's ``item_id`` names.
    """
    slot_view, id_view = route_views(PYTHON, bound, named, shared, item_id_present)
    decision = route(slot_view, id_view)
    target = route_target(PYTHON, decision.action, bound, named)
    return decision, target, _summary(slot_view, id_view, decision)


def _summary(slot_view: SlotView, id_view: IdView, decision: Route) -> str:
    return f"route {slot_view.value}/{id_view.value} -> {decision.action.value}"


def on_scoped(step: StepContext, event: Event) -> None:
    """Route a payload or progress event (R5) and deliver it to its entry."""
    state = step.state
    spec = event.spec
    assert spec is not None and spec.trigger is not None
    item_id = event.item_id
    slot = state.slots.get(event.output_index) if event.output_index is not None else None
    bound = slot.entries if slot is not None else ()
    named = step.named_by(item_id)
    slot_view, id_view = route_views(
        PYTHON, bound, named, slot is not None and slot.state is _SHARED, item_id is not None
    )
    route = step.kernels.route(slot_view, id_view)
    target = route_target(PYTHON, route.action, bound, named)
    if step.tracing:
        step.decision = _summary(slot_view, id_view, route)
    if target is None:
        if route.code is not None:
            step.note(route.code, f"output_index {event.output_index}, item_id {item_id!r}", True)
        return
    entry = state.entries[target]
    trigger = spec.trigger
    channel: Channel | None = None
    if trigger in _CHANNEL_TRIGGERS:
        kind = event.channel
        if kind is None or kind not in entry.channel_kinds:
            step.note(
                Code.CHANNEL_MISMATCH,
                f"{event.type} cannot apply to a {entry.item_type} item",
                True,
            )
            return
        # Looked up, not created: a late event must leave the entry exactly as it was.
        channel = entry.channels.get((kind, event.part_index)) or Channel(kind, event.part_index)
        if trigger is _DELTA and channel.closed:
            trigger = Trigger.DELTA_ON_CLOSED_CHANNEL
    step.learn, step.route_code = item_id, route.code
    deliver(step, entry, trigger, channel=channel)
