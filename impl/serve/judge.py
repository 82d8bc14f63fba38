"""The judge: what the client did with each call, read from its next request.

Rules
-----
1. **Expected is the oracle's answer** on the stream *as served* (after mapping): the
   reduced results (``reduce``) and their replay (``replay.replay_input``, R12).  The
   scenario's calls are the result items of a client call type (catalogue
   ``client_call``) that carry a ``call_id``.
2. **The next request** of a served scenario is the first later request whose ``input``
   carries an output item (catalogue kind ``output``) answering one of its calls by
   ``call_id``, and that no later-served scenario claims (its calls carry none of that
   request's ``call_id``s).  None: every call was *dropped*, whatever the client's exit
   status.
3. Per call, the three verdicts of ``verdicts.VERDICTS``, each ``True``, ``False`` or
   ``None`` with its reason:

   - ``executed``: a shell tool of the profiles, or any tool whose output echoes a
     marker, shows which arguments ran: the marker in the output must be the one in
     the oracle's arguments.  A tool that shows nothing is judged on what it replays
     (JSON-equal arguments) or, when it replays nothing, on the output's presence.
     A call the oracle says is not executable must not show its marker.
   - ``history_faithful``: the replayed call item (same type, under a ``call_id`` the
     provider gave the call) pairs with its output, carries the oracle's ``name`` and
     arguments JSON-equal to what ran (the oracle's, or, where the output's markers show
     other arguments ran, those).  The ``id`` may be left out (the API pairs an output
     with its call by ``call_id``), except after a replayed reasoning item of the same
     response: the API rejects a reasoning item sent without the item that follows it
     (``_paired_reasoning``); an id the provider never gave the call is broken.  A
     call that may not run, neither replayed nor answered, leaves nothing unpaired:
     the verdict does not apply.
   - ``api_valid``: the replayed call and its outputs pass ``request_schema.item_problems``
     under the request's ``store`` mode.  A field the provider itself put in the call's
     item as served, which the oracle's item does not have (Mantle's ``item_id`` and
     ``output_index``, id-as-item-id), is left out of the check and noted: a client that
     replays the provider's item as it came sends the provider its own fields, and
     nothing shows a provider rejecting them (#42's re-judgement: rig, openai-go).

4. **Verdicts by harm; byte differences are notes.**  A stream may give a call more
   than one id or ``call_id`` (a snapshot that re-keys it, q05; a final response with
   rotated ids, r5); the oracle keeps the ones it was confirmed with (``ID_RULE``, R6).
   Which ids the provider gave a call is the reducer's own knowledge
   (``ResultItem.given_ids``, ``given_call_ids``), never re-derived here.  A client that
   answers or replays a call under another of them, or replays arguments that differ
   from the oracle's only in bytes (whitespace, key order), did no harm: the verdict
   holds, and a **note** beside it says what differed (``Verdict.notes``).

5. **Reasons say what happened.**  An output that shows no marker is quoted, never
   called a run of what the client replays (a validation error returned to the model
   is not a run).

The judge is pure: served scenarios and request records in, ``Verdicts`` out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

from responses_oracle.model.catalogue import ITEM_TYPES
from responses_oracle.model.vocabulary import ItemKind
from responses_oracle.words import counted

from .gateway import GatewayVerdict, quoted
from .mapping import (
    MARKER_PREFIX,
    RAN_WITHOUT_ARGUMENTS,
    SHELL_COMMANDS,
    Mapped,
    items_of,
    offered_tools,
    payload_key,
)
from .request_schema import item_problems
from .verdicts import ANSWER_KEPT, GATEWAY_VERDICT, ID_RULE, VERDICTS, VerdictName

if TYPE_CHECKING:
    from responses_oracle.result import Result, ResultItem

    from .scenarios import Scenario

_MARKER: Final = re.compile(re.escape(MARKER_PREFIX) + r"\d+")

OUTPUT_TYPES: Final = frozenset(
    name for name, spec in ITEM_TYPES.items() if spec.kind is ItemKind.OUTPUT
)
"""Item types that answer a call (catalogue kind ``output``)."""


@dataclass
class Served:
    """One scenario as it was served: the request that got it, the mapped events, and
    (computed once, when first asked) the oracle's answer on them."""

    scenario: Scenario
    mapped: Mapped
    request_index: int
    body: dict[str, Any]

    @cached_property
    def answer(self) -> list[Result]:
        """Rule 1: the oracle's results on the stream as served."""
        from responses_oracle.reducer import reduce

        return reduce(list(self.mapped.events))

    @cached_property
    def calls(self) -> list[ResultItem]:
        """The scenario's calls: result items of a client call type with a ``call_id``."""
        return _calls([item for result in self.answer for item in result.items])

    @cached_property
    def call_ids(self) -> set[str]:
        """The ``call_id``s of the oracle's calls."""
        return {str(call.item["call_id"]) for call in self.calls}

    @cached_property
    def given_call_ids(self) -> set[str]:
        """Every ``call_id`` the stream gave one of the oracle's calls (rule 4)."""
        return {other for call in self.calls for other in call.given_call_ids}

    @cached_property
    def carried_call_ids(self) -> set[str]:
        """Every ``call_id`` the served stream carries, the oracle's or not."""
        return {
            item["call_id"]
            for event in self.mapped.events
            for item in items_of(event)
            if isinstance(item.get("call_id"), str) and item["call_id"]
        }


