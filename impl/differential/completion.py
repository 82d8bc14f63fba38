"""Complete provider streams from the rule tests' minimal ones: a base with declared
deviations, for the vectors that score other programs.

A rule test's stream carries only the fields and events its rule needs: a
``response.created`` without ``created_at`` or ``model``, a call done with no
``output_item.added`` before it, a terminal with ``output: []``.  A strict parser (the
AI SDK's provider, openai-python's accumulator) rejects such a stream before the rule
is tested, so a vector that scores another program is the stream a provider sends --
every event and field -- with exactly the gaps that are its point left in, each one
declared.

Rules
-----
1. **Fill every gap a provider never leaves.**  ``GAPS`` lists the events a minimal
   stream may lack, each with the fill that sends it as the API does: a
   ``response.in_progress`` after ``response.created``; an ``output_item.added`` before
   an item first seen done; a call's argument ``delta`` and ``arguments.done`` when only
   its done item carried them; an ``arguments.done`` after its deltas; the terminal's
   ``output`` when it came empty.  Then every field of the stream shape
   (``serve.present``: ``created_at``, ``model``, ``status``, ``usage``, ...).
2. **Except a gap that is the point.**  A fill is kept only when the oracle's answer
   keeps what the vector tests (``keeps``): the same items (identity, payloads,
   ``executable``, ``output_index``, ``state``, ``id_source``; minted ids alpha-renamed),
   the same warnings and errors, and every note of the vector's own rules.  A fill that
   changes any of them closes the gap the vector is about: the gap stays, declared as
   a deviation (``{"name", "what"}``; a field left absent also names its ``absent``
   path, as ``serve.present.Deviation`` reads it).
3. **The answer is the oracle's on the stream served.**  ``expected`` is always
   recomputed on the completed stream; completing never edits a value the stream
   holds, only adds what is missing.

A fill that inserts events numbers the stream again (``sequence_number``) the way the
minimal stream was numbered (from 0 per response, or counting on); a stream whose
numbering has a gap, a repeat or a hole keeps it, and a fill that would break it is
refused by rule 2.

>>> events = [
...     {"type": "response.created", "response": {"id": "resp_1", "output": []},
...      "sequence_number": 0},
...     {"type": "response.output_item.done", "output_index": 0, "sequence_number": 1,
...      "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1",
...               "name": "f", "arguments": "{}"}},
...     {"type": "response.completed", "sequence_number": 2,
...      "response": {"id": "resp_1", "status": "completed", "output": []}}]
>>> done = complete(events, ("R7",))
>>> [e["type"].removeprefix("response.") for e in done.events]  # doctest: +NORMALIZE_WHITESPACE
['created', 'in_progress', 'output_item.added', 'function_call_arguments.delta',
 'function_call_arguments.done', 'output_item.done', 'completed']
>>> [d["name"] for d in done.deviations]
[]
>>> complete(events, ("R6",)).deviations[0]["name"]   # done-only is R6's point
'done_only_item'
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from responses_oracle.model.rules import CODE_RULES
from responses_oracle.serve.present import Deviation, Presentation, present
from responses_oracle.serve.shapes import shape_problems

from .compare import compare
from .oracle_trace import oracle_json

Event = dict[str, Any]

REQUEST: Final[Mapping[str, Any]] = {"model": "gpt-5.1-2025-11-13"}
"""The request every completed vector answers: the model its responses name."""

CREATED_AT: Final = 1763038908
"""The ``created_at`` of every completed response: a fixed clock, so an export is the
same byte for byte."""

TERMINALS: Final = frozenset(
    {"response.completed", "response.incomplete", "response.failed", "response.cancelled"}
)
"""The events that end a response and carry its snapshot."""

PAYLOAD_OF: Final[Mapping[str, tuple[str, str]]] = {
    "function_call": ("arguments", "response.function_call_arguments"),
    "custom_tool_call": ("input", "response.custom_tool_call_input"),
}
"""A call type → its payload field and the prefix of its ``.delta``/``.done`` events."""

BLANK_WHEN_ADDED: Final[Mapping[str, Mapping[str, Any]]] = {
    "function_call": {"arguments": ""},
    "custom_tool_call": {"input": ""},
    "mcp_call": {"arguments": ""},
    "message": {"content": []},
    "reasoning": {"summary": []},
}
"""What an item holds when the API announces it (``output_item.added``): its payload
still empty.  An item type not listed here is never announced by a fill."""

_INDEX: Final = re.compile(r"\[\d+\]")


# -- the fills: each sends one kind of event a provider never leaves out -----------------


def _responses(events: Sequence[Event]) -> list[list[int]]:
    """The indexes of each response's events (a ``response.created`` starts one)."""
    spans: list[list[int]] = [[]]
    for index, event in enumerate(events):
        if event.get("type") == "response.created" and spans[-1]:
            spans.append([])
        spans[-1].append(index)
    return [span for span in spans if span]


