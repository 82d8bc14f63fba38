"""The summary: groups by provider x code x class, --since, HTML, DuckDB on the dataset."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest
from cli.cli_helpers import EXAMPLES, run
from responses_oracle.audit.persisted import PersistedError, pair_output
from responses_oracle.audit.store import OutputDir
from responses_oracle.audit.summary import summarize

from .audit_helpers import documented_queries, traffic


def _week(root: Path, streams: dict[str, int]) -> Path:
    """A folder ``gw/`` with ``count`` copies of each named example."""
    folder = root / "gw"
    folder.mkdir(parents=True)
    for name, count in streams.items():
        for n in range(count):
            shutil.copy(EXAMPLES / name, folder / f"{n}-{name}")
    return root


def _changes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, before: dict[str, int],
    now: dict[str, int],
) -> tuple[str, list[str]]:
    """Audit the week ``before``, then the week ``now`` with ``--since`` the first: the
    summary's changes section, and the rows of its table."""
    options = ("--provider-from-dir", "-q")
    first = _week(tmp_path / "w47", before)
    assert run(capsys, "audit", first, "--out", tmp_path / "o47", *options)[0] == 0
    status, _, _ = run(
        capsys, "audit", _week(tmp_path / "w48", now), "--out", tmp_path / "o48",
        "--since", tmp_path / "o47", *options,
    )
    assert status == 0
    summary = (tmp_path / "o48" / "summary.md").read_text(encoding="utf-8")
    changes = summary.split("## Changes since", 1)[1]
    return changes, [line for line in changes.splitlines() if line.startswith("| ")][1:]


