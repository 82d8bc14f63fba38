"""Hostile streams: a generated stream with several edits of the kinds a driver branches on.

``faults.py`` makes exactly one list fault, so that a failure can be judged against
the rules.  The refinement judges every event against the model itself, so it can take
a stream with many faults at once; what it needs is streams that take every branch of
the driver (``proofs/branch_cover.py`` measures which).  ``edited_stream`` draws a base
(an OpenAI stream, a provider's, two responses in one body, a model-guided walk) and
applies one to ``most`` edits, each chosen from ``EDITS``:

- **resume**: the stream cut at any event (a resumed response starts there: inside an
  item, or at an event that names no item), its ids optionally stripped;
- **terminal**: a terminal event (``error``, ``response.failed``, ``.completed``,
  ``.incomplete``) inserted anywhere, so a body can end twice or three times; or
  ``error``, ``response.failed`` and a third one at the end (**terminals**); a failed
  response carries its ``error`` and an incomplete one its ``incomplete_details``, as
  OpenAI sends them, or not;
- **field**: one field of an event set to a value of the wrong type or out of range
  (an index below 0 or beyond the bound, a string index, a float, a boolean, null);
- **annotate**: a part addition (an annotation), its indexes well or badly given;
- **catalogued**: one to three items of types the catalogue knows and the base streams
  do not build, their channels filled (or a channel's container missing);
- **flood**: 300 payload events with keys that never repeat: ids no item has, or one
  item's id at output indexes that never repeat;
- **part**: a content part made not an object or given a type no channel has;
- **realign**: one item's parts streamed one ``content_index`` further than its item
  holds them (Bedrock Mantle streams a message's only part at index 1);
- **unslotted**: an item's ``output_item.added`` (and its payload events) without an
  ``output_index``, which its done item then gives;
- **snapshot**: the terminal's ``response.output`` changed: an item dropped, added,
  re-keyed, changed, made not an object, the array made not an array;
- **item**: an item's type made unknown, its keys shared with another item (in every
  copy of it -- added, done and snapshot -- or in one), a ``namespace`` given to a
  call, its ``id`` carried as ``item_id`` (Bedrock Mantle) or given nowhere (a gateway
  that strips ids);
- **tools**: the response's tools declared: one call's name (the others undeclared),
  in a namespace, of another or an unknown type, not as an array;
- **list**: an event dropped, repeated, moved, or the event's type made unknown.

Every choice is the ``Chooser``'s, so the same code runs seeded (``RandomChooser``) or
under Hypothesis (``testing.strategies.edited_streams``: a ``RandomChooser`` over a seed
it draws, so that the choices are uniform; a failure shrinks only to another seed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from responses_oracle.model.annotations import ADDITION_TYPES
from responses_oracle.model.catalogue import ITEM_TYPES, MAX_INDEX, ChannelLocation
from responses_oracle.model.execution import LOADED_TOOLS

from .cases import profile_stream, several_responses
from .choices import Chooser
from .streams import ITEM_BUILDERS, Event, GeneratedStream, clone, openai_stream
from .walk import model_guided_stream

Events = list[Event]
Edit = Callable[[Events, Chooser], str]
"""An edit: changes the events in place and says what it did."""

TERMINAL_EVENTS: tuple[str, ...] = (
    "error",
    "response.failed",
    "response.completed",
    "response.incomplete",
)
"""The terminal events an edit inserts: the error event and the three terminals."""

ADDITIONS: tuple[str, ...] = tuple(ADDITION_TYPES)
"""The part addition events (``model.annotations``)."""

BAD_VALUES: tuple[Any, ...] = (-1, MAX_INDEX, MAX_INDEX + 1, "0", 1.5, True, None, [], {})
"""Values an index, a sequence number or a string field is set to: out of range (the
bound and one past it), of another type, or null."""

FIELDS: tuple[str, ...] = (
    "output_index",
    "content_index",
    "summary_index",
    "sequence_number",
    "item_id",
    "delta",
    "text",
    "arguments",
    "part",
    "item",
    "response",
    "id",
    "call_id",
    "name",
    "tools",
    "output",
    "content",
)
"""Fields the field edit sets besides an object's own: those the parser and the driver
read, on an event, an item or a response."""


def _position(events: Events, choose: Chooser) -> int:
    return choose.integer(0, max(len(events) - 1, 0))


def _response(events: Events, choose: Chooser) -> dict[str, Any]:
    """The response object of some terminal (or created) event, or a new one."""
    found = [e["response"] for e in events if isinstance(e.get("response"), dict)]
    return clone(choose.choice(found)) if found else {"id": "resp_edit", "output": []}


def resume(events: Events, choose: Chooser) -> str:
    """Cut the stream at any event: what a client that reconnects receives."""
    cut = choose.integer(1, max(len(events) - 1, 1))
    del events[:cut]
    if choose.boolean():
        for event in events:
            event.pop("item_id", None)
    return f"resume@{cut}"


def _ending(kind: str, response: dict[str, Any], says_why: bool) -> Event:
    """A terminal event of ``kind`` (``TERMINAL_EVENTS``) carrying ``response``; with
    ``says_why``, a failed one carries its ``error``, an incomplete one its
    ``incomplete_details``, as OpenAI sends them (a gateway may drop them)."""
    if kind == "error":
        return {"type": "error", "code": "server_error", "message": "edit"}
    status = kind.removeprefix("response.")
    why = {
        "failed": {"error": {"code": "server_error", "message": "edit"}},
        "incomplete": {"incomplete_details": {"reason": "max_output_tokens"}},
    }
    said = why.get(status, {}) if says_why else {}
    return {"type": kind, "response": {**response, "status": status, **said}}


def terminal(events: Events, choose: Chooser) -> str:
    """Insert a terminal event anywhere (a second or third one too)."""
    kind = choose.choice(TERMINAL_EVENTS)
    at = choose.integer(0, len(events))
    response = _response(events, choose)
    if choose.boolean():
        response.pop("id", None)
    event = _ending(kind, response, choose.boolean())
    if choose.boolean() and events:
        event["sequence_number"] = events[min(at, len(events) - 1)].get("sequence_number")
    events.insert(at, event)
    return f"terminal:{kind}@{at}"


def terminals(events: Events, choose: Chooser) -> str:
    """End the stream with ``error``, then ``response.failed``, then a third terminal:
    the error is amended by the failure (R9), the third comes after the terminal."""
    response = _response(events, choose)
    third = choose.choice(TERMINAL_EVENTS)
    events += [
        _ending(kind, response, choose.boolean()) for kind in ("error", "response.failed", third)
    ]
    return f"terminals:error+failed+{third}"


def field(events: Events, choose: Chooser) -> str:
    """Set one field of one event -- or of its item, part or response -- to a value of
    the wrong type or out of range, or remove it."""
    at = _position(events, choose)
    target = events[at]
    inner = [key for key in ("item", "part", "response") if isinstance(target.get(key), dict)]
    if inner and choose.boolean():
        key = choose.choice(inner)
        target = target[key] = dict(target[key])
        at_name = f"{key}."
    else:
        at_name = ""
    names = sorted(set(target) - {"type"})
    name = choose.choice([*names, *FIELDS, "type"] if at_name else [*names, *FIELDS])
    if choose.integer(0, 3) == 0:
        target.pop(name, None)
        return f"field:-{at_name}{name}@{at}"
    value = choose.choice(BAD_VALUES)
    target[name] = value
    return f"field:{at_name}{name}={value!r}@{at}"


def annotate(events: Events, choose: Chooser) -> str:
    """Insert a part addition (an annotation added to a text part), its part, position
    and value well or badly given."""
    named = [e for e in events if isinstance(e.get("item_id"), str)]
    source = choose.choice(named) if named else {"item_id": "msg_edit", "output_index": 0}
    event: Event = {
        "type": choose.choice(ADDITIONS),
        "item_id": source["item_id"],
        "output_index": source.get("output_index", 0),
        "content_index": choose.choice((0, 1, -1, "0")),
        "annotation_index": choose.choice((0, 1, 7, None, -1)),
        "annotation": choose.choice(({"type": "url_citation", "url": "u"}, None)),
    }
    at = choose.integer(0, len(events))
    events[at:at] = [event, clone(event)] if choose.boolean() else [event]
    return f"annotate@{at}"


def _items(events: Events) -> list[dict[str, Any]]:
    """Every item object of the events: added, done and snapshot items."""
    found = [e["item"] for e in events if isinstance(e.get("item"), dict)]
    for event in events:
        response = event.get("response")
        output = response.get("output") if isinstance(response, dict) else None
        found += [item for item in output or () if isinstance(item, dict)]
    return found


def _copies(events: Events, chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """Every copy of ``chosen`` the events carry (added, done, snapshot): the item
    objects with its id, or ``chosen`` alone when it has none."""
    item_id = chosen.get("id")
    if not isinstance(item_id, str):
        return [chosen]
    return [item for item in _items(events) if item.get("id") == item_id]


def snapshot(events: Events, choose: Chooser) -> str:
    """Change a terminal's snapshot (``response.output``; another event's response
    when there is no terminal): drop, add, re-key, change or break an item, or break
    the array."""
    carriers = [e for e in events if isinstance(e.get("response"), dict)]
    ends = [e for e in carriers if e.get("type") in TERMINAL_EVENTS] or carriers
    if not ends:
        return "snapshot:none"
    end = choose.choice(ends)
    response = end["response"] = clone(end["response"])
    output = response.get("output")
    output = response["output"] = list(output) if isinstance(output, list) else []
    how = choose.choice(("add", "drop", "rekey", "change", "break", "array", "reorder"))
    items = _items(events)
    if how == "add" or not output:
        extra = clone(choose.choice(items)) if items else {"type": "message", "content": []}
        if choose.boolean():
            extra["id"] = f"snap_{len(output)}"
        output.insert(choose.integer(0, len(output)), extra)
    elif how == "drop":
        del output[_position(output, choose)]
    elif how == "rekey":
        item = output[_position(output, choose)] = clone(output[_position(output, choose)])
        if isinstance(item, dict):
            item[choose.choice(("id", "call_id", "name"))] = choose.choice(("other", "", None))
    elif how == "change":
        item = output[_position(output, choose)] = clone(output[_position(output, choose)])
        if isinstance(item, dict):
            key = choose.choice(sorted(item) or ["type"])
            item[key] = choose.choice(("changed", "", None, [], {"x": 1}))
    elif how == "break":
        output[_position(output, choose)] = choose.choice((None, "item", 3, {"type": 3}))
    elif how == "array":
        response["output"] = choose.choice(("output", {}, None))
    else:
        output.reverse()
    return f"snapshot:{how}"


def item(events: Events, choose: Chooser) -> str:
    """Change the items: an unknown type, keys shared with another item, a namespace
    on a call (and the tools declared with it or not)."""
    items = _items(events)
    if not items:
        return "item:none"
    how = choose.choice(
        ("type", "share", "namespace", "strip", "null", "missing", "rename", "anonymous")
    )
    carriers = [e for e in events if isinstance(e.get("item"), dict)]
    if how in ("null", "missing") and carriers:
        carrier = choose.choice(carriers)
        if how == "null":
            carrier["item"] = None
        else:
            del carrier["item"]
        return f"item:{how}"
    chosen = choose.choice(items)
    if how == "type":
        chosen["type"] = choose.choice(("mystery_call", "mcp_call", "tool_search_call", ""))
    elif how == "share":
        # Another type's keys: a call_id held by another item type (R6).
        key = choose.choice(("id", "call_id", "name"))
        holders = [i for i in items if key in i]
        others = [i for i in holders if i.get("type") != chosen.get("type")]
        other = choose.choice(others or holders or items)
        if key in other:
            # In every copy (one item with another's key), or in one (two that disagree).
            for copy in _copies(events, chosen) if choose.boolean() else [chosen]:
                copy[key] = other[key]
    elif how in ("rename", "anonymous"):
        # Bedrock Mantle's items carry their id as item_id; a gateway may strip both.
        item_id = chosen.get("id")
        for copy in _copies(events, chosen):
            copy.pop("id", None)
            if how == "rename" and item_id is not None:
                copy["item_id"] = item_id
        if how == "anonymous" and choose.boolean():
            for event in events:
                # An item with no id: no event names it (every event lacking item_id
                # matched None, and the first raised KeyError: seed 3692).
                if item_id is not None and event.get("item_id") == item_id:
                    del event["item_id"]
    elif how == "namespace":
        chosen["namespace"] = choose.choice(("ns", "", "mcp__server"))
    else:
        chosen.pop(choose.choice(sorted(chosen) or ["type"]), None)
    return f"item:{how}"


def tools(events: Events, choose: Chooser) -> str:
    """Declare the response's tools: one of the calls' names (so that the others are
    undeclared), in a namespace, of another or an unknown type, or not as an array."""
    names = [i.get("name") for i in _items(events) if isinstance(i.get("name"), str)]
    name = choose.choice(names) if names else "tool"
    options: tuple[Any, ...] = (
        {"type": "function", "name": name},
        {"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": name}]},
        {"type": "custom", "name": name},
        {"type": "mystery_tool"},
        {"type": "web_search"},
        "tool",
    )
    tool = choose.choice(options)
    declared = choose.choice(([tool], tool, [], None) if isinstance(tool, dict) else (tool,))
    for event in events:
        if isinstance(event.get("response"), dict):
            event["response"] = {**event["response"], "tools": declared}
    return "tools"


def _carrying(location: ChannelLocation, value: Any) -> dict[str, Any]:
    """An item's fields holding ``value`` where ``location`` says a channel sits."""
    if location.array is None:
        held: dict[str, Any] = {location.field or "value": value}
    elif location.part_type is None:
        held = {location.array: [value, value]}
    else:
        held = {location.array: [{"type": location.part_type, location.field or "": value}]}
    for key in reversed(location.container):
        held = {key: held}
    return held


