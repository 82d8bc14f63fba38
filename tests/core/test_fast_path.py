"""Reducing fast changes nothing: results, diagnostics and traces are those of the general path.

The reducer saves work in two ways, and neither may change what it produces:

- without a trace (``Reducer(trace=False)``, ``core.step.advance``) the summaries a
  ``StepTrace`` carries are never formatted, and the ``Reducer`` reuses one context
  per response, traced or not (``core.step.advancer``, ``core.step.tracer``) instead
  of making one per event;
- a few hot spots take a fast path for the common case and fall back to the general
  code otherwise: ``core.events.parse_event`` (the general code is ``_validated``) and
  the front end's ``wire.decode._loads`` (the general code is ``json.loads``);
- the per-event records (``Event``, ``WireEvent``, ``SSEMessage``) are built with
  ``tuple.__new__`` on the hot path, bypassing their named tuple's ``__new__``;
- the ``Reducer`` reads a routed event's cell from the response's route cache
  (``ResponseState.routes``) when its key was routed before, traced or not (a cell
  keeps the summary its trace shows); ``core.step.step`` decides anew every time,
  and the ``Reducer``'s traces must be ``step``'s.

Checked on every real capture and on Hypothesis streams of every kind (valid,
provider-rewritten, model-guided with one fault, hostile events of random field types):

- ``Reducer(trace=False)`` and ``Reducer(trace=True)`` give equal result JSON, from
  decoded events and from the bytes;
- the core driven by hand with ``advance``, with ``advancer`` and with ``step`` holds
  equal state after every event, and the ``step`` traces are the ones the ``Reducer``
  records;
- the records built on the hot path are of their named tuple's type and equal the ones
  its constructor builds;
- ``parse_event`` is ``_validated`` on any event, and ``_loads`` is ``json.loads`` on
  any text (the same value, or the same error).
- the route cache is emptied whenever a cell can change (an id learned, a slot
  bound again): two streams where a cache that kept its cells answers otherwise.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest
from differential.corpus import CAPTURES, capture_path
from fuzz.fuzzkit import damaged_texts, hostile_events
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import Reducer
from responses_oracle.core import generated_classifiers as classifiers
from responses_oracle.core.events import (
    _PLAIN_SCOPED,
    Event,
    _validated,
    fields_read,
    parse_event,
)
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.core.state import ResponseState
from responses_oracle.core.step import StepTrace, advance, advancer, end_of_input, step
from responses_oracle.model import classgen
from responses_oracle.model.catalogue import MAX_INDEX, WIRE_EVENTS
from responses_oracle.model.classgen import classifiers_path, render_classifiers
from responses_oracle.model.ops import PYTHON
from responses_oracle.model.responses import (
    FRAME_TYPES,
    frame_closes,
    starts_new,
)
from responses_oracle.model.routing import route_target, route_views
from responses_oracle.model.vocabulary import Code, EntryState, RouteAction
from responses_oracle.result import build_result
from responses_oracle.testing.strategies import (
    faulty_streams,
    model_guided_streams,
    provider_streams,
    valid_streams,
)
from responses_oracle.wire.decode import EventBuilder, _loads
from responses_oracle.wire.formats import read_wire_events
from responses_oracle.wire.records import WireEvent
from responses_oracle.wire.sse import SSEDecoder, SSEMessage

Source = Sequence[Mapping[str, Any] | WireEvent]
"""What a ``Reducer`` is fed: decoded events, or the front end's ``WireEvent``s."""


def _held(state: ResponseState) -> tuple[Any, ...]:
    """Everything a state holds but its interner, whose ids are compared through
    ``aliases`` and ``call_ids`` (keyed by them)."""
    return tuple(
        getattr(state, field.name)
        for field in dataclasses.fields(state)
        if field.name != "interner"
    )


def _usable(source: Source) -> Iterable[tuple[int, Mapping[str, Any]]]:
    """The (index, payload) pairs the ``Reducer`` hands to the core, in order."""
    for position, event in enumerate(source):
        if isinstance(event, WireEvent):
            usable = event.problem is None or event.problem is Code.INVALID_UTF8
            if usable and event.payload is not None:
                yield event.index, event.payload
        else:
            yield position, event


