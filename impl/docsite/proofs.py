"""The proof status of each invariant, as ``prove()`` reports it — recorded, never invented.

Theory of operation
-------------------
Running the Z3 proofs takes tens of seconds, too long to repeat on every check of the
pages, and their verdict depends only on the model and the proofs themselves.  So the
generator runs ``responses_oracle.proofs.prove.prove(unbounded=True)`` once and keeps
what it returned in ``docs/proofs.json`` — a ``ProofRecord``: per invariant, the status
and detail of every row, plus a *fingerprint* of the sources they were computed from
(every module of ``responses_oracle.model`` and ``responses_oracle.proofs``).  The
invariants page is rendered from that record.

The record also holds what the proofs say about the peers' policies
(``responses_oracle.proofs.policies``): per policy, its description, the cells it
changes, what it does not model, the payload candidates it ignores, and the rows of
``prove_policy`` -- a refuted invariant with its shortest counterexample stream.

``--check`` never runs the proofs: a record whose fingerprint differs from the current
sources is stale (a table or a proof changed: rerun the generator), and a matching one
is what ``prove()`` said about exactly these sources.  Without the proofs package (no
``z3``) and without a record, the page has no proof column; a status is never filled in
by hand.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

RECORD_NAME = "proofs.json"
"""The record's file name under ``docs/`` (published with the site, machine-readable)."""

SOURCE_PACKAGES: tuple[str, ...] = ("responses_oracle.model", "responses_oracle.proofs")
"""The packages whose sources decide the proofs' verdicts."""

NOT_PROVED: frozenset[str] = frozenset({"responses_oracle.model/divergence.py"})
"""Modules of those packages no proof reads (the differential taxonomy): editing them
leaves the verdicts, and so the record, current."""

STATUS_TEXT: dict[str, str] = {
    "proved_bounded": "proved (bounded)",
    "proved_unbounded": "proved (any size)",
    "counterexample": "**refuted**",
    "unknown": "not proved",
}
"""How the page words each ``proofs.prove.Status`` value; an unknown value is an error."""


