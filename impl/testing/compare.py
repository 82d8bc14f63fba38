"""Comparing a candidate's answer with the oracle's results, modulo minted ids.

Theory of operation
-------------------
Both sides are lists of result objects (DESIGN §3).  A candidate is judged on what the
contract makes it responsible for: per response its ``status`` (and ``id`` when it
gives one), and per output item its identity (``type``, ``id``, ``call_id``, ``name``,
``namespace``) and its payloads, read where ``ITEM_TYPES`` says each payload channel
lives.  Payloads are compared as the strings they are, except where a result entry says
``"arguments_parsed": true`` (``PARSED_ARGUMENTS``): a client that hands its user parsed
tool input (the AI SDK's ``streamText``) gives the JSON value of the arguments, which is
compared with the oracle's arguments parsed as JSON — blank arguments as ``{}``, a call
without arguments — or with the oracle's string where that is not JSON, since then the
client can only hand the text over as it came.
``output_index`` and ``executable`` are compared when the candidate gives them,
diagnostic codes only when asked (``codes=True``): a candidate is never faulted for a
field it does not claim to compute, and always for one it gets wrong.  Other item
fields (``status``, annotations, SDK extras) are not compared.

Items are paired before they are compared, so that one missing item is one difference
and not a cascade: each item gets a key — its ``call_id``, else its id when the stream
carried it, else its type — and the two key sequences are aligned (longest common
subsequence, ``difflib``).  Unpaired items with equal keys are an order difference
(R10); the rest are missing or extra.

Minted ids are compared by *alpha-renaming*: an id the stream never carried (in any
``id``, ``item_id`` or ``call_id`` field) is a name the parser made up, so the oracle's
minted ``fc_…`` matches any candidate id the stream never carried, provided the
pairing is one-to-one across the whole stream.  A carried id must match exactly, and
an item without an id never matches a minted one (R11: every item gets an id).

Every ``Difference`` names the rule of DESIGN §2 it breaks and says why, using what the
oracle knows about its side (``id_source``, ``payload_source``, its diagnostics).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from responses_oracle.model.catalogue import (
    ITEM_TYPES,
    UNKNOWN_ITEM_TYPE,
    ChannelKind,
    ChannelLocation,
)

from .candidate import Answer, Failure
from .rule_codes import rules_of_codes

_ID_FIELDS = ("id", "item_id", "call_id")


class Aspect(Enum):
    """What differs."""

    RESPONSES = "responses"
    STATUS = "status"
    RESPONSE_ID = "response_id"
    MISSING_ITEM = "missing_item"
    EXTRA_ITEM = "extra_item"
    ORDER = "order"
    TYPE = "type"
    ID = "id"
    CALL_ID = "call_id"
    NAME = "name"
    NAMESPACE = "namespace"
    PAYLOAD = "payload"
    OUTPUT_INDEX = "output_index"
    EXECUTABLE = "executable"
    CODES = "codes"
    FAILURE = "failure"


@dataclass(frozen=True)
class Difference:
    """One way the candidate's answer differs from the oracle's."""

    aspect: Aspect
    path: str
    oracle: Any
    answer: Any
    rule: str
    why: str


def carried_ids(events: Iterable[Any]) -> frozenset[str]:
    """Every string the stream carried in an ``id``, ``item_id`` or ``call_id`` field."""
    found: set[str] = set()
    pending: list[Any] = list(events)
    while pending:
        node = pending.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in _ID_FIELDS and isinstance(value, str):
                    found.add(value)
                elif isinstance(value, (Mapping, list)):
                    pending.append(value)
        elif isinstance(node, list):
            pending.extend(node)
    return frozenset(found)


def _location_key(location: ChannelLocation) -> str:
    path = ".".join(location.container)
    if location.array is None:
        return ".".join(filter(None, (path, location.field)))
    where = f"{location.array}[{location.part_type}]" if location.part_type else location.array
    return ".".join(filter(None, (path, where, location.field if location.part_type else None)))


def payloads(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's payload channels where the wire puts them: path → value (or values)."""
    spec = ITEM_TYPES.get(str(item.get("type")), UNKNOWN_ITEM_TYPE)
    found: dict[str, Any] = {}
    for location in spec.channels:
        node: Any = item
        for key in location.container:
            node = node.get(key) if isinstance(node, Mapping) else None
        node = node if isinstance(node, Mapping) else {}
        if location.array is None:
            found[_location_key(location)] = node.get(location.field or "")
            continue
        parts = node.get(location.array)
        parts = parts if isinstance(parts, list) else []
        if location.part_type is None:
            found[_location_key(location)] = [p for p in parts if isinstance(p, str)]
        else:
            found[_location_key(location)] = [
                p.get(location.field or "text")
                for p in parts
                if isinstance(p, Mapping) and p.get("type") == location.part_type
            ]
    return found


