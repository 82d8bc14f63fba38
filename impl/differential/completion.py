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
   ``response.created`` first, a ``response.in_progress`` after it; an
   ``output_item.added`` before an item first seen done; a call's argument ``delta``
   and ``arguments.done`` when only its done item carried them; an ``arguments.done``
   after its deltas; the done item of a call added and never done; the terminal; the
   terminal's ``output`` when it came empty.  Then every field of the stream shape
   (``serve.present``: ``created_at``, ``model``, ``status``, ``usage``, ...).
2. **Except a gap that is the point.**  A fill is kept only when the oracle's answer
   keeps what the vector tests (``keeps``): the same items (identity, payloads,
   ``output_index``, ``id_source``; minted ids alpha-renamed; ``executable`` for a
   vector of R9, ``state`` for one of R8), the same warnings and errors (but the codes
   the filled deviation itself causes, ``model.deviations``, when they are of no rule
   of the vector), and every note of the vector's own rules (a counterexample's: the
   rules its answer exercises).  A fill that changes any of them closes the gap the
   vector is about: the gap stays, declared as a deviation: ``{"name", "what"}``,
   named as the deviation catalogue names it (``model.deviations``, with its
   evidence), or ``field-absent`` with the ``absent`` path of the field left out, as
   ``serve.present.Deviation`` reads it.  The values
   the stream holds that a provider following the API would not send (a rotated id,
   empty done arguments) are declared too, each change the canonicalizer makes to the
   stream served, in its words (``repaired``).
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
'done-only'
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from responses_oracle.canonicalizer import Canonicalizer
from responses_oracle.model.catalogue import TERMINALS as TERMINAL_OF
from responses_oracle.model.catalogue import WIRE_EVENTS, Terminal
from responses_oracle.model.deviations import DEVIATIONS, DeviationSpec
from responses_oracle.model.rules import CODE_RULES, rules_of_codes
from responses_oracle.serve.present import Deviation, Presentation, present
from responses_oracle.serve.shapes import shape_problems

from .compare import Aspect, compare
from .oracle_trace import oracle_json

Event = dict[str, Any]

REQUEST: Final[Mapping[str, Any]] = {"model": "gpt-5.1-2025-11-13"}
"""The request every completed vector answers: the model its responses name."""

CREATED_AT: Final = 1763038908
"""The ``created_at`` of every completed response: a fixed clock, so an export is the
same byte for byte."""

TERMINALS: Final = frozenset(
    name for name, spec in WIRE_EVENTS.items()
    if TERMINAL_OF.get(spec.event_class, Terminal.ERROR) is not Terminal.ERROR
)
"""The events that end a response and carry its snapshot (the catalogue's terminals
but ``error``, which carries none)."""

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
    """A ``response.in_progress`` (the opening response again) after each
    ``response.created`` that has none."""
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
    """An ``output_item.added`` (the item with its payload still empty, ``in_progress``)
    before the first event of each item first seen done."""
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


def _payload_events(events: list[Event], span: list[int], of: Event, prefix: str) -> list[Event]:
    """The payload events (``prefix``) of the item ``of`` (an event carrying it) names:
    by its id, or by its slot when they name no item."""
    key, slot = _item_key(of), of.get("output_index")
    return [events[i] for i in span
            if str(events[i].get("type", "")).startswith(prefix + ".")
            and (_item_key(events[i]) == key
                 or ("item_id" not in events[i] and events[i].get("output_index") == slot))]


def _scope(done: Mapping[str, Any]) -> dict[str, Any]:
    """The ``item_id`` and ``output_index`` of a payload event of ``done``'s item."""
    item = done["item"]
    return {**({"item_id": item["id"]} if isinstance(item.get("id"), str) else {}),
            **({"output_index": done["output_index"]} if "output_index" in done else {})}


def _payload_done_items(
    events: list[Event],
) -> Iterator[tuple[int, list[int], Event, dict[str, Any], str, str]]:
    """Each done item of an item with a streamed payload (``PAYLOAD_OF``), in order:
    its event's index, its response's span, the event, the item, the payload field and
    the payload events' type prefix."""
    for span in _responses(events):
        for index in span:
            event = events[index]
            item = event.get("item")
            if not (_is(event, "response.output_item.done") and isinstance(item, dict)):
                continue
            field, prefix = PAYLOAD_OF.get(str(item.get("type")), ("", ""))
            if prefix:
                yield index, span, event, item, field, prefix


