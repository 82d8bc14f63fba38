"""The shape of a valid OpenAI stream (``serve/shapes.json``): generated from
openai-python's types and the OpenAI captures, current, and read as the API sends it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import REPO
from responses_oracle.serve.shapes import fields, shape_problems, shapes, value_of


def test_the_shapes_are_current() -> None:
    openai = pytest.importorskip("openai")
    if openai.__version__ != "3.57.0":
        pytest.skip("the shapes are generated from openai 3.57.0")
    tool = REPO / "tools" / "stream_shapes.py"
    checked = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr


def test_the_recordings_add_what_the_types_leave_optional() -> None:
    """A function call's ``status`` and ``id``: optional in the types, always sent."""
    assert "status" not in shapes()["items"]["function_call"]["required"]
    assert {"id", "status"} <= fields("items", "function_call", "done")
    assert value_of("items", "function_call", "done", "status") == (True, "completed")
    assert value_of("items", "function_call", "added", "status") == (True, "in_progress")
    assert value_of("response", "response", "open", "object") == (True, "response")
    # An added web search call has no action yet; its done item has one.
    assert "action" in fields("items", "web_search_call", "done")


def test_only_whole_openai_recordings_are_read() -> None:
    table = (REPO / "fixtures" / "captures" / "SOURCES.tsv").read_text("utf-8")
    models = dict(line.split("\t")[0:8:7] for line in table.splitlines()[1:])
    used = shapes()["captures"]
    assert len(used) >= 50
    assert all(models[name].startswith(("gpt-", "o3", "o4")) for name in used), used
    # vercel/ai's trimmed fixture (no sequence_number, a response without tools) is out.
    assert "vercel-ai/openai__issue-18970-programmatic-approval.1.jsonl" not in used


def test_every_read_recording_has_the_shape() -> None:
    for name in shapes()["captures"]:
        path = REPO / "fixtures" / "captures" / name
        for line in path.read_text("utf-8").splitlines():
            assert not shape_problems(json.loads(line)), (name, line[:200])


def test_a_minimal_vector_event_lacks_what_the_api_sends() -> None:
    event = {"type": "response.output_item.done", "output_index": 0,
             "item": {"type": "function_call", "call_id": "c", "name": "f", "arguments": ""}}
    assert [str(p) for p in shape_problems(event)] == [
        "response.output_item.done: sequence_number missing",
        "response.output_item.done: item.id missing (function_call, done)",
        "response.output_item.done: item.status missing (function_call, done)",
    ]
