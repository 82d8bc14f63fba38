"""Client policies as causes: a cause is a policy's only when the client answers exactly
as the policy does on every case of it, and shrinking keeps that."""

from __future__ import annotations

import time
from typing import Any

from responses_oracle import reduce
from responses_oracle.model.divergence import HYPOTHESES, Divergence, Hypothesis
from responses_oracle.testing.candidate import FunctionCandidate
from responses_oracle.testing.cases import Case
from responses_oracle.testing.cause import POLICY_KIND, policy
from responses_oracle.testing.harness import cluster, find, report
from responses_oracle.testing.hypotheses import answer, explained
from responses_oracle.testing.streams import GeneratedStream
from responses_oracle.testing.taxonomy import results_json

Event = dict[str, Any]


def _call(n: int, arguments: str) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}",
            "name": "get_weather", "arguments": arguments}


def _message(n: int, text: str) -> dict[str, Any]:
    return {"type": "message", "id": f"msg_{n}", "role": "assistant",
            "content": [{"type": "output_text", "text": text}]}


def _stream(streamed: list[tuple[int, dict[str, Any]]], snapshot: list[Any]) -> list[Event]:
    """created, each item added and done at its slot, completed with ``snapshot``."""
    events: list[Event] = [{"type": "response.created", "response": {"id": "resp_1"}}]
    for slot, item in streamed:
        events.append({"type": "response.output_item.added", "output_index": slot, "item": item})
        events.append({"type": "response.output_item.done", "output_index": slot, "item": item})
    events.append({"type": "response.completed",
                   "response": {"id": "resp_1", "status": "completed", "output": snapshot}})
    return events


NOISE = [(0, _message(9, "hello")), (1, _message(8, "again"))]
"""Items both the stream and the snapshot carry alike: nothing a policy changes."""

# A done-only call the snapshot leaves out (the reference keeps it: snapshot_missing_item).
LEFT_OUT = _stream([*NOISE, (2, _call(1, '{"city":"Paris"}'))],
                   [_message(9, "hello"), _message(8, "again")])
# A call whose snapshot empties its arguments (empty never erases: empty_payload_ignored).
EMPTIED = _stream([*NOISE, (2, _call(2, '{"city":"Rome"}'))],
                  [_message(9, "hello"), _message(8, "again"), _call(2, "")])
EMPTIED_TOO = _stream([(0, _call(3, '{"city":"Oslo"}'))], [_call(3, "")])


def verbatim(events: list[Event]) -> list[dict[str, Any]]:
    """A client that answers the terminal's response object as it came."""
    response = events[-1]["response"]
    return [{"response": {"id": response["id"], "status": response["status"]},
             "items": [{"item": item} for item in response["output"]]}]


def almost_verbatim(events: list[Event]) -> list[dict[str, Any]]:
    """The same, except that on Oslo's stream it also claims an output_index."""
    [result] = verbatim(events)
    if "Oslo" in str(events):
        result["items"] = [{**entry, "output_index": 7} for entry in result["items"]]
    return [result]


def _cases(*streams: list[Event]) -> list[Case]:
    return [Case(f"s{n}", GeneratedStream(tuple(s), ("given",))) for n, s in enumerate(streams)]


def test_the_snapshot_verbatim_answer_is_the_terminal_response_as_it_came() -> None:
    assert answer(Hypothesis.SNAPSHOT_VERBATIM, EMPTIED) == verbatim(EMPTIED)
    # No terminal: the policy gives no answer.
    assert answer(Hypothesis.SNAPSHOT_VERBATIM, EMPTIED[:-1]) is None


def test_the_snapshot_ignored_answer_is_the_streamed_items_only() -> None:
    [result] = answer(Hypothesis.SNAPSHOT_IGNORED, _stream(
        [(0, _message(1, "streamed"))], [_message(1, "streamed"), _call(5, "{}")]))
    assert [e["item"]["id"] for e in result["items"]] == ["msg_1"]


def test_the_order_answers_order_items_by_their_done_or_their_first_event() -> None:
    # Announced 2 (slot 1) then 1 (slot 0), confirmed 1 then 2.
    events: list[Event] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 1, "item": _message(2, "")},
        {"type": "response.output_item.added", "output_index": 0, "item": _message(1, "")},
        {"type": "response.output_item.done", "output_index": 0, "item": _message(1, "a")},
        {"type": "response.output_item.done", "output_index": 1, "item": _message(2, "b")},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]
    [reference] = results_json(reduce(events))
    assert [e["item"]["id"] for e in reference["items"]] == ["msg_1", "msg_2"]
    [announced] = answer(Hypothesis.ANNOUNCEMENT_ORDER, events) or []
    assert announced["items"] == list(reversed(reference["items"]))
    # Confirmed in slot order: the completion-order answer is the reference's...
    assert answer(Hypothesis.COMPLETION_ORDER, events) == [reference]
    # ... and once the dones swap, it is not.
    swapped = [*events[:3], events[4], events[3], events[5]]
    [completed] = answer(Hypothesis.COMPLETION_ORDER, swapped) or []
    assert [e["item"]["id"] for e in completed["items"]] == ["msg_2", "msg_1"]


