"""The completeness obligations catch a model that does too little (issue #16).

Each obligation of ``model.completeness`` is proved on the reference (in
``test_invariant_proofs``) and refuted on its mutants (``test_mutants``).  Here each
mutant's counterexample stream is run through the mutant's reducer and the reference
reducer, and the *result* shows what the mutant loses.  The multi-channel mutant (a
part's ``*.done`` undone by another part's delta) has no function_call rendering: it is
refuted by ``prove`` with an abstract trace, and its witness is a hand-written two-part
message.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import counterexample_events, reduce_with
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.completeness import COMPLETENESS
from responses_oracle.model.tables import REFERENCE, ModelTables
from responses_oracle.model.vocabulary import Code, EntryState, ResponseStatus, Trigger
from responses_oracle.proofs.encoding import Bounds
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, MUTANTS, Mutant
from responses_oracle.proofs.routing_z3 import ConcreteRoutingStep
from responses_oracle.proofs.unbounded import UNBOUNDED, prove_unbounded
from responses_oracle.proofs.vacuity import obligation_witnesses
from responses_oracle.reducer import Reducer
from responses_oracle.result import Result


def _result(events: list[dict[str, Any]], tables: ModelTables) -> Result:
    result: Result = reduce_with(events, tables)
    return result


def _fixture(name: str) -> list[dict[str, Any]]:
    return counterexample_events(MUTANTS[name])


def _both(name: str) -> tuple[Result, Result]:
    events = _fixture(name)
    return _result(events, MUTANTS[name].tables), _result(events, REFERENCE)


def _codes(result: Result) -> list[Code]:
    return [d.code for d in result.diagnostics]


def test_arguments_done_skips_confirm_leaves_the_call_unexecutable() -> None:
    # The counterexample stops after function_call_arguments.done; a response.completed
    # (with no snapshot) shows the lost confirmation: the call is never executable.
    name = "arguments-done-skips-confirm"
    ending = {"type": "response.completed", "response": {"status": "completed", "output": []}}
    events = [*_fixture(name), {**ending, "sequence_number": len(_fixture(name))}]
    mutant, reference = _result(events, MUTANTS[name].tables), _result(events, REFERENCE)
    assert [(i.state, i.executable) for i in reference.items] == [(EntryState.COMPLETED, True)]
    assert [(i.state, i.executable) for i in mutant.items] == [(EntryState.COMPLETED, False)]


def test_abort_leaves_entry_open() -> None:
    mutant, reference = _both("abort-leaves-entry-open")
    assert reference.status is mutant.status is ResponseStatus.INCOMPLETE
    assert [i.state for i in reference.items] == [EntryState.INCOMPLETE]
    assert [i.state for i in mutant.items] == [EntryState.STREAMING]


def test_confirmed_entry_never_completed_is_reported_unconfirmed() -> None:
    mutant, reference = _both("confirmed-entry-never-completed")
    assert [i.state for i in reference.items] == [EntryState.COMPLETED]
    assert [i.state for i in mutant.items] == [EntryState.PAYLOAD_DONE]
    assert Code.UNCONFIRMED_ITEM in _codes(mutant)
    assert Code.UNCONFIRMED_ITEM not in _codes(reference)


def test_first_name_not_taken_leaves_the_entry_nameless() -> None:
    # The result item falls back to the raw item's fields, so the loss is in the
    # entry's identity (what call_id and name conflicts are judged against).
    name = "first-name-not-taken"
    names = []
    for tables in (MUTANTS[name].tables, REFERENCE):
        reducer = Reducer(kernels=load_kernels(tables))
        reducer.feed_all(_fixture(name))
        names.append([entry.name for entry in reducer.snapshot().entries])
    assert names == [[None], ["tool_0"]]


def test_first_delta_dropped_loses_the_arguments() -> None:
    mutant, reference = _both("first-delta-dropped")
    assert [i.item.get("arguments") for i in reference.items] == ['{"entry": 0}']
    assert [i.item.get("arguments") for i in mutant.items] != ['{"entry": 0}']


def test_done_only_item_lost() -> None:
    mutant, reference = _both("done-only-item-lost")
    assert [i.item["call_id"] for i in reference.items] == ["call_0"]
    assert mutant.items == ()


# -- a message with two parts -----------------------------------------------------------

MESSAGE = "msg_1"


def _part() -> dict[str, Any]:
    return {"type": "output_text", "text": "", "annotations": [], "logprobs": [{"token": "x"}]}


def two_part_message() -> list[dict[str, Any]]:
    """A message whose first part is done before its second streams; the snapshot is
    empty (as some gateways send it), so the end settles the entry from its state."""
    scoped = {"output_index": 0, "item_id": MESSAGE}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {"type": "message", "id": MESSAGE, "role": "assistant", "content": []},
        },
        {"type": "response.content_part.added", **scoped, "content_index": 0, "part": _part()},
        {"type": "response.output_text.delta", **scoped, "content_index": 0, "delta": "Hello"},
        {"type": "response.output_text.done", **scoped, "content_index": 0, "text": "Hello"},
        {"type": "response.content_part.added", **scoped, "content_index": 1, "part": _part()},
        {"type": "response.output_text.delta", **scoped, "content_index": 1, "delta": " world"},
        {
            "type": "response.completed",
            "response": {"id": "resp_1", "status": "completed", "output": []},
        },
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


@pytest.mark.parametrize("mutant", CHANNEL_MUTANTS, ids=lambda m: m.tables.name)
def test_channel_mutant_is_refuted_by_prove(mutant: Mutant) -> None:
    (row,) = prove(mutant.breaks, mutant.tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is None
    assert "no function_call rendering" in row.detail


def test_delta_reopens_done_part_witness() -> None:
    mutant = next(m for m in CHANNEL_MUTANTS if m.tables.name == "delta-reopens-done-part")
    events = two_part_message()
    wrong, right = _result(events, mutant.tables), _result(events, REFERENCE)
    assert [i.state for i in right.items] == [EntryState.COMPLETED]
    assert Code.UNCONFIRMED_ITEM not in _codes(right)
    assert [i.state for i in wrong.items] == [EntryState.STREAMING]
    assert Code.UNCONFIRMED_ITEM in _codes(wrong)


def test_first_part_not_opened_witness() -> None:
    mutant = next(m for m in CHANNEL_MUTANTS if m.tables.name == "first-part-not-opened")
    events = two_part_message()
    wrong, right = _result(events, mutant.tables), _result(events, REFERENCE)
    logprobs = [
        [part.get("logprobs") for part in result.items[0].item["content"]]
        for result in (wrong, right)
    ]
    assert logprobs == [[None, [{"token": "x"}]], [[{"token": "x"}], [{"token": "x"}]]]


COMPLETENESS_MUTANTS = (
    "arguments-done-skips-confirm",
    "abort-leaves-entry-open",
    "confirmed-entry-never-completed",
    "first-name-not-taken",
    "first-delta-dropped",
    "done-only-item-lost",
    "arguments-done-closes-the-call",
    "delta-leaves-entry-added",
    "done-only-item-payload-dropped",
    "late-delta-reported-duplicate",
    "replayed-added-silent",
    "done-only-item-silent",
    "snapshot-only-item-silent",
)


@pytest.mark.parametrize("name", COMPLETENESS_MUTANTS)
def test_each_completeness_mutant_is_refuted_by_prove(name: str) -> None:
    (row,) = prove(MUTANTS[name].breaks, MUTANTS[name].tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE and row.counterexample is not None


@pytest.mark.parametrize(
    "mutant",
    [MUTANTS[name] for name in COMPLETENESS_MUTANTS if MUTANTS[name].breaks in UNBOUNDED]
    + [m for m in CHANNEL_MUTANTS if m.breaks in UNBOUNDED],
    ids=lambda m: m.tables.name,
)
def test_unbounded_proof_fails_on_each_completeness_mutant(mutant: Mutant) -> None:
    proved, detail = prove_unbounded(mutant.tables, mutant.breaks)
    assert not proved and detail.startswith("base: unsat")


def test_every_obligation_has_a_reachable_antecedent() -> None:
    # A proof of an obligation no stream can bring into play would be vacuous.
    witnesses = obligation_witnesses(REFERENCE, Bounds(2, 2), 4)
    assert list(witnesses) == [obligation.name for obligation in COMPLETENESS]
    shortest = {
        # (routing's obligations are over RoutingSystem: its steps have kinds, not triggers)
        name: [s.kind if isinstance(s, ConcreteRoutingStep) else s.trigger for s in trace.steps]
        for name, trace in witnesses.items()
        if trace
    }
    assert shortest.keys() == witnesses.keys()
    assert shortest["parts_opened"] == [Trigger.ITEM_ADDED, Trigger.PART_ADDED]
    assert shortest["slot_reuse_reported"] == [Trigger.ITEM_ADDED, Trigger.ITEM_ADDED]


# -- the state, the offers and the ids follow the wire events ------------------------


def _ended(name: str, output: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The mutant's counterexample stream, ended by a response.completed whose output is
    ``output`` (none: the stream's own entries settle from their state)."""
    events = _fixture(name)
    ending = {"type": "response.completed", "response": {"status": "completed", "output": []}}
    if output is not None:
        ending["response"]["output"] = output
    return [*events, {**ending, "sequence_number": len(events)}]


