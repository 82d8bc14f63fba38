"""The proof status of each invariant, as ``prove()`` reports it — recorded, never invented.

Theory of operation
-------------------
Running the Z3 proofs takes minutes (about eleven on a shared two-core machine), too
long to repeat on every regeneration of the pages, and their verdict depends only on
the code the proofs run.  So the generator runs
``responses_oracle.proofs.inventory.prove(unbounded=True)`` when the record is stale (or
when asked, ``--prove``) and keeps what it returned in ``docs/proofs.json`` — a
``ProofRecord``: per invariant, the status and detail of every row, plus a
*fingerprint* of the code they were computed from.  The invariants page is rendered
from that record.

The fingerprint covers exactly what the proofs read, and none of its prose:

- *what they read* is the import closure of the proof entry points (``PROOF_ROOTS``),
  followed statically through every ``import`` of a ``responses_oracle`` module — the
  tables, the classifiers and vocabulary of ``model/``, ``proofs/``, and the reducer
  the counterexamples are replayed through.  A module no proof imports (the docs
  generator, the CLI, ``model/divergence.py``) is outside it;
- *none of its prose*: each module is hashed as its syntax tree with every docstring,
  bare string statement and ``meaning=`` argument (a diagnostic code's one line,
  ``PROSE_KEYWORDS``) removed, unparsed (``ast.unparse``), so comments, docstrings,
  meanings and layout do not count.

The record also holds what the proofs say about the peers' policies
(``responses_oracle.proofs.policies``): per policy, its description, the cells it
changes, what it does not model, the payload offers it ignores, and the rows of
``prove_policy`` -- a refuted invariant with its shortest counterexample stream.  A
re-run on the same sources writes the same record: counterexamples are canonical
(``induction.Unrolling.find`` and ``contracts.check_contract`` minimise them in a fixed
order, whatever Z3 was asked before), and the unbounded proofs are limited by Z3's own
step count (``unbounded.RLIMIT``), not by the clock of a busy machine.

``--check`` never runs the proofs: a record whose fingerprint differs from the current
sources is stale (a table or a proof changed: rerun the generator), and a matching one
is what ``prove()`` said about exactly these sources.  Without the proofs package (no
``z3``) and without a record, the page has no proof column; a status is never filled in
by hand.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD_NAME = "proofs.json"
"""The record's file name under ``docs/`` (published with the site, machine-readable)."""

PROOF_ROOTS: tuple[str, ...] = (
    "responses_oracle.proofs.inventory",
    "responses_oracle.proofs.policies",
)
"""The modules ``run_proofs`` runs: the fingerprint covers what they import, transitively."""

PACKAGE = "responses_oracle"
"""Imports of other packages (z3, the standard library) are not followed."""

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
    """SHA-256 over the name and the prose-free code of every module the proofs read."""
    digest = hashlib.sha256()
    for name, path in sorted(proof_sources().items()):
        digest.update(f"{name}\0{_code(path)}\0".encode())
    return digest.hexdigest()


def proof_sources() -> dict[str, Path]:
    """Every ``responses_oracle`` module the proofs import (``PROOF_ROOTS`` and their
    import closure, read from the sources, none executed), by name → its file."""
    found: dict[str, Path] = {}
    pending = list(PROOF_ROOTS)
    while pending:
        name = pending.pop()
        path = None if name in found else _module_file(name)
        if path is None:
            continue
        found[name] = path
        parents = name.split(".")
        pending += [".".join(parents[:n]) for n in range(1, len(parents))]
        pending += _imported(name, path)
    return found


def _module_file(name: str) -> Path | None:
    """The source file of module or package ``name``; None when it is not one (an
    imported function or class) or has no Python source."""
    parent = name.rpartition(".")[0]
    if parent and (_module_file(parent) or Path()).name != "__init__.py":
        return None  # ``from .module import function``: the function is no module
    try:
        spec = importlib.util.find_spec(name)  # imports the parent packages only
    except ModuleNotFoundError:
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imported(name: str, path: Path) -> list[str]:
    """The ``responses_oracle`` names ``path`` imports, anywhere in it (function-local
    imports too); ``from M import x`` yields both ``M`` and ``M.x`` (``x`` may be a
    module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names += [module, *(f"{module}.{alias.name}" for alias in node.names)]
    return [n for n in names if n == PACKAGE or n.startswith(f"{PACKAGE}.")]


PROSE_KEYWORDS: frozenset[str] = frozenset({"meaning"})
"""Keyword arguments whose value is prose no decision reads (a code's one-line meaning,
``model.vocabulary.CodeSpec``): the fingerprint ignores them like docstrings."""


class _Unprosed(ast.NodeTransformer):
    """Drops docstrings, every other bare string statement (prose that does nothing) and
    the values of the ``PROSE_KEYWORDS`` arguments."""

    def visit_keyword(self, node: ast.keyword) -> ast.keyword:
        if node.arg in PROSE_KEYWORDS:
            node.value = ast.Constant("")
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and all(isinstance(s, ast.stmt) for s in body):
            kept = [
                s
                for s in body
                if not (
                    isinstance(s, ast.Expr)
                    and isinstance(s.value, ast.Constant)
                    and isinstance(s.value.value, str)
                )
            ]
            node.body = kept or [ast.Pass()]  # type: ignore[attr-defined]
        return node


def _code(path: Path) -> str:
    """The module at ``path`` as code only: its syntax tree without prose, unparsed."""
    tree = _Unprosed().visit(ast.parse(path.read_text(encoding="utf-8")))
    return ast.unparse(tree)


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
        module = importlib.import_module("responses_oracle.proofs.inventory")
        policies = importlib.import_module("responses_oracle.proofs.policies")
    except ModuleNotFoundError as error:
        if error.name not in {
            "z3",
            "responses_oracle.proofs.inventory",
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
        and importlib.util.find_spec("responses_oracle.proofs.inventory") is not None
    )
