"""Headless Chromium for the tests that look at pages (import as ``from browser import ...``).

Debian's Chromium runs headless and is driven over the Chrome DevTools Protocol (a
WebSocket, ``websocket-client``): ``chromium()`` starts one with a fresh profile and
yields a ``DevTools`` client attached to one page, with the ``Page``, ``Runtime``,
``Log``, ``Network`` and ``DOM`` domains enabled so that their events are kept.
``serve(folder)`` serves a folder on 127.0.0.1 for as long as its block runs;
``problems(events, origin)`` lists what a clean page must not show: console errors,
uncaught exceptions, failed loads and requests to any other host.  ``.ci/run`` installs
Chromium; ``available()`` skips a test without it (and fails it in CI).
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"

WAIT_SECONDS = 30.0
"""How long a page may take to load and draw before a test gives up (not a timing test)."""


class DevTools:
    """A minimal Chrome DevTools Protocol client over one WebSocket, one page target."""

    def __init__(self, url: str) -> None:
        import websocket

        self._socket = websocket.create_connection(url, timeout=WAIT_SECONDS)
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the page once attached) and return its result.

        Events that arrive meanwhile are kept in ``events``.
        """
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if hasattr(self, "_session"):
            message["sessionId"] = self._session
        self._socket.send(json.dumps(message))
        while True:
            reply = json.loads(self._socket.recv())
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable values)."""
        reply = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def close(self) -> None:
        self._socket.close()


def available() -> None:
    """Skip unless Chromium and websocket-client are installed; in CI (``CI=true``),
    where the browser tests must run, fail instead."""
    missing = None
    if not Path(CHROMIUM).is_file():
        missing = f"{CHROMIUM} not installed (Debian package chromium)"
    elif importlib.util.find_spec("websocket") is None:
        missing = "websocket-client is not installed (extra 'test')"
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)


LAUNCHES = 2
"""Starts of Chromium tried before a test fails: a loaded machine has been seen to leave
one start without a DevTools port for ``WAIT_SECONDS`` (every test of a module then
errors at setup), and a second start, with a fresh profile, opened it at once."""


def _start(profile: Path) -> tuple[subprocess.Popen[bytes], str | None]:
    """Chromium on ``profile``, and its browser target's WebSocket URL (None when it
    opened no DevTools port in time; it is then stopped)."""
    with open(profile.parent / f"{profile.name}.log", "wb") as log:
        process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                "--window-size=1280,900",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    # Chromium writes the port it chose, and the browser target's path, to this file.
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + WAIT_SECONDS
    while not (port_file.is_file() and len(port_file.read_text().split()) >= 2):
        if process.poll() is not None or time.monotonic() >= deadline:
            _stop(process)
            return process, None
        time.sleep(0.05)
    port, path = port_file.read_text().split()[:2]
    return process, f"ws://127.0.0.1:{port}{path}"


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def chromium() -> Iterator[DevTools]:
    """Headless Chromium with a fresh profile, and a DevTools client attached to a page."""
    folder = Path(tempfile.mkdtemp(prefix="chromium-"))
    client: DevTools | None = None
    process: subprocess.Popen[bytes] | None = None
    try:
        for launch in range(LAUNCHES):
            process, url = _start(folder / f"profile-{launch}")
            if url is not None:
                break
        else:
            log = (folder / f"profile-{LAUNCHES - 1}.log").read_text(errors="replace")
            code = "running" if process is None else process.returncode
            raise AssertionError(
                f"chromium opened no DevTools port in {LAUNCHES} starts of {WAIT_SECONDS:g} s "
                f"(last exit status {code}); its stderr ends:\n{log[-2000:]}"
            )
        client = DevTools(url)
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            client.call(f"{domain}.enable")
        yield client
    finally:
        if client is not None:
            client.close()
        if process is not None:
            _stop(process)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """``folder`` served on 127.0.0.1 while the block runs; yields its URL (ends in /)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def problems(events: list[dict[str, Any]], origin: str) -> list[str]:
    """Console errors, exceptions, failed loads and requests to other hosts."""
    found: list[str] = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(f"exception: {params['exceptionDetails'].get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in {"error", "assert"}:
            found.append(f"console.{params['type']}: {json.dumps(params.get('args'))[:300]}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not (url.startswith(origin) or url.startswith("data:")):
                found.append(f"request to another host: {url}")
        elif method == "Network.loadingFailed":
            found.append(f"failed load: {params.get('errorText')}")
    return found


def wait_until_loaded(browser: DevTools) -> None:
    """Wait for the page's ``load`` (its scripts have run)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while browser.evaluate("document.readyState") != "complete":
        assert time.monotonic() < deadline, "the page did not finish loading"
        time.sleep(0.05)
