"""The deviation catalogue: every way a served scenario departs from a complete stream.

A scenario (``agents/scenarios.json``) is a *base* stream -- complete, as the API sends
it -- plus a list of *deviations* named here.  The served stream is the base with its
deviations applied (``apply``); the clean twin is the base.  A deviation is declared
once, in ``DEVIATIONS``, with:

* ``what`` it does, in one line;
* its ``evidence``: capture paths of this repository (``fixtures/captures/...``,
  ``fixtures/peers/...``, ``docs/notes/...``) or public issues (``owner/repo#N``);
* ``provider``: who is shown to send it, or ``""`` when no provider is shown (a rule
  test, a peers-page probe): a scenario carrying such a deviation is a robustness row,
  never counted as harm (``counted``);
* ``codes``: the reducer's diagnostic codes it causes on a complete base, beside the
  deviations it is used with (``no-delta-item-id`` is ambiguous on a shared slot);
* ``canonical``: what the canonicalizer does about it (``RESPELLS``: it adds back events
  the upstream's other events say again; ``REPAIRS``: it changes or adds what the
  upstream never said; neither: empty);
* ``absent``: the fields it leaves out (``EVENT PATH``, ``serve.present.Deviation``), so
  serve's presentation does not fill them back;
* ``changes``: the events and fields it may add, drop or change (rule 1);
* its transform: ``TRANSFORMS[name]``, a pure function ``(events, params) -> events``.

API (stable: the ``vectors`` helper and ``serve`` build on it)
--------------------------------------------------------------

>>> from responses_oracle.model.deviations import DEVIATIONS, Applied, apply
>>> base = [
...     {"type": "response.created", "response": {"id": "r", "output": []}},
...     {"type": "response.completed", "response": {"id": "r", "output": [{"id": "m"}]}},
... ]
>>> apply(base, [Applied("empty-terminal-output")])[1]["response"]["output"]
[]
>>> DEVIATIONS["empty-terminal-output"].provider
'ChatGPT Codex backend (store: false), LiteLLM bridge'

``Applied(name, params)`` is one use of a deviation in a scenario (``params``: a
mapping, JSON-ready; ``Applied.from_json`` reads a scenario entry, either a bare name or
``{"name": ..., PARAM: ...}``).  ``apply(events, applied)`` runs the transforms in order
on a deep copy; it never mutates its input.  ``counted(applied)`` says whether a
scenario with these deviations may count a broken client verdict as harm, and
``uncounted_reason(applied)`` why not, from its two halves: ``unshown(names)``, the
deviations no provider is shown to send, and ``robustness_reasons``, the words (the
conformance vectors' ``counted`` reads both).  ``absent_fields(applied)`` lists the
fields they leave out.

Rules
-----
1. **A transform touches only what its ``what`` names.**  The scenario test
   (``tests/agents/test_scenario_bases.py``) diffs every served stream against its base
   and fails on a change no deviation of the scenario declares
   (``DeviationSpec.changes``: the event kinds and fields each one may add, drop or
   change).
2. **Parameters select, never invent content.**  A parameter picks an item (``slot``),
   an order (``slots``), an id or a name (``id``, ``call_id``, ``tool``), a count
   (``after``); payload texts a transform changes
   come from the stream itself (blanked, trimmed, re-serialised, cut), so a transform
   run after serve's tool mapping still serves only harmless markers.
3. **Evidence or robustness.**  Every entry has evidence; an entry with no provider
   shown makes its scenarios robustness rows (``counted`` is False), as does any code
   of error severity.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from responses_oracle.model.vocabulary import CODES, Code, Severity

Event = dict[str, Any]
"""One decoded wire event."""

Params = Mapping[str, Any]
"""A deviation's parameters in one scenario."""

RESPELLS: Final = "respells"
REPAIRS: Final = "repairs"
CANONICAL_EFFECTS: Final = frozenset({RESPELLS, REPAIRS})
"""What the canonicalizer may do about a deviation: add back events the upstream's
other events say again (``respelled``), or change what it sent (``changes``)."""


@dataclass(frozen=True)
class DeviationSpec:
    """One entry of the catalogue (module docstring)."""

    what: str
    evidence: tuple[str, ...]
    provider: str
    codes: frozenset[Code] = frozenset()
    canonical: frozenset[str] = frozenset()
    absent: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    """What it may change, as ``EVENT`` (the event added, dropped or changed) or
    ``EVENT FIELD`` (only that top-level field of it: ``item``, ``response``,
    ``arguments``, ``output_index``...); ``*`` for any event."""


@dataclass(frozen=True)
class Applied:
    """One deviation of a scenario: its catalogue ``name`` and its parameters."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, entry: str | Mapping[str, Any]) -> Applied:
        """A scenario's entry: a bare name, or ``{"name": NAME, PARAM: VALUE, ...}``."""
        if isinstance(entry, str):
            return cls(entry)
        return cls(str(entry["name"]), {k: v for k, v in entry.items() if k != "name"})

    def to_json(self) -> str | dict[str, Any]:
        """The entry ``from_json`` reads back."""
        return {"name": self.name, **self.params} if self.params else self.name


# -- helpers the transforms share --------------------------------------------------

