"""Fixtures of the docs tests: the site built once per session, into a temporary folder.

``mkdocs build --strict`` turns every warning (a broken link or anchor, a page missing
from the nav, an unknown nav target) into a failure; the build never writes into the
repository.  The docs extras are part of the ``test`` extra, so in CI (``CI=true``) a
missing mkdocs is a failure; elsewhere the tests that need the site are skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import REPO

Requirement = Callable[[bool, str], None]


def _require(condition: bool, message: str) -> None:
    if condition:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def require() -> Requirement:
    """``require(condition, why)``: skip unless ``condition``; in CI, where it must run, fail."""
    return _require


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, require: Requirement) -> Path:
    """The site, built with ``mkdocs build --strict`` into a temporary folder."""
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
    except ImportError:
        require(False, "mkdocs and mkdocs-material are not installed (extra 'docs')")
    site = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return site
