"""Entries with several channels, and the reclassification table (issue #16).

The encoding gives each entry ``PROOF_CHANNELS`` channels (a message's parts): a
``*.done`` closes its own channel only, a delta to another part is not reclassified,
and the payload invariants hold per channel.  The trigger a channel event delivers is
the table of ``model/channels.py``, run by the driver through the generated
``reclassify`` kernel and by the encoding from the same cells: a one-cell mutant changes
both, and ``prove`` and the refinement check each refute it.
"""

from __future__ import annotations

from typing import Any

import pytest
import z3
from helpers import counterexample_events, reduce_with
from responses_oracle.core import generated_kernels as generated
from responses_oracle.model.channels import RECLASSIFICATION
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.diagrams import render_pages
from responses_oracle.model.tables import REFERENCE, ModelTables
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    ChannelState,
    Code,
    EntryState,
    Trigger,
)
from responses_oracle.proofs.encoding import ENTRY, PROOF_CHANNELS, TRIGGER, Bounds, Encoding
from responses_oracle.proofs.induction import new_solver
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, MUTANTS, Mutant
from responses_oracle.proofs.refinement import check_stream
from responses_oracle.proofs.unbounded import prove_unbounded
from responses_oracle.result import Result

RECLASSIFICATION_MUTANTS = ("closed-channel-delta-appended", "every-delta-late")
"""The one-cell mutants of the reclassification table."""

CHANNEL_OBLIGATION_MUTANTS = ("payload-done-leaves-channel-open", "delta-closes-channel")
"""The mutants of ``done_closes_its_channel``."""

MESSAGE = "msg_1"


def _result(events: list[dict[str, Any]], tables: ModelTables) -> Result:
    result: Result = reduce_with(events, tables)
    return result


def _fixture(name: str) -> list[dict[str, Any]]:
    return counterexample_events(MUTANTS[name])


def _channel_mutant(name: str) -> Mutant:
    return next(m for m in CHANNEL_MUTANTS if m.tables.name == name)


def test_the_kernel_is_the_table_and_the_driver_no_longer_decides() -> None:
    for trigger, row in RECLASSIFICATION.items():
        for state, received in row.items():
            assert generated.reclassify(trigger, state) is received
    # Only a delta is reclassified, and only on a closed channel.
    changed = {
        (t, s)
        for t, row in RECLASSIFICATION.items()
        for s, received in row.items()
        if received is not t
    }
    assert changed == {(Trigger.DELTA, ChannelState.CLOSED)}
    assert set(CHANNEL_TRIGGERS) == {Trigger.DELTA, Trigger.PAYLOAD_DONE, Trigger.PART_ADDED}


@pytest.mark.parametrize("name", RECLASSIFICATION_MUTANTS)
def test_a_reclassification_mutant_changes_the_kernel_and_the_encoding(name: str) -> None:
    mutant = MUTANTS[name]
    ((trigger, state, received),) = [
        (t, s, r)
        for t, row in mutant.tables.reclassification.items()
        for s, r in row.items()
        if RECLASSIFICATION[t][s] is not r
    ]
    assert load_kernels(mutant.tables).reclassify(trigger, state) is received
    # The encoding of the mutant delivers the mutant's trigger for that cell.
    encoding = Encoding(mutant.tables, Bounds(1, 1))
    before, step = encoding.fresh_state("s"), encoding.fresh_step("e")
    solver = new_solver()
    solver.add(
        encoding.domain(before),
        before.channel_closed[0] == (state is ChannelState.CLOSED),
        step.event == TRIGGER[trigger],
        encoding.environment(before, step),
    )
    assert solver.check() == z3.sat
    assert TRIGGER.read(solver.model(), step.trigger) is received


