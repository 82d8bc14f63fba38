"""The shape of a valid OpenAI stream: which fields each event, item, part and response
carries, as data (``shapes.json``, written by ``tools/stream_shapes.py``).

A field belongs to a shape when openai-python's published type requires it *or* every
recorded OpenAI stream of ``fixtures/captures`` carries it (a ``function_call``'s
``status`` is optional in the types, always sent by the API, and required by
``@ai-sdk/openai``).  Items are read per stage (``added``, ``done``), responses per
stage (``open``, ``terminal``).

>>> from responses_oracle.serve.shapes import shape_problems
>>> event = {"type": "response.output_item.done", "output_index": 0, "sequence_number": 3,
...          "item": {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f",
...                   "arguments": "{}"}}
>>> [str(problem) for problem in shape_problems(event)]
['response.output_item.done: item.status missing (function_call, done)']

``type_problems(event)`` lists only what the published types require (less the
``unsent`` fields the API itself omits): an event with such a problem is invalid per the
API, whatever the recordings carry besides.

>>> from responses_oracle.serve.shapes import type_problems
>>> [str(problem) for problem in type_problems(event)]
[]
>>> [str(p) for p in type_problems({"type": "response.output_text.done", "item_id": "m",
...      "output_index": 0, "logprobs": [], "sequence_number": 9, "text": "hi"})]
['response.output_text.done: content_index missing']

``value_of(kind, name, stage, field)`` gives what the recordings say a field holds: the
one value every recording gives (``object: "response"``), else the first recorded one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

SHAPES_FILE: Final = "shapes.json"

Kind = Literal["events", "items", "parts", "response"]

OPEN: Final = frozenset({"response.created", "response.in_progress", "response.queued"})
"""Events whose ``response`` is still open (no output yet, no usage)."""

_STAGE_OF_KIND: Final[dict[str, str]] = {"events": "event", "parts": "part"}
"""Kinds read in one stage only: its name."""


@cache
def shapes() -> dict[str, Any]:
    """The generated data (``shapes.json``), loaded once."""
    text = resources.files("responses_oracle.serve").joinpath(SHAPES_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _entry(kind: Kind, name: str) -> Mapping[str, Any] | None:
    entry = shapes()[kind].get(name)
    return entry if isinstance(entry, Mapping) else None


def fields(kind: Kind, name: str, stage: str | None = None) -> frozenset[str]:
    """The fields a valid ``name`` (an event, item or part ``type``; ``response``)
    carries in ``stage``: the published type's required fields (less ``unsent``) and
    those every recorded occurrence carries.  Empty for a type neither source knows."""
    entry = _entry(kind, name)
    if entry is None:
        return frozenset()
    recorded = entry["recorded"].get(stage or _STAGE_OF_KIND.get(kind, ""), {})
    return required(kind, name, stage) | frozenset(recorded.get("fields", []))


def required(kind: Kind, name: str, stage: str | None = None) -> frozenset[str]:
    """The fields openai-python's published type for ``name`` requires in ``stage``,
    less those the API itself omits there (``unsent``): what a stream must carry to be
    valid per the API's event types.  Empty for a type the types do not know."""
    entry = _entry(kind, name)
    if entry is None:
        return frozenset()
    return frozenset(entry["required"]) - unsent(kind, name, stage)


def unsent(kind: Kind, name: str, stage: str | None = None) -> frozenset[str]:
    """Fields the published type requires that no recording of ``stage`` carries: the
    API sends ``name`` without them there (an added ``web_search_call`` has no
    ``action`` yet), so a stream that lacks them is as the API sends it."""
    entry = _entry(kind, name)
    recorded = entry["recorded"].get(stage or _STAGE_OF_KIND.get(kind, ""), {}) if entry else {}
    return frozenset(recorded.get("unsent", []))


