"""``serve --twin``: a scenario's clean twin holds the same calls, mapped the same way,
as a valid stream; a client that trips on the scenario's deviation handles it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest
from responses_oracle.bundled import BUNDLED
from responses_oracle.model.deviations import apply
from responses_oracle.reducer import reduce
from responses_oracle.serve import load_scenario, running
from responses_oracle.serve.mapping import map_scenario, offered_tools
from responses_oracle.serve.scenarios import ScenarioError
from responses_oracle.serve.twin import played

from .test_clients import WEATHER, Item, get_weather


@pytest.mark.parametrize(
    "path",
    [
        "quirks/q05-vllm-snapshot-rekeys-call.jsonl",
        "quirks/q07-openrouter-args-only-in-completed.jsonl",
        "quirks/q09-gateway-output-index-collision.jsonl",
        "scenarios/s03-cut-before-terminal.jsonl",
    ],
)
def test_the_twin_of_a_given_stream_is_its_canonical_answer_with_the_same_calls(
    path: str,
) -> None:
    given = load_scenario(str(BUNDLED / path))
    assert not given.built
    mapped = map_scenario(given.events, offered_tools({"tools": [WEATHER]}))
    twin = played(given.clean_twin(), mapped)
    assert twin.calls == mapped.calls  # the same mapping: tools and harmless arguments
    # The oracle's answer is the same: the calls, their payloads, what may run (its
    # diagnostics and a cut call's lifecycle state are not: the twin is clean).
    assert _answer(twin.events) == _answer(mapped.events)
    assert twin.events != mapped.events  # every stream here deviates from the API
    assert played(given, mapped) == mapped  # a given stream is played as given


@pytest.mark.parametrize(
    "name", ["q05", "q07", "q09", "s03", "s05", "r6_done_only_item_is_recovered"]
)
def test_a_built_in_twin_is_the_mapped_base_and_the_scenario_its_deviations_on_it(
    name: str,
) -> None:
    scenario = load_scenario(name)
    mapped = map_scenario(scenario.events, offered_tools({"tools": [WEATHER]}))
    served, twin = played(scenario, mapped), played(scenario.clean_twin(), mapped)
    assert twin == mapped and served.calls == twin.calls
    assert list(served.events) == apply(list(mapped.events), scenario.deviations)
    assert (served.events != twin.events) == bool(scenario.deviations)


def test_a_deviation_alone_is_the_base_with_that_deviation_only() -> None:
    scenario = load_scenario("r6_done_only_item_is_recovered")
    alone = scenario.only(["empty-terminal-output"])
    events = alone.played()
    assert [d.name for d in alone.deviations] == ["empty-terminal-output"]
    assert any(e["type"] == "response.output_item.added" for e in events)
    assert events[-1]["response"]["output"] == []
    with pytest.raises(ScenarioError, match="s01 has no deviation done-only"):
        load_scenario("s01").only(["done-only"])


KEPT = ("type", "id", "call_id", "name", "arguments")


def _answer(events: tuple[dict[str, Any], ...]) -> list[Any]:
    return [(r.response_id, r.status,
             [({k: i.item.get(k) for k in KEPT}, i.executable) for i in r.items])
            for r in reduce(list(events))]

def test_a_client_that_reads_the_snapshot_handles_the_twin_of_q05(tmp_path: Path) -> None:
    with running([load_scenario("q05").clean_twin()], out=tmp_path) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        stream = client.responses.create(model="m", input="hi", tools=[WEATHER], stream=True)
        final = next(e.response for e in stream if e.type == "response.completed")
        [call] = [item.model_dump(exclude_none=True) for item in final.output]
        client.responses.create(
            model="m", tools=[WEATHER],
            input=[call, {"type": "function_call_output", "call_id": call["call_id"],
                          "output": get_weather(**json.loads(call["arguments"]))}],
        )
        verdicts = server.verdicts()
    assert verdicts.ok, verdicts.failures()
    [scenario] = verdicts.scenarios
    assert scenario.twin and call["call_id"] == "call_baa6"
    written: Item = json.loads((tmp_path / "verdicts.json").read_text())
    assert written["scenarios"][0]["twin"] is True