PARSED_ARGUMENTS = "arguments_parsed"
"""The result-entry field by which a candidate says its item's arguments are the JSON
value it parsed them to, not the wire string (docs/conformance-vectors.md §6)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


NO_ARGUMENTS: dict[str, Any] = {}
"""What a client that parses tool arguments hands over for blank arguments: a call
without arguments (the AI SDK's ``parseToolCall`` reads blank input so, on purpose:
providers send ``""`` for a call that takes none)."""


def as_parsed(arguments: Any) -> Any:
    """What a client that parses tool arguments as JSON hands over for ``arguments``:
    the JSON value, ``NO_ARGUMENTS`` for blank text, or the text itself where it is
    not JSON (``NaN`` and ``Infinity`` are not: JSON.parse refuses them)."""
    if not isinstance(arguments, str):
        return arguments
    if not arguments.strip():
        return NO_ARGUMENTS
    try:
        return json.loads(arguments, parse_constant=_no_constant)
    except ValueError:
        return arguments


def _argument_paths(item: Mapping[str, Any]) -> frozenset[str]:
    spec = ITEM_TYPES.get(str(item.get("type")), UNKNOWN_ITEM_TYPE)
    return frozenset(
        _location_key(location)
        for location in spec.channels
        if location.channel is ChannelKind.ARGUMENTS
    )


def _item(entry: Any) -> dict[str, Any]:
    """The wire item of a result entry; a bare item (no ``item`` wrapper) is accepted."""
    if isinstance(entry, Mapping):
        inner = entry.get("item")
        if isinstance(inner, Mapping):
            return dict(inner)
        if "type" in entry:
            return dict(entry)
    return {}


class _Names:
    """The one-to-one pairing of minted oracle ids with made-up candidate ids."""

    def __init__(self, carried: frozenset[str]) -> None:
        self.carried = carried
        self.forward: dict[str, str] = {}
        self.backward: dict[str, str] = {}

    def same(self, oracle: Any, answer: Any) -> bool:
        if oracle == answer and (oracle is None or oracle in self.carried):
            return True
        if not isinstance(oracle, str) or not isinstance(answer, str):
            return False
        if oracle in self.carried or answer in self.carried:
            return False
        known = self.forward.get(oracle)
        back = self.backward.get(answer)
        if known is None and back is None:
            self.forward[oracle], self.backward[answer] = answer, oracle
            return True
        return known == answer and back == oracle


_BY_TYPE = "type:"
"""The prefix of the key of an item known by its type only (no call_id, no carried id)."""


def _key(item: Mapping[str, Any], carried: frozenset[str]) -> str:
    call_id = item.get("call_id")
    if isinstance(call_id, str) and call_id:
        return f"call:{call_id}"
    item_id = item.get("id")
    if isinstance(item_id, str) and item_id in carried:
        return f"id:{item_id}"
    return f"{_BY_TYPE}{item.get('type')}"


def _why_id(entry: Mapping[str, Any]) -> tuple[str, str]:
    source = entry.get("id_source")
    if source == "renamed_field":
        return "R6", (
            "the item never carried an `id`; the `item_id` field inside it is its id "
            "(id_renamed_field, Amazon Bedrock's gateway)"
        )
    if source == "slot":
        return "R6", (
            "the item never carried an id; the item_id its payload events carried at its "
            "output_index is adopted (id_adopted_from_slot)"
        )
    if source == "minted":
        return "R11", (
            "no id ever appeared for this item, so one is minted; any id the stream never "
            "carried matches it, a carried id or no id does not"
        )
    return "R6", (
        "first admission wins: the id is the first non-empty wire id the item was seen "
        "with; later ids are aliases (R4), never replacements"
    )


def _why_payload(entry: Mapping[str, Any], oracle: Any, answer: Any) -> str:
    source = entry.get("payload_source", "?")
    values = oracle if isinstance(oracle, list) else [oracle]
    theirs = answer if isinstance(answer, list) else [answer]
    if any(values) and not any(theirs):
        return (
            f"empty never erases: a non-empty offer was seen (the oracle's value came "
            f"from {source}), so the payload is never empty or missing"
        )
    return (
        "the final payload is the last non-empty offer among the deltas, the *.done "
        f"value, the output_item.done item and the response.completed item (the oracle's "
        f"came from {source}); payloads are opaque strings, never re-serialized"
    )


RULE_OF: dict[Aspect, tuple[str, str]] = {
    Aspect.RESPONSES: (
        "R1",
        "one result per response: every response.created after the first starts a new one",
    ),
    Aspect.STATUS: (
        "R9",
        "the status follows the first terminal event: completed, incomplete, failed, "
        "cancelled (an error event: failed); no terminal event: interrupted",
    ),
    Aspect.RESPONSE_ID: (
        "R9",
        "the response id is the first non-empty one seen (response_id_changed)",
    ),
    Aspect.MISSING_ITEM: (
        "R6",
        "every admitted item is output once: done-only and snapshot-only items are "
        "recovered, a second item at a bound slot is kept (R3), an item missing from the "
        "snapshot is kept (nothing_lost)",
    ),
    Aspect.EXTRA_ITEM: (
        "R6",
        "items are admitted only from output_item.added, output_item.done and "
        "response.completed.output; a replayed or repeated item completes the entry it "
        "matches (duplicate_item); an event is never guessed onto a new call (R5)",
    ),
    Aspect.ORDER: (
        "R10",
        "items are ordered by output_index, then admission; completion order never "
        "reorders the output",
    ),
    Aspect.TYPE: ("R6", "an entry's type is set by its first admission and never changes"),
    Aspect.CALL_ID: ("R6", "first admission wins: the first non-empty call_id stays"),
    Aspect.NAME: (
        "R2",
        "the name comes from the item (the first non-empty one, R6), never from "
        "function_call_arguments.done",
    ),
    Aspect.NAMESPACE: ("R6", "first admission wins: the first non-empty namespace stays"),
    Aspect.OUTPUT_INDEX: ("R3", "an item keeps the output_index it was first admitted at"),
    Aspect.EXECUTABLE: (
        "R9",
        "a call is executable iff the response completed and the call was confirmed by a "
        "*.done, an output_item.done or the snapshot",
    ),
    Aspect.FAILURE: ("R1", "bad input is never fatal"),
}
"""The rule an aspect's difference breaks and why, where it does not depend on the case
(ids and payloads do: ``_why_id``, ``_why_payload``)."""

_IDENTITY: tuple[tuple[str, Aspect], ...] = (
    ("call_id", Aspect.CALL_ID),
    ("name", Aspect.NAME),
    ("namespace", Aspect.NAMESPACE),
)
_ENTRY_FIELDS: tuple[tuple[str, Aspect], ...] = (
    ("output_index", Aspect.OUTPUT_INDEX),
    ("executable", Aspect.EXECUTABLE),
)
"""Fields beside ``item`` in a result entry, compared only when the candidate gives them."""


def _difference(aspect: Aspect, path: str, oracle: Any, answer: Any) -> Difference:
    rule, why = RULE_OF[aspect]
    return Difference(aspect, path, oracle, answer, rule, why)


def _compare_items(
    path: str,
    oracle_entry: Mapping[str, Any],
    answer_entry: Mapping[str, Any],
    names: _Names,
) -> list[Difference]:
    ours, theirs = _item(oracle_entry), _item(answer_entry)
    out: list[Difference] = []
    if ours.get("type") != theirs.get("type"):
        out.append(_difference(Aspect.TYPE, f"{path}.item.type", ours.get("type"),
                               theirs.get("type")))
    if not names.same(ours.get("id"), theirs.get("id")):
        rule, why = _why_id(oracle_entry)
        out.append(Difference(Aspect.ID, f"{path}.item.id", ours.get("id"), theirs.get("id"),
                              rule, why))
    for field, aspect in _IDENTITY:
        if ours.get(field) != theirs.get(field):
            out.append(_difference(aspect, f"{path}.item.{field}", ours.get(field),
                                   theirs.get(field)))
    answer_payloads = payloads(theirs)
    parsed = _argument_paths(ours) if answer_entry.get(PARSED_ARGUMENTS) is True else ()
    for where, value in payloads(ours).items():
        other = answer_payloads.get(where)
        if other != (as_parsed(value) if where in parsed else value):
            why = _why_payload(oracle_entry, value, other)
            if where in parsed:
                why += (
                    "; the candidate gives parsed arguments, compared with the oracle's "
                    "parsed as JSON (its text where it is not JSON)"
                )
            out.append(Difference(Aspect.PAYLOAD, f"{path}.item.{where}", value, other, "R7",
                                  why))
    for field, aspect in _ENTRY_FIELDS:
        if field in answer_entry and answer_entry[field] != oracle_entry.get(field):
            out.append(_difference(aspect, f"{path}.{field}", oracle_entry.get(field),
                                   answer_entry[field]))
    return out


def _entries(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = result.get("items")
    if not isinstance(items, list):
        return []
    return [entry for entry in items if isinstance(entry, Mapping)]


def _codes(result: Mapping[str, Any]) -> tuple[str, ...]:
    diagnostics = result.get("diagnostics")
    if not isinstance(diagnostics, list):
        return ()
    return tuple(
        str(d.get("code")) for d in diagnostics if isinstance(d, Mapping) and "code" in d
    )


def _align(
    our_keys: list[str], their_keys: list[str], types: tuple[list[Any], list[Any]]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pairs of (oracle, answer) item positions, then the unpaired ones of each side.

    Longest common subsequence of the keys; inside a replaced run, items pair by
    position where their types agree and neither key names an item of the other side
    (that item is the same one, moved: an order difference, not an id difference).
    """
    pairs: list[tuple[int, int]] = []
    missing: list[int] = []
    extra: list[int] = []
    # Keys by type name no one item: items without a carried id may still pair so.
    ours_named = {k for k in our_keys if not k.startswith(_BY_TYPE)}
    theirs_named = {k for k in their_keys if not k.startswith(_BY_TYPE)}
    matcher = difflib.SequenceMatcher(None, our_keys, their_keys, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(a0, a1), range(b0, b1), strict=True))
            continue
        common = min(a1 - a0, b1 - b0) if tag == "replace" else 0
        for a, b in zip(range(a0, a0 + common), range(b0, b0 + common), strict=True):
            if types[0][a] == types[1][b] and our_keys[a] not in theirs_named and (
                their_keys[b] not in ours_named
            ):
                pairs.append((a, b))
            else:
                missing.append(a)
                extra.append(b)
        missing.extend(range(a0 + common, a1))
        extra.extend(range(b0 + common, b1))
    return pairs, missing, extra


