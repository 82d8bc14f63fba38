"""``responses-oracle explain``: per event the keys, the decision, the transition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .cli_helpers import EXAMPLES, Event, function_call_stream, jsonl, lines, run, write

FC_PARIS = "fc_0c4f9a71d2e83b5a0069a1e4c29b3e8199b1d4f6a8c2e53f"


def _explain_json(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[Any]]:
    status, out, _ = run(capsys, "explain", path, "--json")
    return status, lines(out)


def _events(objects: list[Any]) -> dict[int, Any]:
    return {o["index"]: o for o in objects if o["kind"] == "event"}


def test_every_event_gets_one_object_then_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    status, objects = _explain_json(capsys, EXAMPLES / "parallel-calls.sse")
    assert status == 0
    assert [o["kind"] for o in objects] == ["event"] * 20 + ["result"]
    assert [o["index"] for o in objects[:-1]] == list(range(20))
    assert {o["response_index"] for o in objects} == {0}
    _, out, _ = run(capsys, "reduce", EXAMPLES / "parallel-calls.sse")
    assert objects[-1]["result"] == lines(out)[0]


def test_admission_and_routing_of_interleaved_calls(capsys: pytest.CaptureFixture[str]) -> None:
    _, objects = _explain_json(capsys, EXAMPLES / "parallel-calls.sse")
    events = _events(objects)
    added = events[9]
    assert added["type"] == "response.output_item.added"
    assert added["keys"] == {
        "output_index": 1,
        "item_id": None,
        "item.id": FC_PARIS,
        "item.item_id": None,
        "call_id": "call_qN4vT8xKb2WmL7sRz0YdHj3E",
    }
    assert added["decision"] == "added: new -> admit"
    assert (added["item"], added["before"], added["after"]) == (1, "absent", "added")
    # The first Tokyo delta arrives between two Paris deltas and goes to its own item.
    tokyo_delta = events[12]
    assert tokyo_delta["keys"]["output_index"] == 2
    assert tokyo_delta["decision"] == "route one/one_of_slot -> by_slot"
    assert (tokyo_delta["item"], tokyo_delta["before"], tokyo_delta["after"]) == (
        2,
        "added",
        "streaming",
    )
    assert events[18]["type"] == "response.output_item.done"
    assert (events[18]["item"], events[18]["after"]) == (1, "done")
    terminal = events[19]
    assert terminal["decision"] == "terminal: completed"
    assert (terminal["item"], terminal["before"], terminal["after"]) == (None, None, None)
    assert all(o["diagnostics"] == [] for o in events.values())


def test_diagnostics_are_attached_to_the_event_that_raised_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, objects = _explain_json(capsys, EXAMPLES / "copilot-rotating-ids.jsonl")
    assert status == 0
    events = _events(objects)
    codes = {index: [d["code"] for d in o["diagnostics"]] for index, o in events.items()}
    assert codes[3] == ["item_id_unrecognized"]
    assert codes[4] == ["item_id_unrecognized"]
    assert sorted(codes[5]) == ["divergent_payload", "item_id_unrecognized"]
    assert codes[6] == ["id_changed"]
    assert all(events[i]["item"] == 0 for i in (2, 3, 4, 5, 6))
    assert events[6]["decision"] == "item_done: agree -> match"


def test_mantle_done_item_shows_its_renamed_id_key(capsys: pytest.CaptureFixture[str]) -> None:
    _, objects = _explain_json(capsys, EXAMPLES / "mantle-missing-id.jsonl")
    done = _events(objects)[13]
    assert done["keys"]["item.id"] is None
    assert done["keys"]["item.item_id"] == "fc_c2a95f0e7d3b8146"
    assert (done["item"], done["before"], done["after"]) == (1, "payload_done", "done")


def test_an_undecodable_line_is_shown_with_its_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = jsonl(function_call_stream()).splitlines(keepends=True)
    path = write(tmp_path, "broken.jsonl", "".join(good[:2]) + "{not json\n" + "".join(good[2:]))
    status, objects = _explain_json(capsys, path)
    assert status == 1
    broken = _events(objects)[2]
    assert (broken["type"], broken["decision"], broken["item"]) == (None, None, None)
    assert [d["code"] for d in broken["diagnostics"]] == ["malformed_event"]


def test_entries_sharing_a_slot_are_named_by_their_item_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def added(item_id: str, call_id: str) -> Event:
        item = {"type": "function_call", "id": item_id, "call_id": call_id, "name": "f"}
        return {"type": "response.output_item.added", "output_index": 0, "item": item}

    events: list[Event] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 1, "item": {
            "type": "message", "id": "msg_1", "role": "assistant", "content": []}},
        added("fc_a", "call_a"),
        added("fc_b", "call_b"),
        {"type": "response.function_call_arguments.delta", "output_index": 0,
         "item_id": "fc_b", "delta": "{}"},
    ]
    status, objects = _explain_json(capsys, write(tmp_path, "shared.jsonl", jsonl(events)))
    assert status == 1
    result = objects[-1]["result"]
    assert [i["item"]["id"] for i in result["items"]] == ["fc_a", "fc_b", "msg_1"]
    rows = _events(objects)
    assert [rows[i]["item"] for i in (1, 2, 3, 4)] == [2, 0, 1, 1]
    assert [d["code"] for d in rows[3]["diagnostics"]] == ["slot_reused"]


def test_each_response_of_a_tool_loop_is_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = function_call_stream("resp_a") + function_call_stream("resp_b", "fc_b", "call_b")
    status, objects = _explain_json(capsys, write(tmp_path, "loop.jsonl", jsonl(events)))
    assert status == 0
    results = [o for o in objects if o["kind"] == "result"]
    assert [(r["response_index"], r["result"]["response"]["id"]) for r in results] == [
        (0, "resp_a"),
        (1, "resp_b"),
    ]
    second = [o for o in objects if o["kind"] == "event" and o["response_index"] == 1]
    assert [o["index"] for o in second] == list(range(6, 12))
    assert second[0]["type"] == "response.created"


def test_the_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", EXAMPLES / "copilot-rotating-ids.jsonl")
    assert status == 0
    assert "events of response 1" in out
    assert "by_slot" in out
    assert "items[0]" in out
    assert "item_id_unrecognized" in out
    assert "output items" in out


def test_end_of_input_diagnostics_get_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "cut.jsonl", jsonl(function_call_stream(complete=False)))
    status, out, _ = run(capsys, "explain", path)
    assert status == 1
    assert "end of input" in out
    assert "missing_terminal" in out


def test_explain_draws_one_arrow_style(capsys: pytest.CaptureFixture[str]) -> None:
    """The decision (``new -> admit``) and the item's move (``absent -> added``) use
    the same arrow, in the table and in its header."""
    status, out, _ = run(capsys, "explain", EXAMPLES / "copilot-rotating-ids.jsonl")
    assert status == 0
    assert "→" not in out
    assert "added: new -> admit" in out and "before -> after" in out
