"""The vectors that score other programs are complete provider streams with declared
deviations (``differential.completion``): every field and event a provider sends, but
for the gaps that are a vector's point -- and each of those is declared and is the point.
"""

from __future__ import annotations

import copy
import doctest
import functools
from typing import Any

import pytest
import vector_corpus
from responses_oracle.differential.completion import (
    CATALOGUE,
    FIELD_ABSENT,
    GAPS,
    OWN,
    REPAIRED,
    REQUEST,
    complete,
    exercised_rules,
    fill_gap,
    keeps,
    numbering,
    presentation,
)
from responses_oracle.differential.conformance_vectors import (
    NOT_COMPLETED,
    Vector,
    VectorSource,
    corpus_vectors,
    generated_vectors,
    make_vector,
)
from responses_oracle.differential.oracle_trace import oracle_json
from responses_oracle.model.deviations import DEVIATIONS
from responses_oracle.serve.present import Presentation, present, served_problems

SCORING = [*corpus_vectors(), *generated_vectors(0, 100)]
"""The vectors the Real clients page scores each client on (``docsite.compliance``)."""


def _declared(vector: Vector) -> tuple[dict[str, Any], ...]:
    """A scoring vector's declared deviations: every one was completed."""
    assert vector.deviations is not None, vector.name
    return vector.deviations


@pytest.mark.parametrize("vector", SCORING, ids=lambda v: v.name)
def test_a_scoring_vector_lacks_no_field_but_its_declared_deviations(vector: Vector) -> None:
    assert served_problems(vector.events, presentation(_declared(vector))) == []
    assert vector.expected == tuple(oracle_json(vector.events))


def test_every_response_names_its_model_and_creation_time() -> None:
    # The AI SDK's provider rejects a response.created without them, before any rule.
    for vector in SCORING:
        for event in vector.events:
            response = event.get("response")
            if isinstance(response, dict) and event.get("type") == "response.created":
                assert {"created_at", "model"} <= set(response), vector.name


@functools.cache
def _minimal() -> dict[str, dict[str, Any]]:
    """Each bundled vector's minimal stream: the rule test's or counterexample's own
    (harvested once, when a test first asks: not at collection)."""
    return {entry["name"]: entry for entry in vector_corpus.minimal_streams()}

DECLARING = [v for v in SCORING if v.source is not VectorSource.GENERATED
             and any(d["name"] not in (FIELD_ABSENT, REPAIRED) for d in _declared(v))]
"""The bundled vectors that keep an event gap."""


@pytest.mark.parametrize("vector", DECLARING, ids=lambda v: v.name)
def test_a_declared_event_gap_is_the_vectors_point(vector: Vector) -> None:
    # Filling a declared gap in the vector served changes what the oracle answers on the
    # minimal stream, in what the vector tests: the gap is the point, not an accident.
    minimal = _minimal()[vector.name]
    point = oracle_json(minimal["events"])
    rules = minimal["rules"] or exercised_rules(point)
    style = numbering(minimal["events"])
    done = complete(minimal["events"], minimal["rules"])
    assert done.events == vector.events
    for deviation in _declared(vector):
        if deviation["name"] in (FIELD_ABSENT, REPAIRED):
            continue
        assert deviation["name"] in {*DEVIATIONS, *OWN}, deviation
        fills = [(gap, fill_gap(gap, list(vector.events), style))
                 for gap in GAPS if deviation["name"] in gap.deviations]
        fills = [(gap, filled) for gap, filled in fills if filled != list(vector.events)]
        assert fills, deviation
        assert not any(keeps(point, filled, rules, done.closed | gap.closes)
                       for gap, filled in fills), deviation


@pytest.mark.parametrize(
    "vector", [v for v in SCORING if any(d["name"] == FIELD_ABSENT for d in _declared(v))],
    ids=lambda v: v.name,
)
def test_a_declared_absent_field_is_the_point_or_has_no_value_to_send(vector: Vector) -> None:
    # Sent as the API sends it, the field changes the oracle's answer -- or the
    # recordings give it no value to send (an error event's message).
    declared = list(presentation(_declared(vector)).deviations)
    for deviation in declared:
        if not deviation.absent:
            continue
        others = Presentation(tuple(d for d in declared if d is not deviation))
        filled = present(list(vector.events), REQUEST, others)
        unfilled = [p for p in served_problems(filled, others) if deviation.explains(p)]
        assert unfilled or not keeps(vector.expected, filled, vector.rules), deviation


EVENTS = [
    {"type": "response.created", "response": {"id": "resp_1", "output": []},
     "sequence_number": 0},
    {"type": "response.output_item.done", "output_index": 0, "sequence_number": 1,
     "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
              "arguments": '{"city":"Paris"}'}},
    {"type": "response.completed", "sequence_number": 2,
     "response": {"id": "resp_1", "status": "completed", "output": []}},
]
"""A done-only call and an empty terminal output: R6's point, not R7's."""


def test_a_stream_is_completed_as_a_provider_sends_it() -> None:
    done = complete(EVENTS, ("R7",))
    assert done.deviations == ()
    types = [e["type"] for e in done.events]
    assert types == [
        "response.created", "response.in_progress", "response.output_item.added",
        "response.function_call_arguments.delta", "response.function_call_arguments.done",
        "response.output_item.done", "response.completed",
    ]
    assert [e["sequence_number"] for e in done.events] == list(range(7))
    added, terminal = done.events[2], done.events[-1]
    assert added["item"]["arguments"] == "" and added["item"]["status"] == "in_progress"
    assert terminal["response"]["output"][0]["arguments"] == '{"city":"Paris"}'
    assert terminal["response"]["usage"] and terminal["response"]["model"]
    assert done.events[-2]["item"]["status"] == "completed"


