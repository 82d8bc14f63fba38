"""The end of a response (R9, R11): reconcile the snapshot or abort, then settle.

A response ends on its first terminal event or at the end of input.  A completed
response's snapshot (``response.output``) is reconciled item by item through matching
(``admit.on_item``, R6) and every entry it did not reach gets ``RESPONSE_COMPLETED``;
any other end delivers ``RESPONSE_ABORTED`` to every entry.  Then every entry without an
id gets a minted one (R11) and executability is decided.

WARNING — decided here, not yet in a table: the ``executable`` formula (a completed
response, a client-run type, confirmed, with a ``call_id``) and the JSON check of
``function_call`` arguments.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from responses_oracle.model.catalogue import ChannelKind
from responses_oracle.model.vocabulary import Code, IdSource, ResponseStatus, Trigger

from .admit import on_item
from .context import StepContext
from .effects import deliver
from .events import Event
from .ids import mint_item_id
from .payload import clip


def end(step: StepContext, status: ResponseStatus, event: Event | None) -> None:
    """The response ends (R9): reconcile the snapshot or abort every open entry."""
    state = step.state
    state.status, state.terminal = status, True
    if status is ResponseStatus.COMPLETED:
        _reconcile_snapshot(step, event.response if event is not None else None)
    else:
        if event is not None:
            error = (
                event.payload.get("error")
                or event.payload.get("message")
                or (event.response or {}).get("error")
                or (event.response or {}).get("incomplete_details")
            )
            step.note(Code.RESPONSE_ERROR, f"response {status.value}: {clip(json.dumps(error))}")
        for entry in list(state.entries):
            deliver(step, entry, Trigger.RESPONSE_ABORTED)
    _settle(step)


def _reconcile_snapshot(step: StepContext, response: Mapping[str, Any] | None) -> None:
    state = step.state
    output = response.get("output") if response is not None else None
    items = output if isinstance(output, list) else []
    if output is not None and not isinstance(output, list):
        step.note(Code.INVALID_FIELD, "response.output must be an array; ignored", True)
    if not items:
        step.note(Code.SNAPSHOT_ABSENT, "response.completed carries no output; streamed items kept")
    state.snapshot_items = len(items)
    touched: set[int] = set()
    for position, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("type"), str):
            step.note(Code.INVALID_FIELD, f"response.output[{position}] has no string type", True)
            state.snapshot_rejected += 1
            continue
        entry = on_item(step, item, position, Trigger.SNAPSHOT_ITEM)
        if entry is None:
            state.snapshot_rejected += 1
        else:
            state.snapshot_placed += 1
            touched.add(entry.ordinal)
    for entry in list(step.state.entries):
        if entry.ordinal not in touched:
            deliver(step, entry, Trigger.RESPONSE_COMPLETED, snapshot_nonempty=bool(items))


def _settle(step: StepContext) -> None:
    """Mint missing ids (R11), decide executability (R9), check arguments (R7)."""
    state = step.state
    completed = state.status is ResponseStatus.COMPLETED
    for entry in state.entries:
        if entry.item_id is None:
            entry.item_id = mint_item_id(
                state.response_id, entry.slot, entry.ordinal, entry.item_type
            )
            entry.id_source = IdSource.MINTED
            step.note(
                Code.ID_MINTED, f"entry {entry.ordinal} never had an id; minted {entry.item_id}"
            )
        entry.executable = (
            completed and entry.spec.client_call and entry.confirmed and entry.call_id is not None
        )
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


def end_of_input(step: StepContext) -> None:
    """Input ended: a response with no terminal event is interrupted (R9)."""
    if step.state.terminal:
        return
    step.note(Code.MISSING_TERMINAL, "input ended before a terminal event")
    end(step, ResponseStatus.INTERRUPTED, None)
