"""The peers' real captures under ``fixtures/peers``, by name, and their decoded events.

The files are vendored in the repository (``fixtures/README.md``).  ``CAPTURES`` names
every capture the suites expect; ``test_captures`` checks that the folder holds exactly
these, so a new capture is not silently left out of the differential corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import PEERS
from responses_oracle.wire.formats import InputFormat, read_wire_events

CAPTURES: tuple[str, ...] = (
    "opencode/openai-gpt-oss-120b-continues-text-and-tools-after-switching-effort.json",
    "opencode/openai-gpt-oss-20b-continues-text-and-tools-after-switching-effort.json",
    "opencode/streams-text.json",
    "opencode/continues-gpt-5-5-with-the-shared-responses-protocol.json",
    "axonhub/tool-2.stream.jsonl",
    "ai-sdk/azure__azure-tool-call.1.jsonl",
    "ai-sdk/open-responses__lmstudio-tool-call.1.jsonl",
    "ai-sdk/open-responses__lmstudio-tool-call.2.jsonl",
    "ai-sdk/openai__openai-custom-tool.1.jsonl",
    "ai-sdk/openai__openai-tool-search.1.jsonl",
    "ai-sdk/openai__openai-client-tool-search.2.jsonl",
    "ai-sdk/openai__programmatic-tool-calling.1.jsonl",
    "ai-sdk/openai__programmatic-tool-calling.2.jsonl",
    "ai-sdk/openai__openai-reasoning-encrypted-content.1.part1of4.jsonl",
    "ai-sdk/openai__openai-reasoning-encrypted-content.1.part2of4.jsonl",
    "ai-sdk/openai__openai-reasoning-encrypted-content.1.part3of4.jsonl",
    "ai-sdk/openai__openai-reasoning-encrypted-content.1.part4of4.jsonl",
    "ai-sdk/concatenated/openai__openai-reasoning-encrypted-content.1.4turns.jsonl",
)
"""Every capture, relative to the ``peers`` folder."""


def capture_path(name: str) -> Path:
    """The capture's path."""
    return PEERS / name


def capture_events(name: str) -> list[dict[str, Any]]:
    """The decoded event objects of a capture, in order, through the wire front end."""
    wire = read_wire_events(capture_path(name), InputFormat.AUTO)
    return [event.payload for event in wire if event.payload is not None]