def value_of(kind: Kind, name: str, stage: str, field: str) -> tuple[bool, Any]:
    """``(True, value)`` when the recordings say what ``field`` holds (their one value,
    else their first), ``(False, None)`` when they do not."""
    entry = _entry(kind, name)
    values = entry["recorded"].get(stage, {}).get("values", {}) if entry else {}
    held = values.get(field)
    if not isinstance(held, Mapping):
        return False, None
    return True, held.get("constant", held.get("example"))


def response_stage(event_type: str) -> str:
    """The stage of an event's ``response`` object: ``open`` or ``terminal``."""
    return "open" if event_type in OPEN else "terminal"


def item_stage(event_type: str) -> str:
    """The stage of an event's ``item``: ``added`` or ``done``."""
    return "added" if event_type.endswith(".added") else "done"


@dataclass(frozen=True)
class ShapeProblem:
    """One field a valid stream carries and this event lacks."""

    event: str
    """The event's ``type``."""
    path: str
    """Where, from the event: ``sequence_number``, ``item.status``,
    ``response.output[0].status``, ``part.annotations``."""
    owner: str = ""
    """The item or part type and stage the field belongs to (empty for the event's own
    fields and the response's)."""

    def __str__(self) -> str:
        owner = f" ({self.owner})" if self.owner else ""
        return f"{self.event}: {self.path} missing{owner}"


Needed = Callable[[Kind, str, str | None], frozenset[str]]
"""The fields a shape asks of a type in a stage: ``fields`` or ``required``."""


def shape_problems(event: Mapping[str, Any]) -> list[ShapeProblem]:
    """The fields of the shape ``event`` lacks: its own, its ``response``'s (and that
    response's output items), its ``item``'s and its ``part``'s."""
    return _problems(event, fields)


def type_problems(event: Mapping[str, Any]) -> list[ShapeProblem]:
    """The fields the API's published types require (less ``unsent``) that ``event``
    lacks, where ``shape_problems`` looks: an event with one is invalid per the API."""
    return _problems(event, required)


def _problems(event: Mapping[str, Any], needed: Needed) -> list[ShapeProblem]:
    kind = event.get("type")
    if not isinstance(kind, str):
        return [ShapeProblem(str(kind), "type")]
    found = [ShapeProblem(kind, name) for name in sorted(needed("events", kind, None) - set(event))]
    response = event.get("response")
    if isinstance(response, Mapping):
        stage = response_stage(kind)
        found += [
            ShapeProblem(kind, f"response.{name}")
            for name in sorted(needed("response", "response", stage) - set(response))
        ]
        output = response.get("output")
        for number, item in enumerate(output if isinstance(output, list) else []):
            found += _item_problems(kind, f"response.output[{number}]", item, "done", needed)
    if isinstance(event.get("item"), Mapping):
        found += _item_problems(kind, "item", event["item"], item_stage(kind), needed)
    if isinstance(event.get("part"), Mapping):
        found += _part_problems(kind, "part", event["part"], needed)
    return found


def _item_problems(
    event: str, where: str, item: Any, stage: str, needed: Needed
) -> list[ShapeProblem]:
    if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
        return [ShapeProblem(event, f"{where}.type")]
    owner = f"{item['type']}, {stage}"
    found = [
        ShapeProblem(event, f"{where}.{name}", owner)
        for name in sorted(needed("items", item["type"], stage) - set(item))
    ]
    for key in ("content", "summary"):
        parts = item.get(key)
        for number, part in enumerate(parts if isinstance(parts, list) else []):
            found += _part_problems(event, f"{where}.{key}[{number}]", part, needed)
    return found


def _part_problems(event: str, where: str, part: Any, needed: Needed) -> list[ShapeProblem]:
    if not isinstance(part, Mapping) or not isinstance(part.get("type"), str):
        return [ShapeProblem(event, f"{where}.type")]
    return [
        ShapeProblem(event, f"{where}.{name}", part["type"])
        for name in sorted(needed("parts", part["type"], None) - set(part))
    ]
