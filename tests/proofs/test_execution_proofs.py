"""Who runs a call (R13) in the proofs: the executable invariants are proved, and each
one-cell mutant of the execution table is refuted by Z3 and seen by the reducer.

The walk through the gates (``model.execution.execution_stop``) is one function: the
reducer runs it on Python facts, ``proofs/execution_z3.py`` on Z3 terms, and here the
two agree on every combination of facts.  Each mutant of ``proofs/mutants.py`` with
``system="execution"`` breaks its invariant's induction step (bounded and unbounded),
``prove`` reports its abstract run, and a witness stream — the case its evidence
names — makes the mutant's generated reducer run a call the reference does not (or,
for the obligation ``client_run_is_executable``, withhold one the reference runs).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import z3
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.completeness import COMPLETENESS_BY_NAME
from responses_oracle.model.execution import (
    DECLARATION_STOPS,
    DECLARED,
    EXECUTION,
    Declared,
    Execution,
    Stop,
    execution_stop,
)
from responses_oracle.model.execution import WITHHELD as REPORTED_CELLS
from responses_oracle.model.invariants import INVARIANTS_BY_NAME
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs.conformance import violated_invariants
from responses_oracle.proofs.encoding import PAYLOAD, Bounds, Payload
from responses_oracle.proofs.execution_z3 import EXECUTABLE_FACTS, EXECUTABLE_OBLIGATIONS, STOP
from responses_oracle.proofs.induction import check_induction
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import table_mutants
from responses_oracle.proofs.ops_z3 import PAYLOAD_OPS, Z3Ops
from responses_oracle.proofs.unbounded import UNBOUNDED, prove_unbounded
from responses_oracle.reducer import Reducer

pytestmark = pytest.mark.rule("R13")

EXECUTION_MUTANTS = [mutant for mutant in MUTANT_LIST if mutant.system == "execution"]
IDS = [mutant.tables.name for mutant in EXECUTION_MUTANTS]
STATED = {**EXECUTABLE_FACTS, **EXECUTABLE_OBLIGATIONS}
"""Everything stated over ``ExecutionEncoding``: the invariants and the obligation."""


@pytest.mark.parametrize("bounds", [Bounds(2, 2), Bounds(3, 3)], ids=str)
@pytest.mark.parametrize("invariant", list(STATED))
def test_reference_proves_each_executable_invariant(invariant: str, bounds: Bounds) -> None:
    result = check_induction(REFERENCE, invariant, bounds)
    assert (result.base_holds, result.step_holds, result.broken) == (True, True, ())
    assert invariant in UNBOUNDED
    assert prove_unbounded(REFERENCE, invariant)[0]


def test_every_executable_invariant_has_a_mutant_and_a_python_predicate() -> None:
    assert {mutant.breaks for mutant in EXECUTION_MUTANTS} == set(STATED)
    assert set(EXECUTABLE_FACTS) <= set(INVARIANTS_BY_NAME)
    assert set(EXECUTABLE_OBLIGATIONS) <= set(COMPLETENESS_BY_NAME)


@pytest.mark.parametrize("mutant", EXECUTION_MUTANTS, ids=IDS)
def test_mutant_is_one_execution_or_declared_cell(mutant: Mutant) -> None:
    changed = [s for s in Stop if mutant.tables.execution[s] is not EXECUTION[s]]
    changed += [a for a in Declared if mutant.tables.declared[a] is not DECLARED[a]]
    changed += [v for v in Execution if mutant.tables.withheld[v] is not REPORTED_CELLS[v]]
    assert len(changed) == 1


@pytest.mark.parametrize("mutant", EXECUTION_MUTANTS, ids=IDS)
def test_mutant_breaks_its_invariant_bounded_and_unbounded(mutant: Mutant) -> None:
    result = check_induction(mutant.tables, mutant.breaks, Bounds(2, 2))
    assert result.base_holds and mutant.breaks in result.broken
    # Unbounded, Z3 may answer unknown past the quantifier (never a proof).
    proved, detail = prove_unbounded(mutant.tables, mutant.breaks)
    assert not proved and detail.startswith("base: unsat")


def test_prove_reports_the_abstract_run_of_a_mutant() -> None:
    mutant = next(m for m in EXECUTION_MUTANTS if m.tables.name == "hosted-call-runs")
    (row,) = prove(mutant.breaks, mutant.tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is None
    assert "declared server" in row.detail and "-> client" in row.detail


def _z3_stop(facts: tuple[bool, bool, bool, Payload, bool, bool, Stop]) -> Stop:
    call, completed, confirmed, call_id, answered, tools, declaration = facts
    term = execution_stop(
        Z3Ops(1),
        z3.BoolVal(call),
        z3.BoolVal(completed),
        z3.BoolVal(confirmed),
        PAYLOAD[call_id],
        z3.BoolVal(answered),
        z3.BoolVal(tools),
        STOP[declaration],
    )
    model_of = z3.Solver()
    assert model_of.check() == z3.sat
    return STOP.read(model_of.model(), term)


def test_the_walk_is_one_function_in_python_and_z3() -> None:
    flags = (False, True)
    for facts in itertools.product(
        flags, flags, flags, tuple(Payload), flags, flags, DECLARATION_STOPS
    ):
        assert execution_stop(PAYLOAD_OPS, *facts) is _z3_stop(facts)
    # The reducer's Python facts: a call_id is a string or None.
    assert execution_stop(PYTHON, True, True, True, None, False, True, Stop.DECLARED_CLIENT) is (
        Stop.NO_CALL_ID
    )


# -- witness streams: the mutant's reducer runs what the reference does not -------------


def _turn(
    items: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    terminal: str = "response.completed",
    done: bool = True,
) -> list[dict[str, Any]]:
    """One response: each item added (and done, with ``done``), then ``terminal`` with
    the items as its output (none when not ``done``: nothing confirmed them)."""
    response = {"id": "resp_1", "status": "in_progress", "tools": tools}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    for index, item in enumerate(items):
        events.append({"type": "response.output_item.added", "output_index": index, "item": item})
        if done:
            events.append(
                {"type": "response.output_item.done", "output_index": index, "item": item}
            )
    status = terminal.removeprefix("response.")
    end = {**response, "status": status, "output": items if done else []}
    return [*events, {"type": terminal, "response": end}]


_FUNCTION = [{"type": "function", "name": "get_weather"}]
_CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "get_weather",
    "arguments": "{}",
}
_SHELL = {"type": "shell_call", "id": "sh_1", "call_id": "call_sh", "action": {"commands": ["ls"]}}

WITNESSES: dict[str, list[dict[str, Any]]] = {
    "unconfirmed-call-runs": _turn([_CALL], _FUNCTION, done=False),
    "cut-off-call-runs": _turn([_CALL], _FUNCTION, terminal="response.incomplete"),
    "call-without-call-id-runs": _turn([{**_CALL, "call_id": ""}], _FUNCTION),
    "hosted-call-runs": _turn(
        [_SHELL], [{"type": "shell", "environment": {"type": "container_auto"}}]
    ),
    "answered-call-runs": _turn(
        [_SHELL, {"type": "shell_call_output", "id": "sho_1", "call_id": "call_sh"}],
        [{"type": "shell"}],
    ),
    "undeclared-call-runs": _turn(
        [{**_CALL, "type": "custom_tool_call", "name": "x_keyword_search", "input": "q"}],
        [{"type": "x_search"}],
    ),
    "undeclared-call-client-run": _turn(
        [{**_CALL, "type": "custom_tool_call", "name": "x_keyword_search", "input": "q"}],
        [{"type": "x_search"}],
    ),
    "declared-call-withheld": _turn([_CALL], _FUNCTION),
    "undeclared-tools-call-withheld": _turn([_CALL], []),
    "answered-call-said-unconfirmed": _turn(
        [_SHELL, {"type": "shell_call_output", "id": "sho_1", "call_id": "call_sh"}],
        [{"type": "shell"}],
    ),
    # Issue #41: the call a vLLM gateway restores to its namespace, no echoed tool its.
    "undeclared-call-withheld-silently": _turn(
        [{**_CALL, "namespace": "mcp__agentic_fixture", "name": "add_numbers"}],
        [{"type": "function", "name": "agentic_ns__mcp__agentic_fixture__add_numbers"}],
    ),
    "executable-call-said-withheld": _turn([_CALL], _FUNCTION),
}
"""A stream per mutant: the case its evidence names."""

WITHHELD = frozenset({"declared-call-withheld", "undeclared-tools-call-withheld"})
"""Mutants that withhold a call the reference runs (the others run one it withholds)."""

RENAMED = frozenset({"answered-call-said-unconfirmed"})
"""Mutants that run what the reference runs, but name another reason for not running."""

REPORTED = frozenset({"undeclared-call-withheld-silently", "executable-call-said-withheld"})
"""Mutants that run what the reference runs, for the same reason, but report it
otherwise (``call_withheld`` dropped or added)."""

PYTHON_BLIND = frozenset(
    {"hosted-call-runs", "undeclared-call-runs", "undeclared-call-client-run"}
)
"""Mutants the Python predicate cannot see: the snapshot does not carry the declared
tools (the declaration half of ``executable_is_client_run`` is the Z3 statement's)."""


def _result(events: list[dict[str, Any]], mutant: Mutant | None) -> Any:
    """The one response's result, by the reducer generated from ``mutant``'s tables (the
    reference's for None)."""
    reducer = Reducer(kernels=load_kernels(REFERENCE if mutant is None else mutant.tables))
    reducer.feed_all(events)
    (result,) = reducer.finish()
    return result


def _executable(events: list[dict[str, Any]], mutant: Mutant | None) -> list[bool]:
    """Whether each item of the one response is executable."""
    return [item.executable for item in _result(events, mutant).items]


def _verdicts(events: list[dict[str, Any]], mutant: Mutant | None) -> list[Execution]:
    """Each item's execution verdict."""
    return [item.execution for item in _result(events, mutant).items]


def _codes(events: list[dict[str, Any]], mutant: Mutant | None) -> list[str]:
    """The diagnostic codes of the one response."""
    return [diagnostic.code.value for diagnostic in _result(events, mutant).diagnostics]


def test_every_one_cell_execution_change_is_refuted_by_prove() -> None:
    # Not only the named mutants: every other verdict in every cell of the table, the
    # swaps between two reasons for not running included.  Each changes the verdict of
    # its stop, so verdict_says_why alone refutes them all (the executable invariants
    # refute those that run or withhold a call: the named mutants above).
    mutants = [m for m in table_mutants() if m.table == "execution"]
    assert len(mutants) == len(REFERENCE.execution) * (len(Execution) - 1)
    survivors = [
        m.tables.name
        for m in mutants
        if prove("verdict_says_why", m.tables)[0].status is not Status.COUNTEREXAMPLE
    ]
    assert survivors == []


def test_every_one_cell_declared_change_is_refuted_by_prove() -> None:
    # The map from the declared tools' answer to the walk's stop (issue #35): the
    # invariants are stated over the answer, so any other stop for one is refuted.
    mutants = [m for m in table_mutants() if m.table == "declared"]
    assert len(mutants) == len(REFERENCE.declared) * (len(Stop) - 1)
    survivors = [
        m.tables.name
        for m in mutants
        if prove("verdict_says_why", m.tables)[0].status is not Status.COUNTEREXAMPLE
    ]
    assert survivors == []


def test_every_one_cell_withheld_change_is_refuted_by_prove() -> None:
    # Issue #41: which verdicts call_withheld reports.  The obligation holds each cell
    # to its meaning, so a cell that silences a withheld call, or reports one that is
    # run (or not a call, or cut off, or told by unconfirmed_item), is refuted.
    mutants = [m for m in table_mutants() if m.table == "withheld"]
    assert len(mutants) == len(REFERENCE.withheld)
    survivors = [
        m.tables.name
        for m in mutants
        if prove("withheld_reported", m.tables)[0].status is not Status.COUNTEREXAMPLE
    ]
    assert survivors == []


@pytest.mark.parametrize("mutant", EXECUTION_MUTANTS, ids=IDS)
def test_witness_stream_runs_a_call_the_reference_does_not_or_the_reverse(mutant: Mutant) -> None:
    events = WITNESSES[mutant.tables.name]
    if mutant.tables.name in REPORTED:
        assert _verdicts(events, mutant) == _verdicts(events, None)
        said = ("call_withheld" in _codes(events, mutant), "call_withheld" in _codes(events, None))
        assert said in {(False, True), (True, False)}
    elif mutant.tables.name in RENAMED:
        assert _executable(events, mutant) == _executable(events, None)
        assert _verdicts(events, mutant) != _verdicts(events, None)
    else:
        runs = mutant.tables.name not in WITHHELD
        assert (_executable(events, mutant)[0], _executable(events, None)[0]) == (runs, not runs)
    if mutant.breaks not in INVARIANTS_BY_NAME:
        return  # an obligation has no Python predicate (model.completeness)
    # The Python predicate (what the Hypothesis suites check) sees it, where it can.
    in_mutant = violated_invariants(events, load_kernels(mutant.tables))
    assert violated_invariants(events, load_kernels(REFERENCE)) == frozenset()
    assert (mutant.breaks in in_mutant) is (mutant.tables.name not in PYTHON_BLIND)
