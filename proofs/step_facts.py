"""One decision step as Z3 sees it (``StepFacts``): what a contract's step builder returns.

The diagnostic contracts (``contracts.CONTRACTS``) list step builders written in three
modules: ``contracts.py`` (payload, identity, admission), ``responses_z3.py`` (response
boundaries, frames, slot fill, part merge, terminals) and ``runners_z3.py`` (who runs a
declared tool).  Each builder returns ``StepFacts`` and ``contracts.check_contract``
reads them, so the type lives here, below all three: ``contracts`` imports the builders,
the builders import this module, and nothing imports back (no import circle in
``proofs/``: ``tests/test_proof_imports.py``).  This module imports no Z3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from responses_oracle.model.vocabulary import Code

if TYPE_CHECKING:
    from .sorts import Term


@dataclass(frozen=True)
class StepFacts:
    """One decision step as Z3 sees it: the codes its cell raises (``raised[code]``),
    the step's domain, the contract (``claim``) over the same constants, the inputs a
    counterexample shows (``show``), and per table the keys the step looks up in it
    (``keys``: ``(when, key)`` pairs — one per entry for the matching table, which is asked
    per proposed entry).
    """

    raised: dict[Code, Term]
    domain: Term
    claim: Term
    show: dict[str, Term]
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]]
