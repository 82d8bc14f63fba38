"""Annotations merged into their part from the events alone (issue #11 part 4,
``model/annotations.py``): a message that never gets its ``done`` keeps its citations."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from helpers import CAPTURES
from responses_oracle import reduce
from responses_oracle.model.annotations import PART_ADDITIONS

from .streams import added, codes, completed, created, delta, done, msg, part_event, reduce1

pytestmark = pytest.mark.rule("R15")

_CITE = {"type": "url_citation", "url": "https://a.example", "start_index": 0, "end_index": 2,
         "title": "A"}
_OTHER = {**_CITE, "url": "https://b.example", "title": "B"}
_CAPTURE = CAPTURES / "pydantic-ai" / "test_openai_include_raw_annotations_streaming.i0.jsonl"


def _annotation(index: int | None, annotation: dict[str, Any], content_index: int = 0,
                kind: str = "response.output_text.annotation.added") -> dict[str, Any]:
    fields: dict[str, Any] = {"type": kind, "output_index": 0, "item_id": "msg_1",
                              "content_index": content_index, "annotation": annotation}
    if index is not None:
        fields["annotation_index"] = index
    return fields


def _opened() -> list[dict[str, Any]]:
    part = {"type": "output_text", "annotations": [], "text": ""}
    return [
        created(),
        added(0, msg("msg_1")),
        part_event("content_part.added", 0, "msg_1", part, content_index=0),
        delta(0, "msg_1", "hi", kind="output_text", content_index=0),
    ]


def _part(events: list[dict[str, Any]], status: str = "interrupted") -> dict[str, Any]:
    result = reduce1(*events, status=status)
    (message,) = result.items
    (part,) = message.item["content"]
    return dict(part)


def test_both_spellings_are_part_additions() -> None:
    assert {kind.value for kind in PART_ADDITIONS} == {
        "response.output_text.annotation.added",
        "response.output_text_annotation.added",
    }


def test_a_message_without_done_keeps_its_annotations() -> None:
    part = _part([*_opened(), _annotation(0, _CITE), _annotation(1, _OTHER)])
    assert part == {"type": "output_text", "annotations": [_CITE, _OTHER], "text": "hi"}


def test_the_open_responses_spelling_is_merged_too() -> None:
    old = _annotation(0, _CITE, kind="response.output_text_annotation.added")
    assert _part([*_opened(), old])["annotations"] == [_CITE]


def test_an_annotation_sent_again_replaces_its_position() -> None:
    part = _part([*_opened(), _annotation(0, _CITE), _annotation(0, _OTHER)])
    assert part["annotations"] == [_OTHER]


def test_an_annotation_without_a_position_is_appended() -> None:
    part = _part([*_opened(), _annotation(0, _CITE), _annotation(None, _OTHER)])
    assert part["annotations"] == [_CITE, _OTHER]


def test_an_annotation_before_its_part_opens_the_part() -> None:
    events = [created(), added(0, msg("msg_1")), _annotation(0, _CITE),
              delta(0, "msg_1", "hi", kind="output_text", content_index=0)]
    assert _part(events) == {"type": "output_text", "annotations": [_CITE], "text": "hi"}


def test_the_done_item_still_gives_the_full_part() -> None:
    final = msg("msg_1", {"type": "output_text", "annotations": [_OTHER], "text": "hi"})
    events = [*_opened(), _annotation(0, _CITE), done(0, final), completed([final])]
    assert _part(events, "completed")["annotations"] == [_OTHER]


def test_a_late_annotation_changes_nothing() -> None:
    final = msg("msg_1", {"type": "output_text", "annotations": [], "text": "hi"})
    result = reduce1(*_opened(), done(0, final), _annotation(0, _CITE), completed([final]))
    assert result.items[0].item["content"][0]["annotations"] == []
    assert "late_event" in codes(result)


def test_the_events_own_lists_are_never_changed() -> None:
    events = [*_opened(), _annotation(0, _CITE)]
    before = copy.deepcopy(events)
    _part(events)
    assert events == before


def test_the_captured_citations_survive_without_done_or_snapshot() -> None:
    # The real stream with its done items and the terminal snapshot taken away: the
    # annotation.added events alone rebuild the citations the done item carried.
    events = [json.loads(line) for line in _CAPTURE.read_text().splitlines()]
    message_done = next(
        e["item"] for e in events
        if e["type"] == "response.output_item.done" and e["item"]["type"] == "message"
    )
    cut = [e for e in events
           if e["type"] not in ("response.output_item.done", "response.completed")]
    (result,) = reduce(cut)
    (message,) = [e for e in result.items if e.item["type"] == "message"]
    assert message_done["content"][0]["annotations"]
    assert message.item["content"][0]["annotations"] == message_done["content"][0]["annotations"]
    assert message.item["content"][0]["text"] == message_done["content"][0]["text"]
