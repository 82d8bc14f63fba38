"""What each proof row read, without its prose: the fingerprint of one row of the record.

Theory of operation
-------------------
A row of ``docs/proofs.json`` (one invariant, one part: ``bounded``, ``unbounded``,
``channels``, ``matcher`` or ``contract``) is current while everything its verdict
depends on is unchanged.  That is three things, and nothing else:

- *the tables it read*: the ``ModelTables`` fields the row's proof looked up, recorded
  while it ran (``proofs.reads``) and kept in the record as ``reads``; the fingerprint
  covers their current values.  A field the row did not read cannot change its
  verdict: a proof builds its formulas from what it reads, and a read that only a
  changed value would lead to comes after a read of that value, which is recorded;
- *the proof sources*: the code of every ``responses_oracle.proofs`` module the proof
  entry points import (``PROOF_ROOTS``, followed through their imports), and for a
  peer's policy ``proofs.policies.prove_policy`` itself;
- *the model facts those sources import by name* (``model_inputs``): a classifier
  function is its code and the model values it names, a class its code, a value its
  contents.  A model table the proofs import only to compute one of their own
  constants (the matcher's ``TYPE_KINDS`` from ``catalogue.ITEM_TYPES``, the encoding's
  ``WIRE_TRIGGERS`` from ``WIRE_EVENTS``) counts by that constant's value, so a new
  item type or wire event that leaves those constants as they were changes no row.

So there is one mechanism for the model's decisions, the ``Reading``: a value of
``model/`` that a table decides is no name a proof imports but a ``ModelTables`` field,
or a function of one the proof asks of the tables it reads (the late codes and the note
effects, ``vocabulary.late_codes`` and ``note_effects`` of ``tables.note_codes``), and a
cell of it re-runs the rows that read that field and no other (issue #41; measured in
``proofs/MEASURED.md``).  Whatever a proof still imports from ``model/`` counts for
every row, whatever the row read: an import is never missed, only paid for by all.

None of its prose: code is hashed as its syntax tree with docstrings and bare strings
removed, and with the fields of ``UNREAD_FIELDS`` blanked (a diagnostic code's meaning,
a mutant's bug class and evidence, an invariant's Python predicate), unparsed, so
comments and layout do not count either.

Replaying a counterexample through the reducer is not part of any row: it is its own
step (``docsite.proofs.replayed``), run on every regeneration, so the reducer, the wire
front end and the result types are outside every fingerprint.  A module outside
``model/`` and ``proofs/`` that a proof module imports would count by its code, and
what it imports in turn (today there is none).
"""

from __future__ import annotations

import ast
import enum
import functools
import hashlib
import importlib
import importlib.util
import inspect
import textwrap
import types
from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

PACKAGE = "responses_oracle"
"""Imports of other packages (z3, the standard library) are not followed."""

PROOFS = "responses_oracle.proofs"
"""The package whose modules count by their code."""

MODEL = "responses_oracle.model"
"""The package whose names count by their value (``model_inputs``)."""

PROOF_ROOTS: tuple[str, ...] = ("responses_oracle.proofs.inventory",)
"""What the reference's rows run: the fingerprint covers what it imports, transitively."""

POLICY_RUNNER: tuple[str, str] = ("responses_oracle.proofs.policies", "prove_policy")
"""What a peer's policy rows run besides ``prove``: only this function of its module
counts (the policies' tables count through each row's reads, their prose not at all)."""

UNREAD_FIELDS: dict[str, tuple[str, ...]] = {
    "CodeSpec": ("meaning",),
    "Invariant": ("statement", "holds"),
    "Mutant": ("bug_class", "evidence"),
    "Obligation": ("statement",),
}
"""Fields no proof reads, by class name: prose (a code's one-line meaning,
``model.vocabulary.CodeSpec``; the statement of an invariant or completeness
obligation; a mutant's bug class and evidence, ``proofs.mutants.Mutant``) and an
invariant's ``holds``, the Python predicate the Hypothesis suites and the replay call
on the reducer's snapshots: the Z3 proofs state each invariant themselves
(``proofs.properties``).  Blanked in calls (by keyword or position) and in values."""

