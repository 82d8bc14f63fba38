"""The documentation's streams as conformance vectors: every example, checkable elsewhere.

Each worked example of a rule page and each scenario of the peers page is exported
with the testing toolkit's own vector writer (``responses_oracle.testing.conformance_vectors``) into
``docs/vectors/``: a manifest and one JSON file per stream, holding the events and the
oracle's results.  The pages link to them, so every cell of the peers table and every
example is backed by a vector another implementation can run (the format is the one
``responses-oracle vectors`` exports).  Rule R1's example is raw SSE (its point is the
framing and an undecodable line), which a vector of decoded events cannot carry; it has
no vector.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..testing.conformance_vectors import CASES, Vector, VectorSource, export, make_vector
from .peers import SCENARIOS, Scenario
from .rule_texts import RULES, Rule

FOLDER = "vectors"
"""Where the vectors live under ``docs/``."""

OWNED = f"{FOLDER}/{CASES}"
"""The folder whose every file the generator owns (a file it no longer makes is stale)."""


def rule_vector_name(rule: Rule) -> str:
    """The vector name of a rule's worked example."""
    return f"rule-{rule.key}"


def scenario_vector_name(scenario: Scenario) -> str:
    """The vector name of a peers scenario."""
    return f"peers-{scenario.key}"


def vector_path(name: str) -> str:
    """A vector's file, relative to ``docs/``."""
    return f"{OWNED}/{name}.json"


def has_vector(rule: Rule) -> bool:
    """Whether a rule's example is exported (it is, unless it is raw SSE)."""
    return rule.example.sse is None


def _vectors() -> list[Vector]:
    vectors = [
        make_vector(
            rule_vector_name(rule),
            VectorSource.RULE_TEST,
            f"the worked example of rule {rule.key} ({rule.title}), docs/rules/{rule.key}.md",
            rule.example.events,
            rules=(rule.key,),
        )
        for rule in RULES
        if has_vector(rule)
    ]
    vectors += [
        make_vector(
            scenario_vector_name(scenario),
            VectorSource.RULE_TEST,
            f"where the peers differ: {scenario.title} (docs/peers.md; "
            f"peer-implementations.md {scenario.source})",
            scenario.example.events,
        )
        for scenario in SCENARIOS
    ]
    return vectors


def render_vectors() -> dict[str, str]:
    """The manifest and every vector file: path under ``docs/`` → text."""
    with tempfile.TemporaryDirectory() as folder:
        export(folder, _vectors(), generated_by="python -m responses_oracle.docsite")
        root = Path(folder)
        return {
            f"{FOLDER}/{path.relative_to(root).as_posix()}": path.read_text(encoding="utf-8")
            for path in sorted(root.rglob("*.json"))
        }
