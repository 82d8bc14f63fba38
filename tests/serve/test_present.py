"""serve plays each scenario as a provider's stream with exactly its declared deviations.

Every built-in scenario is played through a running ``serve`` (one streamed request per
scenario, tools offered as a driver offers them) and each event it sent is checked
against the shape data (``serve/shapes.json``) and against openai-python's own
``ResponseStreamEvent`` types: a missing field the scenario does not declare, or any
other type error, fails.  Presenting never changes the oracle's answer.
"""

from __future__ import annotations

import json
import re
import sys
import typing
import urllib.error
import urllib.request
from typing import Any

import pytest
from helpers import REPO
from pydantic import ValidationError
from responses_oracle.agents.scenario_list import builtin
from responses_oracle.model.deviations import DEVIATIONS, absent_fields
from responses_oracle.reducer import reduce
from responses_oracle.serve import load_scenario, running
from responses_oracle.serve.present import AS_GIVEN, Presentation, present, served_problems
from responses_oracle.serve.shapes import item_stage, unsent

openai_types = pytest.importorskip("openai.types.responses")

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "name": "echo", "description": "Return the text unchanged.",
     "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                    "required": ["text"], "additionalProperties": False}},
    {"type": "function", "name": "ping", "description": "Answer pong.",
     "parameters": {"type": "object", "properties": {}, "additionalProperties": False}},
    {"type": "custom", "name": "note", "description": "Keep a note (free text)."},
]
"""What the drivers offer: a tool with a parameter, a zero-parameter tool, a custom tool."""

SCENARIOS = builtin()


def _members() -> dict[str, Any]:
    union = openai_types.ResponseStreamEvent
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return {
        name: model
        for model in typing.get_args(union)
        for name in typing.get_args(model.model_fields["type"].annotation)
    }


MEMBERS = _members()

CLASS_TYPES: dict[str, tuple[Any, ...]] = {
    name: typing.get_args(model.model_fields["type"].annotation)
    for module in list(sys.modules.values())
    if getattr(module, "__name__", "").startswith("openai.types.responses")
    for name, model in vars(module).items()
    if isinstance(model, type) and "type" in getattr(model, "model_fields", {})
}
"""openai-python's class name → its ``type`` literal(s): a union's errors name the
member class in their ``loc``; only the member of the object's own type is its error."""


def _own_member(event: dict[str, Any], loc: tuple[Any, ...]) -> bool:
    """Whether every union member named in ``loc`` is the one of the object's type."""
    node: Any = event
    for part in loc:
        if isinstance(part, str) and part in CLASS_TYPES:
            if not isinstance(node, dict) or node.get("type") not in CLASS_TYPES[part]:
                return False
            continue
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
    return True


def type_errors(event: dict[str, Any], presentation: Presentation) -> list[str]:
    """openai-python's validation errors on ``event`` less the fields the scenario
    declares absent and those the API itself sends without (``shapes.unsent``)."""
    model = MEMBERS.get(event["type"])
    if model is None:
        return [f"{event['type']}: no such event type in openai-python"]
    try:
        model.model_validate(event)
    except ValidationError as error:
        found = []
        for problem in error.errors():
            if not _own_member(event, problem["loc"]):
                continue
            path = ".".join(
                f"[{part}]" if isinstance(part, int) else str(part)
                for part in problem["loc"]
                if not (isinstance(part, str) and part[:1].isupper())  # union member names
            ).replace(".[", "[")
            item = event.get("item") if isinstance(event.get("item"), dict) else {}
            excused = problem["type"] == "missing" and (
                presentation.keeps_absent(event["type"], path)
                or (path.startswith("item.") and path[5:] in unsent(
                    "items", str(item.get("type")), item_stage(event["type"])))
            )
            if not excused:
                found.append(f"{event['type']}: {path}: {problem['msg']}")
        return found
    return []


