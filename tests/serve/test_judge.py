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
from responses_oracle.serve.scenarios import Scenario, load_scenario

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


def _one_call(replayed: dict[str, Any], output: str = "responses-oracle-1") -> Any:
    """The judge's verdicts on ONE_CALL mapped onto echo, the next request replaying
    ``replayed`` (over the oracle's call) with an output that shows ``output``."""
    mapped = map_scenario(ONE_CALL, [ECHO])
    served = Served(Scenario("one", tuple(ONE_CALL)), mapped, 0, _request(0, [])["body"])
    call = {**CALL, "name": "echo", "arguments": '{"text":"responses-oracle-1"}', **replayed}
    replay = [call, {"type": "function_call_output", "call_id": call["call_id"],
                     "output": output}]
    return judge([served], [_request(0, []), _request(1, replay)]).call("call_1")


def test_arguments_re_serialised_by_the_client_hold_with_a_note() -> None:
    # llm re-serialises a call's arguments with json.dumps: a space after the colon.
    call = _one_call({"arguments": '{"text": "responses-oracle-1"}'})
    history = call.verdicts[1]
    assert history.value is True, history.reason
    assert history.notes == (
        "arguments '{\"text\": \"responses-oracle-1\"}': JSON-equal to the oracle's "
        "'{\"text\":\"responses-oracle-1\"}', other bytes",)
    assert not call.failed


def test_an_id_the_provider_never_gave_the_call_is_not_faithful() -> None:
    history = _one_call({"id": "fc_made_up"}).verdicts[1]
    assert history.value is False
    assert history.reason == "id 'fc_made_up', which the provider never gave this call " \
        "(the oracle's is 'fc_1')"


def test_arguments_other_than_the_oracles_are_faithful_to_what_ran() -> None:
    # The tool ran with other arguments (executed fails) and the history says so:
    # one cause, one failure.
    call = _one_call({"arguments": '{"text":"responses-oracle-2"}'}, "responses-oracle-2")
    executed, history, _ = call.verdicts
    assert executed.value is False
    assert executed.reason.startswith("ran with other arguments: the output shows "
                                      "responses-oracle-2")
    assert history.value is True, history.reason
    assert history.notes == ("arguments '{\"text\":\"responses-oracle-2\"}': the arguments "
                             "that ran (the output shows responses-oracle-2), not the "
                             "oracle's '{\"text\":\"responses-oracle-1\"}'",)


def test_a_replay_of_arguments_that_did_not_run_is_not_faithful() -> None:
    history = _one_call({"arguments": "{}"}).verdicts[1]
    assert history.value is False
    assert history.reason == "arguments '{}', the oracle's is " \
        "'{\"text\":\"responses-oracle-1\"}' and the output shows responses-oracle-1 ran"


def test_the_id_of_the_providers_final_response_is_one_it_gave_the_call() -> None:
    # r5 (GitHub Copilot): every event names the call by a new id; openai-java replays
    # the one the final response carries (enc_6), the oracle keeps the first (enc_1).
    events = [*load_scenario("rule-test_r5_copilot_rotating_ids_route_by_slot").events]
    mapped = map_scenario(events, [ECHO])
    served = Served(Scenario("r5", tuple(events)), mapped, 0, _request(0, [])["body"])
    [oracle] = served.calls
    assert oracle.item["id"] == "enc_1"
    assert oracle.given_ids == ("enc_1", "enc_2", "enc_3", "enc_4", "enc_5", "enc_6")
    final = {**oracle.item, "id": "enc_6"}
    replay = [final, {"type": "function_call_output", "call_id": final["call_id"],
                      "output": "responses-oracle-1"}]
    verdicts = judge([served], [_request(0, []), _request(1, replay)])
    history = verdicts.call("call_1").verdicts[1]
    assert history.value is True, history.reason
    assert history.notes == ("id 'enc_6', another id the provider gave this call; the "
                             "oracle keeps 'enc_1' (R6)",)
    assert verdicts.ok


