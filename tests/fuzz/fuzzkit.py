"""Fuzzing support: the result schema, the input framings, and the Hypothesis strategies.

The fuzz suites push inputs through the whole pipeline (bytes → front end → reducer →
``Result.to_json()``) and check every result against the shipped JSON Schema of the
result contract (``docs/schema/result.schema.json``).  Three kinds of input:

- *clean streams* (``clean_streams``): well-formed responses built from the real event
  names, with interleaved items, whose reduction is known in advance;
- *hostile events* (``hostile_events``): events named from ``model.catalogue``'s
  ``WIRE_EVENTS`` (and some unknown names) whose fields have random, often wrong,
  types — ints as strings, null items, objects for payloads, negative or huge
  indexes, ``__proto__``, empty and 10 KB ids, lists nested past what a recursion
  of two frames a level survives;
- *damaged texts* (``damaged_texts``): event data that is not an event at all.

A stream is a list of elements, each a JSON object (an event) or a ``str`` (the raw
data text of one damaged event); every element becomes exactly one event of the
input, so its position is its ``event_index``.  The framings (``sse_bytes``,
``jsonl_bytes``, ``axonhub_bytes``, ``recording_bytes``, ``json_array_bytes``)
serialize such a stream in every input format; ``sse_framings`` draws the SSE
framing freely (line ends, ``event:`` before or after ``data:``, multi-line data,
comments, ``id:``/``retry:`` fields, BOM, ``[DONE]``, a missing last blank line).

Every suite takes its example budget from ``fuzz_settings``: a small default keeps
the folder fast; ``RESPONSES_ORACLE_FUZZ_EXAMPLES=N`` runs N examples per test.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from helpers import REPO
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from responses_oracle import Result
from responses_oracle.model.catalogue import ITEM_TYPES, WIRE_EVENTS

SCHEMA_PATH = REPO / "docs" / "schema" / "result.schema.json"
"""The shipped JSON Schema of one result object."""

SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
"""The parsed schema."""

VALIDATOR = Draft202012Validator(SCHEMA)
"""A validator for ``SCHEMA``."""

EXAMPLES_ENV = "RESPONSES_ORACLE_FUZZ_EXAMPLES"
"""Environment variable: examples per fuzz test for deeper runs."""


def fuzz_settings(default_examples: int) -> settings:
    """Bounded Hypothesis settings: ``default_examples`` unless ``EXAMPLES_ENV`` says."""
    examples = int(os.environ.get(EXAMPLES_ENV) or default_examples)
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# -- the contract ---------------------------------------------------------------------


def contract_json(results: Sequence[Result]) -> list[dict[str, Any]]:
    """The results as contract JSON, each checked against the schema and serializable."""
    out = [result.to_json() for result in results]
    for document in out:
        error = best_match(VALIDATOR.iter_errors(document))
        if error is not None:
            raise AssertionError(
                f"result violates the schema at {list(error.absolute_path)}: {error.message}"
            )
        json.dumps(document)
    return out


def diagnostics_at(results: Sequence[dict[str, Any]], index: int) -> set[str]:
    """The codes of every diagnostic, in any result, that names event ``index``."""
    return {
        d["code"] for result in results for d in result["diagnostics"] if d["event_index"] == index
    }


def all_codes(results: Sequence[dict[str, Any]]) -> set[str]:
    """Every diagnostic code raised in ``results``."""
    return {d["code"] for result in results for d in result["diagnostics"]}


# -- framings -------------------------------------------------------------------------

Element = dict[str, Any] | str
"""One stream element: an event object, or the raw data text of a damaged event."""


def data_text(element: Element) -> str:
    """The compact JSON text of an event, or a damaged element's text as it is."""
    return element if isinstance(element, str) else json.dumps(element)


