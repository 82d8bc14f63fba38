"""One concept, one name: no two modules of the package share a basename, and
``candidate`` is the parser under test only.

A reader who meets ``profiles`` or ``verdicts`` in an import should not have to ask
which of two concepts it is.  The package's modules are listed from what
``pyproject.toml`` installs (its packages and the folder each one maps), so a new
package is listed the day it is declared.
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from helpers import REPO

SHARED = frozenset({"__init__", "__main__"})
"""The basenames Python gives by role, not by concept: a package's module and its command."""


def package_modules() -> list[str]:
    """Every module the package installs, dotted, from ``pyproject.toml``'s packages."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    folders: dict[str, str] = setuptools["package-dir"]
    modules = []
    for package in setuptools["packages"]:
        # A package without its own entry lives under its nearest mapped parent.
        parent = max((p for p in folders if package == p or package.startswith(p + ".")), key=len)
        folder = Path(folders[parent], *package[len(parent) :].split(".")[1:])
        modules += [f"{package}.{path.stem}" for path in sorted((REPO / folder).glob("*.py"))]
    return modules


def collisions(modules: Iterable[str]) -> dict[str, list[str]]:
    """Basename → the modules sharing it, for every basename two or more modules share."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for module in modules:
        by_name[module.rsplit(".", 1)[1]].append(module)
    return {name: found for name, found in by_name.items() if len(found) > 1 and name not in SHARED}


def test_no_two_modules_share_a_basename() -> None:
    assert collisions(package_modules()) == {}


def test_the_listing_holds_every_package_and_their_modules() -> None:
    modules = package_modules()
    # The code packages and the folders they map (impl/, model/, proofs/) are all read.
    for module in (
        "responses_oracle.reducer",
        "responses_oracle.core.step",
        "responses_oracle.testing.candidate",
        "responses_oracle.model.payload",
        "responses_oracle.proofs.inventory",
        "responses_oracle.docsite.__main__",
    ):
        assert module in modules
    assert len(modules) == len(set(modules))
    # Both exempt names are in use, so neither exemption is dead.
    names = {module.rsplit(".", 1)[1] for module in modules}
    assert names >= SHARED


def test_a_shared_basename_is_reported_with_its_modules() -> None:
    # The check's own mutant: two concepts under one name must be caught, the exempt
    # names must not.
    found = collisions(
        [
            "responses_oracle.testing.profiles",
            "responses_oracle.agents.profiles",
            "responses_oracle.audit.__init__",
            "responses_oracle.serve.__init__",
            "responses_oracle.core.step",
        ]
    )
    assert found == {
        "profiles": ["responses_oracle.testing.profiles", "responses_oracle.agents.profiles"]
    }


PARSER_FREE = ("model", "proofs", "impl/core")
"""The model, its proofs and the reducer's core: no parser under test is theirs to
name, so ``candidate`` there would be another concept (R7's value is an *offer*, the
entries R6's keys propose are *proposed entries*)."""

PARSER_NAMING = frozenset({"model/divergence.py"})
"""The model's one module about a candidate: the classes of what it answered."""


def candidate_mentions(root: Path) -> list[str]:
    """``file:line`` of each ``candidate`` under ``PARSER_FREE``, outside ``PARSER_NAMING``."""
    word = re.compile("candidate", re.IGNORECASE)
    return [
        f"{path.relative_to(root).as_posix()}:{number}"
        for folder in PARSER_FREE
        for path in sorted((root / folder).rglob("*.py"))
        if path.relative_to(root).as_posix() not in PARSER_NAMING
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if word.search(line)
    ]


def test_candidate_names_the_parser_under_test_only() -> None:
    assert candidate_mentions(REPO) == []
    # The exempt module does name it, so the exemption is not dead.
    assert "candidate" in (REPO / "model" / "divergence.py").read_text(encoding="utf-8")


def test_a_candidate_in_the_model_is_reported(tmp_path: Path) -> None:
    # The check's own mutant: R7's old word in the model is found, with its line.
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "payload.py").write_text(
        '"""R7."""\nclass CandidateRelation: ...\n', encoding="utf-8"
    )
    assert candidate_mentions(tmp_path) == ["model/payload.py:2"]
