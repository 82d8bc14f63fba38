"""The proof status of each invariant, as ``prove()`` reports it — recorded, never invented.

Theory of operation
-------------------
Running every Z3 proof takes minutes (about twelve on a shared two-core machine), too
long to repeat on every regeneration of the pages, and the verdict of each row depends
only on what that row reads.  So ``docs/proofs.json`` keeps a ``ProofRecord``: per
invariant and part (``inventory.row_plan``), the status and detail of the row, what it
read -- the tables, and the imported model values the code it ran names -- and a
*fingerprint* of what it read (``fingerprint``: those tables' and values' current
contents, the proof sources, the model values every row reads; prose left out); the
same for each peer's policy (``proofs.policies``), and the matching table's coverage.

``refresh`` re-runs only the rows whose fingerprint no longer matches and keeps the
rest, so a change re-runs the rows that read what changed: a lifecycle cell re-runs the
rows that read ``lifecycle``, a cell of ``NOTE_CODES`` the rows that read
``note_codes``, an edit of ``admission.fit_key`` or ``routing.route_views`` the rows
whose code called it, an invariant's scope the rows that prove it; a provider quirk, a
new item type, a rule page or prose re-run none.  A change to the proof sources, or to
a model value read when the proofs are imported (an enum, an invariant's name:
``fingerprint.every_row``), re-runs every row.

Replaying a counterexample through the reducer generated from its tables is its own
step (``replayed``), seconds long and run on every regeneration and check: each
refuting row keeps what the encoding predicts after every frame of its stream
(``expected``), and the replay writes whether the reducer followed it (``replay``).  So
the reducer is in no fingerprint, and a reducer change that breaks a counterexample's
replay shows on the page and fails the check.

A re-run on the same sources writes the same record: counterexamples are canonical
(``induction.Unrolling.find`` and ``contracts.check_contract`` minimise them in a fixed
order), and the unbounded proofs are limited by Z3's own step count
(``unbounded.RLIMIT``), not by the clock.  ``--check`` never runs a proof; without the
proofs package (no ``z3``) and without a record, the page has no proof column, and a
status is never filled in by hand.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from .fingerprint import (
    ENTRY_TABLES,
    MODEL,
    Sources,
    entry_tables,
    every_row,
    fingerprint,
    model_names,
    proof_sources,
    sources,
    table_fields,
)

RECORD_NAME = "proofs.json"
"""The record's file name under ``docs/`` (published with the site, machine-readable)."""

REFERENCE_SCOPE = "reference"
"""The scope of the reference model's rows (a policy's rows have its name)."""

VACUITY_KEY = "matching_vacuity"
"""The fingerprint key of the matching table's coverage."""

STATUS_TEXT: dict[str, str] = {
    "proved_bounded": "proved (bounded)",
    "proved_unbounded": "proved (any size)",
    "counterexample": "**refuted**",
    "unknown": "not proved",
}
"""How the page words each ``proofs.inventory.Status`` value; an unknown value is an error."""


