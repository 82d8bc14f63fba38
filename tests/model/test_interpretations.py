"""Three readings of the same tables agree on every input, and each follows the table.

The generated kernels (``impl/core/generated_kernels.py``), the dict-lookup interpreter and the
``transitions`` machines are compared on every combination of their enum arguments —
the domains are small enough to be exhaustive.  A mutant with one row changed shows the
comparison is not vacuous: the generated kernels then differ in exactly that cell.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import re
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import pytest
from responses_oracle.core import generated_kernels as generated
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.interpreter import table_kernels
from responses_oracle.model.lifecycle import LIFECYCLE, Transition
from responses_oracle.model.machine import machine_kernels
from responses_oracle.model.slots import SLOTS, SlotTransition
from responses_oracle.model.tables import (
    REFERENCE,
    KernelSet,
    ModelTables,
    table_cells,
    tables_by_kernel,
)
from responses_oracle.model.vocabulary import (
    Code,
    Effect,
    EntryState,
    SlotState,
    SlotTrigger,
    Trigger,
)
from transitions import MachineError

Inputs = tuple[Enum, ...]


def _inputs(kernel: Callable[..., object]) -> list[Inputs]:
    """Every combination of a kernel's enum arguments, read from its annotations."""
    hints = typing.get_type_hints(kernel)
    hints.pop("return")
    return list(itertools.product(*(list(enum) for enum in hints.values())))


def _table(tables: ModelTables, kernel: str) -> Mapping[Any, Any]:
    """The table behind one kernel of the KernelSet."""
    return tables_by_kernel(tables)[kernel]


def _rows(table: Mapping[Any, Any]) -> set[tuple[Any, ...]]:
    """A table as (keys..., value) rows."""
    return {(*path, value) for path, value in table_cells(table)}


def _outputs(kernels: KernelSet) -> dict[tuple[str, Inputs], object]:
    """Every kernel's answer on every input."""
    return {
        (name, args): getattr(kernels, name)(*args)
        for name in KernelSet._fields
        for args in _inputs(getattr(generated.KERNELS, name))
    }


def test_the_input_domains_are_what_the_tables_range_over() -> None:
    for name in KernelSet._fields:
        args = {row[:-1] for row in _rows(_table(REFERENCE, name))}
        assert set(_inputs(getattr(generated.KERNELS, name))) == args, name


def test_generated_interpreted_and_machine_kernels_agree_everywhere() -> None:
    expected = _outputs(generated.KERNELS)
    assert (
        len(expected)
        == 7 * 10 + 3 * 2 + 3 * 6 + 3 + 3 + 2 * 3 * 4 * 5 + 6 + 3 * 6 + 3 * 2 * 5 + 10 * 2
        + 2 * 3 * 3 + 2 + 2 + 3 + 5 + 5 + 10 + 3 + 5 + 3 + 4 + 3 + 5 + 3 + 2 + 2 + 2 + 10
        + 19 + 19 + 9  # notes, waives (every effect), announces (every channel kind)
    )
    for kernels in (table_kernels(), machine_kernels()):
        actual = _outputs(kernels)
        assert actual == expected
        # NamedTuples compare as tuples: also insist on the same result type.
        assert {key: type(value) for key, value in actual.items()} == {
            key: type(value) for key, value in expected.items()
        }


def test_interpreter_answers_are_the_table_cells() -> None:
    kernels = table_kernels()
    for name in KernelSet._fields:
        for *args, value in _rows(_table(REFERENCE, name)):
            assert getattr(kernels, name)(*args) is value


def test_machine_kernels_take_the_stateless_tables_from_the_interpreter() -> None:
    lifecycle = machine_kernels().lifecycle
    assert lifecycle(EntryState.ABSENT, Trigger.ITEM_DONE) == Transition(
        EntryState.DONE,
        (
            Effect.ADMIT,
            Effect.NOTE_DONE_ONLY,
            Effect.BIND_SLOT,
            Effect.MERGE_ITEM,
            Effect.OFFER_ITEM_PAYLOADS,
            Effect.CONFIRM,
            Effect.TOMBSTONE_SLOT,
            Effect.EMIT_COMPLETION,
        ),
    )
    # Repeated calls start from the state given, not from where the last call left it.
    assert lifecycle(EntryState.ADDED, Trigger.DELTA).next_state is EntryState.STREAMING
    assert lifecycle(EntryState.ADDED, Trigger.DELTA).next_state is EntryState.STREAMING
    assert machine_kernels().slot(SlotState.LIVE, SlotTrigger.BIND) == SlotTransition(
        SlotState.SHARED, Code.SLOT_REUSED
    )