@dataclass(frozen=True, slots=True)
class SSEFraming:
    """How ``sse_bytes`` writes a stream: one choice per degree of freedom of SSE."""

    newline: str = "\n"
    event_line: str = "none"
    """``none``, ``before`` or ``after`` the data lines."""
    multiline: bool = False
    """Split each JSON text over several ``data:`` lines, one after each comma (with
    ``separators``, not ``indent``, which would take json's slow pure-Python encoder)."""
    space: bool = True
    """Write ``data: x`` rather than ``data:x``."""
    comments: bool = False
    fields: bool = False
    """Add ``id:`` and ``retry:`` lines (which the decoder must ignore for the data)."""
    bom: bool = False
    done: bool = False
    """End with ``data: [DONE]``."""
    final_blank: bool = True
    """Close the last block with a blank line (recordings often do not)."""


def _event_name(element: Element) -> str | None:
    kind = element.get("type") if isinstance(element, dict) else None
    return kind if isinstance(kind, str) else None


def sse_bytes(
    stream: Sequence[Element],
    framing: SSEFraming = SSEFraming(),
    event_names: dict[int, str] | None = None,
) -> bytes:
    """Frame a stream as SSE; ``event_names`` overrides the ``event:`` line per position."""
    nl = framing.newline
    prefix = "data: " if framing.space else "data:"
    blocks: list[str] = []
    for position, element in enumerate(stream):
        lines: list[str] = []
        if framing.comments:
            lines.append(f": comment {position}")
        text = (
            json.dumps(element, separators=(",\n", ": "))
            if framing.multiline and isinstance(element, dict)
            else data_text(element)
        )
        data = [prefix + line for line in text.split("\n")]
        name = (event_names or {}).get(position, _event_name(element))
        event = [f"event: {name}"] if name is not None and framing.event_line != "none" else []
        lines += event + data if framing.event_line == "before" else data + event
        if framing.fields:
            lines += [f"id: {position}", "retry: 1000"]
        blocks.append(nl.join(lines) + nl)
    if framing.done:
        blocks.append(f"data: [DONE]{nl}")
    body = nl.join(blocks)
    if blocks and framing.final_blank:
        body += nl
    return (b"\xef\xbb\xbf" if framing.bom else b"") + body.encode("utf-8", "surrogatepass")


def jsonl_bytes(stream: Sequence[Element]) -> bytes:
    """One compact event a line."""
    return "".join(data_text(e) + "\n" for e in stream).encode("utf-8", "surrogatepass")


def axonhub_bytes(stream: Sequence[Element]) -> bytes:
    """AxonHub records ``{"LastEventID","Type","Data"}``, one a line."""
    lines = [
        json.dumps({"LastEventID": str(n), "Type": _event_name(e) or "", "Data": data_text(e)})
        for n, e in enumerate(stream)
    ]
    return "".join(line + "\n" for line in lines).encode("utf-8")


def recording_bytes(stream: Sequence[Element], split: int | None = None) -> bytes:
    """An HTTP recording; ``split`` cuts the stream over two interactions at that position."""
    cut = len(stream) if split is None else split
    bodies = [stream[:cut], stream[cut:]] if split is not None else [stream]
    interactions = [
        {
            "request": {"method": "POST", "url": "https://example.invalid/v1/responses"},
            "response": {
                "status": 200,
                "headers": {"content-type": "text/event-stream"},
                "body": sse_bytes(body).decode("utf-8", "surrogatepass"),
            },
        }
        for body in bodies
    ]
    document = {"version": 1, "metadata": {}, "interactions": interactions}
    return json.dumps(document).encode("utf-8")


def json_array_bytes(stream: Sequence[dict[str, Any]]) -> bytes:
    """One JSON array of the events (a damaged text cannot sit in an array)."""
    return json.dumps(list(stream)).encode("utf-8")


