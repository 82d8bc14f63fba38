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
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.canonicalizer import Canonicalizer, canonical
from responses_oracle.core.step import ReducerLimits
from responses_oracle.proxy import (
    REPAIRS_COMMENT,
    REPAIRS_HEADER,
    ProxyConfig,
    repair_count,
    running,
)
from responses_oracle.reducer import reduce
from responses_oracle.wire import read_wire_events
from responses_oracle.wire.records import Limits

from .test_proxy import first_turn, post
from .upstreams import frames, sse_body, upstream


def _events(name: str) -> list[dict[str, Any]]:
    return [e.payload for e in read_wire_events(REPO / name) if e.payload is not None]


def _proxied(events: list[dict[str, Any]]) -> tuple[dict[str, Any], bytes]:
    """One streamed turn through the proxy, the upstream playing ``events``: the
    response's log line and the body the client got."""
    with upstream(sse_body(frames(events))) as url, running(ProxyConfig(url)) as proxy:
        _, _, body = post(proxy.base_url, first_turn())
    [line] = proxy.logged
    return line, body


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
    line, body = _proxied(_events("fixtures/scenarios/s01-one-call.jsonl"))
    assert (line["codes"], line["changes"], line["repairs"]) == ([], [], 0)
    assert body.rstrip().endswith(f": {REPAIRS_COMMENT} 0".encode())


S04 = "fixtures/scenarios/s04-parallel-calls.jsonl"


def _sizes() -> list[int]:
    return [len(frame) for frame in frames(_events(S04))]


LIMITS: dict[str, tuple[ReducerLimits, Limits, str]] = {
    "entries": (ReducerLimits(max_entries=1), Limits(), "more than 1 entries"),
    "channel-chars": (ReducerLimits(max_channel_chars=4), Limits(), "passed 4 characters"),
    # The largest event is over the limit, the opening events are under it.
    "event-bytes": (ReducerLimits(), Limits(max_event_bytes=max(_sizes()) - 40),
                    "exceeds max_event_bytes"),
    "total-bytes": (ReducerLimits(), Limits(max_total_bytes=sum(_sizes()) // 2),
                    "exceeds max_total_bytes"),
}
"""A limit passed on s04 (two calls) → the limits, and words the log's ``limit`` says."""


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_a_limit_ends_the_answer_as_a_failure_and_the_log_names_it(name: str) -> None:
    """Never a normal-looking completed response with part of the answer: an ``error``
    event with code ``limit_exceeded`` and ``response.failed``, the upstream request
    closed, the log's ``limit`` naming the limit."""
    limits, wire_limits, said = LIMITS[name]
    config = ProxyConfig("", limits=limits, wire_limits=wire_limits)
    with upstream(sse_body(frames(_events(S04)))) as url, running(
        replace(config, upstream=url)
    ) as proxy:
        status, _, body = post(proxy.base_url, first_turn())
    [line] = proxy.logged
    assert status == 200 and line["ended"] == "limit" and said in line["limit"]
    assert any(said in change for change in line["changes"])
    events = [e.payload for e in read_wire_events(body) if e.payload]
    types = [event["type"] for event in events]
    assert "response.completed" not in types
    assert types[-2:] == ["error", "response.failed"]
    [error] = [event for event in events if event["type"] == "error"]
    assert error["code"] == "limit_exceeded" and said in error["message"]
    [result] = reduce(body)
    assert result.status.value == "failed"
    assert all(not item.executable for item in result.items)


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
    "fixtures/scenarios/s02-done-only-call.jsonl": ["done_only_item"],
}
"""The rewritten streams → the oracle's codes that name what the proxy repaired."""


@pytest.mark.parametrize("name", sorted(NAMED))
def test_every_repair_is_named_by_an_oracle_code(name: str) -> None:
    """Nothing hidden: the log names the deviation each repair undid by the oracle's code
    (issue #33), the codes ``reduce`` reports for the stream."""
    events = _events(name)
    line, _ = _proxied(events)
    [result] = reduce(events)
    assert line["changes"] and line["codes"]
    assert line["codes"] == NAMED[name] == sorted({d.code.value for d in result.diagnostics})


_MESSAGE = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": "Hi!", "annotations": []}]}
_CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city":"Paris"}', "status": "completed"}
_OPENED = {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}

