"""The testing toolkit: stream generators, the differential harness, conformance vectors.

For people who write a Responses stream parser and want to know whether it gives the
reference answer:

- ``assert_conforms(parse, streams=None)`` — in pytest: run your parse function and
  the oracle on generated (or your) streams, fail with each divergence shrunk to a
  minimal stream and explained by the rule that decides it (docs/rules);
- ``responses-oracle diff --candidate CMD`` (``run_diff``) — the same for a parser in
  any language, run as one subprocess speaking the candidate protocol (``serve`` is
  that protocol's Python end);
- ``classify(reference, answer)`` / ``classify_items(result, items)`` — the harm each
  difference does (``responses_oracle.model.divergence``), for audits of what another
  parser persisted;
- ``responses-oracle vectors export DIR`` (``conformance_vectors``) — the same answers as a
  language-neutral corpus of JSON files;
- ``responses_oracle.testing.strategies`` — Hypothesis strategies (``valid_streams``,
  ``provider_streams``, ``faulty_streams``, ``model_guided_streams``).  Importing this
  package does not import Hypothesis; only that module needs it.

Everything generated is a ``GeneratedStream``; the generators are plain functions of a
``Chooser`` (``choices``), so the command line is deterministic per seed without
Hypothesis and the strategies shrink with it.

The names below are loaded on first use: Hypothesis imports this package through its
entry point in every test run of the environment, and should pay only for what it uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names __getattr__ loads, for type checkers
    from .candidate import (  # noqa: F401
        BUILTIN_CANDIDATES,
        Candidate,
        Failure,
        FunctionCandidate,
        ProcessCandidate,
        serve,
    )
    from .compare import Aspect, Difference, compare  # noqa: F401
    from .findings import Cluster, DiffReport  # noqa: F401
    from .harness import assert_conforms, run_diff  # noqa: F401
    from .provider_profiles import PROFILES, Profile, apply_profiles  # noqa: F401
    from .streams import GeneratedStream, openai_stream  # noqa: F401
    from .taxonomy import classify, classify_items  # noqa: F401

_HOMES: dict[str, str] = {
    "BUILTIN_CANDIDATES": "candidate",
    "Candidate": "candidate",
    "Failure": "candidate",
    "FunctionCandidate": "candidate",
    "ProcessCandidate": "candidate",
    "serve": "candidate",
    "Aspect": "compare",
    "Difference": "compare",
    "compare": "compare",
    "Cluster": "findings",
    "DiffReport": "findings",
    "assert_conforms": "harness",
    "run_diff": "harness",
    "PROFILES": "provider_profiles",
    "Profile": "provider_profiles",
    "apply_profiles": "provider_profiles",
    "GeneratedStream": "streams",
    "openai_stream": "streams",
    "classify": "taxonomy",
    "classify_items": "taxonomy",
}
"""Each public name → the submodule that defines it."""

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Load a public name from its submodule on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)
