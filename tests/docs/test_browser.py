"""The built site in a real browser: pages load cleanly, offline, and draw their diagrams.

Debian's Chromium runs headless and is driven over the Chrome DevTools Protocol (a
WebSocket, ``websocket-client``).  The site is served from a temporary build on
127.0.0.1 by ``http.server`` in a thread.  For each main page the test asserts:

- no console error, no uncaught exception, no failed load (``Log`` and ``Runtime``);
- no request to any other host than the local server (``Network``): no CDN, no fonts;
- every Mermaid block became an ``<svg>`` that is a diagram, not Mermaid's error
  picture.  Material for MkDocs draws each diagram into a *closed* shadow root, which
  page scripts cannot see; the DevTools DOM (``pierce``) can.

The Real agents page's matrix is looked at 1400 pixels wide: every client column can
be scrolled into view past the sticky scenario column, each cell has its outcome's colour,
the filters (proxy, outcome, a verdict that broke) leave what they should, and one click
on a cell opens its timeline.

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


MATRIX_WIDTH = 1400
"""The window width the Real agents matrix is looked at in (issue #40: 4 of about 35
client columns could be seen at this width)."""


def _matrix(browser: DevTools, script: str) -> Any:
    """``script`` run with ``box`` (the matrix's scrolling box) and ``grid`` (its table)
    in scope."""
    return browser.evaluate(
        "(() => { const box = document.querySelector('.ra-scroll');"
        " const grid = box.querySelector('table.ra-grid'); " + script + " })()"
    )


def _filter(browser: DevTools, name: str, value: str) -> None:
    """Set one of the matrix's filters as a person would (its input event)."""
    _matrix(browser, f"const field = document.querySelector('form.ra-filters')"
                     f".elements[{name!r}]; field.value = {value!r};"
                     " field.dispatchEvent(new Event('input', {bubbles: true}));")


def test_the_real_agents_matrix_shows_every_client_column_in_colour_at_1400_pixels(
    built_site: Path, site_url: str, browser: DevTools, tmp_path: Path
) -> None:
    from responses_oracle.agents.report import cell_from_json, marks, outcome
    from responses_oracle.docsite import docs_dir, real_agents

    record = real_agents.load(docs_dir())
    columns = real_agents.columns(record["clients"])
    browser.call("Emulation.setDeviceMetricsOverride", width=MATRIX_WIDTH, height=1000,
                 deviceScaleFactor=1, mobile=False)
    try:
        browser.events.clear()
        browser.call("Page.navigate", url=site_url + "real-agents/")
        deadline = time.monotonic() + WAIT_SECONDS
        while not browser.evaluate("!!document.querySelector('.ra-shown')?.textContent"):
            assert time.monotonic() < deadline, "the matrix's script did not run"
            time.sleep(0.1)
        _matrix(browser, "box.scrollIntoView();")
        shot = browser.call("Page.captureScreenshot", format="png")
        (tmp_path / "real-agents.png").write_bytes(base64.b64decode(shot["data"]))

        # A column per client, and one behind the proxy where recorded, in order.
        heads = _matrix(browser, "return Array.from(grid.tHead.rows[0].cells).slice(1)"
                                 ".map(th => th.textContent);")
        assert heads == [column.name for column, _, _ in columns]

        # Every column can be scrolled into the box, clear of the sticky scenario column
        # (both offsets are the table's: the corner's own offset is not scrolled past;
        # the box's scroll range is whole pixels, its columns' widths are not: 2 px slack).
        box = _matrix(browser, "return {overflow: getComputedStyle(box).overflowX,"
                               " scrolls: box.scrollWidth > box.clientWidth};")
        assert box["overflow"] == "auto"
        for n in range(1, len(heads) + 1):
            seen = _matrix(browser, f"const th = grid.tHead.rows[0].cells[{n}];"
                           " const corner = grid.tHead.rows[0].cells[0];"
                           " box.scrollLeft = th.offsetLeft - corner.offsetLeft"
                           " - corner.offsetWidth;"
                           " const r = th.getBoundingClientRect(),"
                           " c = corner.getBoundingClientRect(),"
                           " right = box.getBoundingClientRect().left + box.clientWidth;"
                           " return r.width > 0 && r.left >= c.right - 1 && r.right <= right + 2;")
            assert seen, heads[n - 1]

        # Scrolled right and down, the header row and the scenario column stay in place.
        corners = ("return [grid.tHead.rows[0].cells[0].getBoundingClientRect().top,"
                   " grid.tBodies[0].rows[3].cells[0].getBoundingClientRect().left];")
        before = _matrix(browser, "box.scrollLeft = 0; box.scrollTop = 0; " + corners)
        after = _matrix(browser, "box.scrollLeft = box.scrollWidth; box.scrollTop = 300; "
                        + corners)
        assert after == before
        shot = browser.call("Page.captureScreenshot", format="png")
        (tmp_path / "real-agents-scrolled.png").write_bytes(base64.b64decode(shot["data"]))

        # Each cell is coloured by the report's outcome: one colour per outcome, none bare.
        drawn = _matrix(browser, "return Array.from(grid.querySelectorAll('td[data-o]'),"
                                 " td => [td.dataset.o, getComputedStyle(td).backgroundColor"
                                 " + ' ' + getComputedStyle(td).backgroundImage,"
                                 " td.classList.contains('ra-nv')]);")
        # A cell behind the proxy is compared with the client's direct cell (report.outcome).
        expected = [
            outcome(cell_from_json(x), cell_from_json(dict(direct)) if direct else None)
            for _, cells, client in columns for x in cells
            for direct in [real_agents._direct(client, x) if client is not None else None]
        ]
        assert sorted(o for o, _, _ in drawn) == sorted(expected)
        colours: dict[str, set[str]] = {}
        for found, colour, silent in drawn:
            assert colour != "rgba(0, 0, 0, 0) none", found
            if not silent:
                colours.setdefault(found, set()).add(colour)
        assert all(len(shades) == 1 for shades in colours.values()), colours
        assert len({next(iter(shades)) for shades in colours.values()}) == len(colours)

        # The filters: behind the proxy only, then the broken cells only.
        _filter(browser, "proxy", "proxy")
        shown = _matrix(browser, "return Array.from(grid.tHead.rows[0].cells).slice(1)"
                                 ".filter(th => !th.hidden).map(th => th.textContent);")
        assert shown == [column.name for column, _, _ in columns if column.via_proxy]
        _filter(browser, "proxy", "")
        _filter(browser, "outcome", "broken")
        lit = _matrix(browser, "return Array.from(grid.querySelectorAll('tr:not([hidden])"
                               " td[data-o]:not(.ra-dim)'), td => td.dataset.o);")
        assert lit and set(lit) == {"broken"} and len(lit) == expected.count("broken")
        _filter(browser, "outcome", "")
        # A verdict that broke, counted or not: the cells whose executed mark is a FAIL.
        _filter(browser, "verdict", "executed")
        lit = _matrix(browser, "return grid.querySelectorAll('tr:not([hidden])"
                               " td[data-o]:not(.ra-dim)').length;")
        assert lit == sum(marks(cell_from_json(x))["executed"] == "FAIL"
                          for _, cells, _ in columns for x in cells) > 0
        _filter(browser, "verdict", "")

        # One click on a cell opens the timeline of its scenario.
        target = _matrix(browser, "const td = grid.tBodies[0].rows[1].cells[1];"
                                  " td.scrollIntoView({block: 'center', inline: 'center'});"
                                  " const r = td.getBoundingClientRect();"
                                  " const x = r.left + r.width / 2, y = r.top + r.height / 2;"
                                  " return {x: x, y: y, href: td.querySelector('a').href,"
                                  " hit: document.elementFromPoint(x, y)?.closest('td') === td};")
        assert target["href"].startswith(site_url + "agents/timelines/")
        assert target["hit"], target
        deadline = time.monotonic() + WAIT_SECONDS
        for kind in ("mousePressed", "mouseReleased"):
            browser.call("Input.dispatchMouseEvent", type=kind, x=target["x"], y=target["y"],
                         button="left", clickCount=1)
        while browser.evaluate("location.href") != target["href"] or not browser.evaluate(
                "!!document.querySelector('.axis text')"):
            assert time.monotonic() < deadline, "the click opened no timeline"
            time.sleep(0.1)
        assert problems(browser.events, site_url) == []
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
