"""The differential harness end to end: candidates, findings, shrinking, explanations."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from responses_oracle import reduce
from responses_oracle.differential.candidate import (
    CandidateError,
    Failure,
    FunctionCandidate,
    ProcessCandidate,
)
from responses_oracle.differential.cause import (
    LOST_PAYLOAD,
    RUNTIME_KIND,
    Cause,
    Causes,
    failure_kind,
    judged,
    mask_failure,
)
from responses_oracle.differential.harness import (
    Generation,
    answers_of,
    find,
    report,
    run_diff,
)
from responses_oracle.differential.hypotheses import explained
from responses_oracle.model.divergence import HYPOTHESES, Divergence, Hypothesis
from responses_oracle.serve.present import present
from responses_oracle.streamgen.cases import Case, generated_case, mix_of
from responses_oracle.streamgen.provider_profiles import apply_profiles
from responses_oracle.streamgen.streams import GeneratedStream, openai_stream
from responses_oracle.testing import assert_conforms
from responses_oracle.testing.strategies import data_chooser

from .naive_candidate import parse as naive

NAIVE = [sys.executable, str(Path(__file__).with_name("naive_candidate.py"))]
ORACLE = [sys.executable, "-m", "responses_oracle.differential.oracle_candidate"]


def _oracle(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [result.to_dict() for result in reduce(events)]


def test_the_oracle_conforms_to_itself() -> None:
    assert_conforms(_oracle, count=60)


def _mantle(choose_seed: int) -> GeneratedStream:
    case = generated_case(choose_seed, 0, mix=("openai",))
    from responses_oracle.streamgen.choices import case_chooser

    return apply_profiles(case.stream, ("bedrock-mantle",), case_chooser(choose_seed, 1))


def test_a_naive_parser_fails_with_an_explained_minimal_stream() -> None:
    streams = [_mantle(seed) for seed in range(6)]
    with pytest.raises(AssertionError) as failure:
        assert_conforms(naive, streams)
    message = str(failure.value)
    assert "cluster 1 [" in message and "docs/rules/R" in message
    assert "answers:" in message and "| candidate" in message
    assert "reference trace (explain; * = events involved)" in message
    assert "\n    * #" in message  # the events involved are marked
    assert "6 streams, 2 diverge" in message


def _one_call(call: dict[str, Any], *payload: dict[str, Any]) -> list[dict[str, Any]]:
    """One response: the call added, its payload events, the call done, completed."""
    return [
        {"type": "response.created", "response": {"id": "r"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        *payload,
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "r"}},
    ]


def test_a_renamed_id_lost_is_decided_by_r6_on_the_rename() -> None:
    renamed = {"type": "function_call", "item_id": "fc_1", "call_id": "call_1", "name": "f",
               "arguments": "{}"}
    events = _one_call(renamed)
    with pytest.raises(AssertionError) as failure:
        assert_conforms(naive, [events])
    message = str(failure.value)
    # The naive parser answers the done items as they came: that policy is the cause,
    # and the rename, R6, is the decision it met.
    mistake = HYPOTHESES[Hypothesis.DONE_ITEMS_VERBATIM].mistake
    assert f"id_differs -- the client {mistake}, R6," in message
    assert "1 x id_differs: R6 id_renamed_field" in message
    assert "[id_differs] [0].items[0].item.id: reference 'fc_1', candidate null" in message


def test_assert_conforms_tolerates_the_allowed_classes() -> None:
    truncated = [[{"type": "response.created", "response": {"id": "r"}}]]

    def refuses(events: list[dict[str, Any]]) -> dict[str, Any]:
        raise RuntimeError("no terminal")

    with pytest.raises(AssertionError, match="candidate_raised_on_invalid"):
        assert_conforms(refuses, truncated)
    assert_conforms(refuses, truncated, allowed=[Divergence.CANDIDATE_RAISED_ON_INVALID])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_shrunk_clusters_keep_their_cause_and_their_frame(data: st.DataObject) -> None:
    choose = data_chooser(data)
    stream = apply_profiles(
        openai_stream(choose, kinds=("function_call",)), ("blank-terminal-arguments",), choose
    )
    candidate = FunctionCandidate(naive)
    findings = find([Case("blank", stream)], candidate)
    if not findings:
        return
    result = report(1, findings, candidate, started=0.0, checked=0.0)
    [cluster] = result.clusters
    causes = Causes.of(findings[0].signatures[:1])
    assert len(cluster.events) <= len(stream.events)
    # The minimal stream still shows the cause (for a client policy's cluster: the
    # answer is still exactly the policy's), and still starts and ends its response.
    answer = candidate.answer([GeneratedStream(cluster.events)])[0]
    if cluster.hypothesis is None:
        assert cluster.cause == causes.key(findings[0].signatures[0])
        assert causes.shows(cluster.cause, judged(cluster.events, answer).signatures)
    else:
        assert cluster.hypothesis in findings[0].explained
        assert cluster.hypothesis in explained(cluster.events, answer)
    assert cluster.events[0]["type"] == "response.created"
    assert cluster.events[-1]["type"] == stream.events[-1]["type"]


def test_the_rule_comes_from_the_events_involved_not_the_end_of_the_stream() -> None:
    # The naive parser keeps a blanked done item's arguments blank: R7 on the events of
    # that call, whatever follows it.
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "arguments": ""}
    events = _one_call(call, {"type": "response.function_call_arguments.delta",
                              "output_index": 0, "item_id": "fc_1", "delta": '{"a":1}'})
    for tail in ([], [{"type": "response.output_text.delta", "output_index": 9, "delta": "x"}]):
        signatures = judged([*events, *tail], [naive([*events, *tail])]).signatures
        assert signatures[0].divergence is Divergence.WRONG_TOOL_RUN
        assert signatures[0].rule == "R7"


def test_an_item_lost_to_another_at_its_slot_is_decided_by_r3() -> None:
    # Two done items at one slot and no snapshot: a client keyed by output_index keeps
    # the second; the reference keeps both (R3), and the lost one is decided there,
    # not by the snapshot every item of the response lacks.
    message = {"type": "message", "id": "msg_1", "role": "assistant",
               "content": [{"type": "output_text", "text": "hi"}]}
    search = {"type": "web_search_call", "id": "ws_1", "status": "completed"}
    events = [
        {"type": "response.created", "response": {"id": "r"}},
        {"type": "response.output_item.done", "output_index": 1, "item": message},
        {"type": "response.output_item.done", "output_index": 1, "item": search},
        {"type": "response.completed", "response": {"id": "r"}},
    ]
    by_slot = {e["output_index"]: e["item"] for e in events if "item" in e}
    answer = [{"response": {"id": "r", "status": "completed"},
               "items": [{"item": item} for item in by_slot.values()]}]
    signatures = judged(events, answer).signatures
    assert [(s.divergence, s.rule, s.decision) for s in signatures] == [
        (Divergence.ITEM_LOST, "R3", "slot_reused")]


def test_a_status_on_a_body_without_terminal_is_decided_at_the_end_of_input() -> None:
    events = [{"type": "response.created", "response": {"id": "r", "status": "in_progress"}}]
    answer = [{"response": {"id": "r", "status": "in_progress"}, "items": []}]
    signatures = judged(events, answer).signatures
    assert [(s.divergence, s.rule, s.decision) for s in signatures] == [
        (Divergence.STATUS_DIFFERS, "R9", "missing_terminal")]


def test_a_payload_lost_and_one_rewritten_are_two_causes_on_a_plain_stream() -> None:
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "arguments": ""}
    events = _one_call(call)
    lost = {**call, "arguments": None}
    rewritten = {**call, "arguments": "{}"}
    answers = [
        [{"response": {"id": "r"}, "items": [{"item": lost}]}],
        [{"response": {"id": "r"}, "items": [{"item": rewritten}]}],
    ]
    kinds = [[s.kind for s in judged(events, a).signatures] for a in answers]
    assert kinds == [[LOST_PAYLOAD], ["payload"]]
    # Parsed, arguments of none ({}) for arguments the reference holds are lost too.
    events = _one_call({**call, "arguments": '{"a":1}'})
    none = [{"response": {"id": "r"}, "items": [{"item": {**call, "arguments": {}},
                                                  "arguments_parsed": True}]}]
    assert [s.kind for s in judged(events, none).signatures] == [LOST_PAYLOAD]
    # A message that keeps only its first part lost the rest, like one with none.
    parts = [{"type": "output_text", "text": "a"}, {"type": "output_text", "text": "b"}]
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": parts}
    events = _one_call(message)
    other = [{"type": "output_text", "text": "c"}]
    for kept, kind in ((parts[:1], LOST_PAYLOAD), ([], LOST_PAYLOAD), (other, "payload")):
        answer = [{"response": {"id": "r"}, "items": [{"item": {**message, "content": kept}}]}]
        [mine] = judged(events, answer).signatures
        assert mine.kind == kind


def test_failure_texts_are_masked_to_one_cause() -> None:
    one = mask_failure("expected item_id 'fc_bdebf8995ad86c58', got 'rs_bdeb12345678ab' at 3")
    two = mask_failure("expected item_id 'fc_x', got 'msg_a1' at 17")
    assert one == two == "expected item_id '…', got '…' at N"
    assert mask_failure("missing output at index undefined") == "missing output at index N"
    embedded = 'Type validation failed: Value: {"type":"x.y","item":{"id":"a"}}.\nError: stack'
    assert mask_failure(embedded) == "Type validation failed: Value: {x.y …}."
    assert mask_failure("Value: [1, {}]") == "Value: {…}"
    assert mask_failure("id 9f86d081884c7d65 lost") == mask_failure("id call_Zx81Qm3kPl lost")


def test_a_failure_kind_is_its_error_class_with_the_runtime_lookups_as_one() -> None:
    assert failure_kind("RuntimeError: Duplicate response output index N.") == "RuntimeError"
    assert failure_kind("AI_TypeValidationError: Type validation failed") == (
        "AI_TypeValidationError")
    assert failure_kind("IndexError: list index out of range") == RUNTIME_KIND
    assert failure_kind("TypeError: list indices must be integers") == RUNTIME_KIND
    assert failure_kind("no answer within N s without answering") == (
        "no answer within N s without answering")


def _message(text: str, index: int | None = 0) -> list[dict[str, Any]]:
    """A message whose text arrives without its part being announced, every event as the
    API sends it (``present``) but for a ``content_index`` of ``None``: left out, which
    the API's types do not allow."""
    events = present([
        {"type": "response.created", "response": {"id": "r"}},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}},
        {"type": "response.output_text.done", "item_id": "msg_1", "output_index": 0,
         "text": text, "content_index": index},
        {"type": "response.completed", "response": {"id": "r"}},
    ])
    return [{k: v for k, v in e.items() if v is not None or k != "content_index"}
            for e in events]


