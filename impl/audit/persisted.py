"""Persisted output: what another parser stored for a stream, against the reference.

A manifest row may carry ``output``: the output items the caller's own parser
persisted for the stream.  ``pair_output`` reads it -- a JSON array (or its text) of
wire items or result entries for a stream of one response, or an array of such arrays,
one per response of a tool loop -- and pairs each response with its persisted items.
An ``output`` of another shape is a ``PersistedError``: the row is reported as a bad
manifest row rather than compared with the wrong response.

``divergences`` is the one call into the differential taxonomy
(``responses_oracle.differential.taxonomy.classify_items``, whose classes
``responses_oracle.model.divergence`` owns): the classes by which the persisted items
differ from the reference's result, most harmful first (``HARM``); empty when they agree.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from responses_oracle.differential.taxonomy import classify_items
from responses_oracle.model.divergence import HARM
from responses_oracle.result import Result

Items = list[Mapping[str, Any]]
"""The persisted items of one response: wire items or result entries."""


class PersistedError(ValueError):
    """A manifest ``output`` that cannot be paired with the stream's responses."""


def _items(value: Any) -> Items | None:
    if isinstance(value, list) and all(isinstance(item, Mapping) for item in value):
        return value
    return None


def pair_output(output: Any, responses: int) -> list[Items]:
    """The persisted items of each of ``responses`` responses (rules in the docstring)."""
    if isinstance(output, str | bytes):
        try:
            output = json.loads(output)
        except ValueError as error:
            raise PersistedError(f"output is not JSON ({error})") from None
    flat = _items(output)
    if flat is not None and responses == 1:
        return [flat]
    if isinstance(output, list) and output:
        nested = [part for part in map(_items, output) if part is not None]
        if len(nested) == len(output):
            if len(nested) == responses:
                return nested
            raise PersistedError(
                f"output has {len(nested)} lists of items for {responses} responses"
            )
    raise PersistedError(
        "output must be an array of items (one response) or an array of arrays of items "
        f"(one per response); the stream has {responses} responses"
    )


def divergences(result: Result, items: Sequence[Mapping[str, Any]]) -> list[str]:
    """The taxonomy's classes of ``items`` against ``result``, most harmful first."""
    found = classify_items(result, items)
    return [divergence.value for divergence in HARM if divergence in found]
