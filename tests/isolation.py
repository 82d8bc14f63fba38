"""What one test file may not leave behind for the next: the shared state it changed.

Rule: a test file leaves every piece of process-wide state as it found it.  The suite
runs its files in an order, and on workers, that change from run to run (pytest-xdist
``--dist loadfile`` puts any two files in one process; ``test_order.py`` shuffles the
quick loop), so a file that edits data another file reads makes that other file fail
some of the time -- in CI, once, ``test_go_adapters.py`` renamed a call inside a peers
scenario (``docsite.peers.SCENARIOS``) and ``test_go_candidates.py``, later in the same
worker, saw the new name (an example's events are now a copy for each reader).
``monkeypatch`` and ``tmp_path`` are the ways to change state for one test; this module
catches the rest.

Theory of operation: ``Snapshot.take()`` fingerprints the shared state; ``conftest.py``
compares the one taken after a test file's last test with the one before its first (a
module-scoped autouse fixture: set up first, torn down last; the snapshot after one file
is the one before the next), and a change is an error of that file naming what changed.
In a shuffled run, where the files' tests interleave, that is at every change of file.
A snapshot costs about 20 ms of CPU with the whole package loaded.  What is
fingerprinted:

- every module-level name of the package (``responses_oracle.*``) and of the shared test
  and tool modules (those under ``tests/`` and ``tools/`` that are not test files): which
  object each name holds, and that object's contents, deeply (its pickle, hashed: about
  400 kB in all), so an edit of a nested item is seen;
- what a cached loader of no arguments (``functools.cache``) has handed out, which every
  caller then shares;
- which module each of their names in ``sys.modules`` holds (a test that removes one
  makes the next import of it another module, whose classes are not the first's);
- the environment, the working folder, ``sys.path``, the root logger's level and
  handlers, and the Hypothesis profile.

A change is then described from the snapshot before (its pickle, loaded again): the
first few paths that differ, with both values.  What cannot change in place (a string,
a function, a frozen dataclass of tuples) is held by identity alone, and a value pickle
cannot hold (a Z3 sort inside, a table of lambdas) by what its top level holds:
replacing an entry is seen, an edit deeper inside is not.  The state that
legitimately changes as tests run (a cache filled on first use) is ``FILLED_ON_USE``,
each with its reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import inspect
import logging
import os
import pickle
import sys
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from helpers import REPO

PACKAGE = "responses_oracle"
"""The package whose every module is watched."""

SHARED_FOLDERS = (REPO / "tests", REPO / "tools")
"""Folders whose non-test modules are imported by many test files (``helpers``,
``core.streams``, ``tools/...``): watched too.  A test file's own module is not: it is
shared with no other file."""

FILLED_ON_USE: frozenset[str] = frozenset({
    # Every record and named tuple class made, by name: a module imported for the first
    # time by a test adds its own (readers ask for the modules they list).
    "responses_oracle.model.recordkit.DECLARED",
    "responses_oracle.model.recordkit.TUPLES",
    # The fast JSON decoder, looked for on first use and kept.
    "responses_oracle.wire.decode._fast",
    # openai-python's offline client, made on first use and kept.
    "responses_oracle.differential.openai_candidate._CLIENT",
    # The proofs' memos: Z3 sorts per enum, lemmas and symbolic steps per model and
    # bounds, agreements and unrollings per model (each keyed by what it was made for).
    "responses_oracle.proofs.sorts._SORTS",
    "responses_oracle.proofs.induction._LEMMAS",
    "responses_oracle.proofs.induction._STEPS",
    "responses_oracle.proofs.any_channels._AGREES",
    "responses_oracle.proofs.refinement._UNROLLINGS",
})
"""Module-level names whose value is filled as the code is used, not as tests edit it
(``module.NAME``): left out of the fingerprint, under every name that holds them."""

IGNORED_VARIABLES = frozenset({"PYTEST_CURRENT_TEST"})
"""Environment variables pytest itself sets for each test."""

SHOWN = 3
"""The differences a report lists per changed name."""


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The shared state at one moment (the module's docstring lists what is in it)."""

    namespaces: Mapping[str, Mapping[str, Any]]
    """Module name → its names and the objects they hold (``NAME()``: what the cached
    loader ``NAME`` has handed out)."""
    contents: Mapping[int, tuple[bytes, bytes | None]]
    """The identity of each object that can change in place → the hash of its contents
    and the pickle it was hashed from (None: held by its top level)."""
    modules: Mapping[str, types.ModuleType]
    """The watched modules, by their names in ``sys.modules``."""
    process: Mapping[str, Any]
    """The process-wide settings (``_process``)."""

    @classmethod
    def take(cls) -> Snapshot:
        """The state now."""
        namespaces: dict[str, dict[str, Any]] = {}
        contents: dict[int, tuple[bytes, bytes | None]] = {}
        filled = _filled_on_use()
        modules = dict(_watched())
        for module_name, module in modules.items():
            names = {
                name: value
                for name, value in list(vars(module).items())
                if not name.startswith("__") and id(value) not in filled
            }
            for name, value in list(names.items()):
                if type(value) is functools._lru_cache_wrapper and _loader(value):
                    names[f"{name}()"] = value()
            namespaces[module_name] = names
            for value in names.values():
                # _how's memo read inline: this loop meets every name of every module.
                known = _HOW.get(id(value))
                how = known[1] if known is not None and known[0] is value else _how(value)
                if how != IDENTITY and id(value) not in contents:
                    contents[id(value)] = _contents(value)
        return cls(namespaces, contents, modules, _process())

    def changes(self, after: Snapshot) -> list[str]:
        """What differs in ``after``, one line per change (empty: nothing)."""
        lines = [
            f"{key}: {_show(self.process.get(key))} -> {_show(after.process.get(key))}"
            for key in sorted(self.process.keys() | after.process.keys())
            if self.process.get(key) != after.process.get(key)
        ]
        for module_name, was in self.modules.items():
            module = after.modules.get(module_name)
            if module is not was:
                lines.append(
                    f"sys.modules[{module_name!r}]: "
                    + ("removed" if module is None else "now another module (imported again)")
                )
        edited: dict[int, list[str]] = {}
        for module_name, names in self.namespaces.items():
            names_now = after.namespaces.get(module_name, {})
            for name, value in names.items():
                key, loaded = f"{module_name}.{name}", name.endswith("()")
                if name not in names_now:
                    if not loaded:  # a loader whose cache was cleared has nothing to show
                        lines.append(f"{key}: removed")
                elif names_now[name] is not value and not loaded:
                    lines.append(f"{key}: now holds another object")
                elif self._digest(value) != after._digest(names_now[name]):
                    edited.setdefault(id(value), []).append(key)
        for key, *aliases in edited.values():
            also = f" (also imported as {', '.join(aliases)})" if aliases else ""
            lines.append(f"{key}: edited in place{also}{self._where(key, after)}")
        return lines

    def _digest(self, value: Any) -> bytes | None:
        """The hash of ``value``'s contents in this snapshot (None: it cannot change)."""
        held = self.contents.get(id(value))
        return None if held is None else held[0]

    def _where(self, key: str, after: Snapshot) -> str:
        """Where the value of ``key`` (edited in place) differs in ``after``: its first
        ``SHOWN`` paths, with the value before and after (empty when the value before
        cannot be loaded again from its pickle)."""
        module_name, _, name = key.rpartition(".")
        value = self.namespaces[module_name][name]
        pickled = self.contents[id(value)][1]
        try:
            before = pickle.loads(pickled) if pickled is not None else None
        except Exception:  # a value with an unloadable part: no paths shown
            return ""
        if before is None:
            return ""
        now = after.namespaces[module_name][name]
        paths = list(_differences(before, now, name.removesuffix("()")))[:SHOWN]
        return "".join(f"\n    {path}: {_show(a)} -> {_show(b)}" for path, a, b in paths)


