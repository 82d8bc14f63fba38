"""Make the timeline screenshot the docs show: ``python tests/timeline/screenshot.py FILE OUT.png``.

Not a test: it draws ``FILE``'s timeline (``responses-oracle explain FILE --html``),
opens it in headless Chromium (``tests/browser.py``) at 1280 pixels wide, clicks the
event named by ``--click`` (a mark's number on the page, default: the first diagnostic),
and writes a PNG of the page.  docs/assets/README says which capture
docs/assets/timeline.png was made from and with which command.
"""

from __future__ import annotations

import argparse
import base64
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import chromium, serve, wait_until_loaded
from responses_oracle.timeline import render_html
from responses_oracle.wire import read_wire_events


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--title", help="the page title (default: the file's name)")
    parser.add_argument("--click", type=int, help="the mark to click (default: first diagnostic)")
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    page = render_html(read_wire_events(args.file), title=args.title or args.file.name)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "page.html").write_text(page, encoding="utf-8")
        with serve(Path(folder)) as url, chromium() as browser:
            browser.call(
                "Emulation.setDeviceMetricsOverride",
                width=1280,
                height=args.height,
                deviceScaleFactor=1,
                mobile=False,
            )
            browser.call("Page.navigate", url=url + "page.html")
            wait_until_loaded(browser)
            target = (
                f'g[data-e="{args.click}"]' if args.click is not None else "tr[data-e]"
            )
            browser.evaluate(f"document.querySelector('{target}').dispatchEvent("
                             "new MouseEvent('click', {bubbles: true}))")
            browser.evaluate("window.scrollTo(0, 0)")
            shot = browser.call("Page.captureScreenshot", format="png")
    args.out.write_bytes(base64.b64decode(shot["data"]))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
