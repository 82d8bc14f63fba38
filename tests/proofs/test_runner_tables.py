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
from helpers import assert_contract_refutes
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.execution import (
    SearchExecution,
    ShellEnvironment,
    search_execution,
    shell_environment,
)
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs.contracts import CONTRACTS, SELECTING, selectable
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import (
    behaviour,
    build_corpus,
    outcome,
    runner_streams,
    table_mutants,
)
from responses_oracle.proofs.prove import Status, prove

pytestmark = pytest.mark.rule("R13")

TABLES = ("environment_runner", "execution_runner")
"""The ``ModelTables`` fields ``proofs/runners_z3.py`` proves."""

CONTRACT_NAMES = ("shell_runners", "search_runners")

NAMED = [
    mutant
    for mutant in MUTANT_LIST
    if mutant.breaks in CONTRACTS and CONTRACTS[mutant.breaks].table in TABLES
]
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
        (["client"], SearchExecution.UNSET),
    ],
)
def test_a_tool_search_states_its_execution(value: object, execution: SearchExecution) -> None:
    assert search_execution(value) is execution


def test_each_table_has_its_contract_and_a_named_mutant() -> None:
    assert {CONTRACTS[name].table for name in CONTRACT_NAMES} == set(TABLES)
    assert {CONTRACTS[mutant.breaks].table for mutant in NAMED} == set(TABLES)


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


def test_every_one_cell_mutant_is_refuted_by_prove() -> None:
    mutants = [mutant for mutant in table_mutants() if mutant.table in TABLES]
    assert {mutant.table for mutant in mutants} == set(TABLES)
    assert len(mutants) == 8  # five environments, three executions; two runners each
    for mutant in mutants:
        assert selectable(mutant.table, mutant.cell, REFERENCE), mutant.tables.name
        (row,) = prove(SELECTING[mutant.table], mutant.tables)
        assert row.status is Status.COUNTEREXAMPLE, mutant.tables.name


def test_the_mutation_score_sees_every_mutant_change_a_result() -> None:
    # The mutation score's corpus reaches every cell of these tables (the reducer reads
    # them through its kernels), and each one-cell mutant changes a result there.
    corpus = build_corpus(runner_streams(), per_cell=1)
    for mutant in table_mutants():
        if mutant.table in TABLES:
            verdict, _ = behaviour(mutant, corpus)
            assert verdict.reached and verdict.changes_behaviour, mutant.tables.name
