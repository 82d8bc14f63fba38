"""Where the generated pages go: the ``docs/`` folder of the source tree.

Its own module so that the package's submodules can find the folder without importing
the package itself, whose ``__init__`` imports the pages (an import circle otherwise).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path


def docs_dir() -> Path:
    """The ``docs/`` folder of the source tree (links resolved)."""
    spec = importlib.util.find_spec("responses_oracle.docsite")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent.parent.parent / "docs"
