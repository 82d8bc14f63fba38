"""The committed pages in docs/model are exactly what the docs generator renders."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import Mapping
from enum import Enum
from pathlib import Path

import pytest
from responses_oracle.model import (
    admission,
    diagrams,
    lifecycle,
    payload,
    routing,
    slots,
)
from responses_oracle.model.diagrams import NOTE_EFFECTS, docs_dir, render_pages
from responses_oracle.model.machine import lifecycle_edges, slot_edges
from responses_oracle.model.tables import REFERENCE
from responses_oracle.model.vocabulary import CODES, Code, CodeSpec

Grid = Mapping[Enum, Mapping[Enum, tuple[Enum, Code | None]]]

PAGES = ("lifecycle.md", "slots.md", "routing.md", "admission.md", "payload.md", "codes.md")


def test_committed_pages_equal_the_generator_output() -> None:
    pages = render_pages()
    assert tuple(pages) == PAGES
    for name, text in pages.items():
        assert (docs_dir() / name).read_text(encoding="utf-8") == text, name


def test_diagrams_check_command_accepts_the_committed_pages() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "responses_oracle.model.diagrams", "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_diagrams_check_fails_on_a_stale_page_and_writing_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "docs" / "model"
    monkeypatch.setattr(diagrams, "docs_dir", lambda: target)
    assert diagrams.main(["--check"]) == 1
    assert diagrams.main([]) == 0
    assert sorted(path.name for path in target.iterdir()) == sorted(PAGES)
    assert diagrams.main(["--check"]) == 0
    (target / "routing.md").write_text("edited by hand\n", encoding="utf-8")
    assert diagrams.main(["--check"]) == 1


def test_every_page_says_it_is_generated_and_opens_with_its_module_docstring() -> None:
    modules = (lifecycle, slots, routing, admission, payload, CodeSpec)
    for (name, text), module in zip(render_pages().items(), modules, strict=True):
        assert text.startswith("<!-- GENERATED FILE — DO NOT EDIT."), name
        assert "`python -m responses_oracle.model.diagrams`" in text.split("-->")[0]
        summary = (module.__doc__ or "").strip().splitlines()[0].replace("``", "`")
        assert f"\n\n{summary}\n" in text, name
        # reST literals became Markdown code spans.
        assert "``" not in text.split("\n## ")[0], name


def _drawn(text: str) -> set[tuple[str, str, str]]:
    """(source, trigger, dest) of every edge in a page's Mermaid diagram."""
    diagram = text.split("```mermaid\n")[1].split("```")[0]
    return {
        (source, trigger, dest)
        for source, dest, labels in re.findall(r"^ *(\w+) --> (\w+): (.+)$", diagram, re.M)
        for trigger in labels.split(" | ")
    }


def test_lifecycle_diagram_draws_every_row_but_quiet_self_loops() -> None:
    text = render_pages()["lifecycle.md"]
    assert "stateDiagram-v2" in text
    assert "[*] --> ABSENT" in text
    edges = lifecycle_edges(REFERENCE.lifecycle)
    quiet = {
        (e.source.name, e.trigger.name, e.dest.name)
        for e in edges
        if e.source is e.dest and set(e.labels) <= NOTE_EFFECTS
    }
    every = {(e.source.name, e.trigger.name, e.dest.name) for e in edges}
    assert _drawn(text) == every - quiet
    # Only the self-loops of the open states that change payloads or learn an id remain.
    assert {edge for edge in _drawn(text) if edge[0] == edge[2]} == {
        ("ADDED", "PROGRESS", "ADDED"),
        ("STREAMING", "PROGRESS", "STREAMING"),
        ("PAYLOAD_DONE", "PROGRESS", "PAYLOAD_DONE"),
        ("ADDED", "PART_ADDED", "ADDED"),
        ("STREAMING", "PART_ADDED", "STREAMING"),
        ("STREAMING", "DELTA", "STREAMING"),
        ("PAYLOAD_DONE", "PART_ADDED", "PAYLOAD_DONE"),
        ("PAYLOAD_DONE", "DELTA", "PAYLOAD_DONE"),
        ("PAYLOAD_DONE", "PAYLOAD_DONE", "PAYLOAD_DONE"),
    }
    table_rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(table_rows) == len(edges) == 70
    assert "| `PAYLOAD_DONE` | `RESPONSE_COMPLETED` | `COMPLETED` | " \
        "`NOTE_MISSING_FROM_SNAPSHOT`, `EMIT_COMPLETION` |" in table_rows
    assert "| `ABSENT` | `RESPONSE_ABORTED` | `ABSENT` | — |" in table_rows


