"""The API-valid verdict's schema: published, vendored, current -- and the oracle's own
replay (R12) held to it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.differential.conformance_vectors import corpus_vectors
from responses_oracle.next_input import replay_input
from responses_oracle.reducer import reduce
from responses_oracle.serve.request_schema import item_problems
from responses_oracle.serve.scenarios import QUIRKS, load_scenario

CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "get_weather",
    "arguments": '{"city":"Paris"}',
    "status": "completed",
}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ({**CALL, "item_id": "fc_1"}, "'item_id' was unexpected"),
        ({**CALL, "output_index": 0}, "'output_index' was unexpected"),
        ({**OUTPUT, "sequence_number": 4}, "'sequence_number' was unexpected"),
        ({**CALL, "id": None}, "id: None is not of type 'string'"),
        ({**CALL, "status": "done"}, "status: 'done' is not one of"),
        ({k: v for k, v in CALL.items() if k != "call_id"}, "'call_id' is a required property"),
        ({"type": "no_such_item"}, "type 'no_such_item' is no input item type"),
    ],
)
def test_what_the_api_refuses_is_a_problem_named_by_the_schema(
    item: dict[str, Any], problem: str
) -> None:
    problems = item_problems(item)
    assert problems and problem in problems[0]


def test_valid_items_have_no_problem_and_an_id_may_be_absent() -> None:
    assert item_problems(CALL) == item_problems(OUTPUT) == []
    assert item_problems({k: v for k, v in CALL.items() if k != "id"}, store=False) == []
    assert item_problems({"role": "user", "content": "hi"}) == []


def test_store_false_refuses_references_to_stored_items() -> None:
    reference = {"type": "item_reference", "id": "fc_1"}
    assert item_problems(reference) == []
    assert item_problems(reference, store=False) == [
        "item_reference names a stored item, and store is false"
    ]


def _streams() -> list[tuple[str, Any]]:
    quirks = [(p.name[:3], load_scenario(str(p)).events) for p in sorted(QUIRKS.glob("q*"))]
    examples = [(p.name, load_scenario(str(p)).events) for p in (REPO / "examples").glob("*.*l")]
    return quirks + examples + [(v.name, v.events) for v in corpus_vectors()]


def test_the_oracles_replay_adds_no_problem_to_the_items_it_replays() -> None:
    """R12 held to the same check: every item ``replay`` sends is valid input unless the
    result item it copies already was not (the stream lacked a field the API requires);
    the synthetic outputs it adds are always valid, and stray event fields never pass."""
    replayed = 0
    for name, events in _streams():
        for result in reduce(list(events)):
            items = [item.item for item in result.items]
            known = {(i.get("type"), i.get("call_id"), i.get("id")) for i in items}
            for item in replay_input(items):
                replayed += 1
                source = [i for i in items if (i.get("type"), i.get("call_id"), i.get("id"))
                          == (item.get("type"), item.get("call_id"), item.get("id"))]
                if not source:
                    assert item_problems(item) == [], (name, item)  # a synthetic output
                    continue
                assert set(item_problems(item)) <= set(item_problems(source[0])), (name, item)
                assert (item.get("type"), item.get("call_id"), item.get("id")) in known
                assert "item_id" not in item and "output_index" not in item
    assert replayed > 300


def test_a_gateway_that_puts_event_fields_in_items_replays_valid() -> None:
    """Bedrock Mantle's ``item_id``/``output_index`` inside items: replay drops them."""
    [result] = reduce(REPO / "examples" / "mantle-missing-id.jsonl")
    for item in replay_input(item.item for item in result.items):
        assert not [p for p in item_problems(item) if "unexpected" in p], item


def test_the_vendored_schema_is_the_one_openai_python_publishes() -> None:
    openai = pytest.importorskip("openai")
    if openai.__version__ != "3.57.0":
        pytest.skip("the schema is generated from openai 3.57.0")
    tool = REPO / "tools" / "serve_schema.py"
    checked = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr
    vendored = Path(REPO / "impl" / "serve" / "schema")
    assert (vendored / "LICENSE.openai-python").read_text().startswith(
        "                                 Apache License"
    )
