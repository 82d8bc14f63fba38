"""The re-judgement page (#42's first Done-when) is what its record renders, and its
verdict lines count what its cells say."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _render() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rejudge_render", ROOT / "tools" / "rejudge" / "render.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_what_its_record_renders() -> None:
    render = _render()
    record = json.loads(render.RECORD.read_text(encoding="utf-8"))
    assert render.PAGE.read_text(encoding="utf-8") == render.render(record)


def test_the_verdicts_count_the_cells() -> None:
    record = json.loads((ROOT / "docs" / "rejudgement.json").read_text(encoding="utf-8"))
    cells = record["cells"]
    held = sum(c["verdict"] == "holds" for c in cells)
    assert record["verdict"] == f"{held} of {len(cells)} hold"
    assert {c["verdict"] for c in cells} <= {"holds", "does not hold"}
    # Every cell that does not hold names its fix; every drawn cell is of the pool.
    assert all(c["fix"] for c in cells if c["verdict"] != "holds")
    assert {f"{c['client']}/{c['scenario']}" for c in cells} <= set(record["pool_cells"])
    after = record["after_fixes"]["cells"]
    assert record["after_fixes"]["verdict"] == (
        f"{sum(c['verdict'] == 'holds' for c in after)} of {len(after)} hold")


def test_the_second_section_counts_its_cells() -> None:
    record = json.loads((ROOT / "docs" / "rejudgement.json").read_text(encoding="utf-8"))
    second = record["after_rerecording"]
    cells = second["cells"]
    held = sum(c["verdict"] == "holds" for c in cells)
    assert second["verdict"] == f"{held} of {len(cells)} hold"
    assert {c["verdict"] for c in cells} <= {"holds", "does not hold"}
    assert all(c["fix"] for c in cells if c["verdict"] != "holds")
    assert len({(c["client"], c["scenario"]) for c in cells}) == len(cells)


def test_a_drawn_cell_reads_its_latest_judgement() -> None:
    spec = importlib.util.spec_from_file_location(
        "rejudge_draw", ROOT / "tools" / "rejudge" / "draw.py")
    assert spec is not None and spec.loader is not None
    draw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw)
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
    spec = importlib.util.spec_from_file_location(
        "rejudge_draw", ROOT / "tools" / "rejudge" / "draw.py")
    assert spec is not None and spec.loader is not None
    draw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(draw)
    record = json.loads((ROOT / "docs" / "rejudgement.json").read_text(encoding="utf-8"))
    latest = record["latest_draw"]
    known = draw.judgements(record)
    for cell in latest["drawn"]:
        said = known.get((cell["client"], cell["scenario"]))
        # A cell nobody has judged says so, and why.
        assert cell["judged"] == said if said else cell["judged"].startswith("not judged")
    held = sum(c["judged"].startswith("holds") for c in latest["drawn"])
    assert latest["verdict"].startswith(f"{held} of {len(latest['drawn'])} hold")
    assert latest["command"] == f"python tools/rejudge/draw.py --seed {latest['seed']}"
