"""Write the shape of a valid OpenAI stream that ``serve`` completes scenarios to.

Run from the checkout, with openai-python 3.57.0 installed (the test extra pins it)::

    python tools/stream_shapes.py            # rewrite impl/serve/shapes.json
    python tools/stream_shapes.py --check    # exit 1 when it is stale (the tests do this)

Theory of operation
-------------------
The shape is *data* from two sources, never a list written here:

1. **What the published types require.**  openai-python's pydantic models
   (``openai.types.responses``): every member of ``ResponseStreamEvent`` (one per event
   ``type``), of ``ResponseOutputItem`` (one per item ``type``), ``Response``, and the
   content parts an event's ``part`` or an item's ``content``/``summary`` holds.  A field
   is required when the model gives it no default.
2. **What every recorded OpenAI stream carries.**  The published types leave some fields
   optional that the API always sends and clients require (a ``function_call``'s
   ``status``: ``@ai-sdk/openai`` rejects a done item without it).  So a field also
   belongs to the shape when *every* occurrence of that event, item or part type in the
   OpenAI streams of ``fixtures/captures`` carries it (``openai_captures`` says which
   recordings are OpenAI's own, ``whole`` which of them were not trimmed).  Items and
   responses are read per stage: an item as ``added`` or ``done`` (an
   ``output_item.done`` item and a terminal snapshot's output), a response as ``open``
   (created, in progress, queued) or ``terminal``.

Beside each stage's field list the data keeps ``values``: ``{"constant": v}`` for a
field every recorded occurrence gives the same value (``object: "response"``, an added
item's ``status: "in_progress"``), else ``{"example": v}``, its first recorded value
(files in name order), when it is short (``EXAMPLE_LIMIT``).  ``serve`` fills a
missing field from them when it has nothing better (``responses_oracle.serve.shapes``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import typing
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "impl" / "serve" / "shapes.json"
CAPTURES = ROOT / "fixtures" / "captures"
PINNED = "3.57.0"

NOT_OPENAI = ("copilot", "azure", "openrouter", "deepseek", "reused_tool_call_ids")
"""Words of a capture's file name that mark a recording of another service speaking
the Responses protocol (GitHub Copilot, Azure, OpenRouter, DeepSeek, and the Bedrock
Mantle cassette ``test_reused_tool_call_ids_stream``): their streams do not say what
OpenAI sends."""

OPEN = ("response.created", "response.in_progress", "response.queued")
TERMINAL = ("response.completed", "response.failed", "response.incomplete")

EXAMPLE_LIMIT = 300
"""Longer example values (a whole ``output``, an encrypted blob) are left out: serve
builds those from the scenario, and they would only bloat the data."""


def openai_captures() -> list[Path]:
    """The recordings of OpenAI's own API in ``fixtures/captures`` (``SOURCES.tsv``):
    vercel/ai's ``openai__*`` fixtures and pydantic-ai's cassettes, less ``NOT_OPENAI``."""
    with open(CAPTURES / "SOURCES.tsv", encoding="utf-8") as table:
        files = [row["file"] for row in csv.DictReader(table, delimiter="\t")]
    return sorted(
        CAPTURES / name
        for name in files
        if name.startswith(("vercel-ai/openai__", "pydantic-ai/test_"))
        and not any(word in name for word in NOT_OPENAI)
    )


def _members(union: Any) -> tuple[Any, ...]:
    """The classes of an ``Annotated[Union[...], discriminator]`` type."""
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return typing.get_args(union) or (union,)


def _type_names(model: Any) -> list[str]:
    """The ``type`` literal(s) of a pydantic model."""
    field = model.model_fields.get("type")
    return [value for value in typing.get_args(field.annotation)] if field is not None else []


def _required(model: Any) -> list[str]:
    return sorted(name for name, field in model.model_fields.items() if field.is_required())


def published() -> dict[str, dict[str, list[str]]]:
    """Kind (``events``, ``items``, ``parts``, ``response``) → type → required fields."""
    from openai.types.responses import (
        Response,
        ResponseContentPartAddedEvent,
        ResponseOutputItem,
        ResponseOutputMessage,
        ResponseReasoningItem,
        ResponseStreamEvent,
    )

    parts_of = [
        ResponseContentPartAddedEvent.model_fields["part"].annotation,
        ResponseOutputMessage.model_fields["content"].annotation,
        ResponseReasoningItem.model_fields["summary"].annotation,
    ]
    found: dict[str, dict[str, list[str]]] = {"events": {}, "items": {}, "parts": {}}
    for kind, models in (
        ("events", _members(ResponseStreamEvent)),
        ("items", _members(ResponseOutputItem)),
        ("parts", [m for a in parts_of for u in typing.get_args(a) for m in _members(u)]),
    ):
        for model in models:
            for name in _type_names(model):
                found[kind][name] = _required(model)
    found["response"] = {"response": _required(Response)}
    return found


def _occurrences(path: Path) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(kind, type, stage, object) of every event, response, item and part in a stream."""
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        event = json.loads(line)
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            continue
        kind = event["type"]
        yield "events", kind, "event", event
        response = event.get("response")
        if isinstance(response, dict):
            stage = "open" if kind in OPEN else "terminal" if kind in TERMINAL else "other"
            yield "response", "response", stage, response
            for item in response.get("output") or []:
                yield from _item(item, "done")
        if isinstance(event.get("item"), dict):
            yield from _item(event["item"], "added" if kind.endswith(".added") else "done")
        if isinstance(event.get("part"), dict):
            yield from _part(event["part"])


