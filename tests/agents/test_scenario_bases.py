"""No undeclared gap: every scenario is its base with exactly its declared deviations.

The catalogue (``model/deviations.py``) is checked entry by entry: a transform, evidence
that exists, known codes and effects.  Then every built-in scenario: what serve plays
(``Scenario.played``) differs from its base only in the events and fields its
deviations declare (``DeviationSpec.changes``), the reducer's codes on it are the
base's and exactly those its deviations name, and the canonicalizer's repairs and
re-spellings likewise; a scenario the oracle answers with an error, or with a deviation
no provider is shown to send, is a robustness row (``counted`` False).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.agents.scenario_list import Scenario, builtin
from responses_oracle.canonicalizer import Canonicalizer
from responses_oracle.model.deviations import (
    CANONICAL_EFFECTS,
    DEVIATIONS,
    REPAIRS,
    RESPELLS,
    TRANSFORMS,
    Applied,
    apply,
)
from responses_oracle.model.vocabulary import SEVERITY, Code, Severity
from responses_oracle.reducer import reduce
from responses_oracle.serve.scenarios import load_scenario

Event = dict[str, Any]

SCENARIOS = builtin()
ISSUE = re.compile(r"[\w.-]+/[\w.-]+#\d+")
"""A public issue or pull request, ``owner/repo#N``."""


def test_every_catalogue_entry_has_a_transform_and_every_transform_an_entry() -> None:
    assert set(TRANSFORMS) == set(DEVIATIONS)


@pytest.mark.parametrize("name", sorted(DEVIATIONS))
def test_every_entry_has_evidence_that_exists_and_known_codes(name: str) -> None:
    spec = DEVIATIONS[name]
    assert spec.what and spec.evidence, name
    for source in spec.evidence:
        assert ISSUE.fullmatch(source) or (REPO / source).exists(), source
    assert all(isinstance(code, Code) for code in spec.codes)
    assert spec.canonical <= CANONICAL_EFFECTS
    assert spec.changes, f"{name} declares nothing it may change"


def test_a_transform_never_changes_its_input() -> None:
    base = list(load_scenario("s01").events)
    before = json.dumps(base)
    for name in ("empty-terminal-output", "no-item-id", "rotating-item-ids", "done-only"):
        assert apply(base, [Applied(name)]) != base
    assert json.dumps(base) == before


def test_a_scenario_entry_reads_back_as_written() -> None:
    for scenario in SCENARIOS:
        for applied in scenario.deviations:
            assert Applied.from_json(applied.to_json()) == applied


def _key(event: Event) -> str:
    return json.dumps({k: v for k, v in event.items() if k != "sequence_number"}, sort_keys=True)


def _allowed(scenario: Scenario, kind: str, field: str | None) -> bool:
    """Whether some deviation of the scenario declares changing ``kind`` (the whole
    event, with ``field`` None) or its ``field``."""
    declared = {c for a in scenario.deviations for c in DEVIATIONS[a.name].changes}
    if kind in declared or "*" in declared:
        return True
    return field is not None and bool({f"{kind} {field}", f"* {field}"} & declared)


def undeclared_changes(
    scenario: Scenario, base: Sequence[Event], served: Sequence[Event]
) -> list[str]:
    """What ``served`` changes relative to ``base`` that no deviation declares: an event
    added, dropped or moved, or a field changed (``sequence_number`` apart: a provider
    numbers what it sends)."""
    found = []
    matcher = difflib.SequenceMatcher(
        a=[_key(e) for e in base], b=[_key(e) for e in served], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = list(base[i1:i2]), list(served[j1:j2])
        for new in list(news):
            old = next((o for o in olds if o["type"] == new["type"]), None)
            if old is None:
                continue
            olds.remove(old)
            news.remove(new)
            found += [
                f"{new['type']} {field} changed"
                for field in sorted(set(old) | set(new))
                if field != "sequence_number" and old.get(field) != new.get(field)
                and not _allowed(scenario, new["type"], field)
            ]
        found += [f"{e['type']} dropped or moved" for e in olds
                  if not _allowed(scenario, e["type"], None)]
        found += [f"{e['type']} added or moved" for e in news
                  if not _allowed(scenario, e["type"], None)]
    return found


def _codes(events: Sequence[Event]) -> set[Code]:
    return {d.code for result in reduce(list(events)) for d in result.diagnostics}


def _effects(events: Sequence[Event]) -> set[str]:
    canonicalizer = Canonicalizer()
    for event in events:
        canonicalizer.feed(event)
    canonicalizer.close()
    records = canonicalizer.repairs
    return ({REPAIRS} if any(r["changes"] for r in records) else set()) | (
        {RESPELLS} if any(r["respelled"] for r in records) else set()
    )


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_a_scenario_differs_from_its_base_in_its_declared_deviations_only(
    scenario: Scenario,
) -> None:
    loaded = load_scenario(scenario.name)
    base, served = list(loaded.events), loaded.played()
    assert not undeclared_changes(scenario, base, served)
    if scenario.deviations:
        assert served != base, f"{scenario.name}: its deviations change nothing"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_the_oracle_finds_exactly_what_the_deviations_declare(scenario: Scenario) -> None:
    loaded = load_scenario(scenario.name)
    base, served = list(loaded.events), loaded.played()
    declared = {c for a in scenario.deviations for c in DEVIATIONS[a.name].codes}
    assert _codes(served) == _codes(base) | declared
    effects = {e for a in scenario.deviations for e in DEVIATIONS[a.name].canonical}
    assert _effects(served) == _effects(base) | effects


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_an_error_or_an_unshown_deviation_makes_a_robustness_row(scenario: Scenario) -> None:
    served = load_scenario(scenario.name).played()
    errors = {c for c in _codes(served) if SEVERITY[c] is Severity.ERROR}
    unshown = [a.name for a in scenario.deviations if not DEVIATIONS[a.name].provider]
    assert scenario.counted == (not errors and not unshown)
    assert bool(scenario.robustness) == (not scenario.counted)


def test_the_gaps_the_issue_names_are_filled_or_declared() -> None:
    """#42: an empty terminal output, a done call without argument events, a done item
    without ``status``, a delta without ``output_index`` are filled in the base unless
    a deviation declares them; r3 and the unshown peers streams are robustness rows."""
    by_name = {s.name: s for s in SCENARIOS}
    for scenario in SCENARIOS:
        served = load_scenario(scenario.name).played()
        names = {a.name for a in scenario.deviations}
        for event in served:
            if event["type"] == "response.output_item.done" and "arguments" in event["item"]:
                assert "status" in event["item"], scenario.name
            if event["type"].endswith("_arguments.delta"):
                assert "output_index" in event, scenario.name
            if event["type"] == "response.completed" and event["response"].get("output") == []:
                assert "empty-terminal-output" in names, scenario.name
        done = [e for e in served if e["type"] == "response.output_item.done"
                and e["item"].get("type") == "function_call"]
        has_args = [e for e in served if e["type"].startswith("response.function_call_arguments")]
        if done and not has_args:
            assert names & {"done-only", "no-argument-deltas", "arguments-only-in-snapshot"}
    for name in ("r3_live_slot_reused_keeps_both_items", "peers-empty-done-arguments",
                 "peers-same-call-id-two-ids", "peers-arguments-done-diverges"):
        assert not by_name[name].counted, name
    s02 = by_name["s02"]
    assert s02.by.startswith("no provider shown") and not s02.counted
