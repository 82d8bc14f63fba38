"""The Z3 interpretation of ``model.ops``: the classifiers the reducer runs, as formulas.

A classifier of ``model/`` (``route_views``, ``payload_key``, ``identity_relation``,
``fit_key``, ``match_view``, ``added_view``) is called here with Z3 terms for its facts
and returns Z3 terms: the proofs then reason about the very function the reducer runs,
never a re-statement of it.

Representations: a boolean fact is a ``Bool``; a set of entries is a tuple of one
``Bool`` per entry (``n`` entries); one entry is an ``Int``, ``-1`` for none; a string is
a ``Payload`` term (missing, empty, ``A``, or ``B`` = ``A`` extended); an enum member
becomes the constant of its ``finite_sort``.  Per-entry callbacks (``where``, ``of``) are
called with concrete Python ordinals, so a classifier's per-entry facts are concrete
terms of that entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

import z3
from responses_oracle.model.ops import PythonOps
from responses_oracle.model.tables import table_cells

from .sorts import NONEMPTY, Payload, Term, finite_sort

PAYLOAD = finite_sort(Payload)

Flags = tuple[Term, ...]
"""A set of entries: one ``Bool`` per entry."""


def _term(value: Any) -> Any:
    """A Z3 term for a classifier value: enum members become sort constants, None -1."""
    if isinstance(value, Enum):
        return finite_sort(type(value))[value]
    if value is None:
        return z3.IntVal(-1)
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return value


def exactly_one(flags: Sequence[Term]) -> Term:
    """Exactly one flag holds."""
    return z3.Or(
        [
            z3.And(flag, *[z3.Not(other) for j, other in enumerate(flags) if j != i])
            for i, flag in enumerate(flags)
        ]
    )


def first_index(flags: Sequence[Term]) -> Term:
    """The index of the first true flag, or -1."""
    result: Term = z3.IntVal(-1)
    for index in range(len(flags) - 1, -1, -1):
        result = z3.If(flags[index], index, result)
    return result


class Z3Ops:
    """The Z3 interpretation of ``model.ops.Ops`` over ``entries`` entries."""

    def __init__(self, entries: int) -> None:
        self.entries = entries

    def not_(self, a: Term) -> Term:
        """Negation."""
        return z3.Not(_term(a))

    def and_(self, *facts: Term) -> Term:
        """Conjunction."""
        return z3.And(*[_term(f) for f in facts])

    def or_(self, *facts: Term) -> Term:
        """Disjunction."""
        return z3.Or(*[_term(f) for f in facts])

    def cond(self, c: Term, a: Any, b: Any) -> Any:
        """``If``; entry sets elementwise."""
        if isinstance(a, tuple) or isinstance(b, tuple):
            return tuple(z3.If(_term(c), x, y) for x, y in zip(a, b, strict=True))
        return z3.If(_term(c), _term(a), _term(b))

    def is_(self, value: Any, member: Any) -> Term:
        """``value == member`` (concrete ordinals compare in Python)."""
        if isinstance(value, int) and isinstance(member, int):
            return z3.BoolVal(value == member)
        return _term(value) == _term(member)

    def empty(self, entries: Flags) -> Term:
        """No flag holds."""
        return z3.Not(z3.Or(*entries)) if entries else z3.BoolVal(True)

    def single(self, entries: Flags) -> Term:
        """Exactly one flag holds."""
        return exactly_one(entries) if entries else z3.BoolVal(False)

    def member(self, entries: Flags, entry: Any) -> Term:
        """``entry``'s flag (an ordinal, or an ``Int`` term)."""
        if isinstance(entry, int):
            return entries[entry]
        return z3.Or([z3.And(entry == i, flag) for i, flag in enumerate(entries)])

    def only(self, entries: Flags) -> Flags:
        """The set if it has exactly one entry, else empty."""
        one = self.single(entries)
        return tuple(z3.And(flag, one) for flag in entries)

    def meet(self, a: Flags, b: Flags) -> Flags:
        """Both."""
        return tuple(z3.And(x, y) for x, y in zip(a, b, strict=True))

    def join(self, a: Flags, b: Flags) -> Flags:
        """Either."""
        return tuple(z3.Or(x, y) for x, y in zip(a, b, strict=True))

    def where(self, entries: Flags, test: Callable[[int], Any]) -> Flags:
        """The entries ``test`` holds for (called with each ordinal)."""
        return tuple(z3.And(flag, _term(test(i))) for i, flag in enumerate(entries))

    def first(self, entries: Flags) -> Term:
        """The first entry's ordinal, or -1."""
        return first_index(entries)

    def of(self, entry: Term, value: Callable[[int], Any], default: Any) -> Any:
        """``value(entry)`` as an ``If`` chain over the ordinals; ``default`` for -1."""
        result = _term(default)
        for i in range(self.entries - 1, -1, -1):
            result = z3.If(entry == i, _term(value(i)), result)
        return result

    def present(self, text: Term) -> Term:
        """``A`` or ``B``."""
        return PAYLOAD.is_one_of(text, NONEMPTY)

    def blank(self, text: Term) -> Term:
        """The empty string."""
        return text == PAYLOAD[Payload.EMPTY]

    def missing(self, text: Term) -> Term:
        """No string."""
        return text == PAYLOAD[Payload.MISSING]

    def same(self, a: Term, b: Term) -> Term:
        """Equal abstract strings."""
        return a == b

    def extends(self, offer: Term, held: Term) -> Term:
        """``offer`` starts with ``held``: equal, or ``B`` over ``A`` (``B`` = ``A``
        extended), or anything over the empty string."""
        return z3.Or(
            offer == held,
            z3.And(held == PAYLOAD[Payload.A], offer == PAYLOAD[Payload.B]),
            z3.And(held == PAYLOAD[Payload.EMPTY], PAYLOAD.is_one_of(offer, NONEMPTY)),
        )


def lookup(
    table: Mapping[Any, Any], *keys: Term, project: Callable[[Any], Any] = lambda v: v
) -> Term:
    """``project`` of a nested table's cell for Z3 key terms: an ``If`` chain over its
    cells, the last cell the default (every key combination has a cell: tables are total)."""
    cells = table_cells(table)
    expression: Term = _term(project(cells[-1][1]))
    for path, value in reversed(cells[:-1]):
        hit = z3.And(*[_term(key) == _term(part) for key, part in zip(keys, path, strict=True)])
        expression = z3.If(hit, _term(project(value)), expression)
    return expression


class PayloadOps(PythonOps):
    """The Python interpretation over abstract strings (``Payload`` members): how a
    concrete trace read back from a Z3 model is classified, by the same classifiers."""

    __slots__ = ()

    def present(self, text: Any) -> bool:
        """``A`` or ``B``."""
        return text in NONEMPTY

    def blank(self, text: Any) -> bool:
        """The empty string."""
        return text is Payload.EMPTY

    def missing(self, text: Any) -> bool:
        """No string (``None`` stands for a step that carries no name)."""
        return text is None or text is Payload.MISSING

    def same(self, a: Any, b: Any) -> bool:
        """The same abstract string."""
        return a is b

    def extends(self, offer: Any, held: Any) -> bool:
        """As ``Z3Ops.extends``."""
        return (
            offer is held
            or (held is Payload.A and offer is Payload.B)
            or (held is Payload.EMPTY and offer in NONEMPTY)
        )


PAYLOAD_OPS = PayloadOps()
"""The one abstract-string interpretation."""
