"""Conformance vectors: a language-neutral corpus of streams and their reference results.

Theory of operation
-------------------
A *vector* is one JSON file: a name, the rules it exercises (docs/rules/), where it
came from, the event stream, and the result objects the oracle gives for it
(``Result.to_dict()``, docs/schema/result.schema.json).  A
folder of vectors plus ``manifest.json`` (format version, oracle version, one entry
per file with its SHA-256) is everything another implementation needs: read each
file, feed ``events`` to the parser, compare with ``expected`` modulo minted ids.  The
format is specified in ``docs/conformance-vectors.md``; ``FORMAT_VERSION`` changes
only when a field changes meaning.

Vectors come from data the package owns, so an export is the same from any folder and
needs no test tooling (``VectorSource``):

- the bundled corpus (``corpus.json`` beside this module, ``corpus_vectors``): the
  streams of every passing rule test of the checkout's ``tests/core/test_rules.py``,
  with the rule named by the test, and the proof counterexamples
  (``tests/proofs/counterexamples/*.jsonl``: streams on which a mutant of the model
  breaks an invariant and the reference does not).  ``tools/vector_corpus.py`` writes
  it from the checkout, and a test fails when it is stale;
- seeded generated streams (``cases.generated_case``, ``generated_vectors``), rules
  read off the oracle's diagnostics.

A vector scores other programs, so its stream is a complete provider stream with
declared deviations (``completion.complete``): a rule test's minimal stream (which
carries only what its rule needs) is completed with every event and field a provider
sends but for the gaps that are its point, each listed in ``deviations``; a generated
stream gets every field of the stream shape its own making did not take away, and
declares the event gaps it keeps.  The minimal streams stay the reducer's own tests.

A vector *counts* in a score (``Vector.counted``: ``vectors export`` writes it in each
file and the manifest; the Real clients page scores on it) only when it is a complete
provider stream with declared deviations that a provider is shown to send, and the
oracle answers it with no error.  The others are *robustness rows*
(``Vector.robustness`` says why): a vector that lacks a field every provider sends
(``field-absent``), that carries a deviation no provider is shown to send (the
catalogue's rule 3, ``model.deviations.unshown``), or that the oracle answers with an
error diagnostic, which a client may rightly reject.  A client's answer on one is shown,
never counted against it.

``expected`` is always recomputed by the oracle at export, so a vector never states an
answer the oracle does not give.  ``check`` runs a candidate on a folder and compares.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from responses_oracle.model.deviations import robustness_reasons, unshown
from responses_oracle.model.vocabulary import Severity
from responses_oracle.streamgen.cases import generated_case
from responses_oracle.streamgen.streams import Event, GeneratedStream

from .candidate import Answer, Candidate, Failure
from .compare import Difference, carried_ids, compare
from .completion import (
    CATALOGUE,
    EVERY_RULE,
    FIELD_ABSENT,
    REPAIRED,
    complete,
    exercised_rules,
)
from .oracle_trace import oracle_json

CORPUS_FORMAT = "responses-oracle/vector-corpus"
"""The ``format`` field of the bundled corpus (``corpus.json``)."""

CORPUS = "corpus.json"
"""The bundled corpus, package data of ``responses_oracle.differential``."""

FORMAT = "responses-oracle/conformance-vector"
"""The ``format`` field of every vector file."""

MANIFEST_FORMAT = "responses-oracle/conformance-vectors"
"""The ``format`` field of ``manifest.json``."""

FORMAT_VERSION = 1
"""The version of both formats; bumped only when a field changes meaning."""

MANIFEST = "manifest.json"
CASES = "cases"

NOT_COMPLETED = "not completed as a provider sends it (a rule page's own minimal stream)"
"""Why a vector that was not completed (no ``deviations``) never counts in a score."""


class VectorSource(Enum):
    """Where a vector's stream came from."""

    RULE_TEST = "rule-test"
    COUNTEREXAMPLE = "counterexample"
    GENERATED = "generated"


