"""Minimal streams for the findings of the differential and capture suites.

A fixed finding stays as a regression test; an open one is a strict ``xfail`` naming
the bug, which turns red once the reducer is fixed (then drop the mark).

``nothing_lost`` used to require ``len(entries) >= snapshot_items``, which R6 breaks
whenever ``response.completed.output`` lists two items the reducer folds into one
entry (same ``call_id``, or same id without one) or rejects (``duplicate_call_id``).
Hypothesis shrank it to two function calls sharing ``call_0``; the model now counts a
snapshot item as placed (matched or admitted) or rejected.  These streams pin both
halves: what the reducer outputs, and that every invariant holds.
"""

from __future__ import annotations

from typing import Any

import pytest
from responses_oracle import Reducer

from .invariant_check import check_invariants

_CREATED = {"type": "response.created", "response": {"id": "resp_1"}}
_FC_A = {"type": "function_call", "id": "fc_0", "call_id": "call_0", "name": "a", "arguments": "{}"}


def _snapshot_only(*items: dict[str, Any]) -> list[dict[str, Any]]:
    """A response whose only output is ``response.completed.output``."""
    completed = {"type": "response.completed", "response": {"id": "resp_1", "output": list(items)}}
    return [_CREATED, completed]


SNAPSHOT_REPEATS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "same item twice": (_snapshot_only(_FC_A, dict(_FC_A)), "duplicate_item"),
    "same call_id, other id and name": (
        _snapshot_only(_FC_A, _FC_A | {"id": "fc_1", "name": "b", "arguments": '{"b":1}'}),
        "duplicate_item",
    ),
    "same call_id, other type": (
        _snapshot_only(
            _FC_A,
            {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_0", "input": "x"},
        ),
        "duplicate_call_id",
    ),
    "same message id, other text": (
        _snapshot_only(
            {"type": "message", "id": "msg_0", "content": [{"type": "output_text", "text": "a"}]},
            {"type": "message", "id": "msg_0", "content": [{"type": "output_text", "text": "b"}]},
        ),
        "duplicate_item",
    ),
}
"""Snapshots listing two items that R6 folds into one entry or rejects → the code raised."""


@pytest.mark.parametrize("case", sorted(SNAPSHOT_REPEATS))
def test_a_repeated_snapshot_item_keeps_every_invariant(case: str) -> None:
    events, code = SNAPSHOT_REPEATS[case]
    reducer = Reducer()
    reducer.feed_all(events)
    (result,) = reducer.finish()
    first = events[1]["response"]["output"][0]
    assert [entry.item["id"] for entry in result.items] == [first["id"]]
    assert [entry.executable for entry in result.items] == ["call_id" in first]
    # The first item is admitted from the snapshot alone (R6), the second folded or refused.
    assert [diagnostic.code.value for diagnostic in result.diagnostics] == [
        "snapshot_only_item", code]
    assert check_invariants(events, every_prefix=True) == []


def _message(text: str) -> dict[str, Any]:
    return {"type": "message", "id": "msg_1", "content": [{"type": "output_text", "text": text}]}


_MANTLE_TEXT_AT_INDEX_1: list[dict[str, Any]] = [
    _CREATED,
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"type": "message", "id": "msg_1", "content": []},
    },
    {
        "type": "response.output_text.delta",
        "output_index": 0,
        "item_id": "msg_1",
        "content_index": 1,
        "delta": "hi",
    },
    {"type": "response.output_item.done", "output_index": 0, "item": _message("hi")},
    {"type": "response.completed", "response": {"id": "resp_1", "output": [_message("hi")]}},
]
"""The shape of every gpt-oss message turn in opencode's Mantle recordings, reduced."""


def test_a_message_streamed_at_content_index_1_keeps_its_text_once() -> None:
    reducer = Reducer()
    reducer.feed_all(_MANTLE_TEXT_AT_INDEX_1)
    (result,) = reducer.finish()
    (message,) = result.items
    assert [part["text"] for part in message.item["content"]] == ["hi"]
