"""What one test file may not leave behind for the next: the shared state it changed.

Rule: a test file leaves every piece of process-wide state as it found it.  The suite
runs its files in an order, and on workers, that change from run to run (pytest-xdist
``--dist loadfile`` puts any two files in one process; ``test_order.py`` shuffles the
quick loop), so a file that edits data another file reads makes that other file fail
some of the time -- in CI, once, ``test_go_adapters.py`` renamed a call inside a peers
scenario (``docsite.peers.SCENARIOS``) and ``test_go_candidates.py``, later in the same
worker, saw the new name.  ``monkeypatch`` and ``tmp_path`` are the ways to change
state for one test; this module catches the rest.

Theory of operation: ``Snapshot.take()`` fingerprints the shared state; ``conftest.py``
takes one before each test file's first test and compares it with one taken after its
last (a module-scoped autouse fixture: set up first, torn down last), and a change is an
error of that file naming what changed.  What is fingerprinted:

- every module-level name of the package (``responses_oracle.*``) and of the shared test
  and tool modules (those under ``tests/`` and ``tools/`` that are not test files): which
  object each name holds, and that object's contents, deeply (its pickle, hashed: about
  400 kB in all, a few milliseconds), so an edit of a nested item is seen;
- what a cached loader of no arguments (``functools.cache``) has handed out, which every
  caller then shares;
- the environment, the working folder, ``sys.path``, the package's modules in
  ``sys.modules``, the root logger's level and handlers, and the Hypothesis profile.

A change is then described from the snapshot before (its pickle, loaded again): the
first few paths that differ, with both values.  A value pickle cannot hold (a function,
a Z3 sort) is held by identity: replacing it is seen, its inside is not.  The state that
legitimately changes as tests run (a cache filled on first use) is ``FILLED_ON_USE``,
each with its reason.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import inspect
import io
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

FILLED_ON_USE: frozenset[str] = frozenset()
"""Module-level names whose value grows as the code is used, not as tests edit it
(``module.NAME``): left out of the fingerprint."""

IGNORED_VARIABLES = frozenset({"PYTEST_CURRENT_TEST"})
"""Environment variables pytest itself sets for each test."""

SHOWN = 3
"""The differences a report lists per changed name."""


@dataclasses.dataclass(frozen=True)
class Held:
    """What a snapshot keeps of one name: the identity of its value, its contents'
    hash, and the pickle it was hashed from (None when held by identity only)."""

    identity: int
    digest: bytes
    pickled: bytes | None


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The shared state at one moment (the module's docstring lists what is in it)."""

    names: Mapping[str, Held]
    process: Mapping[str, Any]

    @classmethod
    def take(cls) -> Snapshot:
        """The state now."""
        names: dict[str, Held] = {}
        done: dict[int, Held] = {}
        for module_name, module in _watched():
            for name, value in list(vars(module).items()):
                key = f"{module_name}.{name}"
                if name.startswith("__") or key in FILLED_ON_USE:
                    continue
                if _loader(value):
                    names[f"{key}()"] = _hold(value(), done)
                names[key] = _hold(value, done)
        return cls(names, _process())

    def changes(self, after: Snapshot) -> list[str]:
        """What differs in ``after``, one line per change (empty: nothing)."""
        lines = [
            f"{key}: {_show(self.process.get(key))} -> {_show(after.process.get(key))}"
            for key in sorted(self.process.keys() | after.process.keys())
            if self.process.get(key) != after.process.get(key)
        ]
        edited: dict[int, list[str]] = {}
        for key, held in self.names.items():
            now = after.names.get(key)
            if now is None:
                lines.append(f"{key}: removed")
            elif now.identity != held.identity:
                lines.append(f"{key}: now holds another object")
            elif now.digest != held.digest:
                edited.setdefault(held.identity, []).append(key)
        for key, *aliases in edited.values():
            also = f" (also imported as {', '.join(aliases)})" if aliases else ""
            lines.append(f"{key}: edited in place{also}{_where(self.names[key], key)}")
        return lines


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
    if file is None:
        return False
    path = Path(file).resolve()
    return (
        any(path.is_relative_to(folder) for folder in SHARED_FOLDERS)
        and not path.name.startswith("test_")
        and path.name != "conftest.py"
    )


