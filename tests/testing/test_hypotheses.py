"""Client policies as causes: a cause is a policy's only when, on every case of it, the
client answers as the policy does wherever the cause differs, and shrinking keeps that."""

from __future__ import annotations

import time
from typing import Any

from responses_oracle import reduce
from responses_oracle.model.divergence import HYPOTHESES, Divergence, Hypothesis
from responses_oracle.testing.candidate import FunctionCandidate
from responses_oracle.testing.cases import Case
from responses_oracle.testing.cause import POLICY_KIND, Signature, policy
from responses_oracle.testing.compare import carried_ids, compare, subject
from responses_oracle.testing.findings import Finding
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


def rewriting(events: list[Event]) -> list[dict[str, Any]]:
    """The same, except that on Oslo's stream it hands the emptied arguments over as
    ``{}``: where the cause is, not the policy's answer."""
    [result] = verbatim(events)
    if "Oslo" in str(events):
        result["items"] = [{"item": {**entry["item"], "arguments": "{}"}}
                           for entry in result["items"]]
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


def test_a_policy_explains_a_cause_where_the_answer_is_the_policys_there() -> None:
    assert explained(EMPTIED, verbatim(EMPTIED)) == (Hypothesis.SNAPSHOT_VERBATIM,)
    assert explained(EMPTIED_TOO, verbatim(EMPTIED_TOO)) == (Hypothesis.SNAPSHOT_VERBATIM,)
    # Another value where the cause is (the emptied arguments) is not the policy's.
    assert explained(EMPTIED_TOO, rewriting(EMPTIED_TOO)) == ()
    # A lesser difference elsewhere (a wrong output_index) is a cause of its own: the
    # most harmful one, the emptied arguments, is still the policy's.
    assert explained(EMPTIED_TOO, almost_verbatim(EMPTIED_TOO)) == (
        Hypothesis.SNAPSHOT_VERBATIM,)
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
    findings = find(_cases(LEFT_OUT, EMPTIED, EMPTIED_TOO), FunctionCandidate(rewriting))
    _, clusters = cluster(findings)
    kinds = {cause.kind: [f.case for f in members] for cause, members in clusters.items()}
    # The left-out call is the policy's; both emptied calls keep their cause, since on
    # Oslo's stream the arguments are not the policy's.
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
                                  "rule_doc": "docs/rules/R9.md", "says": says.says,
                                  "mistake": says.mistake}
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
    # Each names its mistake in a few words of its own, for a report's cause line.
    mistakes = [says.mistake for says in HYPOTHESES.values()]
    assert len(set(mistakes)) == len(mistakes) and all(0 < len(m) <= 48 for m in mistakes)


def test_the_done_items_answer_is_the_confirmed_items_as_they_came() -> None:
    # Announced and streamed, never confirmed by its done; a renamed id on the done.
    renamed = {**_call(4, '{"city":"Lima"}'), "id": "fc_renamed"}
    events: list[Event] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 0, "item": _message(1, "")},
        {"type": "response.output_item.added", "output_index": 1, "item": _call(4, "")},
        {"type": "response.output_item.done", "output_index": 1, "item": renamed},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]
    [reference] = results_json(reduce(events))
    [done] = answer(Hypothesis.DONE_ITEMS_VERBATIM, events) or []
    assert done == {"response": reference["response"], "items": [{"item": renamed}]}
    # Counted otherwise than the reference counts the responses: no answer.
    assert answer(Hypothesis.DONE_ITEMS_VERBATIM, events, [reference, reference]) is None


def test_a_policy_explains_a_lost_item_only_when_it_keeps_what_the_client_kept() -> None:
    # No snapshot at all: a client answering the snapshot verbatim holds nothing.  One
    # message streamed, one only confirmed by its done (the reference keeps both).
    events: list[Event] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 0, "item": _message(1, "")},
        {"type": "response.output_text.delta", "output_index": 0, "item_id": "msg_1",
         "content_index": 0, "delta": "streamed"},
        {"type": "response.output_item.done", "output_index": 1, "item": _message(2, "done")},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]
    [reference] = results_json(reduce(events))
    assert [e["item"]["id"] for e in reference["items"]] == ["msg_1", "msg_2"]
    streamed = [{"response": reference["response"], "items": reference["items"][:1]}]
    # The snapshot-verbatim answer loses msg_2 too, but loses msg_1, which the client
    # kept: no explanation by coincidence.  A streaming client keeps exactly msg_1.
    assert answer(Hypothesis.SNAPSHOT_VERBATIM, events) == [
        {"response": {"id": "resp_1", "status": "completed"}, "items": []}]
    assert explained(events, streamed) == (Hypothesis.TEXT_STREAMED_CALLS_DONE,)
    # A client that kept nothing is that policy's.
    nothing = [{"response": reference["response"], "items": []}]
    assert Hypothesis.SNAPSHOT_VERBATIM in explained(events, nothing)


