"""Terse stream construction for the rule and conformance tests.

An event builder returns one plain event dict without a ``sequence_number``; ``reduce1``
numbers the events it is given from 0 (so no test trips ``sequence_gap`` by accident),
feeds them to a fresh ``Reducer`` and returns the one result, after checking its response
status (``completed`` unless the test says otherwise).  Item builders (``fc``,
``ctc``, ``msg``, ``rs``) leave out every field passed as None, so "the item has no id"
is spelled ``fc(None, "call_1", "f")``.  ``codes`` gives a result's diagnostic codes as a
sorted list, so that a test asserts the exact multiset of what was raised; ``rows`` and
``row`` compare whole items of the result contract.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from responses_oracle import Reducer, Result, ResultItem

Event = dict[str, Any]
Item = dict[str, Any]

RESP = "resp_1"
"""The response id every builder uses unless told otherwise."""

DONE_FIELDS: dict[str, str] = {
    "function_call_arguments": "arguments",
    "custom_tool_call_input": "input",
    "mcp_call_arguments": "arguments",
    "output_text": "text",
    "refusal": "refusal",
    "reasoning_summary_text": "text",
    "reasoning_text": "text",
    "code_interpreter_call_code": "code",
    "apply_patch_call_operation_diff": "diff",
    "shell_call_command": "command",
}
"""Payload event family → the field of its ``*.done`` event that carries the value."""


def _drop_none(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


# -- items ----------------------------------------------------------------------------


def fc(
    id: str | None, call_id: str | None, name: str | None = "f", args: str | None = "", **extra: Any
) -> Item:
    """A ``function_call`` item (name ``f`` unless given); fields given as None are left out."""
    return _drop_none(
        {"type": "function_call", "id": id, "call_id": call_id, "name": name, "arguments": args}
        | extra
    )


def ctc(
    id: str | None,
    call_id: str | None,
    name: str | None = "t",
    input: str | None = "",
    **extra: Any,
) -> Item:
    """A ``custom_tool_call`` item (name ``t`` unless given); fields given as None are left out."""
    return _drop_none(
        {"type": "custom_tool_call", "id": id, "call_id": call_id, "name": name, "input": input}
        | extra
    )


def text_part(text: str) -> Item:
    """An ``output_text`` content part."""
    return {"type": "output_text", "text": text, "annotations": []}


def refusal_part(text: str) -> Item:
    """A ``refusal`` content part."""
    return {"type": "refusal", "refusal": text}


def msg(id: str | None, *parts: Item, **extra: Any) -> Item:
    """An assistant ``message`` item with the given content parts."""
    return _drop_none(
        {"type": "message", "id": id, "role": "assistant", "content": list(parts)} | extra
    )


def rs(id: str | None, *summary: str, **extra: Any) -> Item:
    """A ``reasoning`` item with the given summary texts."""
    parts = [{"type": "summary_text", "text": text} for text in summary]
    return _drop_none({"type": "reasoning", "id": id, "summary": parts} | extra)


# -- events ---------------------------------------------------------------------------


def created(resp_id: str = RESP) -> Event:
    """``response.created`` with an empty output."""
    return {"type": "response.created", "response": {"id": resp_id, "output": []}}


def added(index: int | None, item: Item) -> Event:
    """``response.output_item.added``; an ``index`` of None leaves ``output_index`` out."""
    return _drop_none({"type": "response.output_item.added", "output_index": index, "item": item})


def done(index: int | None, item: Item) -> Event:
    """``response.output_item.done``; an ``index`` of None leaves ``output_index`` out."""
    return _drop_none({"type": "response.output_item.done", "output_index": index, "item": item})


def delta(
    index: int | None,
    item_id: str | None,
    text: str,
    kind: str = "function_call_arguments",
    **fields: Any,
) -> Event:
    """``response.<kind>.delta``; None for ``index`` or ``item_id`` leaves the key out."""
    return _drop_none(
        {"type": f"response.{kind}.delta", "output_index": index, "item_id": item_id}
        | fields
        | {"delta": text}
    )


def payload_done(
    kind: str, index: int | None, item_id: str | None, value: str | None, **fields: Any
) -> Event:
    """``response.<kind>.done`` carrying ``value`` in that event's own value field."""
    return _drop_none(
        {"type": f"response.{kind}.done", "output_index": index, "item_id": item_id}
        | fields
        | {DONE_FIELDS[kind]: value}
    )