def _watched() -> Iterator[tuple[str, types.ModuleType]]:
    """The modules whose names are fingerprinted (the module's docstring)."""
    for name, module in list(sys.modules.items()):
        if module is not None and _is_shared(name, getattr(module, "__file__", None)):
            yield name, module


@functools.cache
def _is_shared(name: str, file: str | None) -> bool:
    """Whether the module ``name`` (from ``file``) is one whose state files share."""
    if name == PACKAGE or name.startswith(PACKAGE + "."):
        return True
    if file is None or name == __name__:
        return False
    path = Path(file).resolve()
    return (
        any(path.is_relative_to(folder) for folder in SHARED_FOLDERS)
        and not path.name.startswith("test_")
        and path.name != "conftest.py"
    )


def _filled_on_use() -> set[int]:
    """The identities of the ``FILLED_ON_USE`` values (each alias holds the same)."""
    found = set()
    for key in FILLED_ON_USE:
        module_name, _, name = key.rpartition(".")
        module = sys.modules.get(module_name)
        if module is not None and name in vars(module):
            found.add(id(vars(module)[name]))
    return found


def _loader(value: Any) -> bool:
    """Whether ``value`` is a cached loader of no arguments that has loaded (calling it
    again then runs nothing and returns what every caller shares)."""
    if not isinstance(value, functools._lru_cache_wrapper) or not value.cache_info().currsize:
        return False
    try:
        return not inspect.signature(value).parameters
    except (TypeError, ValueError):
        return False


