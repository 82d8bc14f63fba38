"""No import circle among the modules of ``proofs/``, read from their source with ``ast``.

Every import counts: one under ``TYPE_CHECKING`` or inside a function hides a circle
from Python at import time, not from a reader, who must still read both modules to
understand either.  The graph is read from the files, not from ``sys.modules``, so a
module no test imports is checked too, and nothing is imported (no Z3 needed: this runs
in the quick loop).
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import REPO

PROOFS = REPO / "proofs"
"""The package checked: ``responses_oracle.proofs`` (``pyproject.toml``: package-dir)."""

PACKAGE = "responses_oracle.proofs"
"""The package's import name, for its absolute imports."""


def imports(directory: Path, package: str) -> dict[str, set[str]]:
    """Per module of the flat package in ``directory`` (file stem; ``__init__`` for the
    package itself), the modules of the same package it imports, anywhere in its source:
    relative (``from .x import y``, ``from . import x``) or absolute
    (``from package.x import y``, ``from package import x``, ``import package.x``)."""
    modules = {path.stem for path in directory.glob("*.py")}

    def named(dotted: str) -> str | None:
        """The module of this package that the absolute name ``dotted`` is, or is in."""
        if dotted == package:
            return "__init__"
        if dotted.startswith(package + "."):
            return dotted[len(package) + 1 :].split(".")[0]
        return None

    graph: dict[str, set[str]] = {}
    for path in sorted(directory.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found.update(m for alias in node.names if (m := named(alias.name)))
            elif isinstance(node, ast.ImportFrom):
                if node.level == 1:  # this package (it has no subpackages)
                    base = node.module.split(".")[0] if node.module else "__init__"
                elif node.level == 0 and node.module:
                    base = named(node.module) or ""
                else:  # a parent package: outside this one
                    continue
                if base == "__init__":
                    # ``from . import x``: x is a module of the package, or a name in it.
                    found.update(a.name if a.name in modules else "__init__" for a in node.names)
                elif base:
                    found.add(base)
        found.discard(path.stem)
        graph[path.stem] = found & modules
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each strongly connected set of two or more
    modules, sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def test_no_import_circle_among_the_proofs_modules() -> None:
    graph = imports(PROOFS, PACKAGE)
    # The graph is the real one: the contracts import the step builders, which import
    # step_facts; any_channels builds on unbounded; every module was read.
    assert {"responses_z3", "runners_z3", "step_facts"} <= graph["contracts"]
    assert "step_facts" in graph["responses_z3"]
    assert {"unbounded", "properties", "encoding"} <= graph["any_channels"]
    assert set(graph) == {path.stem for path in PROOFS.glob("*.py")}
    assert circles(graph) == []


def test_a_circle_is_found_however_the_import_is_written(tmp_path: Path) -> None:
    # A synthetic package: a -> b -> c -> a through a lazy relative import, a
    # TYPE_CHECKING import and an absolute ``from package import module``; d -> e -> d
    # through ``import package.e`` and ``from . import d``; f imports only outside
    # names (the package's own name, a parent package, another package).
    sources = {
        "__init__": '"""Package."""\n',
        "a": "def f():\n    from .b import thing\n    return thing\n",
        "b": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .c import other\nthing = 1\n"
        ),
        "c": "from pkg import a\nother = 2\n",
        "d": "import pkg.e\n",
        "e": "from . import d\n",
        "f": "from . import VERSION\nfrom .. import sibling\nimport pkgextra.a\nimport os\n",
    }
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    graph = imports(tmp_path, "pkg")
    assert graph["a"] == {"b"} and graph["b"] == {"c"} and graph["c"] == {"a"}
    assert graph["d"] == {"e"} and graph["e"] == {"d"}
    assert graph["f"] == {"__init__"}
    assert circles(graph) == [["a", "b", "c"], ["d", "e"]]
    # Break one edge of each and none is left.
    (tmp_path / "c.py").write_text("other = 2\n", encoding="utf-8")
    (tmp_path / "e.py").write_text("VALUE = 1\n", encoding="utf-8")
    assert circles(imports(tmp_path, "pkg")) == []