def test_a_difference_is_about_an_item_wherever_it_is_placed() -> None:
    carried = carried_ids(LEFT_OUT)
    [reference] = results_json(reduce(LEFT_OUT))
    nine, eight, call = reference["items"]
    lost = [{"response": reference["response"], "items": [nine, call]}]
    moved = [{"response": reference["response"], "items": [eight, nine, call]}]
    [one] = compare(LEFT_OUT, [reference], lost)
    [other] = compare(LEFT_OUT, moved, lost)
    # msg_8 is missing at position 1 of one answer and at position 0 of the other: one
    # item, one subject.
    assert (one.path, other.path) == ("[0].items[1]", "[0].items[0]")
    assert subject(one, [reference], lost, carried) == subject(other, moved, lost, carried)
    assert subject(one, [reference], lost, carried)[3] == "id:msg_8"


def _scoped(kind: str, item_id: str, slot: int, **fields: Any) -> Event:
    return {"type": f"response.{kind}", "item_id": item_id, "output_index": slot, **fields}


# A streaming client's stream: a message announced, streamed with a content index per
# delta and confirmed with other text; a message only confirmed; a call announced and
# streamed, never confirmed; a call whose done item carries other arguments than its
# deltas; a snapshot that holds every item and one more call.
STREAMING = [
    {"type": "response.created", "response": {"id": "resp_1"}},
    {"type": "response.output_item.added", "output_index": 0, "item": _message(1, "")},
    _scoped("output_text.delta", "msg_1", 0, content_index=0, delta="Hel"),
    _scoped("output_text.delta", "msg_1", 0, content_index=1, delta="lo"),
    _scoped("output_text.done", "msg_1", 0, content_index=0, text="Hello!"),
    {"type": "response.output_item.done", "output_index": 0, "item": _message(1, "Hello!")},
    {"type": "response.output_item.done", "output_index": 1, "item": _message(2, "done")},
    {"type": "response.output_item.added", "output_index": 2, "item": _call(3, "")},
    _scoped("function_call_arguments.delta", "fc_3", 2, delta='{"city":"Oslo"}'),
    {"type": "response.output_item.added", "output_index": 3, "item": _call(4, "")},
    _scoped("function_call_arguments.delta", "fc_4", 3, delta='{"city":"Rome"}'),
    {"type": "response.output_item.done", "output_index": 3, "item": _call(4, '{"city":"Lima"}')},
    {"type": "response.completed", "response": {"id": "resp_1", "status": "completed", "output": [
        _message(1, "Hello!"), _message(2, "done"), _call(3, '{"city":"Oslo"}'),
        _call(4, '{"city":"Lima"}'), _call(5, '{"city":"Kyiv"}')]}},
]


def test_a_streaming_client_reads_text_from_deltas_and_calls_from_their_done_items() -> None:
    [result] = answer(Hypothesis.TEXT_STREAMED_CALLS_DONE, STREAMING) or []
    items = [entry["item"] for entry in result["items"]]
    # msg_2 was never shown, fc_3 never confirmed by its done, fc_5 only in the snapshot.
    assert [item["id"] for item in items] == ["msg_1", "fc_4"]
    # The message's text is its deltas, in one part; the call's arguments its done item's.
    assert [part["text"] for part in items[0]["content"]] == ["Hello"]
    assert items[1]["arguments"] == '{"city":"Lima"}'
    # The reference keeps all five items and the confirmed text.
    [reference] = results_json(reduce(STREAMING))
    assert len(reference["items"]) == 5
    assert reference["items"][0]["item"]["content"][0]["text"] == "Hello!"


