"""The built site in a real browser: pages load cleanly, offline, and draw their diagrams.

Debian's Chromium runs headless and is driven over the Chrome DevTools Protocol (a
WebSocket, ``websocket-client``).  The site is served from a temporary build on
127.0.0.1 by ``http.server`` in a thread.  For each main page the test asserts:

- no console error, no uncaught exception, no failed load (``Log`` and ``Runtime``);
- no request to any other host than the local server (``Network``): no CDN, no fonts;
- every Mermaid block became an ``<svg>`` that is a diagram, not Mermaid's error
  picture.  Material for MkDocs draws each diagram into a *closed* shadow root, which
  page scripts cannot see; the DevTools DOM (``pierce``) can.

A screenshot of each page is kept in the test's temporary folder for a person to look
at.  ``.ci/run`` installs Chromium; without it the test is skipped, except in CI, where
it must run.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"

MAIN_PAGES: dict[str, int] = {
    "": 0,
    "model/lifecycle/": 1,
    "model/slots/": 1,
    "invariants/": 0,
    "rules/": 0,
    "rules/R1/": 0,
    "peers/": 0,
    "usage/library/": 0,
    "building/": 1,
}
"""Page → the number of Mermaid diagrams it must draw (also checked against its HTML)."""

WAIT_SECONDS = 30.0
"""How long a page may take to load and draw before the test gives up (not a timing test)."""


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

    def close(self) -> None:
        self._socket.close()


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site, served on 127.0.0.1 for the duration of the module."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(require: Callable[[bool, str], None]) -> Iterator[DevTools]:
    """Headless Chromium with a fresh profile, and a DevTools client attached to a page."""
    require(Path(CHROMIUM).is_file(), f"{CHROMIUM} not installed (Debian package chromium)")
    try:
        import websocket  # noqa: F401
    except ImportError:
        require(False, "websocket-client is not installed (extra 'test')")
    profile = Path(tempfile.mkdtemp(prefix="chromium-profile-"))
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
        stderr=subprocess.DEVNULL,
    )
    client: DevTools | None = None
    try:
        # Chromium writes the port it chose, and the browser target's path, to this file.
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT_SECONDS
        while not (port_file.is_file() and len(port_file.read_text().split()) >= 2):
            assert process.poll() is None, "chromium exited at start"
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.05)
        port, path = port_file.read_text().split()[:2]
        client = DevTools(f"ws://127.0.0.1:{port}{path}")
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            client.call(f"{domain}.enable")
        yield client
    finally:
        if client is not None:
            client.close()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


def _diagrams(node: dict[str, Any], in_shadow: bool = False) -> list[str]:
    """The ``aria-roledescription`` of every ``<svg>`` inside a shadow root under ``node``."""
    found: list[str] = []
    if node.get("nodeName") == "svg" and in_shadow:
        attributes = node.get("attributes", [])
        named = dict(zip(attributes[::2], attributes[1::2], strict=True))
        found.append(named.get("aria-roledescription", ""))
    for child in node.get("children", []):
        found += _diagrams(child, in_shadow)
    for root in node.get("shadowRoots", []):
        found += _diagrams(root, True)
    return found


def _problems(events: list[dict[str, Any]], origin: str) -> list[str]:
    """Console errors, exceptions, failed loads and requests to other hosts."""
    problems: list[str] = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            problems.append(f"exception: {params['exceptionDetails'].get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in {"error", "assert"}:
            problems.append(f"console.{params['type']}: {json.dumps(params.get('args'))[:300]}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            problems.append(f"log: {params['entry'].get('text')} {params['entry'].get('url')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not (url.startswith(origin) or url.startswith("data:")):
                problems.append(f"request to another host: {url}")
        elif method == "Network.loadingFailed":
            problems.append(f"failed load: {params.get('errorText')}")
    return problems


@pytest.mark.parametrize("page", list(MAIN_PAGES))
def test_page_loads_cleanly_offline_and_draws_its_diagrams(
    page: str, built_site: Path, site_url: str, browser: DevTools, tmp_path: Path
) -> None:
    html = (built_site / page / "index.html").read_text(encoding="utf-8")
    expected = html.count('<pre class="mermaid">')
    assert expected == MAIN_PAGES[page]
    browser.events.clear()
    browser.call("Page.navigate", url=site_url + page)
    deadline = time.monotonic() + WAIT_SECONDS
    drawn: list[str] = []
    while True:
        ready = browser.call("Runtime.evaluate", expression="document.readyState")
        if ready["result"].get("value") == "complete":
            # Reading the whole DOM is costly on a long page: only when diagrams are due.
            if expected:
                drawn = _diagrams(browser.call("DOM.getDocument", depth=-1, pierce=True)["root"])
            if len(drawn) >= expected:
                break
        assert time.monotonic() < deadline, f"{page}: drew {len(drawn)} of {expected} diagrams"
        time.sleep(0.1)
    shot = browser.call("Page.captureScreenshot", format="png")
    (tmp_path / "page.png").write_bytes(base64.b64decode(shot["data"]))
    assert len(drawn) == expected
    assert all(kind and kind != "error" for kind in drawn), drawn
    assert _problems(browser.events, site_url) == []