TERMINAL_TYPES: Final = frozenset(
    {"response.completed", "response.failed", "response.incomplete"}
)
CALL_TYPES: Final = frozenset({"function_call", "custom_tool_call"})
ARGUMENT_DELTAS: Final = frozenset(
    {"response.function_call_arguments.delta", "response.custom_tool_call_input.delta"}
)
ARGUMENT_DONES: Final = frozenset(
    {"response.function_call_arguments.done", "response.custom_tool_call_input.done"}
)
_PAYLOAD_FIELD: Final = {"function_call": "arguments", "custom_tool_call": "input"}


def _item(event: Event) -> dict[str, Any] | None:
    item = event.get("item")
    return item if isinstance(item, dict) else None


def _output(event: Event) -> list[Any]:
    response = event.get("response")
    output = response.get("output") if isinstance(response, dict) else None
    return output if isinstance(output, list) else []


def _call_slots(events: Sequence[Event], params: Params) -> set[int]:
    """The slots the transform applies to: ``slot`` (or ``slots``) if given, else every
    slot that carries a client call."""
    if "slot" in params:
        return {int(params["slot"])}
    if "slots" in params:
        return {int(s) for s in params["slots"]}
    return {
        int(event["output_index"])
        for event in events
        if (item := _item(event)) is not None
        and item.get("type") in CALL_TYPES
        and isinstance(event.get("output_index"), int)
    }


def _call_ids(events: Sequence[Event], slots: set[int]) -> set[str]:
    return {
        str(item["id"])
        for event in events
        if (item := _item(event)) is not None
        and event.get("output_index") in slots
        and isinstance(item.get("id"), str)
    }


def _of_slot(event: Event, slots: set[int]) -> bool:
    return event.get("output_index") in slots


def _snapshot_items(events: Sequence[Event], ids: set[str]) -> Iterable[dict[str, Any]]:
    for event in events:
        if event.get("type") in TERMINAL_TYPES:
            for item in _output(event):
                if isinstance(item, dict) and item.get("id") in ids:
                    yield item


def _payload(item: Mapping[str, Any]) -> str | None:
    name = _PAYLOAD_FIELD.get(str(item.get("type")))
    value = item.get(name) if name is not None else None
    return value if isinstance(value, str) else None


def _set_payload(item: dict[str, Any], value: str) -> None:
    name = _PAYLOAD_FIELD.get(str(item.get("type")))
    if name is not None and name in item:
        item[name] = value


# -- the transforms ------------------------------------------------------------------


def _drop(events: list[Event], keep: Callable[[Event], bool]) -> list[Event]:
    return [event for event in events if keep(event)]


def no_argument_deltas(events: list[Event], params: Params) -> list[Event]:
    """Drop the argument deltas of the calls (``slot``: of one call)."""
    slots = _call_slots(events, params)
    return _drop(events, lambda e: not (e.get("type") in ARGUMENT_DELTAS and _of_slot(e, slots)))


def no_arguments_done(events: list[Event], params: Params) -> list[Event]:
    """Drop the ``function_call_arguments.done`` of the calls."""
    slots = _call_slots(events, params)
    return _drop(events, lambda e: not (e.get("type") in ARGUMENT_DONES and _of_slot(e, slots)))


def done_only(events: list[Event], params: Params) -> list[Event]:
    """A call arrives only as its ``output_item.done``: no ``added``, no argument event."""
    slots = _call_slots(events, params)
    dropped = ARGUMENT_DELTAS | ARGUMENT_DONES | {"response.output_item.added"}
    return _drop(events, lambda e: not (e.get("type") in dropped and _of_slot(e, slots)))


def empty_terminal_output(events: list[Event], params: Params) -> list[Event]:
    """The terminal's ``response.output`` is ``[]``."""
    for event in events:
        if event.get("type") in TERMINAL_TYPES and isinstance(event.get("response"), dict):
            event["response"]["output"] = []
    return events


def no_terminal_output(events: list[Event], params: Params) -> list[Event]:
    """The terminal's ``response`` has no ``output`` field."""
    for event in events:
        if event.get("type") in TERMINAL_TYPES and isinstance(event.get("response"), dict):
            event["response"].pop("output", None)
    return events


def cut_before_terminal(events: list[Event], params: Params) -> list[Event]:
    """The stream ends before its terminal event."""
    return _drop(events, lambda e: e.get("type") not in TERMINAL_TYPES)


def done_out_of_order(events: list[Event], params: Params) -> list[Event]:
    """The ``output_item.done`` events of ``slots`` are sent together, in that order,
    where the last of them was."""
    order = [int(s) for s in params["slots"]]
    dones = {
        int(e["output_index"]): e
        for e in events
        if e.get("type") == "response.output_item.done" and e.get("output_index") in order
    }
    positions = [i for i, e in enumerate(events) if any(e is d for d in dones.values())]
    if not positions:
        return events
    last = positions[-1]
    moved = [dones[s] for s in order if s in dones]
    out: list[Event] = []
    for position, event in enumerate(events):
        if position == last:
            out.extend(moved)
        elif position not in positions:
            out.append(event)
    return out


