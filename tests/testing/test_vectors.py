"""Conformance vectors: export, the manifest, loading, checking, the bundled corpus and
the harvest of the rule tests that feeds it (``tools/``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import vector_corpus
from helpers import REPO
from responses_oracle import reduce
from responses_oracle.cli.vectors import check_text
from responses_oracle.differential.candidate import FunctionCandidate
from responses_oracle.differential.conformance_vectors import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST_FORMAT,
    VectorSource,
    check,
    corpus_vectors,
    export,
    generated_vectors,
    load,
    make_vector,
)
from rule_tests import harvest

from .naive_candidate import parse as naive

COUNTEREXAMPLES = REPO / "tests" / "proofs" / "counterexamples"

NAIVE = f"{sys.executable} {Path(__file__).with_name('naive_candidate.py')}"


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
    # Whether each counts in a score, in its file and the manifest, and why not.
    files = [json.loads((tmp_path / e["file"]).read_text()) for e in manifest["cases"]]
    assert [e["counted"] for e in manifest["cases"]] == [f["counted"] for f in files] == [
        v.counted for v in vectors]
    assert [f.get("robustness", "") for f in files] == [v.robustness for v in loaded]


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


def test_counterexamples_become_corpus_streams() -> None:
    streams = vector_corpus.counterexample_streams(COUNTEREXAMPLES)
    assert len(streams) == len(list(COUNTEREXAMPLES.glob("*.jsonl"))) > 0
    assert all(s["name"].startswith("counterexample-") and s["events"] for s in streams)
    assert {s["source"] for s in streams} == {"counterexample"}


def test_the_bundled_corpus_is_current() -> None:
    # The package's corpus is what the checkout's rule tests and counterexamples give now.
    shipped = vector_corpus.OUTPUT.read_text(encoding="utf-8")
    assert shipped == vector_corpus.render(vector_corpus.corpus()), (
        "impl/differential/corpus.json is stale: run python tools/vector_corpus.py"
    )


def test_corpus_vectors_carry_their_rules_and_the_oracle_answer() -> None:
    vectors = corpus_vectors()
    document = json.loads(vector_corpus.OUTPUT.read_text(encoding="utf-8"))
    assert [v.name for v in vectors] == [s["name"] for s in document["streams"]]
    assert len({v.name for v in vectors}) == len(vectors)
    sources = {v.source for v in vectors}
    assert sources == {VectorSource.RULE_TEST, VectorSource.COUNTEREXAMPLE}
    rule_tests = [v for v in vectors if v.source is VectorSource.RULE_TEST]
    # A rule test named test_rN_... names rule N; the others get the rules read off the
    # oracle's answer, as generated vectors do.
    named = [v for v in rule_tests if re.match(r"rule-test_r\d+_", v.name)]
    assert len(named) > 100
    assert all(v.rules == (v.name.split("_")[1].upper(),) for v in named)
    assert all(v.rules for v in rule_tests)
    assert all(v.expected == tuple(_oracle(list(v.events))) for v in vectors[:20])


def _export(cwd: Path, folder: Path) -> bytes:
    # As an installed command would run, with pytest not importable: the export must
    # need no test tooling.
    script = (
        "import sys; sys.modules['pytest'] = None; "
        "from responses_oracle.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "vectors", "export", str(folder), "--generated", "6"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ")
    return (folder / "manifest.json").read_bytes()


def test_export_is_the_same_from_any_folder_and_needs_no_pytest(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    from_repo = _export(REPO, tmp_path / "a")
    from_elsewhere = _export(elsewhere, tmp_path / "b")
    assert from_repo == from_elsewhere
    manifest = json.loads(from_repo)
    sources = [case["source"] for case in manifest["cases"]]
    assert sources.count("generated") == 6
    assert sources.count("rule-test") == sum(
        1 for v in corpus_vectors() if v.source is VectorSource.RULE_TEST
    ) > 100
    assert manifest["provenance"] == {"seed": 0, "generated": 6, "corpus": len(sources) - 6}


def test_a_failure_names_the_rules_it_exercises_and_the_rule_it_breaks(tmp_path: Path) -> None:
    export(tmp_path, [v for v in corpus_vectors() if v.name.startswith("rule-test_r6_")])
    _, vectors = load(tmp_path)
    outcomes = check(vectors, FunctionCandidate(naive))
    failed = [o for o in outcomes if not o.passed]
    assert failed
    lines = check_text(outcomes).splitlines()
    difference = failed[0].differences[0]
    # Under the rule the difference breaks: the vector with the rules it exercises,
    # where it differs, and why.
    at = lines.index(f"  FAIL {failed[0].vector.name}  (exercises R6)")
    assert any(line.startswith(f"breaks {difference.rule}: ") for line in lines[:at])
    assert lines[at + 1].startswith(f"    at {difference.path}: expected ")
    assert lines[at + 2] == f"        why: {difference.why}"


def test_harvest_keeps_streams_of_passing_rule_tests_only(tmp_path: Path) -> None:
    rule_tests = tmp_path / "test_sample_rules.py"
    rule_tests.write_text(textwrap.dedent('''
        import pytest
        from responses_oracle import Reducer
        from responses_oracle.core.generated_kernels import KERNELS
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
