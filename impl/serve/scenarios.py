"""What ``serve`` plays: a scenario is one stream of decoded events, found by a name.

A ``SCENARIO`` argument is read as the first of these that applies:

========================  ==============================================================
a name of the agents      what ``agents --list`` shows (``s01``, ``q05``, ``peers-...``,
list                      ``r9_...``): that entry's base and deviations
``seed7/12``              case 12 of seed 7 of the generated mix (``cases.generated_case``,
                          the names ``diff --seed`` prints)
``q04``                   a bundled quirk ``quirks/q04-*.jsonl`` no entry of the list
                          names, as given
an existing file          a recorded stream, in any format the front end reads (SSE,
                          JSON Lines, a JSON array, an HTTP recording, ...), or a
                          conformance vector file (its ``events``)
a bundled path            a file of ``BUNDLED`` when no such file exists here
                          (``examples/parallel-calls.sse``, ``captures/...``)
a vector name             a stream of the bundled conformance corpus
                          (``vectors.corpus_vectors``: ``rule-test_r9_...``,
                          ``counterexample-...``)
========================  ==============================================================

How a scenario is played: a built-in scenario (``agents --list``; the list
``agents/scenarios.json``) is its committed *base* stream with its *deviations* applied
(``model.deviations``), after serve maps the base onto the client's tools, and its
clean twin is the mapped base itself (``played``).  ``--deviation NAME`` keeps only the
named deviations of the scenario's own (``Scenario.only``: one cause at a time).  The
served stream is presented with every field of a valid OpenAI stream but those its
deviations leave absent (``present.py``); any other stream is played as given, since
serve cannot know which of its gaps are the point, and its clean twin is ``canonical``
of it (``twin.py``).

Only decoded events are kept: an event the front end could not decode has no JSON to
serve (``cases.corpus_cases`` drops them for the same reason).  Nothing here maps tools
or judges; ``load_scenario`` raises ``ScenarioError`` (a message saying what exists)
for a name that finds nothing, so the CLI can exit 2 before it binds a port.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from responses_oracle.model.deviations import DEVIATIONS, Applied, apply

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
    it is presented; ``twin``: serve plays its clean twin instead (``twin.py``).  A
    built-in scenario's ``events`` are its base and ``deviations`` what serve applies
    to them (``built``); any other stream's events are played as given."""

    name: str
    events: tuple[Event, ...]
    presentation: Presentation = AS_GIVEN
    twin: bool = False
    deviations: tuple[Applied, ...] = ()
    built: bool = False

    def clean_twin(self) -> Scenario:
        """The same scenario, to be played as its clean twin (``serve --twin``)."""
        return replace(self, twin=True)

    def only(self, names: Sequence[str]) -> Scenario:
        """The scenario with only the named deviations of its own (``--deviation``);
        ``ScenarioError`` for a name it does not carry."""
        own = [d.name for d in self.deviations]
        unknown = [n for n in names if n not in own]
        if not self.built or unknown:
            raise ScenarioError(
                f"{self.name} has no deviation {', '.join(unknown or names)} "
                f"(its own: {', '.join(own) or 'none'})"
            )
        kept = tuple(d for d in self.deviations if d.name in names)
        return replace(self, deviations=kept, presentation=_presentation(kept))

    def played(self, events: Sequence[Event] | None = None) -> list[Event]:
        """What serve plays of ``events`` (default the scenario's own; serve passes them
        mapped onto the client's tools): a built-in scenario's base with its deviations
        applied, or its base for the twin; any other stream as given."""
        chosen = list(self.events if events is None else events)
        if self.built and not self.twin:
            return apply(chosen, self.deviations)
        return chosen


def _presentation(deviations: Sequence[Applied]) -> Presentation:
    """A built-in scenario's presentation: every field but those its deviations leave
    absent (``DeviationSpec.absent``)."""
    return Presentation(
        tuple(
            Deviation(DEVIATIONS[d.name].what, DEVIATIONS[d.name].absent) for d in deviations
        )
    )


def load_scenario(spec: str) -> Scenario:
    """The scenario ``spec`` names (see the module's table): a built-in scenario's base
    and deviations, or a stream played as given; ``ScenarioError`` if none."""
    from responses_oracle.agents.scenario_list import declared

    builtin = declared(spec)
    if builtin is None:
        return Scenario(spec, find_stream(spec))
    base = builtin.base_path()
    if not base.is_file():
        raise ScenarioError(f"{spec}: its base {base} is missing (tools/scenario_bases.py)")
    return Scenario(
        spec,
        _file_events(base),
        _presentation(builtin.deviations),
        deviations=builtin.deviations,
        built=True,
    )


def find_stream(spec: str) -> tuple[Event, ...]:
    """The events of the stream ``spec`` names, as given (the module's table, but for
    the agents list's names)."""
    return _find(spec).events


def _find(spec: str) -> Scenario:
    """The stream ``spec`` names, as given."""
    if seed := _SEED.fullmatch(spec):
        from responses_oracle.streamgen.cases import generated_case

        case = generated_case(int(seed.group(1)), int(seed.group(2)))
        return Scenario(spec, tuple(case.stream.events))
    if _QUIRK.fullmatch(spec):
        found = sorted(QUIRKS.glob(f"{spec}-*.jsonl"))
        if not found:
            known = ", ".join(path.name[:3] for path in sorted(QUIRKS.glob("q*.jsonl")))
            raise ScenarioError(f"no quirk {spec} in {QUIRKS} (known: {known or 'none'})")
        return Scenario(spec, _file_events(found[0]))
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
    from responses_oracle.differential.conformance_vectors import Vector

    if path.suffix != ".json":
        return None
    try:
        return tuple(Vector.from_json(json.loads(path.read_text(encoding="utf-8"))).events)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
        return None  # not a vector: read as a stream file, which says what is wrong


def _corpus_events(name: str) -> tuple[Event, ...] | None:
    from responses_oracle.differential.conformance_vectors import corpus_vectors

    for vector in corpus_vectors():
        if vector.name == name:
            return tuple(vector.events)
    return None