def test_a_streaming_client_is_one_policy_over_several_causes() -> None:
    def streaming(events: list[Event]) -> list[dict[str, Any]]:
        return answer(Hypothesis.TEXT_STREAMED_CALLS_DONE, events) or []

    # Three streams cut from it: text that is only the deltas', a lost done-only
    # message and a lost call the snapshot alone confirms are causes of their own...
    bare = {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}
    confirmed = {"type": "response.completed", "response": {
        "id": "resp_1", "status": "completed", "output": [_call(3, '{"city":"Oslo"}')]}}
    streams = [[*STREAMING[:6], bare], [*STREAMING[:1], *STREAMING[6:7], bare],
               [*STREAMING[:1], *STREAMING[7:9], confirmed]]
    findings = find(_cases(*streams), FunctionCandidate(streaming))
    assert [(f.signatures[0].kind, f.signatures[0].decision) for f in findings] == [
        ("payload", "payload_extended"), ("missing", "snapshot_absent"), ("missing", "")]
    # ... and one policy's, though the snapshot verbatim explains the second too and
    # the done items verbatim the third: the streaming client explains all three.
    assert Hypothesis.SNAPSHOT_VERBATIM in findings[1].explained
    assert Hypothesis.DONE_ITEMS_VERBATIM in findings[2].explained
    _, clusters = cluster(findings)
    assert list(clusters) == [policy(Hypothesis.TEXT_STREAMED_CALLS_DONE)]
    # A client that also keeps the done-only message is not that policy's there.
    def keeps_all_messages(events: list[Event]) -> list[dict[str, Any]]:
        [result] = streaming(events)
        done = [e["item"] for e in events if e["type"] == "response.output_item.done"
                and e["item"]["type"] == "message" and e["item"]["id"] == "msg_2"]
        return [{**result, "items": [*result["items"], *({"item": m} for m in done)]}]

    [kept] = find(_cases(STREAMING), FunctionCandidate(keeps_all_messages))
    assert Hypothesis.TEXT_STREAMED_CALLS_DONE not in kept.explained
    [lost] = find(_cases(STREAMING), FunctionCandidate(streaming))
    assert Hypothesis.TEXT_STREAMED_CALLS_DONE in lost.explained


def test_a_cause_two_policies_explain_goes_to_the_one_that_explains_more() -> None:
    def finding(case: str, decision: str, explains: tuple[Hypothesis, ...]) -> Finding:
        mine = Signature(Divergence.PAYLOAD_DIFFERS, "R7", decision, "", "payload")
        return Finding(case, (), (), False, [], (), (mine,), explains)

    both = (Hypothesis.SNAPSHOT_VERBATIM, Hypothesis.TEXT_STREAMED_CALLS_DONE)
    findings = [
        finding("a1", "empty_payload_ignored", both),
        finding("a2", "empty_payload_ignored", both),
        finding("b1", "divergent_payload", (Hypothesis.TEXT_STREAMED_CALLS_DONE,)),
        finding("b2", "divergent_payload", (Hypothesis.TEXT_STREAMED_CALLS_DONE,)),
        finding("b3", "divergent_payload", (Hypothesis.TEXT_STREAMED_CALLS_DONE,)),
        # Two policies that explain one case each: the first in HYPOTHESES order.
        finding("c1", "payload_extended",
                (Hypothesis.COMPLETION_ORDER, Hypothesis.SNAPSHOT_IGNORED)),
    ]
    _, clusters = cluster(findings)
    assert {c.decision: [f.case for f in m] for c, m in clusters.items()} == {
        Hypothesis.TEXT_STREAMED_CALLS_DONE.value: ["a1", "a2", "b1", "b2", "b3"],
        Hypothesis.SNAPSHOT_IGNORED.value: ["c1"],
    }


def test_a_streaming_client_knows_an_item_without_an_id_by_its_gateway_id_or_slot() -> None:
    def bare(n: int, **names: Any) -> dict[str, Any]:
        return {k: v for k, v in _message(n, "x").items() if k != "id"} | names

    # Bedrock puts the id in the item's item_id (here both at one slot); another
    # gateway gives none at all (here at two slots).  A message announced so, then one
    # only confirmed so: the second was never shown.
    for first, second, slot in ((bare(1, item_id="msg_1"), bare(2, item_id="msg_2"), 0),
                                (bare(1), bare(2), 1)):
        events: list[Event] = [
            {"type": "response.created", "response": {"id": "resp_1"}},
            {"type": "response.output_item.added", "output_index": 0, "item": first},
            {"type": "response.output_item.done", "output_index": 0, "item": first},
            {"type": "response.output_item.done", "output_index": slot, "item": second},
            {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
        ]
        assert len(results_json(reduce(events))[0]["items"]) == 2
        [result] = answer(Hypothesis.TEXT_STREAMED_CALLS_DONE, events) or []
        assert len(result["items"]) == 1