def _item_key(event: Mapping[str, Any]) -> Any:
    """What names an event's item: its id (``item.id``, ``item_id``), else its slot."""
    item = event.get("item")
    if isinstance(item, Mapping) and isinstance(item.get("id"), str):
        return item["id"]
    if isinstance(event.get("item_id"), str):
        return event["item_id"]
    slot = event.get("output_index")
    return ("slot", slot) if isinstance(slot, int) else None


def _is(event: Mapping[str, Any], kind: str) -> bool:
    return event.get("type") == kind


def _fill_in_progress(events: list[Event]) -> list[Event]:
    out: list[Event] = []
    for number, event in enumerate(events):
        out.append(event)
        following = events[number + 1] if number + 1 < len(events) else {}
        if (_is(event, "response.created") and isinstance(event.get("response"), dict)
                and not _is(following, "response.in_progress")):
            out.append({"type": "response.in_progress",
                        "response": copy.deepcopy(event["response"])})
    return out


def _fill_added(events: list[Event]) -> list[Event]:
    inserts: dict[int, Event] = {}
    for span in _responses(events):
        announced = {_item_key(events[i]) for i in span
                     if _is(events[i], "response.output_item.added")}
        for index in span:
            event = events[index]
            item = event.get("item")
            if not (_is(event, "response.output_item.done") and isinstance(item, dict)):
                continue
            blank = BLANK_WHEN_ADDED.get(str(item.get("type")))
            key = _item_key(event)
            if blank is None or key is None or key in announced:
                continue
            announced.add(key)
            first = next(i for i in span if i <= index and _item_key(events[i]) == key
                         and not _is(events[i], "response.created"))
            added = {**copy.deepcopy(item), **copy.deepcopy(dict(blank)),
                     "status": "in_progress"}
            inserts[first] = {"type": "response.output_item.added",
                              **({"output_index": event["output_index"]}
                                 if "output_index" in event else {}),
                              "item": added}
    return _insert_before(events, inserts)


def _payload_events(events: list[Event], span: list[int], key: Any, prefix: str) -> list[Event]:
    return [events[i] for i in span
            if str(events[i].get("type", "")).startswith(prefix + ".")
            and _item_key(events[i]) == key]


def _scope(done: Mapping[str, Any]) -> dict[str, Any]:
    """The ``item_id`` and ``output_index`` of a payload event of ``done``'s item."""
    item = done["item"]
    return {**({"item_id": item["id"]} if isinstance(item.get("id"), str) else {}),
            **({"output_index": done["output_index"]} if "output_index" in done else {})}


def _fill_payload_events(events: list[Event]) -> list[Event]:
    inserts: dict[int, list[Event]] = {}
    for span in _responses(events):
        for index in span:
            event = events[index]
            item = event.get("item")
            if not (_is(event, "response.output_item.done") and isinstance(item, dict)):
                continue
            field, prefix = PAYLOAD_OF.get(str(item.get("type")), ("", ""))
            value = item.get(field)
            if not prefix or not isinstance(value, str) or not value:
                continue
            if _payload_events(events, span, _item_key(event), prefix):
                continue
            scope = _scope(event)
            inserts[index] = [{"type": f"{prefix}.delta", **scope, "delta": value},
                              {"type": f"{prefix}.done", **scope, field: value}]
    return _insert_lists(events, inserts)


