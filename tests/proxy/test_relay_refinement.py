"""The relay's refinement (``responses_oracle.proxy.relay_refinement``), checked on every
stream under ``fixtures/`` and on generated streams split into random chunks.

#39's first Done-when: on every capture the proxy's stream holds every upstream event
except those the log names, with a code per change; #41 part 3: the canonicalizer and
the relay get their own refinement, ``[DONE]`` and terminals in the relay's order.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import FIXTURES, REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_oracle.proxy.relay import DONE_FRAME
from responses_oracle.proxy.relay_refinement import check, relay_output
from responses_oracle.reducer import response_parts
from responses_oracle.testing.strategies import (
    faulty_streams,
    model_guided_streams,
    provider_streams,
    valid_streams,
)
from responses_oracle.wire import InputFormat, read_wire_events

Event = dict[str, Any]

CAPTURES = sorted(
    str(path.relative_to(REPO))
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix in (".jsonl", ".json", ".sse")
)


def _events(name: str) -> list[Event]:
    wire = read_wire_events(REPO / name, InputFormat.AUTO)
    return [e.payload for e in wire if e.payload is not None]


def test_every_fixture_is_checked() -> None:
    assert len(CAPTURES) > 100
    assert any(name.startswith("fixtures/captures/") for name in CAPTURES)


@pytest.mark.parametrize("name", CAPTURES)
def test_every_fixture_refines_through_the_relay(name: str) -> None:
    events = _events(name)
    sizes = [len(str(e)) for e in events]
    cuts = [sum(sizes[: i + 1]) // 2 for i in range(0, len(sizes), 3)]  # split mid-event
    assert check(events, cuts, sentinel=True) == []


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(valid_streams(), provider_streams(), model_guided_streams(), faulty_streams()),
    st.lists(st.integers(min_value=1, max_value=20_000), max_size=12),
    st.booleans(),
)
def test_generated_streams_refine_in_any_chunking(stream: Any, cuts: list[int], done: bool) -> None:
    assert check(list(stream.events), cuts, sentinel=done) == []


_ANNOUNCED_LATE: list[Event] = [
    {"type": "response.created", "response": {"id": "resp_a", "status": "in_progress"}},
    {
        "type": "response.output_item.added",
        "output_index": 0,
        "item": {"id": "msg_a", "type": "message", "role": "assistant", "content": []},
    },
    {
        "type": "response.output_item.done",
        "output_index": 0,
        "item": {
            "id": "msg_a",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
        },
    },
    {"type": "response.completed", "response": {"id": "resp_a", "status": "completed"}},
    # A second response in the same body, whose call has no slot: nothing of it can be
    # announced before the body ends.
    {"type": "response.created", "response": {"status": "in_progress"}},
    {
        "type": "response.output_item.added",
        "item": {
            "id": "fc_b",
            "type": "function_call",
            "call_id": "call_b",
            "name": "f",
            "arguments": "",
        },
    },
    {"type": "response.function_call_arguments.delta", "item_id": "fc_b", "delta": "{}"},
]
"""#41's relay finding: the last event out is response A's terminal while the relay
still holds response B's call; a ``[DONE]`` sent then reaches a client that stops at
``[DONE]`` before B's events."""


def test_done_never_leaves_before_a_call_held_in_a_later_response() -> None:
    data = b"".join(_frames(_ANNOUNCED_LATE)) + DONE_FRAME
    out, _ = relay_output(data, [])
    assert out.count(DONE_FRAME) == 1
    after = out[out.index(DONE_FRAME) :]
    assert b"data: {" not in after, "an event after [DONE]"
    assert b"fc_b" in out[: out.index(DONE_FRAME)]
    assert check(_ANNOUNCED_LATE, [], sentinel=True) == []


def _frames(events: list[Event]) -> list[bytes]:
    from responses_oracle.serve.server import Framing

    return list(Framing().frames(events))


# -- rules 10-16: each refutes the relay edits of samples 1-8 that passed rules 1-9 ---
# (proofs/line-edits-relay-survivors.json; proofs/MEASURED.md, "The relay's last eleven")


def _edit(function: str, change: str, source: str = "") -> Any:
    """The one one-line edit of the canonicalizer's ``function`` (a mutant the rules
    must reject) whose change and source line start so."""
    from responses_oracle.proofs.line_edits import line_edits

    (edit,) = [
        e
        for e in line_edits("responses_oracle.canonicalizer")
        if e.function == function and e.change.startswith(change) and e.source.startswith(source)
    ]
    return edit


def _corpus(name: str) -> list[Event]:
    """The corpus stream ``name`` edits are judged on (``line_edits.corpus_for_edits``)."""
    from responses_oracle.proofs.mutation import edge_streams, recorded_streams

    (stream,) = [s for s in [*recorded_streams(), *edge_streams()] if s.name == name]
    return [dict(event) for event in stream.events]


def _refuted(events: list[Event], edit: Any) -> list[str]:
    """What the edited relay breaks of ``events`` (whole, then ``[DONE]``), the unedited
    relay breaking nothing."""
    assert check(events, [], sentinel=True) == []
    with edit.applied():
        return check(events, [], sentinel=True)


