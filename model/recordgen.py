"""The generator of the records' methods: each ``@record`` declaration → plain source.

For every class declared with ``recordkit.record`` in the package, ``render_records``
writes one builder into ``model/generated_records.py``: the ``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, frozen ``__setattr__``/``__delattr__``,
``__match_args__`` and (frozen with slots) ``__getstate__``/``__setstate__`` that
``dataclasses.dataclass`` (Python 3.11) writes for the same declaration, line for
line, with the defaults passed in rather than written out (they stay in the
declaration).  The file also holds each declaration's shape, which ``record`` checks
before it uses the builder.  For each named tuple made with ``recordkit.NamedTuple`` it
writes the ``__new__`` ``collections.namedtuple`` compiles with ``eval``.
``tests/model/test_generated.py`` fails when the file is stale;
``tests/model/test_records.py`` compares each record with ``dataclasses`` and each named
tuple with ``typing.NamedTuple``.

Only what the records use is supported: inheritance, ``ClassVar``, ``InitVar``,
``KW_ONLY``, a field named ``self``, a class without a docstring or one that writes its
own ``__init__``/``__repr__``/``__eq__``/``__hash__``/``__setattr__``/``__delattr__``
fail here, at generation time.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

from .recordkit import DECLARED, TUPLES, Declaration, FieldShape

REGENERATE_COMMAND = "python -m responses_oracle.model.codegen"
"""The command that regenerates the records' methods (with the kernels)."""

_DECLARED_AT = re.compile(r"^@record\(", re.MULTILINE)

TUPLES_AT = (
    r"^from (?:\.recordkit|responses_oracle\.model\.recordkit) import \(?[\w\s,]*?\bNamedTuple\b"
)
"""A module that makes named tuples with ``recordkit.NamedTuple`` imports it so."""

_HELPERS = frozenset(
    {"_object_setattr", "_HAS_DEFAULT_FACTORY", "_frozen_error", "_get_ident", "running", "cls"}
)
"""Names the generated methods read besides their fields (a field may not shadow one)."""

_OWN_METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def records_path() -> Path:
    """Where the generated records' methods live in the source tree (links resolved)."""
    spec = importlib.util.find_spec("responses_oracle.model")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent / "generated_records.py"


def record_modules(pattern: str = _DECLARED_AT.pattern) -> list[str]:
    """Every module of the package that declares a record (a line ``@record(``), or
    has a line that matches ``pattern``."""
    declared_at = re.compile(pattern, re.MULTILINE)
    spec = importlib.util.find_spec("responses_oracle")
    assert spec is not None and spec.submodule_search_locations is not None
    root = Path(next(iter(spec.submodule_search_locations)))
    found = []
    for path in sorted(root.rglob("*.py")):
        if declared_at.search(path.read_text(encoding="utf-8")):
            parts = path.relative_to(root).with_suffix("").parts
            found.append(".".join(("responses_oracle", *parts)))
    return found


def declarations() -> list[Declaration]:
    """Every record the package declares, by dotted name (their modules imported); a
    record declared elsewhere (a test's) is not the package's."""
    modules = record_modules()
    for module in modules:
        importlib.import_module(module)
    return [DECLARED[key] for key in sorted(DECLARED) if DECLARED[key].module in modules]


def tuple_declarations() -> list[tuple[str, tuple[str, ...]]]:
    """Every named tuple the package makes with ``recordkit.NamedTuple``: its dotted
    name and its fields (their modules imported)."""
    modules = record_modules(TUPLES_AT)
    for module in modules:
        importlib.import_module(module)
    return [
        (key, tuple(TUPLES[key].get("__annotations__", {})))
        for key in sorted(TUPLES)
        if TUPLES[key]["__module__"] in modules
    ]


def _tuple_new(key: str, fields: tuple[str, ...]) -> list[str]:
    """The ``__new__`` ``collections.namedtuple`` compiles for ``fields``."""
    for name in fields:
        if name.startswith("_"):  # collections.namedtuple refuses it: so does the fallback
            raise TypeError(f"named tuple {key}: the field {name}, which recordgen does not write")
    arguments = ", ".join(fields)
    typed = ", ".join(f"{name}: Any" for name in fields)
    made = f"({fields[0]},)" if len(fields) == 1 else f"({arguments})"
    return [
        "",
        "",
        f"def {_builder_name_of(key, 'new')}(_cls: Any, {typed}) -> Any:",
        f'    """``__new__`` of the named tuple ``{key}``."""',
        f"    return _tuple_new(_cls, {made})",
    ]


