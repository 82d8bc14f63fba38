"""A Hypothesis strategy for plausible and faulty Responses event streams.

``streams()`` draws one response: ``response.created``, one to three output items
(``function_call``, ``custom_tool_call``, ``message``, ``reasoning``) whose events are
interleaved, then a terminal event or none.  Each item's own events come in wire order
— ``output_item.added``, a part opening for text items, payload deltas, the
``*.done`` payload event, ``output_item.done`` — and every piece can be faulty the way
real providers are (DESIGN section 2 and ``reference/protocol-notes.md``):

- ids: an item may have no ``id`` or share another item's id or ``call_id``; once done
  it may carry its id only as an ``item_id`` field (Bedrock's gateway) or a new id
  (Copilot), and its ``call_id`` and ``name`` may first show up then; payload events
  may carry the item's id, none, a rotating fresh id (Copilot), or another item's id;
- slots: ``output_index`` is drawn from a small range, so two items can share one, and
  a payload event may omit it; a text part may sit at ``content_index`` 1 (Mantle);
- payloads: terminal values (``*.done``, the done item, the snapshot item) may be the
  streamed value, another value, blank, or missing;
- the terminal: ``completed`` with a full, partial, empty or absent ``output``,
  ``incomplete`` / ``failed`` / ``cancelled`` / ``error``, or none at all;
- transport faults: events dropped, duplicated or swapped, events after the terminal;
  ``sequence_number`` absent, or numbered before the faults (gaps, regressions) or after.

The draws are small and simple so that Hypothesis shrinks a failure to a short stream.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Event = dict[str, Any]

_KINDS: dict[str, tuple[str, str, str]] = {
    "function_call": ("fc", "function_call_arguments", "arguments"),
    "custom_tool_call": ("ctc", "custom_tool_call_input", "input"),
    "message": ("msg", "output_text", "text"),
    "reasoning": ("rs", "reasoning_summary_text", "text"),
}
"""Item type → (id prefix, payload event stem, value field of the ``*.done`` event)."""

_PARTS: dict[str, tuple[str, str, str, str]] = {
    "message": ("response.content_part", "content_index", "content", "output_text"),
    "reasoning": ("response.reasoning_summary_part", "summary_index", "summary", "summary_text"),
}
"""Text item type → (part event stem, part index field, item array, part type)."""

_PAYLOADS = ('{"a":1}', "{}", '{"data":{}}\n', "hello", "x")
_TERMINALS = ("completed", "completed", "incomplete", "failed", "cancelled", "error", None)
_ITEMS = 3


def _payload_field(kind: str, value: str | None, part_index: int) -> dict[str, Any]:
    """The item fields that carry ``value`` (None: the field is left out)."""
    if value is None:
        return {}
    if kind in _PARTS:
        _, _, array, part_type = _PARTS[kind]
        parts: list[dict[str, Any]] = [{"type": part_type, "text": value}]
        return {array: [{"type": part_type, "text": ""}] * part_index + parts}
    return {_KINDS[kind][2]: value}


@st.composite
def _item_events(draw: st.DrawFn, k: int) -> tuple[list[Event], dict[str, Any] | None]:
    """The events of item ``k`` in wire order, and its item as the snapshot would show it."""
    kind = draw(st.sampled_from(sorted(_KINDS)))
    prefix, stem, done_field = _KINDS[kind]
    slot = draw(st.sampled_from([k, k, 0, k + 1]))
    item_id = draw(st.sampled_from([f"{prefix}_{k}", f"{prefix}_{k}", None, f"{prefix}_0"]))
    part_index = draw(st.sampled_from([0, 0, 1])) if kind in _PARTS else 0
    head: dict[str, Any] = {"type": kind}
    if item_id is not None:
        head["id"] = item_id
    if kind in ("function_call", "custom_tool_call"):
        call_id = draw(st.sampled_from([f"call_{k}", f"call_{k}", None, "call_0"]))
        if call_id is not None:
            head["call_id"] = call_id
        head["name"] = f"tool_{k}"
    value = draw(st.sampled_from(_PAYLOADS))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(value) - 1)), max_size=2)))
    deltas = [value[a:b] for a, b in zip([0, *cuts], [*cuts, len(value)], strict=True)]

    def terminal_value() -> str | None:
        return draw(st.sampled_from([value, value, "", None, "{}"]))

    def scoped(type_: str, **fields: Any) -> Event:
        event: Event = {"type": type_}
        if draw(st.integers(0, 5)) > 0:
            event["output_index"] = slot
        rotated = draw(st.sampled_from([item_id, item_id, None, f"rot_{k}", f"{prefix}_0"]))
        if rotated is not None:
            event["item_id"] = rotated
        if kind in _PARTS:
            event[_PARTS[kind][1]] = part_index
        return event | fields

    empty: dict[str, Any] = {_PARTS[kind][2]: []} if kind in _PARTS else {done_field: ""}
    added = head | empty
    if draw(st.integers(0, 3)) == 0:  # call_id and name known only from the done item
        added = {key: value for key, value in added.items() if key not in ("call_id", "name")}
    events: list[Event] = [
        {"type": "response.output_item.added", "output_index": slot, "item": added}
    ]
    if kind in _PARTS:
        part_type = _PARTS[kind][3]
        events.append(scoped(f"{_PARTS[kind][0]}.added", part={"type": part_type, "text": ""}))
    events += [scoped(f"response.{stem}.delta", delta=delta) for delta in deltas]
    done = terminal_value()
    events.append(scoped(f"response.{stem}.done", **({} if done is None else {done_field: done})))
    done_item = head | _payload_field(kind, terminal_value(), part_index)
    id_fault = draw(st.sampled_from(["none", "none", "renamed", "rotated"]))
    if "id" in done_item and id_fault == "renamed":
        done_item["item_id"] = done_item.pop("id")  # Bedrock Mantle
    elif "id" in done_item and id_fault == "rotated":
        done_item["id"] = f"{item_id}_b"  # GitHub Copilot: a new id on every event
    events.append({"type": "response.output_item.done", "output_index": slot, "item": done_item})
    in_snapshot = draw(st.integers(0, 4)) > 0
    snapshot = head | _payload_field(kind, terminal_value(), part_index) if in_snapshot else None
    return events, snapshot


def _terminal(draw: st.DrawFn, snapshot: list[dict[str, Any]]) -> Event | None:
    kind = draw(st.sampled_from(_TERMINALS))
    if kind is None:
        return None
    if kind == "error":
        return {"type": "error", "code": "server_error", "message": "boom"}
    response: dict[str, Any] = {"id": "resp_1", "status": kind}
    if kind == "completed":
        shape = draw(st.sampled_from(["full", "full", "empty", "absent"]))
        if shape != "absent":
            response["output"] = snapshot if shape == "full" else []
    return {"type": f"response.{kind}", "response": response}


@st.composite
def streams(draw: st.DrawFn) -> list[Event]:
    """One response's events, plausible or faulty (see the module docstring)."""
    drawn = [draw(_item_events(k)) for k in range(draw(st.integers(1, _ITEMS)))]
    queues = [list(events) for events, _ in drawn]
    order = draw(st.permutations([k for k, events in enumerate(queues) for _ in events]))
    body = [queues[k].pop(0) for k in order]
    numbering = draw(st.sampled_from(["none", "after faults", "before faults"]))
    if numbering == "before faults":  # the faults then show as gaps and regressions
        body = [event | {"sequence_number": n} for n, event in enumerate(body, 1)]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(body) - 1))
        fault = draw(st.sampled_from(["drop", "duplicate", "swap"]))
        if fault == "drop" and len(body) > 1:
            del body[at]
        elif fault == "duplicate":
            body.insert(at, dict(body[at]))
        elif fault == "swap" and at + 1 < len(body):
            body[at], body[at + 1] = body[at + 1], body[at]
    created: Event = {"type": "response.created", "response": {"id": "resp_1"}}
    stream = [created, *body]
    terminal = _terminal(draw, [item for _, item in drawn if item is not None])
    if terminal is not None:
        stream.append(terminal)
        stream += draw(st.lists(st.sampled_from(body), max_size=1))
    if numbering == "after faults":
        stream = [event | {"sequence_number": n} for n, event in enumerate(stream)]
    return stream
