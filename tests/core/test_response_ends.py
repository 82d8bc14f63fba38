"""Every way a response starts and ends (issue #11 part 3, ``model/responses.py``).

``response.queued`` / ``response.in_progress`` open a response when none is held and
continue it when the id matches (``BOUNDARY``); every terminal's snapshot is
reconciled, so items only there are kept (and not run unless the response completed);
``error`` then ``response.failed`` is one failure described by the failed response
(the ``error`` ends the response; the terminal right after it amends the description).
Each rule is pinned on a short stream and, where a capture shows it, on the capture.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from helpers import CAPTURES
from responses_oracle import Reducer, reduce
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.responses import (
    BOUNDARY,
    FRAMES,
    Boundary,
    ClientFrame,
    Held,
    IdMatch,
    Opening,
)
from responses_oracle.model.tables import KernelSet
from responses_oracle.proofs.mutants import MUTANTS

from .streams import (
    added,
    codes,
    completed,
    created,
    done,
    ended,
    event,
    fc,
    msg,
    numbered,
    reduce1,
    reduce_all,
    text_part,
)

pytestmark = pytest.mark.rule("R14")

_RESUME = CAPTURES / "pydantic-ai" / "test_background_mode_streaming_starting_after_vcr.i1.jsonl"
_ERROR = CAPTURES / "vercel-ai" / "openai__openai-error.1.jsonl"


def _progress(kind: str, resp_id: str = "resp_1") -> dict[str, Any]:
    return {"type": f"response.{kind}", "response": {"id": resp_id, "output": []}}


def test_the_boundary_table_has_every_cell() -> None:
    cells = {(o, h, m) for o, row in BOUNDARY.items() for h, column in row.items() for m in column}
    assert cells == set(itertools.product(Opening, Held, IdMatch))
    # Nothing held: every opening event opens the response.
    assert {BOUNDARY[o][Held.NOTHING][m] for o in Opening for m in IdMatch} == {
        Boundary.CONTINUE
    }


def test_a_resume_stream_is_one_response_with_no_warning() -> None:
    (result,) = reduce(_RESUME)
    first = json.loads(_RESUME.read_text().splitlines()[0])
    assert first["type"] == "response.queued" and first["sequence_number"] > 0
    assert result.status.value == "completed" and result.items
    # Only the info that it is a resume: nothing was before it in an item.
    assert codes(result) == ["response_resumed"]
    assert result.diagnostics[0].detail.endswith("resumed after 0")


@pytest.mark.parametrize("kind", ["queued", "in_progress"])
def test_queued_or_in_progress_open_a_response(kind: str) -> None:
    item = msg("msg_1", text_part("hi"))
    result = reduce1(
        *numbered([_progress(kind), added(0, item), done(0, item), completed([item])])
    )
    assert result.response_id == "resp_1" and codes(result) == []


def test_in_progress_before_created_is_one_response() -> None:
    item = msg("msg_1", text_part("hi"))
    result = reduce1(
        _progress("in_progress"), created("resp_1"), added(0, item), done(0, item),
        completed([item]),
    )
    assert [e.item["id"] for e in result.items] == ["msg_1"]
    assert codes(result) == []


def test_a_created_with_another_id_starts_the_next_response() -> None:
    first, second = reduce_all(
        created("resp_1"), completed([], "resp_1"), created("resp_2"), completed([], "resp_2")
    )
    assert (first.response_id, second.response_id) == ("resp_1", "resp_2")


def test_after_the_end_only_another_id_starts_a_new_response() -> None:
    same = reduce1(created("resp_1"), completed([], "resp_1"), _progress("in_progress"))
    assert "after_terminal" in codes(same)
    first, other = reduce_all(
        created("resp_1"), completed([], "resp_1"), _progress("in_progress", "resp_2"),
        completed([], "resp_2"),
    )
    assert (first.response_id, other.response_id) == ("resp_1", "resp_2")
    assert "after_terminal" not in codes(first) + codes(other)


def test_a_rotating_id_inside_an_open_response_stays_one_response() -> None:
    # GitHub Copilot rotates the response id mid-stream (captured, vercel/ai#18548).
    result = reduce1(created("resp_1"), _progress("in_progress", "resp_x"), completed([]))
    assert result.response_id == "resp_1" and "response_id_changed" in codes(result)


@pytest.mark.parametrize("status", ["incomplete", "failed", "cancelled"])
def test_items_only_in_a_terminal_snapshot_are_kept_and_not_run(status: str) -> None:
    call = fc("fc_1", "call_1", "f", "{}")
    note = msg("msg_1", text_part("partial"))
    result = reduce1(created(), ended(status, [note, call]), status=status)
    assert [entry.item for entry in result.items] == [note, call]
    assert [(e.executable, e.execution.value) for e in result.items] == [
        (False, "not_a_call"),
        (False, "not_completed"),
    ]
    assert codes(result) == ["response_error", "snapshot_only_item", "snapshot_only_item"]


def test_error_then_response_failed_is_one_failure_with_the_failed_payload() -> None:
    (result,) = reduce(_ERROR)
    assert result.status.value == "failed"
    (error,) = result.diagnostics
    assert error.code.value == "response_error"
    assert "insufficient_quota" in error.detail
    # The failed response's own error object, as it is written there.
    assert error.event_index == 3


def test_an_error_alone_fails_the_response_by_itself() -> None:
    boom = event("error", error={"code": "server_error", "message": "boom"})
    result = reduce1(created(), boom, status="failed")
    (error,) = result.diagnostics
    assert error.code.value == "response_error" and "server_error" in error.detail
    assert error.event_index == 1


def test_an_error_followed_by_anything_else_ended_the_response() -> None:
    boom = event("error", error={"code": "server_error", "message": "boom"})
    item = msg("msg_1", text_part("late"))
    result = reduce1(created(), boom, added(0, item), status="failed")
    assert codes(result) == ["after_terminal", "response_error"]
    assert result.items == ()


def test_an_error_then_failed_without_its_own_error_uses_the_error_event() -> None:
    boom = event("error", error={"code": "rate_limit", "message": "slow down"})
    result = reduce1(created(), boom, ended("failed"), status="failed")
    (error,) = result.diagnostics
    assert "rate_limit" in error.detail and error.event_index == 1  # the error's own


# -- the two cells issue 24 found passing every proof: each test fails on its one-cell
# mutant (proofs/mutants.py), which the contracts of proofs/responses_z3.py now refute
# (tests/proofs/test_response_tables.py) --


def _created_without_id_while_open(kernels: KernelSet = KERNELS) -> list[Any]:
    """A response cut off before its end, then the next one opening without an id (a
    gateway that drops the response id): the held one is open, the ids ``UNKNOWN``."""
    item = msg("msg_1", "first")
    unnamed = {"type": "response.created", "response": {"status": "in_progress", "output": []}}
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(
        numbered([created("resp_1"), added(0, item), done(0, item), unnamed, completed([])])
    )
    return reducer.finish()


def test_a_created_without_an_id_while_a_response_is_open_starts_the_next_one() -> None:
    first, second = _created_without_id_while_open()
    assert first.status.value == "interrupted" and "missing_terminal" in codes(first)
    assert [e.item["id"] for e in first.items] == ["msg_1"]
    assert (second.status.value, second.items) == ("completed", ())


def test_merging_that_created_into_the_open_response_is_caught() -> None:
    assert BOUNDARY[Opening.CREATED][Held.OPEN][IdMatch.UNKNOWN] is Boundary.NEW
    mutant = MUTANTS["created-without-id-merged"].tables
    assert mutant.boundary[Opening.CREATED][Held.OPEN][IdMatch.UNKNOWN] is Boundary.CONTINUE
    # The mutant makes one completed response of two: the test above fails on it.
    (merged,) = _created_without_id_while_open(load_kernels(mutant))
    assert merged.status.value == "completed"


def _steered(kernels: KernelSet = KERNELS) -> list[Any]:
    """A WebSocket transcript: the client steers the response in flight."""
    item = msg("msg_1", "steered")
    events = numbered([created("resp_1"), added(0, item), done(0, item), completed([item])])
    # A client frame carries no sequence_number: the server's events number on.
    events.insert(2, {"type": "response.steer", "input": "shorter"})
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    return reducer.finish()


def test_a_steer_frame_leaves_the_response_in_flight_open() -> None:
    (result,) = _steered()
    assert (result.status.value, codes(result)) == ("completed", [])
    assert [e.item["id"] for e in result.items] == ["msg_1"]


def test_a_steer_frame_closing_the_response_is_caught() -> None:
    assert FRAMES[ClientFrame.STEER] is Boundary.CONTINUE
    mutant = MUTANTS["steer-ends-the-response"].tables
    assert mutant.frames[ClientFrame.STEER] is Boundary.NEW
    # The mutant cuts the response at the steer, interrupted: the test above fails on it.
    first, *_ = _steered(load_kernels(mutant))
    assert first.status.value == "interrupted"


# A resume that starts inside an item (issue #35): each stream is a real capture with
# its head cut off at a delta, as ``GET …?stream=true&starting_after=N`` sends it.
_MID_ITEM = {
    "message": ("pydantic-ai/test_background_mode_streaming_starting_after_vcr.i0.jsonl", 7),
    "arguments": ("pydantic-ai/test_openai_responses_streaming_usage.i0.jsonl", 8),
    "reasoning": ("vercel-ai/xai__issue-17936-stream.jsonl", 9),
}


def _resumed_at(capture: str, first: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The capture's events whole, and from event ``first`` on (a delta inside an item)."""
    events = [json.loads(line) for line in (CAPTURES / capture).read_text().splitlines()]
    assert events[first]["type"].endswith(".delta") and events[first]["sequence_number"] > 0
    return events, events[first:]