def rekey_snapshot(events: list[Event], params: Params) -> list[Event]:
    """The terminal snapshot re-keys a call: a new ``id``, a new ``call_id``, its
    arguments with surrounding whitespace trimmed."""
    slots = _call_slots(events, params)
    for listed in _snapshot_items(events, _call_ids(events, slots)):
        listed["id"] = str(params["id"])
        listed["call_id"] = str(params["call_id"])
        payload = _payload(listed)
        if payload is not None:
            _set_payload(listed, payload.strip())
    return events


def snapshot_new_id(events: list[Event], params: Params) -> list[Event]:
    """The terminal snapshot gives the item at ``slot`` a new ``id`` (same call_id)."""
    slots = {int(params["slot"])}
    for listed in list(_snapshot_items(events, _call_ids(events, slots))):
        listed["id"] = str(params["id"])
    return events


def call_id_changes_at_done(events: list[Event], params: Params) -> list[Event]:
    """The call's ``output_item.added`` names another ``call_id`` (``call_id``) than its
    done item and the snapshot."""
    slots = _call_slots(events, params)
    for event in events:
        item = _item(event)
        if event.get("type") == "response.output_item.added" and item and _of_slot(event, slots):
            item["call_id"] = str(params["call_id"])
    return events


def resumed_stream(events: list[Event], params: Params) -> list[Event]:
    """A background-mode resume (``starting_after=N``): the events up to sequence
    number ``after`` are not sent, ``response.created`` among them."""
    after = int(params.get("after", 0))
    return _drop(events, lambda e: int(e.get("sequence_number", after + 1)) > after)


def slot_reused(events: list[Event], params: Params) -> list[Event]:
    """The item at ``slot`` and every later one is sent one ``output_index`` lower: the
    item at ``slot`` shares the slot of the item before it (the snapshot is unchanged)."""
    slot = int(params["slot"])
    for event in events:
        index = event.get("output_index")
        if isinstance(index, int) and index >= slot:
            event["output_index"] = index - 1
    return events


def empty_done_arguments(events: list[Event], params: Params) -> list[Event]:
    """``function_call_arguments.done`` and the done item carry empty arguments; the
    snapshot keeps them."""
    slots = _call_slots(events, params)
    for event in events:
        if event.get("type") in ARGUMENT_DONES and _of_slot(event, slots):
            key = "arguments" if "arguments" in event else "input"
            event[key] = ""
        item = _item(event)
        if event.get("type") == "response.output_item.done" and item and _of_slot(event, slots):
            _set_payload(item, "")
    return events


def arguments_only_in_snapshot(events: list[Event], params: Params) -> list[Event]:
    """No argument delta, and empty arguments in ``function_call_arguments.done`` and
    the done item: the arguments only in the snapshot."""
    return empty_done_arguments(no_argument_deltas(events, params), params)


def rotating_item_ids(events: list[Event], params: Params) -> list[Event]:
    """Every event of a call names a new item id (``prefix`` and a count), as do the
    done item and the snapshot; the slot and the call_id stay."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    prefix = str(params.get("prefix", "enc"))
    count = 0
    for event in events:
        if not _of_slot(event, slots):
            continue
        count += 1
        item = _item(event)
        if item is not None and "id" in item:
            item["id"] = f"{prefix}_{count}"
        elif "item_id" in event:
            event["item_id"] = f"{prefix}_{count}"
    count += 1
    for listed in _snapshot_items(events, ids):
        listed["id"] = f"{prefix}_{count}"
    return events


def id_as_item_id(events: list[Event], params: Params) -> list[Event]:
    """Bedrock Mantle's spelling: the done item and the snapshot item have no ``id``;
    the done item carries it as ``item_id``, with its ``output_index``, inside."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    for listed in _snapshot_items(events, ids):
        del listed["id"]
    for event in events:
        item = _item(event)
        if event.get("type") == "response.output_item.done" and item and _of_slot(event, slots):
            item["item_id"] = item.pop("id")
            item["output_index"] = event["output_index"]
    return events


def no_item_id(events: list[Event], params: Params) -> list[Event]:
    """A done-only call's done item has no ``id`` and its event no ``output_index``;
    the snapshot item has no ``id`` either."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    for listed in _snapshot_items(events, ids):
        del listed["id"]
    for event in events:
        item = _item(event)
        if event.get("type") == "response.output_item.done" and item and _of_slot(event, slots):
            item.pop("id", None)
            del event["output_index"]
    return events


def unconfirmed_call(events: list[Event], params: Params) -> list[Event]:
    """A call is added and streamed but never done: no ``arguments.done``, no done item,
    and the snapshot leaves it out."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    dropped = ARGUMENT_DONES | {"response.output_item.done"}
    kept = _drop(events, lambda e: not (e.get("type") in dropped and _of_slot(e, slots)))
    for event in kept:
        if event.get("type") in TERMINAL_TYPES and isinstance(event.get("response"), dict):
            output = event["response"].get("output")
            if isinstance(output, list):
                event["response"]["output"] = [
                    i for i in output if not (isinstance(i, dict) and i.get("id") in ids)
                ]
    return kept