_PLAIN = (type(None), bool, int, float, complex, str, bytes, range, Path)
_OPAQUE = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType,
    types.GetSetDescriptorType, types.MemberDescriptorType, types.WrapperDescriptorType,
    types.MethodDescriptorType, type, functools._lru_cache_wrapper, enum.Enum,
)

IDENTITY, PICKLE, TOP_LEVEL = "identity", "pickle", "top level"
"""How a value is held: by identity alone (it cannot change: a string, a function, a
tuple of such), by its pickle (its contents, deeply), or by the identities of what its
top level holds (pickle refuses it: a Z3 sort inside, a table of lambdas)."""

_HOW: dict[int, tuple[Any, str]] = {}
"""How each value seen is held, decided once (the value is kept, so its id stays its)."""


def _how(value: Any) -> str:
    """How ``value`` is held (``IDENTITY``, ``PICKLE`` or ``TOP_LEVEL``), as the most
    changeable part of it asks (``_kind``); decided on first sight."""
    known = _HOW.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    how = _kind(value, 0)
    if how == FOREIGN:
        how = IDENTITY
    elif how == PICKLE:
        try:
            pickle.dumps(value, protocol=5)
        except Exception:  # any value pickle refuses is held by its top level
            how = TOP_LEVEL
    _HOW[id(value)] = (value, how)
    return how


def _contents(value: Any) -> tuple[bytes, bytes | None]:
    """The hash of ``value``'s contents and its pickle (None: held by its top level)."""
    pickled = None
    if _how(value) == PICKLE:
        # What it holds now may be unpicklable (a change, seen by its top level).
        with contextlib.suppress(Exception):
            pickled = pickle.dumps(value, protocol=5)
    return hashlib.blake2b(pickled or _top_level(value), digest_size=16).digest(), pickled


FOREIGN = "foreign"
"""An object of another library (a Hypothesis strategy, a JSON scanner, a Z3 sort): its
inside is that library's, with caches that change as it is used, so a name holding one
is held by identity, and a table holding one by its top level."""

_OURS = frozenset({"builtins", "collections", "pathlib", "datetime", PACKAGE})
"""The top-level modules whose objects are fingerprinted by their contents (with the
watched modules' own classes)."""

_ORDER = {IDENTITY: 0, PICKLE: 1, FOREIGN: 2, TOP_LEVEL: 2}


