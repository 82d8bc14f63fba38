"""The built site in a real browser: pages load cleanly, offline, and draw their diagrams.

Debian's Chromium runs headless and is driven over the Chrome DevTools Protocol (a
WebSocket, ``websocket-client``).  The site is served from a temporary build on
127.0.0.1 by ``http.server`` in a thread.  For each main page the test asserts:

- no console error, no uncaught exception, no failed load (``Log`` and ``Runtime``);
- no request to any other host than the local server (``Network``): no CDN, no fonts;
- every Mermaid block became an ``<svg>`` that is a diagram, not Mermaid's error
  picture.  Material for MkDocs draws each diagram into a *closed* shadow root, which
  page scripts cannot see; the DevTools DOM (``pierce``) can.

Each rule page's embedded timeline (``docs/timelines/``) must be drawn, with a lane per
item of its example, and link to rule pages that exist.  A screenshot of each main page
is kept in the test's temporary folder for a person to look at.  ``.ci/run`` installs
Chromium; without it the test is skipped, except in CI, where it must run.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import WAIT_SECONDS, DevTools, available, chromium, problems, serve
from responses_oracle.docsite.examples import run
from responses_oracle.docsite.rule_texts import RULES, Rule

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


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site, served on 127.0.0.1 for the duration of the module."""
    with serve(built_site) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[DevTools]:
    """Headless Chromium with a fresh profile, and a DevTools client attached to a page."""
    available()
    with chromium() as client:
        yield client


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
    assert problems(browser.events, site_url) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.key)
def test_a_rule_page_embeds_the_timeline_of_its_worked_example(
    rule: Rule, built_site: Path, site_url: str, browser: DevTools
) -> None:
    browser.events.clear()
    browser.call("Page.navigate", url=f"{site_url}rules/{rule.key}/")
    frame = "document.querySelector('iframe.timeline')?.contentDocument"
    deadline = time.monotonic() + WAIT_SECONDS
    while not browser.evaluate(f"!!{frame}?.querySelector('.axis text')"):
        assert time.monotonic() < deadline, f"{rule.key}: the timeline was not drawn"
        time.sleep(0.1)
    outcome = run(rule.example)
    drawn = browser.evaluate(
        f"({{lanes: {frame}.querySelectorAll('.lane[data-lane]').length,"
        f" responses: {frame}.querySelectorAll('section.response').length,"
        f" dots: {frame}.querySelectorAll('line.dg').length,"
        f" links: Array.from({frame}.querySelectorAll('a.rule'), a => a.href)}})"
    )
    assert drawn["responses"] == len(outcome.responses)
    assert drawn["lanes"] == sum(len(r.result.items) for r in outcome.responses)
    assert drawn["dots"] == len({(d.event_index, id(r)) for r in outcome.responses
                                 for d in r.result.diagnostics})
    for link in drawn["links"]:
        assert link.startswith(site_url + "rules/R")
        assert (built_site / link.removeprefix(site_url) / "index.html").is_file(), link
    assert problems(browser.events, site_url) == []