def zero_arguments_as_empty_string(events: list[Event], params: Params) -> list[Event]:
    """A zero-argument call's arguments are ``""`` instead of ``"{}"``, wherever they
    appear; its empty deltas are not sent."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    events = _drop(events, lambda e: not (e.get("type") in ARGUMENT_DELTAS and _of_slot(e, slots)))
    for event in events:
        if event.get("type") in ARGUMENT_DONES and _of_slot(event, slots):
            event["arguments"] = ""
        item = _item(event)
        if item and _of_slot(event, slots) and _payload(item) == "{}":
            _set_payload(item, "")
    for listed in _snapshot_items(events, ids):
        if _payload(listed) == "{}":
            _set_payload(listed, "")
    return events


def repeated_done(events: list[Event], params: Params) -> list[Event]:
    """The call's ``output_item.done`` is sent twice in a row."""
    slots = _call_slots(events, params)
    out: list[Event] = []
    for event in events:
        out.append(event)
        if event.get("type") == "response.output_item.done" and _of_slot(event, slots):
            out.append(copy.deepcopy(event))
    return out


def arguments_done_diverges(events: list[Event], params: Params) -> list[Event]:
    """``function_call_arguments.done`` carries the arguments re-serialised (JSON-equal,
    other bytes) while deltas, done item and snapshot keep the streamed bytes."""
    slots = _call_slots(events, params)
    for event in events:
        if event.get("type") in ARGUMENT_DONES and _of_slot(event, slots):
            try:
                event["arguments"] = json.dumps(json.loads(event["arguments"]), indent=1)
            except (ValueError, KeyError, TypeError):
                event["arguments"] = str(event.get("arguments", "")) + " "
    return events


def same_call_id_two_ids(events: list[Event], params: Params) -> list[Event]:
    """The call's done item is sent again under another ``id`` (``id``), same call_id,
    on the next slot."""
    slots = _call_slots(events, params)
    out: list[Event] = []
    for event in events:
        out.append(event)
        if event.get("type") == "response.output_item.done" and _of_slot(event, slots):
            again = copy.deepcopy(event)
            again["output_index"] = int(event["output_index"]) + 1
            again["item"]["id"] = str(params["id"])
            out.append(again)
    return out


def events_after_terminal(events: list[Event], params: Params) -> list[Event]:
    """After the terminal, the terminal again with other output: its calls' arguments
    ``{}`` (no provider is shown to send this)."""
    terminal = next((e for e in events if e.get("type") in TERMINAL_TYPES), None)
    if terminal is None:
        return events
    again = copy.deepcopy(terminal)
    for item in _output(again):
        if isinstance(item, dict) and _payload(item) is not None:
            _set_payload(item, "{}")
    return [*events, again]


def trailing_newline(events: list[Event], params: Params) -> list[Event]:
    """The call's arguments end with a newline, in every event that carries them."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    last_delta = max(
        (
            i for i, e in enumerate(events)
            if e.get("type") in ARGUMENT_DELTAS and _of_slot(e, slots)
        ),
        default=None,
    )
    for position, event in enumerate(events):
        if position == last_delta:
            event["delta"] = str(event.get("delta", "")) + "\n"
        if event.get("type") in ARGUMENT_DONES and _of_slot(event, slots):
            event["arguments"] = str(event.get("arguments", "")) + "\n"
        item = _item(event)
        if event.get("type") == "response.output_item.done" and item and _of_slot(event, slots):
            _set_payload(item, (_payload(item) or "") + "\n")
    for listed in _snapshot_items(events, ids):
        _set_payload(listed, (_payload(listed) or "") + "\n")
    return events


def name_on_arguments_done(events: list[Event], params: Params) -> list[Event]:
    """``function_call_arguments.done`` names another tool (``tool``), and is sent
    twice."""
    slots = _call_slots(events, params)
    out: list[Event] = []
    for event in events:
        if event.get("type") == "response.function_call_arguments.done" and _of_slot(event, slots):
            event["name"] = str(params["tool"])
            out.extend([event, copy.deepcopy(event)])
        else:
            out.append(event)
    return out


def snapshot_corrects_deltas(events: list[Event], params: Params) -> list[Event]:
    """No done item and no ``arguments.done``; the deltas stream ``{}``, only the
    snapshot carries the arguments."""
    slots = _call_slots(events, params)
    dropped = ARGUMENT_DONES | {"response.output_item.done"}
    out: list[Event] = []
    streamed: set[int] = set()
    for event in events:
        if event.get("type") in dropped and _of_slot(event, slots):
            continue
        if event.get("type") in ARGUMENT_DELTAS and _of_slot(event, slots):
            if event["output_index"] in streamed:
                continue
            streamed.add(event["output_index"])
            event["delta"] = "{}"
        out.append(event)
    return out


def no_obfuscation(events: list[Event], params: Params) -> list[Event]:
    """Delta events carry no ``obfuscation`` field."""
    for event in events:
        event.pop("obfuscation", None)
    return events


def no_cache_write_tokens(events: list[Event], params: Params) -> list[Event]:
    """The terminal's usage has no ``input_tokens_details.cache_write_tokens``."""
    for event in events:
        response = event.get("response")
        usage = response.get("usage") if isinstance(response, dict) else None
        details = usage.get("input_tokens_details") if isinstance(usage, dict) else None
        if isinstance(details, dict):
            details.pop("cache_write_tokens", None)
    return events


