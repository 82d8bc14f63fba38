"""Every branch of the driver is taken by some stream the refinement is checked on.

``proofs.branch_cover`` runs the refinement's generated streams (every strategy of
``testing.strategies``, derandomized: about 1,000 streams, 2 minutes of CPU) through the
driver as the refinement runs it, and measures with coverage.py which branches of
``impl/core`` they take.  A branch no stream takes is one an edit can break unseen.

The lists below name the branches not taken, each with why; the test fails on a branch
neither taken nor listed, on a branch listed unreachable that a stream takes, and on a
listed name that no longer exists (its line changed or went away).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from responses_oracle.proofs.branch_cover import GENERATED, Branch, Reach, every_family, measure

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
        "admit.py",
        "on_added",
        "elif admission.action is AdmissionAction.ADMIT and not admission_refused(step):",
        "exit",
    ): "an admission refused by the entry limit (above)",
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
}
"""Branches no stream of a test's budget can take, with why."""


_GAP = "a stream could take it; the strategies do not yet (measured 2026-12-05)"

NOT_YET: dict[Branch, str] = {
    _b(
        "identity.py",
        "merge_id",
        "if entry.id_source not in (IdSource.WIRE, IdSource.RENAMED_FIELD):",
        "entry.item_id, entry.id_source = renamed, IdSource.RENAMED_FIELD",
    ): _GAP,
    _b("settle.py", "_settle", "if entry.item_id is None:", "from .ids import mint_item_id"): _GAP,
    _b(
        "settle.py",
        "describe_failure",
        "if diagnostics[position].code is Code.RESPONSE_ERROR:",
        "for position in reversed(range(len(diagnostics))):",
    ): _GAP,
    _b(
        "admit.py",
        "on_added",
        "if admission.code is not None:",
        'step.note(admission.code, f"call_id {said(call_id)} is held by another item type", True)',
    ): _GAP,
    _b(
        "admit.py",
        "on_item",
        "if binds_missing_slot(PYTHON, entry.slot is not None, slot_index is not None, fills):",
        "entry.slot = slot_index",
    ): _GAP,
    _b(
        "effects.py",
        "deliver",
        "if channel is not None and event is not None:",
        "for effect in transition.effects:",
    ): _GAP,
    _b(
        "events.py",
        "_validated",
        "if channel is not None:",
        "return Event(",
    ): _GAP,
    _b(
        "events.py",
        "_validated",
        "if part is not None:",
        "return Event(",
    ): _GAP,
    _b(
        "reconcile.py",
        "align_parts",
        "for old, new in zip(strays, free, strict=False):",
        "moved = entry.channels.pop((kind, old))",
    ): _GAP,
    _b(
        "reconcile.py",
        "clip",
        "if value is None:",
        'return "nothing"',
    ): _GAP,
    _b(
        "reconcile.py",
        "item_channel_values",
        "if container is None:",
        "return []",
    ): _GAP,
    _b(
        "route.py",
        "_add_to_part",
        "elif merge is PartMerge.REPLACE and at is not None and inside:",
        "held.part = {**part, addition.array: array}",
    ): _GAP,
    _b(
        "route.py",
        "_decide",
        "if len(routes) >= _ROUTES_HELD:  # many keys that never repeat: start again",
        "routes.clear()",
    ): _GAP,
    _b(
        "route.py",
        "on_scoped",
        "if route.code is not None:",
        "return",
    ): _GAP,
    _b(
        "settle.py",
        "_error_of",
        "if event is None:",
        "return None",
    ): _GAP,
}
"""Branches a stream could take that the generated streams do not take (or not in every
process) yet: a gap of the strategies, named so that it is not forgotten (each to be
reached, then removed)."""


@pytest.fixture(scope="module")
def measured() -> tuple[frozenset[Branch], frozenset[Branch]]:
    """(every branch of impl/core but the generated files', the branches taken)."""
    every, reached = measure(every_family())
    return (
        frozenset(b for b in every if b.module not in GENERATED),
        frozenset(b for b in reached if b.module not in GENERATED),
    )


def test_every_driver_branch_is_taken_by_a_generated_stream_or_listed(
    measured: tuple[frozenset[Branch], frozenset[Branch]],
) -> None:
    every, reached = measured
    missed = sorted(every - reached - set(UNREACHABLE) - set(NOT_YET))
    assert not missed, "branches no generated stream takes:\n" + "\n".join(map(str, missed))


def test_no_branch_listed_unreachable_is_taken(
    measured: tuple[frozenset[Branch], frozenset[Branch]],
) -> None:
    # NOT_YET's may be taken in one process and not in another (the runs differ by a
    # branch or two: see MEASURED.md); an UNREACHABLE one taken is a wrong reason.
    _, reached = measured
    taken = sorted(reached & set(UNREACHABLE))
    assert not taken, "listed unreachable, yet taken:\n" + "\n".join(map(str, taken))


def test_every_listed_branch_exists(measured: tuple[frozenset[Branch], frozenset[Branch]]) -> None:
    every, _ = measured
    gone = sorted((set(UNREACHABLE) | set(NOT_YET)) - every)
    assert not gone, "listed, no longer in impl/core:\n" + "\n".join(map(str, gone))


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
