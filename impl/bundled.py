"""The streams shipped in the package, found in every way the package is installed.

The package's data is five folders, each a package of its own,
``responses_oracle.data.<folder>``, which ``pyproject.toml``'s ``package-dir`` maps to
a folder of the checkout: ``examples`` (``examples/``), ``quirks``
(``fixtures/quirks/``), ``scenarios`` (``fixtures/scenarios/``), ``captures`` (the
recorded streams of ``fixtures/captures/`` the built-in list plays, with their
licences) and ``vectors`` (the peers page's conformance vectors,
``docs/vectors/cases/``).  ``BUNDLED / "examples/parallel-calls.sse"`` is that file
wherever the package is installed.

Theory of operation
-------------------
A wheel, and a strict editable install (``--config-settings editable_mode=strict``),
put the data in the folder ``data/`` beside the package's code, where
``importlib.resources`` finds it.  Two ways of running from a checkout have no such
folder: a plain editable install (``pip install -e .``), whose import finder maps the
data packages but cannot import their parent ``responses_oracle.data`` (a namespace
inside a mapped package), and a checkout laid out as the package on ``PYTHONPATH``.
Both run the checkout's own code, so the data is the checkout's folders, read from the
``package-dir`` of its ``pyproject.toml`` -- the one place the mapping is written.
"""

from __future__ import annotations

import functools
from pathlib import Path, PurePosixPath
from typing import Final

DATA_PACKAGE: Final = "responses_oracle.data"
"""The package whose subpackages are the data folders."""


class DataFolders:
    """The package's data, as one folder: ``BUNDLED / "quirks"`` is the quirks' folder,
    ``BUNDLED / "examples/parallel-calls.sse"`` an example (a path that may not exist:
    callers ask)."""

    def __truediv__(self, relative: str | PurePosixPath) -> Path:
        first, *rest = PurePosixPath(relative).parts
        return self.folder(first).joinpath(*rest)

    def folder(self, name: str) -> Path:
        """The data folder ``name`` (``examples``, ``quirks``...): the installed one, or
        else the checkout's, or else where an installed one would be."""
        shipped = _installed() / name
        if shipped.is_dir():
            return shipped
        checkout = _checkout_folders().get(name)
        return checkout if checkout is not None else shipped

    def __str__(self) -> str:
        installed = _installed()
        if installed.is_dir():
            return str(installed)
        folders = _checkout_folders()
        return ", ".join(f"{name}: {path}" for name, path in folders.items()) or str(installed)


BUNDLED: Final = DataFolders()
"""The streams shipped in the package (the module's docstring names its folders)."""


def _installed() -> Path:
    """The ``data/`` folder beside the code of a wheel or a strict editable install."""
    from importlib import resources

    return Path(str(resources.files("responses_oracle"))) / "data"


@functools.cache
def _checkout_folders() -> dict[str, Path]:
    """The data folders of the checkout this code runs from (by ``package-dir``), or
    none when it runs from no checkout."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    if project.get("project", {}).get("name") != "responses-oracle":
        return {}
    mapping = project.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    prefix = DATA_PACKAGE + "."
    return {
        package.removeprefix(prefix): root / folder
        for package, folder in mapping.items()
        if package.startswith(prefix)
    }


def bundled(name: str) -> Path | None:
    """The file or folder of the package's data that the relative path ``name`` names
    when nothing here does (``examples/parallel-calls.sse``), else None."""
    given = Path(name)
    if given.is_absolute() or given.exists() or not given.parts:
        return None
    shipped = BUNDLED / given.as_posix()
    return shipped if shipped.exists() else None
