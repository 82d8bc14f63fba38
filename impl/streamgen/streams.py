"""Protocol-valid Responses streams as OpenAI sends them, built from a ``Chooser``.

Theory of operation
-------------------
``openai_stream(choose)`` decides a response in three steps: the items (kind, ids,
payload text, how each payload is cut into deltas), an interleaving of the items'
event queues, and the terminal event.  Each item kind has one builder that produces
the exact event sequence of protocol-notes §5.1 / §2.3-2.5 — ``output_item.added``,
part and payload events, ``*.done``, ``output_item.done`` — and the ``response``
lifecycle events wrap them with ``sequence_number`` 0, 1, 2, … (§1.2).

The output index of an item is the order in which its ``added`` event is emitted, as on
the wire; ``response.completed.output`` holds every done item in output-index order
(§5.5).  Ids look like OpenAI's: ``resp_``/``fc_``/``msg_``/… followed by 50 hex digits
that share a per-response stem (§4), ``call_`` followed by 24 alphanumerics.  Ids are
derived by hashing from one drawn stem, so a stream costs few choices and every id is
distinct.

``GeneratedStream`` is what every generator in this package returns: the events (plain
JSON objects), whether SSE framing carries ``event:`` lines, and labels that say how
the stream was made (``openai``, ``profile:github-copilot``, ``fault:drop@7``).
"""

from __future__ import annotations

import base64
import copy
import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .choices import Chooser

Event = dict[str, Any]
"""One decoded wire event."""

Item = dict[str, Any]
"""One wire output item."""


@dataclass(frozen=True)
class GeneratedStream:
    """One generated stream: its events, its SSE framing, and how it was made."""

    events: tuple[Event, ...]
    labels: tuple[str, ...] = ()
    data_only: bool = False
    """SSE frames carry only ``data:`` lines, no ``event:`` line (protocol-notes §1.1)."""

    def relabel(self, events: Iterable[Event], label: str, **changes: Any) -> GeneratedStream:
        """A copy with new events and one more label."""
        return replace(self, events=tuple(events), labels=(*self.labels, label), **changes)

    def to_sse(self) -> bytes:
        """The stream as ``text/event-stream`` bytes."""
        frames = []
        for event in self.events:
            data = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            name = event.get("type")
            if self.data_only or not isinstance(name, str):
                frames.append(f"data: {data}\n\n")
            else:
                frames.append(f"event: {name}\ndata: {data}\n\n")
        return "".join(frames).encode()

    def to_jsonl(self) -> bytes:
        """The stream as JSON Lines, one event a line."""
        return "".join(
            json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
            for event in self.events
        ).encode()


# -- ids ------------------------------------------------------------------------------

_TO_ALNUM = str.maketrans("+/", "Az")


def digest(*parts: object) -> str:
    """A stable hex digest of ``parts``: the source of every derived id and padding."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()


def alnum(length: int, *parts: object) -> str:
    """``length`` stable alphanumerics derived from ``parts`` (base64 of a SHAKE digest)."""
    raw = hashlib.shake_256(":".join(map(str, parts)).encode()).digest(length)
    return base64.b64encode(raw).decode().translate(_TO_ALNUM)[:length]


def clone(value: Any) -> Any:
    """A deep copy of decoded JSON (dicts, lists, scalars); much cheaper than deepcopy."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


@dataclass(frozen=True)
class Ids:
    """The id factory of one response: every id shares the drawn ``stem``."""

    stem: str

    def item(self, prefix: str, serial: int) -> str:
        """An OpenAI-shaped item id: prefix, the stem, then hex (50 digits in all)."""
        return f"{prefix}_{self.stem}{digest(self.stem, prefix, serial)[:34]}"

    def call(self, serial: int) -> str:
        """An OpenAI-shaped ``call_id``: ``call_`` and 24 alphanumerics."""
        return f"call_{alnum(24, self.stem, 'call', serial)}"

    @property
    def response(self) -> str:
        """The response id."""
        return self.item("resp", 0)


def obfuscation(*parts: object) -> str:
    """Padding like the wire's ``obfuscation`` field on delta events (§1.3)."""
    return alnum(4 + int(digest(*parts)[:1], 16) % 12, "pad", *parts)


# -- payload text ---------------------------------------------------------------------

