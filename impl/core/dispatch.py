"""Dispatch (R1): one event in, handed to the rule that decides it.

``advance(state, event, kernels)`` is the whole reducer.  It never does I/O, never
reads a clock, never draws a random number, and never raises on any input: whatever is
wrong with an event becomes a ``Diagnostic`` and the next event is reduced as usual.
``step`` is ``advance`` that also says what the event did (a ``StepTrace``, for
``explain``); the summaries a trace carries are formatted only then.  ``advancer`` and
``tracer`` are the two bound to one response's state, as the ``Reducer`` runs them:
one context per response, and routed events read the route cache (``route``).

A response whose first event is numbered above the first is a resume
(``model/responses.resumes``, R14): said once, and its payload events that reach no
entry are held for their items (``route``, ``settle``).

After the terminal event nothing changes (R9 ``after_terminal``), except that the
terminal right after an ``error`` is the same failure and describes it
(``model/responses.AMENDABLE_TERMINALS``, the ``amends`` kernel); sequence numbers are
checked (a gap or a regression is reported, never acted on); then the event's class
picks the rule: payload and progress events are routed (``route``, R5), added, done
and snapshot items admitted or matched (``admit``, R6), terminals end the response
(``settle``, R9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from responses_oracle.model.catalogue import TERMINALS, EventClass
from responses_oracle.model.recordkit import record
from responses_oracle.model.responses import next_sequence, resumes
from responses_oracle.model.tables import KernelSet
from responses_oracle.model.vocabulary import Code, EntryState, Trigger

from .admit import on_added, on_item
from .context import DEFAULT_LIMITS, ReducerLimits, StepContext, nonempty, said
from .events import Event
from .route import ITEM_SCOPED, on_scoped
from .settle import describe_failure, end
from .settle import end_of_input as _end_of_input
from .state import ResponseState

_STARTED, _PROGRESS = EventClass.RESPONSE_STARTED, EventClass.RESPONSE_PROGRESS


@record(frozen=True, slots=True)
class StepTrace:
    """What one event did, for ``explain``: the route and the entry's transition."""

    index: int
    type: str
    decision: str
    entry: int | None
    before: EntryState | None
    after: EntryState | None
    codes: tuple[Code, ...]


