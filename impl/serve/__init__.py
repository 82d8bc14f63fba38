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
``verdicts`` (their names and rules, declared once), ``schema`` (the published
request schema the ``api_valid`` verdict applies), ``gateway`` (a gateway between
client and ``serve``), ``twin`` (a scenario's clean twin: ``load_scenario(name).clean_twin()``
plays the oracle's answer re-emitted as a valid stream).
"""

from __future__ import annotations

from .gateway import GatewayVerdict
from .judge import CallVerdicts, ScenarioVerdicts, Served, Verdict, Verdicts
from .mapping import MappingError, NotApplicable, Override
from .scenarios import Scenario, ScenarioError, load_scenario
from .server import LOOPBACK, Framing, Running, ServeError, Timeout, running, serve_forever
from .verdicts import VERDICTS, VerdictName

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
