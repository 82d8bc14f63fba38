"""The compliance summary at the top of the Real clients page, as Bowtie reports validators.

The JSON Schema community's Bowtie runs every validator over one shared test suite and
publishes, per validator, the share of cases it gets right.  The conformance vectors
are that suite here: ``measure`` runs a client's built-in candidate over the vectors
``vectors export DIR`` writes by default (``VECTORS``: the bundled corpus -- the rule
tests' streams and the proof counterexamples, which carry only the fields their rule
needs -- and 100 generated streams of seed 0, which carry every field a provider
sends) with the ``vectors check`` machinery (``testing.vectors.check``, ``by_rule``),
and records, for all vectors, per source and per rule a vector exercises (a vector
counts under every rule it names), how many the client answers as the oracle does and
on how many it raises.  ``python -m responses_oracle.docsite.clients --record``
records it with the runs, ``--compliance`` alone; ``summary_lines`` renders the
record's figures, never computes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from responses_oracle.testing.candidate import Failure, ProcessCandidate, candidate_command
from responses_oracle.testing.conformance_vectors import (
    Vector,
    VectorSource,
    by_rule,
    check,
    corpus_vectors,
    generated_vectors,
)

GENERATED = (0, 100)
"""The seed and count of the generated vectors: ``vectors export``'s defaults."""

VECTORS = "conformance vectors that `vectors export DIR` writes"
"""Which vectors the summary counts, in words."""


def measure(candidate: str) -> dict[str, Any]:
    """Run the built-in ``candidate`` over the bundled vectors: the counts, overall and
    per rule exercised."""
    vectors = corpus_vectors() + generated_vectors(*GENERATED)
    process = ProcessCandidate(candidate_command(candidate), timeout=60)
    try:
        outcomes = check(vectors, process)
    finally:
        process.close()
    passed = sum(1 for outcome in outcomes if outcome.passed)
    raised = sum(1 for outcome in outcomes if isinstance(outcome.answer, Failure))
    return {
        "vectors": len(outcomes),
        "passed": passed,
        "raised": raised,
        "by_source": {
            source: {"vectors": len(mine), "passed": sum(1 for o in mine if o.passed),
                     "raised": sum(1 for o in mine if isinstance(o.answer, Failure))}
            for source in ("bundled", "generated")
            for mine in [[o for o in outcomes if _source(o.vector) == source]]
        },
        "by_rule": {tally.rule: tally.to_json() for tally in by_rule(outcomes)},
    }


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
    total = measured[0]["compliance"]["vectors"]
    sources = measured[0]["compliance"]["by_source"]
    lines = [
        "## Compliance",
        "",
        f"Per client, how many of the {total} {VECTORS} it answers as the oracle "
        "does — in all, per source (the "
        f"{sources['bundled']['vectors']} bundled ones: the rule tests' streams and the "
        "proof counterexamples, which carry only the fields their rule needs; the "
        f"{sources['generated']['vectors']} generated ones, which carry every field a "
        "provider sends) and per rule a vector exercises (a vector counts under every "
        "rule it names) — as the JSON Schema community's Bowtie reports its validators. "
        "Measured by `responses-oracle vectors check` with the client's built-in "
        "candidate, and recorded with the runs below. A vector the client raises on is "
        "answered wrong; how many it raised on is in brackets.",
        "",
        "| client | all | bundled | generated | "
        + " | ".join(f"[{r}](rules/{r}.md)" for r in rules) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(rules),
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
            + " | " + " | ".join(cells) + " |"
        )
    return [*lines, ""]