def advance(
    state: ResponseState, event: Event, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> None:
    """Reduce one event into ``state`` (updated in place)."""
    _reduce(StepContext(state, kernels, limits, event), event)


def advancer(
    state: ResponseState, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> Callable[[Event], None]:
    """``advance`` bound to one ``state``: ``advancer(state, k, l)(event)`` is
    ``advance(state, event, k, l)``.

    The context of an event is made once and reset per event, which saves building
    it (~0.5 µs) on every event of a stream.  It does not trace, so of the fields
    ``StepContext.__init__`` sets only the event's own are reset, here rather than in
    a method: a frame fewer per event.
    """
    context = StepContext(state, kernels, limits, None)

    def advance_bound(event: Event) -> None:
        context.event, context.learn, context.route_code = event, None, None
        _reduce(context, event)

    return advance_bound


def tracer(
    state: ResponseState, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> Callable[[Event], StepTrace]:
    """``step`` bound to one ``state``, as ``advancer`` is ``advance``:
    ``tracer(state, k, l)(event)`` gives ``step(state, event, k, l)``'s trace, with
    one context per response, and a routed event reads its cell (and its summary) from
    the route cache instead of deciding it anew.  What ``Reducer(trace=True)`` runs
    (the canonicalizer's trace: the entry each event reached, the codes it raised);
    ``tests/core/test_fast_path.py`` holds its traces to ``step``'s.
    """
    context = StepContext(state, kernels, limits, None, tracing=True)

    def trace_bound(event: Event) -> StepTrace:
        context.event, context.learn, context.route_code = event, None, None
        context.raised, context.decision, context.entry, context.before = [], "", None, None
        _reduce(context, event)
        return _trace(context, event)

    return trace_bound


def step(
    state: ResponseState, event: Event, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> StepTrace:
    """Reduce one event into ``state`` (updated in place) and say what it did.  Every
    route is decided anew (``StepContext.cached``): the reference for the cache."""
    context = StepContext(state, kernels, limits, event, tracing=True, cached=False)
    _reduce(context, event)
    return _trace(context, event)


def _trace(context: StepContext, event: Event) -> StepTrace:
    """What the event just reduced in ``context`` did."""
    entry, raised = context.entry, context.raised
    return StepTrace(
        event.index,
        event.type,
        context.decision,
        entry.ordinal if entry is not None else None,
        context.before,
        entry.state if entry is not None else None,
        tuple([d.code for d in raised]) if raised else (),  # nearly every event: none
    )


def end_of_input(
    state: ResponseState, kernels: KernelSet, limits: ReducerLimits = DEFAULT_LIMITS
) -> None:
    """Input ended: a response with no terminal event is interrupted (R9)."""
    _end_of_input(StepContext(state, kernels, limits, None))


def _reduce(context: StepContext, event: Event) -> None:
    state = context.state
    state.events += 1
    if state.events == 1 and resumes(event.type, event.sequence_number):
        first = state.resumed_at = event.sequence_number or 0
        resumed = f"the stream starts at sequence_number {first}: resumed after {first - 1}"
        context.note(Code.RESPONSE_RESUMED, resumed)
    spec = event.spec
    for code, problem in event.problems:
        context.note(code, f"{event.type}: {problem}", True)
    if state.terminal:
        amends, state.amendable = state.amendable and _is_terminal(spec), False
        if amends:
            _response_fields(context, event.response)
            describe_failure(context, event)
            context.decision = "terminal: the same failure"
            return
        context.note(Code.AFTER_TERMINAL, f"{event.type} after the terminal event; ignored")
        context.decision = "after terminal"
        return
    # Unknown events still consume a sequence number (Open Responses extensions do).
    sequence = event.sequence_number
    if sequence is not None:
        last = state.last_sequence
        if last is not None and sequence == last + 1:  # nearly every event: nothing to say
            state.last_sequence = sequence
        else:
            _check_sequence(context, sequence, last)
    if spec is None:
        context.note(Code.UNKNOWN_EVENT, f"unknown event type {event.type!r}; ignored")
        context.decision = "unknown"
        return
    # The classes are disjoint; the one of almost every event is tested first.
    event_class = spec.event_class
    if event_class is ITEM_SCOPED:
        on_scoped(context, event)
    elif event_class is _STARTED or event_class is _PROGRESS:
        state.started = True
        _response_fields(context, event.response)
        context.decision = "response"
    elif event_class is EventClass.ITEM_ADDED:
        on_added(context, event)
    elif event_class is EventClass.ITEM_DONE:
        if event.item is not None:
            on_item(context, event.item, event.output_index, Trigger.ITEM_DONE)
    elif event_class in TERMINALS:
        _response_fields(context, event.response)
        end(context, context.kernels.terminal_status(TERMINALS[event_class]), event)
        state.amendable = context.kernels.amends(TERMINALS[event_class])
        if context.tracing:
            context.decision = f"terminal: {state.status.value}"
    else:
        context.decision = "no-op"


def _is_terminal(spec: Any) -> bool:
    """Whether an event of ``spec`` is a terminal event."""
    return spec is not None and spec.event_class in TERMINALS


def _check_sequence(step: StepContext, sequence: int, last: int | None) -> None:
    """A sequence number that does not follow ``last``: the first, a gap or a regression
    (``model.responses.next_sequence``, R1)."""
    taken, code = next_sequence(last, sequence)
    if code is not None:
        step.note(code, f"sequence_number {sequence} after {last}")
    step.state.last_sequence = taken


def _response_fields(step: StepContext, response: Any) -> None:
    """What a lifecycle event's response object says: its id, and the declared tools."""
    if response is None:
        return
    state = step.state
    tools = response.get("tools")
    if tools is not None:
        state.tools = tools
    response_id = nonempty(response.get("id"))
    if response_id is None:
        return
    if state.response_id is None:
        state.response_id = response_id
    elif response_id != state.response_id:
        kept = said(state.response_id)
        step.note(Code.RESPONSE_ID_CHANGED, f"response id {said(response_id)}; kept {kept}")