@pytest.mark.parametrize("name", RECLASSIFICATION_MUTANTS + CHANNEL_OBLIGATION_MUTANTS)
def test_prove_refutes_with_a_stream_that_the_refinement_check_refutes_too(name: str) -> None:
    mutant = MUTANTS[name]
    (row,) = prove(mutant.breaks, mutant.tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is not None
    events = _fixture(name)
    assert check_stream(events) == []
    violations = check_stream(events, load_kernels(mutant.tables), REFERENCE)
    assert violations
    if name in RECLASSIFICATION_MUTANTS:
        # The driver's kernel delivered a trigger the model's table does not give: the
        # refinement names the event, the trigger delivered and the one the model owes
        # (or the step is outside the environment assumptions, or, on the driver's own
        # channels, the payload invariants already broke: the late delta was appended).
        reason = violations[0].reason
        assert (
            reason == "an allowed step, but outside the ENVIRONMENT assumptions"
            or "the driver's channels break" in reason
            or (" delivered " in reason and ", owes " in reason)
        )


def _completed(name: str) -> tuple[Result, Result]:
    """The mutant's and the reference's result of its fixture, ended by a
    ``response.completed`` without output."""
    events = _fixture(name)
    ending = {"type": "response.completed", "response": {"status": "completed", "output": []}}
    events = [*events, {**ending, "sequence_number": len(events)}]
    return _result(events, MUTANTS[name].tables), _result(events, REFERENCE)


def test_closed_channel_delta_appended_keeps_a_late_delta_the_reference_reports() -> None:
    # The fixture: added, arguments.done(""), then a delta: late in the reference.
    wrong, right = _completed("closed-channel-delta-appended")
    assert Code.LATE_EVENT in [d.code for d in right.diagnostics]
    assert Code.LATE_EVENT not in [d.code for d in wrong.diagnostics]


def test_every_delta_late_loses_the_arguments() -> None:
    wrong, right = _completed("every-delta-late")
    assert [i.item.get("arguments") for i in right.items] == ['{"entry": 0}']
    assert [i.item.get("arguments") for i in wrong.items] == [""]


def two_parts_second_streaming() -> list[dict[str, Any]]:
    """A message whose first part is done while its second still streams; the item's
    done blanks the second part's text (as gateways blank terminal fields)."""
    scoped = {"output_index": 0, "item_id": MESSAGE}

    def part(text: str) -> dict[str, Any]:
        return {"type": "output_text", "text": text, "annotations": []}

    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "message", "id": MESSAGE, "role": "assistant", "content": []},
        },
        {"type": "response.content_part.added", **scoped, "content_index": 0, "part": part("")},
        {"type": "response.content_part.added", **scoped, "content_index": 1, "part": part("")},
        {"type": "response.output_text.delta", **scoped, "content_index": 0, "delta": "Hello"},
        {"type": "response.output_text.done", **scoped, "content_index": 0, "text": "Hello"},
        {"type": "response.output_text.delta", **scoped, "content_index": 1, "delta": " world"},
        {"type": "response.output_text.delta", **scoped, "content_index": 0, "delta": "!"},
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {
                "type": "message",
                "id": MESSAGE,
                "role": "assistant",
                "content": [part("Hello"), part("")],
            },
        },
        {
            "type": "response.completed",
            "response": {"id": "resp_1", "status": "completed", "output": []},
        },
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def test_parts_are_channels_of_their_own_in_the_driver() -> None:
    # Part 0's done closes part 0 only: part 1's delta is joined, part 0's late one is
    # reported and changes nothing, and the blank done item erases neither.
    result = _result(two_parts_second_streaming(), REFERENCE)
    (item,) = result.items
    assert [part["text"] for part in item.item["content"]] == ["Hello", " world"]
    assert item.state is EntryState.COMPLETED
    late = [d for d in result.diagnostics if d.code is Code.LATE_EVENT]
    assert [d.event_index for d in late] == [7]
    assert check_stream(two_parts_second_streaming()) == []


def test_other_part_delta_dropped_is_refuted_and_its_witness_loses_the_part() -> None:
    mutant = _channel_mutant("other-part-delta-dropped")
    (row,) = prove(mutant.breaks, mutant.tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE and "no function_call rendering" in row.detail
    # No stream of function_call items can show it: the renderable search finds none.
    proved, _ = prove_unbounded(mutant.tables, mutant.breaks)
    assert not proved
    events = two_parts_second_streaming()
    wrong = _result(events, mutant.tables)
    assert [part["text"] for part in wrong.items[0].item["content"]] == ["Hello", ""]
    (violation,) = check_stream(events, load_kernels(mutant.tables), REFERENCE)
    assert violation.index == 6 and "grew the channels by 0" in violation.reason


def test_the_proofs_have_two_channels_per_entry_and_use_them() -> None:
    assert PROOF_CHANNELS == 2
    # A plain delta to an entry one of whose channels is closed (another part still
    # streaming) is a step of the proofs' encoding, and not of the one-channel one.
    for channels, allowed in ((PROOF_CHANNELS, True), (1, False)):
        encoding = Encoding(REFERENCE, Bounds(1, 1), payload=True, channels=channels)
        state, step = encoding.fresh_state("s"), encoding.fresh_step("e")
        solver = new_solver()
        solver.add(
            encoding.domain(state),
            state.entry_state[0] == ENTRY[EntryState.PAYLOAD_DONE],
            state.channel_closed[0],
            step.trigger == TRIGGER[Trigger.DELTA],
            step.entry == 0,
            encoding.environment(state, step),
        )
        assert (solver.check() == z3.sat) is allowed, channels


@pytest.mark.parametrize(
    "name", RECLASSIFICATION_MUTANTS + CHANNEL_OBLIGATION_MUTANTS + ("other-part-delta-dropped",)
)
def test_the_unbounded_proof_fails_on_each_mutant_and_holds_on_the_reference(name: str) -> None:
    mutant = MUTANTS.get(name) or _channel_mutant(name)
    assert prove_unbounded(REFERENCE, mutant.breaks)[0]
    proved, detail = prove_unbounded(mutant.tables, mutant.breaks)
    assert not proved and detail.startswith("base: unsat"), detail


def test_the_payload_page_shows_the_reclassification_table() -> None:
    page = render_pages()["payload.md"]
    for trigger in CHANNEL_TRIGGERS:
        row = RECLASSIFICATION[trigger]
        cells = " | ".join(f"`{row[state].name}`" for state in ChannelState)
        assert f"| `{trigger.name}` | {cells} |" in page
