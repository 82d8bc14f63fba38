"""Presentation: a scenario is played as a provider's stream with exactly its declared
deviations.

Rules
-----
1. **Every field of the shape, as the API sends it.**  An event, response, item or part
   that lacks a field of its shape (``shapes.py``: what openai-python's types require
   and every whole OpenAI recording carries) gets it: ``sequence_number`` counts on
   from the event before; ``output_index`` is the slot of the item the event names;
   ``item_id`` and an item's ``id`` are the id of the item in that slot; a response's
   ``id``, ``model``, ``created_at``, ``status`` (from the event), request echoes
   (``tools``, ``tool_choice``, ``parallel_tool_calls``, ``instructions``, ...) come
   from the stream, the request and serve's clock; an item's ``status`` and every
   other field the recordings give one value for, that value.
2. **Except what the scenario declares.**  A ``Deviation`` names fields left absent
   (``response.output_item.done item.id``; a built-in scenario's are its catalogue
   deviations' ``absent``, ``model.deviations``): they stay absent, wherever they occur.
   Nothing present is ever changed, so a value the scenario holds (an empty
   ``function_call_arguments.done``, a rotated id) is served as it is.
3. **What declares nothing is played as given** (``AS_GIVEN``): a recording, a user's
   file, a vector or generated case that no built-in scenario declares.  serve cannot
   know which of its gaps are the point, so it fills none.

``present(events, request, deviations)`` is the whole module; ``served_problems`` says
which shape problems of a stream its deviations do not explain (the tests use it).
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from .shapes import (
    Kind,
    ShapeProblem,
    fields,
    item_stage,
    response_stage,
    shape_problems,
    shapes,
    value_of,
)

Event = dict[str, Any]

STATUS_OF: Final[dict[str, str]] = {
    "response.created": "in_progress",
    "response.in_progress": "in_progress",
    "response.queued": "queued",
    "response.completed": "completed",
    "response.failed": "failed",
    "response.incomplete": "incomplete",
}
"""A response event → the ``status`` its response object has."""

ECHOED: Final = (
    "tools", "tool_choice", "parallel_tool_calls", "instructions", "temperature", "top_p",
    "max_output_tokens", "previous_response_id", "metadata", "store", "truncation",
    "reasoning", "text", "user",
)
"""Response fields the API echoes from the request when the request sets them."""

UNSET_ECHOES: Final[Mapping[str, Any]] = MappingProxyType(
    {"tools": [], "tool_choice": "auto", "parallel_tool_calls": True}
)
"""The echoes the published ``Response`` type requires, as the API gives them for a
request that sets none of them (no tools, ``tool_choice`` and ``parallel_tool_calls``
at their defaults)."""

_INDEX: Final = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class Deviation:
    """One declared deviation of a scenario from a valid OpenAI stream: what it is, and
    the fields it leaves absent (``EVENT PATH``, ``*`` for any event; a path's list
    indexes written ``[]``: ``response.completed response.output[].id``)."""

    what: str
    absent: tuple[str, ...] = ()

    def explains(self, problem: ShapeProblem) -> bool:
        """Whether ``problem`` (a missing field) is one this deviation declares."""
        path = _INDEX.sub("[]", problem.path)
        for declared in self.absent:
            event, _, where = declared.partition(" ")
            if event in ("*", problem.event) and where == path:
                return True
        return False


@dataclass(frozen=True)
class Presentation:
    """How a scenario is presented: its deviations, or ``recorded`` (played as is)."""

    deviations: tuple[Deviation, ...] = ()
    recorded: bool = False

    def keeps_absent(self, event: str, path: str) -> bool:
        """Whether the field at ``path`` of an ``event`` stays absent (rule 2)."""
        return self.recorded or any(
            d.explains(ShapeProblem(event, path)) for d in self.deviations
        )


AS_GIVEN: Final = Presentation(recorded=True)
"""A scenario whose deviations are not declared (a recording, a user's file, a vector
or generated case of no built-in scenario): played as given."""


@dataclass
class _Stream:
    """What presenting has learned so far: slots, ids, the last sequence number."""

    request: Mapping[str, Any]
    now: int
    sequence: int = -1
    slot_of: dict[str, int] = field(default_factory=dict)
    id_at: dict[int, str] = field(default_factory=dict)
    next_slot: int = 0
    response_id: str | None = None
    minted: int = 0


def present(
    events: Sequence[Event],
    request: Mapping[str, Any] | None = None,
    presentation: Presentation = Presentation(),
) -> list[Event]:
    """``events`` with every field of the shape filled (rule 1), except those the
    presentation keeps absent (rule 2); a recorded scenario comes back unchanged
    (rule 3) but for the request's ``model``, which every response object names."""
    request = request or {}
    stream = _Stream(request, int(time.time()))
    stream.response_id = next(
        (
            e["response"]["id"]
            for e in events
            if isinstance(e.get("response"), dict) and isinstance(e["response"].get("id"), str)
        ),
        None,
    )
    served: list[Event] = []
    for original in events:
        event = copy.deepcopy(original)
        if presentation.recorded:
            _model_only(event, request)
        elif isinstance(event.get("type"), str):
            _event(event, stream, presentation)
        served.append(event)
    return served


def _model_only(event: Event, request: Mapping[str, Any]) -> None:
    response = event.get("response")
    if isinstance(response, dict) and isinstance(request.get("model"), str):
        response["model"] = request["model"]


def _fill(
    target: dict[str, Any], key: str, value: Any, event: str, path: str, keep: Presentation
) -> None:
    if key not in target and not keep.keeps_absent(event, path):
        target[key] = value