_TWO_UNNAMED: list[Event] = [
    event
    for _ in range(2)
    for event in (
        {"type": "response.created", "response": {"status": "in_progress"}},
        {"type": "response.completed", "response": {"status": "completed", "output": []}},
    )
]
"""Two responses in one body, neither named by the upstream: each gets an id minted."""


def test_an_opening_names_its_response_by_an_id_of_its_own() -> None:
    # Rule 10.  Canonical mints an opening's id where the upstream gave none (the API's
    # Response.id is required), one per response: from its number in the body.
    unnamed = _refuted(_TWO_UNNAMED, _edit("Canonicalizer._open", 'dropped: response_id = f"resp_'))
    assert unnamed == ["rule 10: response.created out names no response"] * 2
    shared = _refuted(_TWO_UNNAMED, _edit("Canonicalizer._current", "1 -> 0"))
    assert len(shared) == 1
    assert shared[0].startswith("rule 10: 2 responses out named resp_")
    assert shared[0].endswith(", 0 upstream")


def test_a_terminal_is_not_kept_back_until_the_upstream_sends_more() -> None:
    # Rule 11.  Without _advance's _settle the terminal leaves only when the next
    # event or the body's end comes: the whole body refines, a client waits.
    events = _corpus("edge: responses cut at every opening and frame")
    problems = _refuted(events, _edit("Canonicalizer._advance", "dropped: self._settle"))
    assert problems[0] == (
        "rule 11: response.completed kept back after upstream event 10 (response.completed)"
    )
    assert {p.partition(" kept back")[0] for p in problems} == {"rule 11: response.completed"}


_ANNOTATED = "fixtures/captures/pydantic-ai/test_openai_include_raw_annotations_streaming.i0.jsonl"
_MESSAGE = "msg_0a4bc5e23769d65c00696d5e6bade4819d9c681da9ecb436c6"


def test_an_item_stays_at_the_position_the_upstream_gave_it() -> None:
    # Rule 12.  _place's `- -> +` moves the message from 2 to 4 (and logs the move);
    # the terminal lists it at 2, as the upstream's events placed it.
    problems = _refuted(
        _events(_ANNOTATED), _edit("Canonicalizer._place", "- -> +", "index = last[1] + slot")
    )
    assert problems == [
        f"rule 12: {_MESSAGE} at output_index 4, its position in the terminal's output 2, "
        "as upstream"
    ]


def test_an_event_before_response_created_is_its_responses() -> None:
    # Where a response begins is the reducer's to say (`_responses`).  An annotation sent
    # again before response.created (streamgen's `annotate@0`) is that response's: the
    # reducer holds nothing yet, so the created continues it (BOUNDARY).  Rules 10-14
    # once cut it off as a response of its own: rule 12 then saw the message in two
    # responses, judged it not, and passed _place's `- -> +` moving it from 2 to 4.
    events = _events(_ANNOTATED)
    (annotation,) = [e for e in events if e["type"] == "response.output_text.annotation.added"]
    stray = [dict(annotation), *events]
    assert [len(part) for part in response_parts(stray)] == [len(stray)]
    edit = _edit("Canonicalizer._place", "- -> +", "index = last[1] + slot")
    assert _refuted(stray, edit) == [
        f"rule 12: {_MESSAGE} at output_index 4, its position in the terminal's output 2, "
        "as upstream"
    ]


def test_an_item_after_a_call_waits_for_the_calls_run() -> None:
    # Rule 13.  _announce's `or -> and` announces fc_b (slot 1) while fc_a (slot 0) is
    # still open: a client that starts a new call at another item's added cuts fc_a.
    events = _corpus(
        "edge: calls without a slot, given one by their done or their snapshot position"
    )
    problems = _refuted(events, _edit("Canonicalizer._announce", "or -> and", "if not final"))
    assert problems == ["rule 13: fc_b announced inside fc_a's run"]


def test_the_terminal_lists_every_item_the_stream_finished() -> None:
    # Rule 14.  _settle's `in -> not in` leaves out of the snapshot the call the
    # upstream confirmed by its payload done (its terminal listed none): the stream
    # finishes fc_0, the terminal a client reads as the answer does not hold it.
    events = _corpus("counterexample confirmed-entry-never-completed")
    edit = _edit("Canonicalizer._settle", "in -> not in", "and (entry.state in CLOSED_STATES")
    assert _refuted(events, edit) == ["rule 14: fc_0 finished, not in its terminal's output"]