def _fill_payload_events(events: list[Event]) -> list[Event]:
    """One delta and the ``.done`` of a call's payload, before its done item, when no
    payload event came for it."""
    inserts: dict[int, list[Event]] = {}
    for index, span, event, item, field, prefix in _payload_done_items(events):
        value = item.get(field)
        if not isinstance(value, str) or not value:
            continue
        if _payload_events(events, span, event, prefix):
            continue
        scope = _scope(event)
        inserts[index] = [{"type": f"{prefix}.delta", **scope, "delta": value},
                          {"type": f"{prefix}.done", **scope, field: value}]
    return _insert_lists(events, inserts)


def _fill_payload_done(events: list[Event]) -> list[Event]:
    """The ``.done`` of a call's payload (its deltas joined), before its done item,
    when only deltas came."""
    inserts: dict[int, list[Event]] = {}
    for index, span, event, _, field, prefix in _payload_done_items(events):
        sent = _payload_events(events, span, event, prefix)
        deltas = [e.get("delta") for e in sent if _is(e, f"{prefix}.delta")]
        if not deltas or len(deltas) != len(sent) or not all(
                isinstance(d, str) for d in deltas):
            continue
        inserts[index] = [{"type": f"{prefix}.done", **_scope(event),
                           field: "".join(str(d) for d in deltas)}]
    return _insert_lists(events, inserts)


def _fill_unconfirmed(events: list[Event]) -> list[Event]:
    """The ``.done`` and done item of each call added and never done, before its
    response's terminal, with the payload streamed."""
    inserts: dict[int, list[Event]] = {}
    for span in _responses(events):
        terminal = next((i for i in span if events[i].get("type") in TERMINALS), None)
        if terminal is None:
            continue
        finished = [events[i] for i in span if _is(events[i], "response.output_item.done")]
        done = {_item_key(e) for e in finished} | {e.get("output_index") for e in finished}
        for index in span:
            event = events[index]
            item = event.get("item")
            if not (_is(event, "response.output_item.added") and isinstance(item, dict)
                    and index < terminal and _item_key(event) not in done
                    and event.get("output_index") not in done):
                continue
            field, prefix = PAYLOAD_OF.get(str(item.get("type")), ("", ""))
            if not prefix:
                continue
            sent = _payload_events(events, span, event, prefix)
            closed = [e.get(field) for e in sent if _is(e, f"{prefix}.done")]
            deltas = "".join(str(e.get("delta", "")) for e in sent if _is(e, f"{prefix}.delta"))
            value = closed[-1] if closed and isinstance(closed[-1], str) and closed[-1] else deltas
            closing = {"type": "response.output_item.done",
                       **({"output_index": event["output_index"]}
                          if "output_index" in event else {}),
                       "item": {**copy.deepcopy(item), field: value, "status": "completed"}}
            inserts.setdefault(terminal, []).extend([
                *([] if closed else [{"type": f"{prefix}.done", **_scope(closing),
                                      field: value}]),
                closing,
            ])
    return _insert_lists(events, inserts)


def _fill_terminal(events: list[Event]) -> list[Event]:
    """A ``response.completed`` (the opening response, its done items as output) at the
    end of each response that has no terminal."""
    out: list[Event] = []
    for span in _responses(events):
        mine = [events[i] for i in span]
        out += mine
        opening = mine[0].get("response") if _is(mine[0], "response.created") else None
        if not isinstance(opening, dict) or any(e.get("type") in TERMINALS for e in mine):
            continue
        done = [e["item"] for e in mine
                if _is(e, "response.output_item.done") and isinstance(e.get("item"), dict)]
        out.append({"type": "response.completed",
                    "response": {**copy.deepcopy(opening), "status": "completed",
                                 "output": copy.deepcopy(done)}})
    return out


