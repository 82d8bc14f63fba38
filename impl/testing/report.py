"""Findings, divergences and the report: what a differential run found, for people and tools.

A ``Finding`` is one case on which candidate and oracle disagree, with every
difference.  Findings are grouped by ``signature`` — the kind of stream (``family``:
its provider profile, else its generator) and what went wrong first (aspect and rule,
or the candidate's error message with numbers masked) — because one bug shows up in
many cases.  A ``Divergence`` is one group, its representative shrunk to a minimal
stream and explained; ``DiffReport`` holds them all and renders them as text
(``render``) or JSON (``to_json``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .candidate import Answer, Failure
from .compare import Aspect, Difference
from .rules import rules_of_codes
from .streams import Event


@dataclass(frozen=True)
class Finding:
    """One case on which the candidate and the oracle disagree."""

    case: str
    labels: tuple[str, ...]
    events: tuple[Event, ...]
    data_only: bool
    differences: tuple[Difference, ...]

    @property
    def signature(self) -> tuple[str, ...]:
        """What went wrong first, and on what kind of stream: the grouping key."""
        return (family(self.labels), *signature(self.differences))


def family(labels: Sequence[str]) -> str:
    """The generator a stream came from: its profile if it has one, else its origin."""
    profile = next((label for label in labels if label.startswith("profile:")), None)
    if profile is not None:
        return profile.split("+")[0]
    return labels[0] if labels else "given"


def signature(differences: Sequence[Difference]) -> tuple[str, ...]:
    """Aspect and rule of the first difference (and, for a failure, its message with
    numbers masked, so that ``index 0`` and ``index 3`` are one bug)."""
    first = differences[0]
    if first.aspect is Aspect.FAILURE:
        return (first.aspect.value, first.rule, re.sub(r"\d+", "N", str(first.candidate)))
    return (first.aspect.value, first.rule)


@dataclass(frozen=True)
class Divergence:
    """One group of findings, its representative shrunk to a minimal stream."""

    signature: tuple[str, ...]
    cases: tuple[str, ...]
    labels: tuple[str, ...]
    original_events: int
    events: tuple[Event, ...]
    differences: tuple[Difference, ...]
    oracle: tuple[dict[str, Any], ...]
    answer: Answer
    trace: tuple[str, ...]

    @property
    def rules(self) -> list[str]:
        """The rules the differences break, in rule order."""
        return sorted({d.rule for d in self.differences}, key=lambda r: int(r[1:]))

    def to_json(self) -> dict[str, Any]:
        """The divergence as JSON."""
        return {
            "signature": list(self.signature),
            "rules": self.rules,
            "cases": list(self.cases),
            "labels": list(self.labels),
            "original_events": self.original_events,
            "events": list(self.events),
            "differences": [
                {
                    "aspect": d.aspect.value,
                    "path": d.path,
                    "oracle": d.oracle,
                    "candidate": d.candidate,
                    "rule": d.rule,
                    "why": d.why,
                }
                for d in self.differences
            ],
            "oracle": list(self.oracle),
            "candidate": (
                {"error": self.answer.message} if isinstance(self.answer, Failure) else self.answer
            ),
            "trace": list(self.trace),
        }


@dataclass
class DiffReport:
    """The outcome of a run: how many cases, which diverged, grouped and explained."""

    cases: int
    findings: list[Finding]
    divergences: list[Divergence]
    seconds: float
    check_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the candidate agreed with the oracle on every case."""
        return not self.findings

    def by_rule(self) -> Counter[str]:
        """Diverging cases per rule of their divergence's first difference."""
        counts: Counter[str] = Counter()
        for divergence in self.divergences:
            counts[divergence.differences[0].rule] += len(divergence.cases)
        return counts

    def summary(self) -> str:
        """One paragraph: counts, rules, throughput."""
        rate = self.cases / self.check_seconds if self.check_seconds else float("inf")
        rules = ", ".join(
            f"{rule} x{count}"
            for rule, count in sorted(self.by_rule().items(), key=lambda kv: int(kv[0][1:]))
        )
        return (
            f"{self.cases} streams, {len(self.findings)} diverge"
            + (f" (first difference by rule: {rules})" if rules else "")
            + f"; {len(self.divergences)} distinct divergence(s); "
            f"{rate:.0f} streams/s compared, {self.seconds:.1f} s in all"
        )

    def render(self, shown: int | None = None) -> str:
        """The human report: every divergence (or the first ``shown``), then the summary."""
        blocks = [render_divergence(n + 1, d) for n, d in enumerate(self.divergences[:shown])]
        if shown is not None and len(self.divergences) > shown:
            blocks.append(f"... and {len(self.divergences) - shown} more divergence(s)")
        blocks.append(self.summary())
        return "\n\n".join(blocks)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``diff --json``)."""
        return {
            "cases": self.cases,
            "diverging_cases": len(self.findings),
            "by_rule": dict(self.by_rule()),
            "seconds": round(self.seconds, 3),
            "divergences": [d.to_json() for d in self.divergences],
        }


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render_divergence(number: int, divergence: Divergence) -> str:
    """One divergence for people: differences with rule and why, trace, minimal stream."""
    more = len(divergence.cases) - 1
    lines = [
        f"divergence {number}: {', '.join(divergence.rules)} -- {divergence.cases[0]}"
        + (f" and {more} more case(s)" if more else "")
        + f" [{', '.join(divergence.labels)}]",
        f"  minimal stream: {len(divergence.events)} of {divergence.original_events} events",
    ]
    for d in divergence.differences:
        lines.append(
            f"  [{d.rule}] {d.path}: oracle {_short(d.oracle)}, candidate {_short(d.candidate)}"
        )
        lines.append(f"      why: {d.why}")
    codes = sorted({c for r in divergence.oracle for c in _result_codes(r)})
    if codes:
        lines.append(
            f"  oracle diagnostics: {', '.join(codes)} ({', '.join(rules_of_codes(codes))})"
        )
    lines.append("  oracle trace (explain):")
    lines.extend(f"    {line}" for line in divergence.trace)
    lines.append("  minimal stream (JSON Lines):")
    lines.extend(
        f"    {json.dumps(e, ensure_ascii=False, separators=(',', ':'))}" for e in divergence.events
    )
    return "\n".join(lines)


def _result_codes(result: dict[str, Any]) -> list[str]:
    return [str(d.get("code")) for d in result.get("diagnostics") or [] if isinstance(d, dict)]
