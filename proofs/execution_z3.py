"""Who runs a call (R13) in Z3: the lifecycle encoding with a ``call_id`` and the evidence.

Rules
-----
- The verdict is ``model.execution.execution_stop`` — the walk the reducer runs — on Z3
  terms (``ops_z3.Z3Ops``), and the cell of ``tables.execution`` it picks: nothing of
  ``decide`` is restated here, so a one-cell mutant of the execution table is a
  different verdict in the proofs as in the reducer.
- What the lifecycle decides (confirmation, the response's completion, its end) comes
  from the lifecycle encoding itself (``encoding.Encoding``, which this extends).
- The evidence the lifecycle does not model is left free: a free fact is a larger set
  of behaviours, so a proof over it holds for every value the reducer can gather.

Theory of operation
-------------------
``ExecutionEncoding`` is ``Encoding`` with, per entry,

- ``call_id``: the entry's ``call_id`` abstracted as a ``Payload`` (missing, empty,
  ``A``, ``B``), distinct from the abstract ``name``; each item the lifecycle merges
  (a row with ``MERGE_ITEM``) brings one (``ExecutionStep.call_id``), merged as the
  driver's ``merge_item`` merges it: ``model.admission.identity_relation`` picks the
  cell of ``tables.identity[CALL_ID]`` at the step's stage (``confirming``: the
  entry's own confirming item, else ``FIXED``; left free, as is whether another entry
  holds the value, ``taken``), and a blank taken is no ``call_id`` (the driver's None);
- the evidence ``decide`` reads besides: whether the item type is a client call
  (``call``: ``CLIENT_CALLS``, the catalogue's ``ClientCall`` records), whether an
  output item of the response answers its ``call_id`` (``answered``), and what the
  declared tools say of it (``answer``: a ``Declared``, what
  ``model.execution.declared_answer`` reads off ``response.tools``), which leaves the
  walk at the cell of ``tables.declared`` it picks (``DECLARED``), so a one-cell
  change to that map is a different stop here as in the reducer, and the invariants
  are stated over the answer itself; per response whether tools were declared at all
  (``tools``).  They are fixed for a run and free at its
  start: the reducer gathers them once, when the response ends.

``executable(state, i)``: the response ended, entry ``i`` was admitted, and the cell of
``tables.execution`` for its stop is one of ``EXECUTABLE`` — the reducer decides only
at the end (``settle``), so before it nothing is executable.  The invariants of
``EXECUTABLE_FACTS`` (``model.invariants``: an executable call is confirmed, belongs
to a completed response, has a non-empty ``call_id`` and is client-run by the
evidence) and the obligation of ``EXECUTABLE_OBLIGATIONS`` (``model.completeness``: a
call the evidence says the client runs is executable) are state formulas over it,
proved by ``induction`` (bounded) and ``unbounded.prove_unbounded`` over this
encoding's arrays (any number of entries).  A counterexample is a run of this
system, reported by its abstract steps and the evidence of each entry (``describe``):
the renderer writes ``function_call`` streams without tools or outputs, so it has no
stream (``tests/proofs/test_execution_proofs.py`` keeps a witness stream per mutant).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import z3
from responses_oracle.model.admission import identity_relation
from responses_oracle.model.execution import (
    EXECUTABLE,
    Declared,
    Execution,
    Stop,
    execution_stop,
)
from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import (
    Effect,
    EntryState,
    IdentityField,
    MergeStage,
    PayloadAction,
    Trigger,
)

from .encoding import (
    ENTRY,
    NONEMPTY,
    PAYLOAD,
    Bounds,
    ConcreteState,
    ConcreteStep,
    Encoding,
    Payload,
    State,
    Step,
    Term,
)
from .ops_z3 import lookup
from .sorts import finite_sort

STOP = finite_sort(Stop)
"""The sort of the execution table's keys."""
EXECUTION = finite_sort(Execution)
"""The sort of verdicts."""
ANSWER = finite_sort(Declared)
"""The sort of the declared tools' answers (the keys of ``tables.declared``)."""


