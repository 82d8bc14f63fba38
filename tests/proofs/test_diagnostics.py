"""Diagnostics in the encoding: the codes a step raises are the driver's codes.

``Encoding.raised_by`` reads the codes of a step off the tables (note effects through
``model.vocabulary.NOTE_CODES``, slot moves through the slot table).  The diagnostic
obligations (``unconfirmed_reported``, ``late_reported``, ``slot_reuse_reported``) are
proved over it, so it must be what the driver raises: on generated streams, every
lifecycle row the driver takes that carries a note effect raises that effect's code in
the same step.  And a mutant that only drops a diagnostic is refuted by ``prove``, and
its stream shows the missing code.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from responses_oracle.core.dispatch import step
from responses_oracle.core.events import parse_event
from responses_oracle.core.state import ResponseState
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.lifecycle import Transition
from responses_oracle.model.tables import REFERENCE, ModelTables, table_cells, tables_by_kernel
from responses_oracle.model.vocabulary import (
    NOTE_CODES,
    NOTE_EFFECTS,
    Code,
    Effect,
    EntryState,
    Trigger,
)
from responses_oracle.proofs.counterexample import fixture_path
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANTS
from responses_oracle.reducer import Reducer
from responses_oracle.testing.strategies import GeneratedStream, faulty_streams


def test_every_note_effect_has_a_code() -> None:
    assert set(NOTE_CODES) == NOTE_EFFECTS
    assert len(set(NOTE_CODES.values())) == len(NOTE_CODES)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faulty_streams())
def test_the_driver_raises_the_code_of_every_note_effect(stream: GeneratedStream) -> None:
    taken: list[Transition] = []
    kernels = load_kernels(REFERENCE)

    def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
        transition = kernels.lifecycle(state, trigger)
        taken.append(transition)
        return transition

    recording = kernels._replace(lifecycle=lifecycle)
    state = ResponseState()
    for index, payload in enumerate(stream.events):
        if payload.get("type") == "response.created" and index:
            break  # one response: the reducer would start a new state here
        taken.clear()
        trace = step(state, parse_event(index, payload), recording)
        for transition in taken:
            for effect in transition.effects:
                if effect in NOTE_EFFECTS and effect is not Effect.NOTE_MISSING_FROM_SNAPSHOT:
                    assert NOTE_CODES[effect] in trace.codes, (payload["type"], effect)


DIAGNOSTIC_MUTANTS = ("unconfirmed-call-not-reported", "late-delta-silent", "slot-reuse-silent")
"""Mutants that drop the diagnostic of one cell (their other effects kept)."""


def _reported_by_the_reference(tables: ModelTables) -> set[Code]:
    """The codes the reference's cells report where ``tables`` differs from it."""
    codes: set[Code] = set()
    for name, table in tables_by_kernel(REFERENCE).items():
        changed = dict(table_cells(tables_by_kernel(tables)[name]))
        for key, cell in table_cells(table):
            if changed[key] != cell:
                effects = getattr(cell, "effects", ())
                codes |= {NOTE_CODES[effect] for effect in effects if effect in NOTE_CODES}
                codes |= {cell.code} if getattr(cell, "code", None) is not None else set()
    return codes


@pytest.mark.parametrize("name", DIAGNOSTIC_MUTANTS)
def test_a_dropped_diagnostic_is_refuted(name: str) -> None:
    mutant = MUTANTS[name]
    (row,) = prove(mutant.breaks, mutant.tables, bound=(2, 2), matcher=False)
    assert row.status is Status.COUNTEREXAMPLE
    events: list[dict[str, Any]] = [
        json.loads(line) for line in fixture_path(mutant).read_text("utf-8").splitlines()
    ]
    codes = []
    for tables in (mutant.tables, REFERENCE):
        reducer = Reducer(kernels=load_kernels(tables))
        reducer.feed_all(events)
        (result,) = reducer.finish()
        codes.append({d.code for d in result.diagnostics})
    dropped = _reported_by_the_reference(mutant.tables)
    assert dropped and dropped <= codes[1] - codes[0]
