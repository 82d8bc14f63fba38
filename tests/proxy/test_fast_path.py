"""The relay's fast paths change no byte (``proxy.relay`` rule 6).

Two fast paths: the canonicalizer's delta path (``Canonicalizer(fast=True)``: the next
delta of a channel that streams while nothing else waits is emitted without the full
pass) and msgspec's JSON encoder for plain events (``FastFraming``).  The relay's
bytes and its log, with both on and with both off (``Relay(fast=False)``), are
compared on every capture under ``fixtures/`` and on generated streams, each split into
random chunks.  A last test checks that the delta path is taken at all, so the
comparisons cannot pass by never leaving the full pass.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, Final

import pytest
from helpers import sliced
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import Canonicalizer
from responses_oracle.agents.scenario_list import _played, builtin
from responses_oracle.proxy.relay import DONE_FRAME, FRAMING, Relay, framing
from responses_oracle.proxy.relay_refinement import body, relay_output
from responses_oracle.serve.server import Framing
from responses_oracle.testing.strategies import (
    faulty_streams,
    model_guided_streams,
    provider_streams,
    valid_streams,
)

from .test_relay_refinement import CAPTURES, _events

Event = dict[str, Any]


def _same_both_ways(data: bytes, cuts: list[int]) -> None:
    """The two relays in lock step, chunk by chunk: the same bytes, the same reducer
    state (every field of the response's state, the results, the next index) after
    each chunk, the same log at the end."""
    fast, slow = Relay(fast=True), Relay(fast=False)
    start = 0
    for cut in [*sorted({c for c in cuts if 0 < c < len(data)}), len(data)]:
        assert fast.feed(data[start:cut]) == slow.feed(data[start:cut])
        _same_state(fast, slow)
        start = cut
    assert fast.close() == slow.close()
    _same_state(fast, slow)
    assert fast.repairs == slow.repairs


def _fields(state: Any) -> dict[str, Any]:
    """Every field of a ``ResponseState``; its id interner by the ids it holds."""
    found = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
    found["interner"] = found["interner"].__getstate__()
    return found


def _same_state(fast: Relay, slow: Relay) -> None:
    # The reducer inside each relay's canonicalizer: read, never changed, here.
    mine, theirs = fast._canonical._reducer, slow._canonical._reducer
    assert _fields(mine.state) == _fields(theirs.state)
    assert mine.results == theirs.results
    assert mine._next_index == theirs._next_index


@pytest.mark.parametrize("name", CAPTURES)
def test_every_fixture_is_relayed_the_same_with_and_without_the_fast_paths(name: str) -> None:
    data = body(_events(name), sentinel=True)
    rng = random.Random(name)
    for chunks in (1, 7, 60):
        cuts = [rng.randrange(1, len(data)) for _ in range(chunks)]
        _same_both_ways(data, cuts)


_FRAMINGS: Final = {
    "lf": Framing(),
    "crlf": Framing(crlf=True),
    "data-only": Framing(event_lines=False),
}
"""The framings serve can frame a scenario in, by name."""

_CHUNKINGS: Final = (5, 0, 80)
"""How many random cuts split a played stream (0: one read)."""

_WAYS: Final = [(how, chunks) for how in _FRAMINGS for chunks in _CHUNKINGS]
"""Every (framing, chunking); CI's slice runs the first for every scenario."""

_SCENARIOS: Final = [scenario.argument() for scenario in builtin()]

_SCENARIO_CASES: Final = [(name, *way) for name in _SCENARIOS for way in _WAYS]


def _in_quick_slice(name: str, how: str, chunks: int) -> bool:
    """Every scenario in the first way (serve's own framing, 5 cuts), and one more way
    each, rotating through the other eight by the scenario's place in the list: all
    nine ways run in CI, each on some scenarios."""
    way = _WAYS.index((how, chunks))
    return way in (0, 1 + _SCENARIOS.index(name) % (len(_WAYS) - 1))


@pytest.mark.parametrize(
    ("name", "how", "chunks"),
    sliced(_SCENARIO_CASES, [_in_quick_slice(*case) for case in _SCENARIO_CASES]),
)
def test_every_scenario_as_serve_plays_it_is_relayed_the_same_with_and_without(
    name: str, how: str, chunks: int
) -> None:
    """What the agents get behind the proxy (``scenario_list._played``: the scenario
    and its clean twin as serve plays them), framed as serve can frame it, in one read
    or cut at random places."""
    streams = _played(name)
    if streams is None:
        pytest.skip(f"{name}: serve does not play it to the agents' request")
    for n, events in enumerate(streams):
        data = b"".join(_FRAMINGS[how].frames(events)) + DONE_FRAME
        rng = random.Random(f"{name} {n} {how} {chunks}")
        _same_both_ways(data, [rng.randrange(1, len(data)) for _ in range(chunks)])


@settings(max_examples=80, deadline=None)
@given(
    st.one_of(valid_streams(), provider_streams(), model_guided_streams(), faulty_streams()),
    st.lists(st.integers(min_value=1, max_value=20_000), max_size=12),
)
def test_generated_streams_are_relayed_the_same_with_and_without(
    stream: Any, cuts: list[int]
) -> None:
    _same_both_ways(body(list(stream.events), sentinel=True), cuts)


def _nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and objects of ``inner`` values."""
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    _nested,
    max_leaves=20,
)
"""Any JSON value (and NaN and the infinities, which the json module writes too)."""


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), _JSON, max_size=6), st.text())
def test_msgspec_framing_writes_what_the_json_module_writes(event: Event, kind: str) -> None:
    fast = framing(True)
    if fast is FRAMING:
        pytest.skip("the fast extra (msgspec) is not installed")
    event = {"type": kind, **event}
    assert b"".join(fast.frames([event])) == b"".join(FRAMING.frames([event]))


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(categories=["Cs", "Ll"]), min_size=1))
def test_a_lone_surrogate_goes_out_as_its_json_escape(text: str) -> None:
    # A JSON escape such as "\ud800" decodes to a lone surrogate, which has no UTF-8
    # form: both framings write the escape again, as it came.
    event = {"type": "response.output_text.delta", "delta": text}
    for framing_ in (framing(True), FRAMING):
        [frame] = framing_.frames([event])
        assert json.loads(frame.split(b"data: ", 1)[1]) == event


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(categories=["Cs", "Ll"]), min_size=1), _JSON)
def test_a_lone_surrogate_in_the_type_is_framed_as_the_json_module_frames_it(
    kind: str, value: Any
) -> None:
    # msgspec's bytes cannot carry it: the frame is the json module's, the event line
    # with the surrogate replaced (``Framing.frames``).
    event = {"type": kind, "value": value}
    assert b"".join(framing(True).frames([event])) == b"".join(FRAMING.frames([event]))


def test_msgspec_frames_only_the_relays_framing() -> None:
    fast = framing(True)
    if fast is FRAMING:
        pytest.skip("the fast extra (msgspec) is not installed")
    with pytest.raises(ValueError, match="relay's framing only"):
        dataclasses.replace(fast, crlf=True)


def test_an_upstream_lone_surrogate_escape_is_relayed_as_it_came() -> None:
    scoped = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    events: list[Event] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
        },
        *({"type": "response.output_text.delta", **scoped, "delta": d} for d in ("a", "b")),
    ]
    data = body(events, sentinel=False) + (
        b'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",'
        b'"item_id":"msg_1","output_index":0,"content_index":0,"delta":"\\ud800"}\n\n'
    )
    fast = relay_output(data, [], fast=True)[0]
    assert fast == relay_output(data, [], fast=False)[0]
    # created, added, part added, two deltas: no in_progress the upstream did not send,
    # and the delta's fields as it sent them (no logprobs added)
    assert fast.endswith(b'"delta":"\\ud800","sequence_number":5}\n\n')


def test_floats_are_written_by_the_json_module() -> None:
    fast = framing(True)
    if fast is FRAMING:
        pytest.skip("the fast extra (msgspec) is not installed")
    event = {"type": "x", "logprob": 1e16, "nan": float("nan")}
    assert fast.data(event) == '{"type":"x","logprob":1e+16,"nan":NaN}'


_SCOPED: dict[str, Any] = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
"""Where the text deltas of ``_message`` go."""


def _message(deltas: list[Event]) -> list[Event]:
    """One message whose text is streamed as ``deltas``, opened and completed."""
    return [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
        },
        {
            "type": "response.content_part.added",
            **_SCOPED,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        *deltas,
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]


def test_the_delta_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    deltas = [f"w{n} " for n in range(50)]
    events = _message(
        [{"type": "response.output_text.delta", **_SCOPED, "delta": d} for d in deltas]
    )
    full = _calls(monkeypatch, "_advance")
    out = relay_output(body(events, sentinel=True), [], fast=True)[0]
    assert out.count(b"response.output_text.delta") == 2 * len(deltas)  # event: and data:
    assert out.endswith(DONE_FRAME)
    # The first delta takes the full pass and makes the channel live; the rest do not.
    assert len(full) == len(events) - len(deltas) + 1


def test_the_relay_reads_the_live_channels_deltas_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 7 of ``proxy.relay``: after the delta that makes the channel live, each
    delta is taken by ``Canonicalizer.feed_live`` (no reducer step, no full pass), in
    any chunking, and goes out as the upstream's own block (serve's compact JSON,
    canonical's field order and numbering: what canonical writes)."""
    deltas = [f"w{n} " for n in range(50)]
    events = _message(
        [{"type": "response.output_text.delta", **_SCOPED, "delta": d} for d in deltas]
    )
    events = [{**event, "sequence_number": n} for n, event in enumerate(events)]
    data = body(events, sentinel=True)
    blocks = [frame for frame in FRAMING.frames(events) if b"output_text.delta" in frame]
    for cuts in ([], [len(data) // 3, len(data) // 2], list(range(1, len(data), 97))):
        steps = _calls(monkeypatch, "_advance")
        taken = _taken(monkeypatch)
        out = relay_output(data, cuts, fast=True)[0]
        monkeypatch.undo()
        assert out == relay_output(data, cuts, fast=False)[0]
        assert all(out.count(block) == 1 for block in blocks)
        # A block a chunk cuts goes to the framer, and the block after it too (the
        # framer is between blocks again only after that one's first bytes).
        assert taken.count(True) >= len(deltas) - 1 - 2 * len(cuts)
        # The rest take the canonicalizer's delta path after the reducer's step.
        assert len(steps) == len(events) - len(deltas) + 1


def _taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """From now on, one item per call of ``Canonicalizer.feed_live``: whether it took
    the event."""
    taken: list[bool] = []
    feed_live = Canonicalizer.feed_live

    def counted(self: Canonicalizer, *args: Any) -> Any:
        found = feed_live(self, *args)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(Canonicalizer, "feed_live", counted)
    return taken


def _calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[None]:
    """From now on, one item per call of ``Canonicalizer``'s method ``name``."""
    calls: list[None] = []
    method = getattr(Canonicalizer, name)

    def counted(self: Canonicalizer, *args: Any) -> Any:
        calls.append(None)
        return method(self, *args)

    monkeypatch.setattr(Canonicalizer, name, counted)
    return calls


@pytest.mark.parametrize("item_id", ["msg_1", "msg_rotated"])
def test_a_delta_of_the_live_shape_is_taken_field_by_field(
    monkeypatch: pytest.MonkeyPatch, item_id: str
) -> None:
    """OpenAI's deltas (``sequence_number`` second, ``obfuscation`` last): once the
    channel is live, each is re-emitted by taking its fields in canonical's order
    (``_Live.spelled``), without ``_delta`` -- unless its own fields are not canonical's
    (an ``item_id`` the item was not announced with), when ``_delta`` spells it.  The
    bytes are the full pass's either way."""
    deltas = [f"w{n} " for n in range(30)]
    events = _message(
        [
            {
                "type": "response.output_text.delta",
                "sequence_number": 0,
                **_SCOPED,
                "item_id": item_id,
                "delta": d,
                "logprobs": [],
                "obfuscation": f"ob{n}",
            }
            for n, d in enumerate(deltas)
        ]
    )
    events = [{**event, "sequence_number": n} for n, event in enumerate(events)]
    spelled = _calls(monkeypatch, "_delta")
    data = body(events, sentinel=True)
    out, repairs = relay_output(data, [], fast=True)
    monkeypatch.undo()
    assert (out, repairs) == relay_output(data, [], fast=False)
    # The full pass spells the first delta; the live path takes the rest field by field
    # when the upstream's own fields are the item's.
    assert len(spelled) == (1 if item_id == "msg_1" else len(deltas))
    first = b'data: {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,'
    assert out.count(first) == len(deltas)
    assert b'"obfuscation":"ob29","sequence_number":32}' in out
