"""Real clients behind the proxy: serve and a real client (``agents --via-proxy``), how
the Real agents page records and shows such cells, and the AI SDK's tool results on
every clean capture, directly and behind the proxy (#39's first Done-when)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES
from responses_oracle import reduce
from responses_oracle.agents.profiles import BY_NAME, PROFILES
from responses_oracle.agents.runner import PROXY, PROXY_LOG, run_cell
from responses_oracle.agents.scenario_list import resolve
from responses_oracle.differential.candidate import NODE_ADAPTERS, declared_tools
from responses_oracle.docsite import docs_dir, real_agents
from responses_oracle.proxy.relay import TERMINAL_TYPES, Relay
from responses_oracle.proxy.relay_refinement import body
from responses_oracle.wire import InputFormat, read_wire_events
from responses_oracle.wire.sse import SSEDecoder


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
    # Copies of direct cells carry no proxy stamp: recorded, as far as the page can tell,
    # with an earlier proxy, and said so after *recorded on*.
    on = real_agents.recorded_on(entry, real_agents.PROXY_CELLS) + "; 2 with an earlier proxy"
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


# -- the AI SDK's tool results, directly and behind the proxy ---------------------------

_CAPTURES = sorted(
    path
    for folder in ("captures", "peers")
    for path in (FIXTURES / folder).rglob("*")
    if path.suffix in (".json", ".jsonl")
)

_TOOL_SEARCHES = (
    "captures/pydantic-ai/test_openai_native_tool_search_streaming.i0.jsonl",
    "captures/vercel-ai/azure__azure-tool-search.1.jsonl",
    "peers/ai-sdk/openai__openai-tool-search.1.jsonl",
)
"""Server-run tool searches: a ``tool_search_call`` and its ``tool_search_output``, both
with ``call_id: null``."""

_NEVER_OPENED = (
    "captures/vercel-ai/open-responses__issue-18872-truncated-reasoning.jsonl",
    "captures/vercel-ai/open-responses__issue-18872-unknown-incomplete-reason.jsonl",
)
"""Open Responses streams with no opening event and no response id."""

_NO_ID = "the upstream's output_item.done item has no id (item_id instead)"

EXPLAINED: dict[str, tuple[str, str]] = {
    # Bedrock Mantle's tool turn: directly the SDK refuses the done item without id;
    # behind the proxy the id is restored (a logged repair) and the app gets the call.
    "peers/opencode/openai-gpt-oss-120b-continues-text-and-tools-after-switching-effort.json": (
        "repaired",
        _NO_ID,
    ),
    "peers/opencode/openai-gpt-oss-20b-continues-text-and-tools-after-switching-effort.json": (
        "repaired",
        _NO_ID,
    ),
}
"""Capture -> how the app's tool parts differ behind the proxy, and why (comments)."""