@dataclass(frozen=True)
class Vector:
    """One conformance case."""

    name: str
    rules: tuple[str, ...]
    source: VectorSource
    description: str
    events: tuple[Event, ...]
    expected: tuple[dict[str, Any], ...]
    labels: tuple[str, ...] = ()
    deviations: tuple[dict[str, Any], ...] | None = None
    """How ``events`` departs from a complete provider stream: each deviation's
    ``name``, ``what`` it is, and the fields it leaves ``absent`` (``EVENT PATH``).
    None for a stream that was not completed (a worked example of the docs site, a
    rule page's own minimal stream): the file then has no ``deviations`` field."""

    @property
    def robustness(self) -> str:
        """Why this vector is a robustness row, never counted in a score ("" when it
        counts; module docstring): not completed, a field every provider sends absent,
        a deviation no provider is shown to send, or an error in the oracle's answer."""
        if self.deviations is None:
            return NOT_COMPLETED
        absent = [path for d in self.deviations if d["name"] == FIELD_ABSENT
                  for path in d.get("absent", ())]
        named = [d["name"] for d in self.deviations
                 if d["name"] not in (FIELD_ABSENT, REPAIRED)]
        errors = sorted({str(d.get("code")) for result in self.expected
                         for d in result.get("diagnostics", [])
                         if d.get("severity") == Severity.ERROR.value})
        reasons = [f"it lacks what every provider sends: {', '.join(absent)}"] if absent else []
        return "; ".join(reasons + robustness_reasons(unshown(named, CATALOGUE), errors))

    @property
    def counted(self) -> bool:
        """Whether the vector counts in a score: a complete provider stream with
        deviations a provider is shown to send, answered with no error."""
        return not self.robustness

    @property
    def minted_ids(self) -> list[str]:
        """Item ids in ``expected`` that the stream never carried (minted by R11)."""
        carried = carried_ids(self.events)
        return sorted(
            item["item"]["id"]
            for result in self.expected
            for item in result.get("items", [])
            if isinstance(item.get("item", {}).get("id"), str)
            and item["item"]["id"] not in carried
        )

    def to_json(self) -> dict[str, Any]:
        """The vector file's content."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "name": self.name,
            "rules": list(self.rules),
            "source": self.source.value,
            "description": self.description,
            "labels": list(self.labels),
            **({} if self.deviations is None else {
                "deviations": list(self.deviations), "counted": self.counted,
                **({"robustness": self.robustness} if self.robustness else {})}),
            "events": list(self.events),
            "expected": list(self.expected),
            "minted_ids": self.minted_ids,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Vector:
        """A vector read back from its file content."""
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"not a version-{FORMAT_VERSION} vector: {data.get('format')!r} "
                f"version {data.get('version')!r}"
            )
        return cls(
            name=data["name"],
            rules=tuple(data["rules"]),
            source=VectorSource(data["source"]),
            description=data.get("description", ""),
            events=tuple(data["events"]),
            expected=tuple(data["expected"]),
            labels=tuple(data.get("labels", ())),
            deviations=None if "deviations" not in data else tuple(data["deviations"]),
        )


def make_vector(
    name: str,
    source: VectorSource,
    description: str,
    events: Sequence[Event],
    rules: Sequence[str] = (),
    labels: Sequence[str] = (),
    deviations: Sequence[dict[str, Any]] | None = None,
) -> Vector:
    """A vector whose expected results are the oracle's, computed now."""
    expected = tuple(oracle_json(events))
    named = tuple(rules) or exercised_rules(expected)
    return Vector(name, named, source, description, tuple(events), expected, tuple(labels),
                  None if deviations is None else tuple(deviations))


def corpus_vectors() -> list[Vector]:
    """One vector per stream of the bundled corpus, expected results computed now."""
    text = resources.files("responses_oracle.differential").joinpath(CORPUS).read_text("utf-8")
    document = json.loads(text)
    if document.get("format") != CORPUS_FORMAT:
        raise ValueError(f"{CORPUS} is not a {CORPUS_FORMAT} document")
    return [
        make_vector(
            stream["name"],
            VectorSource(stream["source"]),
            stream["description"],
            stream["events"],
            rules=stream["rules"],
            deviations=stream["deviations"],
        )
        for stream in document["streams"]
    ]


def generated_vectors(seed: int, count: int) -> list[Vector]:
    """Vectors from cases ``0..count-1`` of ``seed`` (profiles, walks, faults), every
    field of the stream shape filled that the case's making did not take away."""
    vectors = []
    for index in range(count):
        case = generated_case(seed, index)
        completed = complete(case.stream.events, EVERY_RULE, gaps=())
        vectors.append(
            make_vector(
                f"generated-seed{seed}-{index:04d}",
                VectorSource.GENERATED,
                f"generated case {case.name}: {', '.join(case.stream.labels)}",
                completed.events,
                labels=case.stream.labels,
                deviations=completed.deviations,
            )
        )
    return vectors


def _oracle_version() -> str:
    try:
        return version("responses-oracle")
    except PackageNotFoundError:
        return "unknown"


def _dump(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, indent=1)
    try:
        return (text + "\n").encode()
    except UnicodeEncodeError:  # a lone surrogate in a payload: escape everything
        return (json.dumps(value, ensure_ascii=True, indent=1) + "\n").encode()