def no_delta_item_id(events: list[Event], params: Params) -> list[Event]:
    """The argument deltas of the call at ``slot`` carry no ``item_id``."""
    slots = _call_slots(events, params)
    for event in events:
        if event.get("type") in ARGUMENT_DELTAS and _of_slot(event, slots):
            event.pop("item_id", None)
    return events


def done_names_new_id(events: list[Event], params: Params) -> list[Event]:
    """The call's done item (and the snapshot) name a new ``id`` (parameter ``id``)."""
    slots = _call_slots(events, params)
    ids = _call_ids(events, slots)
    for listed in _snapshot_items(events, ids):
        listed["id"] = str(params["id"])
    for event in events:
        item = _item(event)
        if event.get("type") == "response.output_item.done" and item and _of_slot(event, slots):
            item["id"] = str(params["id"])
    return events


TRANSFORMS: Final[dict[str, Callable[[list[Event], Params], list[Event]]]] = {
    "no-argument-deltas": no_argument_deltas,
    "no-arguments-done": no_arguments_done,
    "done-only": done_only,
    "empty-terminal-output": empty_terminal_output,
    "no-terminal-output": no_terminal_output,
    "cut-before-terminal": cut_before_terminal,
    "done-out-of-order": done_out_of_order,
    "rekey-snapshot": rekey_snapshot,
    "snapshot-new-id": snapshot_new_id,
    "call-id-changes-at-done": call_id_changes_at_done,
    "resumed-stream": resumed_stream,
    "slot-reused": slot_reused,
    "empty-done-arguments": empty_done_arguments,
    "arguments-only-in-snapshot": arguments_only_in_snapshot,
    "rotating-item-ids": rotating_item_ids,
    "id-as-item-id": id_as_item_id,
    "no-item-id": no_item_id,
    "unconfirmed-call": unconfirmed_call,
    "zero-arguments-as-empty-string": zero_arguments_as_empty_string,
    "repeated-done": repeated_done,
    "arguments-done-diverges": arguments_done_diverges,
    "same-call-id-two-ids": same_call_id_two_ids,
    "events-after-terminal": events_after_terminal,
    "trailing-newline": trailing_newline,
    "name-on-arguments-done": name_on_arguments_done,
    "snapshot-corrects-deltas": snapshot_corrects_deltas,
    "no-obfuscation": no_obfuscation,
    "no-cache-write-tokens": no_cache_write_tokens,
    "no-delta-item-id": no_delta_item_id,
    "done-names-new-id": done_names_new_id,
}
"""Each deviation's transform, by catalogue name (rule 1 and 2)."""


# -- the catalogue -------------------------------------------------------------------

_C = Code
_DONE = "response.output_item.done"
_ADDED = "response.output_item.added"
_ARGS_DELTA = "response.function_call_arguments.delta"
_ARGS_DONE = "response.function_call_arguments.done"
_TERMINALS = ("response.completed", "response.failed", "response.incomplete")

