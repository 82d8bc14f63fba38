"""Packaging hook: the wheel holds the library and the CLI, not the checkout's tooling.

Everything else about the build is declared in ``pyproject.toml``.  ``CHECKOUT_ONLY``
packages -- the docs site generator, run as ``python -m responses_oracle.docsite`` from
a checkout -- are left out of wheels, and kept in editable installs (``pip install -e
.``), where the checkout's tests and generators import them.
"""

from __future__ import annotations

from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

CHECKOUT_ONLY = ("responses_oracle.docsite",)
"""Packages built into editable installs only."""


class LibraryOnly(build_py):
    """``build_py`` without the ``CHECKOUT_ONLY`` packages, unless the build is editable."""

    def find_package_modules(self, package: str, package_dir: str) -> list[Any]:
        if package in CHECKOUT_ONLY and not getattr(self, "editable_mode", False):
            return []
        modules: list[Any] = super().find_package_modules(package, package_dir)
        return modules


setup(cmdclass={"build_py": LibraryOnly})