@pytest.mark.parametrize("where", sorted(_MID_ITEM))
def test_a_resume_inside_an_item_gets_no_warning_and_the_same_items(where: str) -> None:
    whole, resumed = _resumed_at(*_MID_ITEM[where])
    (full,) = reduce(whole)
    (result,) = reduce(resumed)
    assert codes(result) == ["response_resumed"]
    assert f"resumed after {resumed[0]['sequence_number'] - 1}" in result.diagnostics[0].detail
    assert "attached" in result.diagnostics[0].detail
    same = [(e.output_index, e.item, e.state, e.executable) for e in full.items]
    assert [(e.output_index, e.item, e.state, e.executable) for e in result.items] == same
    assert result.status is full.status


def test_a_resumed_event_whose_item_never_comes_is_an_orphan() -> None:
    # Held for the item opened before the resume; the stream ends without it.
    _, resumed = _resumed_at(*_MID_ITEM["message"])
    stray = {**resumed[0], "item_id": "msg_never", "output_index": 7}
    (result,) = reduce([stray, *resumed[1:]])
    assert [d.code.value for d in result.diagnostics] == ["response_resumed", "orphan_event"]
    assert result.diagnostics[1].event_index == 0


def test_a_stream_from_sequence_zero_without_created_is_no_resume() -> None:
    whole, _ = _resumed_at(*_MID_ITEM["message"])
    (result,) = reduce([{**whole[4], "sequence_number": 0}])
    assert "response_resumed" not in codes(result)
    assert [d.code.value for d in result.diagnostics][:2] == ["no_response_started", "orphan_event"]
