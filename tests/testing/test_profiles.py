"""Provider profiles: each deviation of protocol-notes §8 is present, and the oracle's
answer on it is the one DESIGN gives.

Every profile is applied to valid OpenAI streams of function calls (Hypothesis draws
the stream and the profile's own choices); the test checks the deviation itself on the
wire, then what the oracle makes of it: ids kept by first admission, payloads by the
latest non-empty offer, calls executable when the response completed.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import Result, reduce
from responses_oracle.testing.provider_profiles import PROFILES, apply_profiles
from responses_oracle.testing.strategies import data_chooser, provider_streams
from responses_oracle.testing.streams import GeneratedStream, openai_stream

SETTINGS = settings(max_examples=15, deadline=None)


def _profiled(data: st.DataObject, name: str) -> tuple[GeneratedStream, GeneratedStream]:
    choose = data_chooser(data)
    plain = openai_stream(choose, max_items=3, kinds=("function_call", "message"))
    return plain, apply_profiles(plain, (name,), choose)


def _reduce(stream: GeneratedStream) -> Result:
    [result] = reduce(list(stream.events))
    return result


def _calls(stream: GeneratedStream, where: str) -> list[dict[str, Any]]:
    """Function-call items of the stream at ``where``: added, done or snapshot."""
    if where == "snapshot":
        return [
            i for i in stream.events[-1]["response"].get("output") or []
            if i["type"] == "function_call"
        ]
    kind = f"response.output_item.{where}"
    return [
        e["item"] for e in stream.events
        if e["type"] == kind and e["item"]["type"] == "function_call"
    ]


def _final_arguments(plain: GeneratedStream) -> dict[int, str]:
    done = [
        e for e in plain.events
        if e["type"] == "response.function_call_arguments.done"
    ]
    return {e["output_index"]: e["arguments"] for e in done}


def _completed(stream: GeneratedStream) -> bool:
    return bool(stream.events[-1]["type"] == "response.completed")


def _result_calls(result: Result) -> dict[int | None, Any]:
    return {i.output_index: i for i in result.items if i.item["type"] == "function_call"}


@SETTINGS
@given(st.data())
def test_bedrock_mantle_renames_terminal_ids_and_the_oracle_keeps_them(
    data: st.DataObject,
) -> None:
    plain, mantle = _profiled(data, "bedrock-mantle")
    assert mantle.data_only and b"event:" not in mantle.to_sse()
    for item in _calls(mantle, "done") + _calls(mantle, "snapshot"):
        assert "id" not in item and item["item_id"].startswith("fc_")
        assert isinstance(item["output_index"], int)
    assert all(re.fullmatch(r"call_\d+", i["call_id"]) for i in _calls(mantle, "added"))
    result = _reduce(mantle)
    added = {i["call_id"]: i["id"] for i in _calls(mantle, "added")}
    arguments = _final_arguments(plain)
    for slot, call in _result_calls(result).items():
        assert call.item["id"] == added[call.item["call_id"]]
        assert call.id_source.value == "wire"
        assert "item_id" not in call.item and "output_index" not in call.item
        if slot in arguments:
            assert call.item["arguments"] == arguments[slot]
        assert call.executable == (_completed(mantle) and slot in arguments)


@SETTINGS
@given(st.data())
def test_github_copilot_rotates_ids_and_the_oracle_routes_by_slot(data: st.DataObject) -> None:
    plain, copilot = _profiled(data, "github-copilot")
    ids_by_slot: dict[int, list[str]] = defaultdict(list)
    for event in copilot.events:
        key = event.get("item_id") or (event.get("item") or {}).get("id")
        if key is not None:
            ids_by_slot[event["output_index"]].append(key)
    for ids in ids_by_slot.values():
        assert len(set(ids)) == len(ids) and all(len(i) == 400 for i in ids)
    result = _reduce(copilot)
    for slot, arguments in _final_arguments(plain).items():
        call = _result_calls(result)[slot]
        assert call.item["arguments"] == arguments
        assert call.item["id"] == ids_by_slot[slot][0]
        assert call.executable == _completed(copilot)
    codes = {d.code.value for d in result.diagnostics}
    assert "response_id_changed" in codes
    if any("item_id" in event for event in copilot.events):
        assert "item_id_unrecognized" in codes


@SETTINGS
@given(st.data())
def test_lm_studio_sends_arguments_only_in_done(data: st.DataObject) -> None:
    plain, lm = _profiled(data, "lm-studio")
    types = {e["type"] for e in lm.events}
    assert "response.function_call_arguments.delta" not in types
    assert all(re.fullmatch(r"call_\d+", i["call_id"]) for i in _calls(lm, "added"))
    result = _reduce(lm)
    for slot, arguments in _final_arguments(plain).items():
        assert _result_calls(result)[slot].item["arguments"] == arguments


@SETTINGS
@given(st.data())
def test_codex_backend_snapshot_is_empty_and_done_items_are_kept(data: st.DataObject) -> None:
    plain, codex = _profiled(data, "codex-backend")
    result = _reduce(codex)
    if not _completed(codex):
        return
    assert codex.events[-1]["response"].get("output", []) == []
    assert "snapshot_absent" in {d.code.value for d in result.diagnostics}
    for slot, arguments in _final_arguments(plain).items():
        call = _result_calls(result)[slot]
        assert call.item["arguments"] == arguments and call.executable


@SETTINGS
@given(st.data())
def test_blanked_terminal_arguments_never_erase(data: st.DataObject) -> None:
    plain, blank = _profiled(data, "blank-terminal-arguments")
    terminal = _calls(blank, "done") + _calls(blank, "snapshot")
    original = _calls(plain, "done") + _calls(plain, "snapshot")
    # The gateway blanks the place it picked (which may hold no call): it never invents.
    assert all(
        item["arguments"] in ("", before["arguments"])
        for item, before in zip(terminal, original, strict=True)
    )
    result = _reduce(blank)
    for slot, arguments in _final_arguments(plain).items():
        assert _result_calls(result)[slot].item["arguments"] == arguments


@SETTINGS
@given(st.data())
def test_sglang_calls_without_done_stay_confirmed_and_kept(data: st.DataObject) -> None:
    plain, sglang = _profiled(data, "sglang")
    assert _calls(sglang, "done") == []
    result = _reduce(sglang)
    for slot, arguments in _final_arguments(plain).items():
        call = _result_calls(result)[slot]
        assert call.item["arguments"] == arguments
        assert call.executable == _completed(sglang)


@SETTINGS
@given(st.data())
def test_vllm_snapshot_ids_differ_and_first_admission_wins(data: st.DataObject) -> None:
    _, vllm = _profiled(data, "vllm")
    streamed = {i["call_id"]: i["id"] for i in _calls(vllm, "added")}
    final = {i["call_id"]: i["id"] for i in _calls(vllm, "snapshot")}
    assert all(final[c] != streamed[c] for c in final)
    result = _reduce(vllm)
    for call in _result_calls(result).values():
        assert call.item["id"] == streamed[call.item["call_id"]]


@SETTINGS
@given(st.data())
def test_keepalives_and_unknown_events_change_no_item(data: st.DataObject) -> None:
    plain, noisy = _profiled(data, "keepalive-unknown")
    assert len(noisy.events) > len(plain.events)
    assert [e["sequence_number"] for e in noisy.events] == list(range(len(noisy.events)))
    ours, theirs = _reduce(plain), _reduce(noisy)
    assert [i.to_json() for i in theirs.items] == [i.to_json() for i in ours.items]
    extra = {d.code.value for d in theirs.diagnostics} - {d.code.value for d in ours.diagnostics}
    assert extra <= {"unknown_event"}


@settings(max_examples=30, deadline=None)
@given(provider_streams())
def test_every_profile_labels_its_stream_and_stays_json(stream: GeneratedStream) -> None:
    profile = [label for label in stream.labels if label.startswith("profile:")]
    assert len(profile) == 1 and profile[0].split(":")[1].split("+")[0] in PROFILES
    assert json.loads(stream.to_jsonl().splitlines()[0])["type"] == "response.created"
    assert len(reduce(stream.to_sse())) == 1


def test_every_profile_cites_protocol_notes() -> None:
    for profile in PROFILES.values():
        assert "protocol-notes §" in profile.evidence, profile.name
