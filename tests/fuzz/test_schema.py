"""The shipped JSON Schema of the result contract: well-formed, in step with the model's
vocabulary, satisfied by real reductions, and strict enough to reject broken results."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from fuzz.fuzzkit import SCHEMA, VALIDATOR, contract_json
from helpers import FIXTURES
from jsonschema import Draft202012Validator
from responses_oracle import Reducer, reduce
from responses_oracle.model.execution import Execution
from responses_oracle.model.vocabulary import (
    Code,
    EntryState,
    IdSource,
    PayloadSource,
    ResponseStatus,
    Severity,
)
from responses_oracle.wire import read_wire_events

_DEFS = SCHEMA["$defs"]
_ITEM = _DEFS["item"]["properties"]
_DIAGNOSTIC = _DEFS["diagnostic"]["properties"]

NEVER_IN_A_RESULT: dict[type, set[str]] = {
    ResponseStatus: {ResponseStatus.IN_PROGRESS.value},
    EntryState: {EntryState.ABSENT.value},
}
"""Enum members that exist only inside the reducer: a finished response is never
``in_progress`` (it is ``interrupted``), and an entry is admitted out of ``absent``."""


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        (ResponseStatus, SCHEMA["properties"]["response"]["properties"]["status"]["enum"]),
        (EntryState, _ITEM["state"]["enum"]),
        (Execution, _ITEM["execution"]["enum"]),
        (IdSource, _ITEM["id_source"]["enum"]),
        (PayloadSource, _ITEM["payload_source"]["enum"]),
        (Severity, _DIAGNOSTIC["severity"]["enum"]),
        (Code, _DIAGNOSTIC["code"]["examples"]),
    ],
)
def test_schema_lists_match_the_vocabulary(enum: Any, values: list[str]) -> None:
    expected = {member.value for member in enum} - NEVER_IN_A_RESULT.get(enum, set())
    assert len(values) == len(set(values))
    assert set(values) == expected


def test_every_code_matches_the_code_pattern() -> None:
    pattern = re.compile(_DIAGNOSTIC["code"]["pattern"])
    assert all(pattern.match(code.value) for code in Code)


def _fixture_files() -> list[Path]:
    """Every vendored stream: the peers' recordings, the captures and the quirks."""
    return sorted(
        path
        for path in FIXTURES.rglob("*")
        if path.is_file() and path.suffix in (".jsonl", ".json", ".sse")
    )


def _response_ids(path: Path) -> set[str]:
    """The response ids a stream's own events name."""
    return {
        event.payload["response"]["id"]
        for event in read_wire_events(path)
        if event.payload is not None
        and isinstance(event.payload.get("response"), dict)
        and "id" in event.payload["response"]
    }


def test_real_captures_reduce_to_valid_results() -> None:
    files = _fixture_files()
    assert files
    calls = 0
    for path in files:
        results = contract_json(reduce(path))
        assert results, path
        # Two hand-written vercel/ai fixtures (issue-18872-*) carry no response id at all.
        assert all(r["response"]["id"] for r in results) or not _response_ids(path), path
        calls += sum(i["item"]["type"].endswith("_call") for r in results for i in r["items"])
    assert calls > 0


def _hard_result() -> dict[str, Any]:
    """One response that uses every id source, several states and many codes."""
    fc = "function_call"
    reducer = Reducer()
    reducer.feed_all(
        [
            {"type": "response.created", "response": {"id": "resp_s", "output": []}},
            # slot 0: a wire id, streamed, then done
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"type": fc, "id": "fc_0", "call_id": "c0", "name": "f"},
            },
            {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{}"},
            {
                "type": "response.output_item.done",
                "output_index": 0,
                "item": {"type": fc, "id": "fc_0", "call_id": "c0", "arguments": "{}"},
            },
            # slot 1: the gateway renamed id to item_id
            {
                "type": "response.output_item.done",
                "output_index": 1,
                "item": {"type": fc, "item_id": "fc_1", "call_id": "c1", "name": "g"},
            },
            # slot 2: no id on the item; a delta's item_id is adopted
            {
                "type": "response.output_item.added",
                "output_index": 2,
                "item": {"type": "custom_tool_call", "call_id": "c2", "name": "h"},
            },
            {
                "type": "response.custom_tool_call_input.delta",
                "output_index": 2,
                "item_id": "ctc_2",
                "delta": "x",
            },
            # slot 3: never an id, so one is minted
            {
                "type": "response.output_item.added",
                "output_index": 3,
                "item": {"type": "reasoning"},
            },
            {"type": "response.output_text.delta", "output_index": 9, "delta": "orphan"},
            {"type": "response.completed", "response": {"id": "resp_s", "output": []}},
        ]
    )
    (result,) = contract_json(reducer.finish())
    return result


def test_every_id_source_occurs_in_a_valid_result() -> None:
    result = _hard_result()
    assert [i["id_source"] for i in result["items"]] == ["wire", "renamed_field", "slot", "minted"]
    assert [i["executable"] for i in result["items"]] == [True, True, False, False]
    assert [i["state"] for i in result["items"]] == ["completed", "completed", "streaming", "added"]
    assert {"orphan_event", "id_minted", "id_renamed_field", "unconfirmed_item"} <= {
        d["code"] for d in result["diagnostics"]
    }


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def edit(result: dict[str, Any]) -> None:
        node: Any = result
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _delete(path: tuple[Any, ...]) -> Any:
    def edit(result: dict[str, Any]) -> None:
        node: Any = result
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return edit


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("status in_progress", _set(("response", "status"), "in_progress")),
        ("empty response id", _set(("response", "id"), "")),
        ("unknown top-level key", _set(("extra",), 1)),
        ("item without id", _delete(("items", 0, "item", "id"))),
        ("stray item_id kept", _set(("items", 0, "item", "item_id"), "fc_0")),
        ("negative output_index", _set(("items", 0, "output_index"), -1)),
        ("state absent", _set(("items", 0, "state"), "absent")),
        ("unknown id_source", _set(("items", 0, "id_source"), "guessed")),
        ("executable without call_id", _set(("items", 3, "executable"), True)),
        ("executable when failed", _set(("response", "status"), "failed")),
        ("code not snake_case", _set(("diagnostics", 0, "code"), "Bad-Code")),
        ("unknown severity", _set(("diagnostics", 0, "severity"), "fatal")),
        ("missing event key", _delete(("diagnostics", 0, "event"))),
        ("string event_index", _set(("diagnostics", 0, "event_index"), "7")),
    ],
)
def test_schema_rejects_broken_results(name: str, edit: Any) -> None:
    result = _hard_result()
    assert VALIDATOR.is_valid(result)
    broken = copy.deepcopy(result)
    edit(broken)
    assert not VALIDATOR.is_valid(broken), name


def test_an_unknown_code_is_valid() -> None:
    result = _hard_result()
    result["diagnostics"][0]["code"] = "some_future_code"
    assert VALIDATOR.is_valid(result)
