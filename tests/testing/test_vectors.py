"""Conformance vectors: export, the manifest, loading, checking, harvesting rule tests."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers import REPO
from responses_oracle import reduce
from responses_oracle.testing.candidate import FunctionCandidate
from responses_oracle.testing.rule_tests import harvest
from responses_oracle.testing.vectors import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST_FORMAT,
    VectorSource,
    check,
    counterexample_vectors,
    export,
    generated_vectors,
    load,
    make_vector,
)

from .naive_candidate import parse as naive

COUNTEREXAMPLES = REPO / "tests" / "proofs" / "counterexamples"


def _oracle(events: list[dict]) -> list[dict]:  # type: ignore[type-arg]
    return [r.to_dict() for r in reduce(events)]


def test_export_writes_one_file_per_case_and_a_versioned_manifest(tmp_path: Path) -> None:
    vectors = generated_vectors(seed=3, count=12)
    manifest = export(tmp_path, vectors, seed=3)
    assert manifest["format"] == MANIFEST_FORMAT and manifest["version"] == FORMAT_VERSION
    assert manifest["count"] == 12 == len(list((tmp_path / "cases").glob("*.json")))
    assert manifest["provenance"] == {"seed": 3}
    first = json.loads((tmp_path / manifest["cases"][0]["file"]).read_text())
    assert first["format"] == FORMAT and first["source"] == "generated"
    assert first["expected"] == _oracle(first["events"])
    assert first["rules"] and all(rule.startswith("R") for rule in first["rules"])
    _, loaded = load(tmp_path)
    assert [v.events for v in loaded] == [v.events for v in vectors]
    assert [v.expected for v in loaded] == [v.expected for v in vectors]


def test_vectors_pass_on_the_oracle_and_fail_on_a_naive_parser(tmp_path: Path) -> None:
    export(tmp_path, generated_vectors(seed=1, count=24))
    _, vectors = load(tmp_path)
    assert all(o.passed for o in check(vectors, FunctionCandidate(_oracle)))
    failed = [o for o in check(vectors, FunctionCandidate(naive)) if not o.passed]
    assert failed and all(o.differences[0].rule.startswith("R") for o in failed)


def test_a_tampered_vector_is_refused(tmp_path: Path) -> None:
    manifest = export(tmp_path, generated_vectors(seed=0, count=2))
    path = tmp_path / manifest["cases"][1]["file"]
    path.write_text(path.read_text().replace('"events"', '"events" ', 1))
    with pytest.raises(ValueError, match="checksum"):
        load(tmp_path)


def test_a_second_export_removes_stale_files(tmp_path: Path) -> None:
    export(tmp_path, generated_vectors(seed=0, count=5))
    export(tmp_path, generated_vectors(seed=0, count=2))
    assert len(list((tmp_path / "cases").glob("*.json"))) == 2


def test_minted_ids_are_listed_for_implementers() -> None:
    events = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"}},
        {"type": "response.completed", "response": {"id": "resp_1"}},
    ]
    vector = make_vector("minted", VectorSource.GENERATED, "", events)
    [minted] = vector.minted_ids
    assert minted.startswith("fc_") and minted == vector.expected[0]["items"][0]["item"]["id"]
    assert "R11" in vector.rules


def test_counterexamples_become_vectors() -> None:
    if not COUNTEREXAMPLES.is_dir():
        pytest.skip("no proof counterexamples in this checkout")
    vectors = counterexample_vectors(COUNTEREXAMPLES)
    assert len(vectors) == len(list(COUNTEREXAMPLES.glob("*.jsonl")))
    assert all(v.name.startswith("counterexample-") and v.events for v in vectors)


def test_harvest_keeps_streams_of_passing_rule_tests_only(tmp_path: Path) -> None:
    rule_tests = tmp_path / "test_sample_rules.py"
    rule_tests.write_text(textwrap.dedent('''
        import pytest
        from responses_oracle import Reducer
        from responses_oracle.core.kernels import KERNELS
        from responses_oracle.model.interpreter import table_kernels

        EVENTS = [
            {"type": "response.created", "response": {"id": "resp_1"}},
            {"type": "response.output_item.done", "output_index": 0, "item": {
                "type": "function_call", "id": "fc_1", "call_id": "c", "name": "f",
                "arguments": "{}"}},
            {"type": "response.completed", "response": {"id": "resp_1"}},
        ]

        def run(kernels=KERNELS):
            reducer = Reducer(kernels=kernels)
            reducer.feed_all(EVENTS)
            return reducer.finish()

        def test_r7_kept():
            assert run()[0].items[0].item["arguments"] == "{}"

        def test_r6_failing_test_contributes_nothing():
            run()
            assert False

        @pytest.mark.xfail(strict=True, reason="pinned")
        def test_r5_xfail_contributes_nothing():
            run()
            assert False

        def test_r3_other_kernels_contribute_nothing():
            run(table_kernels())
    '''))
    [kept] = harvest(rule_tests)
    assert (kept.name, kept.rules, len(kept.events)) == ("test_r7_kept", ("R7",), 3)
