"""What each proof row read, without its prose: the fingerprint of one row of the record.

Theory of operation
-------------------
A row of ``docs/proofs.json`` (one invariant, one part: ``bounded``, ``unbounded``,
``channels``, ``matcher`` or ``contract``) is current while everything its verdict
depends on is unchanged.  That is five things, and nothing else:

- *the tables it read*: the ``ModelTables`` fields the row's proof looked up, recorded
  while it ran (``proofs.reads.Reading``) and kept in the record's ``reads``; the
  fingerprint covers their current values.  A field the row did not read cannot change
  its verdict: a proof builds its formulas from what it reads, and a read that only a
  changed value would lead to comes after a read of that value, which is recorded;
- *the model values its code read*: while the row ran, every function of the proof
  modules that ran was marked (``proofs.reads.running``), and each imported model value
  (``model_inputs``: a classifier such as ``admission.fit_key``, a set such as
  ``CLOSED_STATES``, ``invariants.STRENGTHENING``) that a marked function's code names
  (``model_names``: its own name, or the name a proof module binds it to) is in the
  row's ``reads`` too, as ``module.name``; the fingerprint covers its value.  A model
  function counts by its code and the model values it names in turn (``canonical``),
  so what it calls is covered;
- *the entries it looked up*: of the model's lists of named entries (``ENTRY_TABLES``:
  the invariants' and obligations' entries, by name), a row counts the entries its
  proof looked up (``proofs.reads.Entries``: the scope of the one it proves), as
  ``KEY[name]``, not the whole list;
- *what every row reads* (``every_row``): the imported model values read by code that
  runs when the proof modules are imported -- their own statements, class bodies,
  decorators and default values, and the proof functions those call (what making a
  ``Property`` runs) -- which ran before any row and so belong to none.  A value a
  module reads only to compute its own constants counts by those constants (the
  matcher's ``TYPE_KINDS`` of ``catalogue.ITEM_TYPES``, the encoding's
  ``WIRE_TRIGGERS`` of ``WIRE_EVENTS``), so a new item type or wire event that leaves
  them as they were changes no row.  Today that is the enums and classes the proofs
  build their sorts from, the tables' bundle, the names of the invariants and
  obligations (``inventory.MODEL_NAMES``), the reachability lemmas and the catalogue's
  projections;
- *the proof sources*: the code of every ``responses_oracle.proofs`` module the proof
  entry points import (``PROOF_ROOTS``, followed through their imports), and for a
  peer's policy ``proofs.policies.prove_policy`` itself.

So a cell of a table re-runs the rows that read that table, a changed model function
or set the rows whose code named it, an invariant's entry the rows that prove it
(issue #41; measured in ``proofs/MEASURED.md``), and a value read at import every row.
What is attributed is sound the way the table reads are: the code a row runs is the
code that builds its formulas, a value its code reaches through a cache comes with the
cache's reads (``proofs.reads.remembered``), a name is matched by name, never by where
the code found it, so a name that is a model value anywhere counts, and an entry list
is viewed wherever a proof module or its own module binds it, so a lookup through a
name is recorded (a reference kept from import is read at import: every row counts
it).  Not attributed, so counted for every row: what runs at import, as
above; and a value a proof function reaches through ``getattr`` with a computed name
(the proofs do that only for the fields of their own state records).  When a proof
function ran unmarked (its file changed while the proofs ran), the row reads every
imported value.  ``tests/docs/test_proof_record.py`` checks ``every_row`` against what
an import of the proofs runs, and each attribution against edits that change verdicts.

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
from dataclasses import dataclass, fields, is_dataclass
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

ENTRY_TABLES: tuple[str, ...] = (
    "responses_oracle.model.invariants.INVARIANTS_BY_NAME",
    "responses_oracle.model.completeness.COMPLETENESS_BY_NAME",
)
"""The model's lists of named entries that a row reads entry by entry: each lookup is
recorded while the row runs (``proofs.reads.Entries``) as ``KEY[name]``, a walk over
the whole list as ``KEY``, and a name that reads the list is not attributed whole
(``entry_keys``)."""

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
    return [(module, alias) for module, alias, _ in _bindings(name, path)]


def _bindings(name: str, path: Path) -> list[tuple[str, str, str]]:
    """``_imports`` with the name each import binds in the module (``as`` names)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, str, str]] = []
    for node in ast.walk(_tree(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, "", a.asname or a.name.partition(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found += [(module, "", "")]
            found += [(module, a.name, a.asname or a.name) for a in node.names]
    return [b for b in found if b[0] == PACKAGE or b[0].startswith(f"{PACKAGE}.")]


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


def _proof_modules(modules: Mapping[str, Path]) -> list[tuple[str, Path]]:
    """The modules of ``modules`` outside ``model/``, by name."""
    return [(name, path) for name, path in sorted(modules.items()) if not _in(name, MODEL)]


def _imported_values(name: str, path: Path) -> dict[str, tuple[str, str]]:
    """The model values proof module ``name`` imports: the name it binds → ``(module,
    name)`` in ``model/``."""
    return {
        local: (module, alias)
        for module, alias, local in _bindings(name, path)
        if alias and _in(module, MODEL)
    }


def model_inputs(modules: Mapping[str, Path]) -> dict[str, str]:
    """What the proof modules among ``modules`` import from ``model/``, by
    ``module.name`` → its value (``canonical``); a ``ModelTables`` is left out (each row
    counts the fields it reads)."""
    inputs: dict[str, str] = {}
    for name, path in _proof_modules(modules):
        for module, alias in sorted(_imported_values(name, path).values()):
            key = f"{module}.{alias}"
            if key not in inputs and not _is_tables(value := _model_value(module, alias)):
                inputs[key] = canonical(value)
    return inputs


def entry_tables() -> dict[str, Mapping[str, Any]]:
    """The mappings of ``ENTRY_TABLES``, by key."""
    return {key: _model_value(*key.rsplit(".", 1)) for key in ENTRY_TABLES}


def entry_keys() -> dict[str, str]:
    """Each entry of ``ENTRY_TABLES``, by ``KEY[name]`` → its value (``canonical``)."""
    return {
        f"{key}[{name}]": canonical(entry)
        for key, entries in entry_tables().items()
        for name, entry in entries.items()
    }


def model_names(modules: Mapping[str, Path]) -> dict[str, frozenset[str]]:
    """Each name through which proof code can read an imported model value → the keys
    (``model_inputs``) of the values it may be: the name each proof module binds it to,
    its own name (read as an attribute of its module, or imported again from a proof
    module), and the name a proof module binds such a re-import to."""
    names: dict[str, set[str]] = {}
    bound: dict[tuple[str, str], set[str]] = {}  # (proof module, name) → keys
    for name, path in _proof_modules(modules):
        for local, (module, alias) in _imported_values(name, path).items():
            key = f"{module}.{alias}"
            for known in {local, alias}:
                names.setdefault(known, set()).add(key)
            bound.setdefault((name, local), set()).add(key)
    changed = True
    while changed:  # ``from .encoding import X as Y``: Y reads what encoding's X is
        changed = False
        for name, path in _proof_modules(modules):
            for module, alias, local in _bindings(name, path):
                keys = bound.get((module, alias), set())
                if alias and keys - bound.get((name, local), set()):
                    bound.setdefault((name, local), set()).update(keys)
                    names.setdefault(local, set()).update(keys)
                    changed = True
    return {name: frozenset(keys) for name, keys in names.items()}


# -- what every row reads: the code run when the proofs are imported ------------------

_RUN_AT_IMPORT = (
    "__init__",
    "__post_init__",
    "__new__",
    "__init_subclass__",
    "__set_name__",
    "__hash__",
    "__eq__",
    "__call__",
    "__getitem__",
    "__iter__",
)
"""The methods of a class that making one of its objects, or using it as a key or a
table, may run: called where the module creates it at import."""


def _import_time_nodes(tree: ast.Module) -> list[ast.AST]:
    """The nodes of ``tree`` that run when its module is imported: everything but the
    bodies of functions and lambdas (their decorators and default values run), imports,
    and the block run only as a script (``if __name__ == "__main__":``)."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom) or _as_script(node):
            continue
        found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            pending += [*node.decorator_list, *args.defaults, *filter(None, args.kw_defaults)]
        elif isinstance(node, ast.Lambda):
            pending += [*node.args.defaults, *filter(None, node.args.kw_defaults)]
        else:
            pending += list(ast.iter_child_nodes(node))
    return found


def _as_script(node: ast.AST) -> bool:
    """``if __name__ == "__main__":``, which an import does not run."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def _read_names(nodes: Iterable[ast.AST]) -> set[str]:
    """The names ``nodes`` read: names loaded and attributes."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
    return found


def _calls(nodes: Iterable[ast.AST]) -> set[str]:
    """The names of what ``nodes`` call or use as a decorator (``f(...)``,
    ``module.f(...)``, ``@f``)."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            found |= _read_names([node.func])
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found |= _read_names(node.decorator_list)
    return found


def _called_at_import(trees: Mapping[str, ast.Module]) -> set[str]:
    """The names read by the proof functions and methods that run at import: those the
    modules call then (by name, in any proof module) and, for a class so called, its
    methods of ``_RUN_AT_IMPORT`` and its bases'; in turn what those call.  A function
    handed to other code at import and called by it is not seen here:
    ``tests/docs/test_proof_record.py`` checks this against what an import runs."""
    definitions: dict[str, list[ast.AST]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                definitions.setdefault(node.name, []).append(node)
    pending = [name for tree in trees.values() for name in _calls(_import_time_nodes(tree))]
    names: set[str] = set()
    ran: set[int] = set()
    while pending:
        for definition in definitions.get(pending.pop(), ()):
            if id(definition) in ran:
                continue
            ran.add(id(definition))
            bodies: list[ast.AST] = [definition]
            if isinstance(definition, ast.ClassDef):
                bodies = [
                    method
                    for method in definition.body
                    if isinstance(method, ast.FunctionDef) and method.name in _RUN_AT_IMPORT
                ]
                pending += _read_names(definition.bases)
            inside = [node for body in bodies for node in ast.walk(body)]
            names |= _read_names(inside)
            pending += _calls(inside)
    return names


def every_row(modules: Mapping[str, Path]) -> dict[str, str]:
    """The imported model values read when the proof modules are imported, which count
    for every row (``proofs.reads`` marks only what runs in a row), by key → value:
    those the modules' own statements, class bodies, decorators and default values
    read, and those read by the functions that code calls (``_called_at_import``).  A
    value a module reads only to compute its own constants counts by those constants
    (``proofs.matching.TYPE_KINDS`` of ``ITEM_TYPES``); another module reading it
    whole makes it count whole."""
    proof = _proof_modules(modules)
    trees = {name: _tree(path.read_text(encoding="utf-8")) for name, path in proof}
    called = _called_at_import(trees)
    texts: dict[str, set[str]] = {}
    whole: set[str] = set()
    for name, path in proof:
        imported = _imported_values(name, path)
        values = {local: _model_value(*imported[local]) for local in imported}
        projected = _projections(trees[name], values)
        read = _read_names(_import_time_nodes(trees[name])) | called
        for local, (module, alias) in sorted(imported.items()):
            key = f"{module}.{alias}"
            if _is_tables(values[local]) or not {local, alias} & read:
                continue
            if local in projected:
                texts.setdefault(key, set()).add(projected[local])
            else:
                whole.add(key)
    inputs = model_inputs(modules)
    counted = {key: "; ".join(sorted(text)) for key, text in texts.items()}
    counted.update((key, inputs[key]) for key in whole)
    return dict(sorted(counted.items()))


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


@dataclass(frozen=True)
class Sources:
    """What a row's fingerprint covers besides its tables: ``text``, what every row
    reads (the proof modules' code, the model values ``every_row`` counts, and for a
    peer's policy ``POLICY_RUNNER``), and ``values``, each imported model value by key
    (``model_inputs``) and each entry of ``ENTRY_TABLES`` (``entry_keys``), of which a
    row counts the ones in its reads."""

    text: str
    values: Mapping[str, str]


def sources(policy: bool = False) -> Sources:
    """The ``Sources`` of the reference's rows (with ``policy``, of a peer's policy)."""
    modules = proof_sources()
    parts = [
        f"{name}\0{code_text(path.read_text(encoding='utf-8'))}"
        for name, path in _proof_modules(modules)
    ]
    parts += [f"{name}\0{text}" for name, text in every_row(modules).items()]
    if policy:
        module, function = POLICY_RUNNER
        path = _module_file(module)
        if path is not None:
            parts.append(f"{module}.{function}\0{_function_text(path, function)}")
    return Sources("\0".join(parts), {**model_inputs(modules), **entry_keys()})


def fingerprint(sources: Sources, key: str, tables: Any, reads: Iterable[str]) -> str:
    """SHA-256 of one row: its key, what every row reads (``Sources.text``) and the
    current value of what it read: each table (a ``ModelTables`` field) and each
    imported model value (a key of ``Sources.values``; one no proof imports any more
    counts as changed)."""
    digest = hashlib.sha256()
    digest.update(f"{key}\0{sources.text}\0".encode())
    for name in sorted(reads):
        if "." in name:  # a model value: ``module.name``
            value = sources.values.get(name, "\0gone")
        else:
            value = canonical(getattr(tables, name))
        digest.update(f"{name}\0{value}\0".encode())
    return digest.hexdigest()
