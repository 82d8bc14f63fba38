"""The site builds with warnings as errors, and everything it loads comes from itself."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

import yaml  # type: ignore[import-untyped]
from helpers import REPO

ASSETS = REPO / "docs" / "assets"


class _Resources(HTMLParser):
    """Collects the URLs a page *loads* (scripts, styles, images, frames), not its links."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in {"script", "img", "iframe", "audio", "video", "source", "embed"}:
            self.urls.append(found.get("src") or "")
        elif tag == "link" and (found.get("rel") or "") not in {"canonical", "alternate"}:
            self.urls.append(found.get("href") or "")


def _loaded_urls(page: Path) -> list[str]:
    parser = _Resources()
    parser.feed(page.read_text(encoding="utf-8"))
    return [url for url in parser.urls if url]


def test_every_built_page_loads_only_files_of_the_site(built_site: Path) -> None:
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        remote = [url for url in _loaded_urls(page) if re.match(r"(https?:)?//", url)]
        assert remote == [], (page.relative_to(built_site), remote)
    # The theme's stylesheets name no web font host either (font: false).
    for stylesheet in built_site.glob("assets/stylesheets/*.css"):
        assert "fonts.googleapis" not in stylesheet.read_text(encoding="utf-8")


def test_the_built_site_serves_its_own_mermaid(built_site: Path) -> None:
    lifecycle = (built_site / "model" / "lifecycle" / "index.html").read_text(encoding="utf-8")
    assert '<pre class="mermaid">' in lifecycle
    assert '<script src="../../assets/mermaid.min.js">' in lifecycle
    served = built_site / "assets" / "mermaid.min.js"
    assert served.read_bytes() == (ASSETS / "mermaid.min.js").read_bytes()


def test_mermaid_is_the_version_and_file_its_readme_records() -> None:
    readme = (ASSETS / "README").read_text(encoding="utf-8")
    recorded = re.search(r"sha256 ([0-9a-f]{64})", readme)
    assert recorded is not None
    digest = hashlib.sha256((ASSETS / "mermaid.min.js").read_bytes()).hexdigest()
    assert digest == recorded.group(1)
    version = re.search(r"Mermaid (\d+\.\d+\.\d+)", readme)
    assert version is not None and f"mermaid@{version.group(1)}" in readme
    assert "MIT" in (ASSETS / "mermaid.LICENSE").read_text(encoding="utf-8")


def test_the_configuration_keeps_the_site_offline_and_strict() -> None:
    # mkdocs.yml uses !!python/name tags; read it with a loader that ignores them.
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert config["strict"] is True
    assert config["theme"]["font"] is False
    # Served from the site itself: Mermaid, and the Real agents matrix's filters.
    assert config["extra_javascript"] == ["assets/mermaid.min.js", "assets/real-agents.js"]
    assert all((REPO / "docs" / name).is_file() for name in config["extra_javascript"])
    validation = config["validation"]
    assert {validation[key] for key in ("omitted_files", "unrecognized_links", "anchors")} == {
        "warn"
    }
