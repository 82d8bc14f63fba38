"""The public testing toolkit: what you import to test your own parser against the oracle.

For people who write a Responses stream parser and want to know whether it gives the
reference answer.  The toolkit holds no machinery of its own: it hands on names from
the two packages that do the work, ``responses_oracle.streamgen`` (stream generation)
and ``responses_oracle.differential`` (the differential harness).  Its stages, in the
order a test meets them:

1. ``strategies`` — Hypothesis strategies (``valid_streams``, ``provider_streams``,
   ``faulty_streams``, ``model_guided_streams``) draw a ``GeneratedStream``; the
   generators behind them are ``streamgen``'s.  Only this module needs Hypothesis, and
   ``_hypothesis_plugin`` makes ``st.from_type(GeneratedStream)`` draw valid streams.
2. Your parser answers each stream.
3. ``assert_conforms(parse, streams=None)`` — in pytest: run your parse function and
   the oracle on generated (or your) streams, fail with each divergence shrunk to a
   minimal stream and explained by the rule that decides it (docs/rules);
   ``run_diff`` is the same outside pytest, and ``serve(parse)`` runs a Python
   parser as a process candidate (``responses-oracle diff --candidate CMD``).
4. ``compare`` says where an answer differs; ``classify(reference, answer)`` /
   ``classify_items(result, items)`` say what harm each difference does
   (``responses_oracle.model.divergence``), for audits of what another parser
   persisted.

The names below are loaded on first use: Hypothesis imports this package through its
entry point in every test run of the environment, and should pay only for what it uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names __getattr__ loads, for type checkers
    from responses_oracle.differential.candidate import (  # noqa: F401
        BUILTIN_CANDIDATES,
        Candidate,
        Failure,
        FunctionCandidate,
        ProcessCandidate,
        serve,
    )
    from responses_oracle.differential.compare import Aspect, Difference, compare  # noqa: F401
    from responses_oracle.differential.findings import Cluster, DiffReport  # noqa: F401
    from responses_oracle.differential.harness import assert_conforms, run_diff  # noqa: F401
    from responses_oracle.differential.taxonomy import classify, classify_items  # noqa: F401
    from responses_oracle.streamgen.provider_profiles import (  # noqa: F401
        PROFILES,
        Profile,
        apply_profiles,
    )
    from responses_oracle.streamgen.streams import GeneratedStream, openai_stream  # noqa: F401

_CANDIDATE = "responses_oracle.differential.candidate"
_COMPARE = "responses_oracle.differential.compare"
_FINDINGS = "responses_oracle.differential.findings"
_HARNESS = "responses_oracle.differential.harness"
_TAXONOMY = "responses_oracle.differential.taxonomy"
_PROFILES = "responses_oracle.streamgen.provider_profiles"
_STREAMS = "responses_oracle.streamgen.streams"

_HOMES: dict[str, str] = {
    "BUILTIN_CANDIDATES": _CANDIDATE,
    "Candidate": _CANDIDATE,
    "Failure": _CANDIDATE,
    "FunctionCandidate": _CANDIDATE,
    "ProcessCandidate": _CANDIDATE,
    "serve": _CANDIDATE,
    "Aspect": _COMPARE,
    "Difference": _COMPARE,
    "compare": _COMPARE,
    "Cluster": _FINDINGS,
    "DiffReport": _FINDINGS,
    "assert_conforms": _HARNESS,
    "run_diff": _HARNESS,
    "classify": _TAXONOMY,
    "classify_items": _TAXONOMY,
    "PROFILES": _PROFILES,
    "Profile": _PROFILES,
    "apply_profiles": _PROFILES,
    "GeneratedStream": _STREAMS,
    "openai_stream": _STREAMS,
}
"""Each public name → the module that defines it."""

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