def post(url: str, body: dict[str, Any]) -> tuple[int, str]:
    """POST ``body`` as JSON; the HTTP status and the body text."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def sse_events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def _answer(results: list[Any]) -> list[Any]:
    return [
        (r.status, [(i.item.get("id"), i.item.get("call_id"), i.executable) for i in r.items])
        for r in results
    ]


@pytest.fixture(scope="module")
def played() -> dict[str, list[dict[str, Any]]]:
    """Every built-in scenario, played by one serve, one streamed request each."""
    out: dict[str, list[dict[str, Any]]] = {}
    with running([load_scenario(s.name) for s in SCENARIOS]) as server:
        for scenario in SCENARIOS:
            body = {"model": "gpt-5.1", "input": "go", "tools": TOOLS, "stream": True}
            _, text = post(f"{server.base_url}/responses", body)
            out[scenario.name] = sse_events(text)
        assert not server.state.errors, server.state.errors
    return out


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_every_built_in_scenario_is_served_valid_but_for_its_declared_deviations(
    scenario: Any, played: dict[str, list[dict[str, Any]]]
) -> None:
    presentation = load_scenario(scenario.name).presentation
    served = played[scenario.name]
    assert served and presentation is not AS_GIVEN
    assert not [str(p) for p in served_problems(served, presentation)]
    assert not [e for event in served for e in type_errors(event, presentation)]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_every_deviation_is_declared_with_who_sends_it(scenario: Any) -> None:
    assert scenario.by, scenario.name
    for deviation in scenario.deviations:
        spec = DEVIATIONS[deviation.name]
        assert spec.what and spec.evidence
        for absent in spec.absent:
            assert re.fullmatch(r"(\*|response\.[a-z_.]+) [a-z_\[\].]+", absent), absent


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_presenting_keeps_the_oracles_answer(scenario: Any) -> None:
    loaded = load_scenario(scenario.name)
    shown = present(loaded.played(), {"model": "m"}, loaded.presentation)
    assert _answer(reduce(shown)) == _answer(reduce(loaded.played()))


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if s.kind == "capture"],
    ids=[s.name for s in SCENARIOS if s.kind == "capture"],
)
def test_a_capture_declares_only_what_its_recording_leaves_out(scenario: Any) -> None:
    """A recording of a real provider deviates only where the recording itself does:
    every field its deviations leave absent is absent in the recording (the test above
    holds it to declaring every gap), and it holds a client call."""
    recorded = list(load_scenario(str(REPO / "fixtures" / scenario.source)).events)
    assert recorded and scenario.source.startswith("captures/")
    for absent in absent_fields(scenario.deviations):
        event, path = absent.split(" ", 1)
        sent = [e for e in recorded if event in ("*", e["type"])]
        assert not sent or any(_lacks(e, path.split(".")) for e in sent), absent
    calls = {i["type"] for e in recorded if isinstance(i := e.get("item"), dict)}
    assert calls & {"function_call", "custom_tool_call"}, scenario.name


def _lacks(node: Any, path: list[str]) -> bool:
    """Whether ``node`` has the parents of ``path`` but not its last field (``x[]``:
    some element of the list ``x``)."""
    key, *rest = path
    if not rest:
        return isinstance(node, dict) and key.removesuffix("[]") not in node
    value = node.get(key.removesuffix("[]")) if isinstance(node, dict) else None
    children = value if key.endswith("[]") and isinstance(value, list) else [value]
    return any(_lacks(child, rest) for child in children if child is not None)


def test_an_undeclared_absence_is_filled_and_a_declared_one_kept() -> None:
    mantle = load_scenario("r6_mantle_renamed_id_field_on_a_done_only_item")
    played = mantle.played()
    for event in played:
        if event["type"] == "response.output_item.done":
            del event["item"]["status"]
    done = next(e for e in present(played, {}, mantle.presentation)
                if e["type"] == "response.output_item.done")
    assert "id" not in done["item"] and done["item"]["status"] == "completed"
    filled = next(e for e in present(played, {}, Presentation())
                  if e["type"] == "response.output_item.done")
    assert "id" in filled["item"]


def test_the_minimal_vector_gets_what_the_api_sends(
    played: dict[str, list[dict[str, Any]]]
) -> None:
    """The issue's case: ``@ai-sdk/openai`` rejects a done function call without status."""
    served = played["r5_copilot_rotating_ids_route_by_slot"]
    done = next(e for e in served if e["type"] == "response.output_item.done")
    assert done["item"]["status"] == "completed"
    created = served[0]["response"]
    assert created["object"] == "response" and created["model"] == "gpt-5.1"
    assert created["tools"] == TOOLS and isinstance(created["created_at"], int)
    completed = served[-1]["response"]
    assert completed["usage"]["total_tokens"] > 0
    assert [e["sequence_number"] for e in served] == list(range(len(served)))