DEVIATIONS: Final[dict[str, DeviationSpec]] = {
    "no-argument-deltas": DeviationSpec(
        "a call's arguments come with no argument delta",
        ("fixtures/peers/ai-sdk/open-responses__lmstudio-tool-call.1.jsonl",
         "vllm-project/vllm#54236", "Gitlawb/openclaude#1262", "tailcallhq/forgecode#2558"),
        "ChatGPT Codex backend (gpt-5.3-codex-spark), LM Studio, vLLM (non-Harmony path)",
        changes=(_ARGS_DELTA, "response.custom_tool_call_input.delta"),
    ),
    "no-arguments-done": DeviationSpec(
        "a call gets no function_call_arguments.done",
        ("vllm-project/vllm#54236", "Oaklight/llm-rosetta#56"),
        "vLLM (non-Harmony path), Chat-to-Responses bridges",
        canonical=frozenset(),
        changes=(_ARGS_DONE, "response.custom_tool_call_input.done"),
    ),
    "done-only": DeviationSpec(
        "a call arrives only as its output_item.done: no added, no argument event (no "
        "provider recording shows it; Bedrock Mantle opens its calls with added, and "
        "openai/codex's own test stream that does this is hand-written)",
        ("fixtures/peers/codex/SOURCE.md", "docs/notes/protocol.md"),
        "",
        codes=frozenset({_C.DONE_ONLY_ITEM}),
        canonical=frozenset({REPAIRS}),
        changes=(_ADDED, _ARGS_DELTA, _ARGS_DONE, "response.custom_tool_call_input.delta",
                 "response.custom_tool_call_input.done"),
    ),
    "empty-terminal-output": DeviationSpec(
        "the terminal's response.output is [] after streamed items",
        ("docs/notes/protocol.md", "commontoolsinc/labs#5092",
         "NousResearch/hermes-agent#5689", "sipeed/picoclaw#2674", "BerriAI/litellm#28899"),
        "ChatGPT Codex backend (store: false), LiteLLM bridge",
        codes=frozenset({_C.SNAPSHOT_ABSENT}),
        canonical=frozenset({REPAIRS}),
        changes=tuple(f"{t} response" for t in _TERMINALS),
    ),
    "no-terminal-output": DeviationSpec(
        "the terminal's response object has no output field",
        ("docs/notes/protocol.md", "decolua/9router#705"),
        "Chat-to-Responses gateways (9router)",
        codes=frozenset({_C.SNAPSHOT_ABSENT}),
        canonical=frozenset(),
        absent=tuple(f"{t} response.output" for t in _TERMINALS),
        changes=tuple(f"{t} response" for t in _TERMINALS),
    ),
    "cut-before-terminal": DeviationSpec(
        "the stream ends before its terminal event (the connection is cut)",
        ("docs/notes/protocol.md",),
        "",
        codes=frozenset({_C.MISSING_TERMINAL}),
        changes=_TERMINALS,
        canonical=frozenset({REPAIRS}),
    ),
    "done-out-of-order": DeviationSpec(
        "output_item.done events sent out of output_index order (parameter slots: the "
        "order they are sent in)",
        ("BerriAI/litellm#36356",),
        "LiteLLM",
        canonical=frozenset(),
        changes=(_DONE,),
    ),
    "rekey-snapshot": DeviationSpec(
        "the terminal snapshot re-keys a call: new id, new call_id, whitespace-trimmed "
        "arguments (parameters id, call_id)",
        ("fixtures/quirks/q05-vllm-snapshot-rekeys-call.jsonl", "vllm-project/vllm#47916"),
        "DigitalOcean's LiteLLM in front of vLLM",
        codes=frozenset({_C.SNAPSHOT_REKEYED, _C.ID_CHANGED, _C.METADATA_CONFLICT,
                         _C.DIVERGENT_PAYLOAD}),
        canonical=frozenset({REPAIRS}),
        changes=tuple(f"{t} response" for t in _TERMINALS),
    ),
    "snapshot-new-id": DeviationSpec(
        "the terminal snapshot gives the item at slot a new id, the same call_id "
        "(parameters slot, id)",
        ("fixtures/captures/pydantic-ai/test_openai_responses_raw_cot_stream_openrouter.i0.jsonl",
         "onyx-dot-app/onyx#13624"),
        "OpenRouter (reasoning items), Onyx gateway",
        codes=frozenset({_C.ID_CHANGED}),
        # The canonical stream's terminal names the item by the id its events gave
        # (id_changed), a change the proxy's log names.
        canonical=frozenset({REPAIRS}),
        changes=tuple(f"{t} response" for t in _TERMINALS),
    ),
    "call-id-changes-at-done": DeviationSpec(
        "a call's output_item.added names another call_id than its done item and the "
        "snapshot (parameter call_id: the added one)",
        ("fixtures/captures/vercel-ai/openai__openai-client-tool-search.1.jsonl",
         "fixtures/captures/vercel-ai/azure__azure-client-tool-search.1.jsonl"),
        "OpenAI, Azure (client tool_search_call)",
        codes=frozenset({_C.CALL_ID_RENAMED}),
        changes=(f"{_ADDED} item",),
    ),
    "resumed-stream": DeviationSpec(
        "a background-mode resume (starting_after): the events up to sequence number "
        "after are not sent, response.created among them",
        ("fixtures/captures/pydantic-ai/test_background_mode_streaming_starting_after_vcr.i1.jsonl",),
        "OpenAI background mode",
        codes=frozenset({_C.RESPONSE_RESUMED}),
        canonical=frozenset(),
        changes=("response.created",),
    ),
    "slot-reused": DeviationSpec(
        "the item at slot (and every later one) is sent one output_index lower, on the "
        "slot of the item before it (parameter slot)",
        ("decolua/9router#2611", "diegosouzapw/OmniRoute#10025", "Helicone/helicone#5325"),
        "Chat-to-Responses gateways",
        codes=frozenset({_C.SLOT_REUSED}),
        canonical=frozenset({REPAIRS}),
        changes=("* output_index",),
    ),
    "arguments-only-in-snapshot": DeviationSpec(
        "no argument delta; function_call_arguments.done and the done item carry empty "
        "arguments; the arguments are only in the terminal snapshot",
        ("fixtures/quirks/q07-openrouter-args-only-in-completed.jsonl",
         "OpenRouterTeam/ai-sdk-provider#336"),
        "OpenRouter",
        codes=frozenset({_C.EMPTY_PAYLOAD_FILLED}),
        canonical=frozenset({REPAIRS}),
        changes=(_ARGS_DELTA, f"{_ARGS_DONE} arguments", f"{_DONE} item"),
    ),
    "empty-done-arguments": DeviationSpec(
        "after the argument deltas, function_call_arguments.done and the done item carry "
        "empty arguments (the snapshot keeps them)",
        ("docs/vectors/cases/peers-empty-done-arguments.json",),
        "",
        codes=frozenset({_C.EMPTY_PAYLOAD_IGNORED}),
        canonical=frozenset({REPAIRS}),
        changes=(f"{_ARGS_DONE} arguments", f"{_DONE} item"),
    ),
    "rotating-item-ids": DeviationSpec(
        "every event of a call names a new item id (parameter prefix); the slot and the "
        "call_id stay",
        ("fixtures/peers/ai-sdk/SOURCE.md", "vercel/ai#18548", "lidge-jun/opencodex#995"),
        "GitHub Copilot",
        codes=frozenset({_C.ID_CHANGED, _C.ITEM_ID_UNRECOGNIZED}),
        canonical=frozenset({REPAIRS}),
        changes=(f"{_ADDED} item", f"{_DONE} item", f"{_ARGS_DELTA} item_id",
                 f"{_ARGS_DONE} item_id", *(f"{t} response" for t in _TERMINALS)),
    ),
    "id-as-item-id": DeviationSpec(
        "the done item and the snapshot item have no id: the done item carries it as "
        "item_id, with an output_index, inside",
        ("fixtures/peers/opencode/SOURCE.md", "anomalyco/opencode#46885",
         "anomalyco/opencode#45081"),
        "Amazon Bedrock Mantle",
        codes=frozenset({_C.ID_ONLY_AS_ITEM_ID}),
        canonical=frozenset({REPAIRS}),
        absent=(f"{_DONE} item.id", *(f"{t} response.output[].id" for t in _TERMINALS)),
        changes=(f"{_DONE} item", *(f"{t} response" for t in _TERMINALS)),
    ),
    "no-item-id": DeviationSpec(
        "a done item without id and its event without output_index; the snapshot item "
        "without id",
        ("vllm-project/vllm#44608", "vllm-project/vllm#35184"),
        "vLLM",
        codes=frozenset({_C.ID_MINTED}),
        canonical=frozenset({REPAIRS}),
        absent=(f"{_DONE} item.id", f"{_DONE} output_index",
                *(f"{t} response.output[].id" for t in _TERMINALS)),
        changes=(f"{_DONE} item", f"{_DONE} output_index",
                 *(f"{t} response" for t in _TERMINALS)),
    ),
    # No provider is shown to send it: the SGLang router's stream (sglang#12652) keeps
    # each call's arguments.done and leaves *every* call unconfirmed, never one call
    # beside a complete one, and SGLang fixed it as its own bug (#42's re-judgement).
    "unconfirmed-call": DeviationSpec(
        "a call is added and streamed but never done, and the snapshot leaves it out",
        ("sgl-project/sglang#12652",),
        "",
        codes=frozenset({_C.UNCONFIRMED_ITEM}),
        canonical=frozenset({REPAIRS}),
        changes=(_ARGS_DONE, _DONE, *(f"{t} response" for t in _TERMINALS)),
    ),
    "zero-arguments-as-empty-string": DeviationSpec(
        "a zero-argument call's arguments are the empty string (OpenAI sends {})",
        # openai-python#3502: a pull request saying the API itself sends "" for a
        # strict tool without arguments (#42's re-judgement checked it).
        ("openai/openai-python#3502", "vllm-project/vllm#54236", "docs/notes/protocol.md"),
        "vLLM and gateways",
        changes=(_ARGS_DELTA, f"{_ARGS_DONE} arguments", f"{_ADDED} item", f"{_DONE} item",
                 *(f"{t} response" for t in _TERMINALS)),
    ),
    "repeated-done": DeviationSpec(
        "the call's output_item.done is sent twice",
        ("docs/notes/peers.md",),
        "",
        codes=frozenset({_C.DUPLICATE_ITEM}),
        canonical=frozenset({REPAIRS}),
        changes=(_DONE,),
    ),
    "arguments-done-diverges": DeviationSpec(
        "function_call_arguments.done carries the arguments re-serialised (JSON-equal, "
        "other bytes)",
        ("docs/notes/peers.md",),
        "",
        codes=frozenset({_C.DIVERGENT_PAYLOAD}),
        canonical=frozenset({REPAIRS}),
        changes=(f"{_ARGS_DONE} arguments",),
    ),
    "same-call-id-two-ids": DeviationSpec(
        "the call's done item is sent again under another id, the same call_id, on the "
        "next slot (parameter id)",
        ("docs/notes/peers.md",),
        "",
        codes=frozenset({_C.DUPLICATE_ITEM}),
        canonical=frozenset({REPAIRS}),
        changes=(_DONE,),
    ),
    "events-after-terminal": DeviationSpec(
        "the terminal is sent again with other output",
        ("docs/rules/R9.md",),
        "",
        codes=frozenset({_C.AFTER_TERMINAL}),
        canonical=frozenset({REPAIRS}),
        changes=_TERMINALS,
    ),
    "trailing-newline": DeviationSpec(
        "the call's arguments end with a newline",
        ("docs/rules/R7.md",),
        "",
        changes=(_ARGS_DELTA, f"{_ARGS_DONE} arguments", f"{_DONE} item",
                 *(f"{t} response" for t in _TERMINALS)),
    ),
    "name-on-arguments-done": DeviationSpec(
        "function_call_arguments.done names another tool (parameter tool) and is sent "
        "twice",
        ("docs/rules/R2.md",),
        "",
        canonical=frozenset({REPAIRS}),
        changes=(_ARGS_DONE,),
    ),
    "snapshot-corrects-deltas": DeviationSpec(
        "no done item and no arguments.done; the deltas stream {}, only the snapshot "
        "carries the arguments",
        ("docs/notes/peers.md",),
        "",
        codes=frozenset({_C.DIVERGENT_PAYLOAD}),
        canonical=frozenset({REPAIRS, RESPELLS}),
        changes=(_ARGS_DELTA, _ARGS_DONE, _DONE),
    ),
    "no-obfuscation": DeviationSpec(
        "delta events carry no obfuscation field",
        ("fixtures/captures/pydantic-ai/test_deepseek_responses_function_tool_stream.i0.jsonl",),
        "DeepSeek",
        absent=("* obfuscation",),
        changes=("* obfuscation",),
    ),
    "no-cache-write-tokens": DeviationSpec(
        "the usage has no input_tokens_details.cache_write_tokens (recorded before the "
        "API sent it; openai-python requires it now)",
        ("fixtures/captures/vercel-ai/openai__openai-custom-text-tool.1.jsonl",
         "fixtures/captures/vercel-ai/azure__azure-reasoning-encrypted-content.1.jsonl"),
        "OpenAI, Azure (recordings before the field was added)",
        absent=tuple(f"{t} response.usage.input_tokens_details.cache_write_tokens"
                     for t in _TERMINALS),
        changes=tuple(f"{t} response" for t in _TERMINALS),
    ),
    "no-delta-item-id": DeviationSpec(
        "the call's argument deltas carry no item_id",
        ("docs/notes/protocol.md",),
        "",
        absent=(f"{_ARGS_DELTA} item_id",),
        changes=(f"{_ARGS_DELTA} item_id",),
        codes=frozenset({_C.AMBIGUOUS_ROUTE}),
    ),
    "done-names-new-id": DeviationSpec(
        "the call's done item and the snapshot name a new id (parameter id)",
        ("rbb-dev/Open-WebUI-OpenRouter-pipe#54", "vllm-project/vllm#35184"),
        "OpenRouter, vLLM (streamed ids that differ from the completed ones)",
        codes=frozenset({_C.ID_CHANGED}),
        canonical=frozenset({REPAIRS}),
        changes=(f"{_DONE} item", *(f"{t} response" for t in _TERMINALS)),
    ),
}
"""The catalogue: every deviation a scenario may declare (module docstring)."""


