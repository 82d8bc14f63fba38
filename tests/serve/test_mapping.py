"""Tool mapping keeps the scenario's shape and sends only harmless arguments.

The shape test is the oracle's own: the mapped stream must reduce to the same answer as
the original -- same statuses, ids, call_ids, slots, states, id and payload sources,
executability, diagnostics -- except for the call names and payload texts that mapping
changes.  The harmless test reads every payload text the server would send.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from helpers import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from responses_oracle.differential.conformance_vectors import corpus_vectors
from responses_oracle.reducer import reduce
from responses_oracle.serve.mapping import (
    AVOID,
    MARKER_PREFIX,
    PAYLOAD_FIELDS,
    RAN_WITHOUT_ARGUMENTS,
    MappingError,
    NotApplicable,
    OfferedTool,
    Override,
    choose_tools,
    map_scenario,
    offered_tools,
    split_like,
)
from responses_oracle.serve.scenarios import QUIRKS, load_scenario
from responses_oracle.streamgen.cases import generated_case

SHELL = OfferedTool(
    "shell",
    "function",
    {
        "type": "object",
        "properties": {"command": {"type": "array", "items": {"type": "string"}}},
        "required": ["command"],
    },
)
EXEC = OfferedTool(
    "exec_command",
    "function",
    {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
)
LOOKUP = OfferedTool(
    "lookup",
    "function",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "minimum": 1},
            "exact": {"type": "boolean"},
            "mode": {"enum": ["fast", "slow"]},
        },
        "required": ["query", "limit", "exact", "mode"],
        "additionalProperties": False,
    },
)
FREEFORM = OfferedTool("notes", "custom")
PING = OfferedTool("ping", "function", {"type": "object", "properties": {}})
"""A tool of no parameter: what a zero-argument call is mapped onto."""
OFFERS = {
    "shell": [SHELL, LOOKUP, PING],
    "exec": [EXEC, PING],
    "schema": [LOOKUP, PING],
    "custom": [FREEFORM, OfferedTool("memo", "custom"), SHELL],
}


def _quirk(name: str) -> tuple[dict[str, Any], ...]:
    """The quirk stream ``quirks/NAME-*.jsonl`` as given (not its built-in scenario)."""
    return load_scenario(str(next(QUIRKS.glob(f"{name}-*.jsonl")))).events


def _streams() -> list[tuple[str, Sequence[dict[str, Any]]]]:
    quirks = [(p.name[:3], _quirk(p.name[:3])) for p in sorted(QUIRKS.glob("q*"))]
    vectors = [(v.name, v.events) for v in corpus_vectors()]
    seeds = [(f"seed3/{i}", generated_case(3, i).stream.events) for i in range(40)]
    return quirks + vectors + seeds


STREAMS = _streams()


def _mappable(events: Sequence[dict[str, Any]], offered: list[OfferedTool]) -> Any:
    try:
        return map_scenario(events, offered)
    except MappingError:
        return None


def _shape(events: Sequence[dict[str, Any]]) -> list[Any]:
    """The answer with what mapping may change (call names, payload texts) left out."""
    shape = []
    for result in reduce(list(events)):
        body = result.to_dict()
        for entry in body["items"]:
            item = entry["item"]
            field = PAYLOAD_FIELDS.get(item.get("type"))
            if field is not None:
                item.pop("name", None)
                item[field] = bool(item.get(field))
            action = item.get("action")
            for key in ("commands", "command"):  # shell_call, local_shell_call
                if isinstance(action, dict) and key in action:
                    action[key] = [bool(command) for command in action[key]]
        # A diagnostic's detail quotes the payload text; its code and place are the shape.
        body["diagnostics"] = [(d["code"], d["event_index"]) for d in body["diagnostics"]]
        shape.append(body)
    return shape


@pytest.mark.parametrize("offer", sorted(OFFERS))
def test_the_mapped_stream_reduces_to_the_original_answer_but_names_and_payloads(
    offer: str,
) -> None:
    mapped = 0
    for name, events in STREAMS:
        result = _mappable(events, OFFERS[offer])
        if result is None:
            continue
        mapped += 1
        if len({call.tool for call in result.calls}) < len(result.calls):
            continue  # more names than offered tools: a name conflict cannot survive
        assert _shape(result.events) == _shape(events), name
        assert len(result.events) == len(events), name
        for before, after in zip(events, result.events, strict=True):
            assert before.keys() == after.keys(), name
    assert mapped > 100


def _payload_texts(events: Sequence[dict[str, Any]]) -> list[str]:
    texts = []
    for event in events:
        items = [event.get("item"), *((event.get("response") or {}).get("output") or [])]
        for item in items:
            if isinstance(item, dict) and item.get("type") in PAYLOAD_FIELDS:
                texts.append(item.get(PAYLOAD_FIELDS[item["type"]]))
            if isinstance(item, dict) and item.get("type") == "shell_call":
                texts.extend((item.get("action") or {}).get("commands") or [])
            if isinstance(item, dict) and item.get("type") == "local_shell_call":
                texts.append(" ".join((item.get("action") or {}).get("command") or []))
        kind = str(event.get("type"))
        if kind.startswith(("response.function_call_arguments", "response.custom_tool_call")):
            texts.append(event.get("arguments", event.get("input")))
        if kind == "response.shell_call_command.done":
            texts.append(event.get("command"))
    return [text for text in texts if isinstance(text, str)]


def _deltas(events: Sequence[dict[str, Any]]) -> list[str]:
    """The deltas of calls a client runs (an ``mcp_call``'s are the server's to run)."""
    return [
        event["delta"]
        for event in events
        if event.get("type")
        in (
            "response.function_call_arguments.delta",
            "response.custom_tool_call_input.delta",
            "response.shell_call_command.delta",
        )
        and isinstance(event.get("delta"), str)
    ]


def _harmless_value(value: Any) -> bool:
    if isinstance(value, str):
        # A marker, ``echo`` of one (or ``echo`` in an argv), an enum's first choice.
        words = value.split()
        marked = bool(words) and words[-1].startswith(MARKER_PREFIX)
        return (marked and words[:-1] in ([], ["echo"])) or value in ("echo", "fast")
    if isinstance(value, list):
        return all(_harmless_value(v) for v in value)
    if isinstance(value, dict):
        return all(_harmless_value(v) for v in value.values())
    return value in (False, 1, None)


def _whole(text: str) -> bool:
    """A whole text the server may send: JSON of harmless values, a marker, or ``echo``
    of one (a shell command)."""
    stripped = text.strip()
    if re.fullmatch(r"echo " + re.escape(MARKER_PREFIX) + r"\d+", stripped):
        return True
    if re.fullmatch(re.escape(MARKER_PREFIX) + r"\d+", stripped):
        return True
    value = _json(stripped)
    return value is not _NOT_JSON and _harmless_value(value)


@pytest.mark.parametrize("offer", sorted(OFFERS))
def test_every_payload_text_sent_is_harmless_by_construction(offer: str) -> None:
    """Every text is a whole harmless text, or a cut of one, or one (or nothing)
    followed by capital letters (how a text that is no payload is spelled): nothing of
    the original arguments is left."""
    checked = 0
    for name, events in STREAMS:
        result = _mappable(events, OFFERS[offer])
        if result is None:
            continue
        sent = [text for text in _payload_texts(result.events) if text]
        # A cut stream sends only cuts: the whole texts they are cut from are the
        # mapping's images, each checked here as any text sent is.
        images = [image for call in result.calls for image in call.arguments.values()]
        wholes = [text for text in sent + images if _whole(text)]
        for text in sent:
            checked += 1
            if _whole(text):
                continue
            head = re.fullmatch(r"(.*?)[A-Z]*", text, re.DOTALL)
            assert head is not None
            assert not head.group(1) or any(
                whole.startswith(head.group(1)) for whole in wholes
            ), (name, text)
        for piece in _deltas(result.events):
            inner = piece.strip("ABCDEFGHIJKLMNOPQRSTUVWXYZ").strip()
            assert not inner or _whole(piece) or any(inner in whole for whole in wholes), (
                name,
                piece,
            )
    assert checked > 100


_NOT_JSON = object()


def _json(text: str) -> Any:
    """The value of a JSON text, or ``_NOT_JSON``."""
    try:
        return json.loads(text)
    except ValueError:
        return _NOT_JSON


def test_the_same_text_gets_the_same_image_and_whitespace_and_blanks_are_kept() -> None:
    mapped = map_scenario(_quirk("q05"), [EXEC])
    [call] = mapped.calls
    assert call.original == "get_weather" and call.tool == "exec_command" and call.echoes
    assert call.arguments == {
        "": "",
        ' {"city":"Paris"} ': ' {"cmd":"echo responses-oracle-1"} ',
        '{"city":"Paris"}': '{"cmd":"echo responses-oracle-1"}',
    }
    added, delta, done, item_done, completed = mapped.events[1:6]
    assert added["item"]["arguments"] == ""
    assert delta["delta"] == done["arguments"] == item_done["item"]["arguments"]
    assert completed["response"]["output"][0]["arguments"] == '{"cmd":"echo responses-oracle-1"}'
    assert completed["response"]["output"][0]["call_id"] == "functions.get_weather:0"


def test_arguments_that_differ_get_different_markers() -> None:
    """q07: empty while streaming, arguments only in the terminal; the blank stays blank."""
    mapped = map_scenario(_quirk("q07"), [SHELL])
    assert mapped.calls[0].arguments == {
        "": "",
        '{"location":"SF"}': '{"command":["echo","responses-oracle-1"]}',
    }
    assert mapped.events[2]["arguments"] == ""


def test_schema_fields_get_markers_minimums_false_and_the_first_choice() -> None:
    mapped = map_scenario(load_scenario("s01").played(), [LOOKUP])
    args = json.loads(mapped.events[-1]["response"]["output"][0]["arguments"])
    assert args == {"query": "responses-oracle-1", "limit": 1, "exact": False, "mode": "fast"}


def test_an_override_names_the_tool_and_its_arguments() -> None:
    override = Override("probe", {"text": "say {marker}", "n": 2})
    mapped = map_scenario(load_scenario("s01").played(), [LOOKUP], [override])
    item = mapped.events[-1]["response"]["output"][0]
    assert item["name"] == "probe"
    assert json.loads(item["arguments"]) == {"text": "say responses-oracle-1", "n": 2}


def test_a_shell_tool_is_preferred_and_mutating_tools_are_never_chosen() -> None:
    write = OfferedTool("write", "function", {"type": "object"})
    call = ("function_call", "get_weather")
    assert choose_tools([call], [write, LOOKUP, EXEC])[call][0] is EXEC
    assert choose_tools([call], [write, LOOKUP])[call][0] is LOOKUP
    assert "apply_patch" in AVOID
    with pytest.raises(MappingError, match="no offered function tool"):
        choose_tools([call], [write, OfferedTool("apply_patch", "custom")])
    with pytest.raises(MappingError, match="no offered custom tool"):
        choose_tools([("custom_tool_call", "notes")], [EXEC])


def _one_item(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"type": "response.created", "response": {"id": "r", "output": []}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": "r", "output": [item]}},
    ]


def test_a_built_in_shell_call_runs_only_echo_of_a_marker() -> None:
    local = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "c1",
        "action": {"type": "exec", "command": ["rm", "-rf", "/"]},
    }
    mapped = map_scenario(_one_item(local), [SHELL])
    for event in mapped.events[1:]:
        item = event.get("item") or event["response"]["output"][0]
        assert item["action"] == {"type": "exec", "command": ["echo", "responses-oracle-1"]}
    [quirk] = [e["item"] for e in map_scenario(_quirk("q02"), []).events[2:3]]
    assert quirk["action"]["commands"] == ["echo responses-oracle-1"]


def test_a_client_call_that_cannot_be_made_harmless_is_refused() -> None:
    patch = {
        "type": "apply_patch_call",
        "id": "apc_1",
        "call_id": "c1",
        "operation": {"type": "delete_file", "path": "/etc/passwd"},
    }
    with pytest.raises(MappingError, match="apply_patch_call"):
        map_scenario(_one_item(patch), [SHELL])


# A shared two-core machine can make generation look slow; the property is cheap.
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.text(max_size=5), min_size=1, max_size=6), st.text(max_size=40))
def test_split_like_concatenates_keeps_blanks_and_fills_the_rest(
    pieces: list[str], whole: str
) -> None:
    parts = split_like(pieces, whole)
    assert "".join(parts) == whole and len(parts) == len(pieces)
    nonempty = [i for i, piece in enumerate(pieces) if piece]
    if nonempty:
        assert all(parts[i] == "" for i, piece in enumerate(pieces) if not piece)
    if len(whole) >= len(nonempty):
        assert all(parts[i] for i in nonempty)


ECHO = OfferedTool(
    "echo", "function",
    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)
DRIVER = [ECHO, PING, FREEFORM]
"""What every driver offers: a tool with a parameter, one of none, a custom tool."""


def _tools_of(mapped: Any) -> dict[str, str]:
    return {call.original: call.tool for call in mapped.calls}


def test_a_zero_argument_call_goes_to_the_tool_of_no_parameter_and_only_it() -> None:
    assert _tools_of(map_scenario(_quirk("q10"), DRIVER)) == {"get_time": "ping"}
    zero = "rule-test_r7_a_zero_argument_call_keeps_its_empty_string"
    assert _tools_of(map_scenario(load_scenario(zero).played(), DRIVER)) == {"f": "ping"}
    # A call with arguments never goes to it, even when it is offered first.
    assert _tools_of(map_scenario(load_scenario("s01").played(), [PING, ECHO])) == {
        "get_weather": "echo"}
    with pytest.raises(NotApplicable, match="zero-argument call, and no offered tool"):
        map_scenario(_quirk("q10"), [ECHO, FREEFORM])


def test_an_override_takes_neither_a_zero_argument_nor_a_custom_call() -> None:
    override = [Override("echo", {"text": "{marker}"})]
    r12 = load_scenario("rule-test_r12_replay_adds_codex_compatible_aborted_outputs")
    assert _tools_of(map_scenario(r12.events, DRIVER, override)) == {
        "get_weather": "echo", "lookup": "ping", "apply_patch": "notes", "noid": "ping"}


def test_a_custom_call_goes_only_to_a_custom_tool() -> None:
    r12 = load_scenario("rule-test_r12_replay_adds_codex_compatible_aborted_outputs")
    with pytest.raises(NotApplicable, match="custom_tool_call, and no offered custom tool"):
        map_scenario(r12.events, [ECHO, PING])


def test_a_client_tool_search_only_where_the_request_declared_one() -> None:
    q01 = _quirk("q01")
    with pytest.raises(NotApplicable, match="declared no client tool search"):
        map_scenario(q01, DRIVER)
    declared = offered_tools({"tools": [{"type": "tool_search", "execution": "client"}]})
    assert map_scenario(q01, declared).events[2]["item"]["type"] == "tool_search_call"


def test_every_driver_declares_a_zero_parameter_tool_that_says_it_ran() -> None:
    drivers = sorted((REPO / "impl" / "agents" / "drivers").glob("*_*.*"))
    assert len(drivers) >= 8
    for driver in drivers:
        text = driver.read_text("utf-8")
        if "echo" not in text:
            continue  # not a driver of a client (the loopback preload)
        assert "ping" in text and f'"{RAN_WITHOUT_ARGUMENTS}"' in text, driver.name
