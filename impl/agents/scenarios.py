"""The scenarios ``responses-oracle agents`` runs by default: a named list, as data.

``scenarios.json`` (beside this module) is the list: each entry a short ``name`` (the
column the reports show), the ``spec`` serve is given (a quirk id such as ``q05``, a
stream file of the checkout, a vector name of the bundled corpus, or a conformance
vector file of ``docs/vectors/cases/``, the peers page's scenarios), its ``kind``,
``what`` it checks, ``by`` whom it is sent, and its ``deviations`` from a valid OpenAI
stream (``serve`` presents every other field as the API sends it: ``serve.present``).
A stream file is named relative to the checkout and handed to serve as an absolute
path; anything else a user passes (``--scenario FILE``) is handed to serve as given, so
every scenario serve accepts is accepted here.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

LIST: Final = Path(__file__).resolve().parent / "scenarios.json"
"""The built-in scenario list."""

CHECKOUT: Final = Path(__file__).resolve().parent.parent.parent
"""The checkout the stream files of the list are in (``fixtures/scenarios/``)."""


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
        """What serve is given: a checkout file as an absolute path, a conformance
        vector file as a stream file of its events (``vector_stream``), else the spec."""
        path = CHECKOUT / self.spec
        if self.kind == "stream" and path.is_file():
            return str(path)
        if self.kind == "vector-file" and path.is_file():
            return str(vector_stream(path))
        return self.spec


def vector_stream(vector: Path) -> Path:
    """A conformance vector file's events as a JSON Lines stream serve reads, written
    once into the temp folder (``responses-oracle-scenarios/NAME.jsonl``)."""
    events = json.loads(vector.read_text(encoding="utf-8"))["events"]
    text = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)
    target = Path(tempfile.gettempdir()) / "responses-oracle-scenarios" / f"{vector.stem}.jsonl"
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return target


def builtin() -> list[Scenario]:
    """The built-in list, in order."""
    data = json.loads(LIST.read_text(encoding="utf-8"))
    return [
        Scenario(**{**entry, "deviations": tuple(entry.get("deviations", ()))})
        for entry in data["scenarios"]
    ]


def declared(spec: str) -> Scenario | None:
    """The built-in scenario ``spec`` is (its name, its spec, or the file or vector
    stream its ``argument`` names), whose deviations serve presents it with."""
    for scenario in builtin():
        if spec in (scenario.name, scenario.spec):
            return scenario
        if scenario.kind in ("stream", "vector-file"):
            given, own = Path(spec), Path(scenario.argument())
            if given.is_file() and given.resolve() == own.resolve():
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