def apply(events: Sequence[Mapping[str, Any]], applied: Iterable[Applied]) -> list[Event]:
    """``events`` with the ``applied`` deviations' transforms run in order (a deep copy:
    the input is never changed).  ``KeyError`` for a name the catalogue lacks."""
    out = [copy.deepcopy(dict(event)) for event in events]
    numbers = [event.get("sequence_number") for event in out]
    for one in applied:
        out = TRANSFORMS[one.name](out, one.params)
    if [event.get("sequence_number") for event in out] == numbers:
        return out
    return _renumbered(out)


def _renumbered(events: list[Event]) -> list[Event]:
    """``sequence_number`` counting on by one from the first event's, as a provider
    numbers what it sends, once a transform dropped, repeated or moved an event: it
    leaves no gap, repeat or regression of its own (a resumed stream keeps its first
    number; a recording's own gap stays where nothing was moved)."""
    first = events[0].get("sequence_number") if events else None
    if not isinstance(first, int):
        return events
    for number, event in enumerate(events, start=first):
        if "sequence_number" in event:
            event["sequence_number"] = number
    return events


def severity_error(applied: Iterable[Applied]) -> list[Code]:
    """The error-severity codes the deviations cause (their catalogue ``codes``)."""
    return sorted(
        {
            c for a in applied for c in DEVIATIONS[a.name].codes
            if CODES[c].severity is Severity.ERROR
        },
        key=lambda c: c.value,
    )