_WORDS: tuple[str, ...] = (
    "Paris",
    "weather",
    "café",
    "東京",
    "two\nlines",
    'a "quoted" word',
    "tab\there",
    "emoji 🙂",
    "back\\slash",
    "trailing newline\n",
)
"""Words payloads are made of: plain first, then what breaks careless parsers."""

_KEYS: tuple[str, ...] = ("city", "query", "path", "limit", "units", "pattern")
_FUNCTIONS: tuple[str, ...] = ("get_weather", "search_docs", "read_file", "list_dir")
_CUSTOM_TOOLS: tuple[str, ...] = ("apply_patch", "run_sql", "python")


def words(choose: Chooser, low: int = 1, high: int = 4) -> str:
    """A short text of ``low..high`` words."""
    return " ".join(choose.choice(_WORDS) for _ in range(choose.integer(low, high)))


def json_arguments(choose: Chooser) -> str:
    """Function-call arguments: a compact JSON object, as OpenAI streams them."""
    fields: dict[str, Any] = {}
    for _ in range(choose.integer(0, 3)):
        key = choose.choice(_KEYS)
        fields[key] = choose.integer(0, 99) if choose.boolean() else words(choose, 1, 2)
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def chunks(choose: Chooser, text: str, most: int = 4) -> list[str]:
    """``text`` cut into 1..``most`` non-empty deltas that concatenate back to it."""
    if len(text) <= 1:
        return [text]
    cuts = sorted({choose.integer(1, len(text) - 1) for _ in range(choose.integer(0, most - 1))})
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


# -- one item's events ----------------------------------------------------------------


@dataclass(frozen=True)
class ItemEvents:
    """The events of one output item, in order, and its final wire item.

    Events carry no ``output_index`` yet: it is known only once the items are
    interleaved.  ``partial`` builds the item as it stands when the response is cut
    off after the first ``n`` events (for ``response.incomplete``).
    """

    events: tuple[Event, ...]
    done_item: Item
    partial: Callable[[int], Item]


def _scoped(kind: str, item_id: str, **fields: Any) -> Event:
    return {"type": f"response.{kind}", "item_id": item_id, **fields}


def _text_channel(
    choose: Chooser,
    item_id: str,
    family: str,
    done_field: str,
    text: str,
    index_field: str | None = None,
    index: int = 0,
) -> list[Event]:
    """Deltas then the ``*.done`` of one payload channel."""
    where = {index_field: index} if index_field else {}
    pieces = chunks(choose, text)
    events = [
        _scoped(
            f"{family}.delta",
            item_id,
            **where,
            delta=piece,
            **({"logprobs": []} if family == "output_text" else {}),
            obfuscation=obfuscation(item_id, index, n),
        )
        for n, piece in enumerate(pieces)
    ]
    done_extra: dict[str, Any] = {"logprobs": []} if family == "output_text" else {}
    events.append(_scoped(f"{family}.done", item_id, **where, **{done_field: text}, **done_extra))
    return events


def _prefix_text(events: Sequence[Event], upto: int, field: str = "delta") -> str:
    return "".join(e.get(field, "") for e in events[:upto] if e["type"].endswith(".delta"))


