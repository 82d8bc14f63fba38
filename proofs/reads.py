"""Which tables a proof reads, which entries of the model's named lists it looks up and
which functions of the proofs it runs: recorded while it runs, remembered across its
caches.

A proof row's verdict depends only on the ``ModelTables`` fields its proof looks up and
on the model values named by the code it runs.  ``Reading`` wraps a model's tables and
records every field read, into each open *record* (``recording``); the proof record's
fingerprints (``docsite.proofs``) and the mutation score (``mutation.proof_reads``) are
built on it.  Inside ``running``, every function of the given modules (the proof
modules) is *marked* when it runs, and a record open meanwhile gets the mark of every
function that ran while it was open; ``Runs.read`` turns marks into the names that
code reads, and ``docsite.fingerprint.model_names`` those names into model values.

How a function is marked: ``running`` compiles each module's source again with one
statement first in every function, ``__proof_ran__[mark] = __proof_ran__[0]`` (the
current *epoch*, stored at the function's mark; a lambda's body is wrapped to the same
effect), and gives every live function of the module its marked code, in place
(``__code__``): a function kept in a table, a closure or a partial is marked too, and a
nested function is made from marked code.  Opening a record starts an epoch; closing it
adds every mark stamped since.  A call of a proof function so costs two dictionary
stores, and the Z3 calls, which are most calls, cost nothing; a profiler's event on
every call cost about 2.5 times the proof (``proofs/MEASURED.md``).

A cache of the proofs that keeps a value computed from the tables (``induction``'s
lemmas and symbolic steps, ``any_channels``' agreement check) goes through
``remembered``: it keeps the fields read and the marks stamped while computing it, and
a later proof that gets the cached value has read and run them too.  So a row's reads
do not depend on which rows ran before it.

An entry a proof looks up by name in one of the model's lists of named entries (an
invariant's scope, ``INVARIANTS_BY_NAME[name]``) is recorded as that entry, not as the
whole list: inside ``running``, each such mapping given to it is replaced, wherever a
proof module or its home module binds it, by an ``Entries`` view that notes each
lookup as ``(key, name)`` into every open record, and any walk over the whole
mapping (iteration, its length, its keys, values or items) as ``(key, None)``.

Not marked, so counted for every row (``docsite.fingerprint.every_row``): code that ran
while the modules were imported -- their own statements, class bodies, decorators,
default values and what those call -- which ran before any row.  A function of the
modules that ``running`` cannot mark (its file changed since the import) makes
``Runs.read`` say None: the caller then counts every name, for every row.
"""

from __future__ import annotations

import ast
import gc
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

_V = TypeVar("_V")

MARKS = "__proof_ran__"
"""The global through which marked code stamps its mark (``_RAN``, in each module)."""

FIRST_MARK = 0x6D61726B000000
"""The first mark: a number no proof writes, so a function's mark is the one constant
of its code at or above it."""

_RAN: dict[int, int] = {0: 0}
"""Each mark → the epoch it was last stamped in; key 0 holds the current epoch."""

_OPEN: list[set[Any]] = []
"""The records open now, outermost first: where ``Entries`` notes its lookups."""

EntryRead = tuple[str, str | None]
"""A lookup in a list of named entries: its key (``module.NAME``) and the entry's
name, or None for a walk over the whole list."""


class Reading:
    """A model's tables, recording which of their fields a proof reads (``read``: all
    reads since it was made; each open ``recording`` gets them too)."""

    def __init__(self, tables: Any) -> None:
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "read", set())
        object.__setattr__(self, "open", [])

    def __getattr__(self, name: str) -> Any:
        self.note((name,))
        return getattr(self.tables, name)

    def note(self, names: Any) -> None:
        """Count ``names`` as read (by the proof running now)."""
        self.read.update(names)
        for record in self.open:
            record.update(names)


class Entries(Mapping[str, Any]):
    """A mapping of named entries (``key``: ``module.NAME``) that notes, into every open
    record, each entry looked up (``(key, name)``, a name it lacks too) and any walk
    over all of it (``(key, None)``)."""

    def __init__(self, key: str, entries: Mapping[str, Any]) -> None:
        self.key = key
        self.entries = entries

    def __getitem__(self, name: str) -> Any:
        _note((self.key, name))
        return self.entries[name]

    def __iter__(self) -> Iterator[str]:
        _note((self.key, None))
        return iter(self.entries)

    def __len__(self) -> int:
        _note((self.key, None))
        return len(self.entries)


