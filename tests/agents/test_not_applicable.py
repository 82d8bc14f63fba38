"""A scenario no offered tool fits is *not applicable* to the client: no verdict, its
own mark on the page, the reason kept."""

from __future__ import annotations

import json
from pathlib import Path

from responses_oracle.agents.report import marks, why
from responses_oracle.agents.runner import Cell
from responses_oracle.agents.served_verdicts import load_verdicts
from responses_oracle.docsite.real_agents import SYMBOL, _mark
from responses_oracle.serve import load_scenario, running
from responses_oracle.serve.mapping import offered_tools


def test_a_scenario_no_tool_fits_is_recorded_not_applicable(tmp_path: Path) -> None:
    import urllib.request

    body = {"model": "m", "input": "go", "stream": True, "tools": [
        {"type": "function", "name": "echo", "parameters": {
            "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}]}
    assert [t.name for t in offered_tools(body)] == ["echo"]
    with running([load_scenario("q10")], out=tmp_path) as server:
        request = urllib.request.Request(f"{server.base_url}/responses",
                                         json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=30).read()
    served = load_verdicts(tmp_path / "verdicts.json")
    assert "zero-argument call" in served.not_applicable
    cell = Cell("lib", "q10", ran=True, reason=served.problem,
                not_applicable=served.not_applicable)
    assert set(marks(cell).values()) == {"not applicable"}
    assert why(cell).startswith("not applicable: 'get_time' is a zero-argument call")
    assert _mark(cell.to_json()) == SYMBOL["not applicable"] * 3
