"""The Real agents page: rendered from its record, of the pinned versions, honest."""

from __future__ import annotations

from typing import Any

import pytest
from responses_oracle.agents import scenario_list
from responses_oracle.agents.profiles import BY_NAME
from responses_oracle.agents.report import BROKEN, HELD, NOT_JUDGED, PROXY_REGRESSION
from responses_oracle.agents.scenario_list import builtin
from responses_oracle.agents.served_verdicts import VERDICTS
from responses_oracle.docsite import docs_dir, real_agents

DOCS = docs_dir()
ROOT = DOCS.parent


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return real_agents.load(DOCS)


def test_the_page_and_its_timelines_are_what_the_record_renders() -> None:
    assert real_agents.main(["--check"]) == 0


def test_the_page_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "real-agents.md" in nav and "usage/agents.md" in nav


def test_the_record_is_of_the_pinned_versions_and_the_built_in_scenarios(
    record: dict[str, Any],
) -> None:
    for client in record["clients"]:
        profile = BY_NAME[client["client"]]
        assert (client["package"], client["version"]) == (profile.package, profile.version)
    assert [s["name"] for s in record["scenarios"]] == [s.name for s in builtin()]
    assert len(record["scenarios"]) >= 30


def test_every_cell_is_a_run_or_says_why_not(record: dict[str, Any]) -> None:
    for client in record["clients"]:
        for cell in client["cells"]:
            if not cell["ran"]:
                # Not run: a reason, and never a verdict.
                assert cell["reason"] and cell["calls"] == [], (client["client"], cell)
            else:
                assert cell["requests"] >= 1, (client["client"], cell["scenario"])
            for call in cell["calls"]:
                for key in VERDICTS:
                    assert call[key] in (True, False, None)
                    assert call["reasons"][key], (client["client"], cell["scenario"], key)


def test_a_client_that_could_not_be_installed_is_not_run(record: dict[str, Any]) -> None:
    crush = next((c for c in record["clients"] if c["client"] == "crush"), None)
    if crush is None:
        pytest.skip("crush is not recorded")
    assert crush["cells"] and all(not c["ran"] for c in crush["cells"])
    assert all(c["reason"].startswith("install failed") for c in crush["cells"])
    page = (DOCS / real_agents.PAGE_NAME).read_text(encoding="utf-8")
    assert "install failed" in page


def _judged_on(client: dict[str, Any], cell: dict[str, Any]) -> bool:
    """Whether a recorded cell broke what its row is judged on: a gateway's
    ``answer_kept`` alone (its downstream client's verdicts are that client's row), any
    other client's three verdicts."""
    if client["kind"] == "gateway":
        return (cell.get("gateway") or {}).get("answer_kept") is False
    return any(call[k] is False for call in cell["calls"] for k in VERDICTS)


def test_a_broken_verdict_is_shown_with_its_reason(record: dict[str, Any]) -> None:
    page = real_agents.render(record)
    broken = [
        (client["client"], cell["scenario"])
        for client in record["clients"]
        for cell in client["cells"]
        if _judged_on(client, cell)
    ]
    for name, scenario in broken:
        assert f"| {scenario} | " in page.split(f"### {name}\n", 1)[1], (name, scenario)


def test_a_gateway_row_is_judged_on_answer_kept_alone() -> None:
    """#42 part 5: a gateway cell whose downstream client broke a verdict after the
    gateway kept the answer counts nothing against the gateway; one that lost the
    answer is broken where its twin kept it."""
    dropped = {"call_id": "call_1", "executed": False, "history_faithful": None,
               "api_valid": None, "reasons": {"executed": "dropped"}}
    held = {"call_id": "call_1", "executed": True, "history_faithful": True,
            "api_valid": True}

    def cell(kept: bool, call: dict[str, Any]) -> dict[str, Any]:
        return {"client": "litellm-proxy", "scenario": "s01", "ran": True, "calls": [call],
                "gateway": {"answer_kept": kept, "reason": "1 difference; first: x"}}

    relayed = {**cell(True, dropped), "twin": cell(True, held)}
    assert real_agents._outcome(relayed) == HELD
    lost = {**cell(False, dropped), "twin": cell(True, dropped)}
    assert real_agents._outcome(lost) == BROKEN
    assert real_agents._why(lost) == "answer_kept: 1 difference; first: x"


