"""Findings, clusters and the report: what a differential run found, for people and tools.

A ``Finding`` is one case on which candidate and reference disagree: the candidate's
answer, every difference classified by harm (``taxonomy``), and the distinct causes
(``cause.Signature``) it shows; its class is its most harmful one.  A ``Cluster``
gathers the cases whose most harmful difference has one cause, with one representative
shrunk to a minimal well-formed stream that still shows it, the rule that decides it,
both answers, and how its cases read (``variants``: a cluster of failures lists every
distinct message).  Each case keeps its own class: a cluster counts its cases per class
(``classes``) and reads as its representative's class, so "wrong tool run, 28 streams"
is never said of a cluster with 3 wrong tool runs.  It also says where its shapes come
from (``sources``: a real provider or gateway, or synthetic only, ``provenance``).
``DiffReport`` holds them, real shapes first, then most harmful class first, and
renders them as text (``render``) or JSON (``to_json``).  Classes a run allows
(``--allow``) are reported but do not fail it.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from responses_oracle.model.divergence import (
    HARM,
    HYPOTHESES,
    RAISED_ON_INVALID_SAYS,
    SEVERE,
    Divergence,
    Hypothesis,
)
from responses_oracle.words import counted

from .candidate import Answer, Failure
from .cause import Cause, Signature
from .compare import Aspect
from .provenance import Source, source_of
from .rule_codes import RULES
from .streams import Event
from .taxonomy import Classified

RULE_DOCS = "docs/rules/{rule}.md"
"""Where a rule is documented (the docs site's page of that rule)."""


@dataclass(frozen=True)
class Finding:
    """One case on which the candidate and the reference disagree."""

    case: str
    labels: tuple[str, ...]
    events: tuple[Event, ...]
    data_only: bool
    answer: Answer
    classified: tuple[Classified, ...]
    signatures: tuple[Signature, ...]
    """The distinct causes, most harmful first."""
    explained: tuple[Hypothesis, ...] = ()
    """The client policies that explain the case's most harmful cause (``hypotheses``)."""

    @property
    def divergence(self) -> Divergence:
        """The case's own class: that of its most harmful difference."""
        return self.signatures[0].divergence

    @property
    def source(self) -> Source | None:
        """The real provider or gateway whose shape the case has (``None``: synthetic)."""
        return source_of(self.labels, self.case)


def class_counts(members: Sequence[Finding]) -> tuple[tuple[Divergence, int], ...]:
    """How many of ``members`` are of each class (each case by its own), in ``HARM``
    order."""
    counts = Counter(f.divergence for f in members)
    return tuple((d, counts[d]) for d in HARM if counts[d])


def source_counts(members: Sequence[Finding]) -> tuple[tuple[Source, int], ...]:
    """The real sources of ``members``' shapes with their counts, most cases first
    (empty: synthetic only)."""
    counts = Counter(f.source for f in members if f.source is not None)
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].name)))