@dataclass(frozen=True)
class ExecutionState(State):
    """A lifecycle ``State`` with each entry's ``call_id`` and evidence (per entry
    tuples) and whether the response declared tools."""

    call_id: tuple[Term, ...]
    call: tuple[Term, ...]
    answered: tuple[Term, ...]
    answer: tuple[Term, ...]
    tools: Term


@dataclass(frozen=True)
class ExecutionStep(Step):
    """A lifecycle ``Step`` with the ``call_id`` its item brings, whether another entry
    holds that value (``taken``) and whether the item is the entry's own confirming one
    (``confirming``: merged at that stage)."""

    call_id: Term
    taken: Term
    confirming: Term


_EXTRA: tuple[str, ...] = tuple(
    f.name for f in fields(ExecutionState) if f.name not in {g.name for g in fields(State)}
)


@dataclass(frozen=True)
class ConcreteExecution:
    """An ``ExecutionState`` read back: the lifecycle state and the evidence."""

    lifecycle: ConcreteState
    call_id: tuple[Payload, ...]
    call: tuple[bool, ...]
    answered: tuple[bool, ...]
    answer: tuple[Declared, ...]
    tools: bool
    verdict: tuple[Execution, ...]


@dataclass(frozen=True)
class ConcreteExecutionStep:
    """An ``ExecutionStep`` read back."""

    lifecycle: ConcreteStep
    call_id: Payload
    taken: bool
    confirming: bool

    @property
    def trigger(self) -> Trigger:
        """The trigger the step delivers (the lifecycle step's)."""
        return self.lifecycle.trigger


def _bool(model: z3.ModelRef, term: Term) -> bool:
    return bool(z3.is_true(model.eval(term, model_completion=True)))