def _close(plain: ResponseState, bound: ResponseState, traced: ResponseState) -> dict[str, Any]:
    for state in (plain, bound, traced):
        end_of_input(state, KERNELS)
    assert _held(plain) == _held(traced) and _held(bound) == _held(traced)
    result = build_result(traced).to_json()
    assert build_result(plain).to_json() == result
    assert build_result(bound).to_json() == result
    return result


def _lockstep(events: Iterable[tuple[int, Mapping[str, Any]]]) -> list[StepTrace]:
    """Reduce by hand three times, with ``advance``, with one ``advancer`` per response
    and with ``step`` (splitting responses as the ``Reducer`` does); the three states
    must agree after every event."""
    plain, bound, traced = ResponseState(), ResponseState(), ResponseState()
    advance_bound = advancer(bound, KERNELS)
    traces: list[StepTrace] = []
    for index, payload in events:
        type_ = payload.get("type")
        if not isinstance(type_, str):
            continue
        opened = traced.started or bool(traced.entries)
        held = bool(opened or traced.events or traced.diagnostics)
        closing = frame_closes(KERNELS.frame, KERNELS.reads_frame, type_) and held
        boundary, reads = KERNELS.boundary, KERNELS.reads_opening
        if closing or starts_new(
            boundary, reads, payload, traced.terminal, opened, traced.response_id
        ):
            _close(plain, bound, traced)
            plain, bound, traced = ResponseState(), ResponseState(), ResponseState()
            advance_bound = advancer(bound, KERNELS)
        if type_ in FRAME_TYPES:
            continue  # skipped by the Reducer, after the close above
        event = parse_event(index, payload)
        advance(plain, event, KERNELS)
        advance_bound(event)
        traces.append(step(traced, event, KERNELS))
        assert _held(plain) == _held(traced), f"states differ after event {index} ({type_})"
        assert _held(bound) == _held(traced), f"bound state differs after event {index}"
        # An entry's channels are attached, so ``_attach`` may skip their lookup.
        assert all(c.attached for e in traced.entries for c in e.channels.values())
    _close(plain, bound, traced)
    return traces


def assert_equivalent(source: Source) -> tuple[list[dict[str, Any]], list[StepTrace]]:
    """Reduce ``source`` with and without a trace and by hand; return the results and traces."""
    plain, traced = Reducer(), Reducer(trace=True)
    plain.feed_all(source)
    traced.feed_all(source)
    results = [result.to_json() for result in traced.finish()]
    assert [result.to_json() for result in plain.finish()] == results
    assert plain.traces is None and traced.traces is not None
    assert traced.traces == _lockstep(_usable(source))
    return results, traced.traces


# -- real captures ------------------------------------------------------------------


@pytest.mark.parametrize("name", CAPTURES)
def test_capture_reduces_alike_with_and_without_a_trace(name: str) -> None:
    wire = list(read_wire_events(capture_path(name)))
    results, traces = assert_equivalent(wire)
    assert results and all(result["response"]["status"] == "completed" for result in results)
    assert len(traces) == len(wire)
    # A trace still says what every event did: each decision is spelled out.
    assert all(trace.decision for trace in traces)
    routed = [t for t in traces if WIRE_EVENTS[t.type].trigger is not None]
    assert routed and all(t.decision.startswith("route ") for t in routed)
    # From the decoded events (no front end) the results are the same again.
    payloads = [event.payload for event in wire if event.payload is not None]
    assert assert_equivalent(payloads)[0] == results


# -- generated streams ----------------------------------------------------------------

_STREAMS = st.one_of(
    valid_streams(),
    provider_streams(),
    model_guided_streams(),
    faulty_streams(),
    faulty_streams(base=provider_streams()),
)


@settings(max_examples=60, deadline=None)
@given(_STREAMS)
def test_generated_stream_reduces_alike_with_and_without_a_trace(stream: Any) -> None:
    results, traces = assert_equivalent(stream.events)
    assert len(traces) == len(stream.events) and bool(results) == bool(stream.events)
    sse = list(read_wire_events(stream.to_sse()))
    assert assert_equivalent(sse)[0] == results


