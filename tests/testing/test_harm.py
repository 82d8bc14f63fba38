"""Harm a maintainer can trust: each stream keeps its own class, the classes say what the
client's user suffers, and every cluster says where its shape is seen (issue 22).

Each test here failed before issue 22: a cluster took the worst class of its streams, a
re-keyed call with the same tool and arguments ran "the wrong tool", a divergent
payload kept from the other source was a wrong tool run, a raise on a flagged stream
ranked with a raise on a clean one, and no cluster said where its shape came from.
"""

from __future__ import annotations

import time
from typing import Any

from responses_oracle import reduce
from responses_oracle.differential.candidate import Failure, FunctionCandidate
from responses_oracle.differential.cause import Causes, judged
from responses_oracle.differential.findings import cluster_order
from responses_oracle.differential.harness import find, report
from responses_oracle.differential.taxonomy import classify
from responses_oracle.model import divergence
from responses_oracle.model.divergence import HARM, Divergence
from responses_oracle.model.vocabulary import Severity
from responses_oracle.serve.present import present
from responses_oracle.streamgen.cases import Case
from responses_oracle.streamgen.streams import GeneratedStream

# Names issue 22 added are read off their modules, so that each test fails by itself
# on the code before it (the lead's check), not the whole file at import.
REKEYED, DEFENSIBLE, FLAGGED = (
    Divergence._value2member_map_.get(name)
    for name in ("call_rekeyed", "two_defensible_answers", "candidate_raised_on_flagged")
)

CREATED = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}


def _completed(*output: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.completed",
            "response": {"id": "resp_1", "status": "completed", "output": list(output)}}


def _fc(call_id: str, arguments: str = '{"city":"Paris"}', **extra: Any) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id,
            "name": "get_weather", "arguments": arguments} | extra


def _done(item: dict[str, Any], slot: int = 0) -> dict[str, Any]:
    return {"type": "response.output_item.done", "output_index": slot, "item": item}


def _answer(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"response": {"id": "resp_1", "status": "completed"},
             "items": [{"item": item} for item in items]}]


def _classes(events: list[dict[str, Any]], answer: Any) -> list[Divergence]:
    return [c.divergence for c in judged(events, answer).classified]


# -- item 2: harm semantics --------------------------------------------------------------


def test_a_call_re_keyed_with_the_same_tool_and_arguments_is_call_rekeyed() -> None:
    events = [CREATED, _done(_fc("call_1")), _completed(_fc("call_1"))]
    # The vLLM-behind-a-gateway shape (fixtures/quirks q05): a new call_id, the
    # arguments whitespace-trimmed; the same tool runs with the same input.
    rekeyed = _fc("functions.get_weather:0", '{"city": "Paris"}') | {"id": "fc_call_1"}
    assert _classes(events, _answer(rekeyed)) == [
        REKEYED, Divergence.PAYLOAD_DIFFERS]
    # Other arguments, or another tool, with the new call_id: still the wrong tool run.
    assert Divergence.WRONG_TOOL_RUN in _classes(
        events, _answer(_fc("functions.get_weather:0", '{"city":"Oslo"}') | {"id": "fc_call_1"}))
    assert Divergence.WRONG_TOOL_RUN in _classes(
        events, _answer(_fc("functions.get_weather:0", name="get_time") | {"id": "fc_call_1"}))
    # Ranked below the severe classes, above bookkeeping.
    assert HARM.index(REKEYED) > HARM.index(Divergence.CONFIRMED_CALL_LOST)
    assert HARM.index(REKEYED) < HARM.index(Divergence.PAYLOAD_DIFFERS)


def test_a_divergent_payload_kept_from_the_other_source_is_two_defensible_answers() -> None:
    added = {"type": "response.output_item.added", "output_index": 0,
             "item": _fc("call_1", "")}
    delta = {"type": "response.function_call_arguments.delta", "output_index": 0,
             "item_id": "fc_call_1", "delta": '{"city":"Paris"}'}
    events = [CREATED, added, delta, _done(_fc("call_1", '{"city":"Oslo"}')),
              _completed(_fc("call_1", '{"city":"Oslo"}'))]
    [result] = reduce(events)
    assert "divergent_payload" in {d.code.value for d in result.diagnostics}
    # The client kept the streamed arguments, the oracle took the done item's.
    assert _classes(events, _answer(_fc("call_1"))) == [DEFENSIBLE]
    # Blank arguments are no defensible answer: the tool runs with nothing.
    assert _classes(events, _answer(_fc("call_1", ""))) == [Divergence.WRONG_TOOL_RUN]
    # Without the trace (an audit of persisted items), the classifier cannot tell.
    plain = [c.divergence for c in classify(result, _answer(_fc("call_1")), events=events)]
    assert plain == [Divergence.WRONG_TOOL_RUN]
    assert HARM.index(DEFENSIBLE) > HARM.index(Divergence.ITEM_EXTRA)