def function_call(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """A ``function_call`` item: added, argument deltas, ``.done``, done (§5.1)."""
    item_id, call_id = ids.item("fc", serial), ids.call(serial)
    name, arguments = choose.choice(_FUNCTIONS), json_arguments(choose)
    base = {"id": item_id, "type": "function_call", "call_id": call_id, "name": name}
    added = {**base, "status": "in_progress", "arguments": ""}
    body = _text_channel(choose, item_id, "function_call_arguments", "arguments", arguments)
    events = (_added(added), *body)
    done = {**base, "status": "completed", "arguments": arguments}
    return ItemEvents(
        (*events, _done(done)),
        done,
        lambda n: {**base, "status": "incomplete", "arguments": _prefix_text(events, n)},
    )


def custom_tool_call(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """A ``custom_tool_call`` item: free-text ``input`` instead of JSON arguments (§2.4)."""
    item_id, call_id = ids.item("ctc", serial), ids.call(serial)
    base = {"id": item_id, "type": "custom_tool_call", "call_id": call_id}
    base["name"] = choose.choice(_CUSTOM_TOOLS)
    text = words(choose, 1, 5)
    body = _text_channel(choose, item_id, "custom_tool_call_input", "input", text)
    events = (_added({**base, "input": ""}), *body)
    done = {**base, "status": "completed", "input": text}
    return ItemEvents(
        (*events, _done(done)),
        done,
        lambda n: {**base, "status": "incomplete", "input": _prefix_text(events, n)},
    )


def message(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """An assistant ``message`` with one ``output_text`` part (§2.3)."""
    item_id = ids.item("msg", serial)
    text = words(choose, 1, 6)
    base = {"id": item_id, "type": "message", "role": "assistant"}
    empty_part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    full_part = {**empty_part, "text": text}
    body = _text_channel(
        choose, item_id, "output_text", "text", text, "content_index", 0
    )
    events = (
        _added({**base, "status": "in_progress", "content": []}),
        _scoped("content_part.added", item_id, content_index=0, part=empty_part),
        *body,
        _scoped("content_part.done", item_id, content_index=0, part=full_part),
    )
    done = {**base, "status": "completed", "content": [full_part]}

    def partial(n: int) -> Item:
        part = {**empty_part, "text": _prefix_text(events, n)}
        return {**base, "status": "incomplete", "content": [part] if n > 1 else []}

    return ItemEvents((*events, _done(done)), done, partial)


def reasoning(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """A ``reasoning`` item with 0..2 summary parts; OpenAI sends it no ``status`` (§3)."""
    item_id = ids.item("rs", serial)
    base = {"id": item_id, "type": "reasoning"}
    texts = [words(choose, 1, 4) for _ in range(choose.integer(0, 2))]
    events: list[Event] = [_added({**base, "summary": []})]
    for index, text in enumerate(texts):
        where = {"summary_index": index}
        events.append(
            _scoped(
                "reasoning_summary_part.added",
                item_id,
                **where,
                part={"type": "summary_text", "text": ""},
            )
        )
        body = _text_channel(
            choose, item_id, "reasoning_summary_text", "text", text, "summary_index", index
        )
        events.extend(body)
        events.append(
            _scoped(
                "reasoning_summary_part.done",
                item_id,
                **where,
                part={"type": "summary_text", "text": text},
            )
        )
    done = {**base, "summary": [{"type": "summary_text", "text": t} for t in texts]}
    frozen = tuple(events)

    def partial(n: int) -> Item:
        summary = [
            {"type": "summary_text", "text": e["part"]["text"]}
            for e in frozen[:n]
            if e["type"] == "response.reasoning_summary_part.done"
        ]
        return {**base, "summary": summary}

    return ItemEvents((*frozen, _done(done)), done, partial)


def web_search_call(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """A hosted ``web_search_call``: progress events only; ``added`` lacks ``action`` (§2.2)."""
    item_id = ids.item("ws", serial)
    base = {"id": item_id, "type": "web_search_call"}
    events = (
        _added({**base, "status": "in_progress"}),
        *(
            _scoped(f"web_search_call.{phase}", item_id)
            for phase in ("in_progress", "searching", "completed")
        ),
    )
    done = {**base, "status": "completed", "action": {"type": "search", "query": words(choose)}}
    return ItemEvents((*events, _done(done)), done, lambda n: {**base, "status": "incomplete"})


def code_interpreter_call(choose: Chooser, ids: Ids, serial: int) -> ItemEvents:
    """A hosted ``code_interpreter_call``: code deltas between progress events (§2.5)."""
    item_id = ids.item("ci", serial)
    base = {
        "id": item_id,
        "type": "code_interpreter_call",
        "container_id": f"cntr_{ids.stem}{digest(ids.stem, 'cntr', serial)[:34]}",
    }
    code = f"print({words(choose, 1, 3)!r})\n"
    body = _text_channel(choose, item_id, "code_interpreter_call_code", "code", code)
    events = (
        _added({**base, "status": "in_progress", "code": "", "outputs": None}),
        _scoped("code_interpreter_call.in_progress", item_id),
        *body,
        _scoped("code_interpreter_call.interpreting", item_id),
        _scoped("code_interpreter_call.completed", item_id),
    )
    done = {**base, "status": "completed", "code": code, "outputs": []}
    return ItemEvents(
        (*events, _done(done)),
        done,
        lambda n: {**base, "status": "incomplete", "code": _prefix_text(events, n)},
    )


def _added(item: Item) -> Event:
    return {"type": "response.output_item.added", "item": item}


def _done(item: Item) -> Event:
    return {"type": "response.output_item.done", "item": item}


ItemBuilder = Callable[[Chooser, Ids, int], ItemEvents]

ITEM_BUILDERS: dict[str, ItemBuilder] = {
    "function_call": function_call,
    "message": message,
    "custom_tool_call": custom_tool_call,
    "reasoning": reasoning,
    "web_search_call": web_search_call,
    "code_interpreter_call": code_interpreter_call,
}
"""The item kinds ``openai_stream`` generates, simplest first."""


# -- a whole response -----------------------------------------------------------------

_MODEL = "gpt-5.1-2025-11-13"


def response_object(ids: Ids, status: str, output: list[Item] | None, **extra: Any) -> Item:
    """The ``response`` object of a lifecycle event (protocol-notes §2.1), with the
    request echoes the published type requires (a stream without them is invalid per
    the API's event types: ``differential.taxonomy``)."""
    # serve's package imports this one (its gateway compares answers): read it late.
    from responses_oracle.serve.present import UNSET_ECHOES

    response: Item = {
        "id": ids.response,
        "object": "response",
        "created_at": 1_763_000_000 + int(ids.stem[:4], 16),
        "status": status,
        "model": _MODEL,
        "error": None,
        "incomplete_details": None,
        **copy.deepcopy(dict(UNSET_ECHOES)),
    }
    if output is not None:
        response["output"] = output
    response.update(extra)
    return response


def numbered(events: Iterable[Event]) -> list[Event]:
    """The events with ``sequence_number`` 0, 1, 2, … as OpenAI numbers them (§1.2)."""
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


def interleave(choose: Chooser, queues: Sequence[Sequence[Event]]) -> list[tuple[int, Event]]:
    """Merge per-item queues keeping each in order; (item number, event) pairs.

    Shrinks towards running the items one after another, the common OpenAI order.
    """
    heads = [0] * len(queues)
    live = [n for n, queue in enumerate(queues) if queue]
    merged: list[tuple[int, Event]] = []
    while live:
        item = live[0] if len(live) == 1 else live[choose.integer(0, len(live) - 1)]
        merged.append((item, queues[item][heads[item]]))
        heads[item] += 1
        if heads[item] == len(queues[item]):
            live.remove(item)
    return merged


def openai_stream(
    choose: Chooser, max_items: int = 4, kinds: Sequence[str] = tuple(ITEM_BUILDERS)
) -> GeneratedStream:
    """A protocol-valid stream as OpenAI sends it: 1..``max_items`` items of ``kinds``."""
    ids = Ids(f"{choose.integer(0, 2**64 - 1):016x}")
    built = [
        ITEM_BUILDERS[choose.choice(kinds)](choose, ids, serial)
        for serial in range(choose.integer(1, max_items))
    ]
    merged = interleave(choose, [item.events for item in built])
    terminal = choose.choice(("completed", "completed", "incomplete"))
    cut_item, kept = None, len(merged)
    if terminal == "incomplete":
        # max_output_tokens: the item that would finish last is cut off mid-stream,
        # before its own output_item.done (Open Responses: it must be the last item).
        cut_item = merged[-1][0]
        kept = choose.integer(1, len(built[cut_item].events) - 1)
    slot_of: dict[int, int] = {}
    body: list[Event] = []
    per_item = [0] * len(built)
    for item, event in merged:
        if item == cut_item and per_item[item] == kept:
            continue
        slot = slot_of.setdefault(item, len(slot_of))
        per_item[item] += 1
        body.append({**event, "output_index": slot})
    order = sorted(slot_of, key=slot_of.__getitem__)
    if terminal == "completed":
        output = [built[item].done_item for item in order]
        end = {
            "type": "response.completed",
            "response": response_object(ids, "completed", output, usage=_USAGE),
        }
    else:
        output = [
            built[item].partial(per_item[item]) if item == cut_item else built[item].done_item
            for item in order
        ]
        end = {
            "type": "response.incomplete",
            "response": response_object(
                ids,
                "incomplete",
                output,
                incomplete_details={"reason": "max_output_tokens"},
                usage=_USAGE,
            ),
        }
    events = numbered(
        [
            {"type": "response.created", "response": response_object(ids, "in_progress", [])},
            {"type": "response.in_progress", "response": response_object(ids, "in_progress", [])},
            *body,
            end,
        ]
    )
    # Items are shared between events while building; every event gets its own copy.
    return GeneratedStream(tuple(clone(event) for event in events), ("openai",))


_USAGE = {"input_tokens": 42, "output_tokens": 17, "total_tokens": 59}