@dataclass(frozen=True)
class ProofRow:
    """One row of ``prove()``'s report, with what it read.

    ``part`` is the row's place in ``inventory.row_plan``; ``reads`` the ``ModelTables``
    fields its proof read and ``fingerprint`` what they and its sources were
    (``fingerprint.fingerprint``); ``counterexample`` the stream that refutes it,
    ``expected`` what the encoding predicts after each of its frames
    (``counterexample.Expectations``) and ``replay`` what the replay through the
    generated reducer found (``replayed``).
    """

    invariant: str
    status: str
    detail: str
    counterexample: tuple[dict[str, Any], ...] | None = None
    part: str = "bounded"
    reads: tuple[str, ...] = ()
    fingerprint: str = ""
    expected: dict[str, Any] | None = None
    replay: str | None = None

    @property
    def shown(self) -> str:
        """The detail as the pages show it, with the replay's finding."""
        return self.detail if self.replay is None else f"{self.detail}; {self.replay}"

    def to_json(self) -> dict[str, Any]:
        """The row as the record writes it (optional keys only when they have a value)."""
        document: dict[str, Any] = {
            "invariant": self.invariant,
            "part": self.part,
            "status": self.status,
            "detail": self.detail,
            "reads": list(self.reads),
            "fingerprint": self.fingerprint,
        }
        if self.counterexample is not None:
            document["counterexample"] = list(self.counterexample)
        if self.expected is not None:
            document["expected"] = self.expected
        if self.replay is not None:
            document["replay"] = self.replay
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
            document.get("part", "bounded"),
            tuple(document.get("reads", ())),
            document.get("fingerprint", ""),
            document.get("expected"),
            document.get("replay"),
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
    """What ``prove()`` reported on the reference and on each peer's policy, row by row,
    with what each row read."""

    rows: tuple[ProofRow, ...]
    policies: tuple[PolicyRecord, ...] = ()
    matching_vacuity: dict[str, Any] | None = None
    """Which cells of the matching table some stream reaches (``matching.fit_coverage``):
    ``bounds``, ``depth``, ``reached`` (a count) and ``unreached`` (cells, as names),
    with its ``reads`` and ``fingerprint`` like a row's."""

    def to_text(self) -> str:
        """The record as the JSON text of ``docs/proofs.json``."""
        document = {
            "generated_by": "python -m responses_oracle.docsite",
            "results": [row.to_json() for row in self.rows],
            "policies": [policy.to_json() for policy in self.policies],
            "matching_vacuity": self.matching_vacuity,
        }
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_text(cls, text: str) -> ProofRecord:
        """Read a record written by ``to_text`` (a record of the older format, one
        fingerprint for all, reads as every row stale)."""
        document: dict[str, Any] = json.loads(text)
        rows = tuple(ProofRow.from_json(row) for row in document["results"])
        policies = tuple(PolicyRecord.from_json(p) for p in document.get("policies", []))
        return cls(rows, policies, document.get("matching_vacuity"))

    def stale(self) -> list[str]:
        """The rows made from other sources than the current ones (``stale_rows``)."""
        return stale_rows(self)

    def current(self) -> bool:
        """Whether every row was made from the current sources."""
        return not self.stale()

    def by_invariant(self) -> dict[str, list[ProofRow]]:
        """The reference's rows of each invariant, in report order."""
        return _grouped(self.rows)


def _grouped(rows: tuple[ProofRow, ...]) -> dict[str, list[ProofRow]]:
    grouped: dict[str, list[ProofRow]] = {}
    for row in rows:
        grouped.setdefault(row.invariant, []).append(row)
    return grouped


def row_key(scope: str, invariant: str, part: str) -> str:
    """How a row is named in its fingerprint and in the stale list: ``scope invariant part``."""
    return f"{scope} {invariant} {part}"


def _reference() -> Any:
    from responses_oracle.model.tables import REFERENCE

    return REFERENCE


def _import_proofs(name: str) -> Any | None:
    """``responses_oracle.proofs.NAME``, or None without ``z3``."""
    try:
        return importlib.import_module(f"responses_oracle.proofs.{name}")
    except ModuleNotFoundError as error:
        if error.name != "z3":
            raise
        return None


def _planned() -> list[str] | None:
    """The keys of the reference's rows ``prove`` makes now; None without the proofs."""
    prove = _import_proofs("inventory")
    if prove is None:
        return None
    return [
        row_key(REFERENCE_SCOPE, name, part)
        for name in prove.PROVED_NAMES
        for part, _ in prove.row_plan(name, unbounded=True)
    ]