def _refuse(declaration: Declaration, why: str) -> None:
    raise TypeError(f"record {declaration.key}: {why}, which recordgen does not write")


def _check(declaration: Declaration) -> None:
    body = declaration.body
    if declaration.bases != (object,):
        _refuse(declaration, "a base class")
    if not body.get("__doc__"):
        _refuse(declaration, "no docstring (dataclasses writes one)")
    for name in _OWN_METHODS:
        if name in body:
            _refuse(declaration, f"its own {name}")
    for name, annotation in body.get("__annotations__", {}).items():
        if name == "self" or name in _HELPERS or name.startswith("_dflt_"):
            _refuse(declaration, f"a field named {name}, a name the methods use")
        if not isinstance(annotation, str) or re.search(r"ClassVar|InitVar|KW_ONLY", annotation):
            _refuse(declaration, f"the annotation {annotation!r} of {name}")
    seen_default = False
    for name, has_default, has_factory, init, _, _ in declaration.shape()[3]:
        if init and (has_default or has_factory):
            seen_default = True
        elif init and seen_default:
            _refuse(declaration, f"the field {name} without a default after one with")


def _builder_name_of(key: str, prefix: str = "") -> str:
    return f"_{prefix}_" * bool(prefix) + key.removeprefix("responses_oracle.").replace(".", "_")


def _builder_name(declaration: Declaration) -> str:
    return "_" + _builder_name_of(declaration.key)


def _tuple(prefix: str, names: list[str]) -> str:
    if len(names) == 1:
        return f"({prefix}{names[0]},)"
    return "(" + ", ".join(f"{prefix}{name}" for name in names) + ")"


def _init(declaration: Declaration, fields: tuple[FieldShape, ...]) -> list[str]:
    frozen, slots, post_init, _ = declaration.shape()
    params = ["self: Any"]
    lines = []
    for name, has_default, has_factory, init, _, _ in fields:
        if has_factory:
            value = f"_dflt_{name}()"
            if init:
                params.append(f"{name}: Any = _HAS_DEFAULT_FACTORY")
                value = f"_dflt_{name}() if {name} is _HAS_DEFAULT_FACTORY else {name}"
        elif init:
            params.append(f"{name}: Any = _dflt_{name}" if has_default else f"{name}: Any")
            value = name
        elif slots and has_default:
            value = f"_dflt_{name}"
        else:
            continue
        if frozen:
            lines.append(f"_object_setattr(self, {name!r}, {value})")
        else:
            lines.append(f"self.{name} = {value}")
    if post_init:
        lines.append("self.__post_init__()")
    signature = ", ".join(params)
    return [f"def __init__({signature}) -> None:", *[f"    {line}" for line in lines or ["pass"]]]


def builder(declaration: Declaration) -> list[str]:
    """The lines of ``declaration``'s builder (``TypeError`` for what is not supported)."""
    _check(declaration)
    frozen, slots, _, fields = declaration.shape()
    names = [field[0] for field in fields]
    defaulted = [f"_dflt_{field[0]}" for field in fields if field[1] or field[2]]
    shown = ", ".join(f"{field[0]}={{self.{field[0]}!r}}" for field in fields if field[4])
    compared = [field[0] for field in fields if field[5]]
    methods = ["__init__", "__repr__", "__eq__"]
    body = _init(declaration, fields)
    body += [
        "def __repr__(self: Any) -> Any:",
        "    key = id(self), _get_ident()",
        "    if key in running:",
        "        return '...'",
        "    running.add(key)",
        "    try:",
        f'        return self.__class__.__qualname__ + f"({shown})"',
        "    finally:",
        "        running.discard(key)",
        "def __eq__(self: Any, other: Any) -> Any:",
        "    if other.__class__ is self.__class__:",
        f"        return {_tuple('self.', compared)} == {_tuple('other.', compared)}",
        "    return NotImplemented",
    ]
    every = _tuple("", [repr(name) for name in names])
    if frozen:
        methods += ["__setattr__", "__delattr__", "__hash__"]
        body += [
            f"__setattr__, __delattr__ = _frozen(cls, {every})",
            "def __hash__(self: Any) -> int:",
            f"    return hash({_tuple('self.', compared)})",
        ]
    named = [f"({name!r}, {name})" for name in methods]
    if not frozen:
        named.append("('__hash__', None)")
    init_names = [repr(field[0]) for field in fields if field[3]]
    named.append(f"('__match_args__', {_tuple('', init_names)})")
    if frozen and slots:
        body.append(f"_dataclass_getstate, _dataclass_setstate = _slot_state({every})")
        # Named as dataclasses names them: they are not renamed after the class.
        named += ["('__getstate__', _dataclass_getstate)", "('__setstate__', _dataclass_setstate)"]
    head = [
        "",
        "",
        f"def {_builder_name(declaration)}(cls: Any, defaults: tuple[Any, ...]) -> Methods:",
        f'    """``{declaration.qualname}`` of ``{declaration.module}``."""',
    ]
    if defaulted:
        unpacked = f"({defaulted[0]},)" if len(defaulted) == 1 else ", ".join(defaulted)
        head.append(f"    {unpacked} = defaults")
    head.append("    running: set[tuple[int, int]] = set()")
    tail = ["return (", *[f"    {item}," for item in named], ")"]
    return [*head, *[f"    {line}" for line in [*body, *tail]]]


