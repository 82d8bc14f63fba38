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

import collections
import sys
import typing
from collections import _tuplegetter  # type: ignore[attr-defined]
from collections.abc import Callable
from types import FunctionType
from typing import TYPE_CHECKING, Any, ForwardRef, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)


MISSING: Any = object()
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


# Named tuples.  ``typing.NamedTuple`` checks every field's annotation when the class is
# made; under ``from __future__ import annotations`` each is a string, which it turns
# into a ``ForwardRef`` whose constructor compiles the string -- and the first
# ``compile`` of a process builds the types of the ``ast`` module: ~15M instructions
# for the 74 fields of a small reduce's 12 named tuples (issue 35).  Then
# ``collections.namedtuple`` compiles each ``__new__`` with ``eval`` (another 3.7M).
# ``NamedTuple`` below is ``typing.NamedTuple`` for type checkers; at run time it makes
# the class ``typing.NamedTuple`` makes: ``__new__`` generated ahead of time
# (``model/generated_records.py``; ``collections.namedtuple`` when it is stale), the
# other methods and the field accessors as ``collections.namedtuple`` makes them, then
# the class body's names; each ``ForwardRef`` made as ``ForwardRef(arg)`` makes it but
# holding the source it evaluates, not its compiled code: ``eval`` takes either.
# ``tests/model/test_records.py`` compares each with ``typing.NamedTuple`` of the same
# class body.

_PROHIBITED = frozenset(
    {
        "__new__",
        "__init__",
        "__slots__",
        "__getnewargs__",
        "_fields",
        "_field_defaults",
        "_make",
        "_replace",
        "_asdict",
        "_source",
    }
)
"""What a named tuple's class body may not define (``typing``'s list)."""

TUPLES: dict[str, dict[str, Any]] = {}
"""Every named tuple made by ``NamedTuple``, by dotted name: its class body."""

New = Callable[..., Any]
"""A named tuple's generated ``__new__``."""


def _forward_ref(arg: str) -> ForwardRef:
    """``typing.ForwardRef(arg)``, its source kept for ``eval`` rather than compiled."""
    if arg.startswith("*"):  # typing rewrites an unpacking; let it
        return ForwardRef(arg)
    ref = object.__new__(ForwardRef)
    ref.__forward_arg__ = arg
    ref.__forward_code__ = arg  # type: ignore[assignment]
    ref.__forward_evaluated__ = False
    ref.__forward_value__ = None
    ref.__forward_is_argument__ = True
    ref.__forward_is_class__ = False
    ref.__forward_module__ = None
    return ref


def _generated_tuples() -> dict[str, tuple[tuple[str, ...], New]]:
    try:
        from .generated_records import TUPLES as generated
    except ImportError:  # not generated yet: the generator imports the tuples first
        return {}
    return generated


def _namedtuple(
    typename: str, fields: tuple[str, ...], defaults: tuple[Any, ...], module: str, new: New
) -> Any:
    """``collections.namedtuple(typename, fields, defaults=defaults, module=module)``,
    with ``new`` (generated for ``fields``) as its ``__new__`` instead of one compiled."""
    fields = tuple(map(sys.intern, fields))
    count = len(fields)
    arguments = ", ".join(fields) + ("," if count == 1 else "")
    shown = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"
    make_tuple = tuple.__new__
    made_new = FunctionType(new.__code__, new.__globals__, "__new__", defaults)
    made_new.__doc__ = f"Create new instance of {typename}({arguments})"
    made_new.__module__ = f"namedtuple_{typename}"

    def _make(cls: Any, iterable: Any) -> Any:
        made = make_tuple(cls, iterable)
        if len(made) != count:
            raise TypeError(f"Expected {count} arguments, got {len(made)}")
        return made

    _make.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self: Any, /, **kwds: Any) -> Any:
        made = self._make(map(kwds.pop, fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return made

    _replace.__doc__ = (
        f"Return a new {typename} object replacing specified fields with new values"
    )

    def __repr__(self: Any) -> Any:
        "Return a nicely formatted representation string"
        return self.__class__.__name__ + shown % self

    def _asdict(self: Any) -> dict[str, Any]:
        "Return a new dict which maps field names to their values."
        return dict(zip(self._fields, self, strict=False))

    def __getnewargs__(self: Any) -> tuple[Any, ...]:
        "Return self as a plain tuple.  Used by copy and pickle."
        return tuple(self)

    for method in (made_new, _make, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"
    namespace: dict[str, Any] = {
        "__doc__": f"{typename}({arguments})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": dict(zip(fields[count - len(defaults) :], defaults, strict=True)),
        "__new__": made_new,
        "_make": classmethod(_make),
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": fields,
    }
    for index, name in enumerate(fields):
        namespace[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    made = type(typename, (tuple,), namespace)
    made.__module__ = module
    return made


class _NamedTupleMeta(type):
    """Makes a named tuple from its class body, as ``typing.NamedTupleMeta`` does."""

    def __new__(cls, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        ns = dict(ns)
        if "__orig_bases__" in ns:  # as typing's would read: (typing.NamedTuple, ...)
            ns["__orig_bases__"] = tuple(
                typing.NamedTuple if base is NamedTuple else base for base in ns["__orig_bases__"]
            )
        annotations = ns.get("__annotations__", {})
        fields = tuple(annotations)
        defaults = tuple(ns[name] for name in fields if name in ns)
        if (
            bases != (_NamedTupleBase,)
            or not all(type(arg) is str for arg in annotations.values())
            or any(name not in ns for name in fields[len(fields) - len(defaults) :])
        ):
            # Generic, evaluated annotations, misplaced defaults: typing's own way.
            return typing.NamedTupleMeta(typename, _TYPING_BASES, ns)  # type: ignore[attr-defined]
        key = f"{ns['__module__']}.{ns['__qualname__']}"
        TUPLES[key] = ns
        generated = _generated_tuples().get(key)
        made: Any
        if generated is not None and generated[0] == fields:
            made = _namedtuple(typename, fields, defaults, ns["__module__"], generated[1])
        else:  # a stale generated file: the slower way, the same class
            make: Any = collections.namedtuple
            made = make(typename, fields, defaults=defaults, module=ns["__module__"])
        made.__annotations__ = made.__new__.__annotations__ = {
            name: _forward_ref(arg) for name, arg in annotations.items()
        }
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in ("__module__", "__name__", "__annotations__") and key not in fields:
                setattr(made, key, value)
        return made


_NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
_TYPING_BASES = typing.NamedTuple.__mro_entries__((typing.NamedTuple,))  # type: ignore[attr-defined]

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:

    def NamedTuple(*args, **kwargs):
        """``typing.NamedTuple`` as a base class (see ``_NamedTupleMeta``); called, it
        is ``typing.NamedTuple`` called from here, so use that."""
        raise TypeError("call typing.NamedTuple, not responses_oracle.model.recordkit.NamedTuple")

    # As typing's own: a class statement's bases ask the function for the real base.
    NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)
