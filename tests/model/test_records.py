"""Every record behaves as ``dataclasses.dataclass`` of its declaration (model/recordkit.py).

A record's methods are generated source (``model/generated_records.py``); each record of
the package is compared here with the dataclass ``dataclasses`` makes of the same
declaration: the class's namespace, signature, fields and parameters, and on instances
repr, equality, hashing, frozenness, ``__match_args__``, pickling, ``replace`` and
``asdict``.  A stale or missing builder falls back to ``dataclasses`` itself.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import re
import typing
from typing import Any, ClassVar

import pytest
from responses_oracle.model import recordgen
from responses_oracle.model.catalogue import ITEM_TYPES
from responses_oracle.model.recordkit import TUPLES, Declaration, NamedTuple, field, record

DECLARATIONS = recordgen.declarations()

SAMPLES: dict[str, dict[str, Any]] = {"Entry": {"spec": ITEM_TYPES["function_call"]}}
"""Values a record's ``__post_init__`` needs; every other field takes a small int."""


def _made(declaration: Declaration) -> type:
    made = importlib.import_module(declaration.module)
    for part in declaration.qualname.split("."):
        made = getattr(made, part)
    assert isinstance(made, type)
    return made


def _arguments(declaration: Declaration, base: int) -> dict[str, Any]:
    """A value for every ``__init__`` field, distinct per ``base``."""
    names = [shape[0] for shape in declaration.shape()[3] if shape[3]]
    given = {name: base + number for number, name in enumerate(names, 1)}
    given.update(SAMPLES.get(declaration.name, {}))
    return given


def _raised(action: Any) -> tuple[type[BaseException], str] | None:
    try:
        action()
    except Exception as error:  # compared, not handled: what each class raises
        return type(error), str(error)
    return None


def _written(target: object, name: str) -> tuple[Any, ...]:
    """What setting, then deleting, ``name`` on ``target`` raises."""
    return (
        _raised(lambda: setattr(target, name, 7)),
        _raised(lambda: delattr(target, name)),
    )


def _field_facts(cls: type) -> list[tuple[Any, ...]]:
    return [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.compare, f.hash)
        for f in dataclasses.fields(cls)
    ]


def test_the_package_declares_its_records() -> None:
    names = {declaration.name for declaration in DECLARATIONS}
    assert {"Diagnostic", "Result", "ResultItem", "ModelTables", "Entry", "Limits"} <= names


@pytest.mark.parametrize("declaration", DECLARATIONS, ids=lambda d: d.key)
def test_a_record_is_built_from_its_generated_methods(declaration: Declaration) -> None:
    made = _made(declaration)
    assert made.__init__.__code__.co_filename.endswith("generated_records.py")  # type: ignore[misc]
    assert "__dataclass_fields__" in vars(made)
    assert not isinstance(vars(made)["__dataclass_fields__"], dict) or dataclasses.fields(made)


@pytest.mark.parametrize("declaration", DECLARATIONS, ids=lambda d: d.key)
def test_a_record_class_is_the_dataclass_of_its_declaration(declaration: Declaration) -> None:
    made, reference = _made(declaration), declaration.dataclass()
    # copyreg caches __slotnames__ on a class the first time one of its instances is
    # copied or pickled (another test may have).
    assert sorted(set(vars(made)) - {"__slotnames__"}) == sorted(vars(reference))
    for name in ("__doc__", "__module__", "__qualname__", "__match_args__"):
        assert getattr(made, name) == getattr(reference, name), name
    assert getattr(made, "__slots__", None) == getattr(reference, "__slots__", None)
    assert (made.__hash__ is None) == (reference.__hash__ is None)
    assert str(inspect.signature(made)) == str(inspect.signature(reference))
    assert made.__init__.__annotations__ == reference.__init__.__annotations__  # type: ignore[misc]
    for name, value in vars(reference).items():
        if inspect.isfunction(value):
            assert vars(made)[name].__qualname__ == value.__qualname__, name
    assert dataclasses.is_dataclass(made)
    assert repr(made.__dataclass_params__) == repr(reference.__dataclass_params__)  # type: ignore[attr-defined]
    assert _field_facts(made) == _field_facts(reference)