def chunked(data: bytes, cuts: Sequence[int]) -> list[bytes]:
    """``data`` cut at the given offsets (taken modulo its length, sorted)."""
    if not data:
        return []
    points = sorted({c % len(data) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


# -- clean streams --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlannedItem:
    """One output item of a clean stream and the payload chunks it streams."""

    kind: str
    item_id: str
    call_id: str | None
    chunks: tuple[str, ...]

    @property
    def payload(self) -> str:
        """The payload the stream spells out."""
        return "".join(self.chunks)


@dataclass(frozen=True, slots=True)
class CleanStream:
    """A well-formed response and what its reduction must be."""

    events: tuple[dict[str, Any], ...]
    items: tuple[PlannedItem, ...]
    ending: str
    """``completed``, ``completed_empty`` (no snapshot output), ``incomplete``,
    ``failed``, or ``none`` (the input just stops)."""

    @property
    def status(self) -> str:
        """The response status the result must have."""
        return {"completed_empty": "completed", "none": "interrupted"}.get(
            self.ending, self.ending
        )

    def terminal_index(self) -> int:
        """Index of the terminal event (the event count when there is none)."""
        return len(self.events) - (0 if self.ending == "none" else 1)


RESPONSE_ID = "resp_fuzz"
"""The response id of every clean stream."""

CALL_KINDS: dict[str, tuple[str, str]] = {
    "function_call": ("function_call_arguments", "arguments"),
    "custom_tool_call": ("custom_tool_call_input", "input"),
}
"""Call item type → its payload event family and the item field it fills."""


def wire_item(plan: PlannedItem, payload: str, status: str) -> dict[str, Any]:
    """The wire item of ``plan`` carrying ``payload``."""
    item: dict[str, Any] = {"type": plan.kind, "id": plan.item_id, "status": status}
    if plan.kind in CALL_KINDS:
        item |= {"call_id": plan.call_id, "name": "tool", CALL_KINDS[plan.kind][1]: payload}
    elif plan.kind == "message":
        item |= {"role": "assistant", "content": []}
        if status == "completed":
            item["content"] = [{"type": "output_text", "text": payload, "annotations": []}]
    else:
        done = status == "completed"
        item["summary"] = [{"type": "summary_text", "text": payload}] if done else []
    return item


def item_events(plan: PlannedItem, slot: int) -> list[dict[str, Any]]:
    """The events that stream one item at ``slot``, from ``added`` to ``done``."""
    keys = {"output_index": slot, "item_id": plan.item_id}
    full = plan.payload
    events: list[dict[str, Any]] = [
        {
            "type": "response.output_item.added",
            "output_index": slot,
            "item": wire_item(plan, "", "in_progress"),
        }
    ]
    if plan.kind in CALL_KINDS:
        family, field = CALL_KINDS[plan.kind]
        events += [{"type": f"response.{family}.delta", **keys, "delta": c} for c in plan.chunks]
        events.append({"type": f"response.{family}.done", **keys, field: full})
    else:
        if plan.kind == "message":
            family, index, part_type = "output_text", {"content_index": 0}, "output_text"
            part_events = "response.content_part"
        else:
            family, index = "reasoning_summary_text", {"summary_index": 0}
            part_type = "summary_text"
            part_events = "response.reasoning_summary_part"
        extra: dict[str, Any] = {"annotations": []} if part_type == "output_text" else {}
        events.append(
            {
                "type": f"{part_events}.added",
                **keys,
                **index,
                "part": {"type": part_type, "text": "", **extra},
            }
        )
        events += [
            {"type": f"response.{family}.delta", **keys, **index, "delta": c} for c in plan.chunks
        ]
        events.append({"type": f"response.{family}.done", **keys, **index, "text": full})
        events.append(
            {
                "type": f"{part_events}.done",
                **keys,
                **index,
                "part": {"type": part_type, "text": full, **extra},
            }
        )
    events.append(
        {
            "type": "response.output_item.done",
            "output_index": slot,
            "item": wire_item(plan, full, "completed"),
        }
    )
    return events


def _interleave(sequences: list[list[dict[str, Any]]], schedule: Sequence[int]) -> list[Any]:
    """Merge the sequences, keeping each one's order; ``schedule`` picks who goes next."""
    queues = [list(reversed(s)) for s in sequences]
    out: list[dict[str, Any]] = []
    turn = 0
    while any(queues):
        live = [q for q in queues if q]
        pick = schedule[turn] if turn < len(schedule) else turn
        out.append(live[pick % len(live)].pop())
        turn += 1
    return out


_chunk_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)


@st.composite
def planned_items(draw: st.DrawFn, kind: str, number: int) -> PlannedItem:
    """One planned item; call payloads are JSON texts cut into chunks."""
    if kind == "function_call":
        value = draw(st.dictionaries(st.sampled_from("abc"), _chunk_text, max_size=3))
        keep_empty_object = draw(st.booleans())
        text = json.dumps(value) if value or keep_empty_object else ""
        cuts = draw(st.lists(st.integers(0, max(len(text), 1)), max_size=6))
        bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
        chunks = tuple(text[a:b] for a, b in itertools.pairwise(bounds))
    else:
        chunks = tuple(draw(st.lists(_chunk_text.filter(bool), max_size=5)))
    prefixes = {"function_call": "fc", "custom_tool_call": "ctc", "message": "msg"}
    prefix = prefixes.get(kind, "rs")
    call_id = f"call_{number}" if kind in CALL_KINDS else None
    return PlannedItem(kind, f"{prefix}_{number}", call_id, chunks)


@st.composite
def clean_streams(draw: st.DrawFn, max_items: int = 4) -> CleanStream:
    """A well-formed response: interleaved items, then one ending, numbered from 0."""
    kinds = draw(
        st.lists(
            st.sampled_from(["function_call", "custom_tool_call", "message", "reasoning"]),
            max_size=max_items,
        )
    )
    plans = tuple(draw(planned_items(kind, n)) for n, kind in enumerate(kinds))
    schedule = draw(st.lists(st.integers(0, max_items), max_size=40))
    body = _interleave([item_events(p, slot) for slot, p in enumerate(plans)], schedule)
    ending = draw(st.sampled_from(["completed", "completed_empty", "incomplete", "failed", "none"]))
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": RESPONSE_ID, "output": []}},
        {"type": "response.in_progress", "response": {"id": RESPONSE_ID}},
        *body,
    ]
    if ending != "none":
        output = (
            [wire_item(p, p.payload, "completed") for p in plans] if ending == "completed" else []
        )
        response = {"id": RESPONSE_ID, "status": ending.split("_")[0], "output": output}
        events.append({"type": f"response.{response['status']}", "response": response})
    numbered = tuple({**event, "sequence_number": n} for n, event in enumerate(events))
    return CleanStream(numbered, plans, ending)