def _loader(value: Any) -> bool:
    """Whether ``value`` is a cached loader of no arguments that has loaded (calling it
    again then runs nothing and returns what every caller shares)."""
    if not isinstance(value, functools._lru_cache_wrapper) or not value.cache_info().currsize:
        return False
    try:
        return not inspect.signature(value).parameters
    except (TypeError, ValueError):
        return False


_PLAIN = (type(None), bool, int, float, complex, str, bytes, range)


def _hold(value: Any, done: dict[int, Held]) -> Held:
    """``value`` fingerprinted (once per object: many modules import the same table)."""
    held = done.get(id(value))
    if held is not None:
        return held
    if isinstance(value, _PLAIN + _OPAQUE + (functools._lru_cache_wrapper,)):
        held = Held(id(value), b"", None)
    else:
        pickled = _pickled(value)
        held = Held(id(value), hashlib.blake2b(pickled, digest_size=16).digest(), pickled)
    done[id(value)] = held
    return held


def _pickled(value: Any) -> bytes:
    """``value``'s pickle; what pickle cannot hold is held by identity (``_ByIdentity``)."""
    try:
        return pickle.dumps(value, protocol=5)
    except Exception:  # noqa: BLE001 -- any value pickle refuses is held another way
        stream = io.BytesIO()
        try:
            _ByIdentity(stream, protocol=5).dump(value)
        except Exception:  # noqa: BLE001
            return repr(("identity", id(value))).encode()
        return stream.getvalue()


_OPAQUE = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType,
    types.GetSetDescriptorType, types.MemberDescriptorType, types.WrapperDescriptorType,
    types.MethodDescriptorType, type,
)
_DEEP_MODULES = frozenset({"builtins", "collections", "pathlib", "enum", "datetime", PACKAGE})


class _ByIdentity(pickle.Pickler):
    """A pickler for a value that plain pickle refuses: functions, descriptors, classes
    and objects of other libraries (a Z3 sort, a JSON scanner) by identity, a read-only
    mapping by its contents."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.MappingProxyType):
            return dict, (dict(obj),)
        if isinstance(obj, _OPAQUE) or type(obj).__module__.split(".")[0] not in _DEEP_MODULES:
            return id, (id(obj),)
        return NotImplemented


def _process() -> dict[str, Any]:
    """The process-wide settings a test may change: each a comparable value."""
    from hypothesis import settings

    root = logging.getLogger()
    modules = {
        name: id(module)
        for name, module in list(sys.modules.items())
        if name == PACKAGE or name.startswith(PACKAGE + ".")
    }
    return {
        "os.environ": {k: v for k, v in os.environ.items() if k not in IGNORED_VARIABLES},
        "os.getcwd()": os.getcwd(),
        "sys.path": list(sys.path),
        "the package's modules in sys.modules": modules,
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


def _where(held: Held, key: str) -> str:
    """Where a name edited in place differs: its first ``SHOWN`` paths, with the value
    before and after (empty when the value before cannot be loaded again)."""
    if held.pickled is None:
        return ""
    try:
        before = pickle.loads(held.pickled)
    except Exception:  # noqa: BLE001 -- a value held by identity inside cannot be loaded
        return ""
    module_name, _, name = key.removesuffix("()").rpartition(".")
    now = vars(sys.modules[module_name])[name]
    if key.endswith("()"):
        now = now()
    paths = list(_differences(before, now, name))[:SHOWN]
    return "".join(f"\n    {path}: {_show(a)} -> {_show(b)}" for path, a, b in paths)


def _differences(before: Any, now: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """The paths (``NAME[1].example.events[2]['item']['name']``) where ``now`` differs
    from ``before``, with both values."""
    if type(before) is not type(now):
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
