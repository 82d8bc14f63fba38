"""``serve`` and the judge, end to end, with real clients driven as applications drive them.

openai-python streams the first turn (``responses.create(..., stream=True, tools=...)``),
runs each ``function_call`` of its ``response.output_item.done`` events, and sends the
history back with the outputs, as the SDK's function-calling guide shows.  openai-agents
runs ``Runner.run`` (it does not stream: ``serve`` answers JSON).  Deliberately bad
clients show that each verdict can fail.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openai
import pytest
from helpers import REPO
from responses_oracle.serve import Framing, Verdicts, load_scenario, running
from responses_oracle.serve.verdicts import VerdictName

PARALLEL = str(REPO / "examples" / "parallel-calls.sse")
WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "The weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
    "strict": True,
}

Item = dict[str, Any]


def get_weather(city: str) -> str:
    """The application's tool: it says what it was asked, as tools usually do."""
    return f"sunny in {city}"


def streamed_turn(client: openai.OpenAI, history: list[Item]) -> list[Item]:
    """One streamed turn; the items of its ``output_item.done`` events, as dicts."""
    done = []
    with client.responses.create(
        model="gpt-test", input=history, tools=[WEATHER], stream=True
    ) as stream:
        for event in stream:
            if event.type == "response.output_item.done":
                done.append(event.item.model_dump(exclude_none=True))
    return done


def two_turns(
    base_url: str,
    *,
    tamper: Callable[[list[Item]], list[Item]] = lambda items: items,
    run: Callable[[Item], bool] = lambda call: True,
    store: bool | None = None,
) -> str:
    """The application: ask, run the calls (those ``run`` allows), send it all back."""
    client = openai.OpenAI(base_url=base_url, api_key="sk-test", max_retries=0)
    history: list[Item] = [{"role": "user", "content": "Weather in Paris and Tokyo?"}]
    output = streamed_turn(client, history)
    calls = [item for item in output if item["type"] == "function_call" and run(item)]
    outputs = [
        {
            "type": "function_call_output",
            "call_id": call["call_id"],
            "output": get_weather(**json.loads(call["arguments"])),
        }
        for call in calls
    ]
    stored = {} if store is None else {"store": store}
    answer = client.responses.create(
        model="gpt-test", input=history + tamper(output) + outputs, tools=[WEATHER], **stored
    )
    return answer.output_text


def _values(verdicts: Verdicts) -> list[dict[str, bool | None]]:
    return [
        {v.name.value: v.value for v in call.verdicts}
        for scenario in verdicts.scenarios
        for call in scenario.calls
    ]


ALL_HOLD = {"executed": True, "history_faithful": True, "api_valid": True}


