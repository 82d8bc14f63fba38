"""Timeline pages in a real browser: drawn, interactive, clean, and inert to hostile streams.

Debian's Chromium (``tests/browser.py``) opens pages generated into a temporary folder
and served on 127.0.0.1.  Before any page script runs, an init script replaces
``alert``, ``confirm``, ``prompt``, ``print`` and ``open`` with recorders and listens
for Content Security Policy violations, so that code a stream managed to inject would
leave a trace even where it cannot show a dialog.  Pointer and keyboard input go
through the DevTools ``Input`` domain, as a person's would.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import DevTools, available, chromium, problems, serve, wait_until_loaded
from responses_oracle.docsite.wire_builders import added, args_delta, call, completed, created, done
from responses_oracle.timeline import render_html, shared_assets
from responses_oracle.wire import read_wire_events

from .streams import AMBIGUOUS_EVENT, CAPTURE, HOSTILE_SSE, MARKUP, SCRIPT, URL

HOOKS = """
window.__ran = [];
["alert", "confirm", "prompt", "print", "open"].forEach(function (name) {
  window[name] = function () { window.__ran.push(name); };
});
document.addEventListener("securitypolicyviolation", function (event) {
  window.__ran.push("csp " + event.violatedDirective + " " + event.blockedURI);
});
"""
"""Recorders for what injected code would call, installed before the page's own script."""

LONG_DELTAS = 20_000
"""Argument deltas of the long page (the 100,000-event page is measured by the benchmark)."""