def stale_rows(record: ProofRecord) -> list[str]:
    """The rows of ``record`` whose fingerprint no longer matches what they read
    (``row_key``), the rows ``prove`` makes that it lacks, and ``matching_vacuity`` if it
    is stale.  A peer's policy's rows are checked where the proofs import (its tables
    are built by ``proofs.policies``); without them, only the reference's."""
    reference = _reference()
    reference_sources = sources()
    stale = [
        key
        for row in record.rows
        if row.fingerprint
        != fingerprint(
            reference_sources,
            key := row_key(REFERENCE_SCOPE, row.invariant, row.part),
            reference,
            row.reads,
        )
    ]
    planned = _planned()
    if planned is not None:
        present = {row_key(REFERENCE_SCOPE, row.invariant, row.part) for row in record.rows}
        stale += [key for key in planned if key not in present]
    policies = _import_proofs("policies")
    if policies is not None:
        tables = {policy.name: policy.tables for policy in policies.PEER_POLICIES}
        policy_sources = sources(policy=True)
        for policy in record.policies:
            for row in policy.rows:
                key = row_key(policy.name, row.invariant, row.part)
                if policy.name not in tables or row.fingerprint != fingerprint(
                    policy_sources, key, tables[policy.name], row.reads
                ):
                    stale.append(key)
        stale += [name for name in tables if name not in {p.name for p in record.policies}]
    vacuity = record.matching_vacuity or {}
    if vacuity.get("fingerprint") != fingerprint(
        reference_sources, VACUITY_KEY, reference, vacuity.get("reads", ())
    ):
        stale.append(VACUITY_KEY)
    return stale


def _proof_modules() -> list[Any]:
    """The proof modules (not ``model/``'s), imported: the code ``proofs.reads`` marks."""
    return [
        importlib.import_module(name)
        for name in sorted(proof_sources())
        if not (name == MODEL or name.startswith(f"{MODEL}."))
    ]


def _marked() -> Any:
    """``proofs.reads.running`` over the proof modules, with an ``Entries`` view of each
    of ``ENTRY_TABLES``."""
    from responses_oracle.proofs.reads import running

    return running(_proof_modules(), entry_tables())


@dataclass(frozen=True)
class _Attribution:
    """How a row's marked code becomes model values: the keys each name may read
    (``fingerprint.model_names``) and those every row counts (``fingerprint.every_row``)."""

    names: dict[str, frozenset[str]]
    every_row: frozenset[str]

    @classmethod
    def now(cls) -> _Attribution:
        """For the proof sources as they are now."""
        modules = proof_sources()
        return cls(model_names(modules), frozenset(every_row(modules)))


def _reads(read: Iterable[Any], names: Iterable[str] | None, by: _Attribution) -> tuple[str, ...]:
    """What a row read, as the record keeps it: the table fields among the attributes
    its proof read (``name`` is no table), then the imported model values its code may
    read (``names``, the names its marked code reads; None when not known: all of
    them) and the entries of ``ENTRY_TABLES`` it looked up, but for those every row
    counts."""
    fields = sorted({name for name in read if isinstance(name, str)} & set(table_fields()))
    known = by.names.values() if names is None else [by.names.get(name, ()) for name in names]
    values = {key for keys in known for key in keys} - by.every_row - set(ENTRY_TABLES)
    # An entry list is recorded lookup by lookup (``proofs.reads.Entries``), unless
    # every row counts it whole.
    values |= {
        key if name is None else f"{key}[{name}]"
        for key, name in (read_ for read_ in read if isinstance(read_, tuple))
        if key not in by.every_row
    }
    return (*fields, *sorted(values))


def _run(
    row: Callable[[Any], Any], tables: Any, by: _Attribution | None = None
) -> tuple[Any, tuple[str, ...]]:
    """Run one row's proof on ``tables``, recording the tables it reads and the model
    values the code it runs names (``proofs.reads``; ``by``: the sources' attribution,
    made now if not given)."""
    from responses_oracle.proofs.reads import Reading, recording

    reading = Reading(tables)
    with _marked() as runs:
        with recording(reading) as read:
            result = row(reading)
        names = runs.read(read)
    return result, _reads(read, names, by or _Attribution.now())


def _row(result: Any, part: str, reads: tuple[str, ...], print_: str) -> ProofRow:
    """A ``proofs.inventory.ProofResult`` as a record row (``print_``: its fingerprint)."""
    events = result.counterexample
    expected = result.expected
    return ProofRow(
        result.invariant,
        result.status.value,
        result.detail,
        tuple(events) if events is not None else None,
        part,
        reads,
        print_,
        expected.to_json() if expected is not None else None,
    )


