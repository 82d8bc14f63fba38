"""The compliance summary of the Real clients page (issue 22, item 8): per client, the
share of conformance vectors it answers as the oracle does, by rule, measured by running
it and recorded, never computed by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from responses_oracle.differential.conformance_vectors import corpus_vectors, generated_vectors
from responses_oracle.docsite.clients import CLIENTS, load, render
from responses_oracle.docsite.compliance import GENERATED, measure, summary_lines

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return load(DOCS)


@pytest.mark.parametrize("client", [c.candidate for c in CLIENTS])
def test_the_recorded_compliance_is_what_the_client_answers_now(
    client: str, record: dict[str, Any]
) -> None:
    [recorded] = [c for c in record["clients"] if c["client"] == client]
    assert recorded["compliance"] == measure(client)


def test_the_summary_opens_the_page_with_every_client_and_rule(
    record: dict[str, Any],
) -> None:
    page = render(record)
    assert page.index("## Compliance") < page.index("## Known classes")
    assert page.split("\n## ")[1].startswith("Compliance")  # the page's first section
    lines = summary_lines(record["clients"])
    table = lines[: lines.index("### Failed vectors by root cause")]
    rows = [line for line in table if line.startswith("| ")][1:]
    assert [row.split(" ")[1] for row in rows] == [c.candidate for c in CLIENTS]
    for client, row in zip(record["clients"], rows, strict=True):
        compliance = client["compliance"]
        # all, bundled, generated, one per rule, the robustness rows
        assert row.count(" | ") == 4 + len(compliance["by_rule"])
        assert f"{compliance['passed']}/{compliance['vectors']} (" in row
        for tally in compliance["by_rule"].values():
            assert f"| {tally['passed']}/{tally['vectors']} |" in row + " |"


def test_the_score_counts_only_the_vectors_that_count(record: dict[str, Any]) -> None:
    # Done-when of issue 42: no score falls on a vector that lacks a field or event
    # every provider sends, or that the oracle answers with an error; those are
    # robustness rows, tallied apart.
    vectors = corpus_vectors() + generated_vectors(*GENERATED)
    counted = sum(1 for v in vectors if v.counted)
    for client in record["clients"]:
        compliance = client["compliance"]
        assert compliance["vectors"] == counted
        assert compliance["robustness"]["vectors"] == len(vectors) - counted > 0


def test_a_tally_is_counted_under_every_rule_its_vector_names(
    record: dict[str, Any],
) -> None:
    for client in record["clients"]:
        compliance = client["compliance"]
        by_source = compliance["by_source"].values()
        assert sum(s["vectors"] for s in by_source) == compliance["vectors"]
        assert sum(s["passed"] for s in by_source) == compliance["passed"]
        # A vector names one rule or more: each rule's count is at most the whole.
        assert max(t["vectors"] for t in compliance["by_rule"].values()) <= compliance["vectors"]
        assert sum(t["vectors"] for t in compliance["by_rule"].values()) >= compliance["vectors"]


def test_the_failures_are_listed_once_per_root_cause(record: dict[str, Any]) -> None:
    # One line per cause however many vectors it fails: openai-python's empty terminal
    # output is one cause, not one row per vector that meets it.
    lines = summary_lines(record["clients"])
    causes = lines[lines.index("### Failed vectors by root cause"):]
    for client in record["clients"]:
        compliance = client["compliance"]
        found = compliance["causes"]
        assert len({c["id"] for c in found}) == len(found)
        failed = compliance["vectors"] - compliance["passed"]
        assert sum(c["vectors"] for c in found) == failed
        robust = compliance["robustness"]
        assert sum(c["robustness"] for c in found) == robust["vectors"] - robust["passed"]
        assert len(found) < failed
        mine = [line for line in causes if line.startswith(f"| {client['client']} |")]
        assert len(mine) == len(found)
