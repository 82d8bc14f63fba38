"""Every captured stream in fixtures/peers decodes cleanly, completely and in order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import PEERS
from responses_oracle.wire import InputFormat, WireEvent, detect_format, read_wire_events

from .wire_cases import (
    AXONHUB_COUNTS,
    RECORDING_COUNTS,
    ai_sdk_counts,
    fixture_files,
    fixture_ids,
)

FILES = fixture_files()


def _runs(events: list[WireEvent]) -> list[list[WireEvent]]:
    """The events split into responses, each starting at a response.created."""
    runs: list[list[WireEvent]] = []
    for event in events:
        assert event.payload is not None
        if event.payload["type"] == "response.created" or not runs:
            runs.append([])
        runs[-1].append(event)
    return runs


def _expected_format(path: Path) -> InputFormat:
    return {
        "ai-sdk": InputFormat.JSONL,
        "concatenated": InputFormat.JSONL,
        "axonhub": InputFormat.AXONHUB,
        "opencode": InputFormat.RECORDING,
    }[path.parent.name]


@pytest.fixture(scope="module")
def peers() -> Path:
    return PEERS


def test_every_fixture_is_known(peers: Path) -> None:
    known = (
        {f"ai-sdk/{name}" for name in ai_sdk_counts(peers)}
        | {f"opencode/{name}" for name in RECORDING_COUNTS}
        | {f"axonhub/{name}" for name in AXONHUB_COUNTS}
    )
    assert {path.relative_to(peers).as_posix() for path in FILES} == known


@pytest.mark.parametrize("path", FILES, ids=fixture_ids(FILES))
def test_fixture_decodes_cleanly(path: Path, peers: Path) -> None:
    assert detect_format(path.read_bytes()[:65536]) is _expected_format(path)
    events = list(read_wire_events(path))
    assert [e.problem for e in events] == [None] * len(events)
    assert [e.index for e in events] == list(range(len(events)))
    assert all(isinstance(e.payload, dict) and "type" in e.payload for e in events)
    relative = path.relative_to(peers).as_posix()
    runs = _runs(events)
    if path.parent.name == "opencode":
        assert [len(run) for run in runs] == RECORDING_COUNTS[path.name]
    elif path.parent.name == "axonhub":
        assert len(events) == AXONHUB_COUNTS[path.name]
    else:
        assert len(events) == ai_sdk_counts(peers)[relative.removeprefix("ai-sdk/")]
    for run in runs:
        assert run[0].payload is not None and run[0].payload["type"] == "response.created"
        if path.parent.name != "ai-sdk":
            # These captures number every event 0..n (their SOURCE.md checks it), so
            # the numbering proves nothing was dropped or reordered.  Some ai-sdk
            # fixtures were trimmed or hand-written and have gaps or no numbers.
            numbers = [e.payload["sequence_number"] for e in run if e.payload is not None]
            assert numbers == list(range(len(run)))


def test_sse_event_names_match_types(peers: Path) -> None:
    # gpt-5.5's bodies put `data:` before `event:`; AxonHub's Type plays the event name.
    for path in (
        peers / "opencode" / "continues-gpt-5-5-with-the-shared-responses-protocol.json",
        peers / "axonhub" / "tool-2.stream.jsonl",
    ):
        events = list(read_wire_events(path))
        assert events
        assert all(e.payload is not None and e.sse_event == e.payload["type"] for e in events)
    data_only = list(read_wire_events(peers / "opencode" / "streams-text.json"))
    assert {e.sse_event for e in data_only} == {None}


def test_concatenated_turns_keep_their_order(peers: Path) -> None:
    folder = peers / "ai-sdk"
    parts = sorted(folder.glob("openai__openai-reasoning-encrypted-content.1.part*of4.jsonl"))
    assert len(parts) == 4
    separate = [e.payload for part in parts for e in read_wire_events(part)]
    whole = list(read_wire_events(next((folder / "concatenated").glob("*.jsonl"))))
    assert [e.payload for e in whole] == separate
    assert len(_runs(whole)) == 4


@pytest.mark.parametrize("name", sorted(RECORDING_COUNTS))
def test_recording_interactions_keep_their_order(peers: Path, name: str) -> None:
    path = peers / "opencode" / name
    recording = json.loads(path.read_text())
    bodies = [interaction["response"]["body"] for interaction in recording["interactions"]]
    expected_ids = [re.findall(r'"id":"(resp_[^"]+)"', body)[0] for body in bodies]
    runs = _runs(list(read_wire_events(path)))
    assert [run[0].payload["response"]["id"] for run in runs if run[0].payload] == expected_ids
    for run, body in zip(runs, bodies, strict=True):
        assert run[-1].payload is not None
        assert run[-1].payload["type"] == "response.completed"
        assert json.dumps(run[-1].payload["sequence_number"]) in body
