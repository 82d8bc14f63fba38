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

**The same stream** (``same_stream``) is one property, computed here once: two scenarios
of the list serve a client the same stream when what serve plays for them to one
request -- the scenario and its clean twin, mapped onto that request's tools and
presented as serve presents them -- is equal once every id is renamed by its order of
first appearance and serve's clock is set aside.  Item ids, call ids, the names and
arguments a base was written with are all replaced on the way (the mapping gives every
call a tool of the request and harmless arguments), so the bases may differ in them and
still be one stream: ``q07``, ``r7_snapshot_fills_an_empty_done`` and
``peers-arguments-only-in-snapshot`` are one; a client that breaks on one breaks on the
same bytes in the others, and the reports count that as one bug (``report.bugs``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
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


SAME_STREAM_TOOLS: Final[tuple[dict[str, Any], ...]] = (
    # Its one property required: the mapping fills required properties only, so a tool
    # without one would map every argument text of a call to the same `{}`.
    {"type": "function", "name": "echo", "parameters": {
        "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
    {"type": "function", "name": "ping", "parameters": {"type": "object", "properties": {}}},
    {"type": "custom", "name": "note"},
)
"""The tools of the request ``same_stream`` plays each scenario to: a function of one
string, one of no parameter and a custom tool, the three kinds the list's calls map onto
(the agents' drivers offer the same three)."""

RENAMED: Final = frozenset({"id", "item_id", "call_id", "response_id",
                            "previous_response_id"})
"""The fields whose values are ids: ``same_stream`` renames them by first appearance."""

CLOCK: Final = frozenset({"created_at", "completed_at"})
"""The fields serve may fill from its clock: ``same_stream`` sets them aside."""


def _played(name: str) -> list[list[dict[str, Any]]] | None:
    """What serve plays for scenario ``name`` to ``SAME_STREAM_TOOLS``' request: the
    scenario and its clean twin, mapped and presented as serve presents them; None when
    the request cannot be served (no tool takes its calls) or serve cannot load it."""
    from responses_oracle.serve.mapping import MappingError, map_scenario, offered_tools
    from responses_oracle.serve.present import Presentation, present
    from responses_oracle.serve.scenarios import ScenarioError, load_scenario
    from responses_oracle.serve.twin import played

    request = {"model": "gpt-5.1", "stream": True, "tools": list(SAME_STREAM_TOOLS),
               "input": "Use a tool."}
    try:
        loaded = load_scenario(name)
        mapped = map_scenario(loaded.events, offered_tools(request))
    except (ScenarioError, MappingError):
        return None
    return [
        present(list(played(served, mapped).events), request, how)
        for served, how in ((loaded, loaded.presentation),
                            (loaded.clean_twin(), Presentation()))
    ]


def _digest(name: str, streams: list[list[dict[str, Any]]] | None) -> str:
    """The digest of ``streams`` once every id is renamed by its order of first
    appearance and serve's clock is set aside; of the name alone when there are none."""
    if streams is None:
        return hashlib.sha256(json.dumps(["own", name]).encode()).hexdigest()[:12]
    names: dict[str, str] = {}

    def renamed(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            # Sorted, so ids are named in an order no key order of a base decides.
            return {k: renamed(value[k], k) for k in sorted(value)}
        if isinstance(value, list):
            return [renamed(v) for v in value]
        if key in RENAMED and isinstance(value, str):
            return names.setdefault(value, f"id{len(names)}")
        return None if key in CLOCK else value

    shown = json.dumps(renamed(streams), sort_keys=True)
    return hashlib.sha256(shown.encode()).hexdigest()[:12]


@cache
def same_stream(name: str) -> str:
    """The digest of the stream scenario ``name`` serves (module docstring): equal for
    two scenarios exactly when they serve a client the same stream, and clean twin, up to
    ids.  A scenario the request cannot be served (no tool takes its calls) or that
    serve cannot load is a stream of its own: its digest is of its name."""
    return _digest(name, _played(name))


@cache
def proxied_stream(name: str) -> str:
    """The digest of the stream ``responses-oracle proxy`` passes on for scenario
    ``name`` and its clean twin (the proxy's ``Canonicalizer`` run over what serve plays,
    as ``same_stream`` plays it), up to ids and serve's clock.  A cell recorded behind the
    proxy carries it (``real_agents.PROXIED``): when a change to the proxy changes what a
    client behind it gets, the cell no longer matches and the page says it is older."""
    from responses_oracle import canonical

    streams = _played(name)
    return _digest(name, None if streams is None else [canonical(s) for s in streams])