UNANNOUNCED: dict[str, tuple[list[dict[str, Any]], str, str]] = {
    # Text deltas with no content_part.added before them: canonical announces the part.
    "part": (
        [_OPENED,
         {"type": "response.output_item.added", "output_index": 0,
          "item": {**_MESSAGE, "content": [], "status": "in_progress"}},
         *({"type": "response.output_text.delta", "output_index": 0, "item_id": "msg_1",
            "content_index": 0, "delta": text} for text in ("Hi", "!")),
         {"type": "response.output_item.done", "output_index": 0, "item": _MESSAGE},
         {"type": "response.completed",
          "response": {"id": "resp_1", "status": "completed", "output": [_MESSAGE]}}],
        "part_not_added",
        "response.content_part.added sent, which the upstream never sent",
    ),
    # A call only in the terminal's output: canonical streams it.
    "item": (
        [_OPENED,
         {"type": "response.completed",
          "response": {"id": "resp_1", "status": "completed", "output": [_CALL]}}],
        "snapshot_only_item",
        "response.output_item.added sent, which the upstream never sent",
    ),
}
"""Two repairs no fixture stream needs: what the upstream left unannounced → the code
that names it and the change the proxy logs."""


@pytest.mark.parametrize("kind", sorted(UNANNOUNCED))
def test_announcing_what_the_upstream_never_announced_is_a_named_repair(kind: str) -> None:
    events, code, change = UNANNOUNCED[kind]
    line, body = _proxied(events)
    assert line["codes"] == [code] and line["repairs"] == len(line["changes"]) > 0
    assert any(found.endswith(change) for found in line["changes"]), line["changes"]
    [result] = reduce(body)
    assert [item.item for item in result.items] == [events[-1]["response"]["output"][0]]
    assert [d.code.value for d in result.diagnostics] == []  # the answer announces it all


_TEXT_PART = ("response.content_part.added", "response.content_part.done")
"""A part's events the proxy adds where the upstream streamed none (no payload ``done``
is added: the upstream sent none)."""

NOT_REPAIRS: dict[str, tuple[frozenset[str], str]] = {
    "fixtures/quirks/q08-litellm-done-out-of-order.jsonl": (
        frozenset(_TEXT_PART), "the message's output_item.done holds its text (no delta "
        "streamed)"),
    "fixtures/quirks/q03-openai-background-resume-no-created.jsonl": (
        frozenset(_TEXT_PART), "the message's output_item.done holds its text"),
    "fixtures/quirks/q02-openai-shell-call-output-shares-call-id.jsonl": (
        frozenset({"response.shell_call_command.added"}),
        "the shell call's output_item.done holds its command (no delta streamed)"),
    "fixtures/captures/pydantic-ai/"
    "test_openai_responses_model_mcp_list_tools_stream_backfills_missing_results.i0.jsonl": (
        frozenset({"response.output_item.done"}),
        "OpenAI closes two mcp_list_tools items in response.completed alone; its output "
        "holds them"),
}
"""The fixture streams the proxy rewrites with no repair → the events it added and why
each is no repair: the upstream's other events say it again
(``model.vocabulary.RESTATED``)."""

_FIXTURES = sorted(
    path.relative_to(REPO).as_posix()
    for pattern in ("fixtures/**/*.jsonl", "examples/*.jsonl", "examples/*.sse")
    for path in REPO.glob(pattern)
)
_ADDED = re.compile(r": (response\.[a-z_.]+) sent, ")


def _records(name: str) -> list[dict[str, Any]]:
    """The proxy's log records of a fixture stream (its ``Relay``'s canonicalizer)."""
    canonicalizer = Canonicalizer()
    for event in read_wire_events(REPO / name):
        canonicalizer.feed(event)
    canonicalizer.close()
    return canonicalizer.repairs


def test_every_rewritten_fixture_response_is_named_by_a_code_or_listed_as_no_repair() -> None:
    """Nothing hidden, over every fixture stream: a response the proxy repairs has the
    oracle's codes; one it only re-spells counts no repair and is in ``NOT_REPAIRS``, with
    the events it added, and every entry there is such a response."""
    unnamed, respelled = [], {}
    for name in _FIXTURES:
        for record in _records(name):
            if record["changes"] and not record["codes"]:
                unnamed.append((name, record["changes"]))
            elif record["respelled"] and not record["changes"]:
                assert repair_count([record]) == 0
                respelled[name] = frozenset(
                    found.group(1) for line in record["respelled"]
                    if (found := _ADDED.search(line)) is not None
                )
    assert unnamed == []
    assert respelled == {name: events for name, (events, _) in NOT_REPAIRS.items()}


def test_a_respelled_stream_is_logged_apart_and_counts_no_repair() -> None:
    line, body = _proxied(_events("fixtures/quirks/q03-openai-background-resume-no-created.jsonl"))
    assert (line["changes"], line["repairs"]) == ([], 0)
    assert {_ADDED.search(found).group(1) for found in line["respelled"]} == set(_TEXT_PART)
    assert body.rstrip().endswith(f": {REPAIRS_COMMENT} 0".encode())