class ExecutionEncoding(Encoding):
    """The lifecycle encoding of ``tables`` with ``call_id`` and the execution evidence."""

    def __init__(self, tables: ModelTables, bounds: Bounds, channels: int = 1) -> None:
        super().__init__(tables, bounds, channels=channels)

    # -- variables ------------------------------------------------------------------

    def fresh_state(self, name: str) -> ExecutionState:
        """A state of fresh variables."""
        base = super().fresh_state(name)
        n = range(self.bounds.entries)
        return ExecutionState(
            **{f.name: getattr(base, f.name) for f in fields(State)},
            call_id=tuple(PAYLOAD.var(f"{name}.call_id{i}") for i in n),
            call=tuple(z3.Bool(f"{name}.call{i}") for i in n),
            answered=tuple(z3.Bool(f"{name}.answered{i}") for i in n),
            answer=tuple(ANSWER.var(f"{name}.answer{i}") for i in n),
            tools=z3.Bool(f"{name}.tools"),
        )

    def fresh_step(self, name: str) -> ExecutionStep:
        """A step of fresh variables."""
        base = super().fresh_step(name)
        return ExecutionStep(
            **{f.name: getattr(base, f.name) for f in fields(Step)},
            call_id=PAYLOAD.var(f"{name}.call_id"),
            taken=z3.Bool(f"{name}.taken"),
            confirming=z3.Bool(f"{name}.confirming"),
        )

    # -- the system ------------------------------------------------------------------

    def initial(self, state: State) -> Term:
        """The lifecycle's initial state; no ``call_id`` yet; the evidence free."""
        assert isinstance(state, ExecutionState)
        missing = PAYLOAD[Payload.MISSING]
        return z3.And(super().initial(state), *[c == missing for c in state.call_id])

    def merged_call_id(self, held: Term, step: ExecutionStep) -> Term:
        """The ``call_id`` an entry holds after an item bringing ``step.call_id`` is
        merged into it (``merge_item``: the identity table's ``call_id`` cells)."""
        relation = identity_relation(self.ops, held, step.call_id, step.taken)

        def take(stage: MergeStage) -> Term:
            return lookup(
                self.tables.identity[IdentityField.CALL_ID][stage],
                relation,
                project=lambda decision: decision.action is PayloadAction.TAKE,
            )

        taken = z3.If(
            PAYLOAD.is_one_of(step.call_id, NONEMPTY), step.call_id, PAYLOAD[Payload.MISSING]
        )
        chosen = z3.If(step.confirming, take(MergeStage.CONFIRMING), take(MergeStage.FIXED))
        return z3.If(chosen, taken, held)

    def _apply(self, state: State, step: Step, i: int, active: Term) -> State:
        """The lifecycle's update of entry ``i``, and its ``call_id`` merged where its
        row merges the item (``MERGE_ITEM``)."""
        after = super()._apply(state, step, i, active)
        assert isinstance(state, ExecutionState) and isinstance(after, ExecutionState)
        assert isinstance(step, ExecutionStep)
        merges = z3.And(
            active, self.has_effect(state.entry_state[i], step.trigger, Effect.MERGE_ITEM)
        )
        held = state.call_id[i]
        call_id = z3.If(merges, self.merged_call_id(held, step), held)
        return replace(after, call_id=(*after.call_id[:i], call_id, *after.call_id[i + 1 :]))

    def equal(self, left: State, right: State) -> Term:
        """Every component equal, the evidence and ``call_id`` included."""
        pairs = [
            (a, b)
            for name in _EXTRA
            for a, b in zip(_flat(getattr(left, name)), _flat(getattr(right, name)), strict=True)
        ]
        return z3.And(super().equal(left, right), *[a == b for a, b in pairs])

    def canonical_order(self, first: State, steps: list[Any]) -> list[tuple[Term, list[Term]]]:
        """The lifecycle's order, then the evidence and what each step brings."""
        assert isinstance(first, ExecutionState)
        booleans = [z3.BoolVal(False), z3.BoolVal(True)]
        order = super().canonical_order(first, steps)
        order.append((first.tools, booleans[::-1]))
        for i in range(self.bounds.entries):
            order.append((first.call[i], booleans[::-1]))
            order.append((first.answered[i], booleans))
            order.append((first.answer[i], [ANSWER[a] for a in Declared]))
        for step in steps:
            order.append((step.call_id, [PAYLOAD[v] for v in Payload]))
            order.append((step.taken, booleans))
            order.append((step.confirming, booleans))
        return order

    # -- the verdict -----------------------------------------------------------------

    def verdict(self, state: ExecutionState, i: int) -> Term:
        """Entry ``i``'s verdict: the cell of ``tables.execution`` its stop picks; the
        declared tools' answer leaves the walk at the cell of ``tables.declared``."""
        stop = execution_stop(
            self.ops,
            state.call[i],
            state.completed,
            state.confirmed[i],
            state.call_id[i],
            state.answered[i],
            state.tools,
            lookup(self.tables.declared, state.answer[i]),
        )
        return lookup(self.tables.execution, stop)

    def executable(self, state: ExecutionState, i: int) -> Term:
        """Entry ``i`` is executable: the response ended, the entry was admitted (the
        reducer decides for its entries only) and its verdict is ``EXECUTABLE``."""
        return z3.And(
            state.terminal,
            state.entry_state[i] != ENTRY[EntryState.ABSENT],
            EXECUTION.is_one_of(self.verdict(state, i), EXECUTABLE),
        )

    # -- reading models ---------------------------------------------------------------

    def read_state(self, model: z3.ModelRef, state: State) -> Any:
        """The concrete lifecycle state and evidence ``model`` gives ``state``."""
        assert isinstance(state, ExecutionState)
        n = range(self.bounds.entries)
        return ConcreteExecution(
            super().read_state(model, state),
            tuple(PAYLOAD.read(model, c) for c in state.call_id),
            tuple(_bool(model, c) for c in state.call),
            tuple(_bool(model, a) for a in state.answered),
            tuple(ANSWER.read(model, a) for a in state.answer),
            _bool(model, state.tools),
            tuple(EXECUTION.read(model, self.verdict(state, i)) for i in n),
        )

    def read_step(self, model: z3.ModelRef, step: Step) -> Any:
        """The concrete lifecycle step and what its item brings."""
        assert isinstance(step, ExecutionStep)
        return ConcreteExecutionStep(
            super().read_step(model, step),
            PAYLOAD.read(model, step.call_id),
            _bool(model, step.taken),
            _bool(model, step.confirming),
        )


def _flat(value: Any) -> tuple[Term, ...]:
    return value if isinstance(value, tuple) else (value,)


# -- the invariants (model.invariants) -------------------------------------------------


def _each(encoding: ExecutionEncoding, formula: Callable[[int], Term]) -> Term:
    return z3.And([formula(i) for i in range(encoding.bounds.entries)])


