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
from collections.abc import Callable
from typing import Any, Final

import pytest
from helpers import sliced
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle import Canonicalizer
from responses_oracle.agents.scenario_list import _played, builtin
from responses_oracle.core.step import DEFAULT_LIMITS, ReducerLimits
from responses_oracle.proxy.relay import DONE_FRAME, FRAMING, RUN_BLOCKS, Relay, framing
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


def _same_both_ways(data: bytes, cuts: list[int], limits: ReducerLimits = DEFAULT_LIMITS) -> None:
    """The two relays in lock step, chunk by chunk: the same bytes, the same reducer
    state (every field of the response's state, the results, the next index) after
    each chunk, the same log at the end."""
    fast, slow = Relay(fast=True, limits=limits), Relay(fast=False, limits=limits)
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
        assert sum(taken) >= len(deltas) - 1 - 2 * len(cuts)
        if not cuts:  # one run: the 49 after the first, in one call
            assert taken == [len(deltas) - 1]
        # The rest take the canonicalizer's delta path after the reducer's step.
        assert len(steps) == len(events) - len(deltas) + 1


def _taken(monkeypatch: pytest.MonkeyPatch, shaped: list[int] | None = None) -> list[int]:
    """From now on, one item per call of ``Canonicalizer.feed_live``, and per call of
    ``feed_run`` that took any (one that took none leaves the run to ``feed_live``): how
    many of the run's events it took; ``feed_run``'s also in ``shaped``."""
    taken: list[int] = []
    feed_live, feed_run = Canonicalizer.feed_live, Canonicalizer.feed_run

    def counted(self: Canonicalizer, *args: Any) -> Any:
        found = feed_live(self, *args)
        taken.append(found[0])
        return found

    def counted_run(self: Canonicalizer, *args: Any) -> int:
        found = feed_run(self, *args)
        if found:
            taken.append(found)
            if shaped is not None:
                shaped.append(found)
        return found

    monkeypatch.setattr(Canonicalizer, "feed_live", counted)
    monkeypatch.setattr(Canonicalizer, "feed_run", counted_run)
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
    channel is live, each is re-emitted as a copy of it (``_Live.as_sent``), without
    ``_delta`` -- unless its own fields are not canonical's (an ``item_id`` the item was
    not announced with), when ``_delta`` spells it.  Either way its fields keep the
    upstream's order (``_upstream_order``), and the bytes are the full pass's."""
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
    # The full pass spells the first delta; the live path copies the rest when the
    # upstream's own fields are the item's.
    assert len(spelled) == (1 if item_id == "msg_1" else len(deltas))
    first = b'data: {"type":"response.output_text.delta","sequence_number":'
    assert out.count(first) == len(deltas)
    assert out.count(b'"item_id":"msg_1","output_index":0,"content_index":0,"delta"') == len(deltas)
    assert b'"sequence_number":32,"item_id":"msg_1",' in out
    assert b'"logprobs":[],"obfuscation":"ob29"}' in out


# -- runs of deltas (rule 7): several in a chunk, handed to ``feed_live`` at once ------

_DELTA: Final = "response.output_text.delta"


def _delta_block(text: str, sequence: int, **changed: Any) -> bytes:
    """A text delta of ``_message``'s item in the relay's shape, numbered ``sequence``,
    with ``changed`` fields (in the delta's place, or added last)."""
    event = {"type": _DELTA, **_SCOPED, "delta": text, "logprobs": [], **changed}
    event["sequence_number"] = sequence
    return b"".join(FRAMING.frames([event]))


def _framed(event: Event, **json_args: Any) -> bytes:
    """``event`` in an ``event:`` block, its JSON text as ``json.dumps`` writes it with
    ``json_args``."""
    text = json.dumps(event, **json_args).encode()
    return b"event: %b\ndata: %b\n\n" % (event["type"].encode(), text)


_COMPACT: Final = {"separators": (",", ":")}
_FLOAT: Final = [{"token": "f", "logprob": -0.5}]
_CALL: Final = {"id": "fc_1", "type": "function_call", "call_id": "c", "name": "f", "arguments": ""}
_RUNNING: Final = {"id": "resp_1", "status": "in_progress"}
_CITED: Final = {"type": "url_citation", "url": "https://a.example"}

_BREAKERS: Final[dict[str, Callable[[int], bytes]]] = {
    # Blocks the run pattern cuts but ``feed_live`` does not take ...
    "sequence gap": lambda n: _delta_block("gap ", n + 1),
    "no sequence number": lambda n: _framed({"type": _DELTA, **_SCOPED, "delta": "-"}, **_COMPACT),
    "empty delta": lambda n: _delta_block("", n),
    "another part": lambda n: _delta_block("p1 ", n, content_index=1),
    "another item id": lambda n: _delta_block("other ", n, item_id="msg_2"),
    "a float": lambda n: _delta_block("f ", n, logprobs=_FLOAT),
    # msgspec writes this float as it came, the json module as 1e+16: canonical's
    # bytes are the json module's (rule 6)
    "a float spelled as msgspec spells it": lambda n: _delta_block(
        "g ", n, logprobs=[{"logprob": 1e16}]
    ).replace(b"1e+16", b"1e16"),
    "a wrong type": lambda n: _delta_block("t ", n, type="response.refusal.delta"),
    "a wrong field type": lambda n: _delta_block("w ", n, output_index="0"),
    "fields reordered": lambda n: _framed(
        {"sequence_number": n, "type": _DELTA, **_SCOPED, "delta": "r "}, **_COMPACT
    ),
    "extra field": lambda n: _delta_block("x ", n, obfuscation="abc"),
    "not JSON": lambda n: b'event: %b\ndata: {"type":\n\n' % _DELTA.encode(),
    "not an object": lambda n: b"event: %b\ndata: [1]\n\n" % _DELTA.encode(),
    "spaced JSON": lambda n: _framed(
        {"type": _DELTA, **_SCOPED, "delta": "s ", "sequence_number": n}
    ),
    # Blocks of the run's fields that ``feed_run`` must not read from the bytes alone:
    # an escape msgspec writes otherwise, a \u escape of what it writes as UTF-8, a lone
    # surrogate, a raw control character, a number JSON does not allow or msgspec spells
    # otherwise, a fixed field with other bytes.
    "an escaped slash": lambda n: _delta_block("a/b ", n).replace(b"a/b", b"a\\/b"),
    "a unicode escape": lambda n: _delta_block("\u00e9t\u00e9 ", n),
    "a lone surrogate": lambda n: _delta_block("s ", n).replace(b'"s ', b'"\\ud800 '),
    "a raw tab": lambda n: _delta_block("t\tb ", n).replace(b"\\t", b"\t"),
    "a leading zero": lambda n: _delta_block("z ", n).replace(
        b'"sequence_number":%d' % n, b'"sequence_number":0%d' % n
    ),
    "a negative number": lambda n: _delta_block("m ", -n),
    "a number as a float": lambda n: _delta_block("f ", n).replace(
        b'"sequence_number":%d' % n, b'"sequence_number":%d.0' % n
    ),
    "other logprobs": lambda n: _delta_block("l ", n, logprobs=[{"token": "l"}]),
    "two strings for a text": lambda n: _delta_block("a ", n).replace(b'"a "', b'"a","b "'),
    # ... blocks it does not cut ...
    "CRLF": lambda n: _delta_block("crlf ", n).replace(b"\n", b"\r\n"),
    "a CR in the data line": lambda n: _delta_block("cr ", n).replace(b',"delta"', b',\r"delta"'),
    "a comment": lambda n: b": keep-alive\n\n",
    "an id line": lambda n: _delta_block("id ", n).replace(b"data:", b"id: 7\ndata:"),
    "two data lines": lambda n: _delta_block("two ", n).replace(b'"delta"', b'\ndata: "delta"'),
    "data only": lambda n: _delta_block("bare ", n).split(b"\n", 1)[1],
    # ... and events of other kinds.
    "an annotation": lambda n: _framed(
        {"type": "response.output_text.annotation.added", **_SCOPED, "annotation_index": 0,
         "annotation": _CITED, "sequence_number": n},
        **_COMPACT,
    ),
    "in progress": lambda n: _framed(
        {"type": "response.in_progress", "response": _RUNNING, "sequence_number": n}, **_COMPACT
    ),
    "another item": lambda n: _framed(
        {"type": "response.output_item.added", "output_index": 1, "item": _CALL,
         "sequence_number": n},
        **_COMPACT,
    ),
}
"""What can come between two runs of the live channel's deltas, made with the sequence
number it would have."""


def _runs_with(breaker: Any, runs: int = 3, size: int = 20, *, sentinel: bool = True) -> bytes:
    """``_message`` in canonical's numbering, its text as ``runs`` runs of ``size``
    deltas, ``breaker``'s block between each two (a comment takes no number)."""
    opening = _message([])[:-1]
    numbered = [{**event, "sequence_number": n} for n, event in enumerate(opening)]
    frames = [b"".join(FRAMING.frames([event])) for event in numbered]
    sequence = len(opening)
    for run in range(runs):
        for n in range(size):
            frames.append(_delta_block(f"r{run}w{n} ", sequence))
            sequence += 1
        if run < runs - 1:
            frames.append(breaker(sequence))
            sequence += not frames[-1].startswith(b":")
    done = {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}
    frames.append(b"".join(FRAMING.frames([{**done, "sequence_number": sequence}])))
    return b"".join(frames) + (DONE_FRAME if sentinel else b"")


@pytest.mark.parametrize("breaker", _BREAKERS)
def test_runs_broken_by_every_kind_of_block_are_relayed_the_same(
    monkeypatch: pytest.MonkeyPatch, breaker: str
) -> None:
    """Runs of deltas in one chunk, and cut by chunks anywhere (inside a block, at a
    block's end, inside a run), broken by each of ``_BREAKERS``: the same bytes, state
    and log both ways, and the first run is taken in one call."""
    data = _runs_with(_BREAKERS[breaker])
    ends = [n + 2 for n in range(len(data)) if data.startswith(b"\n\n", n)]
    rng = random.Random(breaker)
    taken = _taken(monkeypatch)
    _same_both_ways(data, [])
    assert taken[0] >= 19  # the first delta makes the channel live; the run takes the rest
    for cuts in (ends[::7], ends[3::11], list(range(1, len(data), 101)), rng.sample(ends, 9)):
        _same_both_ways(data, cuts)


@pytest.mark.parametrize(
    "text", ["w ", 'q"uote\\back\nline ', "\u00e9t\u00e9 \U0001f600 ", "\x7f "]
)
def test_runs_of_the_live_shape_are_read_from_their_bytes(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Once a run of the live channel went out as it came, the next runs of its shape
    go to ``feed_run`` from their bytes (``_Shape``: escapes, UTF-8, DEL as msgspec
    writes them): every look after the first, the same bytes, state and log."""
    data = _runs_with(_BREAKERS["a comment"], runs=2, size=3 * RUN_BLOCKS)
    # Each word's "w" after the text, as msgspec writes it.
    data = data.replace(b"w", json.dumps(text[:-1], ensure_ascii=False)[1:-1].encode() + b"w")
    shaped: list[int] = []
    taken = _taken(monkeypatch, shaped)
    _same_both_ways(data, [])
    assert taken == [RUN_BLOCKS, RUN_BLOCKS, RUN_BLOCKS - 1, *[RUN_BLOCKS] * 3]
    assert shaped == [RUN_BLOCKS, RUN_BLOCKS - 1, *[RUN_BLOCKS] * 3]
    for cuts in (list(range(1, len(data), 97)), list(range(5, len(data), 4096))):
        _same_both_ways(data, cuts)
    # Reads that end inside a block: its rest takes the full step, and the runs after
    # it in the read still go by the shape (``_Live.probe``).
    shaped.clear()
    _same_both_ways(data, list(range(5, len(data), 4096)))
    assert sum(shaped) > 6 * RUN_BLOCKS * 3 // 4


def test_a_shape_is_its_channels_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape read from one channel's runs is not asked of another's (``_Shape``'s
    token): once ``msg_1``'s runs set it and the item is done, ``msg_2``'s deltas make
    that channel live (a float in them: none goes out as it came, so no shape of them
    is read), and blocks of ``msg_1``'s shape after them are no deltas of ``msg_2``:
    the step reports them, and the relay passes them to it."""
    text = "".join(f"a{n} " for n in range(2 * RUN_BLOCKS))
    part = {"type": "output_text", "text": text, "annotations": []}
    second = {"item_id": "msg_2", "output_index": 1, "content_index": 0}
    message = {"type": "message", "role": "assistant", "content": []}
    events = [
        *_message([{"type": _DELTA, **_SCOPED, "delta": f"a{n} ", "logprobs": []}
                   for n in range(2 * RUN_BLOCKS)])[:-1],
        {"type": "response.output_text.done", **_SCOPED, "text": text, "logprobs": []},
        {"type": "response.content_part.done", **_SCOPED, "part": part},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {**message, "id": "msg_1", "status": "completed", "content": [part]}},
        {"type": "response.output_item.added", "output_index": 1,
         "item": {**message, "id": "msg_2"}},
        {"type": "response.content_part.added", **second, "part": {**part, "text": ""}},
        *[{"type": _DELTA, **second, "delta": f"b{n} ", "logprobs": _FLOAT}
          for n in range(RUN_BLOCKS)],
        *[{"type": _DELTA, **_SCOPED, "delta": f"late{n} ", "logprobs": []}
          for n in range(RUN_BLOCKS)],
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}},
    ]
    data = b"".join(FRAMING.frames([{**e, "sequence_number": n} for n, e in enumerate(events)]))
    # A read that ends with ``msg_2``'s last delta: the next begins with a block of
    # ``msg_1``'s shape while ``msg_2``'s channel is live.
    cut = data.index(b"\n\n", data.index(b'"b%d "' % (RUN_BLOCKS - 1))) + 2
    shaped: list[int] = []
    _taken(monkeypatch, shaped)
    _same_both_ways(data, [cut])
    assert shaped == [RUN_BLOCKS - 1]  # ``msg_1``'s second look