def test_the_gap_a_rule_tests_stays_and_is_declared() -> None:
    done = complete(EVENTS, ("R6",))
    assert [d["name"] for d in done.deviations] == ["done-only", REPAIRED]
    assert done.deviations[0]["what"] == DEVIATIONS["done-only"].what
    # The canonicalizer says the same in its words: it sends the added item.
    assert "output_item.added sent" in done.deviations[1]["what"]
    assert "response.output_item.added" not in [e["type"] for e in done.events]
    # The terminal output is filled: the empty snapshot is no note of R6.
    assert done.events[-1]["response"]["output"]


def test_a_field_the_rule_needs_absent_stays_absent_and_is_declared() -> None:
    renamed = copy.deepcopy(EVENTS)
    item = renamed[1]["item"]
    item["item_id"] = item.pop("id")
    done = complete(renamed, ("R6",))
    assert {"name": FIELD_ABSENT, "what": "`response.output_item.done` without `item.id`",
            "absent": ["response.output_item.done item.id"]} in done.deviations
    assert "id" not in done.events[-2]["item"]
    assert oracle_json(done.events)[0]["items"][0]["id_source"] == "renamed_field"


def test_completing_keeps_the_numbering_a_stream_has() -> None:
    counting_on = [{**e, "sequence_number": n + 5} for n, e in enumerate(EVENTS)]
    done = complete(counting_on, ("R7",))
    assert [e["sequence_number"] for e in done.events] == list(range(5, 12))


def test_the_modules_examples_hold() -> None:
    from responses_oracle.differential import completion

    assert doctest.testmod(completion).failed == 0


def test_a_value_the_canonicalizer_repairs_is_declared_in_its_words() -> None:
    # Copilot's rotating ids are the rule test's point: no gap, a value -- declared.
    [vector] = [v for v in SCORING if v.name == "rule-test_r5_copilot_rotating_ids_route_by_slot"]
    # (The canonicalizer also names what it does not re-send: the rotated events'
    # repeats, the deltas it replaces by one.)
    repaired = [d["what"] for d in _declared(vector) if d["name"] == REPAIRED]
    assert [w for w in repaired if w.startswith("function_call enc_1: id restored")]
    # A stream a provider following the API sends declares nothing.
    assert complete(EVENTS, ("R7",)).deviations == ()


def _vector(events: list[dict[str, Any]], rules: tuple[str, ...]) -> Vector:
    """The vector of ``events`` completed for ``rules``, as the corpus makes it."""
    done = complete(events, rules)
    return make_vector("v", VectorSource.RULE_TEST, "", done.events, rules, (), done.deviations)


def test_a_complete_provider_stream_answered_without_error_counts() -> None:
    vector = _vector(EVENTS, ("R7",))
    assert vector.counted and vector.robustness == ""
    data = vector.to_json()
    assert data["counted"] is True and "robustness" not in data


def test_a_deviation_no_provider_is_shown_to_send_is_a_robustness_row() -> None:
    # R6's point is the done-only call, and no recording shows a provider sending one.
    vector = _vector(EVENTS, ("R6",))
    assert not vector.counted
    assert vector.robustness == "no provider is shown to send done-only"
    assert vector.to_json()["robustness"] == vector.robustness


def test_a_field_every_provider_sends_left_out_is_a_robustness_row() -> None:
    # The R6 test's done item carries its id as item_id: the vector lacks `item.id`.
    renamed = copy.deepcopy(EVENTS)
    item = renamed[1]["item"]
    item["item_id"] = item.pop("id")
    vector = _vector(renamed, ("R6",))
    assert not vector.counted
    assert vector.robustness == (
        "it lacks what every provider sends: response.completed response.output[].id, "
        "response.output_item.done item.id; no provider is shown to send done-only")


def test_a_stream_the_oracle_answers_with_an_error_is_a_robustness_row() -> None:
    # Declared as complete, but cut before its terminal: the oracle's missing_terminal
    # is an error, and a client may rightly reject such a stream.
    cut = complete(EVENTS, ("R7",)).events[:-1]
    vector = make_vector("cut", VectorSource.RULE_TEST, "", cut, ("R9",), (), ())
    assert vector.robustness == ("the oracle answers it with an error (missing_terminal): "
                                 "a client may rightly reject it")
    # A stream that was not completed never counts either.
    plain = make_vector("plain", VectorSource.RULE_TEST, "", EVENTS, ("R7",))
    assert not plain.counted and plain.robustness == NOT_COMPLETED


def test_no_scoring_vector_that_counts_lacks_a_field_or_is_answered_with_an_error() -> None:
    counted = [v for v in SCORING if v.counted]
    assert counted and len(counted) < len(SCORING)
    for vector in counted:
        assert all(d["name"] != FIELD_ABSENT for d in _declared(vector)), vector.name
        assert not [d for r in vector.expected for d in r.get("diagnostics", [])
                    if d["severity"] == "error"], vector.name
        assert all(CATALOGUE[d["name"]].provider for d in _declared(vector)
                   if d["name"] not in (FIELD_ABSENT, REPAIRED)), vector.name


@pytest.mark.parametrize(
    "vector", [v for v in SCORING if v.source is VectorSource.GENERATED], ids=lambda v: v.name)
def test_a_generated_vector_declares_every_event_gap_it_keeps(vector: Vector) -> None:
    # A generated stream is its own point: its gaps are not filled, but each is named,
    # so a vector without `output_item.added` or cut before its terminal never counts.
    names = {d["name"] for d in _declared(vector)}
    style = numbering(vector.events)
    for gap in GAPS:
        if fill_gap(gap, list(vector.events), style) != list(vector.events):
            assert "done-only" in names or set(gap.deviations) & names, gap.deviations