def test_a_raise_on_a_flagged_stream_ranks_below_one_on_a_clean_stream() -> None:
    # Streams as the API sends them (``present``): one it does not allow is invalid.
    clean = present([CREATED, _done(_fc("call_1")), _completed(_fc("call_1"))])
    assert _classes(clean, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_VALID]
    # The snapshot renames the call: the oracle warns (metadata_conflict), and still
    # reduces the stream.
    flagged = present([CREATED, _done(_fc("call_1")), _completed(_fc("call_1", name="get_time"))])
    [result] = reduce(flagged)
    # (done_only_item: the item arrives without output_item.added, an info.)
    assert {(d["code"], d["severity"]) for d in result.to_dict()["diagnostics"]} == {
        ("metadata_conflict", "warning"), ("done_only_item", "info")}
    assert _classes(flagged, Failure("boom")) == [FLAGGED]
    # A gap in sequence numbers flags nothing (events lost in transit, or shrinking).
    gapped = [dict(e, sequence_number=n * 2) for n, e in enumerate(clean)]
    assert _classes(gapped, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_VALID]
    truncated = clean[:-1]
    assert _classes(truncated, Failure("boom")) == [Divergence.CANDIDATE_RAISED_ON_INVALID]
    ranks = [HARM.index(divergence.RAISED[s]) for s in (None, Severity.WARNING, Severity.ERROR)]
    assert ranks == sorted(ranks) and len(set(ranks)) == 3


# -- item 1: harm per stream ------------------------------------------------------------


def _blank_done(item: dict[str, Any], field: str) -> list[dict[str, Any]]:
    """A stream whose done item and snapshot blank ``item``'s payload ``field``."""
    blank = dict(item) | {field: "" if field == "arguments" else []}
    return [CREATED, {"type": "response.output_item.added", "output_index": 0, "item": item},
            _done(blank), _completed(blank)]