def args_done(
    index: int | None, item_id: str | None, arguments: str | None, **fields: Any
) -> Event:
    """``response.function_call_arguments.done``."""
    return payload_done("function_call_arguments", index, item_id, arguments, **fields)


def input_done(index: int | None, item_id: str | None, input: str | None) -> Event:
    """``response.custom_tool_call_input.done``."""
    return payload_done("custom_tool_call_input", index, item_id, input)


def part_event(
    kind: str, index: int | None, item_id: str | None, part: Item, **fields: Any
) -> Event:
    """``response.<kind>`` for part events (``content_part.added``, ...) carrying ``part``."""
    return _drop_none(
        {"type": f"response.{kind}", "output_index": index, "item_id": item_id}
        | fields
        | {"part": part}
    )


def event(type_: str, **fields: Any) -> Event:
    """Any other event: its ``type`` and the given fields."""
    return {"type": type_, **fields}


def completed(output: Iterable[Item] | None = (), resp_id: str = RESP) -> Event:
    """``response.completed``; ``output=None`` leaves the ``output`` key out entirely."""
    response: dict[str, Any] = {"id": resp_id, "status": "completed"}
    if output is not None:
        response["output"] = list(output)
    return {"type": "response.completed", "response": response}


def ended(status: str, output: Iterable[Item] = (), resp_id: str = RESP) -> Event:
    """``response.<status>`` for ``incomplete``, ``failed`` or ``cancelled``."""
    response = {"id": resp_id, "status": status, "output": list(output)}
    return {"type": f"response.{status}", "response": response}


# -- running --------------------------------------------------------------------------


def numbered(events: Iterable[Any]) -> list[Any]:
    """The events numbered 0, 1, ... in ``sequence_number``; typeless events pass unchanged."""
    out: list[Any] = []
    number = 0
    for event in events:
        # Only events the reducer steps take a number: one it refuses before stepping
        # (not an object, no type) would otherwise leave a sequence_gap behind it.
        if isinstance(event, dict) and isinstance(event.get("type"), str):
            event = {**event, "sequence_number": number}
            number += 1
        out.append(event)
    return out


def reduce_all(*events: Any) -> list[Result]:
    """Number the events, feed them to a fresh ``Reducer``, and return every result."""
    reducer = Reducer()
    reducer.feed_all(numbered(events))
    return reducer.finish()


def reduce1(*events: Any, status: str = "completed") -> Result:
    """Like ``reduce_all`` for a stream that holds exactly one response, whose status
    must be ``status``: every test thereby asserts the response status too."""
    results = reduce_all(*events)
    assert len(results) == 1, f"expected one response, got {len(results)}"
    assert results[0].status.value == status
    return results[0]


def codes(result: Result) -> list[str]:
    """The result's diagnostic codes, sorted: compare with a sorted list of expected codes."""
    return sorted(d.code.value for d in result.diagnostics)


def rows(result: Result) -> list[dict[str, Any]]:
    """The result's items as in the result contract, in output order, without the
    ``execution`` verdict: it follows ``executable`` (the schema says how) and has
    tests of its own (``tests/model/test_execution.py``)."""
    return [
        {key: value for key, value in entry.to_json().items() if key != "execution"}
        for entry in result.items
    ]


def row(
    output_index: int | None,
    item: Item,
    id_source: str,
    payload_source: str,
    state: str,
    executable: bool,
) -> dict[str, Any]:
    """One expected item of the result contract; compare a list of these with ``rows``."""
    return {
        "output_index": output_index,
        "item": item,
        "id_source": id_source,
        "payload_source": payload_source,
        "state": state,
        "executable": executable,
    }


def only(result: Result) -> ResultItem:
    """The result's single item."""
    assert len(result.items) == 1, [entry.item for entry in result.items]
    return result.items[0]
