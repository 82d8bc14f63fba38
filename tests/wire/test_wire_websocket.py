"""WebSocket-mode transcripts: one JSON message per frame, client frames skipped, each
response of the connection reduced apart.

A transcript is what a user can record from a WebSocket-mode connection: every frame's
message in the order it crossed the wire, the client's ``response.create`` (and
``response.steer``) frames among the server's events, bare or with ``wscat``'s
``>``/``<`` direction marks.  The real captures of four back-to-back OpenAI turns
(``fixtures/peers/ai-sdk``) are replayed as one connection: the results must be those
of the four HTTP streams reduced one by one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import PEERS
from responses_oracle import reduce
from responses_oracle.wire import InputFormat, detect_format, iter_wire_events, read_wire_events

from .wire_cases import one_byte_chunks

_TURNS = sorted((PEERS / "ai-sdk").glob("openai__openai-reasoning-encrypted-content.1.part*"))


def _create(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "response.create", "model": "gpt-5.1", "input": text, **extra}


def _frames(path_events: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A connection: one ``response.create`` before each response's server events."""
    frames: list[dict[str, Any]] = []
    for number, events in enumerate(path_events):
        frames.append(_create(f"turn {number}"))
        frames.extend(events)
    return frames


def _lines(frames: list[dict[str, Any]], *, wscat: bool = False) -> bytes:
    out = []
    for frame in frames:
        text = json.dumps(frame, separators=(",", ":"))
        if wscat:
            text = ("> " if frame["type"].startswith("response.create") else "< ") + text
        out.append(text)
    return ("\n".join(out) + "\n").encode()


def _turn_events() -> list[list[dict[str, Any]]]:
    return [
        [event.payload for event in read_wire_events(path) if event.payload is not None]
        for path in _TURNS
    ]


def _message(response_id: str, text: str) -> list[dict[str, Any]]:
    item = {"id": f"msg_{response_id}", "type": "message", "role": "assistant",
            "status": "completed", "content": [{"type": "output_text", "text": text,
                                                "annotations": []}]}
    return [
        {"type": "response.created", "response": {"id": response_id, "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": response_id, "output": [item]}},
    ]


def test_a_transcript_is_detected_by_its_first_frame() -> None:
    frames = _frames(_turn_events())
    assert detect_format(_lines(frames)) is InputFormat.WEBSOCKET
    assert detect_format(_lines(frames, wscat=True)) is InputFormat.WEBSOCKET
    assert detect_format(b'< {"type":"response.created"}\n') is InputFormat.WEBSOCKET
    # A server event first is ordinary JSONL (the frames are the same either way).
    assert detect_format(_lines(frames[1:])) is InputFormat.JSONL


@pytest.mark.parametrize("wscat", [False, True], ids=["bare", "wscat"])
def test_a_connection_of_four_real_turns_reduces_like_the_four_streams(wscat: bool) -> None:
    turns = _turn_events()
    transcript = _lines(_frames(turns), wscat=wscat)
    frames = list(read_wire_events(transcript))
    # Every frame is numbered, the client's included: event indexes are frame numbers.
    assert [frame.index for frame in frames] == list(range(sum(map(len, turns)) + 4))
    assert frames[0].payload is not None and frames[0].payload["type"] == "response.create"
    together = reduce(transcript)
    apart = [reduce(path)[0] for path in _TURNS]
    assert len(together) == 4
    for joined, alone in zip(together, apart, strict=True):
        assert joined.items == alone.items and joined.status is alone.status
        assert joined.response_id == alone.response_id
        assert [d.code for d in joined.diagnostics] == [d.code for d in alone.diagnostics]
    assert [r.items[-1].item["type"] for r in together] == [
        "function_call", "function_call", "function_call", "message"
    ]


def test_the_transcript_decodes_the_same_one_byte_at_a_time() -> None:
    transcript = _lines(_frames(_turn_events()), wscat=True)
    whole = list(read_wire_events(transcript))
    trickled = list(iter_wire_events(one_byte_chunks(transcript), InputFormat.WEBSOCKET))
    assert trickled == whole


def test_a_request_answered_by_an_error_frame_is_a_failure_of_its_own() -> None:
    # WebSocket mode answers a bad response.create with an error frame and no response.
    error = {
        "type": "error",
        "status": 400,
        "error": {"code": "previous_response_not_found", "message": "no such response"},
    }
    frames = [
        _create("hi"),
        *_message("resp_1", "hello"),
        _create("again", previous_response_id="resp_gone"),
        error,
        _create("once more"),
        *_message("resp_2", "still here"),
    ]
    first, failed, last = reduce(_lines(frames))
    assert (first.response_id, first.status.value) == ("resp_1", "completed")
    assert first.diagnostics == ()
    assert (failed.response_id, failed.status.value, failed.items) == (None, "failed", ())
    assert "response_error" in [d.code.value for d in failed.diagnostics]
    assert (last.response_id, last.items[0].item["content"][0]["text"]) == (
        "resp_2",
        "still here",
    )


def test_a_steer_frame_is_skipped_and_ends_nothing() -> None:
    events = _message("resp_1", "steered")
    frames = [_create("hi"), *events[:2], {"type": "response.steer", "input": "shorter"},
              *events[2:]]
    (result,) = reduce(_lines(frames))
    assert result.status.value == "completed" and result.diagnostics == ()
    assert result.items[0].item["content"][0]["text"] == "steered"


def test_a_bad_frame_is_reported_and_the_rest_reduced() -> None:
    transcript = _lines([_create("hi"), *_message("resp_1", "ok")]).replace(
        b'{"type":"response.output_item.added"', b'< {"type":"response.output_item.added",,', 1
    )
    (result,) = reduce(transcript, format=InputFormat.WEBSOCKET)
    # The bad frame was the message's output_item.added: its done now arrives alone.
    assert [d.code.value for d in result.diagnostics] == ["malformed_event", "done_only_item"]
    assert result.diagnostics[0].event_index == 2
    assert result.items[0].item["content"][0]["text"] == "ok"