def _snapshot_verbatim(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    last = events[-1]["response"]
    return [{"response": {"id": last["id"], "status": last["status"]},
             "items": [{"item": item} for item in last["output"]]}]


def test_a_cluster_counts_its_streams_per_class_and_reads_as_its_representative() -> None:
    message = {"type": "message", "id": "msg_1", "role": "assistant",
               "content": [{"type": "output_text", "text": "hello", "annotations": []}]}
    streams = [
        _blank_done(_fc("call_1"), "arguments"),
        _blank_done(message, "content"),
        _blank_done(message | {"id": "msg_2"}, "content"),
    ]
    cases = [Case(f"s{n}", GeneratedStream(tuple(s), ("openai",)))
             for n, s in enumerate(streams)]
    candidate = FunctionCandidate(_snapshot_verbatim)
    findings = find(cases, candidate)
    result = report(len(cases), findings, candidate, started=time.perf_counter(),
                    checked=time.perf_counter())
    [cluster] = result.clusters
    # One wrong tool run among three streams, not "wrong tool run, 3 streams".
    assert cluster.classes == ((Divergence.WRONG_TOOL_RUN, 1), (Divergence.PAYLOAD_DIFFERS, 2))
    assert cluster.severe == result.severe == 1
    representative = judged(list(cluster.events), cluster.answer)
    assert cluster.divergence in {s.divergence for s in representative.signatures}
    # A policy's representative keeps its own cause too (issue 22 item 4).
    assert cluster.hypothesis is not None and cluster.representative_cause is not None
    assert Causes().shows(cluster.representative_cause, representative.signatures,
                          cluster.divergence)
    data = cluster.to_json()
    assert data["severe_streams"] == 1 and sum(data["classes"].values()) == data["count"] == 3


# -- item 6: provenance -----------------------------------------------------------------


def test_a_case_is_real_when_it_has_a_providers_shape_and_synthetic_otherwise() -> None:
    from responses_oracle.streamgen.provenance import OPENAI, source_of

    rekey = source_of(("openai", "profile:litellm-vllm-rekey"))
    assert rekey is not None and rekey.fixture.startswith("fixtures/quirks/q05")
    assert source_of(("openai",)) is OPENAI
    assert source_of(("openai", "profile:sglang")) is not None  # tracker threads only
    for synthetic in [("openai", "profile:vllm", "fault:drop@3(x)"), ("model-guided",),
                      ("several-responses",), ("after-terminal",)]:
        assert source_of(synthetic) is None, synthetic
    assert source_of(("corpus",), "fixtures/quirks/q05-vllm-snapshot-rekeys-call.jsonl")
    assert source_of(("corpus",), "/tmp/mine.jsonl") is None


def test_clusters_with_a_real_shape_rank_first() -> None:
    from responses_oracle.streamgen.provenance import OPENAI

    synthetic = GeneratedStream(tuple(_blank_done(_fc("call_1"), "arguments")), ("faulty",))
    real = GeneratedStream(tuple([CREATED, _done(_fc("call_1")), _completed(_fc("call_1"))]),
                           ("openai",))
    candidate = FunctionCandidate(lambda events: _answer(_fc("call_1", "{}"))
                                  if len(events) == 3 else Failure("boom"))
    cases = [Case("synthetic", synthetic), Case("real", real)]
    findings = find(cases, candidate)
    result = report(2, findings, candidate, started=0.0, checked=0.0)
    ordered = cluster_order(result.clusters)
    assert [bool(c.sources) for c in ordered] == sorted(
        (bool(c.sources) for c in ordered), reverse=True)
    assert ordered[0].sources and ordered[0].sources[0][0] is OPENAI


# -- item 3: realistic drivers ----------------------------------------------------------


def test_every_request_declares_a_tool_for_every_call_the_stream_carries() -> None:
    import json

    from responses_oracle.differential.candidate import request_line

    custom = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_2",
              "name": "apply_patch", "input": "*** Begin Patch"}
    hosted = {"type": "web_search_call", "id": "ws_1", "status": "completed"}
    events = [CREATED, _done(_fc("call_1"), 0), _done(hosted, 1),
              _completed(_fc("call_1"), hosted, custom, _fc("call_3", name="get_time"))]
    request = json.loads(request_line("c1", GeneratedStream(tuple(events)), sse=False))
    # Hosted tools are the provider's; a call found only in the snapshot has its tool too.
    assert request["tools"] == [
        {"type": "function", "name": "get_weather"},
        {"type": "custom", "name": "apply_patch"},
        {"type": "function", "name": "get_time"},
    ]


# -- item 4: representatives keep their case --------------------------------------------


def test_a_policys_representative_keeps_its_own_cause_while_shrinking() -> None:
    # Two wrong tool runs in one stream, one snapshot_verbatim explains: call A's
    # arguments blanked by its done item and the snapshot (empty_payload_ignored, the
    # case's own cause, first), call B renamed by the snapshot (metadata_conflict).
    # Shrinking that only kept "the policy, a wrong tool run" dropped A and showed B.
    a, b = _fc("call_a"), _fc("call_b", '{"city":"Oslo"}')
    added = [{"type": "response.output_item.added", "output_index": n, "item": i | {
        "arguments": ""}} for n, i in enumerate((a, b))]
    delta = {"type": "response.function_call_arguments.delta", "output_index": 0,
             "item_id": "fc_call_a", "delta": a["arguments"]}
    arguments_done = {"type": "response.function_call_arguments.done", "output_index": 0,
                      "item_id": "fc_call_a", "arguments": a["arguments"]}
    blank_a, renamed_b = a | {"arguments": ""}, b | {"name": "get_time"}
    events = [CREATED, *added, delta, arguments_done, _done(blank_a, 0), _done(b, 1),
              _completed(blank_a, renamed_b)]
    candidate = FunctionCandidate(_snapshot_verbatim)
    [finding] = find([Case("two", GeneratedStream(tuple(events), ("openai",)))], candidate)
    own = Causes().key(finding.signatures[0])
    assert (own.kind, own.decision) == ("payload", "empty_payload_ignored")
    result = report(1, [finding], candidate, started=0.0, checked=0.0)
    [cluster] = result.clusters
    assert cluster.hypothesis is not None and len(cluster.events) < len(events)
    shown = judged(list(cluster.events), cluster.answer).signatures
    assert Causes().shows(own, shown, cluster.divergence), shown