def _fill_payload_done(events: list[Event]) -> list[Event]:
    inserts: dict[int, list[Event]] = {}
    for span in _responses(events):
        for index in span:
            event = events[index]
            item = event.get("item")
            if not (_is(event, "response.output_item.done") and isinstance(item, dict)):
                continue
            field, prefix = PAYLOAD_OF.get(str(item.get("type")), ("", ""))
            sent = _payload_events(events, span, _item_key(event), prefix) if prefix else []
            deltas = [e.get("delta") for e in sent if _is(e, f"{prefix}.delta")]
            if not deltas or len(deltas) != len(sent) or not all(
                    isinstance(d, str) for d in deltas):
                continue
            inserts[index] = [{"type": f"{prefix}.done", **_scope(event),
                               field: "".join(str(d) for d in deltas)}]
    return _insert_lists(events, inserts)


def _fill_terminal_output(events: list[Event]) -> list[Event]:
    out = copy.deepcopy(events)
    for span in _responses(out):
        done = sorted(
            ((out[i].get("output_index", 1 << 30), n, out[i]["item"])
             for n, i in enumerate(span)
             if _is(out[i], "response.output_item.done") and isinstance(out[i].get("item"), dict)),
            key=lambda found: (found[0] if isinstance(found[0], int) else 1 << 30, found[1]),
        )
        for index in span:
            response = out[index].get("response")
            if (out[index].get("type") in TERMINALS and isinstance(response, dict)
                    and not response.get("output") and done):
                response["output"] = [copy.deepcopy(item) for _, _, item in done]
    return out


def _insert_before(events: list[Event], inserts: Mapping[int, Event]) -> list[Event]:
    return _insert_lists(events, {index: [event] for index, event in inserts.items()})


def _insert_lists(events: list[Event], inserts: Mapping[int, list[Event]]) -> list[Event]:
    out: list[Event] = []
    for index, event in enumerate(events):
        out += inserts.get(index, [])
        out.append(event)
    return out


@dataclass(frozen=True)
class Gap:
    """An event a minimal stream may lack and every provider sends: its name, what a
    stream that keeps it shows, and the fill that sends it."""

    name: str
    what: str
    fill: Callable[[list[Event]], list[Event]]


GAPS: Final[tuple[Gap, ...]] = (
    Gap("no_in_progress", "no `response.in_progress` after `response.created`",
        _fill_in_progress),
    Gap("done_only_item", "an item first seen done: no `output_item.added` announces it",
        _fill_added),
    Gap("payload_only_in_done_item",
        "a call's payload only in its done item: no delta and no `.done` event carry it",
        _fill_payload_events),
    Gap("no_payload_done", "a call's payload deltas with no `.done` event closing them",
        _fill_payload_done),
    Gap("terminal_output_empty",
        "the terminal's `output` is empty (or absent) after items were streamed",
        _fill_terminal_output),
)
"""The event gaps, filled in this order (an added item before its payload events)."""


# -- numbering ---------------------------------------------------------------------------


def _numbering(events: Sequence[Event]) -> tuple[int, bool] | None:
    """How a body is numbered, when every event is and each number follows the one
    before: the first number, and whether each ``response.created`` starts again at 0
    (OpenAI numbers each response from 0; a relay may count on).  None otherwise."""
    numbers = [event.get("sequence_number") for event in events]
    if not numbers or not all(type(n) is int for n in numbers):
        return None
    restarts = any(_is(e, "response.created") for e in events[1:]) and all(
        n == 0 for e, n in zip(events[1:], numbers[1:], strict=True)
        if _is(e, "response.created"))
    style = (int(numbers[0]), restarts)  # type: ignore[arg-type]
    return style if _renumber(events, style) == list(events) else None


def _renumber(events: Sequence[Event], style: tuple[int, bool]) -> list[Event]:
    """``events`` numbered in ``style`` (``_numbering``)."""
    first, restarts = style
    out: list[Event] = []
    for event in events:
        if not out:
            number = first
        elif restarts and _is(event, "response.created"):
            number = 0
        else:
            number = out[-1]["sequence_number"] + 1
        out.append({**event, "sequence_number": number})
    return out


# -- what a vector tests ---------------------------------------------------------------


