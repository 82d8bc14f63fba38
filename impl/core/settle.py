"""The end of a response (R9, R11): reconcile the snapshot or abort, then settle.

A response ends on its first terminal event or at the end of input.  The terminal's
snapshot (``response.output``) is reconciled item by item through matching
(``admit.on_item``, R6), whatever the terminal; every entry it did not reach gets
``RESPONSE_COMPLETED`` when the response completed and ``RESPONSE_ABORTED`` otherwise.
Then every entry without an id gets a minted one (R11) and executability is decided.

Who runs a call is decided by ``model/execution.py`` from the evidence of the response:
the declared ``response.tools`` (plus the tools a ``tool_search_output`` loaded), the
``*_output`` items that already answer a ``call_id``, the entry's confirmation.  This
module only gathers those facts; the verdict is the ``execute`` kernel's cell (the
execution table) for where ``decide``'s gates stop, a declared shell's or tool search's
runner the ``shell_runner`` / ``search_runner`` kernel's (a shell's wire
``environment.type`` read by the ``reads_environment`` kernel, a tool search's wire
``execution`` by the ``reads_execution`` kernel), where the declared tools'
answer leaves the walk the ``declares`` kernel's; a declared tool of a type the
catalogue does not know is reported (``unknown_tool_type``), and so is every entry
whose verdict the ``withholds`` kernel says withholds a call of a completed response
(``call_withheld``, naming the verdict: ``model.execution.WITHHELD``).

WARNING — decided here, not yet in a table: the JSON check of ``function_call``
arguments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from responses_oracle.model.catalogue import ChannelKind
from responses_oracle.model.execution import (
    EXECUTABLE,
    LOADED_TOOLS,
    CallFacts,
    answered_ordinals,
    decide_by,
    declared_tools,
    unknown_tool_types,
)
from responses_oracle.model.responses import UNENDED, held_attaches
from responses_oracle.model.vocabulary import Code, IdSource, ResponseStatus, Trigger

from .admit import on_item, refused
from .context import StepContext
from .effects import deliver
from .events import Event
from .reconcile import clip
from .state import Entry


def end(step: StepContext, status: ResponseStatus, event: Event | None) -> None:
    """The response ends (R9): reconcile the terminal snapshot, abort what is left open.

    Every terminal's ``response.output`` is reconciled, not only ``completed``'s: items
    found only there are kept (openai-python keeps them too), and ``execution`` keeps
    them from being run unless the response completed.
    """
    state = step.state
    state.status, state.terminal = status, True
    completed = status is ResponseStatus.COMPLETED
    if not completed and event is not None:
        _note_failure(step, _error_of(event))
    _reconcile_snapshot(step, event.response if event is not None else None, completed)
    if state.held_over:
        _attach_held(step)
    _settle(step)


def _attach_held(step: StepContext) -> None:
    """A resumed stream's held events (R14): each whose item the stream admitted after
    all (its slot bound, its id named) is attached to it, without a word; the rest are
    the ``orphan_event`` they would have been.  ``response_resumed`` counts the first."""
    state = step.state
    attached = 0
    for output_index, item_id, diagnostic in state.held_over:
        if held_attaches(output_index in state.slots, bool(step.named_by(item_id))):
            attached += 1
        else:
            state.diagnostics.append(diagnostic)
    state.held_over.clear()
    diagnostics = state.diagnostics
    for position, found in enumerate(diagnostics):
        if found.code is Code.RESPONSE_RESUMED and attached:
            # Imported here: a resumed stream is rare, and a small reduce's start-up does
            # not import ``dataclasses`` (issue 35; ``Diagnostic`` is a record).
            from dataclasses import replace

            detail = f"{found.detail}; {attached} events of items opened before it attached"
            diagnostics[position] = replace(found, detail=detail)
            return


def _note_failure(step: StepContext, error: Any) -> None:
    status = step.state.status.value
    step.note(Code.RESPONSE_ERROR, f"response {status}: {clip(json.dumps(error))}")


def describe_failure(step: StepContext, event: Event) -> None:
    """The terminal right after an ``error``: the same failure, described by it.

    (``model/responses.AMENDABLE_TERMINALS``.)  When the terminal's response carries an
    error of its own, its ``response_error`` replaces the one the ``error`` event
    raised, so the failure is reported once, in the failed response's words; else the
    ``error``'s stands.
    """
    error = _error_of(event)
    if error is None:
        return
    diagnostics = step.state.diagnostics
    for position in reversed(range(len(diagnostics))):
        if diagnostics[position].code is Code.RESPONSE_ERROR:
            del diagnostics[position]
    _note_failure(step, error)


def _error_of(event: Event) -> Any:
    """What an ending event says went wrong: its error, message or incomplete details."""
    return (
        event.payload.get("error")
        or event.payload.get("message")
        or (event.response or {}).get("error")
        or (event.response or {}).get("incomplete_details")
    )


def _reconcile_snapshot(
    step: StepContext, response: Mapping[str, Any] | None, completed: bool
) -> None:
    """Match or admit every snapshot item (R6); then end every entry it did not reach:
    ``RESPONSE_COMPLETED`` when the response completed, ``RESPONSE_ABORTED`` if not."""
    state = step.state
    output = response.get("output") if response is not None else None
    items = output if isinstance(output, list) else []
    if output is not None and not isinstance(output, list):
        step.note(Code.INVALID_FIELD, "response.output must be an array; ignored", True)
    if completed and not items:
        step.note(Code.SNAPSHOT_ABSENT, "response.completed carries no output; streamed items kept")
    state.snapshot_items = len(items)
    touched: set[int] = set()
    for position, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
            step.note(Code.INVALID_FIELD, f"response.output[{position}] has no string type", True)
            raw = item if isinstance(item, Mapping) else {}
            refused(step, raw, None, limited=False, snapshot=True)
            continue
        entry = on_item(step, item, position, Trigger.SNAPSHOT_ITEM)
        if entry is not None:
            touched.add(entry.ordinal)
    rest = Trigger.RESPONSE_COMPLETED if completed else Trigger.RESPONSE_ABORTED
    for entry in list(step.state.entries):
        if entry.ordinal not in touched:
            deliver(step, entry, rest, snapshot_nonempty=completed and bool(items))


def _loaded_tools(entries: list[Entry]) -> list[Mapping[str, Any]]:
    """The tools every ``tool_search_output`` of the response loaded."""
    loaded: list[Mapping[str, Any]] = []
    for entry in entries:
        tools = entry.item.get("tools") if entry.item_type == LOADED_TOOLS else None
        if isinstance(tools, list):
            loaded += [tool for tool in tools if isinstance(tool, Mapping)]
    return loaded


def _settle(step: StepContext) -> None:
    """Mint missing ids (R11), decide executability (R9), check arguments (R7)."""
    state = step.state
    completed = state.status is ResponseStatus.COMPLETED
    tools = declared_tools(state.tools, _loaded_tools(state.entries))
    if tools is not None:
        for unknown in unknown_tool_types(tools):
            step.note(
                Code.UNKNOWN_TOOL_TYPE,
                f"declared tool type {unknown!r} is not in the catalogue: a call no known "
                "tool declares is not run (execution unknown_tool_type)",
            )
    answered = answered_ordinals(state.entries)
    for entry in state.entries:
        if entry.item_id is None:
            # Imported here, where an id is minted: ``uuid`` (with ``platform``) is a
            # tenth of a ``reduce``'s start-up, and most streams mint none.
            from .ids import mint_item_id

            entry.item_id = mint_item_id(
                state.response_id, entry.slot, entry.ordinal, entry.item_type
            )
            entry.id_source = IdSource.MINTED
            step.note(
                Code.ID_MINTED, f"entry {entry.ordinal} never had an id; minted {entry.item_id}"
            )
        # The identity fields as first admitted (R6), over the item's merged fields.
        item = {**entry.item, "type": entry.item_type, "name": entry.name}
        if entry.namespace is not None:
            item["namespace"] = entry.namespace
        facts = CallFacts(
            item,
            completed,
            entry.confirmed,
            entry.call_id,
            entry.ordinal in answered,
            tools,
        )
        kernels = step.kernels
        entry.execution = decide_by(facts, kernels)
        entry.executable = entry.execution in EXECUTABLE
        if kernels.withholds(entry.execution):
            _note_withheld(step, entry)
        if entry.item_type == "function_call":
            arguments = entry.channels.get((ChannelKind.ARGUMENTS, 0))
            text = None if arguments is None else (arguments.value or "".join(arguments.deltas))
            if text:
                try:
                    json.loads(text)
                except ValueError:
                    step.note(
                        Code.INVALID_JSON_ARGUMENTS,
                        f"entry {entry.ordinal} arguments are not JSON: {clip(text)}",
                    )


def _note_withheld(step: StepContext, entry: Entry) -> None:
    """A call of a completed response that is not run, said with its verdict (R13): the
    name it was called by (its namespace too) is what a reader compares with the
    declared tools."""
    called = [entry.item_type]
    if entry.name is not None:
        name = entry.name if entry.namespace is None else f"{entry.namespace}.{entry.name}"
        called.append(repr(name))
    if entry.call_id is not None:
        called.append(f"call_id {entry.call_id!r}")
    step.note(
        Code.CALL_WITHHELD,
        f"entry {entry.ordinal} ({' '.join(called)}) is not executable: "
        f"{entry.execution.value}",
    )


def end_of_input(step: StepContext) -> None:
    """Input ended: a response with no terminal event is interrupted (R9)."""
    if step.state.terminal:
        return
    step.note(Code.MISSING_TERMINAL, "input ended before a terminal event")
    end(step, UNENDED, None)