def test_the_stream_files_of_the_list_reduce_as_their_readme_says() -> None:
    from responses_oracle.agents.scenario_list import scenario_events
    from responses_oracle.reducer import reduce

    expected = {  # run it: the executable calls; the response status
        "s01": (["call_s01"], "completed"),
        "s02": (["call_s02"], "completed"),
        "s03": ([], "interrupted"),
        "s04": (["call_s04a", "call_s04b"], "completed"),
        "s05": ([], "failed"),
        "s06": ([], "incomplete"),
        "s07": (["call_s07"], "completed"),
        "s08": ([], "completed"),
    }
    for scenario in builtin():
        if scenario.kind != "stream":
            continue
        events = scenario_events(scenario)  # its base with its deviations, as served
        assert events is not None, scenario.name
        [result] = reduce(events)
        runs = [i.item["call_id"] for i in result.items if i.executable]
        assert (runs, result.status.value) == expected[scenario.name], scenario.name


def test_the_peers_page_says_what_the_recorded_opencode_and_codex_runs_did(
    record: dict[str, Any],
) -> None:
    from responses_oracle.docsite.pages import peers_page
    from responses_oracle.docsite.peers import SCENARIOS

    page = peers_page(None, record)
    shown = 0
    for scenario in SCENARIOS:
        for client in real_agents.PEER_CLIENTS:
            text = real_agents.measured(record, client, f"peers-{scenario.key}")
            if text is not None:
                assert text.replace("|", "\\|") in page, (client, scenario.key)
                shown += 1
    assert shown == 0 or "under **run**" in page
    # Without a record no agent's run is shown (AxonHub's run has a record of its own).
    assert "[Real agents](real-agents.md)):" not in peers_page(None, None)
    assert "opencode and codex cells say" not in peers_page(None, None)


def test_a_measured_cell_gives_each_verdict_and_a_broken_ones_reason() -> None:
    data = {"clients": [{"client": "codex", "version": "9.9", "cells": [
        {"client": "codex", "scenario": "peers-x", "ran": True, "reason": "", "requests": 2,
         "calls": [{"call_id": "c1", "executed": True, "history_faithful": False,
                    "api_valid": None, "reasons": {"history_faithful": "id 'a', the oracle's "
                                                   "is 'b'"}}]},
        {"client": "codex", "scenario": "peers-y", "ran": False,
         "reason": "the client sent no request (exit status 1)", "calls": []},
    ]}]}
    assert real_agents.measured(data, "codex", "peers-x") == (
        "**run** (9.9, [Real agents](real-agents.md)): executed ✓, history-faithful ✗ "
        "(id 'a', the oracle's is 'b'), API-valid -")
    assert real_agents.measured(data, "codex", "peers-y") == (
        "**run** (9.9, [Real agents](real-agents.md)): the client sent no request "
        "(exit status 1)")
    assert real_agents.measured(data, "opencode", "peers-x") is None


def test_the_timelines_share_one_copy_of_their_script_and_style() -> None:
    from responses_oracle.timeline import shared_assets

    folder = DOCS / real_agents.TIMELINES
    for name, text in shared_assets().items():
        copy = (folder / name).read_text(encoding="utf-8")
        assert copy.startswith("/* Generated by ") and copy.endswith(text), name
    pages = sorted(folder.glob("*.html"))
    assert len(pages) >= 30
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert '<script src="timeline.js"></script>' in html, page.name
        assert '<link rel="stylesheet" href="timeline.css">' in html, page.name
        assert "<style>" not in html and "<script>" not in html, page.name