def test_a_cut_stream_still_ends_cut(played: dict[str, list[dict[str, Any]]]) -> None:
    assert played["s03"][-1]["type"] == "response.output_item.done"
    assert played["r9_missing_terminal_is_interrupted"][-1]["type"] == (
        "response.output_item.done"
    )


def test_a_stream_not_declared_is_played_as_given() -> None:
    recorded = load_scenario("fixtures/captures/vercel-ai/xai__xai-text-streaming.1.jsonl")
    assert recorded.presentation is AS_GIVEN
    shown = present(recorded.events, {"model": "m"}, recorded.presentation)
    strip = [{k: v for k, v in e.items() if k != "response"} for e in shown]
    assert strip == [{k: v for k, v in e.items() if k != "response"} for e in recorded.events]


@pytest.mark.parametrize(
    ("name", "status"),
    [("s01", "completed"), ("s05", "failed"), ("s06", "incomplete"), ("q05", "completed")],
)
def test_stream_false_gets_the_scenarios_own_terminal(name: str, status: str) -> None:
    scenario = load_scenario(name)
    with running([scenario]) as server:
        body = {"model": "gpt-5.1", "input": "go", "tools": TOOLS}
        status_code, text = post(f"{server.base_url}/responses", body)
        [served] = server.state.served
    assert status_code == 200
    answer = json.loads(text)
    terminal = next(e for e in served.mapped.events if e["type"].startswith("response.")
                    and e["type"].split(".")[1] in ("completed", "failed", "incomplete"))
    assert answer == terminal["response"] and answer["status"] == status
    openai_types.Response.model_validate(answer)
    if name == "q05":  # its quirk included: the snapshot's re-keyed call_id
        assert answer["output"][0]["call_id"] == "functions.get_weather:0"


@pytest.mark.parametrize("name", ["s03", "r9_missing_terminal_is_interrupted"])
def test_stream_false_on_a_stream_without_terminal_gets_a_server_error(name: str) -> None:
    with running([load_scenario(name)]) as server:
        body = {"model": "gpt-5.1", "input": "go", "tools": TOOLS}
        status_code, text = post(f"{server.base_url}/responses", body)
    assert status_code == 500
    assert json.loads(text)["error"]["type"] == "server_error"
    assert "interrupted" not in text


def test_the_zero_parameter_tools_answer_says_it_ran() -> None:
    """``ping()`` returns ``RAN_WITHOUT_ARGUMENTS``: an unconfirmed call answered with it
    ran (a FAIL), a confirmed zero-argument call answered with it ran as it should."""
    from responses_oracle.serve.mapping import RAN_WITHOUT_ARGUMENTS

    r9 = load_scenario("r9_unconfirmed_items_are_kept_but_not_executable")
    with running([r9]) as server:
        # Only call_2 is done on the wire; a client that ran call_1 too answers both.
        body = {"model": "gpt-5.1", "input": "go", "tools": TOOLS, "stream": True}
        post(f"{server.base_url}/responses", body)
        call = {"type": "function_call", "name": "ping", "arguments": "{}"}
        replay = [
            {**call, "id": "fc_1", "call_id": "call_1"},
            {**call, "id": "fc_2", "call_id": "call_2"},
            {"type": "function_call_output", "call_id": "call_1", "output": RAN_WITHOUT_ARGUMENTS},
            {"type": "function_call_output", "call_id": "call_2", "output": RAN_WITHOUT_ARGUMENTS},
        ]
        post(f"{server.base_url}/responses", {**body, "input": replay})
        verdicts = server.verdicts()
    executed = {c.call_id: c.verdicts[0] for c in verdicts.scenarios[0].calls}
    assert executed["call_1"].value is False and "it ran" in executed["call_1"].reason
    assert executed["call_2"].value is True