def catalogued(events: Events, choose: Chooser) -> str:
    """Add one to three items of types the catalogue knows and no base stream builds
    (``ITEM_BUILDERS`` build the others), every channel carried where the catalogue
    says (or given a value of the wrong type, or its container missing), each as a done
    item or in the snapshot; a tool search's output loads tools."""
    labels = []
    for serial in range(choose.integer(1, 3)):
        kind = choose.choice(sorted(set(ITEM_TYPES) - set(ITEM_BUILDERS)))
        spec = ITEM_TYPES[kind]
        value = choose.choice(("value", "value", 3, None))
        new: dict[str, Any] = {
            "type": kind,
            "id": f"{spec.id_prefix}_edit{serial}",
            "status": "completed",
        }
        for location in spec.channels:
            new.update(_carrying(location, value))
        if spec.client_call or choose.boolean():
            new.update(call_id="call_edit", name=choose.choice(("tool", "ns__tool")))
        if kind == LOADED_TOOLS or choose.boolean():
            new["tools"] = [{"type": "function", "name": "tool"}, "tool"]
        containers = sorted({where.container[0] for where in spec.channels if where.container})
        if containers and choose.integer(0, 3) == 0:
            # The object holding the channel (a shell call's ``action``) missing or not one.
            new[choose.choice(containers)] = choose.choice((None, "value"))
        at = choose.integer(0, len(events))
        if choose.boolean():
            done = {"type": "response.output_item.done", "output_index": at, "item": new}
            events.insert(at, done)
            labels.append(f"{kind}@{at}")
            continue
        for event in events:
            response = event.get("response")
            output = response.get("output") if isinstance(response, dict) else None
            if isinstance(response, dict) and isinstance(output, list):
                event["response"] = {**response, "output": [*output, new]}
        labels.append(f"{kind}:snapshot")
    return f"catalogued:{'+'.join(labels)}"