def _responses(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events of each response of a capture (cut after each terminal)."""
    found: list[list[dict[str, Any]]] = [[]]
    for event in events:
        found[-1].append(event)
        if event.get("type") in TERMINAL_TYPES:
            found.append([])
    return [response for response in found if response]


def _proxied(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a client behind the proxy reads of ``events``: the relay's stream, decoded."""
    relay = Relay()
    data = relay.feed(body(events, sentinel=True)) + relay.close()
    decoder = SSEDecoder()
    messages = decoder.feed(data) + decoder.finish()
    return [json.loads(m.data) for m in messages if m.data != "[DONE]"]


def _normalised(answer: dict[str, Any], said: str) -> Any:
    """The tool parts an app got, its tool call ids the SDK made up (not in the stream's
    text ``said``: an MCP approval's) numbered in order; an error as its name and the
    type of the event the SDK refused."""
    if "error" in answer:
        error = str(answer["error"])
        value = re.search(r"Value: (.*?)\.\nError message", error, re.DOTALL)
        try:
            refused = json.loads(value.group(1)) if value else None
        except ValueError:
            refused = None
        if isinstance(refused, dict):
            refused = refused.get("type")
        return ("error", error.split(":", 1)[0], refused)
    made: dict[str, str] = {}
    parts = []
    for part in answer["results"]:
        call = part["toolCallId"]
        if f'"{call}"' not in said:
            call = made.setdefault(call, f"made-up-{len(made)}")
        parts.append({**part, "toolCallId": call})
    return parts


@pytest.fixture(scope="module")
def ai_sdk_tool_parts() -> dict[str, tuple[Any, Any]]:
    """Per clean capture (every response reduces with no error): the AI SDK's tool
    parts per response, directly and behind the proxy."""
    if not (NODE_ADAPTERS / "node_modules").is_dir():
        pytest.skip(f"run `npm ci` in {NODE_ADAPTERS}")
    requests: list[dict[str, Any]] = []
    asked: list[tuple[str, str]] = []
    for path in _CAPTURES:
        wire = read_wire_events(path, InputFormat.AUTO)
        events = [e.payload for e in wire if e.payload is not None]
        if not events or not all(result.ok for result in reduce(events)):
            continue
        name = path.relative_to(FIXTURES).as_posix()
        for response in _responses(events):
            said = json.dumps(response, ensure_ascii=False, separators=(",", ":"))
            for played in (response, _proxied(response)):
                requests.append(
                    {"id": len(requests), "events": played, "tools": declared_tools(response)}
                )
                asked.append((name, said))
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    done = subprocess.run(
        ["node", str(NODE_ADAPTERS / "ai-tool-results.mjs")],
        input=lines,
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    found: dict[str, tuple[list[Any], list[Any]]] = {}
    for n, line in enumerate(done.stdout.splitlines()):
        answer = json.loads(line)
        assert answer["id"] == n
        name, said = asked[n]
        pair = found.setdefault(name, ([], []))
        pair[n % 2].append(_normalised(answer, said))
    return {name: (direct, behind) for name, (direct, behind) in found.items()}


def test_the_ai_sdk_hands_an_app_the_same_tool_results_behind_the_proxy(
    ai_sdk_tool_parts: dict[str, tuple[Any, Any]],
) -> None:
    assert len(ai_sdk_tool_parts) > 100  # every clean capture
    # Preliminary results are among those compared (#39 part 4): streamText hands an app
    # an image generation's partial image as one more tool result of the call (ai
    # 7.0.173 drops the provider's ``preliminary`` flag for a provider-executed result).
    image = "captures/vercel-ai/openai__openai-image-generation-tool.1.jsonl"
    [parts], _ = ai_sdk_tool_parts[image]
    assert [p["type"] for p in parts] == ["tool-call", "tool-result", "tool-result"]
    assert len({p["toolCallId"] for p in parts}) == 1
    # A server-run tool search's result is filed under its call behind the proxy too:
    # the call (no call_id) leaves as soon as its output answers it, before the output
    # (``model.execution.answered_ordinals``, rule 2).
    for search in _TOOL_SEARCHES:
        direct, behind = ai_sdk_tool_parts[search]
        assert behind == direct
        searched = [p for parts in behind for p in parts if p["toolName"] == "tool_search"]
        assert [p["type"] for p in searched] == ["tool-call", "tool-result"]
        assert len({p["toolCallId"] for p in searched}) == 1
    # A stream the upstream never opened is read behind the proxy as directly (no
    # response.created added, which the SDK would refuse without created_at and model).
    for opened in _NEVER_OPENED:
        direct, behind = ai_sdk_tool_parts[opened]
        assert behind == direct and all(isinstance(parts, list) for parts in behind)
    different = sorted(n for n, (d, b) in ai_sdk_tool_parts.items() if d != b)
    assert different == sorted(EXPLAINED)


@pytest.mark.parametrize("name", sorted(EXPLAINED))
def test_each_difference_is_the_one_explained(
    ai_sdk_tool_parts: dict[str, tuple[Any, Any]], name: str
) -> None:
    direct, behind = ai_sdk_tool_parts[name]
    how = EXPLAINED[name][0]
    for theirs, mine in zip(direct, behind, strict=True):
        if theirs == mine:
            continue
        # repaired: refused directly, the call handed over behind the proxy
        assert how == "repaired"
        assert theirs[0] == "error" and theirs[2] == "response.output_item.done"
        assert [p["type"] for p in mine] == ["tool-call"]
