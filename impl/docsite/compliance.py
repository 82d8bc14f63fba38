"""The compliance summary at the top of the Real clients page, as Bowtie reports validators.

The JSON Schema community's Bowtie runs every validator over one shared test suite and
publishes, per validator, the share of cases it gets right.  The conformance vectors
are that suite here: ``measure`` runs a client's built-in candidate over the vectors
``vectors export DIR`` writes by default (``VECTORS``: the bundled corpus -- the rule
tests' streams and the proof counterexamples -- and 100 generated streams of seed 0),
each a complete provider stream with only its declared deviations
(``differential.completion``: a strict client meets the rule, never a missing
``created_at``), with the ``vectors check`` machinery (``check``, ``by_rule``), and
records, for all vectors, per source and per rule a vector exercises (a vector counts
under every rule it names), how many the client answers as the oracle does and on how
many it raises.  The failures are then grouped by root cause as ``diff`` clusters its
cases (``harness.find``, ``harness.report``, no shrinking): one cause -- one check of
the client, one rule and decision -- is one line however many vectors it fails, with
the declared deviations its vectors carry.  ``python -m
responses_oracle.docsite.clients --record`` records it with the runs,
``--compliance`` alone; ``summary_lines`` renders the record's figures, never
computes them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from responses_oracle.differential.candidate import (
    Candidate,
    Failure,
    ProcessCandidate,
    candidate_command,
)
from responses_oracle.differential.conformance_vectors import (
    Vector,
    VectorOutcome,
    VectorSource,
    by_rule,
    check,
    corpus_vectors,
    generated_vectors,
)
from responses_oracle.differential.harness import find, report
from responses_oracle.streamgen.cases import Case
from responses_oracle.streamgen.streams import GeneratedStream

from .markdown import cell

GENERATED = (0, 100)
"""The seed and count of the generated vectors: ``vectors export``'s defaults."""

VECTORS = "conformance vectors that `vectors export DIR` writes"
"""Which vectors the summary counts, in words."""


def tally(outcomes: Sequence[VectorOutcome]) -> dict[str, int]:
    """How many vectors, how many the client answers as the oracle does, and on how many
    it raises."""
    return {"vectors": len(outcomes), "passed": sum(1 for o in outcomes if o.passed),
            "raised": sum(1 for o in outcomes if isinstance(o.answer, Failure))}


def measure(candidate: str) -> dict[str, Any]:
    """Run the built-in ``candidate`` over the bundled vectors: the counts of the vectors
    that count (``Vector.counted``), overall, per source and per rule exercised; the
    robustness rows' apart; the failures by root cause."""
    vectors = corpus_vectors() + generated_vectors(*GENERATED)
    process = ProcessCandidate(candidate_command(candidate), timeout=60)
    try:
        outcomes = check(vectors, process)
        found = causes([o.vector for o in outcomes if not o.passed], process)
    finally:
        process.close()
    scored = [o for o in outcomes if o.vector.counted]
    return {
        **tally(scored),
        "by_source": {source: tally([o for o in scored if _source(o.vector) == source])
                      for source in ("bundled", "generated")},
        "by_rule": {t.rule: t.to_json() for t in by_rule(scored)},
        "robustness": tally([o for o in outcomes if not o.vector.counted]),
        "causes": found,
    }


EXAMPLES = 3
"""How many of a cause's vectors the record names."""


def causes(vectors: Sequence[Vector], candidate: Candidate) -> list[dict[str, Any]]:
    """The candidate's failures on ``vectors`` (those ``check`` failed: ``diff`` also
    infers what a client would run, which ``check`` does not) by root cause, as
    ``diff`` clusters its cases: per cause its class, rule, decision or check, how
    many vectors that count and how many robustness rows it fails, the first few by
    name (those that count first), and the declared deviations its vectors carry (by
    name: ``field-absent`` for any field left out), with how many carry each."""
    cases = [Case(v.name, GeneratedStream(v.events, (f"vector:{v.name}",))) for v in vectors]
    started = time.perf_counter()
    findings = find(cases, candidate)
    run = report(len(cases), findings, candidate, started=started,
                 checked=time.perf_counter(), shrink_clusters=False)
    named = {v.name: v for v in vectors}
    found = []
    for cluster in run.clusters:
        mine = sorted(cluster.cases, key=lambda case: not named[case].counted)
        found.append({
            "id": cluster.id,
            "class": cluster.divergence.value,
            "rule": cluster.rule,
            "decision": cluster.decision,
            "failure": cluster.message or None,
            "vectors": sum(1 for case in mine if named[case].counted),
            "robustness": sum(1 for case in mine if not named[case].counted),
            "examples": mine[:EXAMPLES],
            "deviations": dict(sorted(Counter(
                name for case in mine
                for name in {d["name"] for d in named[case].deviations or ()}).items())),
        })
    return found


def _source(vector: Vector) -> str:
    return "generated" if vector.source is VectorSource.GENERATED else "bundled"