ROUTE_FLOOD = 300
"""Payload events with keys that never repeat, more than the driver's route cache holds."""


def flood(events: Events, choose: Chooser) -> str:
    """Insert many text deltas whose (``output_index``, ``item_id``) never repeats: each
    naming an item no other event names, or all naming one item by its id at output
    indexes no item has (each then a routing cell of its own)."""
    at = choose.integer(0, len(events))
    named = [e["item_id"] for e in events if isinstance(e.get("item_id"), str)]
    item_id = choose.choice(named) if named and choose.boolean() else None
    events[at:at] = [
        {
            "type": "response.output_text.delta",
            "item_id": item_id or f"flood_{n}",
            "output_index": n + len(events) if item_id else n,
            "content_index": 0,
            "delta": "x",
        }
        for n in range(ROUTE_FLOOD)
    ]
    return f"flood{':outside' if item_id else ''}@{at}"


def _item_events(events: Events, choose: Chooser) -> tuple[str, Events] | None:
    """Some item's id and the events naming it (its ``item_id``), or None."""
    named = sorted({e["item_id"] for e in events if isinstance(e.get("item_id"), str)})
    if not named:
        return None
    item_id = choose.choice(named)
    return item_id, [e for e in events if e.get("item_id") == item_id]


def part(events: Events, choose: Chooser) -> str:
    """Make one content part event's part not an object, or give it a type that no
    channel has."""
    carriers = [e for e in events if isinstance(e.get("part"), dict)]
    if not carriers:
        return "part:none"
    event = choose.choice(carriers)
    if choose.boolean():
        event["part"] = choose.choice((None, "part", 3, []))
        return "part:not-an-object"
    event["part"] = {**event["part"], "type": choose.choice(("mystery_part", "", 3))}
    return "part:unknown-type"


