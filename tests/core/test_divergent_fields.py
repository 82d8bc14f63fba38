"""Item fields that differ between ``output_item.done`` and the terminal snapshot where
no rule decides them (issue #35 part 3): reported, naming the field and the value kept.

OpenAI and Azure send a reasoning item's ``encrypted_content`` anew in
``response.completed`` (gpt-5, gpt-5-mini, o4-mini): a client replays one or the other,
so the oracle says they differ and that it keeps the snapshot's.
"""

from __future__ import annotations

import json

from helpers import CAPTURES
from responses_oracle import reduce

from .streams import codes, completed, created, done, fc, numbered, only, reduce1, rs

_CAPTURE = CAPTURES / "pydantic-ai" / "test_openai_responses_streaming_usage.i0.jsonl"


def test_a_real_reasoning_items_encrypted_content_differs_and_the_snapshots_is_kept() -> None:
    events = [json.loads(line) for line in _CAPTURE.read_text().splitlines()]
    (done_item,) = [e["item"] for e in events if e["type"] == "response.output_item.done"][:1]
    snapshot = events[-1]["response"]["output"][0]
    assert done_item["encrypted_content"] != snapshot["encrypted_content"]
    (result,) = reduce(_CAPTURE)
    assert codes(result) == ["divergent_item_field"]
    (diagnostic,) = result.diagnostics
    assert "encrypted_content differs between output_item.done" in diagnostic.detail
    assert "kept the snapshot's" in diagnostic.detail
    assert result.items[0].item["encrypted_content"] == snapshot["encrypted_content"]


def test_an_equal_blank_or_decided_field_is_not_reported() -> None:
    kept = rs("rs_1", "think", encrypted_content="A")
    blank = rs("rs_1", "think", encrypted_content=None)
    result = reduce1(*numbered([created(), done(0, kept), completed([blank])]))
    assert codes(result) == ["done_only_item"]
    assert only(result).item["encrypted_content"] == "A"  # empty never erases
    # A payload (R7) and an identity field (R6) have their own rules and codes.
    call = fc("fc_1", "call_1", args="{}")
    other = fc("fc_1", "call_1", args='{"a": 1}')
    result = reduce1(*numbered([created(), done(0, call), completed([other])]))
    assert "divergent_item_field" not in codes(result)


def test_a_field_that_differs_names_both_values_and_keeps_the_snapshots() -> None:
    first = rs("rs_1", "think", encrypted_content="A")
    second = rs("rs_1", "think", encrypted_content="B")
    result = reduce1(*numbered([created(), done(0, first), completed([second])]))
    assert codes(result) == ["divergent_item_field", "done_only_item"]
    [divergent] = [d for d in result.diagnostics if d.code.value == "divergent_item_field"]
    assert divergent.detail == (
        "reasoning 'rs_1': encrypted_content differs between output_item.done ('A') and "
        "the snapshot ('B'); kept the snapshot's, the response as stored"
    )
    assert only(result).item["encrypted_content"] == "B"
