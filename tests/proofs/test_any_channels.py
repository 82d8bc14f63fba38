"""The channel invariants for any number of channels per entry (``proofs/any_channels.py``).

The bounded and unbounded proofs give each entry two channels; ``any_channels`` proves
the invariants about each channel on its own for every number.  These tests check that
the proof holds on the reference, that it is refused for a formula that relates two
channels (the condition that makes one channel at a time a proof for all), that its
two-channel view computes what the bounded encoding computes (and would not if a channel
read a third one), that it
is not proved on the mutants, that ``prove`` reports it as a row of its own, and that the
mutants it is there for are refuted at two channels and at no depth searched at one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import z3
from responses_oracle.model.tables import REFERENCE
from responses_oracle.proofs.any_channels import (
    ANY_CHANNELS,
    agrees_with_encoding,
    prove_any_channels,
    separable,
)
from responses_oracle.proofs.encoding import Bounds, Encoding, State, Step
from responses_oracle.proofs.induction import search, system_for
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import CHANNEL_MUTANTS, MUTANTS, Mutant
from responses_oracle.proofs.properties import PROPERTIES
from responses_oracle.proofs.unbounded import RLIMIT, UNBOUNDED

TWO_CHANNEL_MUTANTS = ("delta-reopens-done-part", "other-part-delta-dropped")
"""The mutants that need two channels to show: a part's ``*.done``, then another
part's delta."""


def _mutant(name: str) -> Mutant:
    return MUTANTS.get(name) or next(m for m in CHANNEL_MUTANTS if m.tables.name == name)


@pytest.mark.parametrize("name", ANY_CHANNELS)
def test_each_channel_invariant_holds_for_any_number_of_channels(name: str) -> None:
    assert name in UNBOUNDED
    assert separable(REFERENCE, PROPERTIES[name])
    proved, detail = prove_any_channels(REFERENCE, name)
    assert proved, detail
    assert "any number of channels" in detail


def test_a_formula_relating_two_channels_is_refused() -> None:
    # Every channel closed alike: true of each channel alone, not of two.
    alike = replace(
        PROPERTIES["done_closes_its_channel"],
        state=lambda encoding, state: z3.And(
            [closed == state.channel_closed[0] for closed in state.channel_closed]
        ),
    )
    assert not separable(REFERENCE, alike)
    # An entry's state read against all of its channels.
    assert not separable(REFERENCE, PROPERTIES["open_state_follows_events"])
    # A step property reads the step's channel: never one channel at a time.
    assert not separable(REFERENCE, PROPERTIES["first_admission_wins"])
    proved, detail = prove_any_channels(REFERENCE, "first_admission_wins")
    assert not proved and "no encoding for any number of channels" in detail


@pytest.mark.parametrize(
    "name",
    (
        "other-part-delta-dropped",
        "payload-done-leaves-channel-open",
        "delta-closes-channel",
        "delta-reopens-done-part",
    ),
)
def test_the_proof_fails_on_each_mutant(name: str) -> None:
    mutant = _mutant(name)
    assert mutant.breaks in ANY_CHANNELS
    # Z3 answers unknown on most mutants (a counterexample to induction under a
    # quantifier) once its limit is spent: a tenth of prove's limit, within which the
    # reference is proved, is enough to say "not proved".
    assert prove_any_channels(REFERENCE, mutant.breaks, rlimit=RLIMIT // 10)[0]
    proved, detail = prove_any_channels(mutant.tables, mutant.breaks, rlimit=RLIMIT // 10)
    assert not proved and detail.startswith("base: unsat"), detail


@pytest.mark.parametrize("name", TWO_CHANNEL_MUTANTS)
def test_a_two_channel_mutant_is_refuted_at_two_channels_only(name: str) -> None:
    mutant = _mutant(name)
    prop = PROPERTIES[mutant.breaks]

    def broken(system: object, before: object, step: object, after: object) -> z3.BoolRef:
        return z3.Not(prop.holds(system, before, step, after))

    one, depth = search(system_for(prop, mutant.tables, Bounds(2, 2), 1), 7, broken)
    assert one is None and depth == 7
    two, depth = search(system_for(prop, mutant.tables, Bounds(2, 2), 2), 7, broken)
    assert two is not None
    assert [(s.trigger.value, s.channel) for s in two.steps] == [
        ("item_added", 0),
        ("payload_done", 0),
        ("delta", 1),
    ]


def test_prove_reports_the_row() -> None:
    rows = prove("parts_opened", REFERENCE, bound=(2, 2), unbounded=True, matcher=False)
    assert [(row.system, row.status) for row in rows] == [
        ("lifecycle", Status.PROVED_BOUNDED),
        ("lifecycle", Status.PROVED_UNBOUNDED),
        ("channels", Status.PROVED_UNBOUNDED),
    ]
    assert "any number of channels" in rows[2].detail


@pytest.mark.parametrize("channels", (1, 3, 4))
def test_the_two_channel_view_computes_what_the_encoding_computes(channels: int) -> None:
    assert agrees_with_encoding(REFERENCE, channels)


def test_a_channel_reading_a_third_channel_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Encoding._apply_channel

    def cross_talk(self: Encoding, state: State, step: Step, i: int, c: int, *rest: Any) -> Any:
        # A channel closed whenever the entry's first channel is: it reads a channel
        # that is neither itself nor the one the event names.
        fields = original(self, state, step, i, c, *rest)
        first = state.channel_closed[i * self.channels]
        return {**fields, "channel_closed": z3.Or(fields["channel_closed"], first)}

    monkeypatch.setattr(Encoding, "_apply_channel", cross_talk)
    assert not agrees_with_encoding(REFERENCE, 3)
