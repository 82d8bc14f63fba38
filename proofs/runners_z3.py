"""Who runs a declared tool (R13), proved by Z3 one step at a time: a shell by its
environment, a tool search by its ``execution``.

``model.execution.declared`` reads ``response.tools`` in plain Python and the execution
encoding (``execution_z3.py``) leaves its answer free; the two decisions inside it are
tables of ``ModelTables`` (``environment_runner``: ``ENVIRONMENT_RUNNER``;
``execution_runner``: ``EXECUTION_RUNNER``), decided by the ``shell_runner`` and
``search_runner`` kernels the reducer passes to ``decide``.  Each is stated here as a
diagnostic contract (``contracts.Contract``) over the one value its step sees, and Z3
proves it for every value, through the cell ``ops_z3.lookup`` reads from the table
under proof.

Examples
--------
``responses-oracle prove --invariant shell_runners`` on the reference::

    invariant       policy      verdict   scope      time
    shell_runners   reference   PROVED    one step   0.00s

and on the mutant that lets the client run a hosted container's shell
(``ENVIRONMENT_RUNNER[container_auto]`` → ``client``; ``mutants.py``,
``hosted-shell-client-run``) ``prove`` answers ``COUNTEREXAMPLE``:
``environment=ShellEnvironment.CONTAINER_AUTO, runner=Runner.CLIENT``.

Theory of operation
-------------------
*The shell step.*  Its input is the environment a declared shell tool names
(``ShellEnvironment``: ``model.execution.shell_environment`` classifies the tool).  The
claim (R13): the client runs the shell exactly when nothing says it is hosted — no
environment, or ``local``; a hosted container (``container_auto``,
``container_reference``) or a type the model does not know is the server's.

*The tool search step.*  Its input is the ``execution`` a tool search (or its declared
tool) states (``SearchExecution``: ``model.execution.search_execution``).  The claim
(R13): ``execution: "client"`` is run by the client; ``"server"`` or unset by the server
(the hosted search has no ``call_id`` to answer).

This module imports Z3 only when a contract is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables

if TYPE_CHECKING:
    from .contracts import StepFacts
    from .sorts import Term


def shell_runner_step(tables: ModelTables, n: int) -> StepFacts:
    """The shell step (R13) over ``tables.environment_runner``; ``n`` is unused."""
    import z3
    from responses_oracle.model.execution import Runner, ShellEnvironment

    from .contracts import StepFacts
    from .ops_z3 import lookup
    from .sorts import finite_sort

    environments, runners = finite_sort(ShellEnvironment), finite_sort(Runner)
    environment = environments.var("environment")
    runner = lookup(tables.environment_runner, environment)
    client_side = z3.Or(
        environment == environments[ShellEnvironment.NONE],
        environment == environments[ShellEnvironment.LOCAL],
    )
    claim = (runner == runners[Runner.CLIENT]) == client_side
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "environment_runner": ((z3.BoolVal(True), (environment,)),)
    }
    show = {"environment": environment, "runner": runner}
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def search_runner_step(tables: ModelTables, n: int) -> StepFacts:
    """The tool search step (R13) over ``tables.execution_runner``; ``n`` is unused."""
    import z3
    from responses_oracle.model.execution import Runner, SearchExecution

    from .contracts import StepFacts
    from .ops_z3 import lookup
    from .sorts import finite_sort

    executions, runners = finite_sort(SearchExecution), finite_sort(Runner)
    execution = executions.var("execution")
    runner = lookup(tables.execution_runner, execution)
    claim = (runner == runners[Runner.CLIENT]) == (
        execution == executions[SearchExecution.CLIENT]
    )
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "execution_runner": ((z3.BoolVal(True), (execution,)),)
    }
    show = {"execution": execution, "runner": runner}
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)