def _parts(results: list[Any]) -> list[str]:
    """The part of each row ``prove_policy`` returned for one invariant: the first
    lifecycle row is the bounded proof, a second one the proof for any size."""
    parts: list[str] = []
    for result in results:
        if result.system != "lifecycle":
            parts.append(result.system)
        else:
            parts.append("unbounded" if "bounded" in parts else "bounded")
    return parts


class _Progress:
    """Says which rows run, and how long they took, as they go."""

    def __init__(self) -> None:
        self.ran = 0
        self.kept = 0
        self.started = time.perf_counter()

    def keep(self, count: int = 1) -> None:
        self.kept += count

    def run(self, key: str, started: float) -> None:
        self.ran += 1
        print(f"  re-proved {key} ({time.perf_counter() - started:.0f} s)", flush=True)

    def done(self) -> None:
        print(
            f"proofs: {self.ran} rows re-proved, {self.kept} kept "
            f"({time.perf_counter() - self.started:.0f} s)",
            flush=True,
        )


def run_proofs(previous: ProofRecord | None = None, everything: bool = False) -> ProofRecord | None:
    """The record for the current sources, its counterexamples replayed: the rows of
    ``previous`` that are still current kept, every other row proved again (all of them
    with ``everything``).  None without the proofs (no ``z3``)."""
    prove = _import_proofs("inventory")
    policies = _import_proofs("policies")
    matching = _import_proofs("matching")
    if prove is None or policies is None or matching is None:
        return None
    with _marked():  # marked once for all the rows, not row by row
        return _proved(previous, everything, prove, policies, matching, _Attribution.now())


def _proved(
    previous: ProofRecord | None,
    everything: bool,
    prove: Any,
    policies: Any,
    matching: Any,
    by: _Attribution,
) -> ProofRecord:
    """``run_proofs`` once the proofs are imported and marked."""
    # Fingerprints of the sources as they are before the proofs run: a source edited
    # meanwhile makes the record stale instead of labelling old verdicts with new code.
    reference_sources, policy_sources = sources(), sources(policy=True)
    old = previous if previous is not None and not everything else ProofRecord(())
    reference = _reference()
    progress = _Progress()
    kept = {row_key(REFERENCE_SCOPE, row.invariant, row.part): row for row in old.rows}
    rows: list[ProofRow] = []
    for name in prove.PROVED_NAMES:
        for part, plan in prove.row_plan(name, unbounded=True):
            key = row_key(REFERENCE_SCOPE, name, part)
            row = kept.get(key)
            if row is not None and row.fingerprint == fingerprint(
                reference_sources, key, reference, row.reads
            ):
                rows.append(row)
                progress.keep()
                continue
            started = time.perf_counter()
            result, reads = _run(plan, reference, by)
            print_ = fingerprint(reference_sources, key, reference, reads)
            rows.append(_row(result, part, reads, print_))
            progress.run(key, started)
    recorded = {policy.name: policy for policy in old.policies}
    peers = tuple(
        _policy_record(
            policy,
            policies.prove_policy,
            recorded.get(policy.name),
            policy_sources,
            prove,
            progress,
            by,
        )
        for policy in policies.PEER_POLICIES
    )
    vacuity = _matching_vacuity(
        matching, old.matching_vacuity, reference_sources, reference, progress, by
    )
    progress.done()
    return replayed(ProofRecord(tuple(rows), peers, vacuity))