def check_clean_result(stream: CleanStream, results: Sequence[dict[str, Any]]) -> None:
    """Assert the one result of a clean stream: status, every item, id and payload."""
    assert len(results) == 1
    result = results[0]
    assert result["response"] == {"id": RESPONSE_ID, "status": stream.status}
    assert [i["output_index"] for i in result["items"]] == list(range(len(stream.items)))
    for plan, got in zip(stream.items, result["items"], strict=True):
        item = got["item"]
        assert (item["type"], item["id"], got["id_source"]) == (plan.kind, plan.item_id, "wire")
        assert got["state"] == ("completed" if stream.status == "completed" else "done")
        if plan.kind in CALL_KINDS:
            assert item["call_id"] == plan.call_id
            assert item[CALL_KINDS[plan.kind][1]] == plan.payload
            assert got["executable"] is (stream.status == "completed")
        elif plan.kind == "message":
            assert [p["text"] for p in item["content"]] == [plan.payload]
        else:
            assert [p["text"] for p in item["summary"]] == [plan.payload]
    expected = {
        "completed": set() if stream.items else {"snapshot_absent"},
        "completed_empty": {"snapshot_absent"},
        "incomplete": {"response_error"},
        "failed": {"response_error"},
        "none": {"missing_terminal"},
    }[stream.ending]
    assert all_codes(results) == expected


# -- hostile events -------------------------------------------------------------------

EVENT_NAMES: tuple[str, ...] = (*WIRE_EVENTS, "response.bogus", "bogus", "", "__proto__")
"""Every known wire event name, and a few unknown ones."""

ITEM_TYPE_NAMES: tuple[str, ...] = (*ITEM_TYPES, "", "bogus_call", "__proto__")
"""Every known item type, and a few unknown ones."""

LONG_ID = "x" * 10240
"""A 10 KB id."""

ids = st.sampled_from(["fc_1", "fc_2", "call_1", "call_2", "msg_1", "", "__proto__", "long"]).map(
    lambda name: LONG_ID if name == "long" else name
)
"""A small pool of ids, so that hostile events collide with each other.  (The long one
is mapped in, so that strategy reprs stay short.)"""