def _indexes_parts(events: list[dict[str, Any]]) -> dict[str, Any]:
    """A client that indexes its parts by the event's content_index, unguarded, and
    refuses a second response id by a check of its own."""
    parts: list[str] = []
    ids = {e["response"]["id"] for e in events if "response" in e}
    if len(ids) > 1:
        raise RuntimeError("response identity changed")
    for event in events:
        if event["type"] == "response.output_text.done":
            parts[event.get("content_index")] = event["text"]  # type: ignore[index]
    return _oracle(events)[0]


def test_one_unguarded_access_is_one_cluster_whatever_it_raises() -> None:
    # A runtime lookup error is keyed by where it trips; a check of the client's own by
    # its message.
    renamed = _message("x")
    renamed[-1] = renamed[-1] | {"response": renamed[-1]["response"] | {"id": "r2"}}
    cases = [
        Case("index", GeneratedStream(tuple(_message("a")))),
        Case("none", GeneratedStream(tuple(_message("b", None)))),
        Case("renamed", GeneratedStream(tuple(renamed))),
    ]
    candidate = FunctionCandidate(_indexes_parts)
    result = report(3, find(cases, candidate), candidate, started=0.0, checked=0.0)
    by_cases = {c.cases: c for c in result.clusters}
    assert set(by_cases) == {("index", "none"), ("renamed",)}
    lookup = by_cases["index", "none"]
    # The stream without content_index is invalid per the API's types: it keeps its own
    # class, and joins the valid stream's cluster by where the same access trips.
    assert dict(lookup.classes) == {Divergence.CANDIDATE_RAISED_ON_VALID: 1,
                                    Divergence.CANDIDATE_RAISED_ON_INVALID: 1}
    # Both raise at the text's done event, which the reference routes to the message.
    assert lookup.cause.failure == RUNTIME_KIND and lookup.rule == "R5"
    assert lookup.decision.startswith("route ")
    assert sorted(what.split(" (at ")[0] for what, _ in lookup.variants) == [
        "IndexError: list assignment index out of range",
        "TypeError: list indices must be integers or slices, not NoneType",
    ]
    # A check of the client's own is keyed by its message, placed at its trip.
    renamed_cluster = by_cases["renamed",]
    assert renamed_cluster.cause == Cause(
        "raised", "", "", "RuntimeError: response identity changed")
    assert renamed_cluster.decision == "response_id_changed"
    text = result.render()
    assert "IndexError: list assignment index out of range" in text
    assert "TypeError: list indices must be integers or slices, not NoneType" in text
    listed = result.to_json()["clusters"]
    assert sorted(v["what"] for c in listed for v in c["variants"]) == sorted([
        *(what for what, _ in lookup.variants),
        "RuntimeError: response identity changed (at R9 response_id_changed)"])


