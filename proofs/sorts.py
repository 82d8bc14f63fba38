"""Z3 sorts for the model's enums, and the abstraction of strings (``Payload``).

Shared by the encoding and by ``ops_z3`` (the Z3 interpretation of ``model.ops``).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Generic, TypeVar

import z3

E = TypeVar("E", bound=Enum)

Term = Any
"""A Z3 expression.  z3 ships no type stubs; the alias names what the code means."""


class Payload(Enum):
    """The abstraction of one payload string: missing, empty, or one of two values.

    ``B`` is ``A`` extended (``A`` is a proper prefix of ``B``), so that every relation
    of ``OfferRelation`` occurs: ``A`` then ``B`` extends, ``B`` then ``A`` differs.
    """

    MISSING = "missing"
    EMPTY = "empty"
    A = "a"
    B = "b"


NONEMPTY: tuple[Payload, ...] = (Payload.A, Payload.B)
"""The abstract non-empty values."""


class FiniteSort(Generic[E]):
    """A Z3 ``EnumSort`` built from a Python ``Enum``: one constant per member."""

    def __init__(self, enum: type[E]) -> None:
        names = [f"{enum.__name__}.{member.name}" for member in enum]
        self.enum = enum
        self.sort, constants = z3.EnumSort(enum.__name__, names)
        self._const: dict[E, Term] = dict(zip(enum, constants, strict=True))
        self._member: dict[str, E] = {
            const.decl().name(): member for member, const in self._const.items()
        }

    def __getitem__(self, member: E) -> Term:
        """The Z3 constant of ``member``."""
        return self._const[member]

    def var(self, name: str) -> Term:
        """A fresh Z3 variable of this sort."""
        return z3.Const(name, self.sort)

    def read(self, model: z3.ModelRef, term: Term) -> E:
        """The member a model gives ``term`` (completed if the solver left it free)."""
        return self._member[model.eval(term, model_completion=True).decl().name()]

    def is_one_of(self, term: Term, members: Iterable[E]) -> Term:
        """``term`` is one of ``members`` (a Z3 formula; never use Python ``in``)."""
        return z3.Or([term == self._const[member] for member in members])


_SORTS: dict[type[Enum], FiniteSort[Any]] = {}


def finite_sort(enum: type[E]) -> FiniteSort[E]:
    """The one ``FiniteSort`` of ``enum`` (Z3 refuses to declare an enum sort twice)."""
    if enum not in _SORTS:
        _SORTS[enum] = FiniteSort(enum)
    sort: FiniteSort[E] = _SORTS[enum]
    return sort


