"""Who runs a declared tool (R13), proved by Z3 one step at a time: a shell by its
environment, a tool search by its ``execution``.

``model.execution.declared`` reads ``response.tools`` in plain Python and the execution
encoding (``execution_z3.py``) leaves its answer free; the two decisions inside it are
tables of ``ModelTables`` (``environment_runner``: ``ENVIRONMENT_RUNNER``, with
``environment_types``: ``ENVIRONMENT_TYPES``, the wire's ``environment.type`` read;
``execution_runner``: ``EXECUTION_RUNNER``, with ``execution_values``:
``EXECUTION_VALUES``, the wire's ``execution`` read), decided by the ``shell_runner``,
``search_runner``, ``reads_environment`` and ``reads_execution`` kernels the reducer
passes to ``decide``.  Each is stated here as a diagnostic contract
(``contracts.Contract``) over the wire values its step sees, and Z3 proves it for every
value, through the cells ``ops_z3.lookup`` reads from the tables under proof.

Examples
--------
``responses-oracle prove --invariant shell_runners`` on the reference::

    invariant       policy      verdict   scope      time
    shell_runners   reference   PROVED    one step   0.00s

and on the mutant that lets the client run a hosted container's shell
(``ENVIRONMENT_RUNNER[container_auto]`` → ``client``; ``mutants.py``,
``hosted-shell-client-run``) ``prove`` answers ``COUNTEREXAMPLE``:
``kind=EnvironmentType.CONTAINER_AUTO, environment=ShellEnvironment.CONTAINER_AUTO,
runner=Runner.CLIENT``.

Theory of operation
-------------------
*The shell step.*  Its input is the wire value of a declared shell tool's
``environment.type`` (``EnvironmentType``: absent, ``local``, ``container_auto``,
``container_reference``, or any other; ``model.execution.environment_type``), read
through ``environment_types`` (``ENVIRONMENT_TYPES``) into the environment it names,
whose runner ``environment_runner`` says.  The claim (R13): the client runs the shell
exactly when nothing says it is hosted — no environment type, or ``local``; a hosted
container (``container_auto``, ``container_reference``) or a type the model does not
know is the server's.  Stated over the wire value, a cell of ``ENVIRONMENT_TYPES`` that
misreads one so that another runner runs it is refuted (``mutants.py``,
``local-shell-read-as-container``).

*The tool search step.*  Its inputs are the wire values of the ``execution`` a tool
search states and of the one its declared tool states (``ExecutionValue``: ``client``,
``server``, or any other, absent included; ``model.execution.execution_value``), each
read through ``execution_values`` (``EXECUTION_VALUES``), the one that decides picked by
``model.execution.stated_execution``, and its runner read from ``execution_runner``.
The claim (R13): the client runs the search exactly when it says ``"client"``, or says
nothing the model knows and its declared tool says ``"client"``; ``"server"`` or unset
is the server's (the hosted search has no ``call_id`` to answer).  Stated over the wire
values, a cell of ``EXECUTION_VALUES`` that misreads one is refuted (``mutants.py``,
``own-server-execution-ignored``: ``"server"`` read as unset, so the declared tool's
``"client"`` decides).

This module imports Z3 only when a contract is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables

from .step_facts import StepFacts

if TYPE_CHECKING:
    from .sorts import Term


def shell_runner_step(tables: ModelTables, n: int) -> StepFacts:
    """The shell step (R13), over the wire value: ``tables.environment_types`` reads a
    declared shell's ``environment.type``, ``tables.environment_runner`` says who runs
    the environment it names; ``n`` is unused."""
    import z3
    from responses_oracle.model.execution import EnvironmentType, Runner

    from .ops_z3 import lookup
    from .sorts import finite_sort

    kinds, runners = finite_sort(EnvironmentType), finite_sort(Runner)
    kind = kinds.var("kind")
    environment = lookup(tables.environment_types, kind)
    runner = lookup(tables.environment_runner, environment)
    client_side = z3.Or(
        kind == kinds[EnvironmentType.ABSENT], kind == kinds[EnvironmentType.LOCAL]
    )
    claim = (runner == runners[Runner.CLIENT]) == client_side
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "environment_types": ((z3.BoolVal(True), (kind,)),),
        "environment_runner": ((z3.BoolVal(True), (environment,)),),
    }
    show = {"kind": kind, "environment": environment, "runner": runner}
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def search_runner_step(tables: ModelTables, n: int) -> StepFacts:
    """The tool search step (R13), over the wire values: ``tables.execution_values``
    reads the call's own ``execution`` and its declared tool's, ``stated_execution``
    picks the one that decides, and ``tables.execution_runner`` says who runs it; ``n``
    is unused."""
    import z3
    from responses_oracle.model.execution import (
        ExecutionValue,
        Runner,
        stated_execution,
    )

    from .ops_z3 import Z3Ops, lookup
    from .sorts import finite_sort

    values, runners = finite_sort(ExecutionValue), finite_sort(Runner)
    own, tool = values.var("own"), values.var("tool")
    read_own = lookup(tables.execution_values, own)
    read_tool = lookup(tables.execution_values, tool)
    stated = stated_execution(Z3Ops(1), read_own, read_tool)
    runner = lookup(tables.execution_runner, stated)
    client = values[ExecutionValue.CLIENT]
    claim = (runner == runners[Runner.CLIENT]) == z3.Or(
        own == client, z3.And(own == values[ExecutionValue.OTHER], tool == client)
    )
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "execution_values": ((z3.BoolVal(True), (own,)), (z3.BoolVal(True), (tool,))),
        "execution_runner": ((z3.BoolVal(True), (stated,)),),
    }
    show = {"own": own, "tool": tool, "runner": runner}
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)