def test_process_candidates_are_batched_and_agree_with_the_oracle() -> None:
    result = run_diff(ORACLE, generation=Generation(seed=5, count=30))
    assert result.ok and result.cases == 30
    assert "30 streams, 0 diverge" in result.summary()


def test_jobs_do_not_change_the_findings() -> None:
    generation = Generation(seed=2, count=24)
    one = run_diff(NAIVE, generation=generation, jobs=1, shrink_clusters=False)
    two = run_diff(NAIVE, generation=generation, jobs=2, shrink_clusters=False)
    assert not one.ok
    assert [(f.case, f.signatures) for f in one.findings] == [
        (f.case, f.signatures) for f in two.findings
    ]
    assert [c.id for c in one.clusters] == [c.id for c in two.clusters]


def test_generators_and_profiles_are_chosen_by_name() -> None:
    generation = Generation(seed=3, count=12, mix=mix_of(["profile"]),
                            profiles=("bedrock-mantle",))
    labels = {generation.case(n).stream.labels for n in range(12)}
    assert all(any("bedrock-mantle" in label for label in ls) for ls in labels)
    with pytest.raises(ValueError, match="unknown generator"):
        mix_of(["nope"])


def test_the_report_json_has_throughput_ids_and_both_answers() -> None:
    result = run_diff(NAIVE, generation=Generation(seed=1, count=18))
    data = result.to_json()
    assert data["streams_per_second"] > 0 and data["diverging_case_ids"]
    assert len(data["clusters"]) == len(result.clusters) >= 1
    for cluster in data["clusters"]:
        assert len(cluster["id"]) == 10 and cluster["cases"] and cluster["count"] == len(
            cluster["cases"])
        assert cluster["rule_doc"] == f"docs/rules/{cluster['rule']}.md"
        assert cluster["reference"] and "candidate" in cluster and cluster["trace"]
        # Each case keeps its own class; the headline is the representative's.
        assert sum(cluster["classes"].values()) == cluster["count"]
        assert cluster["class"] in cluster["classes"]
    # Real shapes first, then by harm.
    ranks = [(not c["sources"], c["harm_rank"]) for c in data["clusters"]]
    assert ranks == sorted(ranks)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys\nfor line in sys.stdin: print('not json', flush=True)", "not JSON"),
        ("import sys\nfor line in sys.stdin: print('{\"id\": \"other\"}', flush=True)",
         "where 'c0' was expected"),
    ],
)
def test_a_misbehaving_candidate_is_a_failure_not_a_crash(script: str, message: str) -> None:
    candidate = ProcessCandidate([sys.executable, "-c", script], timeout=2)
    try:
        answers = candidate.answer([generated_case(0, 0).stream, generated_case(0, 1).stream])
    finally:
        candidate.close()
    assert len(answers) == 2
    assert isinstance(answers[0], Failure) and message in answers[0].message


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; sys.stderr.write('boom: no such module\\n'); sys.exit(3)",
         "status 3"),
        ("import time; time.sleep(30)", "no answer within 1 s"),
    ],
)
def test_a_candidate_that_never_answers_cannot_run(script: str, message: str) -> None:
    candidate = ProcessCandidate([sys.executable, "-c", script], timeout=1)
    try:
        with pytest.raises(CandidateError) as error:
            candidate.answer([generated_case(0, n).stream for n in range(5)])
    finally:
        candidate.close()
    assert message in str(error.value)
    if "boom" in script:
        assert str(error.value).split("its stderr:")[1].count("boom: no such module") == 1


