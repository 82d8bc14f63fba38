"""The tables that decide a report are model tables a proof reads (issue #41, part 4):
``note_codes``, ``resume_waived``, ``announced_parts`` and ``restated``.

``proofs/reports_z3.py`` states, per admission path, which report it owes
(``admission_reports``), which channels owe ``part_not_added`` (``parts_announced``)
and which left-out events the proxy may count as re-spellings (``restated_silently``).
Each contract is proved on the reference; every one-cell mutant of its table is refuted
by ``prove`` (the issue found such mutants re-running no proof row); each named mutant
the reducer runs changes a result on a short stream.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from helpers import assert_contract_refutes
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import REFERENCE, ModelTables, tables_by_kernel
from responses_oracle.proofs.contracts import check_contract
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import TableMutant, table_mutants
from responses_oracle.proofs.reads import Reading
from responses_oracle.reducer import Reducer

PROVED_BY = {
    "note_codes": "admission_reports",
    "resume_waived": "admission_reports",
    "announced_parts": "parts_announced",
    "restated": "restated_silently",
}
"""Each table, and the contract of ``proofs/reports_z3.py`` that refutes its mutants."""

NAMED = [
    mutant
    for mutant in MUTANT_LIST
    if mutant.breaks in ("admission_reports", "parts_announced", "restated_silently")
]
"""The named mutants of those tables."""

_CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "f",
    "arguments": "{}",
    "status": "completed",
}


def _resumed_unconfirmed() -> list[dict[str, Any]]:
    """A resumed stream (it opens with ``response.in_progress`` at sequence 7) whose call
    is announced after the resume point and never confirmed."""
    opened = {**_CALL, "arguments": "", "status": "in_progress"}
    scope = {"output_index": 0, "item_id": "fc_1"}
    return [
        {"type": "response.in_progress", "sequence_number": 7, "response": {"id": "r"}},
        {
            "type": "response.output_item.added",
            "sequence_number": 8,
            "output_index": 0,
            "item": opened,
        },
        {
            "type": "response.function_call_arguments.delta",
            "sequence_number": 9,
            **scope,
            "delta": "{",
        },
        {
            "type": "response.completed",
            "sequence_number": 10,
            "response": {"id": "r", "status": "completed", "output": []},
        },
    ]


def _done_only() -> list[dict[str, Any]]:
    """A call sent only in its ``output_item.done`` (no ``added``)."""
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.done", "output_index": 0, "item": _CALL},
        {
            "type": "response.completed",
            "response": {"id": "r", "status": "completed", "output": [_CALL]},
        },
    ]


def _shell_command_unannounced() -> list[dict[str, Any]]:
    """A shell call whose first command streams with no ``shell_call_command.added``."""
    shell = {
        "type": "shell_call",
        "id": "sh_1",
        "call_id": "call_1",
        "action": {"commands": []},
        "status": "in_progress",
    }
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": shell},
        {
            "type": "response.shell_call_command.delta",
            "output_index": 0,
            "item_id": "sh_1",
            "command_index": 0,
            "delta": "ls",
        },
    ]


WITNESSES = {
    "resumed-unconfirmed-silent": (_resumed_unconfirmed, "unconfirmed_item"),
    "done-only-reported-as-duplicate": (_done_only, "done_only_item"),
    "shell-command-not-announced": (_shell_command_unannounced, "part_not_added"),
}
"""Per named mutant the reducer runs: a stream, and the code the reference raises on it
that the mutant's reducer does not.  (``restated`` is the proxy's table, read by no
kernel: its named mutant, ``streamed-part-added-restated``, is the proof's alone.)"""


def _codes(events: list[dict[str, Any]], mutant: Mutant | None = None) -> list[str]:
    reducer = Reducer(kernels=load_kernels(REFERENCE if mutant is None else mutant.tables))
    reducer.feed_all(events)
    return sorted(d["code"] for r in reducer.finish() for d in r.to_json()["diagnostics"])


def test_each_table_has_a_named_mutant_and_its_contract_reads_it() -> None:
    for table, contract in PROVED_BY.items():
        reading = Reading(REFERENCE)
        check_contract(contract, cast(ModelTables, reading))
        assert table in reading.read, (table, contract)
        assert any(getattr(m.tables, table) != getattr(REFERENCE, table) for m in NAMED), table
    # The reducer runs every one of them but the proxy's restatements.
    run = [id(table) for table in tables_by_kernel(REFERENCE).values()]
    assert [name for name in PROVED_BY if id(getattr(REFERENCE, name)) not in run] == ["restated"]


@pytest.mark.parametrize("name", sorted(set(PROVED_BY.values())))
def test_the_contract_is_proved_on_the_reference(name: str) -> None:
    (row,) = prove(name)
    assert (row.status, row.system) == (Status.PROVED_UNBOUNDED, "contract")


@pytest.mark.parametrize("mutant", NAMED, ids=lambda m: m.tables.name)
def test_prove_refutes_the_named_mutant(mutant: Mutant) -> None:
    assert_contract_refutes(mutant)


@pytest.mark.parametrize("name", sorted(WITNESSES))
def test_the_named_mutant_drops_the_report_its_path_owes(name: str) -> None:
    (mutant,) = [m for m in NAMED if m.tables.name == name]
    stream, code = WITNESSES[name]
    assert code in _codes(stream())
    assert code not in _codes(stream(), mutant)


def _refuted(mutant: TableMutant) -> bool:
    (row,) = prove(PROVED_BY[mutant.table], mutant.tables)
    return row.status is Status.COUNTEREXAMPLE


@pytest.mark.parametrize("table", ["resume_waived", "announced_parts", "restated"])
def test_every_one_cell_mutant_is_refuted_by_prove(table: str) -> None:
    mutants = [mutant for mutant in table_mutants() if mutant.table == table]
    assert mutants
    assert [m.tables.name for m in mutants if not _refuted(m)] == []


def test_every_note_code_cell_is_refuted_when_it_names_another_code() -> None:
    """One mutant per note cell in the default run (each cell's first other code); the
    slow test below sweeps all of them."""
    first: dict[tuple[Any, ...], TableMutant] = {}
    for mutant in table_mutants():
        if mutant.table == "note_codes":
            first.setdefault(mutant.cell, mutant)
    assert len(first) == 7
    assert [m.tables.name for m in first.values() if not _refuted(m)] == []


def test_every_note_code_mutant_is_refuted_by_prove() -> None:
    mutants = [mutant for mutant in table_mutants() if mutant.table == "note_codes"]
    assert [m.tables.name for m in mutants if not _refuted(m)] == []
