"""The generator of the fast classifiers: a classifier of ``model/`` traced into Python.

The classifiers are written once against ``ops.Ops`` and run by the reducer through
``ops.PYTHON`` — one method call per operation.  On the path of every payload event
(routing, R5) that costs more than the rest of the event, so this module *traces* the
classifier instead: ``TracingOps`` records every operation as one line of Python (each
value computed once, in the order ``PYTHON`` computes it) and ``render_classifiers``
writes the lines out as plain functions in ``impl/core/generated_classifiers.py``.  The generated
function is the classifier, unrolled: the same operations on the same values, without
the calls.  ``tests/model/test_generated.py`` fails when the file is stale and
``tests/core/test_fast_path.py`` compares it with the ``PYTHON`` run on every input of
a small domain.

Only what the traced classifiers use is supported: a new operation in a traced
classifier fails here, at generation time, never in the reducer.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from .routing import route_target, route_views

REGENERATE_COMMAND = "python -m responses_oracle.model.codegen"
"""The command that regenerates the classifiers (with the kernels)."""


class _Value(str):
    """A traced value: the name of the local variable (or literal) that holds it."""


class TracingOps:
    """``ops.Ops`` that records each operation as an assignment to a fresh local."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.members: dict[str, str] = {}
        self.negated: dict[str, str] = {}
        """The operand of each value that is a negation (``not_``, ``empty``)."""

    def _emit(self, expression: str) -> _Value:
        name = f"_v{len(self.lines)}"
        self.lines.append(f"{name} = {expression}")
        return _Value(name)

    def literal(self, value: Any) -> str:
        """Source for an operand: a traced value, an enum member's alias, a constant."""
        if isinstance(value, _Value):
            return str(value)
        if isinstance(value, Enum):
            alias = f"_{type(value).__name__}_{value.name}"
            self.members[alias] = f"{type(value).__name__}.{value.name}"
            return alias
        if value is None or isinstance(value, bool | int):
            return repr(value)
        raise TypeError(f"cannot trace the operand {value!r}")

    def _negation(self, operand: str) -> _Value:
        value = self._emit(f"not {operand}")
        self.negated[value] = operand
        return value

    def not_(self, a: Any) -> _Value:
        """Negation."""
        return self._negation(self.literal(a))

    def and_(self, *facts: Any) -> _Value:
        """Conjunction."""
        return self._emit(" and ".join(self.literal(f) for f in facts))

    def or_(self, *facts: Any) -> _Value:
        """Disjunction."""
        return self._emit(" or ".join(self.literal(f) for f in facts))

    def cond(self, c: Any, a: Any, b: Any) -> _Value:
        """Choice (on a negation, the branches swapped instead: ``b if c' else a``)."""
        test = self.literal(c)
        if test in self.negated:
            return self._emit(f"{self.literal(b)} if {self.negated[test]} else {self.literal(a)}")
        return self._emit(f"{self.literal(a)} if {test} else {self.literal(b)}")

    def is_(self, value: Any, member: Any) -> _Value:
        """Identity with an enum member or None."""
        return self._emit(f"{self.literal(value)} is {self.literal(member)}")

    def empty(self, entries: Any) -> _Value:
        """No ordinal."""
        return self._negation(self.literal(entries))

    def single(self, entries: Any) -> _Value:
        """One ordinal."""
        return self._emit(f"len({self.literal(entries)}) == 1")

    def meet(self, a: Any, b: Any) -> _Value:
        """``a``'s ordinals in ``b``.  No comprehension for none or one ordinal (nearly
        every event: an ``item_id`` names one entry): on Python 3.11 a comprehension
        is a function made and called, ~2,000 instructions of an event's ~65,000.
        Nor a new list: for one ordinal the answer is ``a`` itself or ``()`` (a traced
        classifier only reads its values, never changes one)."""
        x, y = self.literal(a), self.literal(b)
        return self._emit(
            f"() if not {x} else ({x} if {x}[0] in {y} else ()) if len({x}) == 1"
            f" else [o for o in {x} if o in {y}]"
        )

    def first(self, entries: Any) -> _Value:
        """The first ordinal, or None."""
        name = self.literal(entries)
        return self._emit(f"{name}[0] if {name} else None")

    def _untraced(self, *_: Any) -> Any:
        raise TypeError("this operation is not traced: run the classifier through ops.PYTHON")

    member = only = join = where = of = _untraced
    present = blank = missing = same = extends = _untraced


