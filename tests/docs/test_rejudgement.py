"""The re-judgement page (#42's first Done-when) is what its record renders, and its
verdict lines count what its cells say."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> ModuleType:
    """``tools/rejudge/<name>.py``, loaded as a module (the tools are scripts)."""
    spec = importlib.util.spec_from_file_location(
        f"rejudge_{name}", ROOT / "tools" / "rejudge" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record() -> dict[str, Any]:
    """The re-judgement record as committed."""
    record: dict[str, Any] = json.loads(
        (ROOT / "docs" / "rejudgement.json").read_text(encoding="utf-8"))
    return record


def _check_counts(section: dict[str, Any]) -> None:
    """A section's verdict line counts its cells; every cell that does not hold names
    its fix."""
    cells = section["cells"]
    held = sum(c["verdict"] == "holds" for c in cells)
    assert section["verdict"] == f"{held} of {len(cells)} hold"
    assert {c["verdict"] for c in cells} <= {"holds", "does not hold"}
    assert all(c["fix"] for c in cells if c["verdict"] != "holds")


def test_the_page_is_what_its_record_renders() -> None:
    render = _tool("render")
    record = json.loads(render.RECORD.read_text(encoding="utf-8"))
    assert render.PAGE.read_text(encoding="utf-8") == render.render(record)


def test_the_verdicts_count_the_cells() -> None:
    record = _record()
    _check_counts(record)
    # Every drawn cell is of the pool.
    assert {f"{c['client']}/{c['scenario']}" for c in record["cells"]} <= set(
        record["pool_cells"])
    after = record["after_fixes"]["cells"]
    assert record["after_fixes"]["verdict"] == (
        f"{sum(c['verdict'] == 'holds' for c in after)} of {len(after)} hold")


def test_the_second_section_counts_its_cells() -> None:
    second = _record()["after_rerecording"]
    _check_counts(second)
    cells = second["cells"]
    assert len({(c["client"], c["scenario"]) for c in cells}) == len(cells)


def test_a_drawn_cell_reads_its_latest_judgement() -> None:
    draw = _tool("draw")
    record = {
        "cells": [{"n": 1, "client": "a", "scenario": "s", "verdict": "does not hold"},
                  {"n": 2, "client": "b", "scenario": "s", "verdict": "holds"}],
        "after_fixes": {"cells": []},
        "after_rerecording": {"cells": [{"client": "a", "scenario": "s",
                                         "verdict": "holds"}]},
    }
    known = draw.judgements(record)
    assert known == {("a", "s"): "holds (judged after the re-recording)",
                     ("b", "s"): "holds (first draw, #2)"}
    assert ("c", "s") not in known


def test_the_latest_draw_counts_its_cells_as_the_record_judges_them() -> None:
    draw = _tool("draw")
    record = _record()
    latest = record["latest_draw"]
    known = draw.judgements(record)
    for cell in latest["drawn"]:
        said = known.get((cell["client"], cell["scenario"]))
        # A cell nobody has judged says so, and why.
        assert cell["judged"] == said if said else cell["judged"].startswith("not judged")
    held = sum(c["judged"].startswith("holds") for c in latest["drawn"])
    assert latest["verdict"].startswith(f"{held} of {len(latest['drawn'])} hold")
    assert latest["command"] == f"python tools/rejudge/draw.py --seed {latest['seed']}"
