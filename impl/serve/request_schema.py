"""Is an ``input`` item valid request input?  Judged from a published schema, not a list.

The schema is ``schema/input-item.schema.json``: openai-python 3.57.0's
``ResponseInputItemParam`` as JSON Schema, every object closed to extra properties
(``tools/serve_schema.py`` writes it and says why this source and not the Open
Responses document).  So an event field inside an item (``item_id``,
``output_index``, ``sequence_number``), an explicit ``null`` where the type has none,
an unknown ``status`` or a missing ``call_id`` is a problem, each with the schema's
own message.

The request's ``store`` mode adds one thing the schema cannot say: under
``store: false`` nothing is stored, so an ``item_reference`` refers to nothing
(``STORE_FALSE_REFUSES``).

``item_problems(item, store)`` gives the problems (empty: valid).  The item is
validated against the branches of the union whose ``type`` is the item's, the one
with the fewest errors reported, so the message names the field that is wrong rather
than "is not valid under any of the given schemas".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Final

SCHEMA_FILE: Final = "input-item.schema.json"

STORE_FALSE_REFUSES: Final = frozenset({"item_reference"})
"""Item types a ``store: false`` request cannot send: they name stored items."""


@cache
def _branches() -> dict[str | None, list[Any]]:
    """Item ``type`` → validators of the union's branches for that type (None: the
    branches whose ``type`` is optional, for an item without one)."""
    import jsonschema

    text = resources.files("responses_oracle.serve").joinpath("schema", SCHEMA_FILE)
    document = json.loads(text.read_text("utf-8"))
    defs = document["$defs"]
    by_type: dict[str | None, list[Any]] = {}
    for branch in document["anyOf"]:
        schema = defs[branch["$ref"].rsplit("/", 1)[1]]
        kind = schema.get("properties", {}).get("type", {})
        names = [
            option.get("const")
            for option in [kind, *kind.get("anyOf", [])]
            if "const" in option
        ] + kind.get("enum", [])
        if "type" not in schema.get("required", []):
            names.append(None)  # a branch whose type is optional takes typeless items
        validator = jsonschema.Draft202012Validator({"$defs": defs, **schema})
        for name in names:
            by_type.setdefault(name, []).append(validator)
    return by_type


def item_problems(item: Any, store: bool = True) -> list[str]:
    """What makes ``item`` invalid as request input under ``store``; empty if valid."""
    if not isinstance(item, Mapping):
        return ["an input item must be an object"]
    kind = item.get("type")
    validators = _branches().get(kind) if isinstance(kind, str) or kind is None else None
    if validators is None:
        return [f"type {kind!r} is no input item type of the schema"]
    if not store and kind in STORE_FALSE_REFUSES:
        return [f"{kind} names a stored item, and store is false"]
    best: list[str] | None = None
    for validator in validators:
        problems = [_message(error) for error in validator.iter_errors(dict(item))]
        if not problems:
            return []
        if best is None or len(problems) < len(best):
            best = problems
    return best or []


def _message(error: Any) -> str:
    where = error.json_path.removeprefix("$").lstrip(".") or "item"
    return f"{where}: {error.message}"
