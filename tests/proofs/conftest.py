"""Shared fixtures of the proof tests: each mutant's counterexample is searched once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from responses_oracle.proofs.counterexample import counterexample_trace
from responses_oracle.proofs.induction import Run
from responses_oracle.proofs.mutants import Mutant

TraceOf = Callable[[Mutant], Run[Any, Any]]
"""The counterexample run of a mutant."""


@pytest.fixture(scope="session")
def trace_of() -> TraceOf:
    """``counterexample_trace``, computed once per mutant per test session."""
    found: dict[str, Run[Any, Any]] = {}

    def trace(mutant: Mutant) -> Run[Any, Any]:
        if mutant.tables.name not in found:
            found[mutant.tables.name] = counterexample_trace(mutant)
        return found[mutant.tables.name]

    return trace