def test_the_page_opens_with_its_verdict(record: dict[str, Any]) -> None:
    page = (DOCS / real_agents.PAGE_NAME).read_text(encoding="utf-8")
    first = page.split("# Real agents\n\n", 1)[1].split("\n", 1)[0]
    assert first == real_agents.headline(record)
    ran = [c for c in record["clients"] if any(x["ran"] for x in c["cells"])]
    assert first.startswith(f"**{len(ran)} of {len(record['clients'])} clients ran**")
    # The figures count the cells recorded on the current scenario list only; the
    # clients with older records are named apart.
    now = real_agents.list_digest()
    cells = sum(x["ran"] and x.get(real_agents.SCENARIO_LIST) == now
                for c in ran for x in c["cells"])
    assert f"of their {cells:,} cells recorded on the current scenarios, " in first
    older = [c["client"] for c in ran
             if any(x.get(real_agents.SCENARIO_LIST) != now for x in c["cells"] if x["ran"])]
    if older:
        assert ", ".join(older) in first.split("Older records", 1)[1]
    for client in record["clients"]:
        if client not in ran:
            assert client["client"] in first.split("Not run: ", 1)[1]


def test_a_proxy_cell_is_compared_with_the_direct_cell_of_its_own_scenario_list() -> None:
    """#39 part 2 on the page: held directly and lost behind the proxy is a proxy
    regression, but only against a direct cell recorded on the same scenario list."""
    now = real_agents.list_digest()
    held = {"call_id": "call_1", "executed": True, "history_faithful": True,
            "api_valid": True}
    dropped = {"call_id": "call_1", "executed": False, "history_faithful": None,
               "api_valid": None, "reasons": {"executed": "dropped"}}

    def recorded(client: str, call: dict[str, Any], stamp: str | None) -> dict[str, Any]:
        return {"client": client, "scenario": "s01", "ran": True, "calls": [call],
                real_agents.SCENARIO_LIST: stamp}

    behind = recorded("llm via proxy", dropped, now)
    entry = {"client": "llm", "cells": [recorded("llm", held, now)]}
    direct = real_agents._direct(entry, behind)
    assert direct is not None
    assert real_agents._outcome(behind, direct) == PROXY_REGRESSION
    older = {"client": "llm", "cells": [recorded("llm", held, "an-older-list")]}
    assert real_agents._direct(older, behind) is None
    assert real_agents._outcome(behind, None) == NOT_JUDGED
    assert real_agents.recorded_on(entry) == f"current scenarios (1 of {len(builtin())})"
    assert real_agents.recorded_on(older) == "older record"


def test_a_cell_behind_the_proxy_counts_as_todays_only_with_todays_proxied_stream() -> None:
    today = scenario_list.proxied_stream("q07")
    assert real_agents.with_todays_proxy({"scenario": "q07", real_agents.PROXIED: today})
    assert not real_agents.with_todays_proxy({"scenario": "q07", real_agents.PROXIED: "0" * 12})
    assert not real_agents.with_todays_proxy({"scenario": "q07"})  # recorded before stamps


def test_the_proxied_stream_changes_with_what_the_proxy_passes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import responses_oracle

    today = scenario_list.proxied_stream("s04")
    assert today != scenario_list.same_stream("s04")  # a digest of the proxy's stream
    dropped = responses_oracle.canonical

    def losing_the_terminal(events: Any) -> Any:
        return dropped(events)[:-1]

    monkeypatch.setattr(responses_oracle, "canonical", losing_the_terminal)
    scenario_list.proxied_stream.cache_clear()
    try:
        assert scenario_list.proxied_stream("s04") != today
    finally:
        monkeypatch.undo()
        scenario_list.proxied_stream.cache_clear()
    assert scenario_list.proxied_stream("s04") == today
