"""Builders for the short wire streams the documentation reduces.

The worked examples (``rule_texts.py``) and the peer scenarios (``peers.py``) are written as
lists of wire events.  Spelled out as literal dicts each event would take three lines
and bury what the example is about; these builders write the same dicts with the
boilerplate (``type`` strings, ``in_progress``/``completed`` statuses, the empty
``output`` of ``response.created``) filled in, so the data reads like the stream
notation of ``reference/peer-implementations.md``.  Every builder returns a fresh plain
dict, exactly the JSON object that would be on the wire; nothing else is added.
``sequence_number`` is left out unless asked for: it is optional for the reducer and
only clutters the examples (rule R1's example shows it).
"""

from __future__ import annotations

import json
from typing import Any

Event = dict[str, Any]
"""One wire event: a decoded JSON object."""


def created(response_id: str) -> Event:
    """``response.created`` for ``response_id``."""
    return {
        "type": "response.created",
        "response": {"id": response_id, "status": "in_progress", "output": []},
    }


def completed(response_id: str, output: list[Event] | None = None) -> Event:
    """``response.completed``; ``output`` None leaves the field out (as some providers do)."""
    response: Event = {"id": response_id, "status": "completed"}
    if output is not None:
        response["output"] = output
    return {"type": "response.completed", "response": response}


def ended(kind: str, response_id: str) -> Event:
    """A non-completed terminal event: ``response.<kind>`` (incomplete, failed, cancelled)."""
    return {"type": f"response.{kind}", "response": {"id": response_id, "status": kind}}


def call(
    wire_id: str | None,
    call_id: str | None,
    name: str = "get_weather",
    arguments: str = "",
    status: str = "in_progress",
    **extra: Any,
) -> Event:
    """A ``function_call`` item; ``None`` leaves ``id`` or ``call_id`` out.

    ``extra`` adds fields as given, such as the inner ``item_id`` and ``output_index``
    Bedrock Mantle puts in its done items.
    """
    item: Event = {"type": "function_call"}
    if wire_id is not None:
        item["id"] = wire_id
    if call_id is not None:
        item["call_id"] = call_id
    item.update(name=name, arguments=arguments, status=status, **extra)
    return item


def message(item_id: str, text: str = "", status: str = "in_progress") -> Event:
    """An assistant ``message`` item, with one ``output_text`` part when ``text`` is given."""
    content = [{"type": "output_text", "text": text, "annotations": []}] if text else []
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": status,
        "content": content,
    }


def reasoning(item_id: str) -> Event:
    """A ``reasoning`` item with an empty summary."""
    return {"type": "reasoning", "id": item_id, "summary": []}


def added(output_index: int | None, item: Event) -> Event:
    """``response.output_item.added``; ``None`` leaves ``output_index`` out."""
    return _scoped("response.output_item.added", output_index, item=item)


def done(output_index: int | None, item: Event) -> Event:
    """``response.output_item.done``; ``None`` leaves ``output_index`` out."""
    return _scoped("response.output_item.done", output_index, item=item)


def args_delta(output_index: int | None, item_id: str | None, delta: str) -> Event:
    """``response.function_call_arguments.delta``."""
    return _scoped(
        "response.function_call_arguments.delta", output_index, item_id=item_id, delta=delta
    )


def args_done(
    output_index: int | None, item_id: str | None, arguments: str, **extra: Any
) -> Event:
    """``response.function_call_arguments.done``."""
    return _scoped(
        "response.function_call_arguments.done",
        output_index,
        item_id=item_id,
        arguments=arguments,
        **extra,
    )


def text_part_added(output_index: int, item_id: str) -> Event:
    """``response.content_part.added`` announcing an empty ``output_text`` part 0."""
    return _scoped(
        "response.content_part.added",
        output_index,
        item_id=item_id,
        content_index=0,
        part={"type": "output_text", "text": "", "annotations": []},
    )


def text_delta(output_index: int, item_id: str, delta: str) -> Event:
    """``response.output_text.delta`` for content part 0."""
    return _scoped(
        "response.output_text.delta", output_index, item_id=item_id, content_index=0, delta=delta
    )


def sse_frame(event: Event, name: str | None = None, named: bool = True) -> str:
    """One SSE block for ``event``: an ``event:`` line (its ``type``, or ``name``), ``data:``.

    ``named=False`` writes a data-only block, as several third-party servers do.
    """
    data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    if not named:
        return f"data: {data}\n\n"
    return f"event: {name or event['type']}\ndata: {data}\n\n"


def _scoped(type_: str, output_index: int | None, **fields: Any) -> Event:
    event: Event = {"type": type_}
    if output_index is not None:
        event["output_index"] = output_index
    event.update((key, value) for key, value in fields.items() if value is not None)
    return event