def _entries(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [e for e in result.get("items") or [] if isinstance(e, Mapping)]


def _codes(result: Mapping[str, Any], rules: frozenset[str]) -> tuple[set[str], set[str]]:
    """A result's warnings and errors, and its notes of ``rules``."""
    loud, noted = set(), set()
    by_name = {code.value: rule for code, rule in CODE_RULES.items()}
    for diagnostic in result.get("diagnostics") or []:
        code = str(diagnostic.get("code"))
        if diagnostic.get("severity") in ("error", "warning"):
            loud.add(code)
        elif by_name.get(code) in rules:
            noted.add(code)
    return loud, noted


def keeps(
    point: Sequence[Mapping[str, Any]], events: Sequence[Event], rules: Sequence[str]
) -> bool:
    """Whether the oracle's answer on ``events`` keeps what ``point`` (its answer on the
    minimal stream) tests: the same items, the same warnings and errors, and every note
    of ``rules`` (rule 2)."""
    answer = oracle_json(events)
    if compare(events, point, answer) or len(answer) != len(point):
        return False
    own = frozenset(rules)
    for before, after in zip(point, answer, strict=True):
        pairs = zip(_entries(before), _entries(after), strict=False)
        if any(a.get(k) != b.get(k) for a, b in pairs for k in ("state", "id_source")):
            return False
        (loud_before, noted_before), (loud_after, noted_after) = (
            _codes(before, own), _codes(after, own))
        if loud_before != loud_after or not noted_before <= noted_after:
            return False
    return True


# -- completing a stream -----------------------------------------------------------------


@dataclass(frozen=True)
class Completed:
    """A minimal stream completed: the stream served and its declared deviations."""

    events: tuple[Event, ...]
    deviations: tuple[dict[str, Any], ...]

    @property
    def presentation(self) -> Presentation:
        """The deviations as ``serve.present`` reads them (the fields left absent)."""
        return Presentation(tuple(Deviation.from_dict(d) for d in self.deviations))


def _absent(event: str, path: str) -> str:
    return f"{event} {_INDEX.sub('[]', path)}"


def _dated(events: Sequence[Event]) -> list[Event]:
    """``events`` with a ``created_at`` in every response object that lacks one (the
    fixed clock: ``present`` would read the wall clock)."""
    out = copy.deepcopy(list(events))
    for event in out:
        response = event.get("response")
        if isinstance(response, dict):
            response.setdefault("created_at", CREATED_AT)
    return out


def _presented(events: Sequence[Event], absent: set[str]) -> list[Event]:
    declared = (Deviation("fields", tuple(sorted(absent))),) if absent else ()
    return present(_dated(events), REQUEST, Presentation(declared))


def _field_deviation(path: str) -> dict[str, Any]:
    event, _, where = path.partition(" ")
    return {"name": "field_absent", "what": f"`{event}` without `{where}`",
            "absent": [path]}


EVERY_RULE: Final = tuple(sorted(set(CODE_RULES.values())))
"""Every rule a note can belong to: a generated case's point is all of its notes."""


def complete(
    events: Sequence[Event], rules: Sequence[str], gaps: Sequence[Gap] = GAPS
) -> Completed:
    """The stream a provider sends with ``events``' point left in (rules 1-2), and the
    gaps kept, declared.  ``gaps``: the event gaps to fill (none for a generated case,
    whose events are its point: its labels say how it was made)."""
    point = oracle_json(events)
    current = copy.deepcopy(list(events))
    style = _numbering(current)
    declared: list[dict[str, Any]] = []
    for gap in gaps:
        filled = gap.fill(current)
        if style is not None:
            filled = _renumber(filled, style)
        if filled == current:
            continue
        if keeps(point, filled, rules):
            current = filled
        else:
            declared.append({"name": gap.name, "what": gap.what})
    problems = {_absent(p.event, p.path) for e in current for p in shape_problems(e)} | {
        f"{e.get('type')} sequence_number" for e in current if "sequence_number" not in e}
    absent = set() if keeps(point, _presented(current, set()), rules) else set(problems)
    for path in sorted(absent):
        if keeps(point, _presented(current, absent - {path}), rules):
            absent.discard(path)
    served = _presented(current, absent)
    absent |= {_absent(p.event, p.path) for e in served for p in shape_problems(e)}
    declared += [_field_deviation(path) for path in sorted(absent)]
    return Completed(tuple(served), tuple(declared))
