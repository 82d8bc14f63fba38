"""The tables no transition system reads, proved one step at a time: where a response
ends and which terminal the next amends (R14), the slot fill rule (R6), the part merge
(R15) and the terminal status (R9); and the maps from the wire's event or frame type and
a matched item's trigger to the keys of those tables (``OPENINGS``, ``CLIENT_FRAMES``,
``MATCHED_ITEMS``) and the fields a part addition event is read by (``PART_ADDITIONS``)
— issue #35 — which the contracts read before the table they feed.

``proofs/responses_z3.py`` states each as a contract over one step, and ``prove`` proves
it on the reference.  Each contract can fail: every one-cell mutant of its table is
refuted by ``prove`` — the two issue 24 found passing every proof among them — except
the cells no input within the step's domain selects, which change no result on any
corpus stream.  Each named mutant also has a stream on which its reducer gives another
result than the reference's: the change the proof refutes is one a user would see.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import assert_contract_refutes
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.responses import Held, IdMatch, Opening
from responses_oracle.model.tables import REFERENCE, KernelSet
from responses_oracle.proofs.contracts import CONTRACTS, SELECTING, selectable
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import (
    behaviour,
    build_corpus,
    edge_streams,
    outcome,
    recorded_streams,
    table_mutants,
)
from responses_oracle.reducer import Reducer

TABLES = (
    "boundary",
    "frames",
    "fills_missing_slot",
    "part_merge",
    "terminal_status",
    "amendable",
    "openings",
    "client_frames",
    "matched_items",
    "part_additions",
)
"""The ``ModelTables`` fields ``proofs/responses_z3.py`` proves."""

NAMED = [
    mutant
    for mutant in MUTANT_LIST
    if mutant.breaks in CONTRACTS and CONTRACTS[mutant.breaks].table in TABLES
]
"""The named mutants of those tables."""

_SAME, _OTHER = IdMatch.SAME, IdMatch.OTHER


def _call(key: str, call_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": key,
        "call_id": call_id,
        "name": "f",
        "arguments": "{}",
        "status": "completed",
    }


def _created_without_id_while_open() -> list[dict[str, Any]]:
    """A response cut off before its end, then the next one opening without an id."""
    part = {"type": "output_text", "text": "first", "annotations": []}
    item = {"type": "message", "id": "msg_1", "role": "assistant", "content": [part]}
    return [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.created", "response": {"status": "in_progress"}},
        {"type": "response.completed", "response": {"status": "completed", "output": []}},
    ]


def _steered() -> list[dict[str, Any]]:
    """A WebSocket transcript: the client steers the response in flight."""
    call = _call("fc_1", "call_1")
    return [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.steer", "input": "shorter"},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "resp_1", "output": [call]}},
    ]


def _queued_without_id_while_open() -> list[dict[str, Any]]:
    """An open response, then a ``response.queued`` that names no response: it continues
    the open one (R14), as a ``queued`` always does but after another response's end."""
    call = _call("fc_1", "call_1")
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.queued", "response": {"status": "queued"}},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "r", "output": [call]}},
    ]


def _create_then_error() -> list[dict[str, Any]]:
    """A WebSocket transcript: a response, then a ``response.create`` the server answers
    with an ``error`` frame alone (a failure of the next response, not of the first)."""
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.completed", "response": {"id": "r", "output": []}},
        {"type": "response.create", "model": "m", "input": "again"},
        {"type": "error", "error": {"code": "invalid_request", "message": "no"}},
    ]


def _snapshot_reorders() -> list[dict[str, Any]]:
    """A call announced without an ``output_index``, listed by the snapshot at the
    position of another call's slot (a gateway that reorders ``response.output``)."""
    first, second = _call("fc_a", "call_a"), _call("fc_b", "call_b")
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "item": {**first, "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {**second, "status": "in_progress"},
        },
        {"type": "response.completed", "response": {"id": "r", "output": [second, first]}},
    ]


def _annotation_repeated() -> list[dict[str, Any]]:
    """A message whose one citation is sent twice at the same ``annotation_index``."""
    part = {"type": "output_text", "text": "see", "annotations": []}
    item = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    scope = {"output_index": 0, "item_id": "msg_1", "content_index": 0}
    citation = {"type": "url_citation", "url": "u", "start_index": 0, "end_index": 3}
    added = {"type": "response.output_text.annotation.added", **scope}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.content_part.added", **scope, "part": part},
        {"type": "response.output_text.delta", **scope, "delta": "see"},
        *[{**added, "annotation_index": 0, "annotation": citation} for _ in range(2)],
    ]


def _two_citations() -> list[dict[str, Any]]:
    """A message whose first part gets two citations, at ``annotation_index`` 0 and 1."""
    events = _annotation_repeated()
    second = {**events[-1], "annotation_index": 1, "annotation": {"type": "url_citation"}}
    return [*events[:-1], second]


