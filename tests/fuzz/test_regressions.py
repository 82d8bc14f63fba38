"""Inputs the fuzzing found that broke the pipeline, kept as the smallest known example.

A test marked ``xfail(strict=True, reason="BUG: ...")`` is a bug still open: once the
fix lands it passes, the strict marker turns that into a failure, and the marker must
be removed so the test guards the fix.
"""

from __future__ import annotations

import json
from typing import Any

from fuzz.fuzzkit import contract_json
from responses_oracle import reduce
from responses_oracle.wire.formats import InputFormat

DEPTH = 800
"""Nesting that ``json.loads`` still decodes (its limit is about 990 levels) but that
overflows any recursion taking more than one Python frame per level."""


def _nesting_depth(value: Any) -> int:
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    return depth + (1 if isinstance(value, list) else 0)


def test_deeply_nested_item_field_is_kept() -> None:
    # Found by fuzzing: result.py copied items with copy.deepcopy (two frames per level),
    # so a decodable item field nested ~500 deep raised RecursionError.  Fixed in c69ff1a.
    nested = "[" * DEPTH + "0" + "]" * DEPTH
    line = '{"type":"response.output_item.done","item":{"type":"x","extra":' + nested + "}}\n"
    (result,) = contract_json(reduce(line.encode(), format=InputFormat.JSONL))
    (item,) = result["items"]
    assert (item["item"]["type"], item["id_source"]) == ("x", "minted")
    assert _nesting_depth(item["item"]["extra"]) == DEPTH


PART_INDEX = 20_000
"""A content_index well inside ``model.catalogue.MAX_INDEX`` (2**20)."""


def test_a_large_part_index_does_not_amplify_the_output() -> None:
    # Found by fuzzing: result.py padded a part array with one placeholder per missing
    # index, so ~300 input bytes made 2**20 parts (~40 MB of JSON, ~300 MB of memory).
    # Fixed in c69ff1a (parts past the end are appended, not padded).
    events = [
        {"type": "response.created", "response": {"id": "r"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "message", "id": "m", "content": []},
        },
        {
            "type": "response.output_text.delta",
            "output_index": 0,
            "content_index": PART_INDEX,
            "delta": "x",
        },
    ]
    data = "".join(json.dumps(event) + "\n" for event in events).encode()
    results = contract_json(reduce(data, format=InputFormat.JSONL))
    assert len(json.dumps(results)) <= 1000 * len(data)
