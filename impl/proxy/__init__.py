"""``proxy``: a loopback Responses endpoint that forwards to an upstream and streams back
its answer, repaired where the oracle finds it wrong (``responses-oracle proxy``; needs the
``serve`` extra).

>>> from responses_oracle.proxy import ProxyConfig, running
>>> with running(ProxyConfig("https://api.openai.com/v1")) as proxy:   # doctest: +SKIP
...     client = openai.OpenAI(base_url=proxy.base_url)
...     ...                                  # the application, unchanged

Modules: ``relay`` (one upstream body in, the canonical stream's bytes out, sans-IO),
``endpoint`` (the aiohttp application, ``running`` and ``proxy_forever``) and
``relay_refinement`` (the check that what a client gets behind the relay is the upstream's
answer, every difference named).
"""

from __future__ import annotations

from .endpoint import (
    REPAIRS_COMMENT,
    REPAIRS_HEADER,
    ProxyConfig,
    Running,
    proxy_forever,
    repair_count,
    running,
)
from .relay import Relay

__all__ = [
    "REPAIRS_COMMENT",
    "REPAIRS_HEADER",
    "ProxyConfig",
    "Relay",
    "Running",
    "proxy_forever",
    "repair_count",
    "running",
]