def _compare_response(
    path: str,
    oracle: Mapping[str, Any],
    answer: Mapping[str, Any],
    names: _Names,
    codes: bool,
) -> list[Difference]:
    out: list[Difference] = []
    ours_response = oracle.get("response") or {}
    theirs_response = answer.get("response")
    theirs_response = theirs_response if isinstance(theirs_response, Mapping) else {}
    for field, aspect in (("status", Aspect.STATUS), ("id", Aspect.RESPONSE_ID)):
        given = theirs_response.get(field)
        if given is not None and given != ours_response.get(field):
            out.append(_difference(aspect, f"{path}.response.{field}",
                                   ours_response.get(field), given))
    ours, theirs = _entries(oracle), _entries(answer)
    our_items, their_items = [_item(e) for e in ours], [_item(e) for e in theirs]
    our_keys = [_key(item, names.carried) for item in our_items]
    their_keys = [_key(item, names.carried) for item in their_items]
    types = ([i.get("type") for i in our_items], [i.get("type") for i in their_items])
    pairs, missing, extra = _align(our_keys, their_keys, types)
    for a in list(missing):
        moved = next((b for b in extra if their_keys[b] == our_keys[a]), None)
        if moved is not None:
            missing.remove(a)
            extra.remove(moved)
            pairs.append((a, moved))
            out.append(_difference(Aspect.ORDER, f"{path}.items[{a}]", a, moved))
    for a, b in sorted(pairs):
        out.extend(_compare_items(f"{path}.items[{a}]", ours[a], theirs[b], names))
    for a in missing:
        rule, why = RULE_OF[Aspect.MISSING_ITEM]
        kept = f"the oracle keeps this {our_items[a].get('type')} (state {ours[a].get('state')}); "
        out.append(Difference(Aspect.MISSING_ITEM, f"{path}.items[{a}]",
                              _summary(our_items[a]), None, rule, kept + why))
    for b in extra:
        out.append(_difference(Aspect.EXTRA_ITEM, f"{path}.items[+{b}]", None,
                               _summary(their_items[b])))
    if codes:
        ours_codes, theirs_codes = set(_codes(oracle)), set(_codes(answer))
        for code in sorted(ours_codes ^ theirs_codes):
            raised = code in ours_codes
            out.append(Difference(
                Aspect.CODES, f"{path}.diagnostics", code if raised else None,
                None if raised else code, (rules_of_codes([code]) or ["R1"])[0],
                f"the oracle {'raises' if raised else 'does not raise'} {code} here",
            ))
    return out