_Traced = Callable[[TracingOps], Any]

_CLASSIFIERS: tuple[tuple[str, str, tuple[tuple[str, str], ...], str, _Traced], ...] = (
    (
        "route_views",
        "``model.routing.route_views``: the routing cell of a payload event.",
        (
            ("bound", "Sequence[int]"),
            ("named", "Sequence[int]"),
            ("shared", "bool"),
            ("has_id", "bool"),
        ),
        "tuple[SlotView, IdView]",
        lambda ops: route_views(
            ops, _Value("bound"), _Value("named"), _Value("shared"), _Value("has_id")
        ),
    ),
    (
        "route_target",
        "``model.routing.route_target``: the entry a routed event goes to, or None.",
        (("action", "RouteAction"), ("bound", "Sequence[int]"), ("named", "Sequence[int]")),
        "int | None",
        lambda ops: route_target(ops, _Value("action"), _Value("bound"), _Value("named")),
    ),
)


_LOCAL = re.compile(r"\b_v\d+\b")
"""A traced value's local in a generated expression."""


def _inlined(lines: Sequence[str], value: str) -> tuple[list[str], str]:
    """The traced lines with every value used once written into its one use.

    Every operation is pure and total, so where a value is computed changes nothing
    but the cost: a value used once is written, in parentheses, where it is used, so
    a ``cond`` evaluates only the branch it takes (as a Python conditional
    expression) and no local is stored and loaded.  A value used more than once
    stays a local, computed once; one used nowhere is not computed.
    """
    assigned = [line.split(" = ", 1) for line in lines]
    uses: dict[str, int] = {}
    for text in [*(expression for _, expression in assigned), value]:
        for local in _LOCAL.findall(text):
            uses[local] = uses.get(local, 0) + 1
    written: dict[str, str] = {}

    def substituted(text: str) -> str:
        return _LOCAL.sub(lambda m: written.get(m.group(), m.group()), text)

    kept: list[str] = []
    for local, expression in assigned:
        expression = substituted(expression)
        if uses.get(local, 0) == 1:
            written[local] = f"({expression})"
        elif uses.get(local, 0) > 1:
            kept.append(f"{local} = {expression}")
    return kept, substituted(value)


def _function(
    name: str, doc: str, args: Sequence[tuple[str, str]], result: str, traced: _Traced
) -> tuple[list[str], dict[str, str]]:
    ops = TracingOps()
    returned = traced(ops)
    parts = returned if isinstance(returned, tuple) else (returned,)
    body, value = _inlined(ops.lines, ", ".join(ops.literal(part) for part in parts))
    signature = ", ".join(f"{arg}: {type_}" for arg, type_ in args)
    lines = [
        f"def {name}({signature}) -> {result}:",
        f'    """{doc}"""',
        *(f"    {line}" for line in body),
        f"    return {value}",
    ]
    return lines, ops.members


_HEADER = '''\
# GENERATED FILE — DO NOT EDIT.
# Traced from the classifiers of model/ by `{command}` (model/classgen.py).
# Change a classifier in model/ and rerun that command; a test fails when this file is stale.
"""Fast classifiers: the routing classifiers of ``model.routing``, unrolled.

Each function performs the operations of its classifier on plain values: what
``ops.PYTHON`` would compute, without a method call per operation, and each value
used once written where it is used (so a choice evaluates only the branch it takes).
"""

from __future__ import annotations

from collections.abc import Sequence

from responses_oracle.model.vocabulary import IdView, RouteAction, SlotView
'''


def render_classifiers() -> str:
    """The source text of ``impl/core/generated_classifiers.py``."""
    bodies: list[str] = []
    members: dict[str, str] = {}
    for name, doc, args, result, traced in _CLASSIFIERS:
        lines, used = _function(name, doc, args, result, traced)
        members.update(used)
        bodies += ["", "", *lines]
    aliases = [f"{alias} = {source}" for alias, source in sorted(members.items())]
    return "\n".join([_HEADER.format(command=REGENERATE_COMMAND), *aliases, *bodies, ""])


def classifiers_path() -> Path:
    """Where the generated classifiers live in the source tree (links resolved)."""
    spec = importlib.util.find_spec("responses_oracle.core")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent / "generated_classifiers.py"