def test_openai_python_without_openai_gives_the_install_hint(tmp_path: Path) -> None:
    (tmp_path / "httpx2.py").write_text("raise ImportError(\"No module named 'httpx2'\")\n")
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); "
        "import runpy; runpy.run_module('responses_oracle.differential.openai_candidate', "
        "run_name='__main__')"
    )
    candidate = ProcessCandidate([sys.executable, "-c", script], timeout=20)
    try:
        with pytest.raises(CandidateError) as error:
            candidate.answer([generated_case(0, 0).stream])
    finally:
        candidate.close()
    assert "status 2" in str(error.value)
    assert "pip install 'responses-oracle[clients]'" in str(error.value)


def test_openai_python_adapter_is_explained_by_rule() -> None:
    # openai is in the test extra: without it this fails rather than skips.
    from responses_oracle.differential.openai_candidate import parse
    from responses_oracle.streamgen.choices import case_chooser

    candidate = FunctionCandidate(parse)
    plain = openai_stream(case_chooser(11, 0), kinds=("function_call", "message"))
    assert find([Case("plain", plain)], candidate) == []
    mantle = apply_profiles(
        openai_stream(case_chooser(11, 1), kinds=("function_call",)),
        ("bedrock-mantle",),
        case_chooser(11, 2),
    )
    [finding] = find([Case("mantle", mantle)], candidate)
    assert finding.signatures[0].divergence is Divergence.CANDIDATE_RAISED_ON_VALID
    result = report(1, [finding], candidate, started=0.0, checked=0.0)
    [cluster] = result.clusters
    # A check of the SDK's own: keyed by its message; it trips at the done item, which
    # the reference matches to the call (R6).
    assert cluster.cause == Cause("raised", "", "", cluster.message)
    assert "identity changed" in cluster.message
    assert cluster.decision == "id_only_as_item_id"
    assert cluster.variants == ((f"{cluster.message} (at R6 id_only_as_item_id)", 1),)
    # Shrunk inside its frame; the SDK gives up at the done item, which R6 decides.
    assert cluster.events[0]["type"] == "response.created"
    assert cluster.events[-1]["type"] == "response.completed"
    assert cluster.rule == "R6"
    [marked] = [line for line in cluster.trace if line.startswith("* ")]
    assert "response.output_item.done" in marked


def test_a_body_with_two_responses_is_one_request_unless_split() -> None:
    from responses_oracle.differential.openai_candidate import parse

    def body(n: int) -> list[dict[str, Any]]:
        return [
            {"type": "response.created", "response": {"id": f"resp_{n}", "status": "in_progress",
                                                      "output": []}},
            {"type": "response.completed", "response": {"id": f"resp_{n}", "status": "completed",
                                                        "output": []}},
        ]

    stream = GeneratedStream(tuple(present([*body(1), *body(2)])), ("given",))
    candidate = FunctionCandidate(parse)
    [whole] = answers_of(candidate, [stream])
    [split] = answers_of(candidate, [stream], split=True)
    assert isinstance(split, list) and len(split) == 2
    assert judged(stream.events, split).classified == ()
    classes = {s.divergence for s in judged(stream.events, whole).signatures}
    assert classes & {Divergence.RESPONSES_DIFFER, Divergence.CANDIDATE_RAISED_ON_VALID}
