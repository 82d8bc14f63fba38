"""What ``serve`` plays: a scenario is one stream of decoded events, found by a name.

A ``SCENARIO`` argument is read as the first of these that applies:

========================  ==============================================================
``seed7/12``              case 12 of seed 7 of the generated mix (``cases.generated_case``,
                          the names ``diff --seed`` prints)
``q05``                   the bundled quirk ``quirks/q05-*.jsonl``
a name of the agents      what ``agents --list`` shows (``s01``, ``peers-...``,
list                      ``r9_...``): that entry's stream
an existing file          a recorded stream, in any format the front end reads (SSE,
                          JSON Lines, a JSON array, an HTTP recording, ...), or a
                          conformance vector file (its ``events``)
a bundled path            a file of ``BUNDLED`` when no such file exists here
                          (``examples/parallel-calls.sse``, ``captures/...``)
a vector name             a stream of the bundled conformance corpus
                          (``vectors.corpus_vectors``: ``rule-test_r9_...``,
                          ``counterexample-...``)
========================  ==============================================================

How a scenario is presented: a built-in scenario (``agents --list``; the list
``agents/scenarios.json`` declares each one's deviations) is completed to a valid
OpenAI stream but for its declared deviations (``present.py``); any other stream is
played as given, since serve cannot know which of its gaps are the point.

Only decoded events are kept: an event the front end could not decode has no JSON to
serve (``cases.corpus_cases`` drops them for the same reason).  Nothing here maps tools
or judges; ``load_scenario`` raises ``ScenarioError`` (a message saying what exists)
for a name that finds nothing, so the CLI can exit 2 before it binds a port.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from ..bundled import BUNDLED
from .present import AS_GIVEN, Deviation, Presentation

Event = dict[str, Any]
"""One decoded wire event."""

QUIRKS: Final = BUNDLED / "quirks"
"""The quirk streams (``qNN-*.jsonl``), each with its evidence in ``README.md``."""

_SEED: Final = re.compile(r"seed(\d+)/(\d+)")
_QUIRK: Final = re.compile(r"q\d\d")


class ScenarioError(ValueError):
    """A ``SCENARIO`` name that finds no stream; the message says what does exist."""


@dataclass(frozen=True)
class Scenario:
    """One stream to serve: its name (as given), its decoded events, in order, and how
    it is presented (its declared deviations; ``present.py``); ``twin``: serve plays
    its clean twin instead (``twin.py``)."""

    name: str
    events: tuple[Event, ...]
    presentation: Presentation = AS_GIVEN
    twin: bool = False

    def clean_twin(self) -> Scenario:
        """The same scenario, to be played as its clean twin (``serve --twin``)."""
        return replace(self, twin=True)


def load_scenario(spec: str) -> Scenario:
    """The scenario ``spec`` names (see the module's table), presented with its declared
    deviations; ``ScenarioError`` if none."""
    from responses_oracle.agents.scenario_list import declared

    found = _find(spec)
    builtin = declared(spec)
    if builtin is None:
        return found
    deviations = tuple(Deviation.from_dict(entry) for entry in builtin.deviations)
    return replace(found, presentation=Presentation(deviations))


def _find(spec: str) -> Scenario:
    """The stream ``spec`` names, as given."""
    if seed := _SEED.fullmatch(spec):
        from responses_oracle.testing.cases import generated_case

        case = generated_case(int(seed.group(1)), int(seed.group(2)))
        return Scenario(spec, tuple(case.stream.events))
    if _QUIRK.fullmatch(spec):
        found = sorted(QUIRKS.glob(f"{spec}-*.jsonl"))
        if not found:
            known = ", ".join(path.name[:3] for path in sorted(QUIRKS.glob("q*.jsonl")))
            raise ScenarioError(f"no quirk {spec} in {QUIRKS} (known: {known or 'none'})")
        return Scenario(spec, _file_events(found[0]))
    listed = _listed_spec(spec)
    if listed is not None:
        return Scenario(spec, _find(listed).events)
    for path in (Path(spec), BUNDLED / spec):
        if path.is_file():
            return Scenario(spec, _file_events(path))
    vector = _corpus_events(spec)
    if vector is not None:
        return Scenario(spec, vector)
    raise ScenarioError(
        f"{spec!r} is no stream file, quirk (q05), name of `agents --list`, generated "
        "case (seed7/12) or vector name (responses-oracle vectors export lists them)"
    )


def _listed_spec(name: str) -> str | None:
    """What the built-in agents list hands serve for its entry ``name``, if it has one
    and that is not ``name`` itself."""
    from responses_oracle.agents.scenario_list import builtin

    for scenario in builtin():
        if scenario.name == name and scenario.spec != name:
            return scenario.spec
    return None


def _file_events(path: Path) -> tuple[Event, ...]:
    from responses_oracle.wire.formats import read_wire_events

    vector = _vector_events(path)
    if vector is not None:
        return vector
    try:
        events = tuple(
            event.payload for event in read_wire_events(path) if event.payload is not None
        )
    except OSError as error:
        raise ScenarioError(f"cannot read {path}: {error.strerror or error}") from None
    if not events:
        raise ScenarioError(f"{path} holds no event (is it a stream file?)")
    return events


def _vector_events(path: Path) -> tuple[Event, ...] | None:
    """The events of a conformance vector file (``docs/conformance-vectors.md``), or None
    if ``path`` is not one."""
    from responses_oracle.testing.conformance_vectors import Vector

    if path.suffix != ".json":
        return None
    try:
        return tuple(Vector.from_json(json.loads(path.read_text(encoding="utf-8"))).events)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None  # not a vector: read as a stream file, which says what is wrong


def _corpus_events(name: str) -> tuple[Event, ...] | None:
    from responses_oracle.testing.conformance_vectors import corpus_vectors

    for vector in corpus_vectors():
        if vector.name == name:
            return tuple(vector.events)
    return None