@pytest.mark.parametrize("declaration", DECLARATIONS, ids=lambda d: d.key)
def test_a_record_instance_behaves_as_the_dataclass_one(declaration: Declaration) -> None:
    made, reference = _made(declaration), declaration.dataclass()
    given, other = _arguments(declaration, 0), _arguments(declaration, 100)
    mine, theirs = made(**given), reference(**given)
    assert repr(mine) == repr(theirs)
    assert repr(made(*given.values())) == repr(mine)
    assert mine == made(**given) and (mine != made(**other)) == (theirs != reference(**other))
    assert mine.__eq__(theirs) is NotImplemented
    if made.__hash__ is not None:
        assert hash(mine) == hash(theirs)
    assert dataclasses.asdict(mine) == dataclasses.asdict(theirs)
    changed = dataclasses.replace(mine, **other)
    assert repr(changed) == repr(dataclasses.replace(theirs, **other))
    for name in (dataclasses.fields(made)[0].name, "not_a_field"):
        assert _written(made(**given), name) == _written(reference(**given), name)
    if hasattr(reference, "__getstate__") and "__getstate__" in vars(reference):
        assert mine.__getstate__() == theirs.__getstate__()
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert copy.deepcopy(mine) == mine and copy.copy(mine) == mine
    if any(shape[1] or shape[2] for shape in declaration.shape()[3]):
        bare = {name: value for name, value in given.items() if name not in _defaulted(declaration)}
        # A default factory's value may show its address (``Interner``).
        unplaced = re.compile(r" at 0x[0-9a-f]+")
        assert unplaced.sub("", repr(made(**bare))) == unplaced.sub("", repr(reference(**bare)))


def _defaulted(declaration: Declaration) -> set[str]:
    return {shape[0] for shape in declaration.shape()[3] if shape[1] or shape[2]}


def test_a_default_factory_makes_a_new_value_per_instance() -> None:
    from responses_oracle.core.state import ResponseState

    first, second = ResponseState(), ResponseState()
    assert first.entries == [] and first.entries is not second.entries


def test_a_record_without_generated_methods_is_made_by_dataclasses() -> None:
    """A declaration the generated file does not know (or knows in another shape) falls
    back to ``dataclasses.dataclass``: the same class, made the slow way."""

    @record(frozen=True, slots=True)
    class Unknown:
        """Declared only here."""

        name: str
        tags: list[str] = field(default_factory=list)
        hidden: int = field(default=3, repr=False)

    made = Unknown("a")
    assert isinstance(vars(Unknown)["__dataclass_fields__"], dict)
    assert repr(made).endswith("<locals>.Unknown(name='a', tags=[])")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "b"  # type: ignore[misc]
    assert dataclasses.replace(made, hidden=4).hidden == 4


class _Base:
    """A base class."""


def _without_doc() -> type:
    class Bare:
        name: str

    return Bare


def _inherits() -> type:
    class Child(_Base):
        """Inherits."""

        name: str

    return Child


def _class_var() -> type:
    class Counted:
        """Has a class variable."""

        count: ClassVar[int] = 0

    return Counted


def _own_eq() -> type:
    class Compared:
        """Compares itself."""

        name: str

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    return Compared


def _default_first() -> type:
    class Ordered:
        """A default before a required field."""

        a: int = 1
        b: int = field()

    return Ordered


def _shadows_a_helper() -> type:
    class Shadowing:
        """A field named as a helper the generated ``__init__`` reads."""

        _object_setattr: int

    return Shadowing


@pytest.mark.parametrize(
    "declare", [_without_doc, _inherits, _class_var, _own_eq, _default_first, _shadows_a_helper]
)
def test_the_generator_refuses_what_it_does_not_write(declare: Any) -> None:
    with pytest.raises(TypeError, match="recordgen does not write"):
        recordgen.builder(Declaration(declare(), frozen=True, slots=True))


def _tuple_modules() -> list[str]:
    """Every module that makes its named tuples with ``recordkit.NamedTuple``."""
    found = []
    for module in recordgen.record_modules(recordgen.TUPLES_AT):
        importlib.import_module(module)
        found.append(module)
    return found


TUPLE_MODULES = _tuple_modules()
TUPLE_NAMES = sorted(key for key in TUPLES if key.rsplit(".", 1)[0] in TUPLE_MODULES)


def test_the_reduce_path_makes_its_named_tuples_with_records() -> None:
    assert len(TUPLE_NAMES) >= 12
    assert "responses_oracle.model.lifecycle.Transition" in TUPLE_NAMES


