"""pytest configuration; the shared helpers live in ``helpers.py`` (on the test path)."""

from __future__ import annotations

from helpers import FIXTURES, REPO

__all__ = ["FIXTURES", "REPO"]