_UNREAD_HOMES: dict[str, str] = {
    "CodeSpec": "responses_oracle.model.vocabulary",
    "Invariant": "responses_oracle.model.invariants",
    "Mutant": "responses_oracle.proofs.mutants",
    "Obligation": "responses_oracle.model.completeness",
}


def table_fields() -> tuple[str, ...]:
    """The fields of ``ModelTables`` that are tables (all but ``name``)."""
    from responses_oracle.model.tables import ModelTables

    return tuple(field.name for field in fields(ModelTables) if field.name != "name")


# -- the proof sources ----------------------------------------------------------------


def proof_sources(roots: Iterable[str] = PROOF_ROOTS) -> dict[str, Path]:
    """Every ``responses_oracle`` module ``roots`` import, by name → its file: their
    import closure, read from the sources, none executed, with the proofs package.  A
    module of ``model/`` is listed but not followed: what the proofs take from it counts
    by value (``model_inputs``), not by the imports of its module."""
    found: dict[str, Path] = {}
    pending = [PROOFS, *roots]
    while pending:
        name = pending.pop()
        path = None if name in found else _module_file(name)
        if path is None:
            continue
        found[name] = path
        if not _in(name, MODEL):
            pending += _imported(name, path)
    return found


def _in(name: str, package: str) -> bool:
    """Whether module ``name`` is ``package`` or one of its modules."""
    return name == package or name.startswith(f"{package}.")


def _module_file(name: str) -> Path | None:
    """The source file of module or package ``name``; None when it is not one (an
    imported function or class) or has no Python source."""
    parent = name.rpartition(".")[0]
    if parent and (_module_file(parent) or Path()).name != "__init__.py":
        return None  # ``from .module import function``: the function is no module
    try:
        spec = importlib.util.find_spec(name)  # imports the parent packages only
    except ModuleNotFoundError:
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imported(name: str, path: Path) -> list[str]:
    """The ``responses_oracle`` names ``path`` imports, anywhere in it (function-local
    imports too); ``from M import x`` yields both ``M`` and ``M.x`` (``x`` may be a
    module)."""
    return [f"{module}.{alias}" if alias else module for module, alias in _imports(name, path)]


def _imports(name: str, path: Path) -> list[tuple[str, str]]:
    """``(module, name)`` for each ``from module import name`` of ``path`` and
    ``(module, "")`` for each import of a module, ``responses_oracle`` ones only."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, str]] = []
    for node in ast.walk(_tree(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found += [(module, "")] + [(module, alias.name) for alias in node.names]
    return [(m, n) for m, n in found if m == PACKAGE or m.startswith(f"{PACKAGE}.")]


# -- code without prose ---------------------------------------------------------------


def _prose_positions() -> dict[str, frozenset[int]]:
    """The positions of ``UNREAD_FIELDS`` among each class's constructor arguments."""
    positions: dict[str, frozenset[int]] = {}
    for name, prose in UNREAD_FIELDS.items():
        cls = getattr(importlib.import_module(_UNREAD_HOMES[name]), name)
        order = [field.name for field in fields(cls)]
        positions[name] = frozenset(order.index(field) for field in prose)
    return positions


class _Unprosed(ast.NodeTransformer):
    """Drops docstrings and every other bare string statement (prose that does nothing),
    and blanks the ``UNREAD_FIELDS`` arguments of the calls that construct them."""

    def __init__(self) -> None:
        self.positions = _prose_positions()

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        called = node.func.id if isinstance(node.func, ast.Name) else None
        if called in UNREAD_FIELDS:
            node.args = [
                ast.Constant("") if n in self.positions[called] else arg
                for n, arg in enumerate(node.args)
            ]
            for keyword in node.keywords:
                if keyword.arg in UNREAD_FIELDS[called]:
                    keyword.value = ast.Constant("")
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and all(isinstance(s, ast.stmt) for s in body):
            kept = [
                s
                for s in body
                if not (
                    isinstance(s, ast.Expr)
                    and isinstance(s.value, ast.Constant)
                    and isinstance(s.value.value, str)
                )
            ]
            node.body = kept or [ast.Pass()]  # type: ignore[attr-defined]
        return node


