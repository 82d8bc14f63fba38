"""Every encoded invariant is proved on the reference model; the encoding is honest.

The full grid N, M in {2, 3, 4} is what ``prove()`` runs; here each invariant is proved
at the smallest and the largest bound (``complete_once`` has its grid in its own file).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import z3
from responses_oracle.model.completeness import COMPLETENESS
from responses_oracle.model.completeness import STRENGTHENING as COMPLETENESS_STRENGTHENING
from responses_oracle.model.invariants import INVARIANTS, STRENGTHENING
from responses_oracle.model.lifecycle import REACHABILITY, Transition
from responses_oracle.model.tables import REFERENCE
from responses_oracle.model.vocabulary import Effect, EntryState, Trigger
from responses_oracle.proofs.encoding import ENVIRONMENT, Bounds, Encoding, State, Step, Term
from responses_oracle.proofs.induction import check_induction, new_solver, reachability_lemmas
from responses_oracle.proofs.mutants import with_cell
from responses_oracle.proofs.policies import OPENCODE
from responses_oracle.proofs.properties import CLAUSES, PROPERTIES, STRUCTURAL, stated
from responses_oracle.proofs.unbounded import UNBOUNDED, prove_unbounded


@pytest.mark.parametrize("bounds", [Bounds(2, 2), Bounds(4, 4)], ids=str)
@pytest.mark.parametrize("invariant", list(PROPERTIES))
def test_reference_invariant_proved(invariant: str, bounds: Bounds) -> None:
    result = check_induction(REFERENCE, invariant, bounds)
    assert (result.base_holds, result.step_holds, result.broken) == (True, True, ())


def test_every_invariant_is_encoded() -> None:
    names = [inv.name for inv in INVARIANTS] + [ob.name for ob in COMPLETENESS]
    assert names == list(PROPERTIES)
    assert set(STRUCTURAL) <= set(PROPERTIES)


def test_every_formula_is_of_its_entrys_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    # Checked when a row proves it (``stated``), so each row reads its own entry.
    assert [stated(name) for name in PROPERTIES] == list(PROPERTIES.values())
    # The check can fail: a step formula where the entry says ``STATE``.
    step = PROPERTIES["first_admission_wins"]
    monkeypatch.setitem(PROPERTIES, "complete_once", replace(step, name="complete_once"))
    with pytest.raises(ValueError, match="complete_once: the formula does not match scope"):
        stated("complete_once")


def test_strengthening_sentences_and_formulas_match() -> None:
    strengthening = {**STRENGTHENING, **COMPLETENESS_STRENGTHENING}
    used = {clause for clauses in strengthening.values() for clause in clauses}
    assert used | set(REACHABILITY) == set(CLAUSES)
    assert set(strengthening) <= set(PROPERTIES)


@pytest.mark.parametrize("bounds", [Bounds(2, 2), Bounds(4, 4)], ids=str)
def test_every_reachability_clause_is_a_lemma_of_the_reference(bounds: Bounds) -> None:
    # Each is inductive (with the others) for the reference, so every lifecycle proof
    # assumes all three; a peer that reopens done calls keeps only the others.
    assert reachability_lemmas(REFERENCE, bounds) == REACHABILITY
    assert reachability_lemmas(OPENCODE.tables, Bounds(2, 2)) == REACHABILITY[:2]


def test_complete_once_needs_its_strengthening() -> None:
    # Without the two clauses the property alone is not inductive: a CTI exists.
    bare = replace(PROPERTIES["complete_once"], name="complete_once")
    encoding = Encoding(REFERENCE, Bounds(2, 2))
    state, step = encoding.fresh_state("s"), encoding.fresh_step("e")
    after = encoding.successor(state, step)
    solver = new_solver()
    solver.add(
        encoding.domain(state),
        bare.holds(encoding, state, step, state),
        encoding.environment(state, step),
        z3.Not(bare.holds(encoding, state, step, after)),
    )
    assert solver.check() == z3.sat


def test_environment_is_satisfiable_and_every_clause_restricts() -> None:
    # Each clause must cut away some step, or it is dead weight; together they must
    # still allow a step from the initial state (a contradictory environment would
    # make every induction step vacuously true).
    encoding = Encoding(REFERENCE, Bounds(2, 2))
    state, step = encoding.fresh_state("s"), encoding.fresh_step("e")
    clauses = encoding.environment_clauses(state, step)
    solver = new_solver()
    solver.add(encoding.initial(state), encoding.domain(state), *clauses.values())
    assert solver.check() == z3.sat
    assert set(clauses) == {clause.name for clause in ENVIRONMENT}
    for name, clause in clauses.items():
        solver = new_solver()
        solver.add(encoding.domain(state), z3.Not(clause))
        assert solver.check() == z3.sat, name


def test_encoding_follows_the_tables_not_a_copy() -> None:
    # Changing one row changes the encoding: a delta that completes an entry but
    # leaves it open, so that its output_item.done completes it again.
    tables = with_cell(
                 REFERENCE,
                 "delta-completes",
                 "lifecycle",
                 (EntryState.ADDED, Trigger.DELTA),
                 Transition(EntryState.STREAMING, (Effect.APPEND_DELTA, Effect.EMIT_COMPLETION)),
             )
    assert check_induction(tables, "complete_once", Bounds(2, 2)).step_holds is False
    assert check_induction(REFERENCE, "complete_once", Bounds(2, 2)).step_holds is True


@pytest.mark.parametrize("invariant", UNBOUNDED)
def test_unbounded_proof_of_reference(invariant: str) -> None:
    assert prove_unbounded(REFERENCE, invariant) == (
        True,
        "base and induction hold for any number of entries and slots",
    )


class _NoTerminalGate(Encoding):
    """The driver without its first line (R9): events after the terminal one are
    delivered like any other."""

    def delivers(self, state: State, step: Step, i: int) -> Term:
        return super().delivers(replace(state, terminal=z3.BoolVal(False)), step, i)


class _CrossTalk(Encoding):
    """A driver that also delivers an entry-scoped event to the next entry."""

    def delivers(self, state: State, step: Step, i: int) -> Term:
        neighbour = replace(step, entry=step.entry + 1)
        return z3.Or(super().delivers(state, step, i), super().delivers(state, neighbour, i))


@pytest.mark.parametrize(
    ("invariant", "broken_driver"),
    [("terminal_is_final", _NoTerminalGate), ("no_cross_talk", _CrossTalk)],
)
def test_structural_proofs_fail_when_the_driver_rule_is_broken(
    invariant: str, broken_driver: type[Encoding]
) -> None:
    # No table cell can break these two (STRUCTURAL), so their mutants are of the
    # driver's encoding: the same induction query, one delivery rule changed.
    prop = PROPERTIES[invariant]
    for driver, refuted in ((Encoding, False), (broken_driver, True)):
        encoding = driver(REFERENCE, Bounds(2, 2))
        state, step = encoding.fresh_state("s"), encoding.fresh_step("e")
        solver = new_solver()
        solver.add(
            encoding.domain(state),
            encoding.environment(state, step),
            z3.Not(prop.holds(encoding, state, step, encoding.successor(state, step))),
        )
        assert (solver.check() == z3.sat) is refuted, driver.__name__