def test_an_output_without_the_marker_is_quoted_as_the_client_ran_it() -> None:
    # A shell tool shows what ran: here its output holds no marker (a command run with
    # null arguments answers an error); the reason quotes it, never "it ran".
    exec_command = OfferedTool("exec_command", "function", {
        "type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]})
    mapped = map_scenario(ONE_CALL, [exec_command])
    served = Served(Scenario("one", tuple(ONE_CALL)), mapped, 0, _request(0, [])["body"])
    [mapping] = mapped.to_dict()
    call = {**CALL, "name": "exec_command", "arguments": mapping["arguments"][CALL["arguments"]]}
    replay = [call, {"type": "function_call_output", "call_id": "call_1",
                     "output": "exec_command: cmd is null"}]
    verdicts = judge([served], [_request(0, []), _request(1, replay)])
    executed = verdicts.call("call_1").verdicts[0]
    assert executed.value is False
    assert executed.reason == "the output shows no marker of the oracle's arguments: " \
        "it reads \"exec_command: cmd is null\""


def test_a_call_that_may_not_run_left_out_of_the_history_is_no_harm() -> None:
    # r9: call_1 is never confirmed (no done item), call_2 is.  A client that runs and
    # replays call_2 and leaves call_1 out sends no call without its output and no
    # output without its call: no harm to the history.
    name = "r9_unconfirmed_items_are_kept_but_not_executable"
    events = list(load_scenario(name).played())
    ping = OfferedTool("ping", "function", {"type": "object", "properties": {}})
    mapped = map_scenario(events, [ping])
    served = Served(Scenario(name, tuple(events)), mapped, 0, _request(0, [])["body"])
    unconfirmed, confirmed = served.calls
    assert (unconfirmed.executable, confirmed.executable) == (False, True)
    replay = [{**confirmed.item, "name": "ping"},
              {"type": "function_call_output", "call_id": "call_2",
               "output": "responses-oracle-0"}]
    verdicts = judge([served], [_request(0, []), _request(1, replay)])
    history = verdicts.call("call_1").verdicts[1]
    assert (history.value, history.reason) == (
        None, "not executable, neither replayed nor answered: nothing to pair")
    assert verdicts.ok


def test_fields_the_provider_put_in_the_item_replayed_as_sent_are_valid_with_a_note() -> None:
    # Bedrock Mantle (id-as-item-id): the done item names item_id and output_index and no
    # id; rig replays it as it came (#42's re-judgement), sending Mantle its own fields.
    mantle = {k: v for k, v in CALL.items() if k != "id"} | {"item_id": "fc_1",
                                                               "output_index": 0}
    events = [*ONE_CALL[:2],
              {"type": "response.output_item.done", "output_index": 0, "item": mantle},
              {"type": "response.completed", "response": {
                  "id": "resp_1", "status": "completed", "output": [mantle]}}]
    mapped = map_scenario(events, [ECHO])
    served = Served(Scenario("mantle", tuple(events)), mapped, 0, _request(0, [])["body"])
    as_sent = {**mantle, "name": "echo", "arguments": '{"text":"responses-oracle-1"}'}
    output = {"type": "function_call_output", "call_id": "call_1",
              "output": "responses-oracle-1"}
    api_valid = judge([served], [_request(0, []), _request(1, [as_sent, output])]).call(
        "call_1").verdicts[2]
    assert api_valid.value is True
    assert api_valid.notes == ("item_id, output_index replayed as the provider sent them in "
                               "this item (not checked against the API's request schema)",)
    # A field the provider did not send in this item is still checked.
    invented = {**as_sent, "sequence_number": 3}
    api_valid = judge([served], [_request(0, []), _request(1, [invented, output])]).call(
        "call_1").verdicts[2]
    assert api_valid.value is False and "'sequence_number' was unexpected" in api_valid.reason
