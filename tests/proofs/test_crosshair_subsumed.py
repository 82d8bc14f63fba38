"""The Z3 contracts subsume CrossHair's per-cell contracts of the same tables.

CrossHair checks the payload, identity, admission and matching kernels cell by cell
(``proofs.crosshair_targets``: ``payload_choice``, ``identity_choice``,
``admit_added_view``, ``admit_done_view``, ``fit_choice``); ``proofs.contracts`` states the
same rules over the *values* the model's classifiers read.  Read on every one-cell
mutant of those tables (the PEP 316 conditions evaluated on the mutated cell, as
CrossHair evaluates them):

- every mutant CrossHair rejects at a cell some input selects, the Z3 contract rejects
  too (``test_contracts``: every selectable cell change is refuted by its contract);
- the mutants CrossHair alone rejects are all at cells no input selects
  (``contracts.selectable``), which no stream reaches and no reducer consults;
- the Z3 contracts reject mutants CrossHair's conditions accept (below, one per table).

So the Z3 contracts say everything CrossHair's per-cell contracts say about behaviour.
CrossHair is kept for what Z3 does not read: it runs the *generated* kernels
(``codegen``), not the tables, and compares them with the table interpreter.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs import crosshair_targets
from responses_oracle.proofs.contracts import SELECTING, check_contract, selectable
from responses_oracle.proofs.mutation import TableMutant, table_mutants

PER_CELL: dict[str, Callable[..., Any]] = {
    "payload": crosshair_targets.payload_choice,
    "identity": crosshair_targets.identity_choice,
    "added_admission": crosshair_targets.admit_added_view,
    "done_admission": crosshair_targets.admit_done_view,
    "matching": crosshair_targets.fit_choice,
}
"""CrossHair's per-cell contract of each table a Z3 contract reads."""

STRONGER: dict[str, str] = {
    # R7: an empty value over nothing is taken (an explicit "" is a value).
    "payload": "payload[nothing/empty]: action take -> keep",
    # R6: a call_id another entry holds is reported, not only refused.
    "identity": "identity[call_id/fixed/taken]: code duplicate_call_id dropped",
    # R6: a new item is admitted, never matched to an entry it does not fit.
    "added_admission": "added_admission[new]: action admit -> match",
    "done_admission": "done_admission[none]: action admit -> match",
    # R6: equal call_ids agree, whatever the ids say.
    "matching": "matching[same/equal/blank/open_done]: agree -> none",
}
"""Per table, a mutant the Z3 contract rejects and CrossHair's conditions accept."""


def _cell(tables: Any, mutant: TableMutant) -> Any:
    value = getattr(tables, mutant.table)
    for key in mutant.cell:
        value = value[key]
    return value


def _crosshair_rejects(mutant: TableMutant) -> bool:
    """Whether a ``post:`` condition of the table's wrapper fails on the mutated cell."""
    function = PER_CELL[mutant.table]
    conditions = [
        line.strip().removeprefix("post:").strip()
        for line in (function.__doc__ or "").splitlines()
        if line.strip().startswith("post:")
    ]
    scope = dict(zip(inspect.signature(function).parameters, mutant.cell, strict=True))
    scope["__return__"] = _cell(mutant.tables, mutant)
    namespace = vars(crosshair_targets)
    return not all(eval(condition, namespace, scope) for condition in conditions)


MUTANTS = [m for m in table_mutants() if m.table in PER_CELL]


def test_crosshair_accepts_the_reference_and_rejects_some_mutant_of_every_table() -> None:
    for mutant in MUTANTS:
        reference = TableMutant(mutant.table, mutant.cell, "none", REFERENCE)
        assert not _crosshair_rejects(reference), mutant.tables.name
    assert {m.table for m in MUTANTS if _crosshair_rejects(m)} == set(PER_CELL)


def test_what_crosshair_alone_rejects_no_input_selects() -> None:
    # The Z3 contract refutes every change of a selectable cell (test_contracts), so
    # what CrossHair rejects beyond it is at cells no input selects, which cannot change
    # what the reducer does.  Such cells are in the payload and identity tables only
    # (every admission cell is selectable; the matching table is sampled there).
    unselectable = [
        m
        for m in MUTANTS
        if m.table in ("payload", "identity")
        and _crosshair_rejects(m)
        and not _selectable(m.table, m.cell)
    ]
    only_crosshair = [
        m.tables.name
        for m in unselectable
        if check_contract(SELECTING[m.table], m.tables).verdict == "proved"
    ]
    assert len(only_crosshair) == 11, only_crosshair
    assert "payload[nothing/equal]: action take -> keep" in only_crosshair


_SELECTABLE: dict[tuple[str, tuple[Any, ...]], bool] = {}


def _selectable(table: str, cell: tuple[Any, ...]) -> bool:
    key = (table, cell)
    if key not in _SELECTABLE:
        _SELECTABLE[key] = selectable(table, cell, REFERENCE)
    return _SELECTABLE[key]


@pytest.mark.parametrize("table", list(STRONGER))
def test_the_z3_contract_rejects_what_crosshair_accepts(table: str) -> None:
    (mutant,) = [m for m in MUTANTS if m.tables.name == STRONGER[table]]
    assert not _crosshair_rejects(mutant)
    assert check_contract(SELECTING[table], mutant.tables).verdict == "counterexample"
