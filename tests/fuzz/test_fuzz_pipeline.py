"""Fuzzing the whole pipeline: bytes in every input format → front end → reducer → result.

Every example checks that nothing raises, that every result is valid against the
shipped schema, and that the diagnostics explain the damage done to the input: the
right code at the right ``event_index``, with everything else reduced as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fuzz.fuzzkit import (
    CleanStream,
    Element,
    SSEFraming,
    all_codes,
    axonhub_bytes,
    check_clean_result,
    chunked,
    clean_streams,
    contract_json,
    damaged_texts,
    diagnostics_at,
    expected_problem,
    fuzz_settings,
    hostile_events,
    json_array_bytes,
    jsonl_bytes,
    mutate,
    mutations,
    recording_bytes,
    sse_bytes,
    sse_framings,
)
from hypothesis import assume, given
from hypothesis import strategies as st
from responses_oracle import Reducer, reduce
from responses_oracle.core.step import ReducerLimits
from responses_oracle.model.catalogue import WIRE_EVENTS, EventClass
from responses_oracle.wire.formats import InputFormat, iter_wire_events
from responses_oracle.wire.records import Limits

LINE_FORMATS: dict[InputFormat, Any] = {
    InputFormat.SSE: sse_bytes,
    InputFormat.JSONL: jsonl_bytes,
    InputFormat.AXONHUB: axonhub_bytes,
    InputFormat.RECORDING: recording_bytes,
}
"""The formats that can carry a damaged event text, and how to write them."""

_INDEXED = (EventClass.ITEM_SCOPED, EventClass.ITEM_ADDED, EventClass.ITEM_DONE)


def _reduce(data: bytes, fmt: InputFormat, **limits: Any) -> list[dict[str, Any]]:
    return contract_json(reduce(data, format=fmt, **limits))


def _reduce_chunks(chunks: list[bytes], fmt: InputFormat) -> list[dict[str, Any]]:
    reducer = Reducer()
    reducer.feed_all(iter_wire_events(chunks, fmt))
    return contract_json(reducer.finish())


def _items(results: list[dict[str, Any]]) -> list[Any]:
    return [result["items"] for result in results]


def _problems_accounted(data: bytes, fmt: InputFormat, results: list[dict[str, Any]]) -> None:
    """Every event the front end could not decode is a diagnostic at its index."""
    found = {(d["code"], d["event_index"]) for r in results for d in r["diagnostics"]}
    events = list(iter_wire_events([data], fmt))
    for event in events:
        if event.problem is not None:
            assert (event.problem.value, event.index) in found
    assert bool(results) == bool(events)


# -- clean streams: known answers, any framing ------------------------------------------


@fuzz_settings(60)
@given(clean_streams(), sse_framings(), st.lists(st.integers(0), max_size=8))
def test_clean_stream_in_any_sse_framing_and_chunking(
    stream: CleanStream, framing: SSEFraming, cuts: list[int]
) -> None:
    data = sse_bytes(stream.events, framing)
    results = _reduce(data, InputFormat.AUTO)
    check_clean_result(stream, results)
    assert _reduce_chunks(chunked(data, cuts), InputFormat.SSE) == results


@fuzz_settings(30)
@given(clean_streams(), st.integers(0, 60))
def test_clean_stream_reduces_alike_in_every_format(stream: CleanStream, split: int) -> None:
    expected = _reduce(sse_bytes(stream.events), InputFormat.SSE)
    check_clean_result(stream, expected)
    inputs = {
        InputFormat.JSONL: jsonl_bytes(stream.events),
        InputFormat.JSON_ARRAY: json_array_bytes(stream.events),
        InputFormat.AXONHUB: axonhub_bytes(stream.events),
        InputFormat.RECORDING: recording_bytes(stream.events, split % (len(stream.events) + 1)),
    }
    for fmt, data in inputs.items():
        assert _reduce(data, fmt) == expected, fmt
        assert _reduce(data, InputFormat.AUTO) == expected, fmt


# -- damage the diagnostics must explain ---------------------------------------------------


@pytest.mark.parametrize("fmt", list(LINE_FORMATS))
@fuzz_settings(25)
@given(
    clean_streams(max_items=3),
    st.lists(st.tuples(st.integers(0), damaged_texts()), min_size=1, max_size=3),
)
def test_undecodable_event_is_reported_at_its_index(
    fmt: InputFormat, stream: CleanStream, damage: list[tuple[int, str]]
) -> None:
    elements: list[Element] = list(stream.events)
    for position, text in damage:
        elements.insert(position % (len(elements) + 1), text)
    results = _reduce(LINE_FORMATS[fmt](elements), fmt)
    clean = _reduce(jsonl_bytes(stream.events), InputFormat.JSONL)
    assert _items(results) == _items(clean)
    expected: set[str] = set()
    for index, element in enumerate(elements):
        if isinstance(element, str):
            expected.add(expected_problem(element))
            assert expected_problem(element) in diagnostics_at(results, index)
    assert all_codes(results) == all_codes(clean) | expected


@fuzz_settings(40)
@given(
    clean_streams(max_items=3),
    st.integers(1),
    st.sampled_from(["regress", "repeat", "gap", "not_an_int"]),
    st.integers(0, 5),
)
def test_sequence_damage_is_reported_at_its_index(
    stream: CleanStream, where: int, mode: str, amount: int
) -> None:
    # Events up to and including the terminal one are checked; later ones are ignored.
    last = min(stream.terminal_index(), len(stream.events) - 1)
    index = 1 + where % last
    events = [dict(e) for e in stream.events]
    previous = events[index - 1]["sequence_number"]
    value, code = {
        "regress": (previous - 1 - amount, "sequence_regression"),
        "repeat": (previous, "sequence_regression"),
        "gap": (previous + 2 + amount, "sequence_gap"),
        "not_an_int": (str(index), "invalid_field"),
    }[mode]
    events[index]["sequence_number"] = value
    results = _reduce(jsonl_bytes(events), InputFormat.JSONL)
    (found,) = [
        d
        for r in results
        for d in r["diagnostics"]
        if (d["code"], d["event_index"]) == (code, index)
    ]
    assert found["sequence_number"] == (None if mode == "not_an_int" else value)
    clean = _reduce(jsonl_bytes(stream.events), InputFormat.JSONL)
    assert _items(results) == _items(clean)


@fuzz_settings(25)
@given(clean_streams(max_items=3), st.integers(0), st.sampled_from(["before", "after"]))
def test_sse_event_name_mismatch_is_reported_at_its_index(
    stream: CleanStream, where: int, place: str
) -> None:
    index = where % len(stream.events)
    framing = SSEFraming(event_line=place)
    data = sse_bytes(stream.events, framing, {index: "response.bogus_name"})
    results = _reduce(data, InputFormat.SSE)
    assert diagnostics_at(results, index) >= {"event_name_mismatch"}
    clean = _reduce(sse_bytes(stream.events, framing), InputFormat.SSE)
    assert _items(results) == _items(clean)


@fuzz_settings(40)
@given(clean_streams(), sse_framings(), st.integers(0))
def test_truncated_stream_is_interrupted_or_whole(
    stream: CleanStream, framing: SSEFraming, where: int
) -> None:
    data = sse_bytes(stream.events, framing)
    cut = data[: where % (len(data) + 1)]
    whole = _reduce(data, InputFormat.SSE)
    results = _reduce(cut, InputFormat.SSE)
    _problems_accounted(cut, InputFormat.SSE, results)
    if results == whole or not results:
        return
    (result,) = results
    if result["response"]["status"] == "interrupted":
        assert "missing_terminal" in all_codes(results)
    else:
        # Cut inside the terminal event's block after its data, or inside a trailing
        # [DONE]: only a cut-off event name or trailer can add a finding.
        assert (result["response"], result["items"]) == (whole[0]["response"], whole[0]["items"])
        assert all_codes(results) - all_codes(whole) <= {"malformed_event", "event_name_mismatch"}


# -- limits -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [InputFormat.SSE, InputFormat.JSONL])
@fuzz_settings(25)
@given(clean_streams(max_items=3), st.integers(8, 400))
def test_oversized_events_are_reported_at_their_index(
    fmt: InputFormat, stream: CleanStream, limit: int
) -> None:
    data = LINE_FORMATS[fmt](stream.events)
    results = _reduce(data, fmt, wire_limits=Limits(max_event_bytes=limit))
    oversized = {
        index
        for index, event in enumerate(stream.events)
        if len(json.dumps(event).encode()) > limit
    }
    reported = {
        d["event_index"] for r in results for d in r["diagnostics"] if d["code"] == "limit_exceeded"
    }
    assert reported == oversized


@fuzz_settings(25)
@given(clean_streams(max_items=3), st.integers(1))
def test_total_byte_limit_stops_reading_and_says_so(stream: CleanStream, limit: int) -> None:
    data = sse_bytes(stream.events)
    limit = 1 + limit % (len(data) + 10)
    results = _reduce(data, InputFormat.SSE, wire_limits=Limits(max_total_bytes=limit))
    assert ("limit_exceeded" in all_codes(results)) is (limit < len(data))
    if limit >= len(data):
        check_clean_result(stream, results)


@fuzz_settings(25)
@given(clean_streams(), st.integers(0, 4), st.integers(0, 30))
def test_reducer_limits_cap_entries_and_channels(
    stream: CleanStream, max_entries: int, max_chars: int
) -> None:
    limits = ReducerLimits(max_entries=max_entries, max_channel_chars=max_chars)
    results = contract_json(reduce(list(stream.events), limits=limits))
    (result,) = results
    too_many = len(stream.items) > max_entries
    too_long = any(len(p.payload) > max_chars for p in stream.items[:max_entries])
    assert len(result["items"]) == min(len(stream.items), max_entries)
    assert ("limit_exceeded" in all_codes(results)) is (too_many or too_long)


# -- hostile content ---------------------------------------------------------------------


def _hostile_stream() -> st.SearchStrategy[list[Element]]:
    element: st.SearchStrategy[Element] = st.one_of(hostile_events, hostile_events, damaged_texts())
    return st.lists(element, min_size=1, max_size=12)


def _check_hostile(elements: list[Element], results: list[dict[str, Any]]) -> None:
    for index, element in enumerate(elements):
        codes = diagnostics_at(results, index)
        if isinstance(element, str):
            assert expected_problem(element) in codes
            continue
        spec = WIRE_EVENTS.get(element["type"])
        if spec is None:
            assert codes & {"unknown_event", "after_terminal"}
        sequence = element.get("sequence_number")
        if sequence is not None and type(sequence) is not int:
            assert "invalid_field" in codes
        slot = element.get("output_index")
        indexed = spec is not None and spec.event_class in _INDEXED
        if indexed and slot is not None and (type(slot) is not int or not 0 <= slot <= 1 << 20):
            assert "invalid_field" in codes


@fuzz_settings(80)
@given(_hostile_stream(), sse_framings(), st.lists(st.integers(0), max_size=6))
def test_hostile_events_over_sse(
    elements: list[Element], framing: SSEFraming, cuts: list[int]
) -> None:
    data = sse_bytes(elements, framing)
    results = _reduce(data, InputFormat.SSE)
    _check_hostile(elements, results)
    assert _reduce_chunks(chunked(data, cuts), InputFormat.SSE) == results


@pytest.mark.parametrize("fmt", [InputFormat.JSONL, InputFormat.AXONHUB, InputFormat.RECORDING])
@fuzz_settings(40)
@given(_hostile_stream())
def test_hostile_events_reduce_alike_in_every_format(
    fmt: InputFormat, elements: list[Element]
) -> None:
    results = _reduce(LINE_FORMATS[fmt](elements), fmt)
    _check_hostile(elements, results)
    assert results == _reduce(sse_bytes(elements), InputFormat.SSE)


@fuzz_settings(40)
@given(st.lists(hostile_events, min_size=1, max_size=12))
def test_hostile_events_as_a_json_array(events: list[dict[str, Any]]) -> None:
    results = _reduce(json_array_bytes(events), InputFormat.JSON_ARRAY)
    _check_hostile(list(events), results)


# -- raw and mutated bytes ------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(InputFormat))
@fuzz_settings(60)
@given(st.binary(max_size=600))
def test_any_bytes_in_any_format(fmt: InputFormat, data: bytes) -> None:
    results = _reduce(data, fmt)
    _problems_accounted(data, fmt, results)


@pytest.mark.parametrize("fmt", list(LINE_FORMATS))
@fuzz_settings(60)
@given(clean_streams(max_items=3), mutations())
def test_mutated_inputs_in_any_format(
    fmt: InputFormat, stream: CleanStream, edits: list[tuple[str, int, bytes]]
) -> None:
    data = mutate(LINE_FORMATS[fmt](stream.events), edits)
    assume(data)
    for as_format in (fmt, InputFormat.AUTO):
        results = _reduce(data, as_format)
        _problems_accounted(data, as_format, results)