def test_openai_python_streaming_two_turns_holds_every_verdict(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server:
        assert two_turns(server.base_url) == "Done."
        verdicts = server.verdicts()
    assert verdicts.ok
    assert _values(verdicts) == [ALL_HOLD, ALL_HOLD]
    [scenario] = verdicts.scenarios
    assert scenario.stream and scenario.next_request == 1
    for call in scenario.calls:  # the timeline's events of each call name it
        assert call.events and all(
            call.call_id in json.dumps(scenario.events[n]) or call.expected["id"]
            in json.dumps(scenario.events[n]) for n in call.events
        )
    assert scenario.mapping[0]["tool"] == "get_weather"
    reasons = sorted(call.verdicts[0].reason for call in scenario.calls)
    assert reasons == [
        "ran with the oracle's arguments (the output shows responses-oracle-1)",
        "ran with the oracle's arguments (the output shows responses-oracle-2)",
    ]
    written = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["ok"] is True and written["scenarios"][0]["calls"][0]["executed"] is True
    logged = (tmp_path / "requests.jsonl").read_text().splitlines()
    assert len(logged) == 2 and json.loads(logged[0])["body"]["stream"] is True


def test_event_fields_inside_replayed_items_fail_api_valid(tmp_path: Path) -> None:
    def with_event_fields(items: list[Item]) -> list[Item]:
        return [{**item, "item_id": item.get("id"), "output_index": n} for n, item in
                enumerate(items)]

    with running([load_scenario(PARALLEL)], out=tmp_path) as server:
        two_turns(server.base_url, tamper=with_event_fields)
        verdicts = server.verdicts()
    assert not verdicts.ok
    first = verdicts.scenarios[0].calls[0]
    api_valid = first.verdicts[2]
    assert api_valid.name is VerdictName.API_VALID and api_valid.value is False
    assert "'item_id', 'output_index' were unexpected" in api_valid.reason
    assert first.verdicts[1].value is True  # the identity fields are still the oracle's


def test_a_call_the_client_does_not_run_fails_executed(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server:
        two_turns(server.base_url, run=lambda call: "responses-oracle-1" in call["arguments"])
        verdicts = server.verdicts()
    ran, skipped = sorted(
        verdicts.scenarios[0].calls, key=lambda call: "responses-oracle-1" not in str(call.expected)
    )
    assert ran.verdicts[0].value is True
    assert skipped.verdicts[0].value is False
    assert skipped.verdicts[0].reason == "the next request carries no output for this call"
    assert not verdicts.ok


def test_a_client_that_never_comes_back_dropped_every_call(tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        streamed_turn(client, [{"role": "user", "content": "hi"}])
        verdicts = server.verdicts()
    assert _values(verdicts) == [
        {"executed": False, "history_faithful": None, "api_valid": None}
    ] * 2
    assert verdicts.scenarios[0].calls[0].verdicts[0].reason.startswith("dropped")


def _from_completed(client: openai.OpenAI) -> list[Item]:
    """The calls of the response ``response.completed`` carries (the snapshot's view)."""
    stream = client.responses.create(model="m", input="hi", tools=[WEATHER], stream=True)
    final = next(e.response for e in stream if e.type == "response.completed")
    return [item.model_dump(exclude_none=True) for item in final.output]


def _from_done_items(client: openai.OpenAI) -> list[Item]:
    """The calls of the ``output_item.done`` events (the streamed view)."""
    return streamed_turn(client, [{"role": "user", "content": "hi"}])


@pytest.mark.parametrize(
    ("view", "notes"),
    [
        # The snapshot re-keys the call and trims its arguments: another call_id and id
        # the provider gave it, the oracle's arguments byte for byte.
        (_from_completed, ["answered under 'functions.get_weather:0', a call_id the "
                           "provider gave this call; the oracle keeps 'call_baa6' (R6: a "
                           "call keeps the call_id it was confirmed with)",
                           "id 'fc_b55b', another id the provider gave this call; the "
                           "oracle keeps 'aec6' (R6)"]),
        # The done item keeps the oracle's ids, with the untrimmed arguments.
        (_from_done_items, ["arguments ' {\"city\":\"responses-oracle-1\"} ': JSON-equal to "
                            "the oracle's '{\"city\":\"responses-oracle-1\"}', other bytes"]),
    ],
    ids=["snapshot", "done-items"],
)
def test_q05_either_view_of_the_rekeyed_call_holds_with_a_note(
    view: Callable[[openai.OpenAI], list[Item]], notes: list[str], tmp_path: Path
) -> None:
    """q05: the terminal snapshot re-keys the call (vLLM).  A client that follows either
    view consistently runs the call and pairs its output with it by an id the provider
    gave it: no harm, every verdict holds, and what differs is a note."""
    with running([load_scenario("q05")], out=tmp_path) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        [call] = view(client)
        client.responses.create(
            model="m",
            input=[call, {"type": "function_call_output", "call_id": call["call_id"],
                          "output": get_weather(**json.loads(call["arguments"]))}],
            tools=[WEATHER],
        )
        verdicts = server.verdicts()
    [scenario] = verdicts.scenarios
    assert scenario.next_request == 1
    executed, history, api_valid = verdicts.call("call_baa6").verdicts
    assert (executed.value, history.value, api_valid.value) == (True, True, True)
    assert executed.reason == "ran with the oracle's arguments (the output shows " \
        "responses-oracle-1)"
    assert list(history.notes) == notes
    # The output answered under another call_id: executed holds, with that note too.
    assert list(executed.notes) == [n for n in notes if n.startswith("answered under")]
    assert verdicts.ok


@pytest.mark.parametrize("framing", ["data-only", "chunked", "crlf", "data-only,chunked,crlf"])
def test_every_framing_reaches_the_client_as_the_same_stream(framing: str, tmp_path: Path) -> None:
    with running([load_scenario(PARALLEL)], out=tmp_path, framing=Framing.parse(framing)) as srv:
        two_turns(srv.base_url)
        verdicts = srv.verdicts()
    assert _values(verdicts) == [ALL_HOLD, ALL_HOLD]


def test_openai_agents_runner_without_streaming_is_judged_on_the_json_answer(
    tmp_path: Path,
) -> None:
    agents = pytest.importorskip("agents")
    agents.set_tracing_disabled(True)
    ran: list[str] = []

    @agents.function_tool
    def get_weather_tool(city: str) -> str:
        """The weather in a city."""
        ran.append(city)
        return get_weather(city)

    # s01, not a quirk: stream: false gets the scenario's own terminal, quirks included
    # (q11's re-keys the call, and a client that sees only it cannot replay otherwise).
    with running([load_scenario("s01")], out=tmp_path) as server:
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        model = agents.OpenAIResponsesModel(model="gpt-test", openai_client=client)
        agent = agents.Agent(name="weather", tools=[get_weather_tool], model=model)
        result = agents.Runner.run_sync(agent, "Weather in Paris?")
        verdicts = server.verdicts()
    assert result.final_output == "Done."
    assert ran == ["responses-oracle-1"]
    [scenario] = verdicts.scenarios
    assert not scenario.stream
    assert _values(verdicts) == [ALL_HOLD]


def _without_ids(items: list[Item]) -> list[Item]:
    return [{k: v for k, v in item.items() if k != "id"} for item in items]


@pytest.mark.parametrize("store", [False, None])
def test_a_replay_without_call_ids_is_faithful_under_any_store(
    store: bool | None, tmp_path: Path
) -> None:
    # The API pairs an output with its call by call_id; no reasoning item needs the id.
    with running([load_scenario("s01")], out=tmp_path) as server:
        two_turns(server.base_url, tamper=_without_ids, store=store)
        [call] = server.verdicts().scenarios[0].calls
    history = call.verdicts[1]
    assert history.value is True, history.reason
    assert history.reason.startswith("replayed with no id (none needed), paired with its output")


def _calls_without_ids(items: list[Item]) -> list[Item]:
    return [
        {k: v for k, v in item.items() if k != "id" or item["type"] != "function_call"}
        for item in items
    ]


@pytest.mark.parametrize(
    ("tamper", "faithful"), [(_calls_without_ids, False), (_without_ids, True)]
)
def test_a_call_without_its_id_after_replayed_reasoning_is_not_faithful(
    tamper: Callable[[list[Item]], list[Item]], faithful: bool, tmp_path: Path
) -> None:
    # c02 (a real capture) is four responses: the first reasons, then calls; the next
    # two only call.  The replayed reasoning item (kept with its id) needs the call that
    # follows it in its response named by its id; the later calls need none.
    with running([load_scenario("c02")], out=tmp_path) as server:
        two_turns(server.base_url, tamper=tamper)
        calls = server.verdicts().scenarios[0].calls
    histories = [call.verdicts[1] for call in calls]
    assert [h.value for h in histories] == [faithful, True, True], [h.reason for h in histories]
    if not faithful:
        assert histories[0].reason.startswith("no id after the replayed reasoning item 'rs_")


def test_history_by_previous_response_id_does_not_apply_and_models_are_listed(
    tmp_path: Path,
) -> None:
    with running([load_scenario("s01"), load_scenario("s02")], out=tmp_path) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        assert [model.id for model in client.models.list()] == ["serve"]
        first = client.responses.create(model="m", input="hi", tools=[WEATHER])
        [call] = [item for item in first.output if item.type == "function_call"]
        second = client.responses.create(
            model="m",
            previous_response_id=first.id,
            input=[{"type": "function_call_output", "call_id": call.call_id,
                    "output": get_weather(**json.loads(call.arguments))}],
            tools=[WEATHER],
        )
        third = client.responses.create(
            model="m", previous_response_id=second.id, input="thanks", tools=[WEATHER]
        )
        verdicts = server.verdicts()
    assert second.output_text == third.output_text == "Done."
    assert verdicts.unserved == ("s02",)  # the third turn is still s01's conversation
    [judged] = verdicts.scenarios[0].calls
    assert [v.value for v in judged.verdicts] == [True, None, True]
    assert judged.verdicts[1].reason == "history sent by previous_response_id, not replayed"
