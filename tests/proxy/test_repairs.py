"""What the proxy says it repaired, and the limits it holds each response to.

Every repair is in the log line of its response (its id, the oracle's codes, what was
changed relative to the upstream) and in the count that ends the streamed answer
(``: responses-oracle-repairs N``) or heads a ``stream: false`` answer.  The upstream is
a small aiohttp app on 127.0.0.1 playing a recorded stream: q07 (arguments blanked in
the done events), s02 (a done-only call), Bedrock Mantle (a done item without ``id``),
and s01, which needs no repair.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.core.step import ReducerLimits
from responses_oracle.proxy import REPAIRS_COMMENT, REPAIRS_HEADER, ProxyConfig, running
from responses_oracle.reducer import reduce
from responses_oracle.wire import read_wire_events

from .test_proxy import first_turn, post
from .upstreams import frames, sse_body, upstream


def _events(name: str) -> list[dict[str, Any]]:
    return [e.payload for e in read_wire_events(REPO / name) if e.payload is not None]


REPAIRED = {
    "fixtures/quirks/q07-openrouter-args-only-in-completed.jsonl": "arguments changed",
    "fixtures/scenarios/s02-done-only-call.jsonl": "output_item.added sent",
    "examples/mantle-missing-id.jsonl": "id restored",
}
"""Streams the proxy rewrites → words of the change it logs."""


@pytest.mark.parametrize("name", sorted(REPAIRED))
def test_a_rewritten_stream_logs_its_changes_and_counts_them(name: str, tmp_path: Path) -> None:
    log = tmp_path / "repairs.jsonl"
    sent = frames(_events(name))
    with upstream(sse_body(sent)) as url, running(ProxyConfig(url, log=log)) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
        _, headers, _ = post(proxy.base_url, first_turn(stream=False))
    assert status == 200
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    answered, streamed = sorted(lines, key=lambda line: bool(line["stream"]))
    assert streamed == {**answered, "time": streamed["time"], "stream": True}
    assert isinstance(streamed["codes"], list)
    assert any(REPAIRED[name] in change for change in streamed["changes"])
    count = streamed["repairs"]
    assert count == len(streamed["changes"]) > 0
    assert body.rstrip().endswith(f": {REPAIRS_COMMENT} {count}".encode())
    assert headers[REPAIRS_HEADER] == str(count)


def test_dry_run_logs_the_same_changes_and_sends_the_upstreams_bytes() -> None:
    name = "fixtures/quirks/q07-openrouter-args-only-in-completed.jsonl"
    sent = frames(_events(name))
    with upstream(sse_body(sent)) as url:
        with running(ProxyConfig(url, dry_run=True)) as dry_run:
            _, _, body = post(dry_run.base_url, first_turn())
        with running(ProxyConfig(url)) as proxy:
            post(proxy.base_url, first_turn())
    # Read once each proxy has drained: a line is written when its answer has ended.
    [dry], [repaired] = dry_run.logged, proxy.logged
    assert body == b"".join(sent)
    assert dry["changes"] == repaired["changes"] and dry["repairs"] > 0


def test_a_clean_stream_counts_no_repair() -> None:
    sent = frames(_events("fixtures/scenarios/s01-one-call.jsonl"))
    with upstream(sse_body(sent)) as url, running(ProxyConfig(url)) as proxy:
        _, _, body = post(proxy.base_url, first_turn())
    [line] = proxy.logged
    assert (line["codes"], line["changes"], line["repairs"]) == ([], [], 0)
    assert body.rstrip().endswith(f": {REPAIRS_COMMENT} 0".encode())


@pytest.mark.parametrize("whole", [True, False], ids=["terminal", "cut"])
@pytest.mark.parametrize(
    "limits",
    [ReducerLimits(max_entries=1), ReducerLimits(max_channel_chars=4)],
    ids=["entries", "channel-chars"],
)
def test_a_response_over_a_limit_is_logged_and_ends_as_the_upstream_ended(
    limits: ReducerLimits, whole: bool
) -> None:
    events = _events("fixtures/scenarios/s04-parallel-calls.jsonl")
    sent = frames(events if whole else events[:-1])
    with upstream(sse_body(sent)) as url, running(ProxyConfig(url, limits=limits)) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
    [line] = proxy.logged
    assert status == 200 and "limit_exceeded" in line["codes"] and line["repairs"] > 0
    assert line["ended"] == ("terminal" if whole else "cut")
    [result] = reduce(body)
    assert result.status.value == ("completed" if whole else "interrupted")
    types = [e.payload["type"] for e in read_wire_events(body) if e.payload]
    assert ("response.completed" in types) is whole


def test_the_command_takes_the_limits_of_reduce() -> None:
    main = "import sys; from responses_oracle.cli import main; sys.exit(main())"
    shown = subprocess.run([sys.executable, "-c", main, "proxy", "--help"],
                           capture_output=True, text=True, timeout=60, check=True).stdout
    for option in ("--max-event-bytes", "--max-total-bytes", "--max-entries",
                   "--max-channel-chars"):
        assert option in shown
    refused = subprocess.run(
        [sys.executable, "-c", main, "proxy", "--upstream", "http://127.0.0.1:9/v1",
         "--max-event-bytes", "0"],
        capture_output=True, text=True, timeout=60,
    )
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "--max-event-bytes: expected a positive number" in refused.stderr


NAMED = {
    "fixtures/quirks/q07-openrouter-args-only-in-completed.jsonl": ["empty_payload_filled"],
    "examples/mantle-missing-id.jsonl": ["id_only_as_item_id"],
}
"""The rewritten streams → the oracle's codes that name what the proxy repaired."""

UNNAMED = pytest.mark.xfail(
    strict=True,
    reason="issue #33 item 2, open: the oracle reports no deviation for an item that "
    "arrives done only (no output_item.added), so the proxy's log names the repair by none",
)


@pytest.mark.parametrize("name", [
    *sorted(NAMED),
    pytest.param("fixtures/scenarios/s02-done-only-call.jsonl", marks=UNNAMED),
])
def test_every_repair_is_named_by_an_oracle_code(name: str) -> None:
    """Nothing hidden: the log names the deviation each repair undid by the oracle's code
    (issue #33), the codes ``reduce`` reports for the stream."""
    events = _events(name)
    with upstream(sse_body(frames(events))) as url, running(ProxyConfig(url)) as proxy:
        post(proxy.base_url, first_turn())
    [line] = proxy.logged
    [result] = reduce(events)
    assert line["changes"] and line["codes"]
    assert line["codes"] == NAMED[name] == sorted({d.code.value for d in result.diagnostics})
