"""Every branch of the driver is taken by some stream the refinement is checked on.

``proofs.branch_cover`` runs the refinement's generated streams (the generators of every
strategy of ``testing.strategies``, each stream seeded by its name: about 1,000 streams,
2 minutes of CPU) through the driver as the refinement runs it, and measures with
coverage.py which branches of ``impl/core`` they take.  A branch no stream takes is one
an edit can break unseen.

``UNREACHABLE`` names the branches no stream can take, each with why.  The tests fail
on any other branch not taken, on a listed branch a stream takes, on a listed name that
no longer exists (its line changed or went away), on a stream where the driver misses an
obligation of the refinement, and on a branch first taken by a stream the refinement
refutes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from responses_oracle.proofs.branch_cover import (
    GENERATED,
    Branch,
    Measured,
    Reach,
    families,
    generated_streams,
    measure,
    stream,
)
from responses_oracle.proofs.refinement import check_stream

# The generated modules (GENERATED: table cells, generated from model/ and held to it by
# a drift test) are left out; proofs/MEASURED.md gives how many of their branches the
# streams take.


def _b(module: str, function: str, source: str, target: str, rank: int = 0) -> Branch:
    return Branch(module, function, source, target, rank)


UNREACHABLE: dict[Branch, str] = {
    _b(
        "admit.py",
        "admission_refused",
        "if len(state.entries) < step.limits.max_entries:",
        "if not state.entries_limit_hit:",
    ): "past ReducerLimits.max_entries (100,000 entries in one response): tests/test_api.py "
    "and tests/test_canonical.py take it with a lower limit",
    _b("admit.py", "admission_refused", "if not state.entries_limit_hit:", "return True"): (
        "the same limit, hit a second time"
    ),
    _b(
        "admit.py",
        "admission_refused",
        "if not state.entries_limit_hit:",
        "state.entries_limit_hit = True",
    ): "the same limit, hit the first time",
    _b(
        "reconcile.py",
        "append_delta",
        "if channel.delta_chars > limit:",
        "if channel.delta_chars - len(value) <= limit:",
    ): "past ReducerLimits.max_channel_chars (64 MiB of deltas on one channel): "
    "tests/fuzz/test_fuzz_pipeline.py takes it with a lower limit",
    _b(
        "reconcile.py",
        "append_delta",
        "if channel.delta_chars - len(value) <= limit:",
        "return",
    ): "the same limit, crossed before",
    _b(
        "reconcile.py",
        "append_delta",
        "if channel.delta_chars - len(value) <= limit:",
        "step.note(",
    ): "the same limit, crossed by this delta",
    _b("ids.py", "synthetic_output_id", "if not call_item_id:", "return None"): (
        "not the reducer's: the next request's output ids (next_input), tests/core/test_ids.py"
    ),
    _b(
        "ids.py",
        "synthetic_output_id",
        "if not call_item_id:",
        'name = f"{output_prefix}:{call_item_id}"',
    ): "not the reducer's (above)",
    _b(
        "admit.py",
        "on_item",
        "if entry.ordinal >= len(state.entries) or state.entries[entry.ordinal] is not entry:",
        "return None",
    ): "the reference's ABSENT rows admit every done and snapshot item: only a table "
    "mutant that does not reaches it (nothing_lost then sees the loss)",
    _b("effects.py", "_execute", "if code is not None:", "exit"): (
        "every note effect has a code in the reference NOTE_CODES: only a table mutant "
        "with a silent note reaches it"
    ),
    _b(
        "effects.py",
        "_note",
        "elif effect is Effect.NOTE_ORPHAN:",
        'detail = "event for an entry never admitted"',
    ): "NOTE_ORPHAN is only in ABSENT's rows, and no event reaches an ABSENT entry: the "
    "route reports an orphan (route._refuse) before any entry is chosen",
    _b("reconcile.py", "clip", "if value is None:", 'return "nothing"'): (
        "a payload code quotes the held value and the offer, and the reference PAYLOAD "
        "gives a code only where the channel holds a string (EMPTY or VALUE) and the "
        "offer is not MISSING; the other callers quote a string: only a table mutant "
        "with a code in the NOTHING row or the MISSING column reaches it"
    ),
    _b(
        "effects.py",
        "deliver",
        "if channel is not None and event is not None:",
        "for effect in transition.effects:",
    ): "APPEND_DELTA is in the rows of Trigger.DELTA alone (LIFECYCLE), and DELTA is "
    "delivered only by route.on_scoped, with the event and its channel (DELTA is a "
    "CHANNEL_TRIGGER): only a table mutant with APPEND_DELTA in another trigger's row "
    "reaches it",
    _b(
        "route.py",
        "_add_to_part",
        "elif merge is PartMerge.REPLACE and at is not None and inside:",
        "held.part = {**part, addition.array: array}",
    ): "PART_MERGE gives REPLACE only to PositionView.INSIDE (a position inside the "
    "array) and never DROP: only a table mutant reaches it",
    _b("route.py", "on_scoped", "if route.code is not None:", "return"): (
        "every ROUTING cell whose action leaves no target (DROP, REJECT) has a code, "
        "BY_SLOT is chosen only where the slot binds an entry and BY_ID only where the "
        "id names one (model.routing.route_views): only a table mutant with a silent "
        "drop reaches it"
    ),
}
"""Branches no generated stream can take, with why: past a limit no stream of a test's
budget reaches, not the reducer's, or reached only by a table mutant."""


