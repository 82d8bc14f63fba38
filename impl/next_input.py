"""Replay (R12): the output items of a turn become the ``input`` items of the next request.

A client that continues a conversation sends back what the model produced, and the
tool outputs it appended, as the next request's ``input``.  This module computes that
list the way openai/codex's prompt normalization does (``normalize.rs`` @ 0803cc58:
``ensure_call_outputs_present`` then ``remove_orphan_outputs``), so a result of this
oracle can be compared with, or substituted for, what codex would send.

Theory of operation, one pass over deep copies of the items, order kept:

1. Every item loses the stray item-level fields ``model.catalogue.STRAY_ITEM_FIELDS``
   (``item_id``, ``output_index``): gateways such as Bedrock Mantle put them inside
   items, but they are event fields, never item fields (protocol-notes section 3).
2. An output whose ``call_id`` names no call in the list is an orphan and is dropped
   (codex ``remove_orphan_outputs``).  The call types an output answers come from the
   catalogue: an output type answers every call type whose ``call.replay_output`` names it,
   so ``function_call_output`` answers ``function_call`` and ``local_shell_call``.
   Server-executed items (``execution: "server"``, tool search) are never orphans, and
   an output without a ``call_id`` names no call, so it is kept as codex keeps a
   ``tool_search_output`` without one.
3. A client call (catalogue ``call.replay_output`` set, not server-executed, with a
   ``call_id``) that no output answers gets a synthetic output **right after it**:
   ``"aborted"`` for function, local shell and custom tool calls, an empty completed
   client ``tool_search_output`` for tool search.  Its id is
   ``core.ids.synthetic_output_id`` of the call's item id, or absent when the call has
   none (codex's legacy shape, old normalize @ e2478f96 sent no ids at all).

Existing outputs are never moved, and nothing else is reordered: codex PR #30327
("stabilize synthesized call output IDs") made the synthetic ids a UUIDv5 of the call's
item id precisely so that two projections of the same history are byte-identical and the
prompt cache keeps hitting; a list that changed order between requests would defeat it.

Deliberate differences from codex at 0803cc58: a call without a ``call_id`` gets no
output (codex cannot represent a function or custom call without one, and skips local
shell and tool search calls without one); a server-executed ``tool_search_call`` gets no
output (codex relies on its ``call_id`` being null on the wire); a
``local_shell_call_output`` also answers a local shell call, paired through its own
``id`` (protocol-notes section 3.1), although codex answers shell calls only with
``function_call_output``.  The later codex variant ``repair_call_output_pairs`` (dedup
and reorder) is not applied: a reduced result never holds two calls with one ``call_id``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from .core.ids import synthetic_output_id
from .model.catalogue import ITEM_TYPES, STRAY_ITEM_FIELDS

_REPLAY_OUTPUTS: dict[str, tuple[str, str]] = {
    call_type: spec.call.replay_output
    for call_type, spec in ITEM_TYPES.items()
    if spec.call is not None and spec.call.replay_output is not None
}
"""Call type → (synthetic output type, its id prefix): the catalogue's ``replay_output``."""

_CALLS_ANSWERED_BY: dict[str, frozenset[str]] = {
    output_type: frozenset(
        call_type for call_type, (answer, _) in _REPLAY_OUTPUTS.items() if answer == output_type
    )
    for output_type, _ in _REPLAY_OUTPUTS.values()
}
"""Output type → the call types it answers, derived from the catalogue's ``replay_output``."""

_ID_KEYED_OUTPUTS: dict[str, str] = {
    spec.call.output: call_type
    for call_type, spec in ITEM_TYPES.items()
    if spec.call is not None and spec.call.output_key == "id"
}
"""Output types with no ``call_id`` whose own ``id`` is the ``call_id`` of the call they
answer (the catalogue's ``ClientCall.output_key``, protocol-notes section 3.1) → that
call type.  They are never dropped as orphans, as codex does not know them."""

_ABORTED_BODY: dict[str, Any] = {"output": "aborted"}
"""The body of a synthetic output: codex's ``"aborted"`` text."""

_SYNTHETIC_BODY_BY_TYPE: dict[str, dict[str, Any]] = {
    "tool_search_output": {"execution": "client", "status": "completed", "tools": []},
}
"""Synthetic output types whose body is not ``_ABORTED_BODY``: codex answers a client tool
search with an empty completed search (``status`` is ``"completed"`` @ 0803cc58; a later
codex copy says ``"incomplete"``)."""

_CallKey = tuple[str, str]
"""(call type, call_id): what pairs a call with its outputs."""


def replay_input(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ``input`` items of the next request, given a turn's items in output order.

    ``items`` are wire-shaped items (the ``item`` objects of the result contract), possibly
    preceded or followed by history items such as the ``function_call_output`` items the
    client appended.  The argument is not modified; the returned items are fresh copies.
    """
    copies = [_without_stray_fields(item) for item in items]
    calls = {key for item in copies if (key := _call_key(item)) is not None}
    answered = {key for item in copies for key in _answered_keys(item)}
    replayed: list[dict[str, Any]] = []
    for item in copies:
        if _is_orphan(item, calls):
            continue
        replayed.append(item)
        key = _call_key(item)
        if key is not None and key not in answered and not _server_executed(item):
            replayed.append(_synthetic_output(item, *key))
    return replayed


def _without_stray_fields(item: Mapping[str, Any]) -> dict[str, Any]:
    return {
        field: copy.deepcopy(value)
        for field, value in item.items()
        if field not in STRAY_ITEM_FIELDS
    }


def _text(item: Mapping[str, Any], field: str) -> str | None:
    # Empty counts as missing, as everywhere in DESIGN; a non-string value pairs with nothing.
    value = item.get(field)
    return value if isinstance(value, str) and value else None


def _server_executed(item: Mapping[str, Any]) -> bool:
    return item.get("execution") == "server"


def _call_key(item: Mapping[str, Any]) -> _CallKey | None:
    call_type = _text(item, "type")
    call_id = _text(item, "call_id")
    if call_type is None or call_id is None:
        return None
    return (call_type, call_id) if call_type in _REPLAY_OUTPUTS else None


def _answered_keys(item: Mapping[str, Any]) -> list[_CallKey]:
    output_type = _text(item, "type") or ""
    call_id = _text(item, "call_id")
    if output_type in _CALLS_ANSWERED_BY and call_id is not None:
        return [(call_type, call_id) for call_type in _CALLS_ANSWERED_BY[output_type]]
    own_id = _text(item, "id")
    if output_type in _ID_KEYED_OUTPUTS and own_id is not None:
        return [(_ID_KEYED_OUTPUTS[output_type], own_id)]
    return []


def _is_orphan(item: Mapping[str, Any], calls: set[_CallKey]) -> bool:
    output_type = _text(item, "type") or ""
    call_id = _text(item, "call_id")
    if output_type not in _CALLS_ANSWERED_BY or call_id is None or _server_executed(item):
        return False
    return all((call_type, call_id) not in calls for call_type in _CALLS_ANSWERED_BY[output_type])


def _synthetic_output(call: Mapping[str, Any], call_type: str, call_id: str) -> dict[str, Any]:
    output_type, prefix = _REPLAY_OUTPUTS[call_type]
    output: dict[str, Any] = {"type": output_type}
    output_id = synthetic_output_id(prefix, _text(call, "id"))
    if output_id is not None:
        output["id"] = output_id
    output["call_id"] = call_id
    output.update(copy.deepcopy(_SYNTHETIC_BODY_BY_TYPE.get(output_type, _ABORTED_BODY)))
    return output