def _failed_turn() -> list[dict[str, Any]]:
    """A call confirmed, then the response fails."""
    call = _call("fc_1", "call_1")
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.failed", "response": {"id": "r", "status": "failed"}},
    ]


def _error_then_failed() -> list[dict[str, Any]]:
    """OpenAI's one failure: ``error``, then ``response.failed`` describing it."""
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "error", "error": {"code": "insufficient_quota", "message": "quota"}},
        {"type": "response.failed", "response": {"id": "r", "error": {"code": "quota"}}},
    ]


WITNESSES = {
    "created-without-id-merged": _created_without_id_while_open,
    "steer-ends-the-response": _steered,
    "snapshot-position-fills-slot": _snapshot_reorders,
    "queued-read-as-created": _queued_without_id_while_open,
    "create-frame-read-as-steer": _create_then_error,
    # MATCHED_ITEMS feeds FILLS_MISSING_SLOT: the same change a user would see.
    "snapshot-item-read-as-done": _snapshot_reorders,
    "annotation-placed-by-content-index": _two_citations,
    "repeated-annotation-duplicated": _annotation_repeated,
    "failed-response-completes": _failed_turn,
    "error-then-failed-split": _error_then_failed,
}
"""Per named mutant: a stream on which its reducer's result is not the reference's."""


def _results(events: list[dict[str, Any]], kernels: KernelSet) -> list[Any]:
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    return [result.to_json() for result in reducer.finish()]


def test_the_named_mutants_are_those_of_the_tables() -> None:
    assert {mutant.tables.name for mutant in NAMED} == set(WITNESSES)


MAPS = ("openings", "client_frames", "matched_items", "part_additions")
"""The maps from a wire value to the key of a proved table (issue #35)."""


def test_each_map_has_one_named_mutant_and_the_contract_of_the_table_it_feeds() -> None:
    changed = {
        mutant.tables.name: [
            table for table in TABLES if getattr(mutant.tables, table) != getattr(REFERENCE, table)
        ]
        for mutant in NAMED
    }
    for table in MAPS:
        (name,) = [name for name, tables in changed.items() if tables == [table]]
        (mutant,) = [mutant for mutant in NAMED if mutant.tables.name == name]
        assert mutant.breaks == SELECTING[table], table


@pytest.mark.parametrize(
    "name",
    [
        "response_boundaries",
        "client_frames",
        "slot_fill",
        "part_additions",
        "terminal_status",
        "amended_terminals",
    ],
)
def test_the_contract_is_proved_on_the_reference(name: str) -> None:
    (row,) = prove(name)
    assert (row.status, row.system) == (Status.PROVED_UNBOUNDED, "contract")
    assert CONTRACTS[name].table in TABLES


@pytest.mark.parametrize("mutant", NAMED, ids=lambda m: m.tables.name)
def test_prove_refutes_the_named_mutant(mutant: Mutant) -> None:
    assert_contract_refutes(mutant)


@pytest.mark.parametrize("mutant", NAMED, ids=lambda m: m.tables.name)
def test_the_named_mutant_changes_a_result(mutant: Mutant) -> None:
    events = WITNESSES[mutant.tables.name]()
    reference = _results(events, load_kernels(REFERENCE))
    assert _results(events, load_kernels(mutant.tables)) != reference


def test_every_one_cell_mutant_is_refuted_by_prove_or_changes_nothing() -> None:
    mutants = [mutant for mutant in table_mutants() if mutant.table in TABLES]
    assert {mutant.table for mutant in mutants} == set(TABLES)
    unselectable = []
    for mutant in mutants:
        (row,) = prove(SELECTING[mutant.table], mutant.tables)
        if row.status is not Status.COUNTEREXAMPLE:
            assert row.status is Status.PROVED_UNBOUNDED, mutant.tables.name
            assert not selectable(mutant.table, mutant.cell, REFERENCE), mutant.tables.name
            unselectable.append(mutant)
    # Nothing held yet a held response id: an id comes from an event that opened or
    # ended the response (impl/core/dispatch.py), so these cells are never consulted.
    assert {mutant.cell for mutant in unselectable} == {
        (opening, Held.NOTHING, match) for opening in Opening for match in (_SAME, _OTHER)
    }
    streams = recorded_streams()
    reference = load_kernels(REFERENCE)
    expected = [outcome(stream.events, reference) for stream in streams]
    for mutant in unselectable:
        kernels = load_kernels(mutant.tables)
        assert [outcome(stream.events, kernels) for stream in streams] == expected


def test_the_mutation_score_sees_every_reachable_mutant_change_a_result() -> None:
    # The corpus of the mutation score reaches every cell of these tables a step can
    # select, and each such mutant changes a result there: the score runs its proof.
    corpus = build_corpus(edge_streams(), per_cell=1)
    for mutant in table_mutants():
        if mutant.table in TABLES and selectable(mutant.table, mutant.cell, REFERENCE):
            verdict, _ = behaviour(mutant, corpus)
            assert verdict.reached and verdict.changes_behaviour, mutant.tables.name
