"""Who runs a declared tool (R13): a shell by its environment (``ENVIRONMENT_RUNNER``), a
tool search by its ``execution`` (``EXECUTION_RUNNER``), proved one step at a time.

``proofs/runners_z3.py`` states each as a contract, and ``prove`` proves it on the
reference.  Each contract can fail: every one-cell mutant of its table is refuted by
``prove`` (every cell is selectable: the step's domain is every value).  The reducer
reads the tables through its kernels, so each named mutant — and every one-cell
mutant — gives another result than the reference's on a stream of the mutation score's
corpus (``mutation.runner_streams``).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import assert_contract_refutes, same_runner
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.execution import (
    SearchExecution,
    ShellEnvironment,
    search_execution,
    shell_environment,
)
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs.contracts import CONTRACTS, SELECTING, selectable
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import (
    behaviour,
    build_corpus,
    outcome,
    runner_streams,
    table_mutants,
)

pytestmark = pytest.mark.rule("R13")

TABLES = ("environment_runner", "execution_runner", "execution_values", "environment_types")
"""The ``ModelTables`` fields ``proofs/runners_z3.py`` proves."""

CONTRACT_NAMES = ("shell_runners", "search_runners")

NAMED = [
    mutant
    for mutant in MUTANT_LIST
    if mutant.breaks in CONTRACTS and CONTRACTS[mutant.breaks].table in TABLES
]
CHANGED = {
    mutant.tables.name: [
        table for table in TABLES if getattr(mutant.tables, table) != getattr(REFERENCE, table)
    ]
    for mutant in NAMED
}
"""The named mutants of those tables."""


@pytest.mark.parametrize(
    ("tool", "environment"),
    [
        ({"type": "shell"}, ShellEnvironment.NONE),
        ({"type": "shell", "environment": {}}, ShellEnvironment.NONE),
        ({"type": "shell", "environment": {"type": "local"}}, ShellEnvironment.LOCAL),
        ({"type": "shell", "environment": {"type": "container_auto"}},
         ShellEnvironment.CONTAINER_AUTO),
        ({"type": "shell", "environment": {"type": "container_reference"}},
         ShellEnvironment.CONTAINER_REFERENCE),
        ({"type": "shell", "environment": {"type": "a_future_sandbox"}}, ShellEnvironment.OTHER),
        # The names of the domain's members that no wire string names are no wire value.
        ({"type": "shell", "environment": {"type": "absent"}}, ShellEnvironment.OTHER),
        ({"type": "shell", "environment": {"type": "other"}}, ShellEnvironment.OTHER),
        ({"type": "shell", "environment": {"type": ["local"]}}, ShellEnvironment.OTHER),
    ],
)
def test_a_declared_shell_names_its_environment(
    tool: dict[str, Any], environment: ShellEnvironment
) -> None:
    assert shell_environment(tool) is environment


@pytest.mark.parametrize(
    ("value", "execution"),
    [
        ("client", SearchExecution.CLIENT),
        ("server", SearchExecution.SERVER),
        (None, SearchExecution.UNSET),
        ("elsewhere", SearchExecution.UNSET),
        ("other", SearchExecution.UNSET),
        ("unset", SearchExecution.UNSET),
        (["client"], SearchExecution.UNSET),
    ],
)
def test_a_tool_search_states_its_execution(value: object, execution: SearchExecution) -> None:
    assert search_execution(value) is execution


def test_each_table_has_its_contract_and_a_named_mutant() -> None:
    # The wire's execution is read through EXECUTION_VALUES in the contract of the
    # runner it feeds (search_runners), so a one-cell misreading is refuted there.
    assert {SELECTING[table] for table in TABLES} == set(CONTRACT_NAMES)
    assert {table for tables in CHANGED.values() for table in tables} == set(TABLES)
    assert all(len(tables) == 1 for tables in CHANGED.values()), CHANGED


@pytest.mark.parametrize("name", CONTRACT_NAMES)
def test_the_contract_is_proved_on_the_reference(name: str) -> None:
    (row,) = prove(name)
    assert (row.status, row.system) == (Status.PROVED_UNBOUNDED, "contract")


@pytest.mark.parametrize("mutant", NAMED, ids=lambda m: m.tables.name)
def test_prove_refutes_the_named_mutant(mutant: Mutant) -> None:
    assert_contract_refutes(mutant)


@pytest.mark.parametrize("mutant", NAMED, ids=lambda m: m.tables.name)
def test_the_named_mutant_changes_a_result(mutant: Mutant) -> None:
    reference, kernels = load_kernels(REFERENCE), load_kernels(mutant.tables)
    changed = [
        stream.name
        for stream in runner_streams()
        if outcome(stream.events, kernels) != outcome(stream.events, reference)
    ]
    assert len(changed) == 1, changed


MUTANTS = [mutant for mutant in table_mutants() if mutant.table in TABLES]
"""Every one-cell mutant of the runner tables and the wire maps read into them."""


def test_every_one_cell_mutant_that_changes_a_runner_is_refuted_by_prove() -> None:
    assert {mutant.table for mutant in MUTANTS} == set(TABLES)
    # five environments, three executions (two runners each); three wire executions (two
    # other readings each); five wire environment types (four other readings each)
    assert len(MUTANTS) == 5 + 3 + 3 * 2 + 5 * 4
    for mutant in MUTANTS:
        assert selectable(mutant.table, mutant.cell, REFERENCE), mutant.tables.name
        (row,) = prove(SELECTING[mutant.table], mutant.tables)
        expected = Status.PROVED_UNBOUNDED if same_runner(mutant) else Status.COUNTEREXAMPLE
        assert row.status is expected, mutant.tables.name
    # local <-> none (2), and among the three hosted or unknown ones (3 * 2)
    assert sum(map(same_runner, MUTANTS)) == 8


def test_the_mutation_score_sees_every_mutant_change_a_result() -> None:
    # The mutation score's corpus reaches every cell of these tables (the reducer reads
    # them through its kernels), and each one-cell mutant changes a result there, but the
    # equivalent ones, which change none.
    corpus = build_corpus(runner_streams(), per_cell=1)
    for mutant in MUTANTS:
        verdict, _ = behaviour(mutant, corpus)
        assert verdict.reached, mutant.tables.name
        assert verdict.changes_behaviour is not same_runner(mutant), mutant.tables.name
