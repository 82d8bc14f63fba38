"""Check every invariant of ``model/invariants.py`` while a stream is reduced event by event.

``check_invariants(events)`` drives the reducer core one event at a time and returns the
violations as readable strings (an empty list means every invariant held):

- ``STATE`` invariants on the state after every event;
- ``STEP`` invariants on every pair of consecutive snapshots (``StepRecord``), including
  the end-of-input step that closes a response without a terminal event;
- ``FINAL`` invariants (and ``STATE``) once each response has ended.

Why the core and not ``Reducer``: the ``FINAL`` invariants need the state *after* the
response ended, and ``Reducer.finish()`` hands back only results.  So the checker runs
the same three core calls the ``Reducer`` glues together (``parse_event``, ``step``,
``end_of_input``) with the same response split (a ``response.created`` after anything
happened starts a new response), and it proves that it reproduced the ``Reducer`` by
comparing its results with the ``Reducer``'s — a mismatch is reported as a violation too.

With ``every_prefix=True`` each prefix of a response is also ended (on a copy of the
state) and checked as if the input had stopped there: the FINAL invariants must hold at
*every* cut of a stream, not just at its end.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from responses_oracle import Reducer
from responses_oracle.core.events import parse_event
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.core.state import ResponseState
from responses_oracle.core.step import end_of_input, step
from responses_oracle.model.catalogue import EventClass
from responses_oracle.model.invariants import INVARIANTS, ResponseSnapshot, Scope, StepRecord
from responses_oracle.model.tables import KernelSet
from responses_oracle.result import build_result

_STATE = tuple(inv for inv in INVARIANTS if inv.scope is Scope.STATE)
_STEP = tuple(inv for inv in INVARIANTS if inv.scope is Scope.STEP)
_FINAL = tuple(inv for inv in INVARIANTS if inv.scope is Scope.FINAL)

_UNKNOWN = EventClass.UNROUTABLE
"""The class given to an event type the catalogue does not know.  ``None`` would mean
"end of input", which the step invariants exempt (it may touch every entry); an unknown
event must change nothing, so it is checked like any event that routes nowhere."""


def _state_violations(where: str, state: ResponseSnapshot, final: bool) -> list[str]:
    checked = _STATE + _FINAL if final else _STATE
    return [f"{inv.name} {where}: {inv.statement}" for inv in checked if not inv.holds(state)]


def _step_violations(where: str, record: StepRecord) -> list[str]:
    return [f"{inv.name} {where}: {inv.statement}" for inv in _STEP if not inv.holds(record)]


def _end(
    state: ResponseState, kernels: KernelSet, before: ResponseSnapshot, where: str
) -> list[str]:
    """End ``state`` (input stops here) and check the end step and the final state."""
    end_of_input(state, kernels)
    after = state.snapshot()
    record = StepRecord(before, after, None, frozenset())
    return _step_violations(where, record) + _state_violations(where, after, final=True)


def check_invariants(
    events: Iterable[Mapping[str, Any]],
    kernels: KernelSet = KERNELS,
    *,
    every_prefix: bool = False,
) -> list[str]:
    """Reduce decoded ``events`` with ``kernels``; return every invariant violation found."""
    events = list(events)
    violations: list[str] = []
    ended: list[ResponseState] = []
    state = ResponseState()
    noted = False  # an event the Reducer only notes (no ``type``) still makes a result
    for index, payload in enumerate(events):
        type_ = payload.get("type") if isinstance(payload, Mapping) else None
        if not isinstance(type_, str):
            noted = True
            continue
        if type_ == "response.created" and (state.started or state.entries or state.terminal):
            where = f"at the end of response {len(ended)}"
            violations += _end(state, kernels, state.snapshot(), where)
            ended.append(state)
            state, noted = ResponseState(), False
        event = parse_event(index, payload)
        before = state.snapshot()
        trace = step(state, event, kernels)
        after = state.snapshot()
        event_class = event.spec.event_class if event.spec is not None else _UNKNOWN
        where = f"after event {index} ({type_})"
        record = StepRecord(before, after, event_class, frozenset(trace.codes))
        violations += _step_violations(where, record)
        violations += _state_violations(where, after, final=False)
        if every_prefix and not state.terminal:
            violations += _end(copy.deepcopy(state), kernels, after, f"if input stopped {where}")
    if state.started or state.events or state.diagnostics or noted:
        violations += _end(state, kernels, state.snapshot(), "at the end of input")
        ended.append(state)
    return violations + _compare_with_reducer(events, ended, kernels)


def _compare_with_reducer(
    events: list[Mapping[str, Any]], ended: list[ResponseState], kernels: KernelSet
) -> list[str]:
    """The checker's results must be the Reducer's (diagnostics aside: the Reducer adds
    front-end ones), or it did not check what the Reducer computes."""
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    ours = [build_result(state).to_json() for state in ended]
    theirs = [result.to_json() for result in reducer.finish()]
    if [(r["response"], r["items"]) for r in ours] != [
        (r["response"], r["items"]) for r in theirs
    ]:
        return [f"checker and Reducer disagree: {len(ours)} vs {len(theirs)} results"]
    return []