@pytest.mark.parametrize("key", TUPLE_NAMES)
def test_a_named_tuple_is_typings_of_its_class_body(key: str) -> None:
    """The same class ``typing.NamedTuple`` makes of the same class body."""
    made = _made_named(*key.rsplit(".", 1))
    assert made.__new__.__code__.co_filename.endswith("generated_records.py")
    _same_as_typing(key)


def test_a_named_tuple_without_a_generated_new_is_typings_too() -> None:
    """A named tuple the generated file does not know gets ``collections.namedtuple``'s
    ``__new__``: the same class, made the slower way."""
    [key] = [key for key in TUPLES if key.endswith("._Hinted")]
    assert "generated_records" not in _made_named(*key.rsplit(".", 1)).__new__.__code__.co_filename
    _same_as_typing(key)


def _same_as_typing(key: str) -> None:
    body = dict(TUPLES[key])
    module, _, name = key.rpartition(".")
    made = _made_named(module, body["__qualname__"])
    reference = typing.NamedTupleMeta(name, (typing._NamedTuple,), dict(body))  # type: ignore[attr-defined]
    # copyreg caches __slotnames__ on a class the first time one of its instances is
    # copied or pickled: the package's classes live for the whole session, and any test
    # before this one may have copied an instance (a deep copy of a table), while
    # ``reference`` is new.
    assert sorted(set(vars(made)) - {"__slotnames__"}) == sorted(vars(reference))
    for attribute in (
        "__doc__", "__module__", "__qualname__", "__match_args__", "_fields", "_field_defaults",
        "__orig_bases__", "__annotations__", "__mro__",
    ):
        if attribute == "__mro__":
            assert made.__mro__[1:] == reference.__mro__[1:]
            continue
        assert getattr(made, attribute) == getattr(reference, attribute), attribute
    assert made.__new__.__annotations__ == reference.__new__.__annotations__
    assert made.__new__.__defaults__ == reference.__new__.__defaults__
    assert str(inspect.signature(made)) == str(inspect.signature(reference))
    namespace = vars(importlib.import_module(module))
    assert typing.get_type_hints(made, namespace) == typing.get_type_hints(reference, namespace)
    values = tuple(range(len(made._fields)))
    mine, theirs = made(*values), reference(*values)
    assert repr(mine) == repr(theirs) and mine == theirs and hash(mine) == hash(theirs)
    assert mine._asdict() == theirs._asdict()
    first = {made._fields[0]: "x"}
    assert repr(mine._replace(**first)) == repr(theirs._replace(**first))
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert made._make(values) == mine and type(made._make(values)) is made
    short = values[1:]
    assert _raised(lambda: made._make(short)) == _raised(lambda: reference._make(short))
    assert _raised(lambda: mine._replace(nothing=1)) == _raised(lambda: theirs._replace(nothing=1))
    # The methods' names and docs are collections.namedtuple's; their __module__ says
    # where their code is (records, not collections), as a traceback does.
    assert made.__new__.__module__ == reference.__new__.__module__
    for name in ("__new__", "_make", "_replace", "__repr__", "_asdict", "__getnewargs__"):
        for part in ("__doc__", "__qualname__", "__name__"):
            mine_part = getattr(getattr(made, name), part)
            assert mine_part == getattr(getattr(reference, name), part), (name, part)
    for index, name in enumerate(made._fields):
        assert vars(made)[name].__doc__ == vars(reference)[name].__doc__ == (
            f"Alias for field number {index}"
        )


def _made_named(module: str, qualname: str) -> Any:
    made: Any = importlib.import_module(module)
    for part in qualname.split("."):
        made = getattr(made, part)
    return made


def test_a_forward_reference_made_without_compiling_evaluates_as_typings() -> None:
    from responses_oracle.model import recordkit as records

    mine, theirs = records._forward_ref("int | None"), typing.ForwardRef("int | None")
    assert mine == theirs and hash(mine) == hash(theirs) and repr(mine) == repr(theirs)
    assert typing.get_type_hints(_Hinted, {"_Hinted": _Hinted}) == {"value": int | None}
    evaluated = mine._evaluate({}, {}, frozenset())  # type: ignore[attr-defined]
    assert evaluated == theirs._evaluate({}, {}, frozenset()) == int | None  # type: ignore[attr-defined]


class _Hinted(NamedTuple):
    """A named tuple of this test module."""

    value: int | None
