"""pytest configuration; the shared helpers live in ``helpers.py`` (on the test path)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES, REPO, pip

__all__ = ["FIXTURES", "REPO", "wheel"]

_COPIED = ("build", "dist", "site", ".git", ".venv*", "*.egg-info", "__pycache__", ".*cache")
"""What the wheel is not built from (build output, environments, caches)."""


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built once per session from a copy of it (``pip
    wheel``: the isolated build a user's ``pip install .`` makes)."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*_COPIED))
    pip(sys.executable, "wheel", "--no-deps", "-w", str(root / "dist"), str(source))
    [built] = (root / "dist").glob("*.whl")
    return built
