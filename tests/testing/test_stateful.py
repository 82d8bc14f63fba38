"""A stateful test: the model-guided walk drives three readings of the model at once.

Every rule of the machine emits events from ``ModelWalk`` (model-guided: only moves the
lifecycle table enables, plus at most one fault), and every event is fed to the core
twice: with the generated kernels and with ``machine_kernels()``, the ``transitions``
interpreter of the same tables.  After every event the test checks

- that both runs took the same step (equal ``StepTrace``) and hold the same state;
- every ``STATE`` and ``STEP`` invariant of DESIGN §4 on the generated run;
- until a fault is injected, that each entry is in the state the walk predicted from
  the lifecycle table — the reducer follows the table the walk read;

and at the end of input the ``FINAL`` invariants and equal results.  Hypothesis's own
gotchas (formal-tools-and-style §1d) are handled: an unconditioned ``idle`` rule, and
faults limited to one per run.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from responses_oracle.core.events import parse_event
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.core.state import ResponseState
from responses_oracle.core.step import end_of_input, step
from responses_oracle.model.catalogue import WIRE_EVENTS, EventClass
from responses_oracle.model.invariants import INVARIANTS, ResponseSnapshot, Scope, StepRecord
from responses_oracle.model.lifecycle import LIFECYCLE
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import Trigger
from responses_oracle.result import build_result
from responses_oracle.streamgen.streams import Ids
from responses_oracle.streamgen.walk import ModelWalk
from responses_oracle.testing.strategies import data_chooser

pytest.importorskip("transitions")
machine = pytest.importorskip("responses_oracle.model.machine")

_BY_SCOPE = {scope: [inv for inv in INVARIANTS if inv.scope is scope] for scope in Scope}


def _event_class(event: dict[str, Any]) -> EventClass:
    spec = WIRE_EVENTS.get(event.get("type", ""))
    # An unknown type must change nothing, so it is checked as an event that routes
    # nowhere; ``None`` would mean the end of input, which may touch every entry.
    return spec.event_class if spec is not None else EventClass.UNROUTABLE


def _broken(scope: Scope, subject: ResponseSnapshot | StepRecord) -> list[str]:
    return [inv.name for inv in _BY_SCOPE[scope] if not inv.holds(subject)]


class Run:
    """One reducer core run over the walk's events, with one kernel set."""

    def __init__(self, kernels: KernelSet) -> None:
        self.kernels = kernels
        self.state = ResponseState()

    def feed(self, index: int, event: dict[str, Any]) -> tuple[Any, StepRecord]:
        before = self.state.snapshot()
        trace = step(self.state, parse_event(index, event), self.kernels)
        after = self.state.snapshot()
        record = StepRecord(before, after, _event_class(event), frozenset(trace.codes))
        return trace, record

    def end(self) -> StepRecord:
        before = self.state.snapshot()
        end_of_input(self.state, self.kernels)
        return StepRecord(before, self.state.snapshot(), None, frozenset())


class WalkMachine(RuleBasedStateMachine):
    """Build a stream rule by rule; check the reducer on every prefix."""

    def __init__(self) -> None:
        super().__init__()
        self.walk = ModelWalk(Ids("5eed5eed5eed5eed"))
        self.generated = Run(KERNELS)
        self.interpreted = Run(machine.machine_kernels())
        self.fed = 0
        self.faulted = False
        self.late = 0
        self.walk.start()
        self._feed_new()

    def _feed_new(self) -> None:
        for index in range(self.fed, len(self.walk.events)):
            event = self.walk.events[index]
            trace, record = self.generated.feed(index, event)
            other, other_record = self.interpreted.feed(index, event)
            assert trace == other, (event, trace, other)
            assert record.after == other_record.after
            assert _broken(Scope.STEP, record) == [], (event, trace)
            assert _broken(Scope.STATE, record.after) == [], (event, trace)
        self.fed = len(self.walk.events)

    @invariant()
    def entries_follow_the_table(self) -> None:
        # A walk that ended without a terminal event predicts the end of input, which
        # the reducer only sees at teardown.
        if self.faulted or (self.walk.ended and not self.generated.state.terminal):
            return
        actual = [entry.state for entry in self.generated.state.snapshot().entries]
        assert actual == [entry.state for entry in self.walk.entries]

    @precondition(lambda self: not self.walk.ended and len(self.walk.entries) < 4)
    @rule(data=st.data())
    def admit(self, data: st.DataObject) -> None:
        self.walk.admit(data_chooser(data))
        self._feed_new()

    @precondition(lambda self: not self.walk.ended and bool(self.walk.live()))
    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        choose = data_chooser(data)
        for _ in range(choose.integer(1, 6)):
            self.walk.advance(choose)
        self._feed_new()

    @precondition(lambda self: not self.walk.ended and not self.faulted)
    @rule(data=st.data())
    def one_fault(self, data: st.DataObject) -> None:
        self.faulted = True
        self.walk.inject_fault(data_chooser(data))
        self._feed_new()

    # Ending early makes short, dull streams: end once there is something to end.
    @precondition(lambda self: not self.walk.ended and len(self.walk.events) >= 8)
    @rule(data=st.data())
    def finish(self, data: st.DataObject) -> None:
        self.walk.finish(data_chooser(data))
        self._feed_new()

    @precondition(lambda self: self.walk.ended and self.generated.state.terminal and not self.late)
    @rule(data=st.data())
    def after_the_end(self, data: st.DataObject) -> None:
        # An event after the terminal changes nothing (terminal_is_final).
        self.late += 1
        number = data.draw(st.integers(1, len(self.walk.events) - 1))
        self.walk.events.append(dict(self.walk.events[number]))
        self._feed_new()

    @rule()
    def idle(self) -> None:
        """Always enabled, so Hypothesis never runs out of rules (§1d gotcha 1)."""

    def teardown(self) -> None:
        record = self.generated.end()
        other = self.interpreted.end()
        assert record.after == other.after
        assert _broken(Scope.STEP, record) == []
        final = record.after
        assert _broken(Scope.STATE, final) + _broken(Scope.FINAL, final) == []
        ours = build_result(self.generated.state).to_json()
        assert ours == build_result(self.interpreted.state).to_json()
        if not self.faulted:
            predicted = [entry.state for entry in self.walk.entries]
            if not self.walk.ended:
                # The input stops here: the table's RESPONSE_ABORTED row (R9).
                predicted = [LIFECYCLE[s][Trigger.RESPONSE_ABORTED].next_state for s in predicted]
            assert [entry.state for entry in final.entries] == predicted


WalkMachine.TestCase.settings = settings(
    max_examples=200,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_walk_machine = WalkMachine.TestCase