def executable_is_confirmed(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """An executable entry is confirmed (that confirmation means a confirming event
    arrived is ``executable_needs_completion``'s, over the lifecycle alone)."""
    return _each(
        encoding, lambda i: z3.Implies(encoding.executable(state, i), state.confirmed[i])
    )


def executable_in_completed_response(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """An executable entry's response ended by ``response.completed``."""
    return _each(
        encoding,
        lambda i: z3.Implies(
            encoding.executable(state, i), z3.And(state.completed, state.terminal)
        ),
    )


def executable_has_call_id(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """An executable entry holds a non-empty ``call_id``."""
    return _each(
        encoding,
        lambda i: z3.Implies(
            encoding.executable(state, i), PAYLOAD.is_one_of(state.call_id[i], NONEMPTY)
        ),
    )


def executable_is_client_run(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """An executable entry is a client call type no output answers, and either the
    declared tools say the client runs it (verdict ``CLIENT``) or no tools were declared
    and its verdict says so (``TOOLS_UNKNOWN``)."""

    def client_run(i: int) -> Term:
        verdict = encoding.verdict(state, i)
        by_declaration = z3.And(
            state.tools,
            state.answer[i] == ANSWER[Declared.CLIENT],
            verdict == EXECUTION[Execution.CLIENT],
        )
        unknown = z3.And(z3.Not(state.tools), verdict == EXECUTION[Execution.TOOLS_UNKNOWN])
        return z3.Implies(
            encoding.executable(state, i),
            z3.And(state.call[i], z3.Not(state.answered[i]), z3.Or(by_declaration, unknown)),
        )

    return _each(encoding, client_run)


def client_run_is_executable(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """Once the response ended, an entry the evidence says the client runs is executable,
    with the verdict that names the evidence (``model.completeness``: what the events
    brought — a confirming event, the ``call_id`` — not the flags a row set)."""

    def withheld(i: int) -> Term:
        evidence = z3.And(
            state.terminal,
            state.entry_state[i] != ENTRY[EntryState.ABSENT],
            state.call[i],
            state.completed,
            state.confirming_seen[i],
            PAYLOAD.is_one_of(state.call_id[i], NONEMPTY),
            z3.Not(state.answered[i]),
            z3.Or(z3.Not(state.tools), state.answer[i] == ANSWER[Declared.CLIENT]),
        )
        named = z3.If(
            state.tools, EXECUTION[Execution.CLIENT], EXECUTION[Execution.TOOLS_UNKNOWN]
        )
        return z3.Implies(
            evidence,
            z3.And(encoding.executable(state, i), encoding.verdict(state, i) == named),
        )

    return _each(encoding, withheld)


def client_run_antecedent(encoding: Any, before: Any, step: Any, after: Any) -> Term:
    """A step after which ``client_run_is_executable`` has something to say: a response
    completed with a client call that received a confirming event and has a ``call_id``
    (``vacuity``: a proof whose antecedent no run reaches would be vacuous)."""
    return z3.Or(
        [
            z3.And(
                after.terminal,
                after.completed,
                after.call[i],
                after.confirming_seen[i],
                PAYLOAD.is_one_of(after.call_id[i], NONEMPTY),
            )
            for i in range(encoding.bounds.entries)
        ]
    )


def verdict_says_why(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """Once the response ended, each admitted entry's verdict is true of its evidence
    (the meaning each ``Execution`` names), so a verdict never names another gate."""

    def means(i: int) -> dict[Execution, Term]:
        declared = {
            answer: z3.And(state.tools, state.answer[i] == ANSWER[answer]) for answer in Declared
        }
        return {
            Execution.NOT_A_CALL: z3.Not(state.call[i]),
            Execution.NOT_COMPLETED: z3.Not(state.completed),
            Execution.UNCONFIRMED: z3.Not(state.confirmed[i]),
            Execution.NO_CALL_ID: z3.Not(PAYLOAD.is_one_of(state.call_id[i], NONEMPTY)),
            Execution.ANSWERED: state.answered[i],
            Execution.CLIENT: declared[Declared.CLIENT],
            Execution.SERVER: declared[Declared.SERVER],
            Execution.UNDECLARED: declared[Declared.NONE],
            Execution.UNKNOWN_TOOL_TYPE: declared[Declared.UNKNOWN_TYPE],
            Execution.TOOLS_UNKNOWN: z3.Not(state.tools),
        }

    def says_why(i: int) -> Term:
        verdict = encoding.verdict(state, i)
        ended = z3.And(state.terminal, state.entry_state[i] != ENTRY[EntryState.ABSENT])
        return z3.Implies(
            ended,
            z3.And([z3.Implies(verdict == EXECUTION[v], m) for v, m in means(i).items()]),
        )

    return _each(encoding, says_why)


def withheld_reported(encoding: ExecutionEncoding, state: ExecutionState) -> Term:
    """Once the response ended, each admitted entry is reported withheld (the cell of
    ``tables.withheld`` for its verdict, which the driver reads to raise
    ``call_withheld``) exactly when it is a client call type that is not executable in
    a completed response, and was confirmed: an unconfirmed one is the lifecycle's to
    report (``unconfirmed_item``, proved by ``unconfirmed_reported``), once."""

    def reported(i: int) -> Term:
        verdict = encoding.verdict(state, i)
        ended = z3.And(state.terminal, state.entry_state[i] != ENTRY[EntryState.ABSENT])
        withheld = z3.And(
            state.completed,
            state.call[i],
            z3.Not(EXECUTION.is_one_of(verdict, EXECUTABLE)),
            verdict != EXECUTION[Execution.UNCONFIRMED],
        )
        return z3.Implies(ended, lookup(encoding.tables.withheld, verdict) == withheld)

    return _each(encoding, reported)


def withheld_antecedent(encoding: Any, before: Any, step: Any, after: Any) -> Term:
    """A step after which ``withheld_reported`` owes a report: a response completed with
    an admitted client call that is not executable (``vacuity``)."""
    return z3.Or(
        [
            z3.And(
                after.terminal,
                after.completed,
                after.entry_state[i] != ENTRY[EntryState.ABSENT],
                after.call[i],
                z3.Not(EXECUTION.is_one_of(encoding.verdict(after, i), EXECUTABLE)),
            )
            for i in range(encoding.bounds.entries)
        ]
    )


EXECUTABLE_FACTS: dict[str, Callable[[Any, Any], Term]] = {
    "executable_is_confirmed": executable_is_confirmed,
    "executable_in_completed_response": executable_in_completed_response,
    "executable_has_call_id": executable_has_call_id,
    "executable_is_client_run": executable_is_client_run,
    "verdict_says_why": verdict_says_why,
}
"""The invariants over ``ExecutionEncoding``, by name (``model.invariants``)."""

EXECUTABLE_OBLIGATIONS: dict[str, Callable[[Any, Any], Term]] = {
    "client_run_is_executable": client_run_is_executable,
    "withheld_reported": withheld_reported,
}
"""The completeness obligations over ``ExecutionEncoding`` (``model.completeness``)."""


def describe(run: Any) -> str:
    """A run of ``ExecutionEncoding`` in words: its steps and each entry's evidence at
    the end (the verdict that breaks the invariant)."""
    steps = ", ".join(
        f"{s.lifecycle.trigger.value}@{s.lifecycle.entry}"
        + (f" call_id {s.call_id.value}" if s.call_id is not Payload.MISSING else "")
        for s in run.steps
    )
    last: ConcreteExecution = run.states[-1]
    entries = "; ".join(
        f"entry {i}: {'a' if last.call[i] else 'not a'} client call type, call_id "
        f"{last.call_id[i].value}, {'answered' if last.answered[i] else 'unanswered'}, "
        f"declared {last.answer[i].value}, "
        f"{'confirmed' if last.lifecycle.confirmed[i] else 'unconfirmed'} -> "
        f"{last.verdict[i].value}"
        for i in range(len(last.call))
        if last.lifecycle.entry_state[i] is not EntryState.ABSENT
    )
    tools = "tools declared" if last.tools else "no tools declared"
    completed = "completed" if last.lifecycle.completed else "not completed"
    return f"{len(run.steps)} steps: {steps}; response {completed}, {tools}; {entries}"