_OPEN_RESPONSES = "fixtures/captures/vercel-ai/open-responses__issue-18872-"


@pytest.mark.parametrize("name", ["truncated-reasoning", "unknown-incomplete-reason"])
def test_a_stream_the_upstream_never_opened_gets_no_opening_and_no_id(name: str) -> None:
    # An Open Responses stream with no opening and no response id: no repair needs an
    # opening, so canonical adds none (the AI SDK refuses a response.created without
    # created_at and model) and names no response the upstream did not name.
    events = _events(f"{_OPEN_RESPONSES}{name}.jsonl")
    assert events[0]["type"] == "response.output_item.added"
    canonicalizer = Canonicalizer()
    found = [out for e in events for out in canonicalizer.feed(e)] + canonicalizer.close()
    assert [e["type"] for e in found][:1] == ["response.output_item.added"]
    assert not {"response.created", "response.in_progress"} & {e["type"] for e in found}
    assert found[-1]["type"] == "response.incomplete"
    terminal = found[-1]["response"]
    assert "id" not in terminal
    assert terminal["incomplete_details"] == events[-1]["response"]["incomplete_details"]
    [record] = canonicalizer.repairs
    assert record["response_id"] is None
    assert not any("minted" in change for change in record["changes"])


def test_a_resumed_stream_without_response_created_gets_none_but_keeps_its_progress() -> None:
    # OpenAI's background resume (q03) opens with response.queued and in_progress: no
    # response.created is made up; the in_progress it sent goes on.
    events = _events("fixtures/quirks/q03-openai-background-resume-no-created.jsonl")
    types = [e["type"] for e in events]
    assert "response.created" not in types and "response.in_progress" in types
    found = [e["type"] for e in canonical(events)]
    assert "response.created" not in found
    assert found.count("response.in_progress") == 1


def test_a_stream_opened_by_response_created_alone_gets_no_in_progress() -> None:
    # OpenAI's custom tool call (c03) opens with response.created and no
    # response.in_progress: none is added behind the proxy (#39: nothing invented).
    events = _events("fixtures/scenarios/bases/c03.jsonl")
    types = [e["type"] for e in events]
    assert types[0] == "response.created" and "response.in_progress" not in types
    line, body = _proxied(events)
    found = [e.payload["type"] for e in read_wire_events(body) if e.payload is not None]
    assert found[:2] == ["response.created", "response.output_item.added"]
    assert "response.in_progress" not in found
    assert line["changes"] == []


_IMAGE = "fixtures/captures/vercel-ai/openai__openai-image-generation-tool.1.jsonl"
_17_MB = 17_000_000


def _image_turn(kind: str) -> list[dict[str, Any]]:
    """OpenAI's image generation turn, the ``kind`` event's image made 17 MB (over the
    default ``--max-event-bytes``, 16 MiB)."""
    events = _events(_IMAGE)
    for event in events:
        if event["type"] == kind == "response.image_generation_call.partial_image":
            event["partial_image_b64"] = "UklG" * (_17_MB // 4)
        elif kind == event["type"] and event["item"]["type"] == "image_generation_call":
            event["item"]["result"] = "UklG" * (_17_MB // 4)
    return events


def test_an_oversized_partial_image_passes_on_as_it_came_and_the_log_names_the_limit() -> None:
    # #39 part 4: a preliminary image over the event limit is not needed for a repair
    # (canonical passes partial images on as they come): its bytes go on as they arrive,
    # unread, and the answer goes on to its terminal.
    events = _image_turn("response.image_generation_call.partial_image")
    line, body = _proxied(events)
    assert (line["ended"], line["limit"]) == ("terminal", None)
    [change] = line["changes"]
    assert "partial_image" in change and "max_event_bytes (16777216 bytes)" in change
    assert "limit_exceeded" in line["codes"]
    wide = Limits(max_event_bytes=32 << 20)
    out = [e.payload for e in read_wire_events(body, limits=wide) if e.payload is not None]
    [partial] = [e for e in events if e["type"].endswith("partial_image")]
    assert partial in out  # every field as the upstream sent it, sequence_number too
    assert out[-1]["type"] == "response.completed"
    assert out[-1]["response"]["output"] == events[-1]["response"]["output"]


def test_an_oversized_image_result_still_ends_the_answer_at_the_limit() -> None:
    # The image itself is in the item's done, which canonical spells again from the
    # reducer: needed whole, it cannot pass unread (``passes_as_sent``).
    line, body = _proxied(_image_turn("response.output_item.done"))
    assert line["ended"] == "limit" and "max_event_bytes" in line["limit"]
    types = [e.payload["type"] for e in read_wire_events(body) if e.payload is not None]
    assert types[-2:] == ["error", "response.failed"]