def _kind(value: Any, depth: int) -> str:
    """``IDENTITY`` if nothing inside ``value`` can be edited in place (a frozen
    dataclass of tuples of strings), ``FOREIGN`` for an object of another library,
    ``TOP_LEVEL`` for what holds one, else ``PICKLE``."""
    if isinstance(value, _PLAIN + _OPAQUE):
        return IDENTITY
    if type(value).__module__.split(".")[0] not in _OURS and not _shared_class(value):
        return FOREIGN
    if depth > 30:
        return TOP_LEVEL
    frozen = type(value) in (tuple, frozenset)
    if isinstance(value, (tuple, frozenset, list, set)):
        inner = list(value)
    elif isinstance(value, Mapping):
        inner = [*value.keys(), *value.values()]
    else:
        fields = dict(getattr(value, "__dict__", {}))
        if dataclasses.is_dataclass(value):
            declared = {f.name for f in dataclasses.fields(value)}
            fields.update((name, getattr(value, name)) for name in declared)
            frozen = type(value).__dataclass_params__.frozen and set(fields) == declared  # type: ignore[union-attr]
        inner = list(fields.values())
    worst = max((_kind(v, depth + 1) for v in inner), key=_ORDER.__getitem__, default=IDENTITY)
    if worst in (FOREIGN, TOP_LEVEL):
        return TOP_LEVEL
    return worst if frozen else PICKLE


def _shared_class(value: Any) -> bool:
    """Whether ``value``'s class comes from a watched module (``_is_shared``)."""
    module = sys.modules.get(type(value).__module__)
    return module is not None and _is_shared(module.__name__, getattr(module, "__file__", None))


def _top_level(value: Any) -> bytes:
    """The identities of what ``value``'s top level holds (its items, or its fields)."""
    if isinstance(value, Mapping):
        held: Any = [(id(k), id(v)) for k, v in value.items()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        held = [id(v) for v in value]
    else:
        held = {k: id(v) for k, v in getattr(value, "__dict__", {}).items()}
    return repr((type(value).__qualname__, held)).encode()


def _process() -> dict[str, Any]:
    """The process-wide settings a test may change: each a comparable value."""
    from hypothesis import settings

    root = logging.getLogger()
    return {
        "os.environ": {k: v for k, v in os.environ.items() if k not in IGNORED_VARIABLES},
        "os.getcwd()": os.getcwd(),
        "sys.path": list(sys.path),
        "the root logger": (
            root.level,
            [h for h in root.handlers if type(h).__module__.split(".")[0] != "_pytest"],
        ),
        "the Hypothesis profile": repr(settings.default),
    }


def _show(value: Any) -> str:
    """A short form of a process setting."""
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _differences(before: Any, now: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """The paths (``NAME[1].example.events[2]['item']['name']``) where ``now`` differs
    from ``before``, with both values."""
    if type(before) is not type(now) or isinstance(before, (*_PLAIN, enum.Enum)):
        if before != now:
            yield path, before, now
    elif isinstance(before, Mapping):
        for key in list(before) + [k for k in now if k not in before]:
            if key not in now or key not in before:
                yield f"{path}[{key!r}]", before.get(key, "(absent)"), now.get(key, "(absent)")
            else:
                yield from _differences(before[key], now[key], f"{path}[{key!r}]")
    elif isinstance(before, (list, tuple)):
        for index, (a, b) in enumerate(zip(before, now, strict=False)):
            yield from _differences(a, b, f"{path}[{index}]")
        if len(before) != len(now):
            yield f"{path} (length)", len(before), len(now)
    elif dataclasses.is_dataclass(before):
        for field in dataclasses.fields(before):
            yield from _differences(
                getattr(before, field.name), getattr(now, field.name), f"{path}.{field.name}"
            )
    elif hasattr(before, "__dict__") and not isinstance(before, type):
        yield from _differences(vars(before), vars(now), f"{path}.__dict__")
    elif before != now:
        yield path, before, now