def _share(counts: Mapping[str, int]) -> str:
    """Passed of all, the percentage, and how many raised."""
    total, passed, raised = counts["vectors"], counts["passed"], counts["raised"]
    if not total:
        return "—"
    return f"{passed}/{total} ({100 * passed // total}%)" + (f" [{raised}]" if raised else "")


def summary_lines(clients: Sequence[Mapping[str, Any]]) -> list[str]:
    """The summary table: per client the vectors answered right, in all and per rule."""
    measured = [c for c in clients if c.get("compliance")]
    if not measured:
        return []
    rules = sorted({rule for c in measured for rule in c["compliance"]["by_rule"]},
                   key=lambda rule: int(rule[1:]))
    first = measured[0]["compliance"]
    total, sources, robust = first["vectors"], first["by_source"], first["robustness"]
    lines = [
        "## Compliance",
        "",
        f"Per client, how many of the {total} {VECTORS} that count it answers as the "
        "oracle does — in all, per source (the "
        f"{sources['bundled']['vectors']} bundled ones: the rule tests' streams and the "
        "proof counterexamples; the "
        f"{sources['generated']['vectors']} generated ones) and per rule a vector "
        "exercises (a vector counts under every rule it names) — as the JSON Schema "
        "community's Bowtie reports its validators. A vector counts when it is a complete "
        "provider stream (`response.created` with `created_at` and `model`, "
        "`in_progress`, `output_item.added`, argument deltas and `.done`, done items with "
        "`status`, a terminal with its output and `usage`) but for the deviations it "
        "declares — the gaps that are its point, and the values a provider following the "
        "API would not send, in the canonicalizer's words (`repaired`) — each one a "
        "provider is shown to send, and the oracle answers it with no error "
        "([conformance vectors](conformance-vectors.md): each file's `counted`). The other "
        f"{robust['vectors']} are robustness rows: a field every provider sends left out, "
        "a deviation no provider is shown to send, or a stream the oracle answers with an "
        "error, which a client may rightly reject; what a client answers there is shown "
        "in its own column, never counted in its score. Measured by "
        "`responses-oracle vectors check` with the client's built-in candidate, and "
        "recorded with the runs below. A vector the client raises on is answered wrong; "
        "how many it raised on is in brackets.",
        "",
        "| client | all that count | bundled | generated | "
        + " | ".join(f"[{r}](rules/{r}.md)" for r in rules) + " | robustness rows |",
        "|---|---:|---:|---:|" + "---:|" * len(rules) + "---:|",
    ]
    for client in measured:
        compliance = client["compliance"]
        cells = []
        for rule in rules:
            tally = compliance["by_rule"].get(rule)
            cells.append(f"{tally['passed']}/{tally['vectors']}" if tally else "—")
        lines.append(
            f"| {client['client']} ({client['package']} {client['version']}) | "
            + " | ".join(_share(part) for part in (compliance, *(
                compliance["by_source"][s] for s in ("bundled", "generated"))))
            + " | " + " | ".join(cells) + f" | {_share(compliance['robustness'])} |"
        )
    return [*lines, "", *_cause_lines(measured)]


def _cause_lines(measured: Sequence[Mapping[str, Any]]) -> list[str]:
    """Per client, its failed vectors by root cause, the most vectors that count first."""
    lines = [
        "### Failed vectors by root cause",
        "",
        "One line per cause, as `diff` clusters its cases (the client's check — its "
        "masked error message, placed at the event it gives up at — or what differs, the "
        "rule and the oracle's decision), however many vectors it fails: the vectors "
        "that count, then the robustness rows (never counted); the declared "
        "deviations its vectors carry say whether the cause meets a deviation or a "
        "complete stream (none: every field and event a provider sends).",
        "",
        *(_headline(client) for client in measured),
        "",
        "| client | vectors that count | robustness rows | class | rule | cause | "
        "deviations carried | e.g. |",
        "|---|---:|---:|---|---|---|---|---|",
    ]
    for client in measured:
        for cause in _ranked(client):
            what = cause["failure"] or cause["decision"] or "no code"
            carried = ", ".join(f"`{name}` x{n}" for name, n in cause["deviations"].items())
            lines.append(
                f"| {client['client']} | {cause['vectors']} | {cause['robustness']} | "
                f"`{cause['class']}` | [{cause['rule']}](rules/{cause['rule']}.md) | "
                f"{cell(what)} | {carried or 'none'} | {cell(cause['examples'][0])} |"
            )
    return [*lines, ""]


def _ranked(client: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A client's causes, the most vectors that count first, then robustness rows."""
    return sorted(client["compliance"].get("causes", []),
                  key=lambda c: (-int(c["vectors"]), -int(c["robustness"])))


def _headline(client: Mapping[str, Any]) -> str:
    """One line per client: how many causes its failures that count come to, and the
    vectors of each, most first."""
    counted = [c for c in _ranked(client) if c["vectors"]]
    failed = sum(int(c["vectors"]) for c in counted)
    shares = ", ".join(str(c["vectors"]) for c in counted)
    return (f"- **{client['client']}**: {failed} failed vectors that count, "
            f"{len(counted)} root causes ({shares or 'none'}).")