def _note(read: EntryRead) -> None:
    """Count ``read`` in every open record."""
    for record in _OPEN:
        record.add(read)


@contextmanager
def recording(tables: Any) -> Iterator[set[Any]]:
    """The fields of ``tables`` read inside the block (none unless it is a ``Reading``),
    the entries looked up through ``Entries`` (``EntryRead``) and the marks (``int``) of
    the marked functions that ran in it."""
    record: set[Any] = set()
    if isinstance(tables, Reading):
        tables.open.append(record)
    _OPEN.append(record)
    marking = _RUNS.depth > 0
    if marking:
        _RAN[0] += 1
    opened = _RAN[0]
    try:
        yield record
    finally:
        if isinstance(tables, Reading):
            # By identity: two records that read the same fields are equal sets.
            tables.open[:] = [other for other in tables.open if other is not record]
        _OPEN[:] = [other for other in _OPEN if other is not record]
        if marking:
            record.update(mark for mark, epoch in _RAN.items() if mark and epoch >= opened)


def remembered(
    cache: MutableMapping[Any, tuple[Any, frozenset[Any], Any]],
    key: Any,
    tables: Any,
    compute: Callable[[], _V],
) -> _V:
    """``compute()`` for ``tables`` (by identity) and ``key``, once; a caller that gets
    the cached value is counted as reading, looking up and running what computing it did."""
    cached = cache.get(key)
    if cached is not None and cached[0] is tables:
        if isinstance(tables, Reading):
            tables.note({name for name in cached[1] if isinstance(name, str)})
        for read in cached[1]:
            if isinstance(read, tuple):
                _note(read)
        for mark in cached[1]:
            if isinstance(mark, int) and _RUNS.depth > 0:
                _RAN[mark] = _RAN[0]
        value: _V = cached[2]
        return value
    with recording(tables) as read:
        value = compute()
    cache[key] = (tables, frozenset(read), value)
    return value


# -- marking the functions of the proofs -----------------------------------------------


@dataclass
class Runs:
    """What ``running`` marked: ``names[mark]``, the names that function's code reads
    (its comprehensions' too; a nested function or lambda has its own mark), and the
    functions of the modules it could not mark (``unmarked``)."""

    names: dict[int, frozenset[str]] = field(default_factory=dict)
    unmarked: list[str] = field(default_factory=list)
    depth: int = 0
    marked: list[tuple[types.FunctionType, types.CodeType]] = field(default_factory=list)
    modules: list[types.ModuleType] = field(default_factory=list)
    viewed: list[tuple[dict[str, Any], str, Any]] = field(default_factory=list)

    def read(self, record: Iterable[Any]) -> frozenset[str] | None:
        """The names read by the code whose marks are in ``record``; None when a
        function of the modules ran unmarked (any of their names may have been read)."""
        if self.unmarked:
            return None
        marks = [mark for mark in record if isinstance(mark, int)]
        return frozenset(name for mark in marks for name in self.names.get(mark, ()))


_RUNS = Runs()


