"""The stream generators: valid OpenAI streams, model-guided walks, single faults.

Each property states what the oracle must answer on what the generator claims to make:
a valid completed stream reduces without a single diagnostic to exactly the items of
its ``response.completed``, every call executable; a model-guided walk never triggers a
diagnostic the lifecycle table reserves for disabled moves; a fault changes the stream
in exactly the way its label says.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import reduce
from responses_oracle.differential.compare import payloads
from responses_oracle.differential.taxonomy import api_problems
from responses_oracle.model.catalogue import ITEM_TYPES
from responses_oracle.reducer import response_parts
from responses_oracle.streamgen.cases import MIX, generated_case
from responses_oracle.streamgen.choices import case_chooser
from responses_oracle.streamgen.faults import FaultKind, fault_stream
from responses_oracle.streamgen.provider_profiles import PROFILES
from responses_oracle.streamgen.streams import GeneratedStream, openai_stream
from responses_oracle.streamgen.walk import model_guided_stream
from responses_oracle.testing.strategies import (
    data_chooser,
    faulty_streams,
    model_guided_streams,
    valid_streams,
)

SETTINGS = settings(max_examples=40, deadline=None)

_CALLS = ("function_call", "custom_tool_call")
_ID = re.compile(r"^(?P<prefix>[a-z]+)_[0-9a-f]{50}$")


def _projection(item: dict[str, Any]) -> dict[str, Any]:
    """Identity and payloads: what the result contract makes the reducer answer for."""
    keys = ("type", "id", "call_id", "name")
    return {**{k: item.get(k) for k in keys}, **payloads(item)}


@SETTINGS
@given(valid_streams())
def test_valid_streams_reduce_to_their_snapshot_without_diagnostics(
    stream: GeneratedStream,
) -> None:
    events = list(stream.events)
    [result] = reduce(events)
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    terminal = events[-1]
    snapshot = terminal["response"]["output"]
    if terminal["type"] == "response.completed":
        assert result.status.value == "completed"
        assert result.diagnostics == ()
        assert [_projection(i.item) for i in result.items] == [_projection(i) for i in snapshot]
        assert all(i.executable for i in result.items if i.item["type"] in _CALLS)
        assert all(i.state.value == "completed" for i in result.items)
    else:
        assert terminal["type"] == "response.incomplete"
        assert result.status.value == "incomplete"
        assert not any(i.executable for i in result.items)
        assert len(result.items) == len(snapshot)


@SETTINGS
@given(valid_streams())
def test_valid_streams_have_openai_shaped_ids(stream: GeneratedStream) -> None:
    items = [e["item"] for e in stream.events if e["type"] == "response.output_item.added"]
    for item in items:
        match = _ID.match(item["id"])
        assert match is not None and match["prefix"] == ITEM_TYPES[item["type"]].id_prefix
        if item["type"] in _CALLS:
            assert re.fullmatch(r"call_[0-9A-Za-z]{24}", item["call_id"])
    assert _ID.match(stream.events[0]["response"]["id"])
    assert len({item["id"] for item in items}) == len(items)


@SETTINGS
@given(valid_streams(max_items=3), st.booleans())
def test_sse_and_jsonl_renderings_reduce_like_the_events(
    stream: GeneratedStream, data_only: bool
) -> None:
    stream = GeneratedStream(stream.events, stream.labels, data_only)
    expected = [r.to_json() for r in reduce(list(stream.events))]
    for raw in (stream.to_sse(), stream.to_jsonl()):
        assert [r.to_json() for r in reduce(raw)] == expected
    assert (b"event: " in stream.to_sse()) is not data_only


def test_generation_is_deterministic_per_seed_and_index() -> None:
    first = [openai_stream(case_chooser(3, n)).events for n in range(5)]
    again = [openai_stream(case_chooser(3, n)).events for n in range(5)]
    other = [openai_stream(case_chooser(4, n)).events for n in range(5)]
    assert first == again
    assert first != other


_DISABLED_CODES = {
    "late_event",
    "duplicate_item",
    "orphan_event",
    "ambiguous_route",
    "duplicate_call_id",
    "channel_mismatch",
    "metadata_conflict",
    "after_terminal",
    "sequence_gap",
    "sequence_regression",
}
"""Codes only a move the lifecycle table disables, or a transport fault, can raise."""


@SETTINGS
@given(model_guided_streams())
def test_model_guided_streams_only_take_enabled_moves(stream: GeneratedStream) -> None:
    [result] = reduce(list(stream.events))
    raised = {d.code.value for d in result.diagnostics}
    assert not raised & _DISABLED_CODES, raised
    assert stream.labels == ("model-guided",)


@SETTINGS
@given(faulty_streams())
def test_faulty_streams_carry_exactly_one_fault(stream: GeneratedStream) -> None:
    faults = [label for label in stream.labels if label.startswith("fault:")]
    assert len(faults) <= 1
    kinds = {kind.value for kind in FaultKind}
    assert all(label.split(":")[1].split("@")[0] in kinds for label in faults)
    # Whatever the fault, the stream still reduces to one response.
    assert len(reduce(list(stream.events))) == 1


@settings(max_examples=60, deadline=None)
@given(valid_streams(max_items=2), st.data())
def test_each_list_fault_does_what_its_label_says(
    stream: GeneratedStream, data: st.DataObject
) -> None:
    faulty, fault = fault_stream(stream, data_chooser(data))
    before, after, at = list(stream.events), list(faulty.events), fault.position
    assert faulty.labels[-1] == fault.label
    if fault.kind is FaultKind.DROP:
        assert after == before[:at] + before[at + 1 :]
    elif fault.kind is FaultKind.DUPLICATE:
        assert after == before[: at + 1] + before[at : at + 1] + before[at + 1 :]
    elif fault.kind is FaultKind.REORDER and at + 1 < len(before):
        assert after == [*before[:at], before[at + 1], before[at], *before[at + 2:]]
    elif fault.kind is FaultKind.TRUNCATE:
        assert after == before[:at]
    elif fault.kind is FaultKind.STRIP:
        head, _, rest = fault.detail.partition(".")
        changed = after[at]
        assert (rest not in changed[head]) if rest else (head not in changed)
        assert after[:at] == before[:at] and after[at + 1 :] == before[at + 1 :]
    elif fault.kind is FaultKind.RETARGET and "->" in fault.detail:
        old, new = (int(x) for x in fault.detail.split("->"))
        assert before[at]["output_index"] == old != new == after[at]["output_index"]
        assert {**after[at], "output_index": old} == before[at]
    assert json.dumps(before)  # the original is untouched and still serialisable
    assert stream.events == tuple(before)


@settings(max_examples=5, deadline=None)
@given(st.from_type(GeneratedStream))
def test_the_entry_point_registers_valid_streams_for_the_type(stream: GeneratedStream) -> None:
    assert stream.labels == ("openai",)
    assert stream.events[0]["type"] == "response.created"


def test_generated_streams_that_complete_are_valid_per_the_api_types() -> None:
    """A raise on a stream the API's event types do not allow is not a bug of the client
    (``taxonomy``): the generators must not make every stream such a stream (their
    responses once lacked the request echoes ``tools``, ``tool_choice`` and
    ``parallel_tool_calls``, the model-guided walk also ``output`` and ``logprobs``)."""
    streams = [openai_stream(case_chooser(3, i)) for i in range(60)]
    completed = [s for s in streams if s.events[-1]["type"] == "response.completed"]
    assert len(completed) >= 30
    assert [api_problems(s.events) for s in completed] == [[]] * len(completed)
    walked = [model_guided_stream(case_chooser(4, i)) for i in range(150)]
    plain = [s for s in walked if s.labels == ("model-guided",)
             and s.events[-1]["type"] == "response.completed"
             and "response.output_text.annotation.added" not in {e["type"] for e in s.events}
             and "output" in s.events[-1]["response"]]
    assert len(plain) >= 12
    assert [api_problems(s.events) for s in plain] == [[]] * len(plain)


def test_the_reducers_cut_gives_each_response_alone_as_the_whole_reduces_it() -> None:
    # What `diff --split-responses` and the cause hypotheses send one response at a time.
    for index in range(300):
        events = list(generated_case(0, index, MIX, PROFILES).stream.events)
        whole = reduce(events)
        parts = response_parts(events)
        assert len(parts) == len(whole), index
        for part, result in zip(parts, whole, strict=True):
            [alone] = reduce(part)
            assert alone.status == result.status, index
            assert [i.item for i in alone.items] == [i.item for i in result.items], index
