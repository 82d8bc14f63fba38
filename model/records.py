"""Records: classes declared as dataclasses, whose methods are generated source.

``@dataclass`` writes each class's methods as source and compiles them with ``exec``
at every import, after importing ``dataclasses`` (and ``inspect``, ``ast``, ``dis``,
``tokenize``, ``copy``): ~130M instructions of a small ``reduce``'s start-up, where
``python -c pass`` costs 38M (issue 35).  A record is declared once, as a dataclass
is -- annotations, defaults, ``field(...)`` -- under ``@record(frozen=..., slots=...)``.
Its methods are the source ``dataclasses`` would write for that declaration, written
ahead of time into ``model/generated_records.py`` by
``python -m responses_oracle.model.codegen`` (``model/recordgen.py``) and loaded from
bytecode like any module.

Fenced: ``record`` compares the declaration with the shape its methods were generated
from (field names, defaults, ``field`` flags, frozen, slots, ``__post_init__``); when
they differ -- a stale generated file -- the class is made by ``dataclasses.dataclass``
instead, so a stale file costs speed, never behaviour (``tests/model/test_generated.py``
fails on it).  ``tests/model/test_records.py`` compares every record with
``dataclasses.dataclass`` of the same declaration.

What ``dataclasses`` answers about a class -- ``fields``, ``replace``, ``asdict``,
``is_dataclass`` -- works on a record: its ``__dataclass_fields__`` and
``__dataclass_params__`` are those of ``dataclasses.dataclass`` of its declaration,
made the first time either is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)


class _Missing:
    """The type of ``MISSING``."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""No default given (``dataclasses.MISSING``'s role, without importing it)."""


class FieldSpec:
    """What ``field(...)`` declared of one field; ``record`` reads it off the class."""

    __slots__ = ("compare", "default", "default_factory", "init", "repr")

    def __init__(
        self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool
    ) -> None:
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare


@overload
def field(
    *, default: _T, init: bool = ..., repr: bool = ..., compare: bool = ...
) -> _T: ...


@overload
def field(
    *, default_factory: Callable[[], _T], init: bool = ..., repr: bool = ..., compare: bool = ...
) -> _T: ...


@overload
def field(*, init: bool = ..., repr: bool = ..., compare: bool = ...) -> Any: ...


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    compare: bool = True,
) -> Any:
    """``dataclasses.field`` for a record: the parameters the records use, no others."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return FieldSpec(default, default_factory, init, repr, compare)


FieldShape = tuple[str, bool, bool, bool, bool, bool]
"""One field as the generated methods depend on it: name, has a default, has a default
factory, in ``__init__``, in ``__repr__``, compared (and hashed)."""

Shape = tuple[bool, bool, bool, tuple[FieldShape, ...]]
"""A declaration as the generated methods depend on it: frozen, slots, has
``__post_init__``, its fields."""


class Declaration:
    """A record as written: its parameters and its class body, before ``record`` ran."""

    __slots__ = ("bases", "body", "frozen", "module", "name", "qualname", "slots")

    def __init__(self, cls: type, frozen: bool, slots: bool) -> None:
        self.frozen, self.slots, self.bases = frozen, slots, cls.__bases__
        self.name, self.qualname, self.module = cls.__name__, cls.__qualname__, cls.__module__
        self.body = dict(cls.__dict__)

    @property
    def key(self) -> str:
        """The record's dotted name, under which its methods are generated."""
        return f"{self.module}.{self.qualname}"

    def shape(self) -> Shape:
        """What the generated methods were written for (``Shape``)."""
        body = self.body
        shaped: list[FieldShape] = []
        for name in body.get("__annotations__", {}):
            value = body.get(name, MISSING)
            if type(value) is FieldSpec:
                shaped.append(
                    (
                        name,
                        value.default is not MISSING,
                        value.default_factory is not MISSING,
                        value.init,
                        value.repr,
                        value.compare,
                    )
                )
            else:
                shaped.append((name, value is not MISSING, False, True, True, True))
        return (self.frozen, self.slots, "__post_init__" in body, tuple(shaped))

    def defaults(self) -> tuple[Any, ...]:
        """Each default value or default factory, in field order (what the generated
        ``__init__`` is given)."""
        body = self.body
        found: list[Any] = []
        for name in body.get("__annotations__", {}):
            value = body.get(name, MISSING)
            if type(value) is FieldSpec:
                if value.default is not MISSING:
                    found.append(value.default)
                elif value.default_factory is not MISSING:
                    found.append(value.default_factory)
            elif value is not MISSING:
                found.append(value)
        return tuple(found)

    def dataclass(self) -> type:
        """``dataclasses.dataclass`` of this declaration, as a new class: the record's
        reference, and where its ``__dataclass_fields__`` come from."""
        import dataclasses

        body = {
            name: _as_dataclass_field(value)
            for name, value in self.body.items()
            if name not in ("__dict__", "__weakref__")
        }
        body["__qualname__"] = self.qualname
        made = type(self.name, (), body)
        return dataclasses.dataclass(frozen=self.frozen, slots=self.slots)(made)