def _fill_created(events: list[Event]) -> list[Event]:
    """A ``response.created`` before events that came before any."""
    if not events or _is(events[0], "response.created"):
        return events
    named: dict[str, Any] = next(
        (e["response"] for e in events if isinstance(e.get("response"), dict)), {})
    opening = {"id": named.get("id", "resp_vector"), "status": "in_progress", "output": []}
    return [{"type": "response.created", "response": opening}, *events]


def _terminal_output(events: list[Event], empty: bool) -> list[Event]:
    """The terminals' ``output`` filled with their response's done items, in slot order,
    where it came as ``[]`` (``empty``) or not at all."""
    out = copy.deepcopy(events)
    for span in _responses(out):
        done = sorted(
            ((out[i].get("output_index"), n, out[i]["item"])
             for n, i in enumerate(span)
             if _is(out[i], "response.output_item.done") and isinstance(out[i].get("item"), dict)),
            key=lambda found: (found[0] if isinstance(found[0], int) else 1 << 30, found[1]),
        )
        for index in span:
            response = out[index].get("response")
            if not (out[index].get("type") in TERMINALS and isinstance(response, dict) and done):
                continue
            lacking = response.get("output") == [] if empty else "output" not in response
            if lacking:
                response["output"] = [copy.deepcopy(item) for _, _, item in done]
    return out


def _fill_empty_output(events: list[Event]) -> list[Event]:
    return _terminal_output(events, empty=True)


def _fill_absent_output(events: list[Event]) -> list[Event]:
    return _terminal_output(events, empty=False)


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
    """An event a minimal stream may lack and every provider sends: the deviations of
    the catalogue (``model.deviations.DEVIATIONS``) a stream that keeps it has, and the
    fill that sends it."""

    deviations: tuple[str, ...]
    fill: Callable[[list[Event]], list[Event]]

    @property
    def closes(self) -> frozenset[str]:
        """The diagnostic codes filling it may take away: its deviations' codes."""
        return frozenset(code.value for name in self.deviations if name in DEVIATIONS
                         for code in DEVIATIONS[name].codes)


NO_IN_PROGRESS: Final = "no-in-progress"
"""A gap the catalogue does not name: OpenAI itself sends some streams without
``response.in_progress``, so it is no deviation of a scenario; it is filled where the
oracle's answer allows, and named so where it does not."""

NO_RESPONSE_CREATED: Final = "no-response-created"
"""A gap the catalogue does not name: events before any ``response.created`` (a rule
test's point, R9; no provider is shown to send it)."""

OWN: Final[Mapping[str, DeviationSpec]] = {
    NO_IN_PROGRESS: DeviationSpec(
        "no `response.in_progress` after `response.created`",
        ("fixtures/captures/vercel-ai/openai__openai-custom-text-tool.1.jsonl",), "OpenAI"),
    NO_RESPONSE_CREATED: DeviationSpec(
        "events come before any `response.created`", ("tests/core/test_rules.py",), ""),
}
"""The gaps the catalogue does not name, as its entries are: what each is, its
evidence, and who is shown to send it (none: a vector that keeps it is a robustness
row)."""

CATALOGUE: Final[Mapping[str, DeviationSpec]] = {**DEVIATIONS, **OWN}
"""Every gap a completed vector may declare by name: the deviation catalogue's and
``OWN``."""

GAPS: Final[tuple[Gap, ...]] = (
    Gap((NO_RESPONSE_CREATED,), _fill_created),
    Gap((NO_IN_PROGRESS,), _fill_in_progress),
    Gap(("done-only",), _fill_added),
    Gap(("no-argument-deltas", "no-arguments-done"), _fill_payload_events),
    Gap(("no-arguments-done",), _fill_payload_done),
    Gap(("unconfirmed-call",), _fill_unconfirmed),
    Gap(("cut-before-terminal",), _fill_terminal),
    Gap(("empty-terminal-output",), _fill_empty_output),
    Gap(("no-terminal-output",), _fill_absent_output),
)
"""The event gaps, filled in this order: the opening, an added item before its payload
events, an item's done before the terminal, a terminal before its output."""


def what(name: str) -> str:
    """What a declared deviation is: the catalogue's words, or ``OWN``'s."""
    return CATALOGUE[name].what


# -- numbering ---------------------------------------------------------------------------


