"""Shared test helpers (import as `from helpers import ...`): where the captured streams live.

The real captures are read from the ``shared/fixtures`` folder beside the repository,
never copied into it.  In CI (``CI=true``) a missing folder is a failure — the tests
that read it must not pass by skipping; elsewhere it is a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
"""The repository root."""


def shared_fixtures_dir() -> Path:
    """The ``peers`` fixture folder, or skip (fail in CI) when it is not there."""
    folder = REPO.parent / "shared" / "fixtures" / "peers"
    if not folder.is_dir():
        message = f"captured fixtures not found at {folder}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return folder
