"""The rooms of the testing side say what they hold, and the public toolkit's names load.

Stream generation (``streamgen``), the differential harness (``differential``) and the
public toolkit (``testing``) each list their stages in their ``__init__`` docstring; a
module added without a line there is a room that no longer says what it holds.  The
toolkit hands on names from the other two rooms: each must load from where it lives.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
import responses_oracle.testing as toolkit
from helpers import REPO

ROOMS = ("streamgen", "differential", "testing")
"""The folders of ``impl/`` split out of the old ``testing`` package."""


def unnamed_modules(folder: Path) -> list[str]:
    """The modules of ``folder`` its ``__init__`` docstring does not name as ````module````."""
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
    return [
        path.stem
        for path in sorted(folder.glob("*.py"))
        if path.stem != "__init__" and f"``{path.stem}``" not in docstring
    ]


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_names_every_module_it_holds(room: str) -> None:
    assert unnamed_modules(REPO / "impl" / room) == []


def test_a_module_left_out_of_the_docstring_is_reported(tmp_path: Path) -> None:
    # The check's own mutant: a new module with no line in the room's docstring.
    (tmp_path / "__init__.py").write_text('"""1. ``first`` then ``second``."""\n', "utf-8")
    for name in ("first", "second", "third"):
        (tmp_path / f"{name}.py").write_text("", "utf-8")
    assert unnamed_modules(tmp_path) == ["third"]


@pytest.mark.parametrize("name", toolkit.__all__)
def test_every_public_toolkit_name_loads_from_its_home(name: str) -> None:
    home = importlib.import_module(toolkit._HOMES[name])
    assert getattr(toolkit, name) is getattr(home, name)
    assert home.__name__.startswith(("responses_oracle.streamgen", "responses_oracle.differential"))


def test_the_toolkit_holds_only_its_own_modules() -> None:
    # The machinery lives in the two rooms; the toolkit keeps the strategies and the
    # Hypothesis hook (docs/usage/oracle.md says the old submodule paths are gone).
    held = sorted(path.stem for path in (REPO / "impl" / "testing").glob("*.py"))
    assert held == ["__init__", "_hypothesis_plugin", "strategies"]
