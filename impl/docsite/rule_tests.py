"""Which tests test each rule: the tests carrying its ``rule("RN")`` pytest marker.

The markers are the one source.  A test carries one when it is decorated
``@pytest.mark.rule("R7")``, when its class or module sets ``pytestmark`` to it, or
when it lives in ``tests/core/test_rules.py`` under a name starting ``test_rN_``
(``NAMED``): ``tests/conftest.py`` adds those markers at collection from this pattern.

The rule pages list the tests found here.  They are found by reading the test files'
syntax trees, not by importing them: pytest's collection imports the whole suite (a
minute on a loaded machine), a page generator should not.  ``tests/test_markers.py``
holds this reading to what pytest collects.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
"""The source tree this module is in (links resolved): ``tests/`` is beside ``impl/``."""

MARKER = "rule"
"""The marker's name: ``@pytest.mark.rule("R7")``."""

NAMED_FILE = "tests/core/test_rules.py"
"""The file whose tests are marked by name (a path from the checkout's root)."""

NAMED = re.compile(r"test_r(\d+)_")
"""A test in ``NAMED_FILE`` whose name matches tests rule R<group 1>."""


def _marked(node: ast.expr) -> list[str]:
    """The rules ``node`` marks: ``pytest.mark.rule("R7", ...)``, or a list or tuple of
    markers; none for any other expression."""
    if isinstance(node, ast.List | ast.Tuple):
        return [rule for element in node.elts for rule in _marked(element)]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == MARKER
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "mark"
    ):
        return [
            arg.value
            for arg in node.args
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        ]
    return []


def _pytestmark(body: list[ast.stmt]) -> list[str]:
    """The rules a module or class body marks with ``pytestmark = ...``."""
    return [
        rule
        for statement in body
        if isinstance(statement, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in statement.targets)
        for rule in _marked(statement.value)
    ]


def _tests(
    body: list[ast.stmt], prefix: str, inherited: list[str], named: bool
) -> Iterator[tuple[str, list[str]]]:
    """(test id under ``prefix``, the rules it carries) for each test in ``body``."""
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            marks = [*inherited, *_pytestmark(node.body)]
            marks += [rule for decorator in node.decorator_list for rule in _marked(decorator)]
            yield from _tests(node.body, f"{prefix}{node.name}::", marks, named)
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            marks = [*inherited]
            marks += [rule for decorator in node.decorator_list for rule in _marked(decorator)]
            if named and (match := NAMED.match(node.name)):
                marks.append(f"R{match[1]}")
            yield f"{prefix}{node.name}", marks


def rule_tests(root: Path) -> dict[str, tuple[str, ...]]:
    """Rule key (``R7``) → the ids of the tests carrying its marker (``tests/…py::name``,
    a parametrized test once), in file order; the files are ``root/tests/**/test_*.py``."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / "tests").rglob("test_*.py")):
        relative = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        module = _pytestmark(tree.body)
        for test, rules in _tests(tree.body, f"{relative}::", module, relative == NAMED_FILE):
            for rule in dict.fromkeys(rules):
                found.setdefault(rule, []).append(test)
    return {rule: tuple(tests) for rule, tests in found.items()}