class _Marker(ast.NodeTransformer):
    """Puts the stamp of a new mark first in every function, and in every lambda's body."""

    def __init__(self, first: int) -> None:
        self.next = first

    def _stamp(self) -> tuple[ast.expr, ast.expr]:
        """The new mark's place in ``_RAN`` and the epoch now, as expressions."""
        self.next += 1
        marks = ast.Name(MARKS, ast.Load())
        return ast.Constant(self.next - 1), ast.Subscript(marks, ast.Constant(0), ast.Load())

    def visit_FunctionDef(self, node: Any) -> Any:
        mark, now = self._stamp()
        self.generic_visit(node)
        target = ast.Subscript(ast.Name(MARKS, ast.Load()), mark, ast.Store())
        first = node.body[0]
        documented = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        at = 1 if documented and isinstance(first.value.value, str) else 0  # after its docstring
        node.body.insert(at, ast.copy_location(ast.Assign([target], now), first))
        return ast.fix_missing_locations(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        mark, now = self._stamp()
        self.generic_visit(node)
        setitem = ast.Attribute(ast.Name(MARKS, ast.Load()), "__setitem__", ast.Load())
        # ``_RAN.__setitem__(...)`` is None, so ``None or body`` is the body's value.
        stamp = ast.Call(setitem, [mark, now], [])
        node.body = ast.copy_location(ast.BoolOp(ast.Or(), [stamp, node.body]), node.body)
        return ast.fix_missing_locations(node)


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and every code object nested in it, depth first."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _is_function(code: types.CodeType) -> bool:
    """A function's or a lambda's code: not a module's, a class body's or a
    comprehension's (those run inside the code that holds them)."""
    optimized = bool(code.co_flags & 0x1)  # CO_OPTIMIZED: a function's own frame
    comprehension = code.co_name in ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")
    return optimized and not comprehension


def _own_names(code: types.CodeType) -> frozenset[str]:
    """The global and attribute names ``code`` reads, with those of the comprehensions
    and class bodies in it (not of its nested functions: they have their own marks)."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType) and not _is_function(const):
            names |= _own_names(const)
    return frozenset(names)


def _mark_module(module: types.ModuleType, runs: Runs) -> dict[types.CodeType, types.CodeType]:
    """The marked code of each function of ``module``, by its code as imported (the
    same source compiled again, so equal code); its marks' names go to ``runs``."""
    path = getattr(module, "__file__", None)
    if path is None or not path.endswith(".py"):
        return {}
    with open(path, encoding="utf-8") as file:
        source = file.read()
    original = compile(source, path, "exec", dont_inherit=True)
    first = FIRST_MARK + len(runs.names)
    marker = _Marker(first)
    marked = compile(marker.visit(ast.parse(source)), path, "exec", dont_inherit=True)
    module.__dict__[MARKS] = _RAN
    runs.modules.append(module)
    pairs: dict[types.CodeType, types.CodeType] = {}
    # The marked module has the same code objects in the same places: only statements
    # and a wrapped expression were added inside them.
    for old, new in zip(_codes(original), _codes(marked), strict=True):
        if not _is_function(old):
            continue
        (mark,) = [c for c in new.co_consts if type(c) is int and first <= c < marker.next]
        runs.names[mark] = _own_names(old)
        pairs[old] = new
    return pairs


def _view_entries(
    modules: list[types.ModuleType], entries: Mapping[str, Mapping[str, Any]], runs: Runs
) -> None:
    """Bind an ``Entries`` view of each of ``entries`` (by key, ``module.NAME``) wherever
    its home module or one of ``modules`` binds that very mapping; ``runs.viewed`` keeps
    what to bind back."""
    for key, mapping in entries.items():
        home = sys.modules[key.rpartition(".")[0]]
        view = Entries(key, mapping)
        for module in [home, *modules]:
            for name, value in list(vars(module).items()):
                if value is mapping:
                    runs.viewed.append((vars(module), name, value))
                    vars(module)[name] = view


@contextmanager
def running(
    modules: Iterable[types.ModuleType], entries: Mapping[str, Mapping[str, Any]] | None = None
) -> Iterator[Runs]:
    """Every function of ``modules`` marked inside the block (``recording`` then gets
    the marks of what ran), and each of ``entries`` (the model's lists of named entries,
    by key) looked up through an ``Entries`` view; all as they were after it.  Nested
    blocks share the outermost's marking and views."""
    runs = _RUNS
    if runs.depth == 0:
        pairs: dict[types.CodeType, types.CodeType] = {}
        files: set[str] = set()
        modules = list(modules)
        for module in modules:
            pairs.update(_mark_module(module, runs))
            files.add(str(getattr(module, "__file__", "")))
        _view_entries(modules, entries or {}, runs)
        # A function made from marked code by an earlier block (a closure a cache kept)
        # has the very code this block marks: the marks start at ``FIRST_MARK`` each time.
        already = set(pairs.values())
        for thing in gc.get_objects():
            if not isinstance(thing, types.FunctionType):
                continue
            code = thing.__code__
            new = pairs.get(code)
            if new is not None:
                runs.marked.append((thing, code))
                thing.__code__ = new
            elif code.co_filename in files and _is_function(code) and code not in already:
                runs.unmarked.append(f"{code.co_filename}:{code.co_qualname}")
    runs.depth += 1
    try:
        yield runs
    finally:
        runs.depth -= 1
        if runs.depth == 0:
            for function, code in runs.marked:
                function.__code__ = code
            for namespace, name, value in runs.viewed:
                namespace[name] = value
            for module in runs.modules:
                # A function made from marked code in the block (a closure a cache
                # keeps) stamps its mark, outside any block, where no record looks.
                module.__dict__[MARKS] = {0: 0}
            _RAN.clear()
            _RAN[0] = 0
            runs.marked.clear()
            runs.modules.clear()
            runs.names.clear()
            runs.unmarked.clear()
            runs.viewed.clear()
