"""The mutation-score command's mutants are what it says: one cell, every table."""

from __future__ import annotations

from typing import Any

from responses_oracle.model.tables import REFERENCE, ModelTables
from responses_oracle.proofs.mutation import TABLES, sample, table_mutants


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
