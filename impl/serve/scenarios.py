"""What ``serve`` plays: a scenario is one stream of decoded events, found by a name.

A ``SCENARIO`` argument is a stream argument, read as every command reads one
(``stream_names.resolve``: a path, ``seed7/12``, a quirk ``q05``, a name of the agents
list, a bundled path such as ``examples/parallel-calls.sse``, a vector name).

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

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from responses_oracle.model.deviations import DEVIATIONS, Applied, apply

from ..bundled import BUNDLED
from ..stream_names import Named, StreamNameError, resolved
from .present import AS_GIVEN, Deviation, Presentation

Event = dict[str, Any]
"""One decoded wire event."""

QUIRKS: Final = BUNDLED / "quirks"
"""The quirk streams (``qNN-*.jsonl``), each with its evidence in ``README.md``."""


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
    """The scenario ``spec`` names (``stream_names.resolve``): a built-in scenario's base
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
        _base_events(spec, base),
        _presentation(builtin.deviations),
        deviations=builtin.deviations,
        built=True,
    )


def _base_events(spec: str, base: Path) -> tuple[Event, ...]:
    """The decoded events of a built-in scenario's base file."""
    try:
        return Named(spec, path=base).events()
    except StreamNameError as error:
        raise ScenarioError(str(error)) from None


def find_stream(spec: str) -> tuple[Event, ...]:
    """The events of the stream ``spec`` names, as given (the module's table, but for
    the agents list's names)."""
    return _find(spec).events


def _find(spec: str) -> Scenario:
    """The stream ``spec`` names, as given."""
    try:
        return Scenario(spec, resolved(spec).events())
    except StreamNameError as error:
        raise ScenarioError(str(error)) from None
