"""Who runs a call (``model/execution.py``): each gate, each declaration, and the verdicts
on the captures that show them (``xai__xai-x-search-tool``, the hosted shells, the tool
searches, a local shell echoed with no tools), read naively from each stream's evidence
and given by the reducer in every result item's ``execution``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES
from responses_oracle import reduce
from responses_oracle.model.catalogue import ITEM_TYPES, TOOL_TYPES, tool_type
from responses_oracle.model.execution import (
    CLIENT_CALLS,
    EXECUTABLE,
    LOADED_TOOLS,
    OUTPUT_OF,
    CallFacts,
    Execution,
    answered_ordinals,
    decide,
    declared_tools,
)
from responses_oracle.wire import read_wire_events

pytestmark = pytest.mark.rule("R13")

_FN = {"type": "function_call", "name": "get_weather", "call_id": "call_1"}


def _facts(
    call: dict[str, Any], declared: list[dict[str, Any]] | None, **changes: Any
) -> CallFacts:
    fields: dict[str, Any] = {
        "item": call,
        "completed": True,
        "confirmed": True,
        "call_id": call.get("call_id"),
        "answered": False,
        "tools": declared_tools(declared),
    }
    fields.update(changes)
    return CallFacts(**fields)


def _local_shell_turn(output: dict[str, Any]) -> list[dict[str, Any]]:
    """A completed response holding a local shell call and ``output``, tools declared."""
    call = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "call_ls",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    response = {"id": "resp_1", "status": "in_progress", "tools": [{"type": "local_shell"}]}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    for index, item in enumerate((call, output)):
        events += [
            {"type": "response.output_item.added", "output_index": index, "item": item},
            {"type": "response.output_item.done", "output_index": index, "item": item},
        ]
    done = {**response, "status": "completed", "output": [call, output]}
    return [*events, {"type": "response.completed", "response": done}]


def test_a_local_shell_call_is_answered_by_the_output_whose_id_is_its_call_id() -> None:
    # openai-python 3.57 (the client the tests pin): the output has no call_id, and its
    # id is documented in the very words of the call's call_id (protocol-notes §3.1).
    from openai.types.responses import response_output_item as wire

    assert "call_id" not in wire.LocalShellCallOutput.model_fields
    assert (
        wire.LocalShellCallOutput.model_fields["id"].description
        == wire.LocalShellCall.model_fields["call_id"].description
    )
    spec = CLIENT_CALLS["local_shell_call"]
    assert (spec.output, spec.output_key) == ("local_shell_call_output", "id")
    output = {"type": "local_shell_call_output", "id": "call_ls", "output": "{}"}
    (result,) = reduce(_local_shell_turn(output))
    assert result.items[0].execution is Execution.ANSWERED
    other = {**output, "id": "call_other"}
    (result,) = reduce(_local_shell_turn(other))
    assert result.items[0].execution is Execution.CLIENT


@dataclass(frozen=True)
class _Item:
    ordinal: int
    item_type: str
    call_id: str | None = None
    item_id: str | None = None


def test_an_output_answers_the_calls_its_key_names() -> None:
    items = [
        _Item(0, "function_call", "call_a"),
        _Item(1, "function_call", "call_b"),
        _Item(2, "function_call_output", "call_b"),
        _Item(3, "local_shell_call", "call_ls"),
        _Item(4, "local_shell_call_output", None, "call_ls"),
        _Item(5, "shell_call", "call_sh"),
        _Item(6, "function_call_output", "call_sh"),  # another type's output: no answer
    ]
    assert answered_ordinals(items) == {1, 3}


def test_an_output_naming_no_call_answers_the_nearest_call_before_it_naming_none() -> None:
    # OpenAI's and Azure's server-run tool search (the AI SDK's and pydantic-ai's
    # captures): the call and then its output, both with call_id null.
    first, second = _Item(0, "tool_search_call"), _Item(2, "tool_search_call")
    out = _Item(3, "tool_search_output")
    assert answered_ordinals([first, _Item(1, "tool_search_output"), second, out]) == {0, 2}
    # The nearest one, not the first: one output, two searches before it.
    assert answered_ordinals([first, second, out]) == {2}
    # Never a call after it, one with a call_id, nor one already answered.
    after = [_Item(0, "tool_search_output"), _Item(1, "tool_search_call")]
    assert answered_ordinals(after) == set()
    named = _Item(0, "tool_search_call", "call_ts")
    assert answered_ordinals([named, _Item(1, "tool_search_output")]) == set()
    assert answered_ordinals([first, _Item(1, "tool_search_output"), out]) == {0}
    # A local shell output is keyed by its id: one without an id pairs with nothing.
    shell = [_Item(0, "local_shell_call"), _Item(1, "local_shell_call_output")]
    assert answered_ordinals(shell) == set()


def test_a_captured_tool_searchs_verdict_is_unchanged_by_its_pairing() -> None:
    # The pairing changes no verdict: a call naming no call_id stops at gate 4.
    path = FIXTURES / "peers/ai-sdk/openai__openai-tool-search.1.jsonl"
    events = [e.payload for e in read_wire_events(path) if e.payload is not None]
    (result,) = reduce(events)
    search = next(item for item in result.items if item.item["type"] == "tool_search_call")
    assert search.execution is Execution.NO_CALL_ID


def test_the_call_types_are_the_catalogue_client_calls_and_outputs_pair_one_to_one() -> None:
    assert set(CLIENT_CALLS) == {kind for kind, spec in ITEM_TYPES.items() if spec.client_call}
    assert len(OUTPUT_OF) == len(CLIENT_CALLS)
    assert set(OUTPUT_OF) <= set(ITEM_TYPES)
    assert {OUTPUT_OF[call.output] for call in CLIENT_CALLS.values()} == set(CLIENT_CALLS)
    assert {Execution.CLIENT, Execution.TOOLS_UNKNOWN} == EXECUTABLE


@pytest.mark.parametrize(
    ("changes", "verdict"),
    [
        ({"item": {"type": "message"}}, Execution.NOT_A_CALL),
        ({"item": {"type": "web_search_call", "call_id": "c"}}, Execution.NOT_A_CALL),
        ({"completed": False}, Execution.NOT_COMPLETED),
        ({"confirmed": False}, Execution.UNCONFIRMED),
        ({"call_id": None}, Execution.NO_CALL_ID),
        ({"answered": True}, Execution.ANSWERED),
        ({"tools": None}, Execution.TOOLS_UNKNOWN),
        ({}, Execution.CLIENT),
    ],
)
def test_each_gate_names_its_verdict(changes: dict[str, Any], verdict: Execution) -> None:
    tools = [{"type": "function", "name": "get_weather"}]
    assert decide(_facts(_FN, tools, **changes)) is verdict


@pytest.mark.parametrize(
    ("item", "tools", "verdict"),
    [
        # function / custom: by name, namespaces and loaded tools included
        (_FN, [{"type": "function", "name": "other"}], Execution.UNDECLARED),
        (_FN, [{"type": "custom", "name": "get_weather"}], Execution.UNDECLARED),
        (
            {**_FN, "namespace": "weather"},
            [{"type": "namespace", "name": "weather", "tools": [{"type": "function",
                                                                "name": "get_weather"}]}],
            Execution.CLIENT,
        ),
        (
            {**_FN, "namespace": "other"},
            [{"type": "namespace", "name": "weather", "tools": [{"type": "function",
                                                                "name": "get_weather"}]}],
            Execution.UNDECLARED,
        ),
        ({**_FN, "namespace": "get_weather"}, [{"type": "function", "name": "get_weather"}],
         Execution.CLIENT),
        ({"type": "custom_tool_call", "name": "x_keyword_search", "call_id": "xs_call_1"},
         [{"type": "x_search"}], Execution.UNDECLARED),
        # shell: by the declared environment
        ({"type": "shell_call", "call_id": "c"}, [{"type": "shell"}], Execution.CLIENT),
        ({"type": "shell_call", "call_id": "c"},
         [{"type": "shell", "environment": {"type": "local"}}], Execution.CLIENT),
        ({"type": "shell_call", "call_id": "c"},
         [{"type": "shell", "environment": {"type": "container_auto"}}], Execution.SERVER),
        ({"type": "shell_call", "call_id": "c"},
         [{"type": "shell", "environment": {"type": "container_reference"}}], Execution.SERVER),
        ({"type": "shell_call", "call_id": "c"},
         [{"type": "shell", "environment": {"type": "a_future_sandbox"}}], Execution.SERVER),
        ({"type": "shell_call", "call_id": "c"}, [{"type": "function", "name": "f"}],
         Execution.UNDECLARED),
        # local shell, computer, apply_patch: by the tool type
        ({"type": "apply_patch_call", "call_id": "c"}, [{"type": "apply_patch"}],
         Execution.CLIENT),
        ({"type": "computer_call", "call_id": "c"}, [{"type": "computer_use_preview"}],
         Execution.CLIENT),
        ({"type": "local_shell_call", "call_id": "c"}, [{"type": "shell"}],
         Execution.UNDECLARED),
        # tool search: by its own execution, else the declared tool's
        ({"type": "tool_search_call", "call_id": "c", "execution": "client"},
         [{"type": "tool_search", "execution": "client"}], Execution.CLIENT),
        ({"type": "tool_search_call", "call_id": "c", "execution": "server"},
         [{"type": "tool_search"}], Execution.SERVER),
        ({"type": "tool_search_call", "call_id": "c"},
         [{"type": "tool_search", "execution": "client"}], Execution.CLIENT),
        ({"type": "tool_search_call", "call_id": "c"}, [{"type": "tool_search"}],
         Execution.SERVER),
    ],
)
def test_each_declaration_is_read_its_own_way(
    item: dict[str, Any], tools: list[dict[str, Any]], verdict: Execution
) -> None:
    assert decide(_facts(item, tools)) is verdict


@pytest.mark.parametrize(
    ("wire", "meant"),
    [
        ("computer_use_preview", "computer"),
        ("computer-use-preview-2025-03-11", "computer"),
        ("computer_use_preview_2025_03_11", "computer"),
        ("computer", "computer"),
        ("web_search_preview", "web_search"),
        ("web_search_preview_2025_03_11", "web_search"),
        ("web_search_2025_08_26", "web_search"),
        ("Code-Interpreter", "code_interpreter"),
        ("image_generation_v2", "image_generation"),
        ("x_search", "x_search"),
        ("robot_arm", None),
        ("preview", None),
        ("2025_03_11", None),
        (None, None),
        (7, None),
    ],
)
def test_a_declared_tool_type_is_read_by_meaning(wire: object, meant: str | None) -> None:
    assert tool_type(wire) == meant


def test_every_client_call_tool_type_is_a_catalogued_tool_type() -> None:
    # A ClientCall names tool types as TOOL_TYPES says them, never a wire form.
    named = {kind for call in CLIENT_CALLS.values() for kind in call.tool_types}
    assert named <= set(TOOL_TYPES.values())


def _computer_turn(tool_type_echoed: str) -> list[dict[str, Any]]:
    """A completed response with one confirmed computer call, the tool echoed as told."""
    call = {
        "type": "computer_call",
        "id": "cu_1",
        "call_id": "call_cu",
        "status": "completed",
        "action": {"type": "screenshot"},
        "pending_safety_checks": [],
    }
    response = {"id": "resp_1", "status": "in_progress", "tools": [{"type": tool_type_echoed}]}
    return [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {**response, "output": [call]}},
    ]


def test_a_computer_call_whose_response_echoes_a_dated_tool_type_is_executable() -> None:
    # The request declared computer_use_preview; the response echoes the dated form.
    (result,) = reduce(_computer_turn("computer-use-preview-2025-03-11"))
    assert [(i.executable, i.execution) for i in result.items] == [(True, Execution.CLIENT)]
    assert result.diagnostics == ()


def test_an_unknown_declared_tool_type_is_named_and_its_call_says_so() -> None:
    (result,) = reduce(_computer_turn("robot_arm_2027_01_01"))
    assert [(i.executable, i.execution) for i in result.items] == [
        (False, Execution.UNKNOWN_TOOL_TYPE)
    ]
    diagnostic, withheld = result.diagnostics
    assert diagnostic.code.value == "unknown_tool_type"
    assert "'robot_arm_2027_01_01'" in diagnostic.detail
    assert (withheld.code.value, withheld.detail) == (
        "call_withheld",
        "entry 0 (computer_call call_id 'call_cu') is not executable: unknown_tool_type",
    )
    # A call a known declared tool names keeps its verdict beside an unknown tool.
    call = {"type": "function_call", "name": "get_weather", "call_id": "call_1"}
    declared = [{"type": "robot_arm"}, {"type": "function", "name": "get_weather"}]
    assert decide(_facts(call, declared)) is Execution.CLIENT
    assert decide(_facts({**call, "name": "other"}, declared)) is Execution.UNKNOWN_TOOL_TYPE
    assert decide(_facts({**call, "name": "other"}, declared[1:])) is Execution.UNDECLARED


def test_an_empty_or_missing_tools_list_declares_nothing() -> None:
    assert declared_tools(None) is None
    assert declared_tools([]) is None
    assert declared_tools("tools") is None
    loaded = [{"type": "function", "name": "get_weather"}]
    assert declared_tools([{"type": "tool_search"}], loaded) == (
        {"type": "tool_search"},
        {"type": "function", "name": "get_weather"},
    )


def _runs(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    runs: list[list[dict[str, Any]]] = []
    for event in events:
        if event.get("type") == "response.created" or not runs:
            runs.append([])
        runs[-1].append(event)
    return runs


def evidence_verdicts(path: Path) -> list[tuple[str, str | None, Execution]]:
    """(type, name, verdict) of every call of every response, from the stream's own
    evidence read naively: the last ``response.tools`` seen, every item the stream
    carries (added, done, snapshot) for the outputs and the loaded tools."""
    events = [e.payload for e in read_wire_events(path) if e.payload is not None]
    out = []
    for run, result in zip(_runs(events), reduce(path), strict=True):
        tools = None
        seen = []
        for event in run:
            response = event.get("response")
            if isinstance(response, dict):
                tools = response.get("tools", tools)
                seen += [i for i in response.get("output") or [] if isinstance(i, dict)]
            if isinstance(event.get("item"), dict):
                seen.append(event["item"])
        answered = {
            i.get(CLIENT_CALLS[OUTPUT_OF[i["type"]]].output_key)
            for i in seen
            if i.get("type") in OUTPUT_OF
        }
        loaded = [t for i in seen if i.get("type") == LOADED_TOOLS for t in i.get("tools") or []]
        for entry in result.items:
            if entry.item["type"] not in CLIENT_CALLS:
                continue
            facts = CallFacts(
                entry.item,
                result.status.value == "completed",
                entry.state.value == "completed",
                entry.item.get("call_id"),
                entry.item.get("call_id") in answered,
                declared_tools(tools, loaded),
            )
            out.append((entry.item["type"], entry.item.get("name"), decide(facts)))
    return out


_C, _U, _S = Execution.CLIENT, Execution.UNDECLARED, Execution.SERVER

EVIDENCE: dict[str, list[tuple[str, str | None, Execution]]] = {
    "captures/vercel-ai/xai__xai-x-search-tool.jsonl": [
        ("custom_tool_call", "x_keyword_search", _U),
        ("custom_tool_call", "view_x_video", _U),
    ],
    "captures/vercel-ai/openai__openai-shell-skills.1.jsonl": [
        ("shell_call", None, Execution.ANSWERED),
        ("shell_call", None, Execution.ANSWERED),
    ],
    "captures/vercel-ai/openai__openai-shell-container.1.jsonl": [
        ("shell_call", None, Execution.ANSWERED),
    ],
    "captures/vercel-ai/openai__openai-shell-tool.1.jsonl": [("shell_call", None, _C)],
    "captures/vercel-ai/openai__openai-local-shell-tool.1.jsonl": [
        ("local_shell_call", None, Execution.TOOLS_UNKNOWN),
    ],
    "captures/vercel-ai/openai__openai-apply-patch-tool.1.jsonl": [("apply_patch_call", None, _C)],
    "peers/ai-sdk/openai__openai-tool-search.1.jsonl": [
        ("tool_search_call", None, Execution.NO_CALL_ID),
        ("function_call", "get_weather", _C),
    ],
    "captures/pydantic-ai/test_openai_client_tool_search_streaming.i0.jsonl": [
        ("tool_search_call", None, _C),
    ],
    "peers/ai-sdk/openai__openai-custom-tool.1.jsonl": [("custom_tool_call", "write_sql", _C)],
}
"""What the evidence says about the captures issue #11 names."""


@pytest.mark.parametrize("name", sorted(EVIDENCE))
def test_the_evidence_decides_who_runs_each_captured_call(name: str) -> None:
    assert evidence_verdicts(FIXTURES / name) == EVIDENCE[name]


@pytest.mark.parametrize("name", sorted(EVIDENCE))
def test_the_reducer_gives_each_call_the_evidence_verdict(name: str) -> None:
    results = reduce(FIXTURES / name)
    got = [
        (entry.item["type"], entry.item.get("name"), entry.execution)
        for result in results
        for entry in result.items
        if entry.item["type"] in CLIENT_CALLS
    ]
    assert got == EVIDENCE[name]
    assert all(
        entry.executable == (entry.execution in EXECUTABLE)
        for result in results
        for entry in result.items
    )
