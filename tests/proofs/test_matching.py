"""The matcher (R6) proved: the reducer's own classifiers, run on Z3 terms.

``proofs/matching.py`` builds the matcher's transition system from the classifiers of
``model/admission.py`` (the functions the driver calls) and the tables.  Here: the
reference keeps every matcher invariant over every run of up to ``MATCHER_DEPTH`` items;
each matcher mutant is refuted by a short run whose stream, replayed through the
mutant's generated reducer, shows the bug on the result — and not through the
reference's; the classifiers give the same answers on Python values and on Z3 terms;
and the vacuity report says which cells of the matching table a stream can reach.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
import z3
from responses_oracle.model.admission import identity_relation
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.payload import payload_key
from responses_oracle.model.routing import route_target, route_views
from responses_oracle.model.tables import REFERENCE, KernelSet
from responses_oracle.model.vocabulary import IdView, RouteAction, SlotView
from responses_oracle.proofs.conformance import violated_invariants
from responses_oracle.proofs.counterexample import WRITE_COMMAND, fixture_path, render, to_jsonl
from responses_oracle.proofs.encoding import Bounds
from responses_oracle.proofs.matching import (
    MATCHER_DEPTH,
    MATCHER_PROPERTIES,
    check_matcher,
    fit_coverage,
    induct_matcher,
)
from responses_oracle.proofs.mutants import MUTANT_LIST, MUTANTS, Mutant
from responses_oracle.proofs.ops_z3 import Z3Ops
from responses_oracle.proofs.sorts import Payload, finite_sort
from responses_oracle.reducer import Reducer

MATCHER = [mutant for mutant in MUTANT_LIST if mutant.system == "matcher"]
IDS = [mutant.tables.name for mutant in MATCHER]


def _reduce(events: list[dict[str, Any]], kernels: KernelSet) -> Any:
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    (result,) = reducer.finish()
    return result


@pytest.mark.parametrize("invariant", sorted(MATCHER_PROPERTIES))
def test_the_reference_matcher_keeps_every_invariant(invariant: str) -> None:
    result = check_matcher(REFERENCE, invariant, Bounds(2, 2), MATCHER_DEPTH)
    assert result.run is None, result.run


def test_three_matcher_mutants_break_what_they_name() -> None:
    assert {m.tables.name for m in MATCHER} >= {
        "match-by-slot-across-types",
        "snapshot-re-keys-a-confirmed-call",
        "output-item-counts-as-a-call",
    }
    assert {m.breaks for m in MATCHER} <= set(MATCHER_PROPERTIES)


@pytest.mark.parametrize("mutant", MATCHER, ids=IDS)
def test_matcher_mutant_is_refuted_and_its_stream_kept(mutant: Mutant) -> None:
    found = check_matcher(mutant.tables, mutant.breaks, Bounds(2, 2), MATCHER_DEPTH, True)
    assert found.run is not None and 1 <= len(found.run.steps) <= MATCHER_DEPTH
    text = to_jsonl(render(found.run))
    assert fixture_path(mutant).read_text(encoding="utf-8") == text, f"stale: {WRITE_COMMAND}"


def _fixture(name: str) -> list[dict[str, Any]]:
    text = fixture_path(MUTANTS[name]).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_match_by_slot_across_types_merges_another_tools_item() -> None:
    name = "match-by-slot-across-types"
    events = _fixture(name)
    mutant = _reduce(events, load_kernels(MUTANTS[name].tables))
    reference = _reduce(events, load_kernels(REFERENCE))
    assert [e.item["type"] for e in reference.items] == ["function_call", "custom_tool_call"]
    assert [e.item["type"] for e in mutant.items] == ["function_call"]


def test_snapshot_re_keying_a_confirmed_call_changes_its_call_id() -> None:
    name = "snapshot-re-keys-a-confirmed-call"
    events = _fixture(name)
    mutant = _reduce(events, load_kernels(MUTANTS[name].tables))
    reference = _reduce(events, load_kernels(REFERENCE))
    assert [e.item["call_id"] for e in reference.items] == ["call_a"]
    assert [e.item["call_id"] for e in mutant.items] == ["call_b"]
    assert "snapshot_rekeyed" in [d.code.value for d in reference.diagnostics]


def test_an_output_counted_as_a_call_is_dropped_as_a_duplicate() -> None:
    name = "output-item-counts-as-a-call"
    events = _fixture(name)
    mutant = _reduce(events, load_kernels(MUTANTS[name].tables))
    reference = _reduce(events, load_kernels(REFERENCE))
    assert [e.item["type"] for e in reference.items] == ["function_call", "function_call_output"]
    assert "duplicate_call_id" not in [d.code.value for d in reference.diagnostics]
    assert [e.item["type"] for e in mutant.items] == ["function_call"]
    assert "duplicate_call_id" in [d.code.value for d in mutant.diagnostics]


def test_a_done_item_refused_where_nothing_conflicts_is_lost_and_seen() -> None:
    # The refusal carries a diagnostic (ambiguous_route), so "rejected with a code" is
    # not enough: nothing_lost (Z3 and Python) asks that a refusal be one R6 makes.
    name = "done-item-refused-as-ambiguous"
    events = _fixture(name)
    mutant = _reduce(events, load_kernels(MUTANTS[name].tables))
    reference = _reduce(events, load_kernels(REFERENCE))
    assert [e.item["call_id"] for e in reference.items] == ["call_a"]
    assert mutant.items == ()
    assert "ambiguous_route" in [d.code.value for d in mutant.diagnostics]
    assert violated_invariants(events, load_kernels(MUTANTS[name].tables)) == {"nothing_lost"}
    assert violated_invariants(events, load_kernels(REFERENCE)) == frozenset()


# -- one source: the classifiers answer alike on Python values and on Z3 terms ----------


def _value(term: Any) -> Any:
    return z3.simplify(term)


def test_route_views_and_target_agree_on_python_values_and_z3_terms() -> None:
    ops = Z3Ops(3)
    slot_sort, id_sort, action_sort = finite_sort(SlotView), finite_sort(IdView), finite_sort(
        RouteAction
    )
    subsets = [s for r in range(4) for s in itertools.combinations(range(3), r)]
    for bound, named, shared, has_id in itertools.product(
        subsets, subsets, (False, True), (False, True)
    ):
        if named and not has_id:
            continue
        views = route_views(PYTHON, bound, named, shared, has_id)
        flags = tuple(tuple(z3.BoolVal(i in s) for i in range(3)) for s in (bound, named))
        terms = route_views(ops, flags[0], flags[1], z3.BoolVal(shared), z3.BoolVal(has_id))
        assert _value(terms[0]).eq(slot_sort[views[0]]), (bound, named, shared, has_id)
        assert _value(terms[1]).eq(id_sort[views[1]]), (bound, named, shared, has_id)
        for action in RouteAction:
            target = route_target(PYTHON, action, bound, named)
            term = route_target(ops, action_sort[action], flags[0], flags[1])
            assert _value(term).as_long() == (-1 if target is None else target)


_STRINGS: dict[Payload, str | None] = {
    Payload.MISSING: None,
    Payload.EMPTY: "",
    Payload.A: "get",
    Payload.B: "get_weather",
}


def test_payload_and_identity_relations_agree_on_strings_and_their_abstraction() -> None:
    ops, sort = Z3Ops(1), finite_sort(Payload)
    for held, offer in itertools.product(_STRINGS, repeat=2):
        python = payload_key(PYTHON, _STRINGS[held], _STRINGS[offer])
        terms = payload_key(ops, sort[held], sort[offer])
        for value, term in zip(python, terms, strict=True):
            assert _value(term).eq(finite_sort(type(value))[value]), (held, offer)
        for taken in (False, True):
            relation = identity_relation(PYTHON, _STRINGS[held], _STRINGS[offer], taken)
            term = identity_relation(ops, sort[held], sort[offer], z3.BoolVal(taken))
            assert _value(term).eq(finite_sort(type(relation))[relation]), (held, offer)


# -- vacuity ------------------------------------------------------------------------------


def test_most_matching_cells_are_reached_and_the_rest_are_proposed_by_no_key() -> None:
    coverage = fit_coverage(REFERENCE, Bounds(2, 2), 3)
    assert len(coverage.reached) + len(coverage.unreached) == 120
    assert len(coverage.reached) >= 110
    # An entry not at its own slot is proposed by its call_id or by its id: with a
    # blank call_id and an id that does not name it, no key proposes it.
    for _type, call, id_fit, slot in coverage.unreached:
        assert slot.name == "ELSEWHERE" and id_fit.name != "NAMES"
        assert call.name != "EQUAL"


@pytest.mark.parametrize("invariant", sorted(MATCHER_PROPERTIES))
def test_the_reference_matcher_invariants_are_inductive(invariant: str) -> None:
    for bounds in (Bounds(2, 2), Bounds(3, 3)):
        result = induct_matcher(REFERENCE, invariant, bounds)
        assert result.proved, result.broken


@pytest.mark.parametrize("mutant", MATCHER, ids=IDS)
def test_matcher_mutant_breaks_the_induction_step(mutant: Mutant) -> None:
    result = induct_matcher(mutant.tables, mutant.breaks, Bounds(2, 2))
    assert "base" not in result.broken and mutant.breaks in result.broken
