"""``responses-oracle explain FILE --html OUT.html``: the page written, the exit status kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli.cli_helpers import EXAMPLES, jsonl, run
from responses_oracle.wire import read_wire_events

from .streams import CAPTURE
from .test_timeline import Page


def test_html_writes_the_timeline_of_the_input_and_exits_as_reduce_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = EXAMPLES / "parallel-calls.sse"
    out = tmp_path / "page.html"
    status, stdout, stderr = run(capsys, "explain", source, "--html", out)
    assert status == 0 and stdout == ""
    assert stderr == f"wrote {out}: 20 events, 1 response\n"
    page = Page(out.read_text(encoding="utf-8"))
    assert "".join(page.text).count(str(source)) == 2  # the title and the heading
    assert len(page.having("div", "lane")) == 4  # reasoning, two calls, the response
    marks = page.data()["marks"]
    assert [json.loads(m["j"]) for m in marks] == [e.payload for e in read_wire_events(source)]


def test_html_exits_1_on_an_error_and_links_rules_when_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "capture.jsonl"
    source.write_text(jsonl(CAPTURE), encoding="utf-8")
    out = tmp_path / "page.html"
    url = "https://docs.example/rules/{rule}/"
    status, _, stderr = run(capsys, "explain", source, "--html", out, "--rules-url", url, "-q")
    assert status == 1 and stderr == ""
    links = {a["href"] for a in Page(out.read_text(encoding="utf-8")).having("a", "rule")}
    assert "https://docs.example/rules/R5/" in links


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--rules-url", "javascript:alert(1)//{rule}"), "invalid --rules-url"),
        (("--rules-url", "https://docs.example/"), "must contain {rule}"),
    ],
)
def test_html_refuses_a_bad_link_template_before_reading(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    out = tmp_path / "page.html"
    status, _, stderr = run(capsys, "explain", tmp_path / "missing.sse", "--html", out, *extra)
    assert status == 2 and message in stderr and not out.exists()


def test_html_to_an_unwritable_place_is_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "no" / "such" / "folder" / "page.html"
    status, _, stderr = run(capsys, "explain", EXAMPLES / "parallel-calls.sse", "--html", out)
    assert status == 2 and f"cannot write {out}" in stderr


def test_the_help_shows_the_html_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, help_text, _ = run(capsys, "explain", "--help")
    assert status == 0
    assert "--html OUT.html" in help_text
    assert "explain examples/parallel-calls.sse --html parallel-calls.html" in help_text