def _event(event: Event, stream: _Stream, keep: Presentation) -> None:
    kind: str = event["type"]
    item = event.get("item") if isinstance(event.get("item"), dict) else None
    item_id = item.get("id") if item is not None else event.get("item_id")
    slot = event.get("output_index")
    if isinstance(item_id, str) and isinstance(slot, int):
        stream.slot_of.setdefault(item_id, slot)
    if "output_index" in fields("events", kind):
        if not isinstance(slot, int):
            slot = stream.slot_of.get(item_id) if isinstance(item_id, str) else None
            if slot is None:
                slot = stream.next_slot if kind.endswith(".added") else max(stream.next_slot - 1, 0)
            _fill(event, "output_index", slot, kind, "output_index", keep)
        stream.next_slot = max(stream.next_slot, slot + 1)
    if isinstance(slot, int) and isinstance(item_id, str):
        stream.id_at[slot] = item_id
    known = stream.id_at.get(slot) if isinstance(slot, int) else None
    if "item_id" in fields("events", kind) and known is not None:
        _fill(event, "item_id", known, kind, "item_id", keep)
    if "sequence_number" not in event:
        _fill(event, "sequence_number", stream.sequence + 1, kind, "sequence_number", keep)
    if isinstance(event.get("sequence_number"), int):
        stream.sequence = event["sequence_number"]
    if "content_index" in fields("events", kind) and "content_index" not in event:
        _fill(event, "content_index", 0, kind, "content_index", keep)
    for name in sorted(fields("events", kind) - set(event)):
        found, value = _recorded("events", kind, "event", name, any_example=True)
        if found:
            _fill(event, name, copy.deepcopy(value), kind, name, keep)
    if item is not None:
        _item(item, item_stage(kind), known, kind, "item", stream, keep)
    if isinstance(event.get("part"), dict):
        _part(event["part"], kind, "part", keep)
    if isinstance(event.get("response"), dict):
        _response(event["response"], kind, stream, keep)


def _response(response: dict[str, Any], kind: str, stream: _Stream, keep: Presentation) -> None:
    stage = response_stage(kind)
    request = stream.request
    derived: dict[str, Any] = {
        "id": stream.response_id or "resp_serve",
        "object": "response",
        "created_at": stream.now,
        "status": STATUS_OF.get(kind, "completed"),
        "output": [],
        "usage": copy.deepcopy(shapes()["usage"]) if stage == "terminal" else None,
    }
    if isinstance(request.get("model"), str):
        response["model"] = request["model"]
    for name in ECHOED:
        if name in request:
            derived[name] = copy.deepcopy(request[name])
    for name, value in UNSET_ECHOES.items():
        derived.setdefault(name, copy.deepcopy(value))
    for name in sorted(fields("response", "response", stage) - set(response)):
        found, value = value_of("response", "response", stage, name)
        if name in derived or found:
            chosen = derived[name] if name in derived else copy.deepcopy(value)
            _fill(response, name, chosen, kind, f"response.{name}", keep)
    output = response.get("output")
    for number, item in enumerate(output if isinstance(output, list) else []):
        if isinstance(item, dict):
            where = f"response.output[{number}]"
            _item(item, "done", None, kind, where, stream, keep)


def _item(
    item: dict[str, Any],
    stage: str,
    known: str | None,
    event: str,
    where: str,
    stream: _Stream,
    keep: Presentation,
) -> None:
    kind = item.get("type")
    if not isinstance(kind, str):
        return
    if "id" not in item and "id" in fields("items", kind, stage):
        if known is None:
            stream.minted += 1
            known = f"{kind.split('_')[0][:3]}_serve_{stream.minted}"
        _fill(item, "id", known, event, f"{where}.id", keep)
    for name in sorted(fields("items", kind, stage) - set(item)):
        found, value = _recorded("items", kind, stage, name, any_example=False)
        if found:
            _fill(item, name, copy.deepcopy(value), event, f"{where}.{name}", keep)
    for key in ("content", "summary"):
        parts = item.get(key)
        for number, part in enumerate(parts if isinstance(parts, list) else []):
            if isinstance(part, dict):
                _part(part, event, f"{where}.{key}[{number}]", keep)


def _part(part: dict[str, Any], event: str, where: str, keep: Presentation) -> None:
    kind = part.get("type")
    if not isinstance(kind, str):
        return
    for name in sorted(fields("parts", kind) - set(part)):
        found, value = _recorded("parts", kind, "part", name, any_example=False)
        if found:
            _fill(part, name, copy.deepcopy(value), event, f"{where}.{name}", keep)


def _recorded(kind: Kind, name: str, stage: str, key: str, any_example: bool) -> tuple[bool, Any]:
    """What the recordings give a field: their one value; else, with ``any_example``
    (an event's own fields: ``obfuscation``, ``logprobs``), their first value; else
    their first value only when it holds nothing (null, empty), since an example
    payload, name or id of another stream is no value to serve."""
    found, value = value_of(kind, name, stage, key)
    entry = shapes()[kind].get(name)
    held = entry["recorded"].get(stage, {}).get("values", {}).get(key) if entry else None
    constant = isinstance(held, Mapping) and "constant" in held
    if found and (constant or any_example or value in (None, "", [], {})):
        return True, value
    return False, None


def served_problems(
    events: Sequence[Event], presentation: Presentation
) -> list[ShapeProblem]:
    """The shape problems of ``events`` that the presentation's deviations do not
    declare (empty: the stream is valid but for its declared deviations)."""
    return [
        problem
        for event in events
        for problem in shape_problems(event)
        if not presentation.keeps_absent(problem.event, problem.path)
    ]