@settings(max_examples=60, deadline=None)
@given(st.lists(hostile_events, min_size=1, max_size=12))
def test_hostile_events_reduce_alike_with_and_without_a_trace(
    events: list[dict[str, Any]],
) -> None:
    results, traces = assert_equivalent(events)
    assert len(traces) == len(events)
    # Every event with a field of a wrong type is still reported, traced or not.
    codes = {d["code"] for result in results for d in result["diagnostics"]}
    if any(parse_event(0, event).problems for event in events):
        assert codes & {"invalid_field", "null_item"}


def test_trace_decisions_are_spelled_out() -> None:
    """The summaries a trace carries, for each kind of step (unchanged by the fast path)."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f"}
    done = dict(call, arguments='{"q": 1}', status="completed")
    scoped = {"output_index": 0, "item_id": "fc_1"}
    delta = "response.function_call_arguments.delta"
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 0, "item": dict(call)},
        {"type": delta, **scoped, "delta": '{"q": '},
        {"type": delta, "output_index": 0, "item_id": "fc_9", "delta": "1}"},
        {"type": delta, "output_index": 5, "delta": "x"},
        {"type": "response.function_call_arguments.done", **scoped, "arguments": '{"q": 1}'},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": delta, **scoped, "delta": "late"},
        {"type": "response.vendor.extension"},
        {"type": "response.completed", "response": {"id": "resp_1", "output": [done]}},
        {"type": "response.output_text.delta", "output_index": 0, "delta": "after"},
    ]
    (result,), traces = assert_equivalent(events)
    assert [(t.decision, [c.value for c in t.codes]) for t in traces] == [
        ("response", []),
        ("added: new -> admit", []),
        ("route one/one_of_slot -> by_slot", []),
        ("route one/unseen -> by_slot", ["item_id_unrecognized"]),
        ("route none/absent -> drop", ["orphan_event"]),
        ("route one/one_of_slot -> by_slot", []),
        ("item_done: agree -> match", []),
        ("route one/one_of_slot -> by_slot", ["late_event"]),
        ("unknown", ["unknown_event"]),
        ("terminal: completed", []),
        ("after terminal", ["after_terminal"]),
    ]
    assert (traces[5].entry, traces[5].before, traces[5].after) == (
        0,
        EntryState.STREAMING,
        EntryState.PAYLOAD_DONE,
    )
    (item,) = result["items"]
    assert item["item"]["arguments"] == '{"q": 1}' and item["executable"]


# -- the route cache (core.route, ResponseState.routes) -------------------------------


class _Unforgetting(dict[Any, Any]):
    """A route cache never emptied: the mutant the streams below must catch."""

    def clear(self) -> None:
        """Keep every cell, stale or not."""


_DELTA = "response.function_call_arguments.delta"
_NAMELESS = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": ""}
_CACHE_STREAMS: dict[str, list[dict[str, Any]]] = {
    # The id is learned from the first delta (the item came without one): the second
    # delta is routed by it, no longer by the slot alone.
    "id_learned": [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 0, "item": _NAMELESS},
        {"type": _DELTA, "output_index": 0, "item_id": "fc_1", "delta": "{"},
        {"type": _DELTA, "output_index": 0, "item_id": "fc_1", "delta": "}"},
    ],
    # A second item takes the slot: a delta by slot alone no longer goes to the first.
    "slot_rebound": [
        {"type": "response.created", "response": {"id": "resp_1"}},
        {"type": "response.output_item.added", "output_index": 0, "item": _NAMELESS},
        {"type": _DELTA, "output_index": 0, "delta": "{"},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": dict(_NAMELESS, call_id="call_2"),
        },
        {"type": _DELTA, "output_index": 0, "delta": "}"},
    ],
}


@pytest.mark.parametrize("name", sorted(_CACHE_STREAMS))
def test_the_route_cache_is_emptied_when_a_cell_can_change(name: str) -> None:
    """What the cache answers is what the model decides anew, and a cache that kept its
    cells through the change would answer otherwise (so the streams can catch it)."""
    events = _CACHE_STREAMS[name]
    assert_equivalent(events)
    stale, fresh = ResponseState(), ResponseState()
    stale.routes = _Unforgetting()
    advance_stale = advancer(stale, KERNELS)
    for index, payload in enumerate(events):
        event = parse_event(index, payload)
        advance_stale(event)
        step(fresh, event, KERNELS)
    end_of_input(stale, KERNELS)
    end_of_input(fresh, KERNELS)
    assert build_result(stale).to_json() != build_result(fresh).to_json()


# -- parse_event: the one-step read equals the field-by-field one ---------------------

_ODD_VALUES = st.one_of(
    st.none(),
    st.integers(-2, 3),
    st.sampled_from([MAX_INDEX - 1, MAX_INDEX, MAX_INDEX + 1, 1 << 70]),
    st.booleans(),
    st.floats(allow_nan=False, max_value=4, min_value=-1),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)
"""Values of the right type, the wrong type, and at the edges of the index range."""

_SCALAR_FIELDS = (
    "sequence_number",
    "output_index",
    "item_id",
    "content_index",
    "summary_index",
    "command_index",
    "delta",
    "text",
    "arguments",
    "input",
    "code",
    "diff",
    "refusal",
    "command",
)

_PLAIN_EVENTS = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(_PLAIN_SCOPED))},
    optional={name: _ODD_VALUES for name in _SCALAR_FIELDS},
)
"""Events of the fast path's types with every field it reads, of any type or none."""