def test_arguments_done_closes_the_call_without_its_done_item() -> None:
    # Cut off after function_call_arguments.done: the reference's call was never done
    # (incomplete at the end of input); the mutant's is done, as if its item had come.
    mutant, reference = _both("arguments-done-closes-the-call")
    assert [i.state for i in reference.items] == [EntryState.INCOMPLETE]
    assert [i.state for i in mutant.items] == [EntryState.DONE]


def test_delta_leaves_entry_added_reports_a_streaming_call_as_not_started() -> None:
    name = "delta-leaves-entry-added"
    events = _ended(name)
    mutant, reference = _result(events, MUTANTS[name].tables), _result(events, REFERENCE)
    assert [i.state for i in reference.items] == [EntryState.STREAMING]
    assert [i.state for i in mutant.items] == [EntryState.ADDED]
    assert Code.UNCONFIRMED_ITEM in _codes(reference) and Code.UNCONFIRMED_ITEM in _codes(mutant)


def test_done_only_item_payload_dropped_misses_the_divergent_snapshot() -> None:
    # The done item's arguments were never an offer: a snapshot that changes them is
    # taken silently, where the reference reports the divergence.
    name = "done-only-item-payload-dropped"
    (done,) = [e["item"] for e in _fixture(name) if e["type"] == "response.output_item.done"]
    changed = {**done, "arguments": "{}"}
    events = _ended(name, [changed])
    mutant, reference = _result(events, MUTANTS[name].tables), _result(events, REFERENCE)
    assert Code.DIVERGENT_PAYLOAD in _codes(reference)
    assert Code.DIVERGENT_PAYLOAD not in _codes(mutant)


