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

STATUS_TEXT: dict[str, str] = {
    "proved_bounded": "proved (bounded)",
    "proved_unbounded": "proved (any size)",
    "counterexample": "**refuted**",
    "unknown": "not proved",
}
"""How the page words each ``proofs.prove.Status`` value; an unknown value is an error."""


@dataclass(frozen=True)
class ProofRow:
    """One row of ``prove()``'s report."""

    invariant: str
    status: str
    detail: str


@dataclass(frozen=True)
class ProofRecord:
    """What ``prove()`` reported, and for which sources."""

    fingerprint: str
    rows: tuple[ProofRow, ...]

    def to_text(self) -> str:
        """The record as the JSON text of ``docs/proofs.json``."""
        document = {
            "generated_by": "python -m responses_oracle.docsite",
            "fingerprint": self.fingerprint,
            "results": [
                {"invariant": row.invariant, "status": row.status, "detail": row.detail}
                for row in self.rows
            ],
        }
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_text(cls, text: str) -> ProofRecord:
        """Read a record written by ``to_text``."""
        document: dict[str, Any] = json.loads(text)
        rows = tuple(
            ProofRow(row["invariant"], row["status"], row["detail"])
            for row in document["results"]
        )
        return cls(document["fingerprint"], rows)

    def current(self) -> bool:
        """Whether it was made from the current model and proofs sources."""
        return self.fingerprint == sources_fingerprint()

    def by_invariant(self) -> dict[str, list[ProofRow]]:
        """The rows of each invariant, in report order."""
        grouped: dict[str, list[ProofRow]] = {}
        for row in self.rows:
            grouped.setdefault(row.invariant, []).append(row)
        return grouped


def sources_fingerprint() -> str:
    """SHA-256 over the names and bytes of every module the proofs' verdicts depend on."""
    digest = hashlib.sha256()
    for package in SOURCE_PACKAGES:
        modules = sorted(
            (entry for entry in resources.files(package).iterdir() if entry.name.endswith(".py")),
            key=lambda entry: entry.name,
        )
        for module in modules:
            digest.update(f"{package}/{module.name}\0".encode())
            digest.update(module.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def run_proofs() -> ProofRecord | None:
    """Run ``prove(unbounded=True)`` on the reference model; None without the proofs."""
    # Fingerprint first: a source edited while the proofs run makes the record stale
    # instead of labelling old verdicts with new sources.
    fingerprint = sources_fingerprint()
    try:
        module = importlib.import_module("responses_oracle.proofs.prove")
    except ModuleNotFoundError as error:
        if error.name not in {"z3", "responses_oracle.proofs.prove"}:
            raise
        return None
    rows = tuple(
        ProofRow(result.invariant, result.status.value, result.detail)
        for result in module.prove(unbounded=True)
    )
    return ProofRecord(fingerprint, rows)


def load_record(path: Path) -> ProofRecord | None:
    """The committed record at ``path``, or None if there is none."""
    return ProofRecord.from_text(path.read_text(encoding="utf-8")) if path.is_file() else None


def proofs_available() -> bool:
    """Whether ``prove()`` can run here (the proofs package and ``z3`` are importable)."""
    return (
        importlib.util.find_spec("z3") is not None
        and importlib.util.find_spec("responses_oracle.proofs.prove") is not None
    )
