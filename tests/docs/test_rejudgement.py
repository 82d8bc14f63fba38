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