def test_openai_runs_are_read_from_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenAI's deltas (``sequence_number`` second, each with its own ``obfuscation``, a
    string the step does not read): after the first look, each run goes to
    ``feed_run`` and out as it came -- the upstream's bytes."""
    deltas = [
        {"type": _DELTA, "sequence_number": 0, **_SCOPED, "delta": f"w{n} ", "logprobs": [],
         "obfuscation": f"{n * 7919:0{n % 5 + 8}x}"}
        for n in range(3 * RUN_BLOCKS)
    ]
    events = [{**event, "sequence_number": n} for n, event in enumerate(_message(deltas))]
    data = b"".join(_framed(event, **_COMPACT) for event in events)
    shaped: list[int] = []
    _taken(monkeypatch, shaped)
    _same_both_ways(data, [])
    assert shaped == [RUN_BLOCKS, RUN_BLOCKS - 1]
    out = Relay().feed(data)
    assert b"".join(_framed(e, **_COMPACT) for e in events[3:-4]) in out


def test_a_run_longer_than_a_look_is_taken_in_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of more blocks than ``RUN_BLOCKS`` is cut in several looks, every one
    taken: no delta of it takes the framer's path (the first makes the channel live;
    a comment leaves it live)."""
    data = _runs_with(_BREAKERS["a comment"], runs=2, size=3 * RUN_BLOCKS)
    taken = _taken(monkeypatch)
    _same_both_ways(data, [])
    assert taken == [RUN_BLOCKS, RUN_BLOCKS, RUN_BLOCKS - 1, *[RUN_BLOCKS] * 3]


@pytest.mark.parametrize("limit", [1, 45, 59, 60, 61, 200])
def test_a_run_that_passes_the_channel_limit_is_relayed_the_same(limit: int) -> None:
    """``max_channel_chars`` inside a run: the deltas within it taken, the rest as the
    step takes them (reported, dropped), the same both ways.  No ``[DONE]``: whether
    one read after the limit goes on depends on the reads (see the report of #39)."""
    data = _runs_with(_BREAKERS["a comment"], sentinel=False)
    limits = ReducerLimits(max_channel_chars=limit)
    _same_both_ways(data, [], limits)
    _same_both_ways(data, list(range(1, len(data), 333)), limits)


def test_feed_run_takes_only_what_it_is_sure_of() -> None:
    """``Canonicalizer.feed_run`` asked directly: nothing of a channel ``feed_live`` never
    looked at (no ``_Live.probe``), nothing the upstream numbers other than canonical
    numbers it (here the upstream counts from 10); else each delta, as ``feed_live``
    takes it -- also after a full step, once the probe is found true again."""
    deltas = [{"type": _DELTA, **_SCOPED, "delta": f"w{n} ", "logprobs": []} for n in range(6)]
    events = _message(deltas)
    canonical = Canonicalizer()
    numbered = [{**e, "sequence_number": n} for n, e in enumerate(events)]
    offset = [{**e, "sequence_number": n + 10} for n, e in enumerate(events)]
    for event in numbered[:4]:  # the openings and the delta that makes the channel live
        canonical.feed(event)
    assert canonical.feed_run([4], ["w1 "], 4) == 0  # no ``feed_live`` since that step
    assert canonical.feed_live(numbered[4:5], 4, _DELTA)[0] == 1
    assert canonical.feed_run([5, 6], ["w2 ", "w3 "], 5) == 2
    canonical.feed(numbered[7])  # a full step
    assert canonical.feed_run([8], ["w5 "], 8) == 1
    full = Canonicalizer(fast=False)
    for event in numbered[:9]:
        full.feed(event)
    assert _fields(canonical._reducer.state) == _fields(full._reducer.state)
    # The upstream's numbers, each the next, are not canonical's: none is taken.
    shifted = Canonicalizer()
    for event in offset[:4]:
        shifted.feed(event)
    assert shifted.feed_live(offset[4:5], 4, _DELTA)[0] == 1
    assert shifted.feed_run([15], ["w2 "], 5) == 0
    assert shifted.feed_live(offset[5:6], 5, _DELTA)[0] == 1