def test_a_policy_explains_an_answer_only_when_it_is_exactly_the_policys() -> None:
    assert explained(EMPTIED, verbatim(EMPTIED)) == (Hypothesis.SNAPSHOT_VERBATIM,)
    assert explained(EMPTIED_TOO, verbatim(EMPTIED_TOO)) == (Hypothesis.SNAPSHOT_VERBATIM,)
    # One more field given (and wrong) is not the policy's answer.
    assert explained(EMPTIED_TOO, almost_verbatim(EMPTIED_TOO)) == ()
    # The reference's own answer is no policy's (it differs from each of them).
    assert explained(EMPTIED, results_json(reduce(EMPTIED))) == ()


def test_the_causes_one_policy_explains_are_one_cluster() -> None:
    findings = find(_cases(LEFT_OUT, EMPTIED, EMPTIED_TOO), FunctionCandidate(verbatim))
    # Two causes by the reference's decisions...
    assert {(f.signatures[0].divergence, f.signatures[0].decision) for f in findings} == {
        (Divergence.CONFIRMED_CALL_LOST, "snapshot_missing_item"),
        (Divergence.WRONG_TOOL_RUN, "empty_payload_ignored"),
    }
    # ... one policy.
    _, clusters = cluster(findings)
    assert list(clusters) == [policy(Hypothesis.SNAPSHOT_VERBATIM)]
    assert [f.case for f in clusters[policy(Hypothesis.SNAPSHOT_VERBATIM)]] == ["s0", "s1", "s2"]


def test_a_cause_one_case_of_which_the_policy_misses_keeps_its_key() -> None:
    findings = find(_cases(LEFT_OUT, EMPTIED, EMPTIED_TOO), FunctionCandidate(almost_verbatim))
    _, clusters = cluster(findings)
    kinds = {cause.kind: [f.case for f in members] for cause, members in clusters.items()}
    # The left-out call is the policy's; both emptied calls keep their cause, since on
    # Oslo's stream the answer is not exactly the policy's.
    assert kinds == {POLICY_KIND: ["s0"], "payload": ["s1", "s2"]}


def test_a_policys_cluster_is_shrunk_keeping_the_policys_answer_and_reported() -> None:
    started = time.perf_counter()
    candidate = FunctionCandidate(verbatim)
    cases = _cases(LEFT_OUT, EMPTIED)
    result = report(len(cases), find(cases, candidate), candidate, started=started,
                    checked=started)
    [only] = result.clusters
    assert only.hypothesis is Hypothesis.SNAPSHOT_VERBATIM
    assert (only.divergence, only.rule, only.decision) == (
        Divergence.WRONG_TOOL_RUN, "R9", "snapshot_verbatim")
    # Minimal: the noise items are gone, and the answer is still exactly the policy's.
    assert len(only.events) < len(EMPTIED)
    assert "msg_9" not in str(only.events)
    assert only.answer == verbatim(list(only.events))
    assert explained(only.events, only.answer) == (Hypothesis.SNAPSHOT_VERBATIM,)
    assert only.answer != results_json(reduce(list(only.events)))
    # The causes it gathers, each with a representative of its own.
    assert sorted(p.decision for p in only.parts) == ["empty_payload_ignored",
                                                      "snapshot_missing_item"]
    data = only.to_json()
    says = HYPOTHESES[Hypothesis.SNAPSHOT_VERBATIM]
    assert data["hypothesis"] == {"name": "snapshot_verbatim", "rule": "R9",
                                  "rule_doc": "docs/rules/R9.md", "says": says.says}
    assert sorted(v["what"] for v in data["variants"]) == [
        "confirmed_call_lost: R9 snapshot_missing_item",
        "wrong_tool_run: R7 empty_payload_ignored",
    ]
    assert [p["hypothesis"] for p in data["parts"]] == [None, None]
    text = result.render()
    assert "cause: the client's policy snapshot_verbatim (breaks R9, docs/rules/R9.md)" in text
    assert "1 x wrong_tool_run: R7 empty_payload_ignored" in text


def test_every_hypothesis_names_a_documented_rule_and_says_what_to_fix() -> None:
    assert set(HYPOTHESES) == set(Hypothesis)
    for says in HYPOTHESES.values():
        assert says.rule in {f"R{n}" for n in range(1, 13)}
        assert says.says.startswith("the client ") and ";" in says.says