@pytest.fixture(scope="module")
def measured() -> Measured:
    """The measure over every generated stream (the generated files' branches left out)."""
    found = measure(generated_streams())
    return replace(
        found,
        every=frozenset(b for b in found.every if b.module not in GENERATED),
        reached=frozenset(b for b in found.reached if b.module not in GENERATED),
    )


def test_every_driver_branch_is_taken_by_a_generated_stream(measured: Measured) -> None:
    missed = sorted(measured.every - measured.reached - set(UNREACHABLE))
    assert not missed, "branches no generated stream takes:\n" + "\n".join(map(str, missed))


def test_no_branch_listed_unreachable_is_taken(measured: Measured) -> None:
    taken = sorted(measured.reached & set(UNREACHABLE))
    assert not taken, "listed unreachable, yet taken:\n" + "\n".join(
        f"{branch} (by {measured.witnesses[branch]})" for branch in taken
    )


def test_every_listed_branch_exists(measured: Measured) -> None:
    gone = sorted(set(UNREACHABLE) - measured.every)
    assert not gone, "listed, no longer in impl/core:\n" + "\n".join(map(str, gone))


def test_the_driver_meets_its_obligations_on_every_measured_stream(measured: Measured) -> None:
    # The refinement's checks beside the abstraction (refinement.driver_steps), on all of
    # the streams; the Z3 step check on the streams that first take each branch (below).
    assert measured.problems == ()


def test_each_branch_is_first_taken_by_a_stream_that_refines_the_model(
    measured: Measured,
) -> None:
    # A branch counts only when a stream the refinement checks takes it.
    witnesses = sorted(set(measured.witnesses.values()))
    failed = {name: check_stream(stream(*name)) for name in witnesses}
    assert {name: found for name, found in failed.items() if found} == {}


def test_the_streams_are_the_same_in_every_process() -> None:
    # Every stream is its generator run with a RandomChooser seeded by its name, never
    # drawn through Hypothesis: Hypothesis mixes into its draws constants it reads from
    # the source of every local module imported so far, so that the same derandomized
    # test drew other streams under pytest than in a script (MEASURED.md).  Another hash
    # seed, and none of this process's imports, give the same streams.
    names = [(family, index) for family in families() for index in (0, 1, 7)]
    script = (
        "import json, sys\n"
        "from responses_oracle.proofs.branch_cover import stream\n"
        "names = json.loads(sys.argv[1])\n"
        "print(json.dumps([list(stream(f, i)) for f, i in names], sort_keys=True))\n"
    )
    environment = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run(
        [sys.executable, "-c", script, json.dumps(names)],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    ).stdout
    here = json.dumps([list(stream(f, i)) for f, i in names], sort_keys=True)
    assert json.loads(there) == json.loads(here)


def test_a_branch_no_call_takes_is_found(tmp_path: Path) -> None:
    # The measure itself, on a scratch module: a branch added and never taken is named.
    import importlib.util

    source = "def sign(x):\n    if x < 0:\n        return -1\n    return 1\n"
    (tmp_path / "scratch.py").write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("scratch", tmp_path / "scratch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reach = Reach(tmp_path)
    with reach.measuring():
        assert module.sign(5) == 1
    assert sorted(map(str, reach.every() - reach.reached())) == [
        "scratch.py sign: `if x < 0:` -> `return -1`"
    ]
    assert sorted(map(str, reach.reached())) == ["scratch.py sign: `if x < 0:` -> `return 1`"]
