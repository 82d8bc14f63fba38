"""pytest configuration; the shared helpers live in ``helpers.py`` (on the test path)."""

from __future__ import annotations

from helpers import REPO, shared_fixtures_dir

__all__ = ["REPO", "shared_fixtures_dir"]