def _as_dataclass_field(value: Any) -> Any:
    if type(value) is not FieldSpec:
        return value
    import dataclasses

    return dataclasses.field(
        default=value.default if value.default is not MISSING else dataclasses.MISSING,
        default_factory=(
            value.default_factory
            if value.default_factory is not MISSING
            else dataclasses.MISSING
        ),
        init=value.init,
        repr=value.repr,
        compare=value.compare,
    )


class _Derived:
    """``__dataclass_fields__`` or ``__dataclass_params__`` of a record, made from its
    declaration by ``dataclasses`` when first read, then stored on the class."""

    __slots__ = ("attribute", "declaration")

    def __init__(self, declaration: Declaration, attribute: str) -> None:
        self.declaration, self.attribute = declaration, attribute

    def __get__(self, instance: object, owner: type) -> Any:
        reference = self.declaration.dataclass()
        for attribute in ("__dataclass_fields__", "__dataclass_params__"):
            type.__setattr__(owner, attribute, reference.__dict__[attribute])
        return reference.__dict__[self.attribute]


DECLARED: dict[str, Declaration] = {}
"""Every record declared so far, by dotted name: what the generator writes methods for."""

Build = Callable[[type, tuple[Any, ...]], tuple[tuple[str, Any], ...]]
"""A generated builder: the class as declared and its defaults → its methods."""


def _generated() -> dict[str, tuple[Shape, Build]]:
    try:
        from .generated_records import RECORDS
    except ImportError:  # not generated yet: the generator imports the records first
        return {}
    return RECORDS


@dataclass_transform(field_specifiers=(field,))
def record(*, frozen: bool = False, slots: bool = False) -> Callable[[_C], _C]:
    """``dataclasses.dataclass(frozen=frozen, slots=slots)``, with the methods
    generated ahead of time (see the module's docstring)."""

    def make(cls: _C) -> _C:
        declaration = Declaration(cls, frozen, slots)
        DECLARED[declaration.key] = declaration
        generated = _generated().get(declaration.key)
        if generated is None or generated[0] != declaration.shape():
            return declaration_as_dataclass(cls, declaration)
        return _assemble(cls, declaration, generated[1])  # type: ignore[return-value]

    return make


def declaration_as_dataclass(cls: _C, declaration: Declaration) -> _C:
    """The fallback: ``dataclasses.dataclass`` applied to ``cls`` itself."""
    import dataclasses

    for name in declaration.body.get("__annotations__", {}):
        value = declaration.body.get(name)
        if type(value) is FieldSpec:
            setattr(cls, name, _as_dataclass_field(value))
    make: Any = dataclasses.dataclass(frozen=declaration.frozen, slots=declaration.slots)
    made: _C = make(cls)
    return made


def _assemble(cls: type, declaration: Declaration, build: Build) -> type:
    """The record: ``cls`` with its generated methods, as ``dataclasses`` leaves it."""
    body = declaration.body
    qualname = declaration.qualname
    annotations = body.get("__annotations__", {})
    namespace: dict[str, Any] = {}
    for name, method in build(cls, declaration.defaults()):
        if name == "__init__":
            code = method.__code__
            hints = {key: annotations[key] for key in code.co_varnames[1 : code.co_argcount]}
            hints["return"] = None
            method.__annotations__ = hints
        if method is not None and name != "__match_args__":
            # As ``dataclasses`` names them: after the class, unless named otherwise.
            own = method.__name__ == name
            method.__qualname__ = f"{qualname}.{name}" if own else method.__name__
        if name == "__hash__" or name not in body:
            namespace[name] = method
    namespace["__dataclass_params__"] = _Derived(declaration, "__dataclass_params__")
    namespace["__dataclass_fields__"] = _Derived(declaration, "__dataclass_fields__")
    if declaration.slots:
        made = dict(body)
        for name in annotations:
            made.pop(name, None)
        made.pop("__dict__", None)
        made.pop("__weakref__", None)
        made["__slots__"] = tuple(annotations)
        made.update(namespace)
        made["__qualname__"] = qualname
        return type(cls)(declaration.name, cls.__bases__, made)
    for name, value in namespace.items():
        setattr(cls, name, value)
    for name in annotations:
        value = body.get(name)
        if type(value) is FieldSpec:
            if value.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, value.default)
    return cls
