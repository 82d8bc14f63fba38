"""serve's rule 3: the response envelope a client gets (model asked for, a created_at)."""

from __future__ import annotations

from responses_oracle.serve.server import with_model


def test_the_model_asked_for_and_a_created_at_where_the_scenario_has_none() -> None:
    events = [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "fc"}},
        {"type": "response.completed",
         "response": {"id": "r", "status": "completed", "created_at": 1700000000}},
    ]
    served = with_model(events, "gpt-test")
    created, added, completed = served
    assert created["response"]["model"] == completed["response"]["model"] == "gpt-test"
    assert isinstance(created["response"]["created_at"], int)
    assert completed["response"]["created_at"] == 1700000000  # the scenario's is kept
    assert added == events[1]  # items and other events are untouched
    assert "created_at" not in events[0]["response"]  # the scenario itself is not changed


def test_without_a_model_asked_for_the_scenarios_model_is_kept() -> None:
    [event] = with_model([{"type": "response.created", "response": {"model": "m"}}], None)
    assert event["response"]["model"] == "m" and "created_at" in event["response"]
