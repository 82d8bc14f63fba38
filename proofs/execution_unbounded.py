"""``ExecutionEncoding`` for any number of entries: ``unbounded``'s arrays, and its own.

The per-entry fields ``execution_z3`` adds (``call_id`` and the evidence) become arrays
indexed by the entry ordinal like the lifecycle's, ``tools`` a response-level term; the
transition is the one-entry ``ExecutionEncoding`` on a view, as ``unbounded`` does for
the lifecycle (see its theory of operation).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import z3
from responses_oracle.model.tables import ModelTables

from . import unbounded
from .encoding import PAYLOAD, PROOF_CHANNELS, Bounds, Payload, State, Step, Term
from .execution_z3 import ANSWER, ExecutionEncoding, ExecutionState

_SORTS: dict[str, Any] = {
    "call_id": PAYLOAD.sort,
    "call": z3.BoolSort(),
    "answered": z3.BoolSort(),
    "answer": ANSWER.sort,
}
"""The per-entry fields this encoding adds, as array sorts (``tools`` is per response)."""


class _Unbounded(unbounded.ArraySystem):
    """``unbounded.ArraySystem`` over ``ExecutionEncoding``: its arrays, and the added
    per-entry fields as arrays too."""

    def __init__(self, tables: ModelTables) -> None:
        super().__init__(tables, payload=False, identity=False)
        self.one = ExecutionEncoding(tables, Bounds(1, 0), PROOF_CHANNELS)

    def fresh(self, name: str) -> unbounded.Arrays:
        """The lifecycle arrays, and one per added per-entry field."""
        state = super().fresh(name)
        for field, sort in _SORTS.items():
            state[field] = z3.Array(f"{name}.{field}", z3.IntSort(), sort)
        state["tools"] = z3.Bool(f"{name}.tools")
        return state

    def initial(self, state: unbounded.Arrays) -> Term:
        """The lifecycle's initial arrays and no ``call_id`` anywhere."""
        missing = z3.K(z3.IntSort(), PAYLOAD[Payload.MISSING])
        return z3.And(super().initial(state), state["call_id"] == missing)

    def view(self, state: unbounded.Arrays, index: Term) -> State:
        """The one-entry ``ExecutionState`` of entry ``index``."""
        base = super().view(state, index)
        return ExecutionState(
            **{f.name: getattr(base, f.name) for f in fields(State)},
            **{field: (state[field][index],) for field in _SORTS},
            tools=state["tools"],
        )

    def successor(self, state: unbounded.Arrays, step: Step) -> unbounded.Arrays:
        """The lifecycle's successor; ``call_id`` updated as the lifecycle arrays are;
        the evidence kept."""
        after = super().successor(state, step)
        after.update({field: state[field] for field in (*_SORTS, "tools")})
        i = z3.Int("i")
        target = self.updated(state, step, step.entry, z3.Not(state["terminal"]))
        everyone = self.updated(state, step, i, self.one.delivers(self.view(state, i), step, 0))
        assert isinstance(target, ExecutionState) and isinstance(everyone, ExecutionState)
        after["call_id"] = z3.If(
            self.wide(step),
            z3.Lambda([i], everyone.call_id[0]),
            z3.Store(state["call_id"], step.entry, target.call_id[0]),
        )
        return after


def execution_system(tables: ModelTables) -> unbounded.ArraySystem:
    """The array system of ``ExecutionEncoding`` for ``tables`` (``unbounded``)."""
    return _Unbounded(tables)