_ITEM_PATH = re.compile(r"^\[(\d+)\]\.items\[(\+?)(\d+)\](.*)$")

Subject = tuple[Any, ...]
"""What a difference is about, whatever the item's position (``subject``)."""


def subject(
    difference: Difference,
    oracle: Sequence[Mapping[str, Any]],
    answer: Answer,
    carried: frozenset[str],
) -> Subject:
    """What ``difference`` (found comparing ``answer`` with ``oracle``) is about,
    independent of positions: its aspect, its response, and for an item the key it is
    paired by (``call_id``, carried id or type, and which such item it is), on the
    oracle's side or, for an item only the candidate has, the candidate's; then the
    rest of its path.  Two comparisons of one answer against two references that place
    the same item differently name it alike."""
    at = _ITEM_PATH.match(difference.path)
    side = answer if at is not None and at.group(2) else oracle
    if at is None or isinstance(side, Failure) or int(at.group(1)) >= len(side):
        return difference.aspect, difference.path
    response, position, rest = int(at.group(1)), int(at.group(3)), at.group(4)
    items = [_item(entry) for entry in _entries(side[response])]
    if position >= len(items):
        return difference.aspect, difference.path
    key = _key(items[position], carried)
    nth = sum(1 for item in items[:position] if _key(item, carried) == key)
    return difference.aspect, response, at.group(2), key, nth, rest


def _summary(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: item[k] for k in ("type", "id", "call_id", "name") if k in item}


def compare(
    events: Sequence[Any],
    oracle: Sequence[Mapping[str, Any]],
    answer: Answer,
    *,
    codes: bool = False,
) -> list[Difference]:
    """Every difference between the candidate's answer and the oracle's results."""
    if isinstance(answer, Failure):
        shown = [
            f"{(r.get('response') or {}).get('status')} with {len(_entries(r))} item(s)"
            for r in oracle
        ]
        rule, why = RULE_OF[Aspect.FAILURE]
        reduced = "; ".join(shown) or "no response"
        return [Difference(Aspect.FAILURE, "answer", shown, answer.message, rule,
                           f"{why}: the oracle reduces this stream to {reduced}")]
    names = _Names(carried_ids(events))
    out: list[Difference] = []
    if len(answer) != len(oracle):
        out.append(_difference(Aspect.RESPONSES, "responses", len(oracle), len(answer)))
    for number, (ours, theirs) in enumerate(zip(oracle, answer, strict=False)):
        out.extend(_compare_response(f"[{number}]", ours, theirs, names, codes))
    return out
