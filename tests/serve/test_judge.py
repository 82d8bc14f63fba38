"""The judge's reasons say what happened: pure judge runs on hand-made requests.

A validation error a library returns to the model is quoted, never called a run;
an unserved scenario says "no request offered tools" only when none did, and the
agents runner's cell says a scenario serve could not play was not played.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from responses_oracle.agents.served_verdicts import load_verdicts
from responses_oracle.serve.judge import Served, judge
from responses_oracle.serve.mapping import OfferedTool, map_scenario
from responses_oracle.serve.scenarios import Scenario

ECHO = OfferedTool("echo", "function", {
    "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
TOOLS = [{"type": "function", "name": "echo", "parameters": dict(ECHO.parameters)}]

CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": '{"city":"Paris"}', "status": "completed"}
ONE_CALL = [
    {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                              "output": []}},
    {"type": "response.output_item.added", "output_index": 0,
     "item": {**CALL, "status": "in_progress"}},
    {"type": "response.output_item.done", "output_index": 0, "item": CALL},
    {"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
                                                "output": [CALL]}},
]
"""One call, mapped onto ``echo(text)``: ``{"text":"responses-oracle-1"}``."""


def _request(index: int, items: list[dict[str, Any]], tools: bool = True) -> dict[str, Any]:
    body = {"model": "m", "input": items, **({"tools": TOOLS} if tools else {})}
    return {"index": index, "path": "/v1/responses", "body": body}


def test_a_validation_error_returned_to_the_model_is_quoted_not_called_a_run() -> None:
    mapped = map_scenario(ONE_CALL, [ECHO])
    served = Served(Scenario("one", tuple(ONE_CALL)), mapped, 0, _request(0, [])["body"])
    error = "1 validation error for echo\ntext\n  Field required"
    replay = [{**CALL, "name": "echo", "arguments": "{}"},
              {"type": "function_call_output", "call_id": "call_1", "output": error}]
    verdicts = judge([served], [_request(0, []), _request(1, replay)])
    executed = verdicts.call("call_1").verdicts[0]
    assert executed.value is False
    assert executed.reason == (
        "the replayed arguments \"{}\" differ from the oracle's \"{\\\"text\\\":\\\""
        "responses-oracle-1\\\"}\", and the output shows no marker of what ran: it reads "
        "\"1 validation error for echo\\ntext\\n  Field required\"")
    assert "it ran" not in executed.reason


def test_unserved_says_no_request_offered_tools_only_when_none_did() -> None:
    scenario = Scenario("q05", tuple(ONE_CALL))
    none_offered = judge([], [_request(0, [], tools=False)], unserved=["q05"])
    assert none_offered.failures() == ["q05: never served (no request offered tools)"]
    one_offered = judge([], [_request(0, [])], unserved=[scenario.name])
    assert one_offered.unserved_because == (
        "1 request offered tools, and each got an earlier scenario or continued one")
    assert one_offered.to_dict()["tools_offered"] == 1


def test_a_scenario_serve_could_not_map_is_not_called_unoffered(tmp_path: Path) -> None:
    # codex r12: every request offered seven tools, none of them a custom tool.
    error = ("rule-test_r12: no offered custom tool can take the custom_tool_call "
             "'apply_patch' harmlessly (offered: exec_command, write_stdin)")
    verdicts = judge([], [_request(0, []), _request(1, [])], errors=[error])
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(verdicts.to_dict()))
    served = load_verdicts(path)
    assert served.problem == f"serve could not play the scenario: {error}"
    assert "no request offered tools" not in served.problem
