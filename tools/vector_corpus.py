"""Write the stream corpus the package ships for ``responses-oracle vectors export``.

Run from the checkout, after a rule test or a proof counterexample changes::

    python tools/vector_corpus.py            # rewrite impl/differential/corpus.json
    python tools/vector_corpus.py --check    # exit 1 when it is stale (the tests do this)

Theory of operation
-------------------
``vectors export`` must give the same vectors wherever it runs and with no test tooling
installed, so it reads only data the package owns: ``responses_oracle/testing/
corpus.json``, which this script writes from two sources of the checkout:

- the rule tests (``tests/core/test_rules.py``): the stream of every passing test,
  harvested under pytest (``rule_tests.harvest``), named after the test, with the rule
  of its name;
- the proof counterexamples (``tests/proofs/counterexamples/*.jsonl``, written by
  ``python -m responses_oracle.proofs.counterexample --write``): streams on which a
  mutant of the model breaks an invariant.

Each stream is written completed (``differential.completion.complete``): the stream a
provider sends -- ``response.created`` with ``created_at`` and ``model``,
``in_progress``, ``output_item.added``, argument deltas and ``.done``, done items with
``status``, a terminal with its output and ``usage`` -- but for the gaps that are the
test's point, listed as its ``deviations``.  A strict parser then meets the rule, not
a missing field; the minimal streams stay the rule tests' own.

The corpus holds streams only, never answers: ``vectors export`` recomputes every
``expected`` result with the oracle it ships with.  The corpus goes stale when the
tests' streams change, or when a change of the reducer moves which gaps are a
stream's point; ``--check`` (run by ``tests/testing/test_vectors.py``) catches both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from responses_oracle.differential.completion import complete
from responses_oracle.differential.conformance_vectors import CORPUS_FORMAT, VectorSource
from responses_oracle.streamgen.cases import corpus_files
from responses_oracle.wire.formats import InputFormat, read_wire_events
from rule_tests import harvest

REPO = Path(__file__).resolve().parents[1]
"""The checkout's root."""

OUTPUT = REPO / "impl" / "differential" / "corpus.json"
"""The corpus file (``responses_oracle/differential/corpus.json`` once installed)."""

RULE_TESTS = REPO / "tests" / "core" / "test_rules.py"
"""The rule tests whose streams are harvested."""

COUNTEREXAMPLES = REPO / "tests" / "proofs" / "counterexamples"
"""The proof counterexample streams."""

COMMAND = "python tools/vector_corpus.py"
"""How the corpus is regenerated, as its header says."""


def completed(entry: dict[str, Any]) -> dict[str, Any]:
    """A minimal stream's entry completed: the stream a provider sends, and its declared
    deviations."""
    done = complete(entry["events"], entry["rules"])
    return {**entry, "deviations": list(done.deviations), "events": list(done.events)}


def rule_test_streams(path: Path = RULE_TESTS) -> list[dict[str, Any]]:
    """One entry per stream of each passing rule test at ``path``, minimal."""
    return [
        {
            "name": f"rule-{found.name}",
            "source": VectorSource.RULE_TEST.value,
            "rules": list(found.rules),
            "description": f"stream of the rule test {found.test}, completed as a "
            "provider sends it but for its declared deviations",
            "events": list(found.events),
        }
        for found in harvest(path)
    ]


def counterexample_streams(folder: Path = COUNTEREXAMPLES) -> list[dict[str, Any]]:
    """One entry per counterexample stream (``*.jsonl``) in ``folder``, minimal."""
    entries = []
    for path in corpus_files([folder]):
        events = [
            dict(event.payload)
            for event in read_wire_events(path, InputFormat.AUTO)
            if event.problem is None and event.payload is not None
        ]
        entries.append(
            {
                "name": f"counterexample-{path.stem}",
                "source": VectorSource.COUNTEREXAMPLE.value,
                "rules": [],
                "description": f"Z3 counterexample {path.stem}: a mutant of the model breaks "
                "an invariant on this stream (completed as a provider sends it but for its "
                "declared deviations); the reference answer is the expected one",
                "events": events,
            }
        )
    return entries


def minimal_streams() -> list[dict[str, Any]]:
    """The rule tests' and the counterexamples' streams, as they are (the reducer's own
    tests), in corpus order."""
    return rule_test_streams() + counterexample_streams()


def corpus() -> dict[str, Any]:
    """The corpus document: its header, then every stream."""
    return {
        "format": CORPUS_FORMAT,
        "generated_by": COMMAND,
        "note": "Generated from the rule tests and the proof counterexamples, each stream "
        f"completed as a provider sends it: do not edit; run `{COMMAND}`.",
        "streams": [completed(entry) for entry in minimal_streams()],
    }


def render(document: dict[str, Any]) -> str:
    """The corpus file's text."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the corpus, or with ``--check`` say whether it is current (exit 1 if not)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = parser.parse_args(argv)
    document = corpus()
    text = render(document)
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    if args.check:
        if current != text:
            print(f"{OUTPUT.relative_to(REPO)} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    count = len(document["streams"])
    print(f"wrote {count} streams to {OUTPUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
