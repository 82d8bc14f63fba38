"""A diagnostic's text is for people: no Python ``None`` in it, ever.

A key an event did not carry is written ``absent`` (``core.context.said``).  The
streams: every bundled conformance vector (the rule tests' streams and the proof
counterexamples) and 400 generated cases of the differential harness (valid streams,
provider profiles, model-guided walks, faults), each reduced by the reference.
"""

from __future__ import annotations

import re

from responses_oracle import reduce
from responses_oracle.core.context import said
from responses_oracle.testing.cases import generated_cases
from responses_oracle.testing.conformance_vectors import corpus_vectors

_PYTHON_NONE = re.compile(r"\bNone\b")


def _streams() -> list[tuple[str, list[dict[str, object]]]]:
    vectors = [(vector.name, list(vector.events)) for vector in corpus_vectors()]
    cases = [(case.name, list(case.stream.events)) for case in generated_cases(0, 400)]
    return vectors + cases


def test_no_diagnostic_text_holds_a_python_none() -> None:
    details = 0
    for name, events in _streams():
        for result in reduce(events):
            for diagnostic in result.diagnostics:
                details += 1
                assert not _PYTHON_NONE.search(diagnostic.detail), (name, diagnostic)
    assert details > 1000  # the streams do raise diagnostics


def test_an_absent_key_is_said_absent() -> None:
    assert (said(None), said("fc_1"), said(0)) == ("absent", "'fc_1'", "0")
