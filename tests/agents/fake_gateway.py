"""A gateway process for the runner's tests: the pass-through proxy of the serve tests.

``python fake_gateway.py UPSTREAM PORT [through|without-terminal|failing]`` listens on
127.0.0.1:PORT and forwards ``/v1/responses`` to ``UPSTREAM`` (serve), passing the
answer through, losing its terminal event on the way (``tests/serve/test_gateway.py``
has both), or failing on it after serve answered (the proxy then answers 500, as the
Portkey gateway did with a broken HTTP adapter), until it is sent SIGTERM: what a
gateway profile's ``upstream`` command does.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serve.test_gateway import gateway, without_terminal


def failing(body: bytes) -> bytes:
    """The answer came, and the gateway fails on it (aiohttp answers 500)."""
    raise TypeError("immutable")


REWRITES = {"through": lambda body: body, "without-terminal": without_terminal,
            "failing": failing}
"""What the gateway does to the answer, by name."""

if __name__ == "__main__":
    upstream, port, mode = sys.argv[1], int(sys.argv[2]), (sys.argv[3:] or ["through"])[0]
    ending = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, ending)  # the proxy's thread too: waited below
    with gateway(upstream, REWRITES[mode], port=port):
        signal.sigwait(ending)
