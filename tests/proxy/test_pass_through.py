"""Nothing dropped in silence (#39, part 1): on every capture under ``fixtures/``, each
upstream event reaches the client with every field as the upstream sent it, unless the
proxy's log names a change for it.

Each upstream event is paired with the event canonical sends for it: the same type, the
same item (by ``item_id``, else by ``output_index``), the same part index, the same
occurrence.  A pair is compared field by field (``sequence_number`` is canonical's by
design); a terminal's ``output`` is compared item by item.  A field dropped, added or
changed, or an event with no counterpart, must be named by the log of its response: by
the upstream event's index, by its item's id (either side's), or -- for the terminal's
output -- as a ``terminal output`` change.  The last test doctors one event of a clean
stream, so the comparison is shown to catch a dropped field.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from responses_oracle import Canonicalizer

from .test_relay_refinement import CAPTURES, _events

Event = dict[str, Any]

_PARTS = ("content_index", "summary_index", "command_index", "annotation_index")


def _item(event: Event) -> Any:
    item = event.get("item")
    return event.get("item_id") or (item.get("id") if isinstance(item, dict) else None)


def _keys(events: list[Event]) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Each event's two pairing keys: by item id, and by output index."""
    seen: Counter[tuple[Any, ...]] = Counter()
    keys = []
    for event in events:
        part = tuple(event.get(name) for name in _PARTS)
        by_id = (event.get("type"), "id", _item(event), part)
        by_index = (event.get("type"), "index", event.get("output_index"), part)
        keys.append(((*by_id, seen[by_id]), (*by_index, seen[by_index])))
        seen[by_id] += 1
        seen[by_index] += 1
    return keys


def unnamed_differences(events: list[Event], out: list[Event], log: str) -> list[str]:
    """The upstream events canonical dropped or sent otherwise without its log naming
    them: one line each, with the fields that differ."""
    index: dict[tuple[Any, ...], Event] = {}
    for event, keys in zip(out, _keys(out), strict=True):
        for key in keys:
            index.setdefault(key, event)
    found = []
    for number, (event, keys) in enumerate(zip(events, _keys(events), strict=True)):
        mine = index.get(keys[0]) if _item(event) is not None else None
        mine = mine if mine is not None else index.get(keys[1])
        names = {str(_item(event)), str(_item(mine) if mine is not None else None)}
        if f"upstream event {number} " in log or any(f" {n}:" in log for n in names - {"None"}):
            continue
        if mine is None:
            found.append(f"upstream event {number} ({event.get('type')}): not sent")
            continue
        fields = [
            name
            for name in {*event, *mine} - {"sequence_number"}
            if _compared(event, name) != _compared(mine, name)
        ]
        theirs, ours = event.get("response"), mine.get("response")
        if (
            isinstance(theirs, dict)
            and isinstance(ours, dict)
            and theirs.get("output") != ours.get("output")
            and "terminal output" not in log
        ):
            fields.append("response.output")
        if fields:
            found.append(f"upstream event {number} ({event.get('type')}): {sorted(fields)}")
    return found


def _compared(event: Event, name: str) -> Any:
    """A field as compared: a response object without its ``output`` (compared item by
    item, ``unnamed_differences``)."""
    value = event.get(name, "<absent>")
    if name == "response" and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "output"}
    return value


def _canonical(events: list[Event]) -> tuple[list[Event], str]:
    canonicalizer = Canonicalizer()
    out = [sent for event in events for sent in canonicalizer.feed(event)]
    out += canonicalizer.close()
    log = "\n".join(change for record in canonicalizer.repairs for change in record["changes"])
    return out, log


@pytest.mark.parametrize("name", CAPTURES)
def test_every_upstream_event_passes_as_sent_or_the_log_names_it(name: str) -> None:
    events = [event for event in _events(name) if isinstance(event, dict)]
    out, log = _canonical(events)
    assert unnamed_differences(events, out, log) == []


def test_a_field_dropped_without_a_word_is_caught() -> None:
    name = "fixtures/scenarios/bases/c02.jsonl"
    events = [event for event in _events(name) if isinstance(event, dict)]
    out, log = _canonical(events)
    assert unnamed_differences(events, out, log) == []
    delta = next(e for e in out if e["type"] == "response.output_text.delta" and "obfuscation" in e)
    del delta["obfuscation"]
    opening = next(e for e in out if e["type"] == "response.created")
    del opening["response"]["usage"]
    found = unnamed_differences(events, out, log)
    assert len(found) == 2
    assert "['obfuscation']" in found[1] and "['response']" in found[0]


def test_a_part_announced_late_repeats_no_annotation() -> None:
    """xAI's message waits behind its server-run calls; its part is announced after its
    annotations arrived.  The part goes out as the upstream announced it (no
    annotations), and each annotation once, as its own event -- a client that appends
    each ``annotation.added`` to the part keeps 20, not 40."""
    name = "fixtures/captures/vercel-ai/xai__xai-x-search-tool.jsonl"
    events = [event for event in _events(name) if isinstance(event, dict)]
    out, _ = _canonical(events)
    kind = "response.output_text.annotation.added"
    sent = [e["annotation"] for e in out if e["type"] == kind]
    assert len(sent) == 20
    assert sent == [e["annotation"] for e in events if e["type"] == kind]
    (part,) = [e["part"] for e in out if e["type"] == "response.content_part.added"]
    assert part["annotations"] == []