def _general(index: int, payload: Mapping[str, Any]) -> Any:
    return _validated(index, payload["type"], WIRE_EVENTS.get(payload["type"]), payload)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_PLAIN_EVENTS, hostile_events))
def test_parse_event_equals_the_field_by_field_read(payload: dict[str, Any]) -> None:
    event = parse_event(3, payload)
    assert event == _general(3, payload) and type(event) is Event
    assert event.index == 3 and event.payload is payload


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"output_index": MAX_INDEX, "content_index": 0, "item_id": "", "delta": ""}, None),
        ({"output_index": MAX_INDEX + 1}, "output_index must be an integer in 0..1048576"),
        ({"output_index": -1}, "output_index must be an integer in 0..1048576, got -1"),
        ({"output_index": True}, "output_index must be an integer in 0..1048576, got True"),
        ({"content_index": 1.0}, "content_index must be an integer in 0..1048576, got 1.0"),
        ({"sequence_number": "4"}, "sequence_number must be an integer, got '4'"),
        ({"item_id": 7}, "item_id must be a string, got int"),
        ({"delta": ["a"]}, "delta must be a string, got list"),
        ({"delta": None}, "delta is missing"),
    ],
)
def test_parse_event_reports_each_bad_field(fields: dict[str, Any], problem: str | None) -> None:
    payload = {"type": "response.output_text.delta", "output_index": 2, "delta": "", **fields}
    event = parse_event(0, payload)
    assert event == _general(0, payload)
    if problem is None:
        assert event.problems == ()
        assert (event.output_index, event.item_id, event.value) == (MAX_INDEX, None, "")
    else:
        ((code, text),) = event.problems
        assert code is Code.INVALID_FIELD and text.startswith(problem)


def test_parse_event_reads_a_delta() -> None:
    payload = {
        "type": "response.output_text.delta",
        "sequence_number": 4,
        "output_index": 1,
        "item_id": "msg_1",
        "content_index": 2,
        "delta": "hi",
    }
    spec = WIRE_EVENTS["response.output_text.delta"]
    assert parse_event(9, payload) == Event(
        index=9,
        type="response.output_text.delta",
        spec=spec,
        payload=payload,
        sequence_number=4,
        output_index=1,
        item_id="msg_1",
        channel=spec.channel,
        part_index=2,
        value="hi",
        part=None,
        item=None,
        response=None,
        problems=(),
    )


# -- the per-event records of the front end -------------------------------------------


def test_front_end_records_equal_their_constructors() -> None:
    """The ``SSEMessage`` and ``WireEvent`` a good event makes, built on the hot path
    with ``tuple.__new__``, are of their own types and equal the constructors' records
    (the rare paths, an oversized block and a problem event, still use those)."""
    kind = "response.output_text.delta"
    delta = {"type": kind, "output_index": 0, "delta": "hi"}
    text = json.dumps(delta)
    (message,) = SSEDecoder().feed(f"id: 7\nevent: {kind}\ndata: {text}\n\n".encode())
    assert type(message) is SSEMessage
    assert message == SSEMessage(kind, text, "7")
    assert (message.invalid_utf8, message.oversized) == (False, False)
    (plain,) = SSEDecoder().feed(f"data: {text}\n\n".encode())
    assert plain == SSEMessage(None, text, None) and type(plain) is SSEMessage
    builder = EventBuilder()
    first, second = builder.decode(text, "message"), builder.decode(text)
    assert type(first) is WireEvent and type(second) is WireEvent
    assert first == WireEvent(0, delta, "message") and second == WireEvent(1, delta)
    assert (second.problem, second.detail, second.raw) == (None, None, None)
    # Numbering runs on through problem events, which are built the other way.
    assert builder.decode("[1]").index == 2 and builder.decode(text).index == 3


