"""The operations the classifiers are written against: one source, two interpretations.

Theory of operation
-------------------
A *classifier* is the function that picks which cell of a table applies: the routing
views of an event (R5), the payload relation of an offer (R7), the identity
relation of a field, the match keys of an item (R6).  Each is written once, in the
model module of its table, as a function of an ``Ops`` and of *facts* (booleans,
sets of entries, abstract strings).  It never branches in Python on a fact: every
choice goes through ``ops.cond`` and every test through an ``ops`` predicate.

Two interpretations run the same classifier:

- ``PYTHON`` (this module): facts are Python values — ``bool``, a ``Sequence[int]``
  of entry ordinals (in binding or naming order), ``str | None`` — and a classifier
  returns enum members and ordinals.  The reducer calls it on every event.
- ``proofs.ops_z3.Z3Ops``: facts are Z3 terms — a set of entries is one ``Bool`` per
  entry, a string one ``Payload`` term — and the classifier returns Z3 terms.  The
  proofs call it to build their transition relations.

So the proofs reason about exactly the function the reducer runs; nothing is
re-stated.  ``ops.cond(c, a, b)`` evaluates both branches in Python (they are
cheap: enum members and small lists), which is the price of one source.

Sets of entries are ordered: ``first`` is the first entry in binding order (Python)
or in ordinal order (Z3).  The two agree wherever a classifier uses ``first`` on a
set that can only hold one entry, or on the entries bound at one slot (bound in
ordinal order, because entries are admitted in ordinal order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

Fact = Any
"""A boolean fact: ``bool`` for Python, a Z3 ``Bool`` for the proofs."""
Entries = Any
"""A set of entries: a sequence of ordinals for Python, per-entry ``Bool``s for Z3."""
Entry = Any
"""One entry or none: ``int | None`` for Python, a Z3 ``Int`` (-1 for none)."""
Value = Any
"""An enum member (Python) or the Z3 constant of one."""
Text = Any
"""A payload or identity string: ``str | None`` for Python, a ``Payload`` term for Z3."""


class Ops(Protocol):
    """The operations a classifier may use; each interpretation provides all of them."""

    def not_(self, a: Fact) -> Fact:
        """Negation."""

    def and_(self, *facts: Fact) -> Fact:
        """Conjunction."""

    def or_(self, *facts: Fact) -> Fact:
        """Disjunction."""

    def cond(self, c: Fact, a: Value, b: Value) -> Value:
        """``a`` if ``c`` else ``b`` (values, entries or entry sets alike)."""

    def is_(self, value: Value, member: Any) -> Fact:
        """``value`` is the enum member (or ordinal) ``member``."""

    def empty(self, entries: Entries) -> Fact:
        """The set has no entry."""

    def single(self, entries: Entries) -> Fact:
        """The set has exactly one entry."""

    def member(self, entries: Entries, entry: Entry) -> Fact:
        """``entry`` is in the set."""

    def only(self, entries: Entries) -> Entries:
        """The set if it has exactly one entry, else the empty set."""

    def meet(self, a: Entries, b: Entries) -> Entries:
        """The entries in both, in ``a``'s order."""

    def join(self, a: Entries, b: Entries) -> Entries:
        """The entries in either, ``a``'s first."""

    def where(self, entries: Entries, test: Callable[[Entry], Fact]) -> Entries:
        """The entries ``test`` holds for."""

    def first(self, entries: Entries) -> Entry:
        """The first entry of the set, or none."""

    def of(self, entry: Entry, value: Callable[[Entry], Value], default: Value) -> Value:
        """``value(entry)`` for an entry, ``default`` for none."""

    def present(self, text: Text) -> Fact:
        """A non-empty string."""

    def blank(self, text: Text) -> Fact:
        """The empty string (an explicit empty value, not a missing one)."""

    def missing(self, text: Text) -> Fact:
        """No string at all (absent, null or not a string)."""

    def same(self, a: Text, b: Text) -> Fact:
        """The two strings are equal."""

    def extends(self, offer: Text, held: Text) -> Fact:
        """``offer`` starts with ``held``."""


class PythonOps:
    """The Python interpretation: what the reducer runs."""

    __slots__ = ()

    def not_(self, a: Fact) -> Fact:
        """Negation."""
        return not a

    def and_(self, *facts: Fact) -> Fact:
        """Conjunction."""
        return all(facts)

    def or_(self, *facts: Fact) -> Fact:
        """Disjunction."""
        return any(facts)

    def cond(self, c: Fact, a: Value, b: Value) -> Value:
        """``a`` if ``c`` else ``b``."""
        return a if c else b

    def is_(self, value: Value, member: Any) -> Fact:
        """Identity for enum members, equality for ordinals."""
        return value is member or (value is not None and value == member)

    def empty(self, entries: Sequence[int]) -> bool:
        """No ordinal."""
        return not entries

    def single(self, entries: Sequence[int]) -> bool:
        """Exactly one ordinal."""
        return len(entries) == 1

    def member(self, entries: Sequence[int], entry: int | None) -> bool:
        """``entry in entries``."""
        return entry in entries

    def only(self, entries: Sequence[int]) -> Sequence[int]:
        """``entries`` if it has one ordinal, else ``()``."""
        return entries if len(entries) == 1 else ()

    def meet(self, a: Sequence[int], b: Sequence[int]) -> Sequence[int]:
        """``a``'s ordinals that are in ``b``."""
        return [o for o in a if o in b]

    def join(self, a: Sequence[int], b: Sequence[int]) -> Sequence[int]:
        """``a`` then ``b``'s ordinals not in ``a``."""
        return [*a, *(o for o in b if o not in a)]

    def where(self, entries: Sequence[int], test: Callable[[int], Fact]) -> Sequence[int]:
        """The ordinals ``test`` holds for."""
        return [o for o in entries if test(o)]

    def first(self, entries: Sequence[int]) -> int | None:
        """The first ordinal, or None."""
        return entries[0] if entries else None

    def of(self, entry: int | None, value: Callable[[int], Value], default: Value) -> Value:
        """``value(entry)``, or ``default`` for None."""
        return default if entry is None else value(entry)

    def present(self, text: str | None) -> bool:
        """A non-empty ``str``."""
        return isinstance(text, str) and text != ""

    def blank(self, text: str | None) -> bool:
        """``""``."""
        return text == ""

    def missing(self, text: str | None) -> bool:
        """Not a ``str``."""
        return not isinstance(text, str)

    def same(self, a: str | None, b: str | None) -> bool:
        """Equal strings."""
        return a == b

    def extends(self, offer: str | None, held: str | None) -> bool:
        """``offer.startswith(held)``."""
        return isinstance(offer, str) and isinstance(held, str) and offer.startswith(held)


PYTHON = PythonOps()
"""The one Python interpretation."""