def realign(events: Events, choose: Chooser) -> str:
    """Stream one item's parts one ``content_index`` further than its item holds them."""
    found = _item_events(events, choose)
    if found is None:
        return "realign:none"
    item_id, named = found
    for event in named:
        for key in ("content_index", "summary_index"):
            if isinstance(event.get(key), int):
                event[key] += 1
    return f"realign:{item_id}"


def unslotted(events: Events, choose: Chooser) -> str:
    """Drop the ``output_index`` of an item's ``output_item.added`` (and, or not, of its
    payload events): its done item gives it."""
    added = [e for e in events if e.get("type") == "response.output_item.added"]
    if not added:
        return "unslotted:none"
    event = choose.choice(added)
    event.pop("output_index", None)
    item = event.get("item")
    item_id = item.get("id") if isinstance(item, dict) else None
    if item_id is not None and choose.boolean():
        for other in events:
            if other.get("item_id") == item_id:
                other.pop("output_index", None)
    return "unslotted"


def listed(events: Events, choose: Chooser) -> str:
    """Drop, repeat or move one event, or make its type unknown."""
    at = _position(events, choose)
    how = choose.choice(("drop", "repeat", "move", "unknown"))
    if how == "drop":
        del events[at]
    elif how == "repeat":
        events.insert(at, clone(events[at]))
    elif how == "move":
        events.insert(choose.integer(0, len(events) - 1), events.pop(at))
    else:
        events[at] = {**events[at], "type": choose.choice(("response.mystery", "keepalive", ""))}
    return f"list:{how}@{at}"


