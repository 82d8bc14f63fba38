"""The proxy between serve and a real client (``agents --via-proxy``), and how the Real
agents page records and shows such cells."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from responses_oracle.agents.profiles import BY_NAME, PROFILES
from responses_oracle.agents.runner import PROXY, PROXY_LOG, run_cell
from responses_oracle.agents.scenario_list import resolve
from responses_oracle.docsite import docs_dir, real_agents


def test_openai_agents_behind_the_proxy_is_judged_by_serve_as_a_cell_of_its_own(
    tmp_path: Path,
) -> None:
    scenario = resolve(["q07"])[0].argument()
    cell = run_cell(BY_NAME["openai-agents"], scenario, tmp_path / "q07", proxy=PROXY)
    assert cell.ran, cell.reason
    assert cell.client == "openai-agents via proxy"
    assert [(c.values["executed"], c.values["history_faithful"]) for c in cell.calls] == [
        (True, True)
    ]
    logged = [json.loads(line) for line in (tmp_path / "q07" / PROXY_LOG).read_text().splitlines()]
    assert logged and {line["mode"] for line in logged} == {"repair"}


def _record() -> dict[str, Any]:
    return real_agents.load(docs_dir())


def test_proxy_cells_are_kept_beside_the_direct_ones_and_shown_as_a_column(
    tmp_path: Path,
) -> None:
    record = _record()
    (tmp_path / real_agents.RECORD_NAME).write_text(json.dumps(record), encoding="utf-8")
    codex = next(c for c in record["clients"] if c["client"] == "codex")
    direct = copy.deepcopy(codex["cells"])
    cell = {**direct[0], "client": "codex via proxy"}
    real_agents._merge(tmp_path, {**real_agents.client_entry(BY_NAME["codex"]),
                             real_agents.PROXY_CELLS: [cell]}, real_agents.PROXY_CELLS)
    merged = next(c for c in real_agents.load(tmp_path)["clients"] if c["client"] == "codex")
    assert merged["cells"] == direct  # the direct recording is untouched
    assert [x["scenario"] for x in merged[real_agents.PROXY_CELLS]][:1] == [cell["scenario"]]
    page = real_agents.render(real_agents.load(tmp_path))
    # The matrix's column behind the proxy follows the client's direct one.
    merged_columns = real_agents.columns(real_agents.load(tmp_path)["clients"])
    assert [column.name for column, _, _ in merged_columns][:2] == ["codex", "codex via proxy"]
    assert '<span>codex</span></th><th scope="col" data-client="codex" data-proxy="1">' \
        "<span>codex via proxy</span>" in page
    assert "*CLIENT via proxy*" in page


def test_a_column_behind_the_proxy_is_counted_beside_the_direct_cells_of_its_scenarios(
) -> None:
    codex = next(c for c in _record()["clients"] if c["client"] == "codex")
    direct = copy.deepcopy(codex["cells"][:3])
    behind = [{**x, "client": "codex via proxy"} for x in direct[:2]]
    entry = {**codex, "cells": direct, real_agents.PROXY_CELLS: behind}
    page = real_agents.render({"clients": [entry], "scenarios": _record()["scenarios"]})
    [row] = [line for line in page.splitlines() if line.startswith("| codex via proxy | 2 |")]
    # The direct cells counted are those of the same two scenarios, not all three.
    same = real_agents._counts({"cells": direct[:2]})
    on = real_agents.recorded_on(entry, real_agents.PROXY_CELLS)
    assert row == (f"| codex via proxy | 2 | {on} | {real_agents._counts({'cells': behind})} "
                   f"| {same} |")


def test_the_recording_tool_puts_the_proxy_before_agents_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from record_agents import main

    gateway = next(p.name for p in PROFILES if p.gateway)
    with pytest.raises(SystemExit) as refused:
        main(["--via-proxy", "--install", "codex", gateway])
    assert refused.value.code == 2
    assert f"{gateway} are gateways" in capsys.readouterr().err
