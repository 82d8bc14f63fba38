"""``serve``: a loopback Responses endpoint that plays scenarios to a real client and
judges the client's next request (``responses-oracle serve``; needs the ``serve`` extra).

>>> from responses_oracle.serve import load_scenario, running
>>> with running([load_scenario("q05")], out="run/") as server:   # doctest: +SKIP
...     client = openai.OpenAI(base_url=server.base_url, api_key="x")
...     ...                                   # two turns, as the application does
...     verdicts = server.verdicts()
>>> verdicts.ok                                                    # doctest: +SKIP

Modules, in the order a request meets them: ``scenarios`` (what a SCENARIO names),
``server`` (the aiohttp application, ``running`` and ``serve_forever``), ``mapping``
(calls onto the offered tools, harmless arguments), ``judge`` (the verdicts),
``verdicts`` (their names and rules, declared once), ``request_schema`` (the published
request schema the ``api_valid`` verdict applies), ``gateway`` (a gateway between
client and ``serve``), ``twin`` (a scenario's clean twin: ``load_scenario(name).clean_twin()``
plays the oracle's answer re-emitted as a valid stream).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .gateway import GatewayVerdict as GatewayVerdict
    from .judge import CallVerdicts as CallVerdicts
    from .judge import ScenarioVerdicts as ScenarioVerdicts
    from .judge import Served as Served
    from .judge import Verdict as Verdict
    from .judge import Verdicts as Verdicts
    from .mapping import MappingError as MappingError
    from .mapping import NotApplicable as NotApplicable
    from .mapping import Override as Override
    from .scenarios import Scenario as Scenario
    from .scenarios import ScenarioError as ScenarioError
    from .scenarios import load_scenario as load_scenario
    from .server import LOOPBACK as LOOPBACK
    from .server import Framing as Framing
    from .server import Running as Running
    from .server import ServeError as ServeError
    from .server import Timeout as Timeout
    from .server import running as running
    from .server import serve_forever as serve_forever
    from .verdicts import VERDICTS as VERDICTS
    from .verdicts import VerdictName as VerdictName

# The names are imported on first use (PEP 562), as the package root does: the server
# needs the ``serve`` extra (aiohttp), and a plain install imports ``serve.shapes`` (the
# differential harness reads the stream shapes) without it.
_HOMES: Final = {
    "GatewayVerdict": "gateway",
    "CallVerdicts": "judge",
    "ScenarioVerdicts": "judge",
    "Served": "judge",
    "Verdict": "judge",
    "Verdicts": "judge",
    "MappingError": "mapping",
    "NotApplicable": "mapping",
    "Override": "mapping",
    "Scenario": "scenarios",
    "ScenarioError": "scenarios",
    "load_scenario": "scenarios",
    "LOOPBACK": "server",
    "Framing": "server",
    "Running": "server",
    "ServeError": "server",
    "Timeout": "server",
    "running": "server",
    "serve_forever": "server",
    "VERDICTS": "verdicts",
    "VerdictName": "verdicts",
}
"""Each public name and the submodule it lives in."""


def __getattr__(name: str) -> Any:
    """Import a public name from its submodule on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "LOOPBACK",
    "VERDICTS",
    "CallVerdicts",
    "Framing",
    "GatewayVerdict",
    "MappingError",
    "NotApplicable",
    "Override",
    "Running",
    "Scenario",
    "ScenarioError",
    "ScenarioVerdicts",
    "ServeError",
    "Served",
    "Timeout",
    "Verdict",
    "VerdictName",
    "Verdicts",
    "load_scenario",
    "running",
    "serve_forever",
]
