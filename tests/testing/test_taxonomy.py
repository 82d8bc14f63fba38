"""The divergence taxonomy: each difference filed under the harm it does."""

from __future__ import annotations

from typing import Any

from responses_oracle import reduce
from responses_oracle.differential.candidate import Failure
from responses_oracle.differential.taxonomy import (
    api_problems,
    classify,
    classify_items,
    most_harmful,
)
from responses_oracle.model.divergence import (
    HARM,
    RAISED_ON_INVALID_SAYS,
    SEVERE,
    TOLERABLE,
    Divergence,
)
from responses_oracle.serve.present import present

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
    valid = present([CREATED, *_done(_msg()), COMPLETED])
    assert _classes(valid, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_VALID]
    truncated = valid[:-1]
    assert _classes(truncated, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_INVALID]


def _text_done_without(field: str) -> list[dict[str, Any]]:
    """A stream as the API sends it (``present`` fills every field of the shape) whose
    ``output_text.done`` lacks ``field``."""
    item = _msg("hi")
    events = present([
        CREATED, *_added(item),
        {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "delta": "hi"},
        {"type": "response.output_text.done", "item_id": "msg_1", "output_index": 0,
         "content_index": 0, "text": "hi"},
        *_done(item), COMPLETED,
    ])
    return [{k: v for k, v in e.items() if k != field}
            if e["type"] == "response.output_text.done" else e for e in events]


def test_a_stream_the_api_types_do_not_allow_is_never_raised_on_valid() -> None:
    """Issue 31: openai-python's ``TypeError`` on an ``output_text.done`` without the
    required ``content_index`` was reported as a raise on a valid stream."""
    whole = _text_done_without("no such field")
    [result] = reduce(whole)
    assert not [d for d in result.to_dict()["diagnostics"] if d["severity"] == "error"]
    assert _classes(whole, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_VALID]
    lacking = _text_done_without("content_index")
    # The reference reduces it without an error (it is lenient on purpose) ...
    [result] = reduce(lacking)
    assert result.to_dict()["response"]["status"] == "completed"
    assert not [d for d in result.to_dict()["diagnostics"] if d["severity"] == "error"]
    # ... yet the API's event types require the field: the raise is on an invalid stream.
    [found] = classify(reduce(lacking), Failure("TypeError: boom"), events=lacking)
    assert found.divergence is Divergence.CANDIDATE_RAISED_ON_INVALID
    assert "response.output_text.done: content_index missing" in found.difference.why
    assert api_problems(whole) == []
    # Without the events, only the reference's own diagnostics can say.
    assert [c.divergence for c in classify(reduce(lacking), Failure("boom"))] == [
        Divergence.CANDIDATE_RAISED_ON_VALID
    ]


def test_a_field_the_api_itself_omits_leaves_the_stream_valid() -> None:
    """An added ``web_search_call`` has no ``action`` (the published type requires one;
    no recording sends it there): a stream without it is as the API sends it."""
    added = {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}
    event = {"type": "response.output_item.added", "output_index": 0, "item": added,
             "sequence_number": 1}
    assert api_problems([event]) == []
    done = event | {"type": "response.output_item.done"}
    assert [str(p) for p in api_problems([done])] == [
        "response.output_item.done: item.action missing (web_search_call, done)"
    ]


def test_a_raise_on_an_invalid_stream_ranks_last() -> None:
    assert HARM[-1] is Divergence.CANDIDATE_RAISED_ON_INVALID
    assert RAISED_ON_INVALID_SAYS == "raises a confusing error on an invalid stream"


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
