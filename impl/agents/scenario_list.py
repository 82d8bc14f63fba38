"""The scenarios ``responses-oracle agents`` runs by default: a named list, as data.

``scenarios.json`` (beside this module) is the list: each entry a short ``name`` (the
column the reports show), the ``spec`` serve is given (a quirk id such as ``q05``, a
stream file, a recorded capture or a conformance vector file of the package's data, a
vector name of the bundled corpus), its ``kind``, ``what`` it checks, ``by`` whom it
is sent, and its ``deviations`` from a valid OpenAI stream (``serve`` presents every
other field as the API sends it: ``serve.present``).  A file is named relative to
``bundled.BUNDLED`` (``scenarios/s01-one-call.jsonl``, ``captures/...``,
``vectors/peers-...json``) and handed to serve as an absolute path; anything else a
user passes (``--scenario FILE``) is handed to serve as given, so every scenario serve
accepts is accepted here, and serve accepts every name of this list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from responses_oracle.bundled import BUNDLED

LIST: Final = Path(__file__).resolve().parent / "scenarios.json"
"""The built-in scenario list."""

FILE_KINDS: Final = ("stream", "capture", "vector-file")
"""The kinds whose ``spec`` is a file under ``bundled.BUNDLED``: a scenario
stream, a recorded capture of a real provider, a conformance vector file."""


@dataclass(frozen=True)
class Scenario:
    """One scenario: its short name, what serve is given, its kind and what it checks."""

    name: str
    spec: str
    kind: str
    what: str
    by: str = ""
    """Who sends this stream (the provider, gateway or failure; evidence in brackets)."""
    deviations: tuple[dict[str, Any], ...] = ()
    """Its deviations from a valid OpenAI stream (``serve.present.Deviation``)."""

    def argument(self) -> str:
        """What serve is given: a file of the package's data as an absolute path, else
        the spec."""
        if self.kind in FILE_KINDS:
            return str(BUNDLED / self.spec)
        return self.spec


def builtin() -> list[Scenario]:
    """The built-in list, in order."""
    data = json.loads(LIST.read_text(encoding="utf-8"))
    return [
        Scenario(**{**entry, "deviations": tuple(entry.get("deviations", ()))})
        for entry in data["scenarios"]
    ]


def declared(spec: str) -> Scenario | None:
    """The built-in scenario ``spec`` is (its name, its spec, or the file its
    ``argument`` names), whose deviations serve presents it with."""
    given = Path(spec)
    for scenario in builtin():
        if spec in (scenario.name, scenario.spec):
            return scenario
        own = Path(scenario.argument())
        listed_file = scenario.kind in FILE_KINDS and own.is_file()
        if listed_file and given.is_file() and given.samefile(own):
            return scenario
    return None


def resolve(names: list[str]) -> list[Scenario]:
    """The scenarios named: a name or spec of the list, or anything serve accepts."""
    known = {key: s for s in builtin() for key in (s.name, s.spec)}
    return [known.get(name) or Scenario(name, name, "given", "") for name in names]


def scenario_events(scenario: Scenario) -> list[dict[str, Any]] | None:
    """The events serve plays for ``scenario`` (as serve loads them), or None if it
    cannot load them."""
    from responses_oracle.serve.scenarios import ScenarioError, load_scenario

    try:
        return [dict(event) for event in load_scenario(scenario.argument()).events]
    except ScenarioError:
        return None
