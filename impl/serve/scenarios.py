"""What ``serve`` plays: a scenario is one stream of decoded events, found by a name.

A ``SCENARIO`` argument is a stream argument, read as every command reads one
(``stream_names.resolve``: a path, ``seed7/12``, a quirk ``q05``, a name of the agents
list, a bundled path such as ``examples/parallel-calls.sse``, a vector name).

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

from dataclasses import dataclass, replace
from typing import Any, Final

from ..bundled import BUNDLED
from ..stream_names import StreamNameError, resolved
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
    """The scenario ``spec`` names (``stream_names.resolve``), presented with its declared
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
    try:
        return Scenario(spec, resolved(spec).events())
    except StreamNameError as error:
        raise ScenarioError(str(error)) from None