def test_since_lists_new_vanished_and_moved_groups(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    changes, table = _changes(
        capsys, tmp_path, {"parallel-calls.sse": 3, "copilot-rotating-ids.jsonl": 1},
        {"parallel-calls.sse": 1, "blank-terminal-args.jsonl": 2},
    )
    assert table[0] == (
        "| new | gw | empty_payload_ignored | (not compared) | 0 | 2 | 0.0% | 66.7% |"
    )
    assert table[1].startswith("| gone | gw | divergent_payload | (not compared) | 1 | 0 | 25.0% |")
    assert "| changed | gw | (none) | (not compared) | 3 | 1 | 75.0% | 33.3% |" in table
    assert "Before: 4 responses from 4 inputs; now: 3 from 3." in changes
    missing = run(capsys, "audit", tmp_path / "w48", "--out", tmp_path / "o", "--since",
                  tmp_path / "nowhere")
    assert missing[0] == 2 and "no audit there" in missing[2]


def test_since_leaves_out_a_group_whose_count_is_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # parallel-calls' group keeps its one response while its share falls from 1/2 to 1/4.
    changes, table = _changes(
        capsys, tmp_path, {"parallel-calls.sse": 1, "blank-terminal-args.jsonl": 1},
        {"parallel-calls.sse": 1, "blank-terminal-args.jsonl": 3},
    )
    assert table == [
        "| changed | gw | empty_payload_ignored | (not compared) | 1 | 3 | 50.0% | 75.0% |"
    ]
    assert "1 groups kept their count, or moved less than 1.0%, and are not listed." in changes


_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
"""A Markdown link: its text is what the HTML cell shows."""


class _Cells(HTMLParser):
    """The text of every table cell of a page, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self._cell = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = False

    def handle_data(self, data: str) -> None:
        if self._cell:
            self.rows[-1][-1] += data


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("summary")
    from responses_oracle.cli import main

    out = base / "audit-out"
    main(["audit", str(traffic(base / "traffic")), "--out", str(out), "--provider-from-dir", "-q"])
    return out


def test_html_and_markdown_say_the_same(audited: Path) -> None:
    markdown = (audited / "summary.md").read_text(encoding="utf-8")
    page = (audited / "summary.html").read_text(encoding="utf-8")
    parser = _Cells()
    parser.feed(page)
    md_rows = [
        [
            _LINK.sub(r"\1", cell).replace("`", "").replace("\\|", "|")
            for cell in line[2:-2].split(" | ")
        ]
        for line in markdown.splitlines()
        if line.startswith("| ")
    ]
    assert md_rows == parser.rows
    assert len(md_rows) > 10
    assert "<script" not in page and "http" not in page.split("<body>")[1]
    examples = re.findall(r"<code>([^<]+)</code>", page)
    assert any(example.endswith("copilot-rotating-ids.jsonl") for example in examples)


def test_groups_count_responses_and_give_examples_in_name_order(audited: Path) -> None:
    summary = summarize(OutputDir(audited).dataset(), 0)
    by_key = {(g.provider, g.code, g.divergence): g for g in summary.groups}
    group = by_key[("openai", "divergent_payload", "(not compared)")]
    assert group.severity == "warning" and group.rule == "R7"
    assert group.examples == tuple(sorted(group.examples))
    assert all(len(g.examples) == min(3, g.responses) for g in summary.groups)
    assert sum(line.responses for line in summary.providers) == summary.responses


def test_the_documented_duckdb_query_matches_the_summary(audited: Path) -> None:
    codes_query, harmful_query = documented_queries(audited)
    found = duckdb.sql(codes_query).fetchall()
    summary = summarize(OutputDir(audited).dataset(), 0)
    expected = sorted(
        ((g.provider, g.code, g.responses) for g in summary.groups if g.code != "(none)"),
        key=lambda row: (row[0], -row[2], row[1]),
    )
    assert found == expected
    assert ("openai", "divergent_payload", 1) in found
    # No persisted output here: nothing was run wrong (test_audit_persisted has some).
    assert duckdb.sql(harmful_query).fetchall() == []


def test_persisted_output_shapes() -> None:
    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    assert pair_output([call], 1) == [[call]]
    assert pair_output('[[], [{"type": "message"}]]', 2) == [[], [{"type": "message"}]]
    with pytest.raises(PersistedError, match="3 lists of items for 2 responses"):
        pair_output([[call], [call], [call]], 2)
    with pytest.raises(PersistedError, match="array of items"):
        pair_output({"items": []}, 1)


def test_examples_link_to_their_streams_timeline(audited: Path) -> None:
    page = (audited / "summary.html").read_text(encoding="utf-8")
    links = dict(re.findall(r'<a href="(streams/[0-9a-f]{16}\.html)"><code>([^<]+)</code>', page))
    assert links, "no example links to a page"
    for href, stream_id in links.items():
        timeline = (audited / href).read_text(encoding="utf-8")
        assert f"<title>{stream_id}" in timeline and "<svg" in timeline
    copilot = next(h for h, s in links.items() if s.endswith("copilot-rotating-ids.jsonl"))
    assert "response_id_changed" in (audited / copilot).read_text(encoding="utf-8")
    markdown = (audited / "summary.md").read_text(encoding="utf-8")
    assert f"(streams/{Path(copilot).name})" in markdown
    pages = sorted((audited / "streams").glob("*.html"))
    assert len(pages) == len(set(links)) <= 100


def _rows_by_anchor(page: str) -> dict[str, str]:
    """Each anchored row of the findings table: its id and its HTML."""
    return dict(re.findall(r'<tr id="(finding-\d+)">(.*?)</tr>', page))


def test_the_summary_charts_findings_by_code_each_bar_linked_to_its_first_row(
    audited: Path,
) -> None:
    from responses_oracle.audit.summary import NO_CODE
    from responses_oracle.model.vocabulary import SEVERITY, Code
    from responses_oracle.timeline.page import SEVERITY_COLOURS

    summary = summarize(OutputDir(audited).dataset(), 0)
    totals: dict[str, int] = {}
    for group in summary.groups:
        if group.code != NO_CODE:
            totals[group.code] = totals.get(group.code, 0) + group.responses
    page = (audited / "summary.html").read_text(encoding="utf-8")
    [chart] = re.findall(r'<svg class="chart".*?</svg>', page)
    bars = re.findall(
        r'<a href="#(finding-\d+)"><title>([a-z_]+): ([\d,]+) responses \((\w+)\)</title>'
        r'.*?<rect [^>]*width="([\d.]+)"[^>]*fill="(#[0-9a-f]{6})"/>', chart)
    assert {code: int(n.replace(",", "")) for _, code, n, _, _, _ in bars} == totals
    counts = [int(n.replace(",", "")) for _, _, n, _, _, _ in bars]
    assert counts == sorted(counts, reverse=True) and len(totals) >= 3
    widths = [float(w) for *_, w, _ in bars]
    assert widths == sorted(widths, reverse=True) and widths[0] == 420.0
    rows = _rows_by_anchor(page)
    for anchor, code, _, severity, _, colour in bars:
        assert severity == SEVERITY[Code(code)].value
        assert colour == SEVERITY_COLOURS[SEVERITY[Code(code)]]
        # The bar's link goes to the first row of the findings with its code.
        first = next(n for n, g in enumerate(summary.groups) if g.code == code)
        assert anchor == f"finding-{first + 1}" and f"<td>{code}</td>" in rows[anchor]
    markdown = (audited / "summary.md").read_text(encoding="utf-8")
    text = markdown.split("## Findings by code", 1)[1].split("```text\n", 1)[1].split("```")[0]
    assert [line.split()[0] for line in text.splitlines()] == [code for _, code, *_ in bars]
    assert [int(line.split()[-2].replace(",", "")) for line in text.splitlines()] == counts


def test_a_stream_page_links_back_to_the_summary_and_the_rows_it_exemplifies(
    audited: Path,
) -> None:
    page = (audited / "summary.html").read_text(encoding="utf-8")
    rows = _rows_by_anchor(page)
    pages = sorted((audited / "streams").glob("*.html"))
    assert pages
    for stream in pages:
        timeline = stream.read_text(encoding="utf-8")
        assert '<a href="../summary.html">the audit summary</a>' in timeline
        back = re.findall(r'<a href="\.\./summary\.html#(finding-\d+)">', timeline)
        assert back, stream.name
        # Both ways: each row the page links back to links to the page.
        for anchor in back:
            assert f'href="streams/{stream.name}"' in rows[anchor], (stream.name, anchor)
    # And every example link of a row is answered by a link back from its page.
    for anchor, row in rows.items():
        for href in re.findall(r'href="(streams/[0-9a-f]{16}\.html)"', row):
            assert f'href="../summary.html#{anchor}"' in (audited / href).read_text(), href