def test_slot_diagram_draws_every_row_including_tombstones() -> None:
    text = render_pages()["slots.md"]
    edges = slot_edges(REFERENCE.slots)
    assert _drawn(text) == {(e.source.name, e.trigger.name, e.dest.name) for e in edges}
    assert ("LIVE", "TOMBSTONE", "LIVE") in _drawn(text)
    assert "| `LIVE` | `BIND` | `SHARED` | `slot_reused` |" in text


def _grid(text: str) -> dict[tuple[str, str], str]:
    """The page's first rendered grid as (row header, column header) → cell text."""
    block = itertools.takewhile(
        lambda line: line.startswith("|"),
        itertools.dropwhile(lambda line: not line.startswith("|"), text.splitlines()),
    )
    lines = [line for line in block if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")][1:]
    grid: dict[tuple[str, str], str] = {}
    for line in lines[1:]:
        key, *cells = (cell.strip() for cell in line.strip("|").split("|"))
        grid.update({(key, column): cell for column, cell in zip(header, cells, strict=True)})
    return grid


@pytest.mark.parametrize(
    ("page", "table"), [("routing.md", REFERENCE.routing), ("payload.md", REFERENCE.payload)]
)
def test_grids_show_every_cell_of_their_table(page: str, table: Grid) -> None:
    grid = _grid(render_pages()[page])
    expected = {
        (f"`{key.name}`", f"`{column.name}`"): (
            f"`{action.name}`" if code is None else f"`{action.name}` (`{code.value}`)"
        )
        for key, row in table.items()
        for column, (action, code) in row.items()
    }
    assert grid == expected


def test_admission_page_lists_its_four_tables() -> None:
    text = render_pages()["admission.md"]
    rows = [line for line in text.splitlines() if line.startswith("| `")]

    def code(value: Code | None) -> str:
        return "—" if value is None else f"`{value.value}`"

    added = [
        f"| `{view.name}` | `{action.name}` | {code(diagnostic)} |"
        for view, (action, diagnostic, _) in REFERENCE.added_admission.items()
    ]
    namespaces = [
        f"| `{kind.name}` | `{space.name}` |" for kind, space in REFERENCE.namespaces.items()
    ]
    matching = [
        f"| `{t.name}` | `{c.name}` | `{i.name}` | "
        + " | ".join(f"`{fit.name}`" for fit in row.values())
        + " |"
        for t, by_call in REFERENCE.matching.items()
        for c, by_id in by_call.items()
        for i, row in by_id.items()
    ]
    done = [
        f"| `{view.name}` | `{action.name}` | {code(diagnostic)} | `{stage.name}` |"
        for view, (action, diagnostic, stage) in REFERENCE.done_admission.items()
    ]
    identity = [
        f"| `{field.name}` | `{stage.name}` | `{relation.name}` | `{action.name}` | "
        f"{code(diagnostic)} |"
        for field, stages in REFERENCE.identity.items()
        for stage, row in stages.items()
        for relation, (action, diagnostic) in row.items()
    ]
    assert rows == added + namespaces + matching + done + identity


def test_rendering_is_deterministic() -> None:
    assert render_pages() == render_pages()


def test_the_codes_page_has_one_row_per_code_from_the_code_table() -> None:
    text = render_pages()["codes.md"]
    for code, spec in CODES.items():
        row = f"| `{code.value}` | `{spec.severity.value}` | [{spec.rule}](../rules/{spec.rule}.md)"
        assert f"{row} | {spec.meaning} |" in text, code