def _unique(names: Iterable[str]) -> list[str]:
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:120] or "case"
        seen[slug] = seen.get(slug, 0) + 1
        unique.append(slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")
    return unique


def export(
    directory: str | os.PathLike[str], vectors: Sequence[Vector], **provenance: Any
) -> dict[str, Any]:
    """Write ``vectors`` and the manifest into ``directory``; return the manifest.

    Files are written to ``directory/cases/<name>.json``; a file left from an earlier
    export that is not in the new manifest is removed, so the folder always matches it.
    """
    root = Path(directory)
    cases = root / CASES
    cases.mkdir(parents=True, exist_ok=True)
    entries = []
    names = _unique(v.name for v in vectors)
    for vector, name in zip(vectors, names, strict=True):
        data = _dump({**vector.to_json(), "name": name})
        relative = f"{CASES}/{name}.json"
        (root / relative).write_bytes(data)
        entries.append(
            {
                "file": relative,
                "name": name,
                "rules": list(vector.rules),
                "source": vector.source.value,
                **({} if vector.deviations is None else {"counted": vector.counted}),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
    kept = {entry["file"] for entry in entries}
    for stale in cases.glob("*.json"):
        if f"{CASES}/{stale.name}" not in kept:
            stale.unlink()
    manifest = {
        "format": MANIFEST_FORMAT,
        "version": FORMAT_VERSION,
        "oracle": {"name": "responses-oracle", "version": _oracle_version()},
        "provenance": provenance,
        "count": len(entries),
        "cases": entries,
    }
    (root / MANIFEST).write_bytes(_dump(manifest))
    return manifest


def load(directory: str | os.PathLike[str]) -> tuple[dict[str, Any], list[Vector]]:
    """The manifest and the vectors of an exported folder, checksums verified."""
    root = Path(directory)
    manifest = json.loads((root / MANIFEST).read_bytes())
    if manifest.get("format") != MANIFEST_FORMAT or manifest.get("version") != FORMAT_VERSION:
        raise ValueError(f"{root / MANIFEST} is not a version-{FORMAT_VERSION} manifest")
    vectors = []
    for entry in manifest["cases"]:
        data = (root / entry["file"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ValueError(f"{entry['file']} does not match its checksum in the manifest")
        vectors.append(Vector.from_json(json.loads(data)))
    return manifest, vectors


@dataclass(frozen=True)
class VectorOutcome:
    """One vector run on a candidate: the differences (none: it passed)."""

    vector: Vector
    answer: Answer
    differences: tuple[Difference, ...]

    @property
    def passed(self) -> bool:
        """True when the candidate's answer matches ``expected``."""
        return not self.differences


def check(
    vectors: Sequence[Vector], candidate: Candidate, *, codes: bool = False, batch: int = 256
) -> list[VectorOutcome]:
    """Run every vector through the candidate and compare with its expected results."""
    outcomes = []
    for start in range(0, len(vectors), batch):
        chunk = vectors[start : start + batch]
        answers = candidate.answer(
            [GeneratedStream(v.events, (f"vector:{v.name}",)) for v in chunk]
        )
        for vector, answer in zip(chunk, answers, strict=True):
            differences = compare(vector.events, vector.expected, answer, codes=codes)
            outcomes.append(VectorOutcome(vector, answer, tuple(differences)))
    return outcomes


@dataclass(frozen=True)
class RuleTally:
    """How a candidate did on the vectors that exercise one rule."""

    rule: str
    vectors: int
    passed: int
    raised: int
    """Vectors of the rule on which the candidate gave no answer (an error)."""

    def to_json(self) -> dict[str, int]:
        """The tally as JSON (``vectors check --json``, the Real clients record)."""
        return {"vectors": self.vectors, "passed": self.passed, "raised": self.raised}


def _rule_order(rule: str) -> tuple[int, str]:
    digits = rule[1:]
    return (int(digits), rule) if digits.isdigit() else (1 << 30, rule)


def by_rule(outcomes: Sequence[VectorOutcome]) -> list[RuleTally]:
    """Per rule the vectors exercise (each vector counts under every rule it names),
    how many the candidate passed and on how many it raised, in rule order."""
    counts: dict[str, list[int]] = {}
    for outcome in outcomes:
        for rule in dict.fromkeys(outcome.vector.rules):
            tally = counts.setdefault(rule, [0, 0, 0])
            tally[0] += 1
            tally[1] += outcome.passed
            tally[2] += isinstance(outcome.answer, Failure)
    return [RuleTally(rule, *counts[rule]) for rule in sorted(counts, key=_rule_order)]


def broken_by_rule(
    outcomes: Sequence[VectorOutcome],
) -> list[tuple[str, list[tuple[VectorOutcome, list[Difference]]]]]:
    """The failing vectors grouped by the rule each difference breaks, in rule order:
    per rule, each vector with its differences that break it."""
    groups: dict[str, dict[str, tuple[VectorOutcome, list[Difference]]]] = {}
    for outcome in outcomes:
        for difference in outcome.differences:
            mine = groups.setdefault(difference.rule, {})
            mine.setdefault(outcome.vector.name, (outcome, []))[1].append(difference)
    return [(rule, list(groups[rule].values())) for rule in sorted(groups, key=_rule_order)]