@dataclass(frozen=True)
class ProofRow:
    """One row of ``prove()``'s report; ``counterexample`` is the stream that refutes it."""

    invariant: str
    status: str
    detail: str
    counterexample: tuple[dict[str, Any], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The row as the record writes it (no ``counterexample`` key when there is none)."""
        document: dict[str, Any] = {
            "invariant": self.invariant,
            "status": self.status,
            "detail": self.detail,
        }
        if self.counterexample is not None:
            document["counterexample"] = list(self.counterexample)
        return document

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> ProofRow:
        """Read a row written by ``to_json``."""
        events = document.get("counterexample")
        return cls(
            document["invariant"],
            document["status"],
            document["detail"],
            tuple(events) if events is not None else None,
        )


@dataclass(frozen=True)
class PolicyRecord:
    """One peer's policy as the proofs saw it: its notes and ``prove_policy``'s rows.

    ``changes`` are ``(table, cell, new value, evidence)``.
    """

    name: str
    description: str
    evidence: str
    changes: tuple[tuple[str, str, str, str], ...]
    not_modelled: tuple[str, ...]
    unoffered: tuple[str, ...]
    rows: tuple[ProofRow, ...]

    def to_json(self) -> dict[str, Any]:
        """The policy as the record writes it."""
        return {
            "name": self.name,
            "description": self.description,
            "evidence": self.evidence,
            "changes": [list(change) for change in self.changes],
            "not_modelled": list(self.not_modelled),
            "unoffered": list(self.unoffered),
            "results": [row.to_json() for row in self.rows],
        }

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> PolicyRecord:
        """Read a policy written by ``to_json``."""
        return cls(
            document["name"],
            document["description"],
            document["evidence"],
            tuple((c[0], c[1], c[2], c[3]) for c in document["changes"]),
            tuple(document["not_modelled"]),
            tuple(document["unoffered"]),
            tuple(ProofRow.from_json(row) for row in document["results"]),
        )

    def by_invariant(self) -> dict[str, list[ProofRow]]:
        """The rows of each invariant, in report order."""
        return _grouped(self.rows)


@dataclass(frozen=True)
class ProofRecord:
    """What ``prove()`` reported on the reference and on each peer's policy, and for
    which sources."""

    fingerprint: str
    rows: tuple[ProofRow, ...]
    policies: tuple[PolicyRecord, ...] = ()
    matching_vacuity: dict[str, Any] | None = None
    """Which cells of the matching table some stream reaches (``matching.fit_coverage``):
    ``bounds``, ``depth``, ``reached`` (a count) and ``unreached`` (cells, as names)."""

    def to_text(self) -> str:
        """The record as the JSON text of ``docs/proofs.json``."""
        document = {
            "generated_by": "python -m responses_oracle.docsite",
            "fingerprint": self.fingerprint,
            "results": [row.to_json() for row in self.rows],
            "policies": [policy.to_json() for policy in self.policies],
            "matching_vacuity": self.matching_vacuity,
        }
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_text(cls, text: str) -> ProofRecord:
        """Read a record written by ``to_text``."""
        document: dict[str, Any] = json.loads(text)
        rows = tuple(ProofRow.from_json(row) for row in document["results"])
        policies = tuple(PolicyRecord.from_json(p) for p in document.get("policies", []))
        return cls(document["fingerprint"], rows, policies, document.get("matching_vacuity"))

    def current(self) -> bool:
        """Whether it was made from the current model and proofs sources."""
        return self.fingerprint == sources_fingerprint()

    def by_invariant(self) -> dict[str, list[ProofRow]]:
        """The reference's rows of each invariant, in report order."""
        return _grouped(self.rows)


def _grouped(rows: tuple[ProofRow, ...]) -> dict[str, list[ProofRow]]:
    grouped: dict[str, list[ProofRow]] = {}
    for row in rows:
        grouped.setdefault(row.invariant, []).append(row)
    return grouped


def sources_fingerprint() -> str:
    """SHA-256 over the names and bytes of every module the proofs' verdicts depend on."""
    digest = hashlib.sha256()
    for package in SOURCE_PACKAGES:
        modules = sorted(
            (
                entry
                for entry in resources.files(package).iterdir()
                if entry.name.endswith(".py") and f"{package}/{entry.name}" not in NOT_PROVED
            ),
            key=lambda entry: entry.name,
        )
        for module in modules:
            digest.update(f"{package}/{module.name}\0".encode())
            digest.update(module.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def _row(result: Any) -> ProofRow:
    """A ``proofs.prove.ProofResult`` as a record row."""
    events = result.counterexample
    return ProofRow(
        result.invariant,
        result.status.value,
        result.detail,
        tuple(events) if events is not None else None,
    )


def _policy_record(policy: Any, prove_policy: Any) -> PolicyRecord:
    """A ``proofs.policies.Policy`` and what ``prove_policy`` says about it."""
    return PolicyRecord(
        policy.name,
        policy.description,
        policy.evidence,
        tuple((c.table, c.cell, c.value, c.evidence) for c in policy.changes),
        policy.not_modelled,
        policy.unoffered_cells,
        tuple(_row(result) for result in prove_policy(policy)),
    )


def run_proofs() -> ProofRecord | None:
    """Run ``prove(unbounded=True)`` on the reference model and ``prove_policy`` on each
    peer's policy; None without the proofs."""
    # Fingerprint first: a source edited while the proofs run makes the record stale
    # instead of labelling old verdicts with new sources.
    fingerprint = sources_fingerprint()
    try:
        module = importlib.import_module("responses_oracle.proofs.prove")
        policies = importlib.import_module("responses_oracle.proofs.policies")
    except ModuleNotFoundError as error:
        if error.name not in {
            "z3",
            "responses_oracle.proofs.prove",
            "responses_oracle.proofs.policies",
        }:
            raise
        return None
    rows = tuple(_row(result) for result in module.prove(unbounded=True))
    peers = tuple(
        _policy_record(policy, policies.prove_policy) for policy in policies.PEER_POLICIES
    )
    return ProofRecord(fingerprint, rows, peers, _matching_vacuity())


def _matching_vacuity() -> dict[str, Any]:
    """The matching table's coverage at 2 entries and slots, up to 3 items."""
    matching = importlib.import_module("responses_oracle.proofs.matching")
    encoding = importlib.import_module("responses_oracle.proofs.encoding")
    tables = importlib.import_module("responses_oracle.model.tables")
    bounds, depth = encoding.Bounds(2, 2), 3
    coverage = matching.fit_coverage(tables.REFERENCE, bounds, depth)
    return {
        "bounds": str(bounds),
        "depth": depth,
        "reached": len(coverage.reached),
        "unreached": [[part.name for part in cell] for cell in coverage.unreached],
    }


def load_record(path: Path) -> ProofRecord | None:
    """The committed record at ``path``, or None if there is none."""
    return ProofRecord.from_text(path.read_text(encoding="utf-8")) if path.is_file() else None


def proofs_available() -> bool:
    """Whether ``prove()`` can run here (the proofs package and ``z3`` are importable)."""
    return (
        importlib.util.find_spec("z3") is not None
        and importlib.util.find_spec("responses_oracle.proofs.prove") is not None
    )