@functools.lru_cache(maxsize=4096)
def code_text(source: str) -> str:
    """``source`` as code only: its syntax tree without prose, unparsed."""
    return ast.unparse(_Unprosed().visit(ast.parse(textwrap.dedent(source))))


def _source(value: Any) -> str:
    """The source of a class, function or module (read again when its file changes)."""
    path = inspect.getsourcefile(value)
    stamp = Path(path).stat().st_mtime_ns if path is not None else 0
    return _source_at(value, stamp)


@functools.lru_cache(maxsize=4096)
def _source_at(value: Any, stamp: int) -> str:
    return inspect.getsource(value)


@functools.lru_cache(maxsize=512)
def _tree(text: str) -> ast.Module:
    """A module's syntax tree, for reading only (``_Unprosed`` edits its own copy)."""
    return ast.parse(text)


def _function_text(path: Path, name: str) -> str:
    """The code of top-level function ``name`` of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return code_text(ast.unparse(node))


# -- model values ---------------------------------------------------------------------


def canonical(value: Any, seen: frozenset[int] = frozenset()) -> str:
    """``value`` as text that changes exactly when its contents do: mappings in their
    order, sets sorted, dataclasses by field (prose fields left out), enum members by
    name and value, functions and classes by their code without prose."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}={value.value!r}"
    if isinstance(value, str | int | float | bool | type(None)):
        return repr(value)
    if isinstance(value, Mapping):
        items = ", ".join(f"{canonical(k, seen)}: {canonical(v, seen)}" for k, v in value.items())
        return f"{{{items}}}"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(canonical(item, seen) for item in value)) + "}"
    if isinstance(value, tuple | list):
        items = ", ".join(canonical(item, seen) for item in value)
        return f"{type(value).__qualname__}({items})"
    if is_dataclass(value) and not isinstance(value, type):
        unread = UNREAD_FIELDS.get(type(value).__name__, ())
        parts = ", ".join(
            f"{field.name}={canonical(getattr(value, field.name), seen)}"
            for field in fields(value)
            if field.name not in unread
        )
        return f"{type(value).__qualname__}({parts})"
    if isinstance(value, types.ModuleType):
        return code_text(_source(value))
    if isinstance(value, type):
        return code_text(_source(value))
    if isinstance(value, types.FunctionType):
        return _function_value(value, seen)
    return repr(value)


def _function_value(function: types.FunctionType, seen: frozenset[int]) -> str:
    """A model function: its code, and the value of every model name it reads."""
    if id(function) in seen:
        return f"<{function.__qualname__}>"
    seen = seen | {id(function)}
    text = _function_code(function)
    names: set[str] = set()
    pending = [function.__code__]
    while pending:  # the names of nested functions and comprehensions too
        code = pending.pop()
        names.update(code.co_names)
        pending += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    module = function.__module__
    for name in sorted(names):
        if name not in function.__globals__:
            continue
        value = function.__globals__[name]
        if isinstance(value, types.ModuleType):
            continue
        home = getattr(value, "__module__", module) if callable(value) else module
        if isinstance(home, str) and home.startswith(MODEL):
            text += f"\n{name} = {canonical(value, seen)}"
    return text


def _function_code(function: types.FunctionType) -> str:
    """A function's code without prose; a lambda (whose source is a line of a bigger
    expression) by its compiled code instead, which has no prose to leave out."""
    if function.__name__ != "<lambda>":
        return code_text(_source(function))
    code = function.__code__
    return f"lambda {code.co_code.hex()} {canonical(code.co_consts)} {code.co_names}"


def _is_tables(value: Any) -> bool:
    """A ``ModelTables``: each row counts the fields it reads, not the whole bundle."""
    from responses_oracle.model.tables import ModelTables

    return isinstance(value, ModelTables)


