"""Replay (R12): output items become the next request's input, codex-compatible.

Cases 1-8 follow codex's history tests (peer-implementations B.4); the rest pin our own
choices (stray fields, no mutation, server tool search, local_shell_call_output).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from responses_oracle.model.catalogue import ITEM_TYPES
from responses_oracle.next_input import replay_input

Item = dict[str, Any]


def function_call(call_id: str, item_id: str | None = None) -> Item:
    item: Item = {"type": "function_call", "call_id": call_id, "name": "f", "arguments": "{}"}
    if item_id is not None:
        item["id"] = item_id
    return item


def custom_call(call_id: str, item_id: str | None = None) -> Item:
    item: Item = {"type": "custom_tool_call", "call_id": call_id, "name": "t", "input": "x"}
    if item_id is not None:
        item["id"] = item_id
    return item


def shell_call(call_id: str, item_id: str | None = None) -> Item:
    item: Item = {
        "type": "local_shell_call",
        "call_id": call_id,
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    if item_id is not None:
        item["id"] = item_id
    return item


def tool_search_call(call_id: str | None, item_id: str, execution: str | None) -> Item:
    item: Item = {"type": "tool_search_call", "id": item_id, "call_id": call_id}
    if execution is not None:
        item["execution"] = execution
    item["arguments"] = {"query": "weather"}
    return item


def user_message(text: str) -> Item:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def aborted(output_type: str, call_id: str, output_id: str | None = None) -> Item:
    item: Item = {"type": output_type, "call_id": call_id, "output": "aborted"}
    if output_id is not None:
        item["id"] = output_id
    return item


# --- codex B.4 cases ------------------------------------------------------------------


def test_1_function_call_without_output_gets_aborted_output_without_id() -> None:
    call = function_call("call-x")
    assert replay_input([call]) == [call, aborted("function_call_output", "call-x")]
    assert "id" not in replay_input([call])[1]


def test_2_custom_tool_call_without_output_gets_aborted_custom_output() -> None:
    call = custom_call("tool-x")
    assert replay_input([call]) == [call, aborted("custom_tool_call_output", "tool-x")]


def test_3_local_shell_call_with_id_gets_function_output_with_stable_id() -> None:
    call = shell_call("shell-1", "lsh_1")
    assert replay_input([call]) == [
        call,
        aborted("function_call_output", "shell-1", "fco_37093384-5cd0-5813-8a86-723bfcccbbb2"),
    ]


@pytest.mark.parametrize(
    "orphan",
    [
        {"type": "function_call_output", "call_id": "gone", "output": "ok"},
        {"type": "custom_tool_call_output", "call_id": "gone", "output": "ok"},
        {"type": "tool_search_output", "call_id": "gone", "execution": "client", "tools": []},
        {"type": "tool_search_output", "call_id": "gone", "tools": []},
    ],
)
def test_4_orphan_outputs_are_removed(orphan: Item) -> None:
    message = user_message("hi")
    assert replay_input([message, orphan]) == [message]


def test_5_mixed_inserts_and_removals() -> None:
    items = [
        function_call("f1"),
        {"type": "custom_tool_call_output", "call_id": "c2", "output": "orphan"},
        custom_call("t1"),
        shell_call("s1"),
    ]
    assert replay_input(items) == [
        function_call("f1"),
        aborted("function_call_output", "f1"),
        custom_call("t1"),
        aborted("custom_tool_call_output", "t1"),
        shell_call("s1"),
        aborted("function_call_output", "s1"),
    ]


def test_6_function_call_with_id_gets_output_with_codex_id() -> None:
    call = function_call("call_1", "fc_1")
    assert replay_input([call]) == [
        call,
        aborted("function_call_output", "call_1", "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4"),
    ]


def test_7_synthetic_id_is_stable_across_projections_without_reordering() -> None:
    history = [user_message("go"), function_call("call_9", "fc_b67b889bf314b375")]
    history.append(user_message("later"))
    first = replay_input(history)
    second = replay_input(history)
    assert first == second
    assert [item["type"] for item in first] == [
        "message",
        "function_call",
        "function_call_output",
        "message",
    ]
    assert first[2]["id"] == "fco_d354f698-e2e8-5a2e-b90e-4960c3e3f224"
    assert first[3] == user_message("later")


@pytest.mark.parametrize("execution", ["client", None])
def test_8_client_tool_search_call_gets_empty_completed_search(execution: str | None) -> None:
    call = tool_search_call("search_1", "tsc_1", execution)
    assert replay_input([call]) == [
        call,
        {
            "type": "tool_search_output",
            "id": "tso_f380c6b3-5815-5031-91ee-dd1c77f963ee",
            "call_id": "search_1",
            "execution": "client",
            "status": "completed",
            "tools": [],
        },
    ]


# --- our own choices ------------------------------------------------------------------


def test_the_three_call_kinds_are_exactly_the_catalogue_replay_calls() -> None:
    replayed = {
        t: spec.call.replay_output
        for t, spec in ITEM_TYPES.items()
        if spec.call is not None and spec.call.replay_output
    }
    assert replayed == {
        "function_call": ("function_call_output", "fco"),
        "local_shell_call": ("function_call_output", "fco"),
        "custom_tool_call": ("custom_tool_call_output", "ctco"),
        "tool_search_call": ("tool_search_output", "tso"),
    }


def test_custom_call_with_id_gets_ctco_id() -> None:
    replayed = replay_input([custom_call("call_c", "ctc_1")])
    assert replayed[1]["id"] == "ctco_ffd2c872-81a7-5a00-b6f6-884096d1f522"


def test_existing_outputs_are_kept_in_place_and_nothing_is_inserted() -> None:
    items = [
        function_call("a", "fc_a"),
        custom_call("b", "ctc_b"),
        user_message("between"),
        {"type": "custom_tool_call_output", "call_id": "b", "output": "done b"},
        {"type": "function_call_output", "call_id": "a", "output": "done a"},
    ]
    assert replay_input(items) == items


def test_output_before_its_call_is_not_moved() -> None:
    items = [
        {"type": "function_call_output", "call_id": "a", "output": "early"},
        function_call("a", "fc_a"),
    ]
    assert replay_input(items) == items


def test_function_output_answers_local_shell_call_and_is_not_orphan() -> None:
    items = [shell_call("s1", "lsh_1"), {"type": "function_call_output", "call_id": "s1"}]
    assert replay_input(items) == items


def test_local_shell_call_output_answers_its_call_through_its_id() -> None:
    items = [
        shell_call("s1", "lsh_1"),
        {"type": "local_shell_call_output", "id": "s1", "output": '{"stdout":""}'},
    ]
    assert replay_input(items) == items


def test_output_of_the_wrong_kind_does_not_answer_a_call() -> None:
    items = [custom_call("x"), {"type": "function_call_output", "call_id": "x", "output": "o"}]
    # The function output names no function or shell call: orphan; the custom call is open.
    assert replay_input(items) == [custom_call("x"), aborted("custom_tool_call_output", "x")]


def test_server_tool_search_items_are_kept_and_get_no_output() -> None:
    items = [
        tool_search_call(None, "tsc_s", "server"),
        {
            "type": "tool_search_output",
            "id": "tso_s",
            "call_id": None,
            "execution": "server",
            "status": "completed",
            "tools": [],
        },
        {"type": "tool_search_output", "call_id": "nope", "execution": "server", "tools": []},
    ]
    assert replay_input(items) == items


def test_server_tool_search_call_with_call_id_gets_no_output() -> None:
    call = tool_search_call("srv", "tsc_s", "server")
    assert replay_input([call]) == [call]


@pytest.mark.parametrize("call_id", [None, ""])
def test_call_without_call_id_gets_no_output(call_id: str | None) -> None:
    call: Item = {"type": "function_call", "id": "fc_1", "call_id": call_id, "arguments": "{}"}
    assert replay_input([call]) == [call]


def test_output_without_call_id_is_kept() -> None:
    output: Item = {"type": "tool_search_output", "id": "tso_1", "tools": []}
    assert replay_input([output]) == [output]


def test_call_with_empty_id_gets_output_without_id() -> None:
    replayed = replay_input([function_call("c", "")])
    assert replayed[1] == aborted("function_call_output", "c")


def test_stray_item_level_fields_are_removed_nested_ones_kept() -> None:
    item: Item = {
        "type": "message",
        "id": "msg_1",
        "item_id": "msg_1",
        "output_index": 0,
        "role": "assistant",
        "content": [{"type": "output_text", "text": "hi", "item_id": "kept", "annotations": []}],
    }
    call = function_call("c1", "fc_1") | {"output_index": 1, "item_id": "fc_1"}
    output: Item = {"type": "function_call_output", "call_id": "c1", "output": "r"}
    assert replay_input([item, call, output | {"output_index": 2}]) == [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [
                {"type": "output_text", "text": "hi", "item_id": "kept", "annotations": []}
            ],
        },
        function_call("c1", "fc_1"),
        output,
    ]


def test_input_is_not_mutated_and_result_shares_nothing() -> None:
    items = [
        user_message("go") | {"output_index": 0},
        function_call("f1", "fc_1"),
        {"type": "function_call_output", "call_id": "orphan", "output": "x"},
        tool_search_call("s", "tsc_1", "client"),
    ]
    before = copy.deepcopy(items)
    replayed = replay_input(iter(items))
    assert items == before
    replayed[0]["content"][0]["text"] = "changed"
    replayed[-1]["tools"].append("changed")
    assert items == before
    assert replay_input(items)[-1]["tools"] == []


def test_empty_history_replays_to_empty_input() -> None:
    assert replay_input([]) == []
