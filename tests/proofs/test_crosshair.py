"""CrossHair on the generated kernels: contracts confirmed, equivalence exhausted, mutants caught.

Every test runs CrossHair in a subprocess (``python -m crosshair ...``) on the wrappers
of ``responses_oracle.proofs.crosshair_targets`` or on the generated kernels module.
The kernels are finite (enums in, constants out), so CrossHair does not merely fail to
find a counterexample within its budget: it reports every contract "Confirmed over all
paths" and every generated/interpreted pair "All paths exhausted", and those are the
assertions.  The budgets (CPU seconds) are many times what exhaustion needs.

A check that cannot fail proves nothing, so the same wrappers are run on the named
mutants of ``proofs.mutants`` (selected by ``RESPONSES_ORACLE_CROSSHAIR_MUTANT``): the
contracts and ``diffbehavior`` must both point at the one cell the mutant changed.  By
default one mutant per mutated table runs; ``RESPONSES_ORACLE_DEEP=1`` runs them all.
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DEEP
from responses_oracle.core import generated_kernels
from responses_oracle.model.tables import REFERENCE, ModelTables, table_cells
from responses_oracle.proofs import crosshair_targets as targets
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant

CHECK_BUDGET: tuple[str, ...] = ("--per_condition_timeout", "30", "--per_path_timeout", "5")
"""CPU budget of ``crosshair check``; exhausting the slowest contract takes about 1 s."""

DIFF_BUDGET: tuple[str, ...] = ("--max_uninteresting_iterations", "200", "--per_path_timeout", "5")
"""Iteration budget of ``diffbehavior``; the lifecycle pair exhausts in 140 iterations."""

CONFIRMED = ": info: Confirmed over all paths."
EXHAUSTED = "All paths exhausted, functions are likely the same!"

KERNEL_OF_TABLE: dict[str, str] = {
    "lifecycle": "lifecycle",
    "slots": "slot",
    "routing": "route",
    "namespaces": "namespace",
    "added_admission": "admit_added",
    "matching": "fit",
    "done_admission": "admit_done",
    "payload": "payload",
    "identity": "identity",
    "reclassification": "reclassify",
    "execution": "execute",
}
"""``ModelTables`` field → the kernel generated from it."""

CONTRACT_OF_KERNEL: dict[str, str] = {
    "lifecycle": "lifecycle_move",
    "slot": "slot_move",
    "route": "route_target",
    "namespace": "namespace_choice",
    "admit_added": "admit_added_view",
    "fit": "fit_choice",
    "admit_done": "admit_done_view",
    "payload": "payload_choice",
    "identity": "identity_choice",
    "reclassify": "reclassify_choice",
    "execute": "execute_choice",
}
"""Kernel → the wrapper in ``crosshair_targets`` that states its table's invariants."""


def _crosshair(*args: str, mutant: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != targets.MUTANT_VARIABLE}
    if mutant is not None:
        env[targets.MUTANT_VARIABLE] = mutant
    return subprocess.run(
        [sys.executable, "-m", "crosshair", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=600,  # a guard against a hang, not an assertion about speed
    )


def _post_lines(module: Any) -> int:
    """How many PEP 316 postconditions ``module``'s source states."""
    source = Path(inspect.getfile(module)).read_text(encoding="utf-8")
    return len(re.findall(r"^\s+post: ", source, flags=re.MULTILINE))


def _errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": error: " in line]


def _changed_cell(tables: ModelTables) -> tuple[str, tuple[Any, ...]]:
    """The kernel whose table differs from the reference, and the one cell that does."""
    for field, kernel in KERNEL_OF_TABLE.items():
        reference = dict(table_cells(getattr(REFERENCE, field)))
        changed = [
            path for path, cell in table_cells(getattr(tables, field)) if cell != reference[path]
        ]
        if changed:
            (path,) = changed
            return kernel, path
    raise AssertionError(f"{tables.name} changes no table cell")