def test_the_machine_dispatches_rows_it_has_and_refuses_rows_it_lacks() -> None:
    lifecycle = {state: dict(row) for state, row in LIFECYCLE.items()}
    del lifecycle[EntryState.DONE][Trigger.DELTA]
    partial = dataclasses.replace(REFERENCE, name="partial", lifecycle=lifecycle)
    kernels = machine_kernels(partial)
    assert kernels.lifecycle(EntryState.DONE, Trigger.ITEM_DONE) == LIFECYCLE[EntryState.DONE][
        Trigger.ITEM_DONE
    ]
    with pytest.raises(MachineError):
        kernels.lifecycle(EntryState.DONE, Trigger.DELTA)


def _lifecycle_mutant() -> tuple[ModelTables, tuple[str, Inputs], object]:
    """A done entry reopened by a late delta: the bug ``late_is_inert`` forbids."""
    lifecycle = {state: dict(row) for state, row in LIFECYCLE.items()}
    cell = Transition(EntryState.STREAMING, (Effect.APPEND_DELTA,))
    lifecycle[EntryState.DONE][Trigger.DELTA] = cell
    mutant = dataclasses.replace(REFERENCE, name="done_reopens", lifecycle=lifecycle)
    return mutant, ("lifecycle", (EntryState.DONE, Trigger.DELTA)), cell


def _slot_mutant() -> tuple[ModelTables, tuple[str, Inputs], object]:
    """A done entry's slot freed: the bug ``slot_first_write`` forbids."""
    slots = {state: dict(row) for state, row in SLOTS.items()}
    cell = SlotTransition(SlotState.FREE, None)
    slots[SlotState.LIVE][SlotTrigger.TOMBSTONE] = cell
    mutant = dataclasses.replace(REFERENCE, name="done_frees", slots=slots)
    return mutant, ("slot", (SlotState.LIVE, SlotTrigger.TOMBSTONE)), cell


@pytest.mark.parametrize("make", [_lifecycle_mutant, _slot_mutant])
def test_a_one_row_mutant_changes_exactly_that_cell(
    make: Callable[[], tuple[ModelTables, tuple[str, Inputs], object]],
) -> None:
    mutant, changed, cell = make()
    reference = _outputs(generated.KERNELS)
    from_mutant = _outputs(load_kernels(mutant))
    differing = {key for key in reference if reference[key] != from_mutant[key]}
    assert differing == {changed}
    assert from_mutant[changed] == cell
    # The two independent readings follow the mutant's table too.
    assert _outputs(table_kernels(mutant)) == from_mutant
    assert _outputs(machine_kernels(mutant)) == from_mutant


_POST = re.compile(r'^post: \((?P<args>[\w, ]+), __return__\) in edges\("(?P<kernel>\w+)"\)$')


@pytest.mark.parametrize("name", KernelSet._fields)
def test_each_kernel_contract_names_the_edges_of_its_table(name: str) -> None:
    kernel = getattr(generated, name)
    assert getattr(generated.KERNELS, name) is kernel
    posts = [
        line for line in (inspect.getdoc(kernel) or "").splitlines() if line.startswith("post:")
    ]
    assert len(posts) == 1
    match = _POST.match(posts[0])
    assert match is not None, posts[0]
    parameters = list(inspect.signature(kernel).parameters)
    assert match["args"].split(", ") == parameters
    assert match["kernel"] == name
    edges = generated.edges(name)
    assert isinstance(edges, frozenset)
    assert edges == _rows(_table(REFERENCE, name))
    # The contract holds on every input, evaluated as CrossHair would.
    expression = posts[0].removeprefix("post: ")
    for args in _inputs(kernel):
        scope = {**dict(zip(parameters, args, strict=True)), "__return__": kernel(*args)}
        assert eval(expression, vars(generated), scope) is True