# -- _loads: the scanner alone equals json.loads ---------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
_EDGES = st.sampled_from(["", " ", "\n", "\t", "\r\n", "\ufeff", "x", ",", "}", "]", "{", "0"])
_TEXTS = st.one_of(
    st.builds(lambda a, text, b: a + text + b, _EDGES, _JSON.map(json.dumps), _EDGES),
    st.builds(lambda text, cut: text[:cut], _JSON.map(json.dumps), st.integers(0, 20)),
    damaged_texts(),
    st.text(max_size=12),
)
"""JSON texts with and without whitespace, BOMs and garbage around them, cut short,
and texts that are no JSON at all."""


def _outcome(loads: Callable[[str], Any], text: str) -> tuple[str, str]:
    try:
        return "value", repr(loads(text))
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_loads_equals_json_loads(text: str) -> None:
    assert _outcome(_loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize(
    "text",
    ['{"a": 1}', ' {"a": 1}', '{"a": 1} ', "\ufeff{}", '{"a": 1}x', "[" * 100_000, "", "1e999"],
)
def test_loads_edge_cases(text: str) -> None:
    assert _outcome(_loads, text) == _outcome(json.loads, text)


def test_traced_classifiers_compute_what_the_model_classifiers_compute() -> None:
    # impl/core/generated_classifiers.py is traced from model.routing (model/classgen.py); on
    # every input of three entries it answers as the classifier run through ops.PYTHON.
    subsets = [s for r in range(4) for s in itertools.permutations(range(3), r)]
    for bound, named, shared, has_id in itertools.product(
        subsets, subsets, (False, True), (False, True)
    ):
        assert classifiers.route_views(bound, named, shared, has_id) == route_views(
            PYTHON, bound, named, shared, has_id
        )
        for action in RouteAction:
            assert classifiers.route_target(action, bound, named) == route_target(
                PYTHON, action, bound, named
            )


def test_a_traced_classifier_changes_when_its_model_classifier_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Generated, not copied: trace a classifier with its BY_ID pick changed.
    def first_named(ops: Any, action: Any, bound: Any, named: Any) -> Any:
        return ops.cond(ops.is_(action, RouteAction.BY_ID), ops.first(named), ops.first(bound))

    monkeypatch.setattr(classgen, "route_target", first_named)
    assert render_classifiers() != classifiers_path().read_text(encoding="utf-8")


_NAMES: list[str] = sorted(
    {"sequence_number", "output_index", "item_id", "logprobs", "obfuscation"}
    | {name for spec in _PLAIN_SCOPED.values() for name in (spec.index_field, spec.value_field)
       if name}
)
"""Field names of plain item-scoped events (and two the API adds): what a read field
left out of ``fields_read`` would be found by."""


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(_PLAIN_SCOPED)),
    st.dictionaries(
        st.sampled_from(_NAMES) | st.text(min_size=1, max_size=12),
        st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.integers()),
        max_size=6,
    ),
    st.dictionaries(st.sampled_from(_NAMES), st.none() | st.integers(-1, 3) | st.text(max_size=3)),
)
def test_an_event_is_what_its_read_fields_say(
    kind: str, other: dict[str, Any], fields: dict[str, Any]
) -> None:
    """``parse_event`` reads nothing of a plain item-scoped event but ``fields_read``: any
    other field, whatever it holds, leaves its ``Event`` the same but for ``payload``
    (what the proxy's relay leaves open in a delta's shape, ``relay._Shape``)."""
    read = fields_read(WIRE_EVENTS[kind])
    base = {"type": kind, **{k: v for k, v in fields.items() if k != "type"}}
    extra = {k: v for k, v in other.items() if k not in read and k not in base}
    plain = parse_event(0, base)._replace(payload=None)
    assert parse_event(0, {**base, **extra})._replace(payload=None) == plain
