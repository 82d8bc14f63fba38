"""The divergence taxonomy: each difference filed under the harm it does."""

from __future__ import annotations

from typing import Any

from responses_oracle import reduce
from responses_oracle.model.divergence import HARM, SEVERE, TOLERABLE, Divergence
from responses_oracle.testing.candidate import Failure
from responses_oracle.testing.taxonomy import classify, classify_items, most_harmful

CREATED = {"type": "response.created", "response": {"id": "resp_1"}}
COMPLETED = {"type": "response.completed", "response": {"id": "resp_1"}}


def _fc(call_id: str, arguments: str = '{"a":1}', **extra: Any) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": "f",
            "arguments": arguments} | extra


def _msg(text: str = "hi") -> dict[str, Any]:
    return {"type": "message", "id": "msg_1", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def _done(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "response.output_item.done", "output_index": n, "item": item}
            for n, item in enumerate(items)]


def _added(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "response.output_item.added", "output_index": n, "item": item}
            for n, item in enumerate(items)]


def _answer(*items: dict[str, Any], status: str = "completed") -> list[dict[str, Any]]:
    return [{"response": {"id": "resp_1", "status": status},
             "items": [{"item": item} for item in items]}]


def _classes(events: list[dict[str, Any]], answer: Any) -> list[Divergence]:
    return [c.divergence for c in classify(reduce(events), answer, events=events)]


def test_harm_ranks_every_class_once_and_the_severe_ones_lead() -> None:
    assert sorted(HARM, key=lambda d: d.value) == sorted(Divergence, key=lambda d: d.value)
    assert len(set(HARM)) == len(HARM)
    assert set(HARM[: len(SEVERE)]) == SEVERE
    assert set(HARM[-4:]) >= TOLERABLE


def test_the_reference_agrees_with_itself() -> None:
    events = [CREATED, *_done(_msg(), _fc("call_1")), COMPLETED]
    assert classify(reduce(events), [r.to_dict() for r in reduce(events)], events=events) == []


def test_other_arguments_on_an_executable_call_run_the_wrong_tool() -> None:
    events = [CREATED, *_done(_fc("call_1")), COMPLETED]
    assert _classes(events, _answer(_fc("call_1", "{}"))) == [Divergence.WRONG_TOOL_RUN]
    assert _classes(events, _answer(_fc("call_1", name="g"))) == [Divergence.WRONG_TOOL_RUN]


def test_other_text_on_a_message_is_a_payload_difference() -> None:
    events = [CREATED, *_done(_msg("hello")), COMPLETED]
    assert _classes(events, _answer(_msg("hel"))) == [Divergence.PAYLOAD_DIFFERS]


def test_a_missing_call_is_lost_when_confirmed_and_dropped_when_not() -> None:
    confirmed = [CREATED, *_done(_msg(), _fc("call_1")), COMPLETED]
    assert _classes(confirmed, _answer(_msg())) == [Divergence.CONFIRMED_CALL_LOST]
    # Only added, never confirmed: the reference keeps it, not executable.
    unconfirmed = [CREATED, *_added(_fc("call_1")), COMPLETED]
    assert _classes(unconfirmed, _answer()) == [Divergence.UNCONFIRMED_CALL_DROPPED]


def test_an_unconfirmed_call_handed_over_in_a_completed_response_is_kept() -> None:
    interrupted = [CREATED, *_done(_fc("call_1"))]  # no terminal: interrupted
    found = _classes(interrupted, _answer(_fc("call_1")))
    assert found == [Divergence.UNCONFIRMED_CALL_KEPT, Divergence.STATUS_DIFFERS]
    # A candidate that reports the status faithfully hands over nothing runnable.
    assert _classes(interrupted, _answer(_fc("call_1"), status="interrupted")) == []
    # A candidate that says executable itself is judged by what it says.
    said = [{"response": {"status": "interrupted"},
             "items": [{"item": _fc("call_1"), "executable": True}]}]
    assert _classes(interrupted, said) == [Divergence.UNCONFIRMED_CALL_KEPT]


def test_a_second_copy_of_a_call_runs_it_twice_and_a_new_one_is_invented() -> None:
    events = [CREATED, *_done(_fc("call_1")), COMPLETED]
    assert _classes(events, _answer(_fc("call_1"), _fc("call_1") | {"id": "fc_x"})) == [
        Divergence.CALL_RUN_TWICE
    ]
    assert Divergence.CALL_INVENTED in _classes(events, _answer(_fc("call_1"), _fc("call_9")))


def test_raising_is_judged_by_whether_the_reference_flags_the_stream() -> None:
    valid = [CREATED, *_done(_msg()), COMPLETED]
    assert _classes(valid, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_VALID]
    truncated = [CREATED, *_done(_msg())]
    assert _classes(truncated, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_INVALID]


def test_several_responses_merged_into_one() -> None:
    events = [CREATED, *_done(_msg()), COMPLETED, CREATED | {"response": {"id": "resp_2"}},
              {"type": "response.completed", "response": {"id": "resp_2"}}]
    assert Divergence.RESPONSES_DIFFER in _classes(events, _answer(_msg()))


def test_order_and_id_differences_are_bookkeeping() -> None:
    events = [CREATED, *_done(_msg(), _fc("call_1")), COMPLETED]
    assert _classes(events, _answer(_fc("call_1"), _msg())) == [Divergence.ORDER_DIFFERS]
    assert _classes(events, _answer(_msg(), _fc("call_1") | {"id": "fc_other"})) == [
        Divergence.ID_DIFFERS
    ]


def test_classify_items_compares_persisted_items_without_the_events() -> None:
    events = [CREATED, *_done(_msg(), {k: v for k, v in _fc("call_1").items() if k != "id"}),
              COMPLETED]
    [result] = reduce(events)
    persisted = [dict(entry.item) for entry in result.items]
    assert classify_items(result, persisted) == frozenset()
    # A minted id matches any id the stream never carried.
    renamed = [persisted[0], persisted[1] | {"id": "fc_made_up"}]
    assert classify_items(result, renamed) == frozenset()
    assert classify_items(result.to_dict(), persisted[:1]) == {Divergence.CONFIRMED_CALL_LOST}
    wrong = [persisted[0], persisted[1] | {"arguments": "{}"}]
    assert classify_items(result, wrong) == {Divergence.WRONG_TOOL_RUN}


def test_most_harmful_picks_by_harm() -> None:
    events = [CREATED, *_done(_msg("a"), _fc("call_1")), COMPLETED]
    found = classify(reduce(events), _answer(_msg("b")), events=events)
    assert most_harmful(found) is Divergence.CONFIRMED_CALL_LOST
    assert most_harmful([]) is None