EDITS: dict[str, Edit] = {
    "annotate": annotate,
    "catalogued": catalogued,
    "flood": flood,
    "resume": resume,
    "terminal": terminal,
    "terminals": terminals,
    "field": field,
    "snapshot": snapshot,
    "item": item,
    "list": listed,
    "part": part,
    "tools": tools,
    "realign": realign,
    "unslotted": unslotted,
}
"""The edits, by name."""

BASES: dict[str, Callable[[Chooser], GeneratedStream]] = {
    "openai": openai_stream,
    "profile": profile_stream,
    "several-responses": several_responses,
    "model-guided": model_guided_stream,
}
"""The streams an edit starts from."""


WEIGHTS: tuple[str, ...] = (*EDITS, *EDITS, *EDITS, *(name for name in EDITS if name != "flood"))
"""The edits drawn, each four times as often as ``flood`` (whose 300 events make a
stream slow to check and take only the route cache's branch)."""


def edited_stream(choose: Chooser, most: int = 4) -> GeneratedStream:
    """A base stream with 1..``most`` edits of ``EDITS``."""
    base = BASES[choose.choice(tuple(BASES))](choose)
    events: Events = [clone(event) for event in base.events]
    labels = []
    for _ in range(choose.integer(1, most)):
        if not events:
            break
        labels.append(EDITS[choose.choice(WEIGHTS)](events, choose))
    return GeneratedStream(tuple(events), (*base.labels, *labels))