@dataclass(frozen=True)
class Cluster:
    """The cases that show one cause, with a minimal representative."""

    cause: Cause
    rule: str
    decision: str
    cases: tuple[str, ...]
    labels: tuple[str, ...]
    original_events: int
    events: tuple[Event, ...]
    classified: tuple[Classified, ...]
    """The representative's differences that show the cause."""
    reference: tuple[dict[str, Any], ...]
    answer: Answer
    trace: tuple[str, ...]
    divergence: Divergence
    """The representative's class (of the cluster's cases, one of the most harmful)."""
    message: str = ""
    """What the representative raised (masked), for a cluster of failures."""
    others: tuple[tuple[str, int], ...] = ()
    """The representative's other differences, by class, with counts."""
    variants: tuple[tuple[str, int], ...] = ()
    """How the cases' own signatures read (a failure's message, the code), with counts:
    a cluster of failures or of a class a client may choose gathers several."""
    allowed: bool = False
    hypothesis: Hypothesis | None = None
    """The client policy that is the cause, for a cluster keyed by one."""
    parts: tuple[Cluster, ...] = ()
    """For a policy's cluster: the causes it gathers, each a cluster of its own cases
    with its own representative (the reference's decisions the policy met)."""
    classes: tuple[tuple[Divergence, int], ...] = ()
    """The cases per class, each case by its own class (``class_counts``)."""
    sources: tuple[tuple[Source, int], ...] = ()
    """The real providers or gateways whose shapes the cases have (``source_counts``;
    empty: synthetic only)."""
    representative_source: Source | None = None
    """The representative's own source."""
    representative_cause: Cause | None = None
    """The representative's own cause (for a policy's cluster, one of its parts'): its
    shrunk stream still shows it, of the cluster's class."""

    @property
    def id(self) -> str:
        """The cluster's stable id."""
        return self.cause.key

    @property
    def severe(self) -> int:
        """How many of the cluster's cases are of a severe class (each by its own)."""
        return sum(n for d, n in self.classes if d in SEVERE)

    def to_json(self) -> dict[str, Any]:
        """The cluster as JSON."""
        return {
            "id": self.id,
            "class": self.divergence.value,
            "harm_rank": HARM.index(self.divergence),
            "allowed": self.allowed,
            "rule": self.rule,
            "rule_doc": RULE_DOCS.format(rule=self.rule),
            "decision": self.decision,
            "kind": self.cause.kind,
            "failure": self.message or None,
            "failure_key": self.cause.failure or None,
            "count": len(self.cases),
            "classes": classes_json(self.classes),
            "severe_streams": self.severe,
            "sources": sources_json(self.sources),
            "representative_source": (
                None if self.representative_source is None
                else self.representative_source.name
            ),
            "representative_cause": cause_json(self.representative_cause),
            "cases": list(self.cases),
            "labels": list(self.labels),
            "original_events": self.original_events,
            "events": list(self.events),
            "differences": [
                {
                    "class": c.divergence.value,
                    "aspect": c.difference.aspect.value,
                    "path": c.difference.path,
                    "reference": c.difference.oracle,
                    "candidate": c.difference.answer,
                    "why": c.difference.why,
                }
                for c in self.classified
            ],
            "reference": list(self.reference),
            "candidate": answer_json(self.answer),
            "trace": list(self.trace),
            "variants": [{"what": what, "cases": count} for what, count in self.variants],
            "other_differences": dict(self.others),
            "hypothesis": policy_json(self.hypothesis),
            "parts": [part.to_json() for part in self.parts],
        }


def cause_json(cause: Cause | None) -> dict[str, str] | None:
    """A cause as JSON: what differs, the rule, the decision, a failure's key."""
    if cause is None:
        return None
    return {"kind": cause.kind, "rule": cause.rule, "decision": cause.decision,
            "failure": cause.failure}


def classes_json(classes: Sequence[tuple[Divergence, int]]) -> dict[str, int]:
    """Cases per class as JSON, most harmful first."""
    return {d.value: n for d, n in classes}


def sources_json(sources: Sequence[tuple[Source, int]]) -> list[dict[str, Any]]:
    """A cluster's real sources as JSON (empty: synthetic only)."""
    return [
        {"source": s.name, "fixture": s.fixture or None, "evidence": s.evidence, "cases": n}
        for s, n in sources
    ]


def provenance_line(sources: Sequence[tuple[Source, int]]) -> str:
    """Where a cluster's shapes come from, in one line."""
    if not sources:
        return "synthetic only (no case has a real provider's shape)"
    return "seen from " + "; ".join(
        f"{s.name} x{n} ({s.fixture or s.evidence})" for s, n in sources
    )


def policy_json(hypothesis: Hypothesis | None) -> dict[str, str] | None:
    """A cluster's policy as JSON: its name, the rule it breaks (with its page) and what
    it says; ``None`` for a cluster that is not a policy's."""
    if hypothesis is None:
        return None
    says = HYPOTHESES[hypothesis]
    return {
        "name": hypothesis.value,
        "rule": says.rule,
        "rule_doc": RULE_DOCS.format(rule=says.rule),
        "says": says.says,
        "mistake": says.mistake,
    }


def answer_json(answer: Answer) -> Any:
    """A candidate's answer as JSON: its results, or ``{"error": message}``."""
    return {"error": answer.message} if isinstance(answer, Failure) else answer


