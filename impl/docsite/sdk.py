"""openai-python's answers to the peer scenarios, run through the differential harness.

The peers page has a column for what openai-python's own stream accumulator
(``client.responses.stream()``) makes of each scenario.  It is not documented but
computed: ``responses_oracle.testing.openai_candidate.parse`` feeds the stream to the
SDK's ``ResponseStream`` offline, as the harness's ``--candidate openai-python`` does.
The SDK is an optional dependency (extra ``bench``), so, as for the proofs, the answers
are recorded in ``docs/peers-openai-python.json`` with the SDK version and a digest of
each scenario's stream.  ``--check`` uses the record and reports it stale when a
scenario's stream changed; without a record the column is left out.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from .markdown import code
from .peers import SCENARIOS, Scenario
from .wire_builders import Event

RECORD_NAME = "peers-openai-python.json"
"""The record's file name under ``docs/``."""


@dataclass(frozen=True)
class SdkRecord:
    """openai-python's answer per scenario key, with the stream digest it answered."""

    sdk_version: str
    answers: Mapping[str, tuple[str, str]]
    """Scenario key → (digest of its stream, the answer as Markdown)."""

    def to_text(self) -> str:
        """The record as the JSON text of ``docs/peers-openai-python.json``."""
        document = {
            "generated_by": "python -m responses_oracle.docsite",
            "openai": self.sdk_version,
            "answers": {
                key: {"stream_sha256": digest, "answer": answer}
                for key, (digest, answer) in self.answers.items()
            },
        }
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_text(cls, text: str) -> SdkRecord:
        """Read a record written by ``to_text``."""
        document: dict[str, Any] = json.loads(text)
        answers = {
            key: (entry["stream_sha256"], entry["answer"])
            for key, entry in document["answers"].items()
        }
        return cls(document["openai"], answers)

    def current(self) -> bool:
        """Whether it answers exactly the current scenarios, stream for stream."""
        return {key: digest for key, (digest, _) in self.answers.items()} == {
            scenario.key: stream_digest(scenario.example.events) for scenario in SCENARIOS
        }


def stream_digest(events: tuple[Event, ...]) -> str:
    """SHA-256 of a stream's events as compact JSON lines."""
    text = "\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in events)
    return hashlib.sha256(text.encode()).hexdigest()


def _summary(results: list[dict[str, Any]]) -> str:
    parts = []
    for result in results:
        calls = [
            f"{code(str(item.get('id')))} {code(str(item.get('arguments')))}"
            for item in (entry["item"] for entry in result["items"])
            if item.get("type") == "function_call"
        ]
        text = "; ".join(calls) or "no call"
        status = result["response"]["status"]
        parts.append(text if status == "completed" else f"response {code(status)}: {text}")
    return "; ".join(parts)


def answer(parse: Any, scenario: Scenario) -> str:
    """What openai-python gives for ``scenario``: its calls, or the exception it raises."""
    if scenario.example.replay:
        return "n/a (the SDK does not build the next request's input)"
    try:
        return _summary(parse(list(scenario.example.events)))
    except Exception as error:  # the SDK's own verdict on the stream is the answer
        return f"raises {code(type(error).__name__)}: {str(error).splitlines()[0][:120]}"


def sdk_available() -> bool:
    """Whether openai-python (and the HTTP client it decodes with) can be imported."""
    return all(importlib.util.find_spec(name) is not None for name in ("openai", "httpx2"))


def run_sdk() -> SdkRecord | None:
    """openai-python's answer to every scenario; None when the SDK is not installed."""
    if not sdk_available():
        return None
    parse = importlib.import_module("responses_oracle.testing.openai_candidate").parse
    return SdkRecord(
        version("openai"),
        {
            scenario.key: (stream_digest(scenario.example.events), answer(parse, scenario))
            for scenario in SCENARIOS
        },
    )


def load_record(path: Path) -> SdkRecord | None:
    """The committed record at ``path``, or None if there is none."""
    return SdkRecord.from_text(path.read_text(encoding="utf-8")) if path.is_file() else None
