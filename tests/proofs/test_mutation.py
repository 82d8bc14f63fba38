"""The mutation-score command: its mutants, its corpus, and its report.

The mutants are what it says (one cell, every table); the reference kernels record the
cells they consult; the corpus keeps a stream only for a cell it adds; a mutant whose
cell no stream reaches is not run; and the command, on a small sample, reports a
refuted mutant as refuted and an unscored one as unscored (no timing is asserted:
the recorded run is a measurement, benchmarks/RESULTS.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.model.tables import (
    REFERENCE,
    KernelSet,
    ModelTables,
    table_cells,
    tables_by_kernel,
)
from responses_oracle.model.vocabulary import (
    AddedView,
    EntryState,
    OfferRelation,
    PayloadHeld,
    Trigger,
)
from responses_oracle.proofs.mutation import (
    TABLES,
    Reads,
    _percent,
    build_corpus,
    generated_streams,
    judge_table,
    main,
    reached_by,
    sample,
    table_mutants,
    unreachable,
)

_H, _R = PayloadHeld, OfferRelation


def _stream(name: str) -> list[dict[str, Any]]:
    text = (REPO / "examples" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _table_of(kernel: str) -> Any:
    return tables_by_kernel(REFERENCE)[kernel]


def _cells(tables: ModelTables) -> dict[tuple[Any, ...], Any]:
    cells: dict[tuple[Any, ...], Any] = {}

    def walk(table: Any, path: tuple[Any, ...]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(value, (*path, key))
            else:
                cells[(*path, key)] = value

    for name in TABLES:
        walk(getattr(tables, name), (name,))
    return cells


def test_every_table_mutant_changes_exactly_one_cell() -> None:
    reference = _cells(REFERENCE)
    mutants = table_mutants()
    assert {m.table for m in mutants} == set(TABLES)
    for mutant in mutants:
        mine = _cells(mutant.tables)
        assert mine.keys() == reference.keys()
        assert [key for key in mine if mine[key] != reference[key]] == [
            (mutant.table, *mutant.cell)
        ], mutant.tables.name
    assert len({m.tables.name for m in mutants}) == len(mutants)


def test_sample_spreads_over_all_mutants() -> None:
    mutants = table_mutants()
    chosen = sample(mutants, 10)
    assert len(chosen) == 10 and chosen[0] is mutants[0]
    assert {m.table for m in chosen} >= {"lifecycle", "matching"}
    assert sample(mutants, 0) == mutants


def test_the_reference_kernels_record_each_cell_they_consult() -> None:
    events = _stream("blank-terminal-args.jsonl")
    reached = reached_by(events)
    assert ("lifecycle", (EntryState.ABSENT, Trigger.ITEM_ADDED)) in reached
    assert ("admit_added", (AddedView.NEW,)) in reached
    # Nothing but the kernels' own cells, under the kernels' own names.
    assert {kernel for kernel, _ in reached} <= set(KernelSet._fields)
    assert all(cell in dict(table_cells(_table_of(kernel))) for kernel, cell in reached)


def test_the_corpus_keeps_a_stream_only_for_a_cell_it_adds() -> None:
    pool = generated_streams(5)
    corpus = build_corpus(pool, per_cell=1)
    every = set().union(*(reached_by(s.events) for s in pool))
    assert set(corpus.reaching) == every
    assert all(len(streams) >= 1 for streams in corpus.reaching.values())
    # per_cell=1: each kept stream was the first to reach one of its cells.
    firsts = {streams[0] for streams in corpus.reaching.values()}
    assert firsts == set(range(len(corpus.streams)))
    assert len(corpus.streams) < len(pool)


def test_a_mutant_of_a_cell_no_stream_reaches_is_not_judged_on_behaviour() -> None:
    corpus = build_corpus(generated_streams(2), per_cell=1)
    # No input of payload_key selects (NOTHING, EQUAL): with nothing held a non-empty
    # offer is FIRST.
    (mutant,) = [
        m for m in table_mutants() if m.table == "payload" and m.cell == (_H.NOTHING, _R.EQUAL)
    ]
    verdict = judge_table(mutant, corpus, Reads({}, {}))
    assert (verdict.reached, verdict.changes_behaviour, verdict.proof) == (
        False,
        False,
        "(not run)",
    )
    assert "no input of the classifier selects it" in unreachable(corpus)[mutant.reached_as]


REFUTED = "payload[value/extends]: code payload_extended dropped"
"""Changes a diagnostic on a stream whose done value extends its deltas; the contract
``payload_reported`` refutes it."""

UNREACHED = "payload[nothing/equal]: action take -> keep"
"""A cell no input of ``payload_key`` selects: the command reports it unscored (not
reached, no proof run)."""


def test_the_command_reports_a_refuted_and_an_unscored_mutant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "verdicts.json"
    argv = ["--match", REFUTED, "--match", UNREACHED, "--no-witnesses", "--no-edits"]
    assert main([*argv, "--generated", "3", "--json", str(record)]) == 0
    out = capsys.readouterr().out
    verdicts = {v["mutant"]: v for v in json.loads(record.read_text())["verdicts"]}
    assert set(verdicts) == {REFUTED, UNREACHED}
    refuted, unscored = verdicts[REFUTED], verdicts[UNREACHED]
    assert refuted["changes_behaviour"] and refuted["proof"] == "payload_reported"
    assert refuted["reached"] and refuted["witness"]
    assert (unscored["reached"], unscored["changes_behaviour"], unscored["proof"]) == (
        False,
        False,
        "(not run)",
    )
    assert "| payload | 2 | 1 | 1 | 1 | 1 (100.0 %) | 0 | 0 |" in out
    assert "Behaviour-changing table mutants not refuted by prove: 0" in out


def test_a_score_with_survivors_never_reads_100_percent() -> None:
    # Rounded to nearest, 678 refuted of 681 printed "100 %" beside 3 survivors.
    assert _percent(678, 681) == "99.5 %"
    assert _percent(681, 681) == "100.0 %" and _percent(406, 456) == "89.0 %"
    assert _percent(0, 0) == "-"