FIELDS: tuple[str, ...] = (
    "output_index",
    "item_id",
    "content_index",
    "summary_index",
    "command_index",
    "sequence_number",
    "delta",
    "text",
    "arguments",
    "input",
    "code",
    "diff",
    "command",
    "refusal",
    "part",
    "item",
    "response",
    "error",
    "message",
)
"""Every event field the reducer reads."""


DEEP = 1200
"""The deepest nesting of a hostile value.  Hypothesis runs a test with ~2000 frames of
recursion headroom, so this overflows any recursion taking two Python frames per level
(``copy.deepcopy`` did) while ``json``, one level a frame, still encodes and decodes
it.  A fixed number: deriving it from the current limit made generation depend on the
stack depth (``FlakyStrategyDefinition``)."""


def _nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


_deep_lists = st.sampled_from([2, 100, DEEP]).map(_nested)


def _short_repr(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``strategy`` behind a composite: nested strategies repr in full, which here runs
    to tens of kilobytes and costs time in every example; a composite reprs as its name."""

    @st.composite
    def drawn(draw: st.DrawFn) -> Any:
        return draw(strategy)

    return drawn()


_odd_scalars: st.SearchStrategy[Any] = _short_repr(st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([-1, -(2**63), 2**20, 2**20 + 1, 2**63, 2**70, 0.5, 1.0, float("inf")]),
    st.integers(-3, 3).map(str),
    ids,
    st.text(max_size=8),
    _deep_lists,
))
hostile_values: st.SearchStrategy[Any] = _short_repr(st.recursive(
    _odd_scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from((*FIELDS, "type", "id", "call_id")), inner, max_size=4),
    max_leaves=6,
))
"""Any JSON value, biased to the shapes that trip type checks."""

_indexes = st.one_of(st.integers(0, 3), _odd_scalars)
_texts = st.one_of(st.text(max_size=8), hostile_values)


def _maybe(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` three times in four, else anything (``one_of`` would split evenly)."""
    return st.integers(0, 3).flatmap(lambda pick: hostile_values if pick == 3 else good)


_parts = _short_repr(st.fixed_dictionaries(
    {"type": _maybe(st.sampled_from(["output_text", "refusal", "summary_text", "reasoning_text"]))},
    optional={"text": _texts, "refusal": _texts, "annotations": hostile_values},
))

hostile_items = _short_repr(st.fixed_dictionaries(
    {"type": _maybe(st.sampled_from(ITEM_TYPE_NAMES))},
    optional={
        "id": _maybe(ids),
        "item_id": _maybe(ids),
        "call_id": _maybe(ids),
        "name": _texts,
        "namespace": _texts,
        "arguments": _texts,
        "input": _texts,
        "code": _texts,
        "content": _maybe(st.lists(_parts, max_size=3)),
        "summary": _maybe(st.lists(_parts, max_size=3)),
        "action": _maybe(st.fixed_dictionaries({"commands": _maybe(st.lists(_texts, max_size=2))})),
        "operation": _maybe(st.fixed_dictionaries({"diff": _texts})),
        "output_index": _indexes,
        "status": _texts,
        "metadata": _deep_lists,
    },
))
"""Output items with plausible keys and random value types."""

hostile_responses = _short_repr(st.fixed_dictionaries(
    {},
    optional={
        "id": _maybe(st.sampled_from(["resp_1", "resp_2", "", "__proto__"])),
        "output": _maybe(st.lists(_maybe(hostile_items), max_size=3)),
        "status": _texts,
        "error": hostile_values,
    },
))
"""Response objects of lifecycle events, with random value types."""

_STRUCTURAL = ("response.output_item.added", "response.output_item.done")
"""The events that admit items: drawn as often as all the others together, so that
payload events find entries to route to and items reach the result (terminal events
stay rare: everything after one is merely ``after_terminal``)."""

_event_fields = _short_repr(st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(EVENT_NAMES), st.sampled_from(_STRUCTURAL))},
    optional={
        "output_index": _indexes,
        "item_id": _maybe(ids),
        "content_index": _indexes,
        "summary_index": _indexes,
        "command_index": _indexes,
        "delta": _texts,
        "text": _texts,
        "arguments": _texts,
        "input": _texts,
        "code": _texts,
        "part": _maybe(_parts),
        "response": _maybe(hostile_responses),
        "sequence_number": _maybe(st.integers(-2, 40)),
    },
))