def _policy_record(
    policy: Any,
    prove_policy: Any,
    previous: PolicyRecord | None,
    sources: Sources,
    prove: Any,
    progress: _Progress,
    by: _Attribution,
) -> PolicyRecord:
    """A ``proofs.policies.Policy`` and what ``prove_policy`` says about it: the rows of
    an invariant kept from ``previous`` while all are current, else proved again."""
    old = previous.by_invariant() if previous is not None else {}
    rows: list[ProofRow] = []
    for name in prove.PROVED_NAMES:
        kept = old.get(name, [])
        if kept and all(
            row.fingerprint
            == fingerprint(sources, row_key(policy.name, name, row.part), policy.tables, row.reads)
            for row in kept
        ):
            rows += kept
            progress.keep(len(kept))
            continue
        started = time.perf_counter()
        run = partial(_on_policy, prove_policy, policy, name)
        results, reads = _run(run, policy.tables, by)
        for result, part in zip(results, _parts(results), strict=True):
            key = row_key(policy.name, name, part)
            rows.append(_row(result, part, reads, fingerprint(sources, key, policy.tables, reads)))
        progress.run(row_key(policy.name, name, "*"), started)
    return PolicyRecord(
        policy.name,
        policy.description,
        policy.evidence,
        tuple((c.table, c.cell, c.value, c.evidence) for c in policy.changes),
        policy.not_modelled,
        policy.unoffered_cells,
        tuple(rows),
    )


def _on_policy(prove_policy: Any, policy: Any, name: str, tables: Any) -> Any:
    """``prove_policy`` on ``policy`` with its tables replaced by ``tables`` (a
    ``Reading`` of them), for invariant ``name``."""
    return prove_policy(replace(policy, tables=tables), name)


def _matching_vacuity(
    matching: Any,
    previous: dict[str, Any] | None,
    sources: Sources,
    reference: Any,
    progress: _Progress,
    by: _Attribution,
) -> dict[str, Any]:
    """The matching table's coverage at 2 entries and slots, up to 3 items (kept from
    ``previous`` while current)."""
    if previous is not None and previous.get("fingerprint") == fingerprint(
        sources, VACUITY_KEY, reference, previous.get("reads", ())
    ):
        progress.keep()
        return previous
    encoding = importlib.import_module("responses_oracle.proofs.encoding")
    bounds, depth = encoding.Bounds(2, 2), 3
    started = time.perf_counter()
    covering = partial(matching.fit_coverage, bounds=bounds, depth=depth)
    coverage, reads = _run(covering, reference, by)
    progress.run(VACUITY_KEY, started)
    return {
        "bounds": str(bounds),
        "depth": depth,
        "reached": len(coverage.reached),
        "unreached": [[part.name for part in cell] for cell in coverage.unreached],
        "reads": list(reads),
        "fingerprint": fingerprint(sources, VACUITY_KEY, reference, reads),
    }


def replayed(record: ProofRecord) -> ProofRecord:
    """``record`` with every counterexample replayed through the reducer generated from
    its row's tables (``conformance.finding``, seconds; no proof runs): ``replay`` says
    whether the reducer followed the stream frame by frame, or where it did not.  The
    record unchanged without the proofs (no ``z3``)."""
    conformance = _import_proofs("conformance")
    counterexample = _import_proofs("counterexample")
    policies = _import_proofs("policies")
    if conformance is None or counterexample is None or policies is None:
        return record
    from responses_oracle.model.codegen import load_kernels

    tables = {REFERENCE_SCOPE: _reference()}
    tables.update((policy.name, policy.tables) for policy in policies.PEER_POLICIES)
    kernels: dict[str, Any] = {}

    def replay(scope: str, row: ProofRow) -> ProofRow:
        if row.counterexample is None or row.expected is None or scope not in tables:
            return row
        if scope not in kernels:
            kernels[scope] = load_kernels(tables[scope])
        expected = counterexample.Expectations.from_json(row.expected)
        found = conformance.finding(row.counterexample, expected, kernels[scope])
        return replace(row, replay=found)

    return replace(
        record,
        rows=tuple(replay(REFERENCE_SCOPE, row) for row in record.rows),
        policies=tuple(
            replace(policy, rows=tuple(replay(policy.name, row) for row in policy.rows))
            for policy in record.policies
        ),
    )


def load_record(path: Path) -> ProofRecord | None:
    """The committed record at ``path``, or None if there is none."""
    return ProofRecord.from_text(path.read_text(encoding="utf-8")) if path.is_file() else None


def proofs_available() -> bool:
    """Whether ``prove()`` can run here (the proofs package and ``z3`` are importable)."""
    return (
        importlib.util.find_spec("z3") is not None
        and importlib.util.find_spec("responses_oracle.proofs.inventory") is not None
    )