_CITE: Event = {"type": "url_citation", "url": "u", "start_index": 0, "end_index": 2, "title": "t"}
_PART: Event = {"item_id": "msg_a", "output_index": 0, "content_index": 0}
_CITED_BY_EVENT: list[Event] = [
    _ANNOUNCED_LATE[0],
    _ANNOUNCED_LATE[1],
    {"type": "response.content_part.added", **_PART, "part": {"type": "output_text", "text": ""}},
    {"type": "response.output_text.delta", **_PART, "delta": "Hi"},
    {"type": "response.output_text.annotation.added", **_PART, "annotation": _CITE},
    {"type": "response.content_part.done", **_PART, "part": {"type": "output_text", "text": "Hi"}},
    {
        **_ANNOUNCED_LATE[2],
        "item": {
            **_ANNOUNCED_LATE[2]["item"],
            "content": [{"type": "output_text", "text": "Hi", "annotations": [_CITE]}],
        },
    },
    _ANNOUNCED_LATE[3],
]
"""A citation added by its event; the part's ``done`` leaves the annotations out, and
canonical spells them from what the events added (where the upstream's part ``done``
lists them, canonical passes its list on: the mutant below changes nothing there)."""


def test_a_parts_done_holds_the_part_its_done_item_holds() -> None:
    # Rule 15.  _part_event's `and -> or` sends the part's done with its annotations
    # emptied; the done item keeps the url_citation.
    edit = _edit("Canonicalizer._part_event", "and -> or", 'if spelling.part_type == "output_text"')
    assert _refuted(_CITED_BY_EVENT, edit) == [
        "rule 15: msg_a's response.content_part.done at 0 is not its done item's part"
    ]


def test_an_item_is_announced_as_the_api_announces_it() -> None:
    # Rule 16.  A done-only call announced with its done item's status `completed`
    # (the status line dropped), one announced with a status where the upstream gave
    # none, and a hosted shell's output announced with the output its delta then
    # streams again (_release_answered's release left held).
    done_only = _corpus("counterexample divergent-value-ignored")
    status = _edit("Canonicalizer._added_item", "dropped: item['status']")
    assert _refuted(done_only, status) == ["rule 16: fc_0 announced 'completed'"]
    # ... and a done-only call whose copies carry no status announced with one.
    unstated = _corpus("counterexample done-item-refused-as-ambiguous")
    given = _edit("Canonicalizer._added_item", "and -> or", 'if "status" in item')
    assert _refuted(unstated, given) == [
        "rule 16: item_0 announced with a status no upstream copy has"
    ]
    shell = _events("fixtures/captures/vercel-ai/openai__openai-shell-container.1.jsonl")
    held = _edit("Canonicalizer._release_answered", "False -> True")
    (problem,) = _refuted(shell, held)
    assert problem.startswith("rule 16: sho_")
    assert problem.endswith(" announced with its output, which the upstream announced empty")


# -- sample 10's three relay survivors (proofs/line-edits-sample10.json) ---------------


def test_a_finished_messages_annotations_are_not_withheld() -> None:
    # Rule 8.  Without _close_entry's _additions xAI's twenty citations never go out as
    # annotation.added events (the part's done and the done item still hold them); the
    # log's end-of-response line names no upstream event.
    events = _events("fixtures/captures/vercel-ai/xai__xai-x-search-tool.jsonl")
    edit = _edit("Canonicalizer._close_entry", "dropped: self._additions")
    assert _refuted(events, edit) == [
        "rule 8: msg_b7b464ea-cc85-d44a-0f2f-1f7320e703c3's "
        "response.output_text.annotation.added withheld (20 of 20), its item finished on "
        "both sides"
    ]


def test_an_item_the_upstream_announced_first_is_not_announced_inside_a_later_call() -> None:
    # Rule 13.  _queue without its slotless.add announces fc_b (slot 1) first, then
    # fc_a, which the upstream announced before it, inside fc_b's run.
    events = _corpus(
        "edge: calls without a slot, given one by their done or their snapshot position"
    )
    edit = _edit("Canonicalizer._queue", "dropped: slotless.add")
    assert _refuted(events, edit) == ["rule 13: fc_a announced inside fc_b's run"]


def test_an_event_made_up_has_its_own_types_fields() -> None:
    # Rule 17.  _extra's condition negated gives the function_call_arguments.delta
    # canonical spells from a done the output_text fields (`logprobs`).
    events = _corpus("counterexample arguments-done-skips-confirm")
    edit = _edit("_extra", "condition negated")
    assert _refuted(events, edit) == [
        "rule 17: response.function_call_arguments.delta out with logprobs, a field of no "
        "such event"
    ]


def test_an_items_events_keep_the_one_index_the_relay_gave_it() -> None:
    # Rule 12.  Sample 10's `_flush` condition negated changes no corpus stream; on an
    # edited stream (seed 44) a web search's progress goes out at the upstream's index
    # after the relay moved its item from 1 to 2: a client files it under another item.
    from responses_oracle.streamgen.choices import RandomChooser
    from responses_oracle.streamgen.edits import edited_stream

    events = [dict(event) for event in edited_stream(RandomChooser(44)).events]
    edit = _edit("Canonicalizer._flush", "condition negated", "if sent is not None")
    assert _refuted(events, edit) == [
        "rule 12: ws_1ddd2106dcae6e9f8447f5517b20ace61df3082bf40333a82a's events at "
        "output_index 1, 2"
    ]
