"""Shared pieces of the CLI tests: running ``main`` in-process, and small streams.

``run`` calls ``responses_oracle.cli.main`` with pytest's ``capsys`` and returns the
exit status with what went to stdout and stderr; ``as_terminal`` makes the captured
stdout say it is a terminal (where ``--pretty`` renders for people), and ``plain``
strips the colours rich then writes.  ``jsonl`` writes events one a line;
``function_call_stream`` is the smallest realistic stream of one function call, cut off
before its terminal event when asked, so a test can see ``missing_terminal``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
from responses_oracle.cli import main

EXAMPLES = REPO / "examples"
"""The example streams of the project (ours, not captures)."""

Event = dict[str, Any]


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """``main(argv)`` in-process: (exit status, stdout, stderr)."""
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def as_terminal(monkeypatch: pytest.MonkeyPatch, columns: int = 120) -> None:
    """Make the captured stdout a terminal ``columns`` wide (call inside the test)."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", str(columns))


def plain(text: str) -> str:
    """``text`` without ANSI escape sequences."""
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)


def lines(text: str) -> list[Any]:
    """The JSON values of a JSON Lines text."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def jsonl(events: list[Event]) -> str:
    """Events as JSON Lines, numbered with ``sequence_number`` from 0."""
    return "".join(
        json.dumps({**event, "sequence_number": number}) + "\n"
        for number, event in enumerate(events)
    )


def function_call_stream(
    response_id: str = "resp_1",
    item_id: str = "fc_1",
    call_id: str = "call_1",
    arguments: str = '{"city":"Paris"}',
    *,
    complete: bool = True,
) -> list[Event]:
    """One streamed function call; without the terminal event unless ``complete``."""
    item = {
        "type": "function_call",
        "id": item_id,
        "call_id": call_id,
        "name": "get_weather",
        "arguments": "",
        "status": "in_progress",
    }
    events: list[Event] = [
        {"type": "response.created", "response": {"id": response_id, "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 0,
            "item_id": item_id,
            "delta": arguments,
        },
    ]
    if complete:
        done = {**item, "arguments": arguments, "status": "completed"}
        events += [
            {
                "type": "response.function_call_arguments.done",
                "output_index": 0,
                "item_id": item_id,
                "arguments": arguments,
            },
            {"type": "response.output_item.done", "output_index": 0, "item": done},
            {
                "type": "response.completed",
                "response": {"id": response_id, "status": "completed", "output": [done]},
            },
        ]
    return events


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write ``text`` to ``tmp_path / name`` and return the path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