@dataclass
class DiffReport:
    """The outcome of a run: how many cases, which diverged, clustered by cause."""

    cases: int
    findings: list[Finding]
    clusters: list[Cluster]
    seconds: float
    check_seconds: float = 0.0
    allowed: frozenset[Divergence] = field(default_factory=frozenset)

    @property
    def failing(self) -> list[Cluster]:
        """The clusters whose class the run does not allow."""
        return [c for c in self.clusters if not c.allowed]

    @property
    def ok(self) -> bool:
        """True when every divergence found is of an allowed class."""
        return not self.failing

    @property
    def streams_per_second(self) -> float:
        """Streams run through candidate and reference per second (before shrinking)."""
        return self.cases / self.check_seconds if self.check_seconds else 0.0

    @property
    def severe(self) -> int:
        """Diverging cases of a severe class, each case by its own class."""
        return sum(1 for finding in self.findings if finding.divergence in SEVERE)

    def by_class(self) -> Counter[Divergence]:
        """Diverging cases per class (a case counts once per class it shows)."""
        counts: Counter[Divergence] = Counter()
        for finding in self.findings:
            # Unique, in the signatures' order: a set's order would vary by process.
            counts.update(list(dict.fromkeys(s.divergence for s in finding.signatures)))
        return counts

    def summary(self) -> str:
        """One paragraph: counts, classes by harm, throughput."""
        counts = self.by_class()
        classes = ", ".join(
            f"{d.value} x{counts[d]}" + (" (allowed)" if d in self.allowed else "")
            for d in HARM
            if counts[d]
        )
        return (
            f"{counted(self.cases, 'stream')}, {len(self.findings)} diverge"
            + (f" ({classes})" if classes else "")
            + f"; {counted(len(self.clusters), 'cluster')}, {len(self.failing)} failing; "
            f"{self.streams_per_second:.0f} streams/s compared, {self.seconds:.1f} s in all"
        )

    def render(self, shown: int | None = None) -> str:
        """The human report: every cluster (or the first ``shown``), then the summary."""
        blocks = [render_cluster(n + 1, c) for n, c in enumerate(self.clusters[:shown])]
        if shown is not None and len(self.clusters) > shown:
            hidden = len(self.clusters) - shown
            blocks.append(f"... and {counted(hidden, 'more cluster', 'more clusters')}")
        blocks.append(self.summary())
        return "\n\n".join(blocks)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``diff --json``)."""
        return {
            "cases": self.cases,
            "diverging_cases": len(self.findings),
            "diverging_case_ids": [f.case for f in self.findings],
            "by_class": {d.value: n for d, n in sorted(
                self.by_class().items(), key=lambda kv: HARM.index(kv[0]))},
            "severe_streams": self.severe,
            "allowed": sorted(d.value for d in self.allowed),
            "seconds": round(self.seconds, 3),
            "streams_per_second": round(self.streams_per_second, 1),
            "clusters": [c.to_json() for c in self.clusters],
        }


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def item_line(entry: Any) -> str:
    """One output item in a line: type, ids, name and payload."""
    item = entry.get("item", entry) if isinstance(entry, Mapping) else {}
    if not isinstance(item, Mapping):
        return _short(item, 60)
    parts = [str(item.get("type"))]
    for key in ("id", "call_id", "name"):
        if item.get(key) is not None:
            value = str(item[key])
            parts.append(f"{key}={value if len(value) <= 16 else value[:12] + '…'}")
    for key in ("arguments", "input"):
        if key in item:
            parts.append(f"{key}={_short(item[key], 40)}")
    texts = [
        str(p.get("text"))
        for p in (item.get("content") or []) + (item.get("summary") or [])
        if isinstance(p, Mapping) and isinstance(p.get("text"), str)
    ]
    if texts:
        parts.append(_short(" | ".join(texts), 40))
    if isinstance(entry, Mapping) and "executable" in entry:
        parts.append("executable" if entry["executable"] else "not executable")
    return " ".join(parts)


def answer_lines(results: Any) -> list[str]:
    """A list of results as lines: per response its status, then one line per item."""
    if isinstance(results, Failure):
        return [f"raised: {results.message.splitlines()[0] if results.message else ''}"]
    lines: list[str] = []
    for number, result in enumerate(results):
        response = result.get("response") or {}
        lines.append(f"response {number}: {response.get('status', '(no status)')}")
        lines.extend(f"  {item_line(e)}" for e in result.get("items") or [])
    return lines or ["(no response)"]


def side_by_side(left: list[str], right: list[str], width: int = 58) -> list[str]:
    """Two columns of lines, each cut to ``width``."""
    def cut(text: str) -> str:
        return text if len(text) <= width else text[: width - 3] + "..."

    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [f"{cut(a):<{width}} | {cut(b)}" for a, b in zip(left, right, strict=True)]


_ID_ASPECTS = frozenset({Aspect.ID, Aspect.CALL_ID, Aspect.RESPONSE_ID})
"""The aspects whose values are ids."""


def render_cluster(number: int, cluster: Cluster) -> str:
    """One cluster for people: class, rule, both answers, differences, trace, stream."""
    more = len(cluster.cases) - 1
    allowed = " (allowed)" if cluster.allowed else ""
    decided = (f"the client {HYPOTHESES[cluster.hypothesis].mistake}, {cluster.rule}"
               if cluster.hypothesis is not None
               else f"{cluster.rule} ({cluster.decision or 'no code'})")
    if cluster.divergence is Divergence.CANDIDATE_RAISED_ON_INVALID:
        decided = f"the client {RAISED_ON_INVALID_SAYS}, {decided}"
    lines = [
        f"cluster {number} [{cluster.id}]: {cluster.divergence.value}{allowed} -- "
        f"{decided}, {len(cluster.cases)} case(s)",
        "  cases by class: " + ", ".join(f"{d.value} x{n}" for d, n in cluster.classes),
        f"  shape: {provenance_line(cluster.sources)}",
        f"  rule {cluster.rule}: {RULES.get(cluster.rule, '')} "
        f"({RULE_DOCS.format(rule=cluster.rule)})",
        f"  representative: {cluster.cases[0]} [{', '.join(cluster.labels)}]"
        + (f"; also {', '.join(cluster.cases[1:6])}" if more else "")
        + (" ..." if more > 5 else ""),
    ]
    if cluster.message:
        lines.append(f"  candidate raised: {cluster.message}")
    if cluster.hypothesis is not None:
        says = HYPOTHESES[cluster.hypothesis]
        lines.append(
            f"  cause: the client's policy {cluster.hypothesis.value} (breaks {says.rule}, "
            f"{RULE_DOCS.format(rule=says.rule)}); on every case the client answers as "
            f"this policy does where the cause differs: {says.says}"
        )
    if len(cluster.variants) > 1 or cluster.hypothesis is not None:
        lines.append("  the cases, by what decides them:")
        lines.extend(f"    {count} x {what}" for what, count in cluster.variants)
    lines.append(
        f"  minimal stream: {len(cluster.events)} of {cluster.original_events} events"
    )
    lines.append("  answers:")
    lines.extend(
        f"    {row}"
        for row in side_by_side(
            ["reference", *answer_lines(cluster.reference)],
            ["candidate", *answer_lines(cluster.answer)],
        )
    )
    for c in cluster.classified:
        d = c.difference
        # Ids are shown whole where they differ: two long ids often share a prefix.
        limit = 1 << 16 if d.aspect in _ID_ASPECTS else 160
        lines.append(
            f"  [{c.divergence.value}] {d.path}: reference {_short(d.oracle, limit)}, "
            f"candidate {_short(d.answer, limit)}"
        )
        lines.append(f"      why: {d.why}")
    if cluster.others:
        lines.append(
            "  the representative also differs by: "
            + ", ".join(f"{what} x{count}" for what, count in cluster.others)
            + " (not this cluster's cause)"
        )
    lines.append("  reference trace (explain; * = events involved):")
    lines.extend(f"    {line}" for line in cluster.trace)
    lines.append("  minimal stream (JSON Lines):")
    lines.extend(
        f"    {json.dumps(e, ensure_ascii=False, separators=(',', ':'))}" for e in cluster.events
    )
    return "\n".join(lines)


def representative_page(cluster: Cluster) -> str | None:
    """The representative's timeline page, as HTML; ``None`` where this build has no
    ``responses_oracle.timeline`` (the one place a cluster links to its page)."""
    try:
        timeline = importlib.import_module("responses_oracle.timeline")
    except ImportError:
        return None
    page: str = timeline.render_html(
        cluster.events,
        title=f"cluster {cluster.id}: {cluster.divergence.value} ({cluster.rule})",
        answer=cluster.answer,
    )
    return page


def cluster_order(clusters: Sequence[Cluster]) -> list[Cluster]:
    """Clusters with a real provider's shape first, then most harmful class first, then
    the larger clusters."""
    return sorted(
        clusters, key=lambda c: (not c.sources, HARM.index(c.divergence), -len(c.cases))
    )