def _long_stream() -> list[dict[str, Any]]:
    events = [created("resp_long"), added(0, call("fc_1", "call_1"))]
    events += [args_delta(0, "fc_1", "x") for _ in range(LONG_DELTAS)]
    events += [done(0, call("fc_1", "call_1", arguments="x" * LONG_DELTAS, status="completed"))]
    return [*events, completed("resp_long")]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The generated pages, served: capture.html, hostile.html, long.html, and
    linked/capture.html and linked/hostile.html beside the assets they share."""
    folder = tmp_path_factory.mktemp("timelines")
    (folder / "capture.html").write_text(
        render_html(CAPTURE, title="capture", rule_url="rules/{rule}/"), encoding="utf-8"
    )
    (folder / "hostile.html").write_text(
        render_html(read_wire_events(HOSTILE_SSE), title=f"hostile {SCRIPT}"), encoding="utf-8"
    )
    (folder / "long.html").write_text(render_html(_long_stream(), title="long"), encoding="utf-8")
    # Pages that share one copy of the script and style, in a folder of their own.
    (folder / "linked").mkdir()
    for name, text in shared_assets().items():
        (folder / "linked" / name).write_text(text, encoding="utf-8")
    (folder / "linked" / "capture.html").write_text(
        render_html(CAPTURE, title="capture", rule_url="../rules/{rule}/", assets=""),
        encoding="utf-8",
    )
    (folder / "linked" / "hostile.html").write_text(
        render_html(read_wire_events(HOSTILE_SSE), title=f"hostile {SCRIPT}", assets=""),
        encoding="utf-8",
    )
    with serve(folder) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[DevTools]:
    """Headless Chromium with the recorders installed in every page it opens."""
    available()
    with chromium() as client:
        client.call("Page.addScriptToEvaluateOnNewDocument", source=HOOKS)
        yield client


def _open(browser: DevTools, url: str) -> None:
    browser.events.clear()
    browser.call("Page.navigate", url=url)
    wait_until_loaded(browser)


def _centre(browser: DevTools, selector: str) -> tuple[float, float]:
    box = browser.evaluate(
        f"(function () {{ var e = document.querySelector({json.dumps(selector)});"
        " e.scrollIntoView({block: 'center', inline: 'center'});"
        " var r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
        " })()"
    )
    return box[0], box[1]


def _click(browser: DevTools, selector: str) -> None:
    x, y = _centre(browser, selector)
    browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def _hover(browser: DevTools, selector: str) -> None:
    x, y = _centre(browser, selector)
    browser.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)


def _key(browser: DevTools, key: str) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", type=kind, key=key, code=key)


def _panel(browser: DevTools) -> str:
    text: str = browser.evaluate("document.getElementById('panel').textContent")
    return text


def _clean(browser: DevTools, origin: str) -> None:
    assert problems(browser.events, origin) == []
    assert browser.evaluate("window.__ran") == []
    assert not [e for e in browser.events if e.get("method") == "Page.javascriptDialogOpening"]


def test_a_capture_draws_its_lanes_states_slots_and_diagnostics(
    pages: str, browser: DevTools, tmp_path: Path
) -> None:
    _open(browser, pages + "capture.html")
    drawn = browser.evaluate(
        "({lanes: document.querySelectorAll('.lane[data-lane]').length,"
        " shared: document.querySelectorAll('.slot.shared').length,"
        " states: Array.from(new Set(Array.from(document.querySelectorAll('rect.seg'),"
        "   function (r) { return r.classList[1]; }))).sort(),"
        " dots: Array.from(document.querySelectorAll('line.dg'), function (d) {"
        "   return d.classList[1]; }),"
        " ticks: document.querySelectorAll('.axis text').length,"
        " width: document.querySelector('svg.chart').getBoundingClientRect().width})"
    )
    assert drawn["lanes"] == 3 and drawn["shared"] == 2
    assert drawn["states"] == ["s-added", "s-completed", "s-done", "s-payload_done", "s-streaming"]
    assert drawn["dots"] == ["sev-warning", "sev-error", "sev-info"]
    assert drawn["ticks"] >= 2  # the axis is the script's: it ran
    # Segments are filled with their state's colour, the error dot with red.
    fills = browser.evaluate(
        "[getComputedStyle(document.querySelector('rect.s-streaming')).fill,"
        " getComputedStyle(document.querySelector('line.dg.sev-error')).stroke]"
    )
    assert fills == ["rgb(107, 174, 214)", "rgb(214, 39, 40)"]

    _click(browser, f'g[data-e="{AMBIGUOUS_EVENT}"] .hit')
    assert browser.evaluate("document.querySelectorAll('.cursor.on').length") == 1
    panel = _panel(browser)
    assert f"#{AMBIGUOUS_EVENT}" in panel and "ambiguous_route" in panel
    assert "route shared/absent -> reject" in panel
    links = browser.evaluate("Array.from(document.querySelectorAll('#panel a.rule'), a => a.href)")
    assert links and all(link == pages + "rules/R5/" for link in links)
    _hover(browser, 'g[data-e="3"] .hit')
    assert "ambiguous_route" in _panel(browser)  # a click pins the panel
    _key(browser, "ArrowRight")
    panel = _panel(browser)
    assert panel.startswith(f"#{AMBIGUOUS_EVENT + 1}") and "added → streaming" in panel
    assert '"item_id": "fc_time"' in panel
    _key(browser, "Escape")
    _hover(browser, 'g[data-e="9"] .hit')
    panel = _panel(browser)
    assert panel.startswith("#9") and "slot_reused" in panel and "absent → added" in panel

    before = drawn["width"]
    _click(browser, 'button[data-zoom="in"]')
    after = browser.evaluate("document.querySelector('svg.chart').getBoundingClientRect().width")
    assert after > before * 1.5
    shot = browser.call("Page.captureScreenshot", format="png")
    (tmp_path / "capture.png").write_bytes(base64.b64decode(shot["data"]))
    _clean(browser, pages)


def test_a_hostile_stream_runs_nothing_and_injects_nothing(
    pages: str, browser: DevTools
) -> None:
    _open(browser, pages + "hostile.html")
    assert browser.evaluate("window.__ran") == []
    count = browser.evaluate("document.querySelectorAll('g[data-e]').length")
    assert count == 9  # one mark per event
    for key in range(count):
        _click(browser, f'g[data-e="{key}"] .hit')
        assert _panel(browser).startswith(("#", "end of input"))
    _key(browser, "Escape")
    for key in range(count):
        _hover(browser, f'g[data-e="{key}"] .hit')
    _click(browser, 'g[data-e="7"] .hit')  # the bytes that are not JSON
    panel = _panel(browser)
    assert "malformed_event" in panel and SCRIPT in panel and MARKUP in panel
    dom = browser.evaluate(
        "({scripts: document.scripts.length,"
        " foreign: document.querySelectorAll('img, iframe, object, embed, form, #pwned').length,"
        " handlers: Array.from(document.querySelectorAll('*')).filter(function (e) {"
        "   return Array.from(e.attributes).some(function (a) { return /^on/i.test(a.name); });"
        " }).length,"
        " js: Array.from(document.querySelectorAll('[href]')).filter(function (e) {"
        "   return /^\\s*javascript:/i.test(e.getAttribute('href')); }).length,"
        " title: document.title})"
    )
    assert dom == {
        "scripts": 2,
        "foreign": 0,
        "handlers": 0,
        "js": 0,
        "title": f"hostile {SCRIPT}",
    }
    assert URL in browser.evaluate("document.body.textContent")
    _clean(browser, pages)


def test_a_long_stream_opens_with_its_deltas_folded(pages: str, browser: DevTools) -> None:
    _open(browser, pages + "long.html")
    marks = browser.evaluate("document.querySelectorAll('g[data-e]').length")
    assert marks == 5  # created, added, one run of deltas, done, completed
    _click(browser, "rect.run")
    panel = _panel(browser)
    assert f"({LONG_DELTAS} events folded)" in panel
    assert f"{LONG_DELTAS} characters in {LONG_DELTAS} events" in panel
    _clean(browser, pages)


@pytest.mark.parametrize("page", ["capture.html", "hostile.html"])
def test_a_page_sharing_its_script_and_style_draws_as_an_inline_one(
    pages: str, browser: DevTools, page: str
) -> None:
    seen = {}
    for url in (pages + page, pages + "linked/" + page):
        _open(browser, url)
        seen[url] = browser.evaluate(
            "({ticks: document.querySelectorAll('.axis text').length,"
            " fill: getComputedStyle(document.querySelector('rect.seg')).fill,"
            " inline: document.querySelectorAll('script:not([src]):not([type])').length,"
            " linked: document.querySelectorAll('script[src], link[rel=stylesheet]').length})"
        )
        _hover(browser, 'g[data-e="1"] .hit')
        seen[url]["panel"] = _panel(browser)
        _clean(browser, pages)  # no CSP violation, no failed load, nothing injected ran
    inline, shared = seen.values()
    assert shared["ticks"] >= 2  # the axis is the linked script's: it ran
    assert shared["linked"] == 2 and shared["inline"] == 0
    assert inline["linked"] == 0 and inline["inline"] == 1
    assert {k: v for k, v in shared.items() if k not in ("inline", "linked")} == {
        k: v for k, v in inline.items() if k not in ("inline", "linked")}