def unshown(
    names: Iterable[str], catalogue: Mapping[str, DeviationSpec] = DEVIATIONS
) -> list[str]:
    """The deviations of ``names`` no provider is shown to send (rule 3), in order;
    ``catalogue``: where each is declared (``DEVIATIONS``, or a table that holds its
    entries and more)."""
    return [name for name in names if not catalogue[name].provider]


def robustness_reasons(unshown_names: Sequence[str], errors: Sequence[str]) -> list[str]:
    """Why a stream is a robustness row, in words: the deviations it carries that no
    provider is shown to send, and the error codes the oracle answers it with."""
    reasons = []
    if unshown_names:
        reasons.append(f"no provider is shown to send {', '.join(unshown_names)}")
    if errors:
        reasons.append(
            f"the oracle answers it with an error ({', '.join(errors)}): a client may "
            "rightly reject it"
        )
    return reasons


def uncounted_reason(applied: Sequence[Applied]) -> str:
    """Why a scenario with these deviations is a robustness row ("" if it counts): a
    deviation no provider is shown to send, or one the reducer answers with an error."""
    return "; ".join(robustness_reasons(
        unshown(a.name for a in applied), [c.value for c in severity_error(applied)]))


def counted(applied: Sequence[Applied]) -> bool:
    """Whether a client's broken verdict on a scenario with these deviations counts as
    harm (rule 3)."""
    return not uncounted_reason(applied)


def absent_fields(applied: Iterable[Applied]) -> tuple[str, ...]:
    """The fields the deviations leave out (``EVENT PATH``), for serve's presentation."""
    return tuple(path for a in applied for path in DEVIATIONS[a.name].absent)
