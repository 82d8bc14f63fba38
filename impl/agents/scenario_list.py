"""The scenarios ``responses-oracle agents`` runs by default: a named list, as data.

``scenarios.json`` (beside this module) is the list.  Each entry is a scenario as
``model/deviations.py`` defines one -- a complete ``base`` stream plus the
``deviations`` serve applies to it -- with its short ``name`` (the column the reports
show), its ``kind`` (quirk, stream, capture, vector, vector-file: where it came from),
the ``source`` its base was cut or emitted from (``tools/scenario_bases.py``), ``what``
it checks and ``by`` whom it is sent.  A base is named relative to
``bundled.BUNDLED`` (``scenarios/bases/q05.jsonl``).

``counted`` is the field the reports read: False for a *robustness row* -- a scenario
carrying a deviation no provider is shown to send, or one the oracle answers with an
error-severity diagnostic -- whose broken verdicts are shown but never counted as harm
(``robustness`` says why).  serve accepts every name of this list; anything else a
user passes (``--scenario FILE``) is handed to serve as given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from responses_oracle.bundled import BUNDLED
from responses_oracle.model.deviations import Applied, counted, uncounted_reason

LIST: Final = Path(__file__).resolve().parent / "scenarios.json"
"""The built-in scenario list."""


@dataclass(frozen=True)
class Scenario:
    """One scenario: its short name, its base and deviations, what it checks."""

    name: str
    spec: str = ""
    """What serve is given (``argument``): the name for a built-in scenario, else what
    the user passed."""
    kind: str = "given"
    what: str = ""
    by: str = ""
    """Who sends this stream (the provider, gateway or failure; evidence in brackets)."""
    base: str = ""
    """Its base stream, a path under ``bundled.BUNDLED`` ("" for a given stream)."""
    source: str = ""
    """What its base was cut or emitted from (``tools/scenario_bases.py``)."""
    deviations: tuple[Applied, ...] = ()
    """Its deviations from the base (``model.deviations``), in the order applied."""

    @classmethod
    def from_json(cls, entry: dict[str, Any]) -> Scenario:
        """One entry of ``scenarios.json``."""
        return cls(
            name=entry["name"], spec=entry["name"], kind=entry["kind"], what=entry["what"],
            by=entry.get("by", ""), base=entry["base"], source=entry.get("source", ""),
            deviations=tuple(Applied.from_json(d) for d in entry.get("deviations", ())),
        )

    @property
    def counted(self) -> bool:
        """Whether a client's broken verdict here counts as harm (module docstring)."""
        return counted(self.deviations)

    @property
    def robustness(self) -> str:
        """Why this is a robustness row, never counted ("" when it counts)."""
        return uncounted_reason(self.deviations)

    def base_path(self) -> Path:
        """Its base stream file."""
        return BUNDLED / self.base

    def argument(self) -> str:
        """What serve is given: the name of a built-in scenario (serve knows each one),
        else the spec as the user gave it."""
        if self.base or declared(self.name) is not None:
            return self.name
        return self.spec or self.name


def builtin() -> list[Scenario]:
    """The built-in list, in order."""
    data = json.loads(LIST.read_text(encoding="utf-8"))
    return [Scenario.from_json(entry) for entry in data["scenarios"]]


def declared(spec: str) -> Scenario | None:
    """The built-in scenario named ``spec``, or None."""
    return next((s for s in builtin() if s.name == spec), None)


def resolve(names: list[str]) -> list[Scenario]:
    """The scenarios named: a name of the list, or anything serve accepts."""
    known = {s.name: s for s in builtin()}
    return [known.get(name) or Scenario(name, name) for name in names]


def scenario_events(scenario: Scenario) -> list[dict[str, Any]] | None:
    """The events serve plays for ``scenario`` before tool mapping (its base with its
    deviations applied, as serve loads it), or None if it cannot load them."""
    from responses_oracle.serve.scenarios import ScenarioError, load_scenario

    try:
        return [dict(event) for event in load_scenario(scenario.argument()).played()]
    except ScenarioError:
        return None
