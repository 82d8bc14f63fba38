"""Packaging hook: the wheel holds the library and the CLI, not the checkout's tooling.

Everything else about the build is declared in ``pyproject.toml``.  The
``CHECKOUT_ONLY`` packages and modules -- the documentation generators, run from a
checkout as ``python -m responses_oracle.docsite``, ``python -m
responses_oracle.model.diagrams`` and ``python -m responses_oracle.proofs.readme`` --
are left out of wheels, and kept in editable installs (``pip install -e .``), where the
checkout's tests and generators import them.
(``model.codegen`` stays: the proofs build reducers from policies' tables with it.)
"""

from __future__ import annotations

from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

CHECKOUT_ONLY = (
    "responses_oracle.docsite",
    "responses_oracle.model.diagrams",
    "responses_oracle.proofs.readme",
)
"""Packages and modules built into editable installs only."""


class LibraryOnly(build_py):
    """``build_py`` without the ``CHECKOUT_ONLY`` code, unless the build is editable."""

    def find_package_modules(self, package: str, package_dir: str) -> list[Any]:
        modules: list[Any] = super().find_package_modules(package, package_dir)
        if getattr(self, "editable_mode", False):
            return modules
        # Each entry is (package, module, file); a package goes with all its modules.
        return [
            entry
            for entry in modules
            if package not in CHECKOUT_ONLY and f"{package}.{entry[1]}" not in CHECKOUT_ONLY
        ]


setup(cmdclass={"build_py": LibraryOnly})