def _item(item: Any, stage: str) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    if isinstance(item, dict) and isinstance(item.get("type"), str):
        yield "items", item["type"], stage, item
        for key in ("content", "summary"):
            for part in item.get(key) or [] if isinstance(item.get(key), list) else []:
                yield from _part(part)


def _part(part: Any) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    if isinstance(part, dict) and isinstance(part.get("type"), str):
        yield "parts", part["type"], "part", part


def whole(path: Path, required: dict[str, dict[str, list[str]]]) -> bool:
    """Whether a recording is whole: every event carries the fields its published type
    requires, every ``response`` object those of ``Response``.  vercel/ai's authors
    trimmed some fixtures to what their test reads, and recordings from before March
    2025 carry no ``sequence_number``; neither says what the API sends now."""
    for kind, name, _, obj in _occurrences(path):
        if kind in ("events", "response") and not set(required[kind].get(name, [])) <= set(obj):
            return False
    return True


def recorded(paths: Iterable[Path]) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """Kind → type → stage → {"fields": carried by every occurrence, "values": ...}."""
    seen: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for path in paths:
        for kind, name, stage, obj in _occurrences(path):
            seen.setdefault((kind, name, stage), []).append(obj)
    out: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for (kind, name, stage), objects in sorted(seen.items()):
        fields = set.intersection(*(set(obj) for obj in objects))
        anywhere = set.union(*(set(obj) for obj in objects))
        values: dict[str, Any] = {}
        for field in sorted(fields - {"type"}):
            every = [obj[field] for obj in objects]
            same = len({json.dumps(v, sort_keys=True) for v in every}) == 1
            if same or len(json.dumps(every[0])) <= EXAMPLE_LIMIT:
                values[field] = {"constant" if same else "example": every[0]}
        out.setdefault(kind, {}).setdefault(name, {})[stage] = {
            "fields": sorted(fields),
            "anywhere": sorted(anywhere),
            "occurrences": len(objects),
            "values": values,
        }
    return out


def _shape(
    required: dict[str, dict[str, list[str]]],
    carried: dict[str, dict[str, dict[str, dict[str, Any]]]],
    kind: str,
    name: str,
) -> dict[str, Any]:
    """One type's entry: its required fields, and per recorded stage the fields every
    occurrence carries, their values, and ``unsent``: required fields no recording of
    that stage carries (an added ``web_search_call`` has no ``action`` yet)."""
    needed = required.get(kind, {}).get(name, [])
    stages = carried.get(kind, {}).get(name, {})
    for stage in stages.values():
        stage["unsent"] = sorted(set(needed) - set(stage.pop("anywhere")))
    return {"required": needed, "recorded": stages}


def zero_usage() -> dict[str, Any]:
    """A ``usage`` object of the published ``ResponseUsage``: every required field,
    numbers 0 (the recordings predate ``cache_write_tokens``, which the type requires)."""
    from openai.types.responses import ResponseUsage

    def zero(model: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field_name, field in model.model_fields.items():
            if not field.is_required():
                continue
            kind = field.annotation
            out[field_name] = zero(kind) if hasattr(kind, "model_fields") else kind()
        return out

    return zero(ResponseUsage)


def build() -> str:
    """The shapes text, from the installed openai-python (which must be ``PINNED``)."""
    import openai

    if openai.__version__ != PINNED:
        raise SystemExit(f"openai {PINNED} is needed, found {openai.__version__}")
    required = published()
    captures = [path for path in openai_captures() if whole(path, required)]
    carried = recorded(captures)
    shapes: dict[str, Any] = {}
    for kind in ("events", "items", "parts", "response"):
        names = sorted(set(required.get(kind, {})) | set(carried.get(kind, {})))
        shapes[kind] = {name: _shape(required, carried, kind, name) for name in names}
    document = {
        "$comment": (
            f"Generated by tools/stream_shapes.py (python tools/stream_shapes.py) from "
            f"openai-python {PINNED}'s types (openai.types.responses) and the OpenAI "
            "streams of fixtures/captures; do not edit."
        ),
        "openai_python": PINNED,
        "captures": [str(path.relative_to(CAPTURES)) for path in captures],
        "usage": zero_usage(),
        **shapes,
    }
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    """Write the shapes, or with ``--check`` say whether they are stale."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args()
    text = build()
    if args.check:
        stale = not TARGET.exists() or TARGET.read_text("utf-8") != text
        if stale:
            print(f"{TARGET} is stale: run python tools/stream_shapes.py", file=sys.stderr)
        return 1 if stale else 0
    TARGET.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