def test_late_delta_reported_duplicate_names_the_wrong_event() -> None:
    mutant, reference = _both("late-delta-reported-duplicate")
    assert Code.LATE_EVENT in _codes(reference) and Code.DUPLICATE_ITEM not in _codes(reference)
    assert Code.DUPLICATE_ITEM in _codes(mutant) and Code.LATE_EVENT not in _codes(mutant)


def test_replayed_added_silent_drops_the_duplicate_diagnostic() -> None:
    mutant, reference = _both("replayed-added-silent")
    assert Code.DUPLICATE_ITEM in _codes(reference)
    assert Code.DUPLICATE_ITEM not in _codes(mutant)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("done-only-item-silent", Code.DONE_ONLY_ITEM),
        ("snapshot-only-item-silent", Code.SNAPSHOT_ONLY_ITEM),
    ],
)
def test_an_item_first_seen_past_its_announcement_is_owed_its_report(name: str, code: Code) -> None:
    # Issue #41: the lifecycle cell's note was read by no property; now
    # first_sight_reported owes it, and the mutant's reducer drops exactly it.
    mutant, reference = _both(name)
    assert code in _codes(reference)
    assert [c for c in _codes(reference) if c is not code] == _codes(mutant)


def _id_learning_stream() -> list[dict[str, Any]]:
    """A call added without an id (as some gateways send it), whose delta names it."""
    item = {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": ""}
    scoped = {"output_index": 0, "item_id": "fc_9"}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.function_call_arguments.delta", **scoped, "delta": "{}"},
        {"type": "response.completed", "response": {"status": "completed", "output": []}},
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def test_item_id_not_learned_witness() -> None:
    mutant = next(m for m in CHANNEL_MUTANTS if m.tables.name == "delta-item-id-not-learned")
    events = _id_learning_stream()
    wrong, right = _result(events, mutant.tables), _result(events, REFERENCE)
    assert [i.item["id"] for i in right.items] == ["fc_9"]
    assert Code.ID_ADOPTED_FROM_SLOT in _codes(right)
    assert [i.item["id"] for i in wrong.items] != ["fc_9"]
    assert Code.ID_ADOPTED_FROM_SLOT not in _codes(wrong)


def test_either_end_skips_the_entries_the_snapshot_reached() -> None:
    # The encoding and the driver agree: an aborted response's output completes its
    # entries, and the abort then reaches only the others (settle._reconcile_snapshot),
    # so no run of the encoding delivers RESPONSE_ABORTED to a completed entry.
    from responses_oracle.proofs.vacuity import lifecycle_coverage

    coverage = lifecycle_coverage(REFERENCE, Bounds(2, 2), depth=6)
    assert (EntryState.COMPLETED, Trigger.RESPONSE_ABORTED) in coverage.unreached
    assert (EntryState.DONE, Trigger.RESPONSE_ABORTED) not in coverage.unreached
