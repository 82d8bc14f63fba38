"""The committed kernels are exactly what the generator emits, and it emits only total tables."""

from __future__ import annotations

import dataclasses
import difflib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from responses_oracle.core import generated_kernels as kernels
from responses_oracle.model import codegen
from responses_oracle.model.classgen import classifiers_path, render_classifiers
from responses_oracle.model.codegen import kernels_path, render_kernels
from responses_oracle.model.lifecycle import LIFECYCLE, LifecycleTable
from responses_oracle.model.recordgen import records_path, render_records
from responses_oracle.model.routing import ROUTING
from responses_oracle.model.tables import REFERENCE, table_cells, tables_by_kernel
from responses_oracle.model.vocabulary import EntryState, IdView, SlotView, Trigger


def test_committed_kernels_equal_the_generator_output() -> None:
    assert kernels_path().read_text(encoding="utf-8") == render_kernels()


def test_committed_classifiers_equal_the_generator_output() -> None:
    assert classifiers_path().read_text(encoding="utf-8") == render_classifiers()


def test_committed_records_equal_the_generator_output() -> None:
    assert records_path().read_text(encoding="utf-8") == render_records()


def test_codegen_check_command_accepts_the_committed_file() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "responses_oracle.model.codegen", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_codegen_check_fails_on_a_stale_file_and_writing_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "kernels.py"
    target.write_text("# stale\n", encoding="utf-8")
    traced = tmp_path / "classifiers.py"
    traced.write_text(render_classifiers(), encoding="utf-8")
    records = tmp_path / "records.py"
    records.write_text(render_records(), encoding="utf-8")
    monkeypatch.setattr(codegen, "kernels_path", lambda: target)
    monkeypatch.setattr(codegen, "classifiers_path", lambda: traced)
    monkeypatch.setattr(codegen, "records_path", lambda: records)
    assert codegen.main(["--check"]) == 1
    assert codegen.main([]) == 0
    assert target.read_text(encoding="utf-8") == render_kernels()
    assert codegen.main(["--check"]) == 0
    traced.write_text("# stale\n", encoding="utf-8")
    assert codegen.main(["--check"]) == 1
    traced.write_text(render_classifiers(), encoding="utf-8")
    records.write_text("# stale\n", encoding="utf-8")
    assert codegen.main(["--check"]) == 1


def test_codegen_refuses_a_lifecycle_row_without_a_cell() -> None:
    lifecycle = {state: dict(row) for state, row in LIFECYCLE.items()}
    del lifecycle[EntryState.DONE][Trigger.DELTA]
    partial = dataclasses.replace(REFERENCE, name="partial", lifecycle=lifecycle)
    with pytest.raises(ValueError, match=r"table lifecycle\[EntryState.DONE\] has no cell"):
        render_kernels(partial)


def test_codegen_refuses_a_lifecycle_without_a_state_row() -> None:
    lifecycle: LifecycleTable = {
        state: row for state, row in LIFECYCLE.items() if state is not EntryState.INCOMPLETE
    }
    partial = dataclasses.replace(REFERENCE, name="partial", lifecycle=lifecycle)
    with pytest.raises(ValueError, match=r"table lifecycle has no cell for EntryState\.INCOMPLETE"):
        render_kernels(partial)


def test_codegen_refuses_a_routing_table_without_a_cell() -> None:
    routing = {view: dict(row) for view, row in ROUTING.items()}
    del routing[SlotView.SHARED][IdView.UNSEEN]
    partial = dataclasses.replace(REFERENCE, name="partial", routing=routing)
    with pytest.raises(ValueError, match=r"table route\[SlotView.SHARED\] has no cell"):
        render_kernels(partial)


_RETURN = re.compile(r"^\s+return (\w+)  # (\w+(?:\[\w+\])+)$")
"""A kernel branch: the constant it returns and the comment naming its cell."""


def _branches(source: str) -> dict[str, str]:
    """Cell named in a comment → the constant its branch returns."""
    found = [match.groups() for line in source.splitlines() if (match := _RETURN.match(line))]
    assert len(found) == len({cell for _, cell in found}), "a cell is named twice"
    return {cell: constant for constant, cell in found}


def test_every_kernel_branch_names_the_table_cell_it_returns() -> None:
    branches = _branches(kernels_path().read_text(encoding="utf-8"))
    # Every table a kernel runs (``restated`` is the proxy's: no kernel reads it).
    kernel_tables = [id(table) for table in tables_by_kernel(REFERENCE).values()]
    cells = {
        f"{table.name}{''.join(f'[{key.name}]' for key in path)}": value
        for table in dataclasses.fields(REFERENCE)
        if id(getattr(REFERENCE, table.name)) in kernel_tables
        for path, value in table_cells(getattr(REFERENCE, table.name))
    }
    assert {table.name for table in dataclasses.fields(REFERENCE)} - {
        table.name
        for table in dataclasses.fields(REFERENCE)
        if id(getattr(REFERENCE, table.name)) in kernel_tables
    } == {"name", "restated"}
    assert sorted(branches) == sorted(cells)
    wrong = [cell for cell, value in cells.items() if getattr(kernels, branches[cell]) != value]
    assert wrong == []


def test_a_changed_cell_changes_only_its_branch_and_its_edge() -> None:
    lifecycle = {state: dict(row) for state, row in LIFECYCLE.items()}
    # A value the table already holds elsewhere: no new constant, only the branch moves.
    lifecycle[EntryState.DONE][Trigger.DELTA] = LIFECYCLE[EntryState.ADDED][Trigger.DELTA]
    mutant = dataclasses.replace(REFERENCE, name="reference", lifecycle=lifecycle)
    diff = [
        line
        for line in difflib.unified_diff(
            render_kernels().splitlines(), render_kernels(mutant).splitlines(), n=0
        )
        if line.startswith(("-", "+")) and not line.startswith(("---", "+++"))
    ]
    edge, branch = "            (EntryState.DONE, Trigger.DELTA, ", "  # lifecycle[DONE][DELTA]"
    assert [line[0] for line in diff] == ["-", "+", "-", "+"]
    assert all(line[1:].startswith(edge) for line in diff[:2])
    assert all(line.endswith(branch) for line in diff[2:])
