"""The streams shipped in the package, found by the path a checkout has them at.

``serve`` and ``audit`` accept a path of the package's data (``examples/parallel-calls.sse``)
where no such file exists here, so the docs' examples run the same in a checkout and
after ``pip install``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Final

# A wheel is installed unpacked, so the package's data is a folder on disk.
BUNDLED: Final = Path(str(resources.files("responses_oracle") / "data"))
"""The streams shipped in the package, one folder each, kept in the checkout where
``pyproject.toml``'s ``package-dir`` says: ``examples/`` (``examples/``), ``quirks/``
(``fixtures/quirks/``), ``scenarios/`` (``fixtures/scenarios/``), ``captures/`` (the
recorded streams of ``fixtures/captures/`` the built-in list plays, with their licences)
and ``vectors/`` (the peers page's conformance vectors, ``docs/vectors/cases/``)."""


def bundled(name: str) -> Path | None:
    """The file or folder of the package's data that the relative path ``name`` names
    when nothing here does (``examples/parallel-calls.sse``), else None."""
    given = Path(name)
    if given.is_absolute() or given.exists():
        return None
    shipped = BUNDLED / given
    return shipped if shipped.exists() else None
