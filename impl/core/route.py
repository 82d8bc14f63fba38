"""Routing (R5): the entry a payload or progress event goes to.

The cell is the model's: ``model.routing.route_views`` reads the event's slot and
``item_id`` against the entries bound at the slot and named by the id (the same
function the proofs run with Z3 terms), the routing kernel decides, and
``route_target`` picks the entry.  The driver runs them through ``resolve_route``
(which CrossHair analyses, ``proofs/crosshair_targets.py``), with the classifiers as
traced into ``generated_classifiers.py`` (generated from ``model/``, ``model/classgen.py``): the
same operations without a method call each.  A response keeps each cell it decided by
its keys (``ResponseState.routes``) until a slot is bound or an id learned, so nearly
every delta reads its cell instead of deciding it again (the WARNING in
``on_scoped``).

A delivered event's ``item_id`` is learned only where its lifecycle row says so
(``Effect.LEARN_ITEM_ID``: never for a late event).  A progress event that adds to a
part (an annotation, ``model/annotations.py``) puts its value into the part it names,
while its entry is open.  An event that names a channel (``CHANNEL_TRIGGERS``) delivers
the trigger the reclassification kernel gives for its trigger and that channel's state
(``model/channels.py``: a delta after its own channel's ``*.done`` is late).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from responses_oracle.model.annotations import (
    ADDITION_TYPES,
    PartAddition,
    PartMerge,
    position_view,
)
from responses_oracle.model.catalogue import EventClass
from responses_oracle.model.channels import channel_state
from responses_oracle.model.lifecycle import OPEN_STATES
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.routing import Route
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    Code,
    IdView,
    SlotState,
    SlotView,
)

from . import generated_classifiers, reconcile
from .context import StepContext, said
from .effects import deliver
from .events import Event
from .state import Channel, Diagnostic, Entry

ITEM_SCOPED = EventClass.ITEM_SCOPED
"""The class of the events this module routes (bound once: see ``effects``)."""

_SHARED = SlotState.SHARED
_CHANNEL_STATE = {closed: channel_state(PYTHON, closed) for closed in (False, True)}
"""``model.channels.channel_state`` of a channel's closed flag, evaluated once per value
(the classifier, not a copy of it; a lookup on the path of every delta)."""
_ROUTES_HELD = 256
"""Routing cells a response keeps at most (``ResponseState.routes``)."""


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
    slot_view, id_view = generated_classifiers.route_views(bound, named, shared, item_id_present)
    decision = route(slot_view, id_view)
    target = generated_classifiers.route_target(decision.action, bound, named)
    return decision, target, _summary(slot_view, id_view, decision)


def _summary(slot_view: SlotView, id_view: IdView, decision: Route) -> str:
    return f"route {slot_view.value}/{id_view.value} -> {decision.action.value}"


def on_scoped(step: StepContext, event: Event) -> None:
    """Route a payload or progress event (R5) and deliver it to its entry."""
    state = step.state
    spec = event.spec
    assert spec is not None and spec.trigger is not None
    item_id = event.item_id
    # WARNING: a cache.  The cell of a routed event is a function of the slot's
    # entries and state and of the id's aliases, which change only when an item is
    # admitted or an id learned (``effects.move_slot``, ``StepContext.add_alias``, both
    # of which empty ``state.routes``); nearly every delta repeats the key of the one
    # before.  A cell keeps the summary of its views, so a trace read from the cache is
    # the trace of the decision.  ``step`` always decides anew (``StepContext.cached``),
    # which is how ``tests/core/test_fast_path.py`` checks the cache against the model.
    known = state.routes.get((event.output_index, item_id)) if step.cached else None
    if known is None:
        route, target, learned = _decide(step, event.output_index, item_id)
        if target is None:
            if route.code is not None:
                _refuse(step, event, route.code)
            return
    else:
        route, target, learned, summary = known
        if step.tracing:
            step.decision = summary
    entry = state.entries[target]
    trigger = spec.trigger
    channel: Channel | None = None
    if trigger in CHANNEL_TRIGGERS:
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
        trigger = step.kernels.reclassify(trigger, _CHANNEL_STATE[channel.closed])
    step.learn, step.route_code, step.learned = item_id, route.code, learned
    # A part addition counts where the lifecycle accepts the progress event: while the
    # entry is open (model/annotations.py).
    addition_type = ADDITION_TYPES.get(event.type)
    addition = None if addition_type is None else step.kernels.reads_addition(addition_type)
    accepted = addition is not None and entry.state in OPEN_STATES
    deliver(step, entry, trigger, channel=channel)
    if accepted and addition is not None:
        _add_to_part(entry, addition, event.payload, step.kernels)


def _refuse(step: StepContext, event: Event, code: Code) -> None:
    """Report an event no entry takes; in a resumed stream (R14), an event that reaches
    no entry is held instead, for the item opened before the resume point that the
    end may admit (``settle``)."""
    keys = f"output_index {said(event.output_index)}, item_id {said(event.item_id)}"
    state = step.state
    if code is Code.ORPHAN_EVENT and state.resumed_at is not None:
        diagnostic = Diagnostic(code, event.index, event.sequence_number, keys, event.payload)
        state.held_over.append((event.output_index, event.item_id, diagnostic))
        if step.tracing:
            step.decision += "; held: the resume began inside its item"
        return
    step.note(code, keys, True)


def _decide(
    step: StepContext, output_index: int | None, item_id: str | None
) -> tuple[Route, int | None, bool]:
    """The routing cell of ``(output_index, item_id)`` (``resolve_route``, which the
    proofs analyse): the route, the target entry (or None) and whether the id names
    that entry already; kept in ``state.routes`` with its summary when there is a
    target."""
    state = step.state
    # Slots are keyed by int: an event without an ``output_index`` (None) finds none.
    slot = state.slots.get(output_index)  # type: ignore[arg-type]
    bound = slot.entries if slot is not None else ()
    named = step.named_by(item_id)
    shared = slot is not None and slot.state is _SHARED
    route, target, summary = resolve_route(
        step.kernels.route, bound, shared, named, item_id is not None
    )
    if step.tracing:
        step.decision = summary
    if target is None:
        return route, None, False
    learned = target in named
    routes = state.routes
    if len(routes) >= _ROUTES_HELD:  # many keys that never repeat: start again
        routes.clear()
    routes[output_index, item_id] = route, target, learned, summary
    return route, target, learned


def addition_of(addition: PartAddition, fields: Mapping[str, Any]) -> tuple[int, Any] | None:
    """The part index and the value a progress event adds (the fields its
    ``PART_ADDITIONS`` cell names), or None where it adds nothing: no value, or a part
    index that is not a non-negative integer.  The canonicalizer reads it too, to log
    such an event as dropped."""
    index = fields.get(addition.part_index.value, 0)
    value = fields.get(addition.value.value)
    if not isinstance(index, int) or index < 0 or value is None:
        return None
    return index, value


def _add_to_part(
    entry: Entry, addition: PartAddition, fields: Mapping[str, Any], kernels: KernelSet
) -> None:
    """Put a progress event's value into its part where ``PART_MERGE`` says, decided by
    the ``merge_part`` kernel, reading the event's fields ``addition`` names (its
    ``PART_ADDITIONS`` cell; ``model/annotations.py``).

    The part's array is copied, never appended to in place: it may be the event's own
    list (results share unchanged containers with the events they came from).
    """
    added = addition_of(addition, fields)
    if added is None:
        return
    index, value = added
    held = reconcile.channel(entry, addition.channel, index)
    part = held.part if held.part is not None else {"type": addition.part_type}
    found = part.get(addition.array)
    array = list(found) if isinstance(found, list) else []
    position = fields.get(addition.position.value)
    at = position if isinstance(position, int) and position >= 0 else None
    inside = at is not None and at < len(array)
    merge = kernels.merge_part(position_view(PYTHON, at is not None, inside))
    if merge is PartMerge.APPEND:
        array.append(value)
    elif merge is PartMerge.REPLACE and at is not None and inside:
        array[at] = value
    held.part = {**part, addition.array: array}