def _analysed(tables: ModelTables) -> bool:
    """Whether the mutant changes a table CrossHair analyses (``KERNEL_OF_TABLE``); the
    tables of R14 and the slot fill rule are proved by Z3 alone (``proofs/responses_z3``)."""
    return any(getattr(tables, field) != getattr(REFERENCE, field) for field in KERNEL_OF_TABLE)


ANALYSED = [mutant for mutant in MUTANT_LIST if _analysed(mutant.tables)]
"""The named mutants of the tables CrossHair analyses."""


def _first_per_kernel() -> set[str]:
    firsts: dict[str, str] = {}
    for mutant in ANALYSED:
        firsts.setdefault(_changed_cell(mutant.tables)[0], mutant.tables.name)
    return set(firsts.values())


DEFAULT_MUTANTS = _first_per_kernel()
"""The mutants run without ``RESPONSES_ORACLE_DEEP``: the first one of each table."""

MUTANT_PARAMS = [
    pytest.param(
        mutant,
        id=mutant.tables.name,
        marks=pytest.mark.skipif(
            not DEEP and mutant.tables.name not in DEFAULT_MUTANTS,
            reason="one mutant per table by default; RESPONSES_ORACLE_DEEP=1 runs all",
        ),
    )
    for mutant in ANALYSED
]


@pytest.mark.parametrize(
    "module", [generated_kernels, targets], ids=["generated-kernels", "crosshair-targets"]
)
def test_every_contract_is_confirmed_over_all_paths(module: Any) -> None:
    run = _crosshair("check", module.__name__, "--report_all", *CHECK_BUDGET)
    assert _errors(run.stdout) == [], run.stdout
    assert run.returncode == 0, run.stdout + run.stderr
    confirmed = [line for line in run.stdout.splitlines() if line.endswith(CONFIRMED)]
    assert _post_lines(module) > 0
    assert len(confirmed) == _post_lines(module), run.stdout


@pytest.mark.parametrize("kernel", list(KERNEL_OF_TABLE.values()))
def test_generated_kernel_behaves_as_the_table_interpreter(kernel: str) -> None:
    run = _crosshair(
        "diffbehavior",
        f"{targets.__name__}.generated_{kernel}",
        f"{targets.__name__}.interpreted_{kernel}",
        *DIFF_BUDGET,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert EXHAUSTED in run.stdout, run.stdout


@pytest.mark.parametrize("mutant", MUTANT_PARAMS)
def test_diffbehavior_finds_the_mutated_cell(mutant: Mutant) -> None:
    kernel, cell = _changed_cell(mutant.tables)
    wrapper = getattr(targets, f"generated_{kernel}")
    run = _crosshair(
        "diffbehavior",
        f"{targets.__name__}.generated_{kernel}",
        f"{targets.__name__}.interpreted_{kernel}",
        *DIFF_BUDGET,
        mutant=mutant.tables.name,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    names = inspect.signature(wrapper).parameters
    given = ", ".join(f"{name}={value!r}" for name, value in zip(names, cell, strict=True))
    assert f"Given: ({given})," in run.stdout.splitlines(), run.stdout


@pytest.mark.parametrize("mutant", MUTANT_PARAMS)
def test_contracts_refute_the_mutated_cell(mutant: Mutant) -> None:
    kernel, cell = _changed_cell(mutant.tables)
    contract = CONTRACT_OF_KERNEL[kernel]
    run = _crosshair(
        "check", f"{targets.__name__}.{contract}", *CHECK_BUDGET, mutant=mutant.tables.name
    )
    assert run.returncode == 1, run.stdout + run.stderr
    errors = _errors(run.stdout)
    assert errors, run.stdout
    # Only that cell differs from the reference, where every contract holds.  The
    # router's wrapper takes the driver's inputs rather than a cell.
    call = f"{contract}(" if kernel == "route" else f"{contract}({', '.join(map(str, cell))})"
    assert all(f"false when calling {call}" in line for line in errors), run.stdout