_HEADER = '''\
# GENERATED FILE — DO NOT EDIT.
# Generated from the @record declarations of model/ and impl/ by `{command}`.
# Change a declaration and rerun that command; a test fails when this file is stale.
"""The records' methods, as ``dataclasses.dataclass`` would write them (``model/recordkit.py``).

Each builder takes the class as declared and its defaults (in field order) and returns
its methods; ``RECORDS`` maps each record's dotted name to the shape of the declaration
its builder was written for, and the builder.  ``TUPLES`` maps each named tuple made with
``recordkit.NamedTuple`` to its fields and the ``__new__`` ``collections.namedtuple`` would
compile for them.  Loaded from bytecode like any module, so a record costs no ``exec``
and no ``import dataclasses`` at start-up, a named tuple no ``eval``.
"""

from __future__ import annotations

from _thread import get_ident as _get_ident
from collections.abc import Callable
from typing import Any

Methods = tuple[tuple[str, Any], ...]
"""A record's methods, by name."""

_object_setattr = object.__setattr__
_tuple_new = tuple.__new__


class _HasDefaultFactory:
    """The default an ``__init__`` shows for a field with a default factory."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _HasDefaultFactory()


def _frozen_error(message: str) -> Exception:
    """``dataclasses.FrozenInstanceError``, imported when a record is written to."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


def _frozen(cls: Any, names: tuple[str, ...]) -> tuple[Any, Any]:
    """A frozen record's ``__setattr__`` and ``__delattr__`` (``cls``: as declared)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {{name!r}}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {{name!r}}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _slot_state(names: tuple[str, ...]) -> tuple[Any, Any]:
    """A frozen record with slots: what a copy or a pickle keeps of it, and restores."""

    def _dataclass_getstate(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def _dataclass_setstate(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            _object_setattr(self, name, value)

    return _dataclass_getstate, _dataclass_setstate
'''


def render_records() -> str:
    """The source text of ``model/generated_records.py``."""
    found = declarations()
    lines = [_HEADER.format(command=REGENERATE_COMMAND).rstrip("\n")]
    for declaration in found:
        lines.extend(builder(declaration))
    lines += [
        "",
        "",
        "RECORDS: dict[str, tuple[Any, Callable[[type, tuple[Any, ...]], Methods]]] = {",
    ]
    for declaration in found:
        lines.append(f"    {declaration.key!r}: (")
        lines.append(f"        {declaration.shape()!r},")
        lines.append(f"        {_builder_name(declaration)},")
        lines.append("    ),")
    lines += ["}", '"""Each record\'s declared shape and its builder, by dotted name."""']
    tuples = tuple_declarations()
    for key, fields in tuples:
        lines.extend(_tuple_new(key, fields))
    lines += ["", "", "TUPLES: dict[str, tuple[tuple[str, ...], Callable[..., Any]]] = {"]
    for key, fields in tuples:
        lines.append(f"    {key!r}: ({fields!r}, {_builder_name_of(key, 'new')}),")
    lines += ["}", '"""Each named tuple\'s fields and its ``__new__``, by dotted name."""', ""]
    return "\n".join(lines)