def numbering(events: Sequence[Event]) -> tuple[int, bool] | None:
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
    """``events`` numbered in ``style`` (``numbering``)."""
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


def exercised_rules(expected: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The rules a stream exercises, read off the oracle's answer.

    The rules behind its diagnostic codes, plus: R6 when it admits items, R7 when a
    payload was reconciled, R10 when several items are ordered, R9 always (every
    stream ends one way or another).
    """
    codes = [d["code"] for r in expected for d in r.get("diagnostics", [])]
    rules = set(rules_of_codes(codes)) | {"R9"}
    items = [item for r in expected for item in r.get("items", [])]
    if items:
        rules.add("R6")
    if any(item.get("payload_source") not in (None, "none") for item in items):
        rules.add("R7")
    if any(len(r.get("items", [])) > 1 for r in expected):
        rules.add("R10")
    return tuple(sorted(rules, key=lambda rule: int(rule[1:])))



def _entries(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [e for e in result.get("items") or [] if isinstance(e, Mapping)]


def _codes(result: Mapping[str, Any], rules: frozenset[str]) -> tuple[set[str], set[str]]:
    """A result's warnings and errors, and its notes of ``rules``."""
    loud, noted = set(), set()
    for diagnostic in result.get("diagnostics") or []:
        code = str(diagnostic.get("code"))
        if diagnostic.get("severity") in ("error", "warning"):
            loud.add(code)
        elif _RULE_OF.get(code) in rules:
            noted.add(code)
    return loud, noted


_RULE_OF: Final = {code.value: rule for code, rule in CODE_RULES.items()}
"""A diagnostic code's name → the rule that raises it."""

SUBJECT_OF: Final[Mapping[str, str]] = {"executable": "R9", "state": "R8"}
"""Entry fields that are one rule's subject: compared only for a vector of that rule
(a call that a cut stream leaves unconfirmed is R9's point, not R5's)."""


def keeps(
    point: Sequence[Mapping[str, Any]],
    events: Sequence[Event],
    rules: Sequence[str],
    closes: frozenset[str] = frozenset(),
) -> bool:
    """Whether the oracle's answer on ``events`` keeps what ``point`` (its answer on the
    minimal stream) tests (rule 2): the same items -- ``executable`` and ``state`` only
    for a vector of their rule (``SUBJECT_OF``) -- the same warnings and errors but
    those of ``closes`` (the codes of the gap filled) that are of no rule of the
    vector, and every note of ``rules``."""
    own = frozenset(rules)
    answer = oracle_json(events)
    skipped = {Aspect.EXECUTABLE} if SUBJECT_OF["executable"] not in own else set()
    if len(answer) != len(point) or any(
            d.aspect not in skipped for d in compare(events, point, answer)):
        return False
    fields = ["id_source", *(k for k, rule in SUBJECT_OF.items() if rule in own)]
    vanish = {code for code in closes if _RULE_OF.get(code) not in own}
    for before, after in zip(point, answer, strict=True):
        pairs = zip(_entries(before), _entries(after), strict=False)
        if any(a.get(k) != b.get(k) for a, b in pairs for k in fields):
            return False
        (loud_before, noted_before), (loud_after, noted_after) = (
            _codes(before, own), _codes(after, own))
        if loud_before - vanish != loud_after or not noted_before <= noted_after:
            return False
    return True


# -- completing a stream -----------------------------------------------------------------


@dataclass(frozen=True)
class Completed:
    """A minimal stream completed: the stream served and its declared deviations."""

    events: tuple[Event, ...]
    deviations: tuple[dict[str, Any], ...]
    closed: frozenset[str] = frozenset()
    """The diagnostic codes the fills took away (their deviations' codes)."""

    @property
    def presentation(self) -> Presentation:
        """The deviations as ``serve.present`` reads them (the fields left absent)."""
        return presentation(self.deviations)


def presentation(deviations: Sequence[Mapping[str, Any]]) -> Presentation:
    """A vector's declared deviations as ``serve.present`` reads them: each one's
    ``what`` and the fields it leaves ``absent``."""
    return Presentation(tuple(
        Deviation(str(d["what"]), tuple(str(a) for a in d.get("absent", ())))
        for d in deviations))


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


FIELD_ABSENT: Final = "field-absent"
"""The name of a declared deviation that leaves one field of the shape out."""

REPAIRED: Final = "repaired"
"""The name of a declared deviation that is a value, not a gap: what the canonicalizer
changes in the stream served (a rotated id restored, empty arguments filled), in its
words."""


def repaired(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The values of ``events`` the canonicalizer changes (``Canonicalizer.repairs``),
    one declared deviation each, in its words."""
    canonicalizer = Canonicalizer()
    for event in events:
        canonicalizer.feed(event)
    canonicalizer.close()
    return [{"name": REPAIRED, "what": change}
            for response in canonicalizer.repairs for change in response["changes"]]


def _field_deviation(path: str) -> dict[str, Any]:
    event, _, where = path.partition(" ")
    return {"name": FIELD_ABSENT, "what": f"`{event}` without `{where}`", "absent": [path]}


EVERY_RULE: Final = tuple(sorted(set(CODE_RULES.values())))
"""Every rule a note can belong to: a generated case's point is all of its notes."""


PASSES: Final = 3
"""How often the events and then the fields are filled at most: a field filled can let
an event be filled that was refused before (an id an added item needs)."""


def _fill_events(
    point: Sequence[Mapping[str, Any]], events: list[Event], rules: Sequence[str],
    gaps: Sequence[Gap], style: tuple[int, bool] | None, closed: frozenset[str],
) -> tuple[list[Event], frozenset[str]]:
    """``events`` with every gap filled that keeps the point, and the codes the fills
    took away (``closed`` and theirs)."""
    for gap in gaps:
        filled = fill_gap(gap, events, style)
        if filled != events and keeps(point, filled, rules, closed | gap.closes):
            events, closed = filled, closed | gap.closes
    return events, closed


def fill_gap(gap: Gap, events: list[Event], style: tuple[int, bool] | None) -> list[Event]:
    """``events`` with ``gap`` filled, numbered again in ``style`` (``numbering``)."""
    filled = gap.fill(events)
    return filled if style is None or filled == events else _renumber(filled, style)


def _fill_fields(
    point: Sequence[Mapping[str, Any]], events: list[Event], rules: Sequence[str],
    closed: frozenset[str],
) -> tuple[list[Event], set[str]]:
    """``events`` with every field of the shape filled that keeps the point, and the
    fields left absent (``EVENT PATH``)."""
    problems = {_absent(p.event, p.path) for e in events for p in shape_problems(e)} | {
        f"{e.get('type')} sequence_number" for e in events if "sequence_number" not in e}
    absent = set() if keeps(point, _presented(events, set()), rules, closed) else problems
    for path in sorted(absent):
        if keeps(point, _presented(events, absent - {path}), rules, closed):
            absent.discard(path)
    served = _presented(events, absent)
    return served, absent | {_absent(p.event, p.path) for e in served for p in shape_problems(e)}


def complete(
    events: Sequence[Event], rules: Sequence[str], gaps: Sequence[Gap] = GAPS
) -> Completed:
    """The stream a provider sends with ``events``' point left in (rules 1-2), and the
    gaps kept, declared.  ``rules``: the vector's (none: those its answer exercises);
    ``gaps``: the event gaps to fill (none for a generated case, whose events are its
    point: its labels say how it was made).  Every gap of ``GAPS`` the stream keeps is
    declared, filled or not: a generated stream's too."""
    point = oracle_json(events)
    rules = tuple(rules) or exercised_rules(point)
    style = numbering(events)
    current, closed, absent = copy.deepcopy(list(events)), frozenset[str](), set[str]()
    for _ in range(PASSES):
        filled, closed = _fill_events(point, current, rules, gaps, style, closed)
        served, absent = _fill_fields(point, filled, rules, closed)
        if served == current:
            break
        current = served
    names: list[str] = []
    for gap in GAPS:
        if fill_gap(gap, current, style) != current and "done-only" not in names:
            names += [name for name in gap.deviations if name not in names]
    declared = [{"name": name, "what": what(name)} for name in names]
    declared += [_field_deviation(path) for path in sorted(absent)]
    return Completed(tuple(current), tuple(declared + repaired(current)), closed)