@st.composite
def _with_item(draw: st.DrawFn, event: dict[str, Any]) -> dict[str, Any]:
    # Nine events in ten carry an item: it is ignored where it does not belong, and
    # an item event without one is only a missing field.
    if draw(st.integers(0, 9)):
        event["item"] = draw(_maybe(hostile_items))
    return event


hostile_events = _event_fields.flatmap(_with_item)
"""Events named from the catalogue, every field of a random (often wrong) type."""



_ASCII_SPACE = " \t\n\r\x0b\x0c"
"""What ``bytes.strip`` removes."""


def damaged_texts() -> st.SearchStrategy[str]:
    """Data texts that are not an event: bad JSON, a non-object, an object with no type.

    Each is one line, non-blank, without surrounding ASCII whitespace (JSONL strips
    it), and does not start with ``[DONE]`` or ``data:``, so every framing turns it
    into exactly one problem event with the same text.
    """
    garbage = st.text(
        alphabet=st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30
    ).map(lambda s: "~" + s)
    truncated = st.tuples(hostile_events, st.integers(1)).map(_truncated)
    non_objects = st.sampled_from(["[1, 2]", "42", '"text"', "null", "true", "[]"])
    untyped = st.dictionaries(st.sampled_from(FIELDS), hostile_values, max_size=3).map(json.dumps)
    wrong_type = hostile_values.filter(lambda v: not isinstance(v, str)).map(
        lambda v: json.dumps({"type": v})
    )
    return st.one_of(garbage, truncated, non_objects, untyped, wrong_type).filter(
        lambda s: s and s == s.strip(_ASCII_SPACE) and not s.startswith(("[DONE]", "data:"))
        and not _is_event(s)
    )


def _truncated(pair: tuple[dict[str, Any], int]) -> str:
    text = json.dumps(pair[0])
    return text[: 1 + pair[1] % (len(text) - 1)]


def _is_event(text: str) -> bool:
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) and isinstance(value.get("type"), str)


def expected_problem(text: str) -> str:
    """The diagnostic code a damaged data text must raise."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return "malformed_event"
    return "not_an_object" if not isinstance(value, dict) else "missing_type"


@st.composite
def mutations(draw: st.DrawFn) -> list[tuple[str, int, bytes]]:
    """A short list of byte edits: ``(op, position, bytes)``, applied by ``mutate``."""
    edit = st.tuples(
        st.sampled_from(["flip", "insert", "delete", "truncate"]),
        st.integers(0, 1 << 16),
        st.binary(min_size=1, max_size=4)
        | st.sampled_from([b"\n", b"\r", b"\r\n", b"\n\n", b":", b"\xff", b"\xc3", b"{", b'"']),
    )
    return draw(st.lists(edit, min_size=1, max_size=4))


def mutate(data: bytes, edits: Sequence[tuple[str, int, bytes]]) -> bytes:
    """Apply byte edits to ``data`` (positions taken modulo its length)."""
    buffer = bytearray(data)
    for op, position, payload in edits:
        at = position % (len(buffer) + 1)
        if op == "flip" and at < len(buffer):
            buffer[at] ^= payload[0] or 0x20
        elif op == "insert":
            buffer[at:at] = payload
        elif op == "delete":
            del buffer[at : at + len(payload)]
        elif op == "truncate":
            del buffer[at:]
    return bytes(buffer)


@st.composite
def sse_framings(draw: st.DrawFn) -> SSEFraming:
    """Any SSE framing the decoder must accept (event names match the types)."""
    return SSEFraming(
        newline=draw(st.sampled_from(["\n", "\r", "\r\n"])),
        event_line=draw(st.sampled_from(["none", "before", "after"])),
        multiline=draw(st.booleans()),
        space=draw(st.booleans()),
        comments=draw(st.booleans()),
        fields=draw(st.booleans()),
        bom=draw(st.booleans()),
        done=draw(st.booleans()),
        final_blank=draw(st.booleans()),
    )