def model_inputs(modules: Mapping[str, Path]) -> dict[str, str]:
    """What the proof modules among ``modules`` import from ``model/``, by
    ``module.name`` → its value (``canonical``); a name a module reads only to compute
    its own constants counts by those constants (``proofs.matching.TYPE_KINDS``)."""
    inputs: dict[str, str] = {}
    for name, path in sorted(modules.items()):
        if _in(name, MODEL):
            continue
        imported = {
            alias: (module, alias)
            for module, alias in _imports(name, path)
            if alias and _in(module, MODEL)
        }
        values = {alias: _model_value(module, alias) for alias, (module, _) in imported.items()}
        projected = _projections(_tree(path.read_text(encoding="utf-8")), values)
        for alias, (module, _) in sorted(imported.items()):
            value = values[alias]
            if _is_tables(value):
                continue
            key = f"{module}.{alias}"
            inputs[key] = projected[alias] if alias in projected else canonical(value)
    return inputs


def _model_value(module: str, name: str) -> Any:
    """``from module import name``: the attribute, or the submodule of that name."""
    owner = importlib.import_module(module)
    if hasattr(owner, name):
        return getattr(owner, name)
    return importlib.import_module(f"{module}.{name}")


def _assignments(tree: ast.Module) -> list[tuple[str, ast.expr]]:
    """The module's top-level assignments of a value to one name, in order."""
    found: list[tuple[str, ast.expr]] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            found.append((target.id, value))
    return found


def _projections(tree: ast.Module, values: Mapping[str, Any]) -> dict[str, str]:
    """For each imported model name the module reads only in the values of its own
    top-level assignments: those assignments' names and values, evaluated over the
    imported names and the module's earlier top-level assignments."""
    assignments = _assignments(tree)
    inside = {
        id(node)
        for _, value in assignments
        for node in ast.walk(value)
        if isinstance(node, ast.Name)
    }
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    namespace: dict[str, Any] = dict(values)
    evaluated: dict[str, Any] = {}
    for name, value in assignments:
        try:
            # The module's own expression, over model values only: no z3, no I/O.
            result = eval(compile(ast.Expression(value), "<projection>", "eval"), namespace)
        except Exception:  # it needs what the model does not give (z3 sorts, functions)
            continue
        evaluated[name] = namespace[name] = result
    projected: dict[str, str] = {}
    for alias in values:
        uses = loads.get(alias, [])
        if not uses or any(id(use) not in inside for use in uses):
            continue
        users = [
            name
            for name, value in assignments
            if any(isinstance(n, ast.Name) and n.id == alias for n in ast.walk(value))
        ]
        if all(name in evaluated for name in users):
            projected[alias] = "; ".join(f"{name} = {canonical(evaluated[name])}" for name in users)
    return projected


# -- the fingerprint of a row ---------------------------------------------------------


def sources_text(policy: bool = False) -> str:
    """What every row of the reference (or, with ``policy``, of a peer's policy) reads
    besides its tables: the proof modules' code and the model facts they import."""
    modules = proof_sources()
    parts = [
        f"{name}\0{code_text(path.read_text(encoding='utf-8'))}"
        for name, path in sorted(modules.items())
        if not _in(name, MODEL)
    ]
    parts += [f"{name}\0{text}" for name, text in model_inputs(modules).items()]
    if policy:
        module, function = POLICY_RUNNER
        path = _module_file(module)
        if path is not None:
            parts.append(f"{module}.{function}\0{_function_text(path, function)}")
    return "\0".join(parts)


def fingerprint(sources: str, key: str, tables: Any, reads: Iterable[str]) -> str:
    """SHA-256 of one row: its key, the sources it runs (``sources_text``) and the
    current value of each table it read."""
    digest = hashlib.sha256()
    digest.update(f"{key}\0{sources}\0".encode())
    for name in sorted(reads):
        digest.update(f"{name}\0{canonical(getattr(tables, name))}\0".encode())
    return digest.hexdigest()
