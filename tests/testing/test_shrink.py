"""Shrinking: ddmin finds a 1-minimal failing stream with batched predicate calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from responses_oracle.differential.shrink import ddmin, denoise, shrink

Events = list[dict[str, object]]


def _events(n: int) -> Events:
    return [{"type": f"e{k}", "sequence_number": k, "obfuscation": "x"} for k in range(n)]


class Needs:
    """Fails when the stream still holds every one of ``wanted`` (by type); counts batches."""

    def __init__(self, *wanted: str) -> None:
        self.wanted = set(wanted)
        self.batches = 0

    def __call__(self, variants: Sequence[Events]) -> list[bool]:
        self.batches += 1
        return [self.wanted <= {str(e["type"]) for e in v} for v in variants]


def test_ddmin_keeps_exactly_the_events_that_matter() -> None:
    fails = Needs("e3", "e17", "e18")
    minimal = ddmin(_events(40), fails)
    assert [e["type"] for e in minimal] == ["e3", "e17", "e18"]
    assert fails.batches < 40  # batched rounds, not one call per variant


def test_denoise_strips_noise_keys_where_the_failure_survives() -> None:
    minimal = denoise(_events(3), Needs("e1"))
    assert minimal == [{"type": "e0"}, {"type": "e1"}, {"type": "e2"}]


def test_denoise_keeps_a_key_the_failure_needs() -> None:
    def fails(variants: Sequence[Events]) -> list[bool]:
        return ["sequence_number" in v[0] for v in variants]

    assert denoise(_events(2), fails) == [
        {"type": "e0", "sequence_number": 0, "obfuscation": "x"},
        {"type": "e1"},
    ]


def test_shrink_of_a_single_event() -> None:
    assert shrink(_events(1), Needs("e0")) == [{"type": "e0"}]


def test_snapshots_keep_only_the_items_the_failure_needs() -> None:
    items = [{"type": "message", "id": f"m{k}"} for k in range(9)]
    events: Events = [
        {"type": "response.created", "response": {"id": "r"}},
        {"type": "response.completed", "response": {"id": "r", "output": items}},
    ]

    def needs_m4(variants: Sequence[Events]) -> list[bool]:
        return [
            any(i["id"] == "m4" for e in v for i in e["response"].get("output", []))  # type: ignore[attr-defined]
            for v in variants
        ]

    [created, completed] = shrink(events, needs_m4)
    assert created == events[0]
    assert completed["response"] == {"id": "r", "output": [{"type": "message", "id": "m4"}]}
    # A failure that needs no item keeps the snapshot, empty: [] is not an absent output.
    [_, emptied] = shrink(events, lambda variants: [True for _ in variants])
    assert emptied["response"] == {"id": "r", "output": []}


def test_shrink_keeps_a_calls_json_arguments_json() -> None:
    import json

    from responses_oracle import reduce

    call: dict[str, Any] = {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                            "name": "get_weather", "arguments": ""}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.function_call_arguments.delta", "output_index": 0,
         "item_id": "fc_1", "delta": '{"city":'},
        {"type": "response.function_call_arguments.delta", "output_index": 0,
         "item_id": "fc_1", "delta": '"Paris"}'},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]

    def fails(variants: Sequence[list[dict[str, Any]]]) -> list[bool]:
        # "Still fails" wherever the call and an argument delta are left: one would do.
        return [any(e["type"].endswith(".delta") for e in v)
                and any(e["type"].endswith(".added") for e in v) for v in variants]

    shrunk = shrink(events, fails)
    [result] = reduce(shrunk)
    [entry] = result.items
    assert json.loads(entry.item["arguments"]) == {"city": "Paris"}
    # Without a JSON payload to keep, the same failure shrinks to one delta.
    texts = [{**e, "delta": "a"} if "delta" in e else e for e in events]
    assert sum("delta" in e for e in shrink(texts, fails)) == 1