@dataclass(frozen=True)
class Verdict:
    """One verdict on one call: its value (None: does not apply) and why."""

    name: VerdictName
    value: bool | None
    reason: str
    notes: tuple[str, ...] = ()
    """What differed without harm (rule 4): another of the provider's ids, bytes of
    JSON-equal arguments.  Shown beside the verdict, never a failure."""

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it."""
        spec = VERDICTS[self.name]
        return {"value": self.value, "reason": self.reason, "rule": spec.rule,
                "notes": list(self.notes)}


@dataclass(frozen=True)
class CallVerdicts:
    """The verdicts on one scenario call."""

    call_id: str
    item_type: str
    name: str | None
    executable: bool
    expected: dict[str, Any]
    """The oracle's replay item of the call."""
    verdicts: tuple[Verdict, ...]
    events: tuple[int, ...] = ()
    """The positions of the served events that name the call (its ``call_id``, or its
    ``id`` as an item's id or an event's ``item_id``): where the timeline shows it."""

    @property
    def failed(self) -> bool:
        """Whether a verdict is False."""
        return any(verdict.value is False for verdict in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it: the booleans, then each reason."""
        body: dict[str, Any] = {
            "call_id": self.call_id,
            "type": self.item_type,
            "name": self.name,
            "executable": self.executable,
            "expected": self.expected,
            "events": list(self.events),
        }
        for verdict in self.verdicts:
            body[verdict.name.value] = verdict.value
        body["reasons"] = {v.name.value: v.to_dict() for v in self.verdicts}
        return body


@dataclass(frozen=True)
class ScenarioVerdicts:
    """The verdicts on one served scenario."""

    scenario: str
    request_index: int
    next_request: int | None
    store: bool
    stream: bool
    twin: bool
    """Whether serve played the scenario's clean twin (``twin.py``)."""
    mapping: list[dict[str, Any]]
    calls: tuple[CallVerdicts, ...]
    events: list[dict[str, Any]]
    """The stream as served (what the timeline draws)."""
    gateway: GatewayVerdict | None = None

    @property
    def failed(self) -> bool:
        """Whether a call's verdict, or the gateway verdict, is False."""
        return any(call.failed for call in self.calls) or (
            self.gateway is not None and not self.gateway.value
        )

    def to_dict(self) -> dict[str, Any]:
        """As ``verdicts.json`` writes it."""
        return {
            "scenario": self.scenario,
            "request_index": self.request_index,
            "next_request": self.next_request,
            "dropped": self.next_request is None,
            "store": self.store,
            "stream": self.stream,
            "twin": self.twin,
            "mapping": self.mapping,
            "calls": [call.to_dict() for call in self.calls],
            "gateway": self.gateway.to_dict() if self.gateway is not None else None,
            "served_events": self.events,
        }


@dataclass(frozen=True)
class Verdicts:
    """Everything judged: one entry per served scenario, and the unserved ones."""

    scenarios: tuple[ScenarioVerdicts, ...]
    unserved: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    not_applicable: tuple[str, ...] = ()
    """``SCENARIO: why`` for each scenario no offered tool could take as a model would
    call it (``mapping.NotApplicable``): no verdict, and no failure."""
    tools_offered: int = 0
    """How many requests offered tools (what a scenario is served to)."""
    ended: str = ""
    """How the server ended (``server.py`` rule 8); ``""`` while it runs."""

    @property
    def ok(self) -> bool:
        """Every verdict holds or does not apply, and every scenario was served."""
        return (
            not self.unserved
            and not self.errors
            and not any(scenario.failed for scenario in self.scenarios)
        )

    @property
    def unserved_because(self) -> str:
        """Why the unserved scenarios were not served: no request offered tools, or
        every one that did went to an earlier scenario's conversation."""
        if not self.tools_offered:
            return "no request offered tools"
        return (
            f"{counted(self.tools_offered, 'request')} offered tools, and each got an "
            "earlier scenario or continued one"
        )

    def failures(self) -> list[str]:
        """One line per failed verdict, unserved scenario and error, for people: what an
        assertion message or a terminal shows."""
        lines = [
            f"{scenario.scenario} {call.call_id} {verdict.name.value}: {verdict.reason}"
            for scenario in self.scenarios
            for call in scenario.calls
            for verdict in call.verdicts
            if verdict.value is False
        ]
        lines += [
            f"{scenario.scenario} gateway answer_kept: {scenario.gateway.reason}"
            for scenario in self.scenarios
            if scenario.gateway is not None and not scenario.gateway.value
        ]
        lines += [f"{name}: never served ({self.unserved_because})" for name in self.unserved]
        return lines + [f"error: {error}" for error in self.errors]

    def call(self, call_id: str) -> CallVerdicts:
        """The verdicts on the call with ``call_id`` (the first served); KeyError if none."""
        for scenario in self.scenarios:
            for call in scenario.calls:
                if call.call_id == call_id:
                    return call
        raise KeyError(call_id)

    def to_dict(self) -> dict[str, Any]:
        """The content of ``verdicts.json``."""
        return {
            "format": "responses-oracle/serve-verdicts",
            "version": 1,
            "ok": self.ok,
            "verdicts": {
                name: {"rule": spec.rule, "holds": spec.holds, "null": spec.not_applicable}
                for name, spec in [
                    *((key.value, value) for key, value in VERDICTS.items()),
                    (ANSWER_KEPT, GATEWAY_VERDICT),
                ]
            },
            "scenarios": [scenario.to_dict() for scenario in self.scenarios],
            "unserved": list(self.unserved),
            "unserved_because": self.unserved_because if self.unserved else None,
            "tools_offered": self.tools_offered,
            "ended": self.ended,
            "errors": list(self.errors),
            "not_applicable": list(self.not_applicable),
        }


def judge(
    served: Sequence[Served],
    requests: Sequence[Mapping[str, Any]],
    unserved: Sequence[str] = (),
    errors: Sequence[str] = (),
    downstream: Mapping[int, GatewayVerdict] | None = None,
) -> Verdicts:
    """The verdicts on every served scenario, given every request record (rule 2), and
    the gateway verdicts of the scenarios whose downstream was recorded."""
    judged = tuple(
        _judge_scenario(position, served, requests, (downstream or {}).get(position))
        for position in range(len(served))
    )
    offering = sum(
        1 for r in requests if isinstance(r.get("body"), dict) and offered_tools(r["body"])
    )
    return Verdicts(judged, tuple(unserved), tuple(errors), tools_offered=offering)


def _calls(items: Sequence[ResultItem]) -> list[ResultItem]:
    return [
        item
        for item in items
        if ITEM_TYPES.get(str(item.item.get("type"))) is not None
        and ITEM_TYPES[str(item.item["type"])].client_call
        and isinstance(item.item.get("call_id"), str)
        and item.item["call_id"]
    ]


def _input(request: Mapping[str, Any]) -> list[dict[str, Any]]:
    body = request.get("body")
    value = body.get("input") if isinstance(body, dict) else None
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _answered(request: Mapping[str, Any]) -> set[str]:
    return {
        item["call_id"]
        for item in _input(request)
        if item.get("type") in OUTPUT_TYPES and isinstance(item.get("call_id"), str)
    }


def _next_request(
    position: int, served: Sequence[Served], requests: Sequence[Mapping[str, Any]], ids: set[str]
) -> Mapping[str, Any] | None:
    start = served[position].request_index
    for request in requests:
        index = int(request["index"])
        if index <= start or not (_answered(request) & ids):
            continue
        claimed = any(
            later.request_index < index and _answered(request) & later.call_ids
            for later in served[position + 1 :]
        )
        if not claimed:
            return request
    return None


def _judge_scenario(
    position: int,
    served: Sequence[Served],
    requests: Sequence[Mapping[str, Any]],
    gateway: GatewayVerdict | None,
) -> ScenarioVerdicts:
    from responses_oracle.next_input import replay_input

    this = served[position]
    replayed = replay_input(item.item for result in this.answer for item in result.items)
    calls = this.calls
    nxt = _next_request(position, served, requests, this.call_ids | this.given_call_ids)
    body = nxt.get("body") if nxt is not None else None
    store = not (isinstance(body, dict) and body.get("store") is False)
    echoes = {mapping.tool for mapping in this.mapped.calls if mapping.echoes}
    stray = _stray(position, served, requests) if nxt is None else ""
    judged = tuple(
        replace(
            _judge_call(
                call,
                next(r.items for r in this.answer if any(i is call for i in r.items)),
                _expected(call, replayed),
                nxt,
                store,
                call.item.get("name") in echoes or call.item.get("type") in SHELL_COMMANDS,
                stray,
                _provider_fields(this.mapped.events, call.item),
            ),
            events=_naming(this.mapped.events, call.item),
        )
        for call in calls
    )
    return ScenarioVerdicts(
        this.scenario.name,
        this.request_index,
        int(nxt["index"]) if nxt is not None else None,
        store,
        this.body.get("stream") is True,
        this.scenario.twin,
        this.mapped.to_dict(),
        judged,
        list(this.mapped.events),
        gateway,
    )


def _naming(events: Sequence[Mapping[str, Any]], call: Mapping[str, Any]) -> tuple[int, ...]:
    """The positions of the events that name ``call`` by its ``call_id`` or ``id``."""
    keys = {call.get("call_id"), call.get("id")} - {None, ""}
    return tuple(
        position
        for position, event in enumerate(events)
        if event.get("item_id") in keys
        or any(
            item.get("call_id") in keys or item.get("id") in keys
            for item in items_of(dict(event))
        )
    )


def _provider_fields(
    events: Sequence[Mapping[str, Any]], call: Mapping[str, Any]
) -> frozenset[str]:
    """The fields the served stream put in ``call``'s own item that the oracle's item
    does not have (rule 3, ``api_valid``)."""
    served = {
        key
        for event in events
        for item in items_of(dict(event))
        if item.get("type") == call.get("type") and item.get("call_id") == call.get("call_id")
        for key in item
    }
    return frozenset(served - set(call))


def _stray(
    position: int, served: Sequence[Served], requests: Sequence[Mapping[str, Any]]
) -> str:
    """For a dropped scenario: the ``call_id``s a later request answered instead, when
    the stream carried them but the oracle's calls do not (a snapshot's re-keyed ids)."""
    carried = served[position].carried_call_ids
    start = served[position].request_index
    for request in requests:
        answered = _answered(request) & carried
        if int(request["index"]) > start and answered:
            return (
                f"; request {request['index']} answers {', '.join(sorted(answered))} instead, "
                "a call_id the stream carried but the oracle's call does not have"
            )
    return ""


def _expected(call: ResultItem, replayed: Sequence[dict[str, Any]]) -> dict[str, Any]:
    for item in replayed:
        if item.get("type") == call.item.get("type") and item.get("call_id") == call.item.get(
            "call_id"
        ):
            return item
    return dict(call.item)


def _judge_call(
    call: ResultItem,
    response: Sequence[ResultItem],
    expected: dict[str, Any],
    nxt: Mapping[str, Any] | None,
    store: bool,
    echoes: bool,
    stray: str,
    provider_fields: frozenset[str],
) -> CallVerdicts:
    call_id = str(call.item["call_id"])
    item_type = str(call.item["type"])
    inputs = _input(nxt) if nxt is not None else []
    answered = {i.get("call_id") for i in inputs if i.get("type") in OUTPUT_TYPES}
    # Rule 4: the output may answer the call under any call_id the provider gave it.
    key = next((given for given in (call_id, *call.given_call_ids) if given in answered),
               call_id)
    outputs = [i for i in inputs if i.get("type") in OUTPUT_TYPES and i.get("call_id") == key]
    replay = next(
        (i for i in inputs if i.get("type") == item_type and i.get("call_id") == key), None
    )
    # Replayed under another of its call_ids than the one its output answers: unpaired.
    elsewhere = next((str(i["call_id"]) for i in inputs if i.get("type") == item_type
                      and i.get("call_id") in {call_id, *call.given_call_ids} - {key}), "")
    body = nxt.get("body") if nxt is not None else None
    by_previous = isinstance(body, dict) and isinstance(body.get("previous_response_id"), str)
    executed = _executed(call, expected, nxt, outputs, replay, echoes, stray)
    history = _history(
        call, expected, nxt, replay, _paired_reasoning(call, response, inputs), by_previous,
        _ran(outputs), f"replays the call under {elsewhere!r} but answers it under {key!r}: "
        "the API pairs the output with no replayed call" if elsewhere and outputs else "",
        bool(outputs),
    )
    if key != call_id:
        other = _other_call_id(key, call_id)
        executed = _noted(executed, other)
        history = _noted(history, other)
    name = call.item.get("name")
    return CallVerdicts(
        call_id,
        item_type,
        name if isinstance(name, str) else None,
        call.executable,
        expected,
        (executed, history, _api_valid(nxt, replay, outputs, store, provider_fields)),
    )


def _other_call_id(key: str, call_id: str) -> str:
    """The note on a call answered under another ``call_id`` the provider gave it."""
    return (
        f"answered under {key!r}, a call_id the provider gave this call; the oracle keeps "
        f"{call_id!r} ({ID_RULE}: a call keeps the call_id it was confirmed with)"
    )


def _noted(verdict: Verdict, note: str) -> Verdict:
    """``verdict`` with ``note`` beside it (rule 4), where it applies."""
    if verdict.value is None:
        return verdict
    return replace(verdict, notes=(note, *verdict.notes))


def _markers(value: Any) -> list[str]:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _MARKER.findall(text)


def _executed(
    call: ResultItem,
    expected: Mapping[str, Any],
    nxt: Mapping[str, Any] | None,
    outputs: Sequence[Mapping[str, Any]],
    replay: Mapping[str, Any] | None,
    echoes: bool,
    stray: str,
) -> Verdict:
    name = VerdictName.EXECUTED
    field = payload_key(str(expected.get("type")))
    wanted = _markers(expected.get(field, ""))
    shown = [m for output in outputs for m in _markers(output.get("output", ""))]
    if not call.executable:
        ran = [m for m in shown if m in wanted or m == RAN_WITHOUT_ARGUMENTS]
        if ran:
            return Verdict(
                name,
                False,
                f"the oracle says not executable, but it ran: the output shows {ran[0]}",
            )
        if shown or echoes or nxt is None:
            return Verdict(name, True, "not executable, and it did not run")
        return Verdict(name, None, "not executable; the tool does not show what ran")
    if nxt is None:
        return Verdict(
            name, False, "dropped: no later request carries an output for this call" + stray
        )
    if not outputs:
        return Verdict(name, False, "the next request carries no output for this call")
    if shown == [RAN_WITHOUT_ARGUMENTS] and not wanted:
        return Verdict(name, True, "ran: the zero-parameter tool answered "
                       f"{RAN_WITHOUT_ARGUMENTS}, and the oracle's arguments are none")
    if shown:
        if wanted and set(wanted) <= set(shown):
            return Verdict(
                name, True, f"ran with the oracle's arguments (the output shows {wanted[0]})"
            )
        return Verdict(
            name,
            False,
            f"ran with other arguments: the output shows "
            f"{', '.join(shown)}, the oracle's arguments carry "
            f"{', '.join(wanted) or 'no marker'}",
        )
    if echoes:
        # Say what the output reads (a tool run with null arguments answers "None", a
        # validation error its message): never call it a run of the oracle's call.
        return Verdict(name, False, "the output shows no marker of the oracle's arguments: "
                       f"it reads {quoted(_output_text(outputs))}")
    if replay is not None:
        if _json_equal(replay.get(field), expected.get(field)):
            return Verdict(
                name,
                True,
                "an output answers it, and the replayed arguments are "
                "JSON-equal to the oracle's (the tool does not echo)",
            )
        # No marker shows what ran: say what the output reads, never "it ran".
        return Verdict(
            name,
            False,
            f"the replayed arguments {quoted(replay.get(field))} differ from the oracle's "
            f"{quoted(expected.get(field))}, and the output shows no marker of what ran: "
            f"it reads {quoted(_output_text(outputs))}",
        )
    return Verdict(name, True, "an output answers it (the tool does not echo, nothing replayed)")


def _output_text(outputs: Sequence[Mapping[str, Any]]) -> Any:
    """What the output items answering a call say (the first one's ``output``)."""
    return outputs[0].get("output", "") if outputs else ""


def _json_equal(left: Any, right: Any) -> bool:
    try:
        return bool(json.loads(left) == json.loads(right))
    except (TypeError, ValueError):
        return bool(left == right)


def _ran(outputs: Sequence[Mapping[str, Any]]) -> list[str]:
    """The markers the outputs answering a call show: what ran, where the tool echoes."""
    return [m for output in outputs for m in _markers(output.get("output", ""))]


def _history(
    call: ResultItem,
    expected: Mapping[str, Any],
    nxt: Mapping[str, Any] | None,
    replay: Mapping[str, Any] | None,
    paired: str | None,
    by_previous: bool,
    ran: Sequence[str],
    unpaired: str,
    answered: bool,
) -> Verdict:
    name = VerdictName.HISTORY_FAITHFUL
    if nxt is None:
        return Verdict(name, None, "no next request: the call was dropped")
    if replay is None:
        if unpaired:
            return Verdict(name, False, unpaired)
        if not call.executable and not ran and not answered:
            # Harm is an output with no call, or a call with no output; neither here.
            return Verdict(name, None, "not executable, neither replayed nor answered: "
                           "nothing to pair")
        if by_previous:
            return Verdict(name, None, "history sent by previous_response_id, not replayed")
        return Verdict(name, False, "the next request does not replay the call")
    problems: list[str] = []
    notes: list[str] = []
    given = replay.get("id")
    if "id" in replay and given != expected.get("id"):
        if given in call.given_ids:
            notes.append(f"id {given!r}, another id the provider gave this call; the oracle "
                         f"keeps {expected.get('id')!r} ({ID_RULE})")
        else:
            problems.append(f"id {given!r}, which the provider never gave this call (the "
                            f"oracle's is {expected.get('id')!r})")
    elif "id" not in replay and paired is not None:
        problems.append(
            f"no id after the replayed reasoning item {paired!r}, the oracle's is "
            f"{expected.get('id')!r} (the API rejects a reasoning item sent without "
            "the item that follows it)"
        )
    if "name" in expected and replay.get("name") != expected.get("name"):
        problems.append(f"name {replay.get('name')!r}, the oracle's is {expected.get('name')!r}")
    field = payload_key(str(expected.get("type")))
    sent, oracle = replay.get(field), expected.get(field)
    if sent != oracle:
        if _json_equal(sent, oracle):
            notes.append(f"{field} {sent!r}: JSON-equal to the oracle's {oracle!r}, other bytes")
        elif ran and set(_markers(sent or "")) == set(ran):
            notes.append(f"{field} {sent!r}: the arguments that ran (the output shows "
                         f"{', '.join(ran)}), not the oracle's {oracle!r}")
        elif ran == [RAN_WITHOUT_ARGUMENTS] and _no_arguments(sent):
            notes.append(f"{field} {sent!r}: no arguments, as ran (the zero-parameter tool "
                         f"answered), where the oracle's are {oracle!r}")
        else:
            problems.append(f"{field} {sent!r}, the oracle's is {oracle!r}"
                            + (f" and the output shows {', '.join(ran)} ran" if ran else ""))
    if problems:
        return Verdict(name, False, "; ".join(problems), tuple(notes))
    kept = "the call's id" if "id" in replay else "no id (none needed)"
    return Verdict(
        name, True,
        f"replayed with {kept}, paired with its output by call_id, its name and {field} "
        "as ran",
        tuple(notes),
    )


def _no_arguments(value: Any) -> bool:
    """Whether replayed arguments say "none": blank, or an empty JSON object."""
    return value in (None, "") or _json_equal(value, "{}")


def _paired_reasoning(
    call: ResultItem, answer: Sequence[ResultItem], inputs: Sequence[Mapping[str, Any]]
) -> str | None:
    """The id of a reasoning item of ``call``'s response, ahead of it in the result, that
    the next request replays (as the item or an ``item_reference``); None if none is.

    A replayed reasoning item needs the item that followed it, named by its id: the API
    answers "Item 'rs_…' of type 'reasoning' was provided without its required following
    item" otherwise.  Without replayed reasoning, a call's id may be left out: the API
    pairs its output by ``call_id`` (docs/usage/serve.md cites the reports)."""
    ahead: set[Any] = set()
    for item in answer:
        if item is call:
            break
        if item.item.get("type") == "reasoning":
            ahead.add(item.item.get("id"))
    return next(
        (
            str(given["id"])
            for given in inputs
            if given.get("type") in ("reasoning", "item_reference") and given.get("id") in ahead
        ),
        None,
    )


def _api_valid(
    nxt: Mapping[str, Any] | None,
    replay: Mapping[str, Any] | None,
    outputs: Sequence[Mapping[str, Any]],
    store: bool,
    provider_fields: frozenset[str],
) -> Verdict:
    name = VerdictName.API_VALID
    if nxt is None:
        return Verdict(name, None, "no next request")
    kept = sorted(provider_fields & set(replay or ()))
    if replay is not None and kept:
        replay = {key: value for key, value in replay.items() if key not in provider_fields}
    checked = [item for item in (replay, *outputs) if item is not None]
    if not checked:
        return Verdict(name, None, "the next request carries neither the call nor its output")
    problems = [
        f"{item.get('type')}: {problem}"
        for item in checked
        for problem in item_problems(item, store)
    ]
    if problems:
        return Verdict(name, False, "; ".join(problems))
    valid = Verdict(
        name,
        True,
        f"{len(checked)} item(s) valid request input" + ("" if store else " under store: false"),
    )
    if kept:
        return _noted(valid, f"{', '.join(kept)} replayed as the provider sent them in this "
                             "item (not checked against the API's request schema)")
    return valid
