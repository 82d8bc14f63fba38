"""The real clients' adapters and the Real clients page recorded from their runs.

The clients are installed from the registries at pinned versions (pyproject's test
extra; ``adapters/node/package-lock.json``, installed by ``.ci/run`` with ``npm ci``):
a missing client fails these tests rather than skipping them.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from responses_oracle import reduce
from responses_oracle.differential.candidate import (
    NODE_ADAPTERS,
    ProcessCandidate,
    candidate_command,
)
from responses_oracle.differential.cause import (
    RUNTIME_KIND,
    failure_kind,
    judged,
    traced,
    trip_rule,
)
from responses_oracle.differential.harness import answers_of, find, trip_points
from responses_oracle.differential.hypotheses import explained
from responses_oracle.docsite.clients import (
    CLIENTS,
    DEFAULT,
    KNOWN,
    PAGE_NAME,
    RECORD_NAME,
    SPLIT,
    Client,
    Known,
    causes,
    complete_cases,
    known_found,
    load,
    render,
)
from responses_oracle.model.divergence import HYPOTHESES, Divergence, Hypothesis
from responses_oracle.streamgen.cases import Case
from responses_oracle.streamgen.choices import case_chooser
from responses_oracle.streamgen.streams import GeneratedStream, openai_stream

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return load(DOCS)


@pytest.mark.parametrize("client", CLIENTS, ids=lambda c: c.candidate)
def test_each_client_agrees_on_a_plain_openai_stream(client: Client) -> None:
    plain = openai_stream(case_chooser(11, 0), kinds=("function_call", "message"))
    candidate = ProcessCandidate(candidate_command(client.candidate), timeout=60)
    try:
        assert find([Case("plain", plain)], candidate) == []
    finally:
        candidate.close()


def test_streamtext_hands_over_parsed_arguments_that_agree_as_json() -> None:
    calls = openai_stream(case_chooser(11, 2), kinds=("function_call", "custom_tool_call"))
    candidate = ProcessCandidate(candidate_command("ai-streamtext"), timeout=60)
    try:
        [answer] = candidate.answer([calls])
        assert find([Case("calls", calls)], candidate) == []
    finally:
        candidate.close()
    assert isinstance(answer, list)
    entries = answer[0]["items"]
    functions = [e for e in entries if e["item"]["type"] == "function_call"]
    customs = [e for e in entries if e["item"]["type"] == "custom_tool_call"]
    assert functions and customs
    # Function arguments are the parsed value, so marked; custom input is text, unmarked.
    assert all(e["arguments_parsed"] is True and isinstance(e["item"]["arguments"], dict)
               for e in functions)
    assert all("arguments_parsed" not in e and isinstance(e["item"]["input"], str)
               for e in customs)


@pytest.mark.parametrize("client", CLIENTS, ids=lambda c: c.candidate)
def test_every_recorded_representative_still_shows_its_cause(
    client: Client, record: dict[str, Any]
) -> None:
    [recorded] = [c for c in record["clients"] if c["client"] == client.candidate]
    assert recorded["version"] == client.version()
    # Every cluster, and every cause a policy's cluster gathers, with its representative.
    clusters = causes(recorded)
    streams = [GeneratedStream(tuple(c["events"])) for c in clusters]
    candidate = ProcessCandidate(candidate_command(client.candidate), timeout=60)
    try:
        # Sent as the record sent them (a body of several responses, one per request).
        answers = answers_of(candidate, streams, SPLIT)
        raised = [(s, c["failure"]) for s, c in zip(streams, clusters, strict=True)
                  if c["failure_key"]]
        trips = iter(trip_points(raised, candidate, SPLIT))
    finally:
        candidate.close()
    for cluster, stream, answer in zip(clusters, streams, answers, strict=True):
        signatures = judged(stream.events, answer).signatures
        # The headline is the representative's own class, and it still shows it.
        assert cluster["class"] in {s.divergence.value for s in signatures}, cluster["id"]
        assert cluster["classes"][cluster["class"]] >= 1, cluster["id"]
        if cluster["hypothesis"]:
            # The representative keeps its own case: its cause, of the cluster's class.
            own = cluster["representative_cause"]
            assert (own["kind"], own["rule"], own["decision"], cluster["class"]) in {
                (s.kind, s.rule, s.decision, s.divergence.value) for s in signatures
            } or own["failure"], cluster["id"]
            # Still answered exactly as the policy does (and not as the reference),
            # still of the cluster's class.
            policy = Hypothesis(cluster["hypothesis"]["name"])
            assert policy in explained(stream.events, answer), cluster["id"]
            assert cluster["class"] in {s.divergence.value for s in signatures}, cluster["id"]
            assert (cluster["rule"], cluster["decision"]) == (
                HYPOTHESES[policy].rule, policy.value)
        elif cluster["failure_key"]:
            # Still the same message, still given up at the same decision.
            assert [s.failure for s in signatures] == [cluster["failure"]], cluster["id"]
            # Keyed by the check's message, or a runtime lookup error by its trip.
            runtime = failure_kind(cluster["failure"]) == RUNTIME_KIND
            assert cluster["failure_key"] == (RUNTIME_KIND if runtime else cluster["failure"])
            at = next(trips)
            assert trip_rule(traced(stream.events), at) == (
                cluster["rule"], cluster["decision"]), cluster["id"]
        elif cluster["class"] == Divergence.CANDIDATE_RAISED_ON_INVALID.value:
            assert any(s.failure and s.divergence.value == cluster["class"]
                       for s in signatures), cluster["id"]
        else:
            assert (cluster["class"], cluster["rule"], cluster["decision"]) in {
                (s.divergence.value, s.rule, s.decision) for s in signatures
            }, cluster["id"]


def test_the_page_is_what_the_record_renders(record: dict[str, Any]) -> None:
    assert (DOCS / PAGE_NAME).read_text(encoding="utf-8") == render(record)
    assert "real-clients.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_cluster_link_leads_to_one_anchor_of_its_own(record: dict[str, Any]) -> None:
    page = render(record)
    anchors = re.findall(r'<a id="([^"]+)"></a>', page)
    links = re.findall(r"\]\(#([^)]+)\)", page)
    # One anchor per top-level cluster of every client, none repeated (one cause of two
    # clients has one cluster id), and every link of the tables goes to one.
    assert len(anchors) == len(set(anchors)) == sum(len(c["clusters"]) for c in record["clients"])
    assert links and set(links) <= set(anchors)


def test_the_record_is_of_the_pinned_versions(record: dict[str, Any]) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["test"]
    pins = dict(p.split("==") for p in extras if "==" in p)
    lock = json.loads((NODE_ADAPTERS / "package.json").read_text())["dependencies"]
    for recorded in record["clients"]:
        wanted = pins if recorded["registry"] == "PyPI" else lock
        assert recorded["version"] == wanted[recorded["package"]], recorded["client"]
    assert record["count"] == 300 and record["seed"] == 0


def test_the_runs_are_on_the_completed_streams_that_count(record: dict[str, Any]) -> None:
    # The default generation completed as vectors export completes it; the robustness
    # rows (a field every provider sends absent, a deviation no provider is shown to
    # send, an error the oracle answers with) are left out of every client's run.
    cases, left_out = complete_cases(DEFAULT)
    assert len(cases) + left_out == record["count"] and left_out > 0
    for recorded in record["clients"]:
        assert (recorded["cases"], recorded["robustness"]) == (len(cases), left_out)
    created = [e["response"] for case in cases for e in case.stream.events
               if e.get("type") == "response.created"]
    assert created and all({"created_at", "model"} <= set(r) for r in created)


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: k.what)
def test_each_known_class_is_what_the_clients_answer_to_its_own_stream(
    known: Known, record: dict[str, Any]
) -> None:
    # The defining stream is a stream the oracle answers right: the class is the client's.
    assert not known.shows([r.to_dict() for r in reduce(list(known.stream))])
    answers = {}
    for client in CLIENTS:
        candidate = ProcessCandidate(candidate_command(client.candidate), timeout=60)
        try:
            [answers[client.candidate]] = candidate.answer([GeneratedStream(known.stream)])
        finally:
            candidate.close()
    found = [name for name, answer in answers.items() if known.shows(answer)]
    assert known_found(record)[known.what] == found


def test_the_empty_snapshot_row_lists_only_the_clients_that_return_nothing(
    record: dict[str, Any]
) -> None:
    # Issue 22: the row was matched from another case and listed three clients that
    # keep the call (openai-agents restores the streamed items; the AI SDK reads parts).
    [row] = [k for k in KNOWN if "completed.output: []" in k.what]
    assert known_found(record)[row.what] == ["openai-python", "openai-node"]


def test_the_severe_figure_counts_streams_by_their_own_class(record: dict[str, Any]) -> None:
    page = render(record)
    for client in record["clients"]:
        own = sum(c["severe_streams"] for c in client["clusters"])
        assert client["severe_streams"] == own, client["client"]
        assert f"{own} streams are of a severe class" in page
        for cluster in client["clusters"]:
            assert sum(cluster["classes"].values()) == cluster["count"], cluster["id"]


def test_every_cluster_names_where_its_shape_is_seen(record: dict[str, Any]) -> None:
    for client in record["clients"]:
        real = [bool(c["sources"]) for c in client["clusters"]]
        assert real == sorted(real, reverse=True), client["client"]  # real shapes first
        for cluster in client["clusters"]:
            for source in cluster["sources"]:
                assert source["evidence"] and source["cases"] >= 1
                if source["fixture"]:
                    assert (ROOT / source["fixture"]).is_file(), source


def test_the_openai_agents_driver_declares_the_custom_tools_it_is_called_with() -> None:
    # A custom apply_patch call is the app's own custom tool: an app that gets that call
    # declared it, and the SDK then hands it over instead of raising in its built-in
    # apply_patch path.
    created = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}
    call = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1",
            "name": "apply_patch", "input": "*** Begin Patch", "status": "completed"}
    events = (created, {"type": "response.output_item.done", "output_index": 0, "item": call},
              {"type": "response.completed",
               "response": {"id": "resp_1", "status": "completed", "output": [call]}})
    candidate = ProcessCandidate(candidate_command("openai-agents"), timeout=60)
    try:
        assert find([Case("apply_patch", GeneratedStream(events))], candidate) == []
    finally:
        candidate.close()


def test_each_default_run_ends_in_at_most_fifteen_clusters(record: dict[str, Any]) -> None:
    # Issue 12's target: what a maintainer can read through (the record is of the
    # default options: the pinned-versions test checks its count and seed).
    counts = {recorded["client"]: len(recorded["clusters"]) for recorded in record["clients"]}
    assert len(counts) == 5 and max(counts.values()) <= 15, counts


def test_the_record_is_a_file_the_generator_names() -> None:
    assert RECORD_NAME == "real-clients.json" and (DOCS / RECORD_NAME).is_file()
