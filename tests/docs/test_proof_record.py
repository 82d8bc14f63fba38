"""A proof row is re-proved only when what it read changes.

``docs/proofs.json`` holds, per row of ``prove()``'s report, the tables the row read and
a fingerprint of them, of the proof sources and of the model facts those import
(``docsite.fingerprint``), prose left out.  The docs generator re-proves the stale rows
and keeps the others; it replays the counterexamples through the reducer every time.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO, sliced
from responses_oracle.docsite import __main__ as command
from responses_oracle.docsite import fingerprint, proofs
from responses_oracle.docsite.proofs import ProofRecord, ProofRow, row_key
from responses_oracle.model import catalogue
from responses_oracle.model.tables import REFERENCE, ModelTables, table_cells
from responses_oracle.model.vocabulary import ItemKind
from responses_oracle.proofs import inventory as prove
from responses_oracle.proofs.conformance import FOLLOWED
from responses_oracle.proofs.mutation import proof_reads

RECORD = proofs.load_record(REPO / "docs" / proofs.RECORD_NAME)
"""The committed record (the tests never run the slow proofs)."""


def _changed(table: Mapping[Any, Any]) -> dict[Any, Any]:
    """``table`` with its first cell given the value of the first cell that differs."""
    cells = table_cells(table)
    (path, value), other = cells[0], next(v for _, v in cells if v != cells[0][1])
    copy: dict[Any, Any] = {
        key: dict(inner) if isinstance(inner, Mapping) else inner for key, inner in table.items()
    }
    inner = copy
    for key in path[:-1]:
        inner[key] = dict(inner[key])
        inner = inner[key]
    assert inner[path[-1]] == value
    inner[path[-1]] = other
    return copy


def _stale_with(monkeypatch: pytest.MonkeyPatch, tables: ModelTables) -> set[str]:
    """The reference rows the committed record has stale once the model is ``tables``."""
    assert RECORD is not None
    monkeypatch.setattr(proofs, "_reference", lambda: tables)
    reference_only = replace(RECORD, policies=())
    return {key for key in reference_only.stale() if key.startswith("reference ")}


def _readers(table: str) -> set[str]:
    assert RECORD is not None
    return {
        row_key("reference", row.invariant, row.part) for row in RECORD.rows if table in row.reads
    }


@pytest.mark.parametrize("table", ["lifecycle", "payload", "namespaces", "boundary"])
def test_a_changed_cell_makes_exactly_the_rows_that_read_its_table_stale(
    monkeypatch: pytest.MonkeyPatch, table: str
) -> None:
    changed = replace(REFERENCE, **{table: _changed(getattr(REFERENCE, table))})
    assert _readers(table), f"no row reads {table}"
    assert _stale_with(monkeypatch, changed) == _readers(table)


def test_every_row_read_what_the_mutation_score_finds_it_reads() -> None:
    # proof_reads records each proof at 2x2 on its own; a row whose recorded reads miss
    # one of those tables would not be re-proved when that table changes.
    assert RECORD is not None
    reads = proof_reads()
    tables = set(fingerprint.table_fields())
    for row in RECORD.rows:
        if row.part in ("bounded", "contract"):
            assert reads.system[row.invariant] & tables <= set(row.reads), row.invariant
        elif row.part == "matcher":
            assert reads.matcher[row.invariant] & tables <= set(row.reads), row.invariant


def test_a_row_records_what_it_reads_and_its_fingerprint_covers_it() -> None:
    ((part, plan),) = prove.row_plan("payload_reported")
    result, reads = proofs._run(plan, REFERENCE)
    # The table it looks up, then the model functions its code calls: the payload's
    # classifier (on Z3 terms) and the table walker.
    assert part == "contract" and reads == (
        "payload",
        "responses_oracle.model.payload.payload_key",
        "responses_oracle.model.tables.table_cells",
    )
    assert result.status is prove.Status.PROVED_UNBOUNDED
    sources = fingerprint.sources()
    key = row_key("reference", "payload_reported", part)
    made = fingerprint.fingerprint(sources, key, REFERENCE, reads)
    changed = replace(REFERENCE, payload=_changed(REFERENCE.payload))
    assert fingerprint.fingerprint(sources, key, changed, reads) != made
    unread = replace(REFERENCE, lifecycle=_changed(REFERENCE.lifecycle))
    assert fingerprint.fingerprint(sources, key, unread, reads) == made


NEW_ITEM_TYPE = """
import hashlib, sys
from dataclasses import replace
from responses_oracle.model import catalogue
if sys.argv[1] == "new":
    # Before any other model module is imported, as if catalogue.py had the entries.
    spec = catalogue.ITEM_TYPES["custom_tool_call"]
    catalogue.ITEM_TYPES["shiny_new_call"] = replace(spec, id_prefix="snc")
    for suffix in ("delta", "done"):
        event = catalogue.WIRE_EVENTS[f"response.custom_tool_call_input.{suffix}"]
        catalogue.WIRE_EVENTS[f"response.shiny_new_call_input.{suffix}"] = event
from responses_oracle.docsite.fingerprint import sources
from responses_oracle.docsite.proofs import load_record
from pathlib import Path
record = load_record(Path(sys.argv[2]))
rows = [*record.rows, *(row for policy in record.policies for row in policy.rows)]
read = {key for row in rows for key in row.reads}
found = sources(policy=True)
print(hashlib.sha256(found.text.encode()).hexdigest())
print(sorted((key, value) for key, value in found.values.items() if key in read))
"""


def test_a_new_item_type_and_its_events_change_no_row() -> None:
    def digest(which: str) -> str:
        run = subprocess.run(
            [sys.executable, "-c", NEW_ITEM_TYPE, which, str(REPO / "docs" / proofs.RECORD_NAME)],
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.strip()

    assert digest("new") == digest("as-is")


def test_the_kinds_the_matcher_reads_of_the_catalogue_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = fingerprint.sources().text
    spec = catalogue.ITEM_TYPES["function_call"]
    kind = next(k for k in ItemKind if k is not spec.kind)
    other = {**catalogue.ITEM_TYPES, "function_call": replace(spec, kind=kind)}
    monkeypatch.setattr(catalogue, "ITEM_TYPES", other)
    assert fingerprint.sources().text != before


def test_no_reducer_wire_or_stream_generator_is_in_any_fingerprint() -> None:
    read = set(fingerprint.proof_sources())
    assert {"responses_oracle.proofs.inventory", "responses_oracle.proofs.encoding"} <= read
    outside = {
        name
        for name in read
        if not name.startswith(("responses_oracle.proofs", "responses_oracle.model"))
    }
    assert outside == set()  # no reducer, wire front end, testing profiles, docs, CLI
    assert "responses_oracle.proofs.conformance" not in read  # the replay is its own step


def test_a_docstring_changes_no_row_and_code_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = fingerprint.sources()
    source = (REPO / "proofs" / "inventory.py").read_text(encoding="utf-8")
    copy = tmp_path / "inventory.py"
    real = fingerprint._module_file

    def moved(name: str) -> Path | None:
        return copy if name == "responses_oracle.proofs.inventory" else real(name)

    monkeypatch.setattr(fingerprint, "_module_file", moved)
    reworded = source.replace('"""``prove``: every', '"""``prove``, reworded: every')
    deeper = source.replace("DEFAULT_DEPTH = 8", "DEFAULT_DEPTH = 9")
    assert source != reworded and source != deeper
    copy.write_text(reworded)
    assert fingerprint.sources() == before
    copy.write_text(deeper)
    assert fingerprint.sources() != before


TABLE = '''"""The table."""
CELLS = {
    "a": 1,  # a comment
    "b": 2,
}
SPEC = CodeSpec(ERROR, "R1", meaning="what it means")
BUG = Mutant(TABLES, "a bug class", "complete_once", "its evidence")
"""What each cell is."""


def cell(key: str) -> int:
    """The cell of ``key``."""
    return CELLS[key]
'''


def test_prose_does_not_count_but_a_cell_does() -> None:
    code = fingerprint.code_text(TABLE)
    reworded = (
        TABLE.replace("The table.", "The table, reworded.")
        .replace("# a comment", "# another comment")
        .replace('"""The cell of ``key``."""', '"""Which cell ``key`` selects."""')
        .replace("what it means", "what it means, reworded")
        .replace("a bug class", "another bug class")
        .replace("its evidence", "other evidence")
    )
    relaid = reworded.replace('    "b": 2,\n}', '    "b": 2}')
    assert fingerprint.code_text(relaid) == code
    assert fingerprint.code_text(TABLE.replace('"b": 2', '"b": 3')) != code
    assert fingerprint.code_text(TABLE.replace("CodeSpec(ERROR", "CodeSpec(WARNING")) != code
    assert fingerprint.code_text(TABLE.replace('"complete_once"', '"nothing_lost"')) != code


def test_a_function_of_docstring_only_still_hashes() -> None:
    only = 'def f() -> None:\n    """Nothing."""\n'
    assert fingerprint.code_text(only) == "def f() -> None:\n    pass"


def test_the_replay_is_its_own_step_and_finds_a_reducer_that_does_not_follow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert RECORD is not None
    refuted = [(policy, row) for policy in RECORD.policies for row in policy.rows if row.expected]
    assert refuted, "the record holds no counterexample to replay"
    assert all(row.replay == FOLLOWED for _, row in refuted)
    policy, row = refuted[0]
    alone = replace(RECORD, rows=(), policies=(replace(policy, rows=(replace(row, replay=None),)),))
    assert proofs.replayed(alone).policies[0].rows[0].replay == FOLLOWED
    # Through the reference's reducer, the peer's counterexample is not followed.
    from responses_oracle.model import codegen

    reference = codegen.load_kernels(REFERENCE)
    monkeypatch.setattr(codegen, "load_kernels", lambda tables: reference)
    replay = proofs.replayed(alone).policies[0].rows[0].replay
    assert replay is not None and replay.startswith("after step")


def _never(*_: object) -> Any:
    raise AssertionError("a current row was proved again")


def test_only_the_stale_rows_are_proved_again(monkeypatch: pytest.MonkeyPatch) -> None:
    assert RECORD is not None
    monkeypatch.setattr(proofs, "_run", _never)
    assert proofs.run_proofs(RECORD) == RECORD
    target = RECORD.rows[0]
    stale = replace(RECORD, rows=(replace(target, fingerprint="0" * 64), *RECORD.rows[1:]))
    ran: list[object] = []

    def run(plan: object, tables: object, by: object = None) -> tuple[Any, tuple[str, ...]]:
        ran.append(plan)
        return _result(target), target.reads

    monkeypatch.setattr(proofs, "_run", run)
    assert proofs.run_proofs(stale) == RECORD
    assert len(ran) == 1


def _result(row: ProofRow) -> prove.ProofResult:
    return prove.ProofResult(
        row.invariant, "reference", prove.Status(row.status), 0.0, None, row.detail
    )


def test_a_record_of_the_older_format_is_stale() -> None:
    old = (
        '{"fingerprint": "ab", "results": [{"invariant": "complete_once", '
        '"status": "proved_bounded", "detail": "held"}], "policies": []}'
    )
    record = ProofRecord.from_text(old)
    assert "reference complete_once bounded" in record.stale()


def test_prove_re_proves_every_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert RECORD is not None
    (tmp_path / proofs.RECORD_NAME).write_text(RECORD.to_text(), encoding="utf-8")
    calls: list[bool] = []
    monkeypatch.setattr(
        command, "run_proofs", lambda previous, everything: calls.append(everything) or RECORD
    )
    monkeypatch.setattr(command, "run_sdk", lambda: None)
    assert command.current_records(tmp_path)[0] == RECORD
    assert command.current_records(tmp_path, prove=True)[0] == RECORD
    assert calls == [False, True]


def test_check_and_prove_together_are_refused() -> None:
    with pytest.raises(SystemExit) as exit_:
        command.main(["--check", "--prove"])
    assert exit_.value.code == 2


# -- a model value edited in its source: which rows it makes stale ----------------------

EDITS_FIRST = """
import hashlib, importlib.util, json, linecache, sys
from pathlib import Path

for name, old, new in json.loads(sys.argv[1]):
    spec = importlib.util.find_spec(name)
    source = open(spec.origin, encoding="utf-8").read()
    assert source.count(old) == 1, (name, old)
    source = source.replace(old, new)
    linecache.cache[spec.origin] = (len(source), None, source.splitlines(True), spec.origin)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(compile(source, spec.origin, "exec"), module.__dict__)
"""
"""The start of a fresh interpreter whose modules are edited as ``argv[1]`` says (a JSON
list of ``[module, old text, new text]``): each module runs from its edited source, and
``inspect`` reads that source too, as if the file said it."""

EDITED_MODEL = '''
"""A fresh interpreter whose model modules are edited as ``argv[1]`` says
(``EDITS_FIRST``).  Prints, as JSON, the fingerprint of each row of the record at
``argv[3]`` (``fingerprints``; ``blind``: the same left blind to what each row read;
``tables_only``: blind to the model values it read, not to its tables; ``no_entries``:
blind to the entries it looked up), a digest of each table of each scope (``tables``)
and of each imported model value (``values``), the values every row counts
(``every_row``), and the verdict of each reference row named in ``argv[2]`` proved
again (``verdicts``)."""
''' + EDITS_FIRST + '''
from responses_oracle.docsite import fingerprint as prints, proofs
from responses_oracle.proofs import inventory, policies

record = proofs.load_record(Path(sys.argv[3]))
tables = {proofs.REFERENCE_SCOPE: proofs._reference()}
tables.update((policy.name, policy.tables) for policy in policies.PEER_POLICIES)
sources = {False: prints.sources(), True: prints.sources(policy=True)}
rows = [(proofs.REFERENCE_SCOPE, row) for row in record.rows]
rows += [(policy.name, row) for policy in record.policies for row in policy.rows]
vacuity = record.matching_vacuity or {}
keyed = [(proofs.row_key(scope, row.invariant, row.part), scope, row.reads) for scope, row in rows]
keyed.append((proofs.VACUITY_KEY, proofs.REFERENCE_SCOPE, vacuity.get("reads", ())))
found, blind, tables_only, no_entries = {}, {}, {}, {}
for key, scope, reads in keyed:
    text = sources[scope != proofs.REFERENCE_SCOPE]
    found[key] = prints.fingerprint(text, key, tables[scope], reads)
    blind[key] = prints.fingerprint(text, key, tables[scope], ())
    fields = [read for read in reads if "." not in read]
    tables_only[key] = prints.fingerprint(text, key, tables[scope], fields)
    without_entries = [read for read in reads if "[" not in read]
    no_entries[key] = prints.fingerprint(text, key, tables[scope], without_entries)
digests = {
    scope: {
        field: hashlib.sha256(prints.canonical(getattr(value, field)).encode()).hexdigest()
        for field in prints.table_fields()
    }
    for scope, value in tables.items()
}
values = {
    key: hashlib.sha256(value.encode()).hexdigest()
    for key, value in sources[False].values.items()
}
every_row = sorted(prints.every_row(prints.proof_sources()))
verdicts = {}
for key in json.loads(sys.argv[2]):
    _, invariant, part = key.split(" ")
    plan = dict(inventory.row_plan(invariant, unbounded=True))[part]
    result = plan(tables[proofs.REFERENCE_SCOPE])
    verdicts[key] = [result.status.value, result.detail, result.counterexample]
print(json.dumps({
    "fingerprints": found, "blind": blind, "tables_only": tables_only,
    "no_entries": no_entries, "tables": digests,
    "values": values, "every_row": every_row, "verdicts": verdicts,
}))
'''

NOTE_CODE_EDITS: dict[str, tuple[str, str, str]] = {
    # One cell of NOTE_CODES: the code of the late effect (LATE_CODES is computed from it).
    "late-note-code": (
        "responses_oracle.model.vocabulary",
        "Effect.NOTE_LATE_EVENT: Code.LATE_EVENT,",
        "Effect.NOTE_LATE_EVENT: Code.ORPHAN_EVENT,",
    ),
    # One cell of NOTE_CODES emptied: an effect that reports nothing (NOTE_EFFECTS moves).
    "orphan-note-dropped": (
        "responses_oracle.model.vocabulary",
        "    Effect.NOTE_ORPHAN: Code.ORPHAN_EVENT,\n",
        "",
    ),
    # A lifecycle note: a snapshot-only item no longer reported.
    "snapshot-only-unnoted": (
        "responses_oracle.model.lifecycle",
        "(E.ADMIT, E.NOTE_SNAPSHOT_ONLY, *_ADMIT_DONE[1:])",
        "(E.ADMIT, *_ADMIT_DONE[1:])",
    ),
    # One cell of RESUME_WAIVED.
    "snapshot-only-not-waived": (
        "responses_oracle.model.vocabulary",
        "{Effect.NOTE_DONE_ONLY, Effect.NOTE_SNAPSHOT_ONLY}",
        "{Effect.NOTE_DONE_ONLY}",
    ),
}
"""Edits of one model table's value each, in its module's source: what a person
changing the model writes."""

VALUE_EDITS: dict[str, tuple[str, str, str, str]] = {
    # A model function the proofs call on Z3 terms: the type fit of the matching table.
    "fit-key-types-swapped": (
        "responses_oracle.model.admission",
        "ops.cond(facts.same_type(entry), _TF.SAME, _TF.DIFFERS)",
        "ops.cond(facts.same_type(entry), _TF.DIFFERS, _TF.SAME)",
        "responses_oracle.model.admission.fit_key",
    ),
    # Another: a shared slot seen as a slot of one entry by the routing table.
    "route-views-shared-swapped": (
        "responses_oracle.model.routing",
        "ops.cond(shared, _SV.SHARED, _SV.ONE)",
        "ops.cond(shared, _SV.ONE, _SV.SHARED)",
        "responses_oracle.model.routing.route_views",
    ),
    # One invariant's entry of the strengthening clauses: complete_once left without.
    "complete-once-clauses-dropped": (
        "responses_oracle.model.invariants",
        '''    "complete_once": (
        "an entry in an open state (or absent, or incomplete) has completed zero times",
        "an entry in a closed state (done, completed) has completed exactly once",
    ),''',
        '    "complete_once": (),',
        "responses_oracle.model.invariants.STRENGTHENING",
    ),
}
"""Edits of one imported model value each (the last item: its key), which the proofs
read while a row runs."""

ENTRY_EDITS: dict[str, tuple[str, str, str, str]] = {
    # One entry of INVARIANTS: complete_once said of the end of a response only.
    "complete-once-scope": (
        "responses_oracle.model.invariants",
        '"every entry emits its completion at most once",\n        Scope.STATE,',
        '"every entry emits its completion at most once",\n        Scope.FINAL,',
        "responses_oracle.model.invariants.INVARIANTS_BY_NAME[complete_once]",
    ),
    # One entry of COMPLETENESS: the same for confirmation_sticks.
    "confirmation-sticks-scope": (
        "responses_oracle.model.completeness",
        'state only if confirmed",\n        Scope.STATE,',
        'state only if confirmed",\n        Scope.FINAL,',
        "responses_oracle.model.completeness.COMPLETENESS_BY_NAME[confirmation_sticks]",
    ),
}
"""Edits of one entry of ``INVARIANTS`` or ``COMPLETENESS`` (the last item: the entry's
key): a row reads the scope of the entry it proves (``properties.stated``), recorded
lookup by lookup; the imports read only the entries' names (``inventory.MODEL_NAMES``)."""


def _edit(edit: str) -> list[tuple[str, str, str]]:
    """The source edits ``edit`` names (``""``: none)."""
    if edit in NOTE_CODE_EDITS:
        return [NOTE_CODE_EDITS[edit]]
    if edit:
        module, old, new, _ = {**VALUE_EDITS, **ENTRY_EDITS}[edit]
        return [(module, old, new)]
    return []


@functools.cache
def _edited(edit: str, verdicts: tuple[str, ...] = ()) -> dict[str, Any]:
    """``EDITED_MODEL``'s answer for the model edited as ``edit`` says (``""``: not)."""
    edits = _edit(edit)
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            EDITED_MODEL,
            json.dumps(edits),
            json.dumps(list(verdicts)),
            str(REPO / "docs" / proofs.RECORD_NAME),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(run.stdout)
    return answer


def _stale_after(edit: str, verdicts: tuple[str, ...] = (), kind: str = "fingerprints") -> set[str]:
    """The rows whose fingerprint (``kind``) the edit changes."""
    before = _edited("", verdicts)[kind]
    after = _edited(edit, verdicts)[kind]
    return {key for key, value in after.items() if before[key] != value}


def _scope_of(key: str) -> str:
    return proofs.REFERENCE_SCOPE if key == proofs.VACUITY_KEY else key.split(" ")[0]


def _reads_of(key: str) -> set[str]:
    assert RECORD is not None
    if key == proofs.VACUITY_KEY:
        return set((RECORD.matching_vacuity or {}).get("reads", ()))
    scope, invariant, part = key.split(" ")
    rows = (
        RECORD.rows
        if scope == proofs.REFERENCE_SCOPE
        else next(policy.rows for policy in RECORD.policies if policy.name == scope)
    )
    return {
        field
        for row in rows
        if (row.invariant, row.part) == (invariant, part)
        for field in row.reads
    }


def _moved(edit: str) -> tuple[dict[str, set[str]], set[str]]:
    """What ``edit`` changes: the tables of each scope, and the imported model values."""
    before, after = _edited(""), _edited(edit)
    tables = {
        scope: {field for field, value in fields.items() if before["tables"][scope][field] != value}
        for scope, fields in after["tables"].items()
    }
    values = {key for key, value in after["values"].items() if before["values"][key] != value}
    return tables, values


def _readers_of_edit(edit: str) -> set[str]:
    """The rows whose reads include a table or a model value ``edit`` changes; every row
    when it changes a value every row counts."""
    tables, values = _moved(edit)
    every = set(_edited("")["fingerprints"])
    if values & set(_edited("")["every_row"]):
        return every
    return {key for key in every if (tables[_scope_of(key)] | values) & _reads_of(key)}


QUICK_EDITS = frozenset(
    {"orphan-note-dropped", "confirmation-sticks-scope", "snapshot-only-unnoted",
     "route-views-shared-swapped"}
)
"""The edits CI's quick slice runs (``helpers.sliced``): each test's quickest to prove
again (tens of seconds each; the others took up to 200 s, measured in
``docs/building.md``); ``RESPONSES_ORACLE_DEEP=1`` runs every edit of every test.  Each
test keeps at least one edit, and so a run of its check and of its mutant."""


def _edits(edits: Iterable[str]) -> list[Any]:
    """``edits`` in order, as a sliced parametrisation: ``QUICK_EDITS`` in CI."""
    names = sorted(edits)
    return sliced([(edit,) for edit in names], [edit in QUICK_EDITS for edit in names])


@pytest.mark.parametrize("edit", _edits(NOTE_CODE_EDITS))
def test_an_edited_model_value_makes_stale_exactly_the_rows_that_read_it(edit: str) -> None:
    tables, _ = _moved(edit)
    # The edit is one table's: the ModelTables field the source's value fills.
    (table,) = tables[proofs.REFERENCE_SCOPE]
    stale = _stale_after(edit)
    assert any(table in _reads_of(key) for key in stale), f"no row reads {table}"
    assert stale == _readers_of_edit(edit)
    assert len(stale) < len(_edited("")["fingerprints"]), "every row re-runs"


@pytest.mark.parametrize("edit", sorted(VALUE_EDITS))
def test_an_edited_imported_value_makes_stale_exactly_the_rows_that_read_it(edit: str) -> None:
    *_, edited = VALUE_EDITS[edit]
    tables, values = _moved(edit)
    assert edited in values and not any(tables.values()), "the edit is not one value's"
    assert not values & set(_edited("")["every_row"]), "read at import: every row counts it"
    stale = _stale_after(edit)
    assert {key for key in stale if edited in _reads_of(key)}, f"no row reads {edited}"
    assert stale == _readers_of_edit(edit)
    assert len(stale) < len(_edited("")["fingerprints"]), "every row re-runs"
    # Not by chance: each stale row's reads name the edited value or another it moved.
    assert all(values & _reads_of(key) for key in stale)


@pytest.mark.parametrize("edit", _edits(ENTRY_EDITS))
def test_an_edited_entry_makes_stale_exactly_the_rows_that_prove_it(edit: str) -> None:
    *_, edited = ENTRY_EDITS[edit]
    _, values = _moved(edit)
    assert edited in values, "the edit is not the entry's"
    invariant = edited.partition("[")[2].rstrip("]")
    stale = _stale_after(edit)
    # Exactly the rows that looked the entry up: the rows that prove it, on the
    # reference and the peers' policies, but not its matcher row (no scope read there).
    assert stale == {key for key in _edited("")["fingerprints"] if edited in _reads_of(key)}
    assert stale and {key.split(" ")[1] for key in stale} == {invariant}
    assert len(stale) < len(_edited("")["fingerprints"]), "every row re-runs"
    # The names every row counts did not move: a scope is no name.
    assert not values & {key for key in _edited("")["every_row"] if _counted_whole(key)}
    # The check can fail: fingerprints blind to the entries looked up miss every row.
    assert not _stale_after(edit, kind="no_entries")


def _counted_whole(key: str) -> bool:
    """Whether every row counts the model value ``key`` whole (not by what the proof
    modules compute from it, as ``INVARIANTS`` by ``inventory.MODEL_NAMES``)."""
    modules = fingerprint.proof_sources()
    return fingerprint.every_row(modules)[key] == fingerprint.model_inputs(modules)[key]


SOUNDNESS_SAMPLE: tuple[str, ...] = (
    (
        "reference late_reported bounded",
        *(
            row_key("reference", row.invariant, row.part)
            for row in RECORD.rows
            if row.part == "contract"
        ),
    )
    if RECORD is not None
    else ()
)
"""Reference rows proved again before and after each edit: every diagnostic contract (one
Z3 query each, seconds), some of which read the edited table and most of which do not,
and a lifecycle row that reads the note codes."""

SOUNDNESS_EDITS = ("late-note-code", "snapshot-only-unnoted", "snapshot-only-not-waived")
"""The edits of ``NOTE_CODE_EDITS`` whose verdicts are checked."""


def _assert_sound(edit: str, sample: tuple[str, ...], mutant: str) -> None:
    """Every row of ``sample`` whose verdict ``edit`` moves is stale after it, some row is
    not, and fingerprints made as ``mutant`` makes them miss a moved row (the check can
    fail)."""
    before, after = _edited("", sample)["verdicts"], _edited(edit, sample)["verdicts"]
    moved = {key for key in sample if before[key] != after[key]}
    stale = _stale_after(edit, sample)
    assert moved, "the edit changes no verdict of the sample: it shows nothing"
    assert set(sample) - stale, "every row of the sample is stale: it shows nothing"
    assert moved <= stale
    assert not moved <= _stale_after(edit, sample, mutant)


@pytest.mark.parametrize("edit", _edits(SOUNDNESS_EDITS))
def test_every_row_whose_verdict_an_edit_changes_is_stale(edit: str) -> None:
    # The mutant: fingerprints blind to what each row read.
    _assert_sound(edit, SOUNDNESS_SAMPLE, "blind")


IMPORT_RUNS = """
import sys
ran = set()
def profile(frame, event, arg):
    if event == "call":
        ran.add(frame.f_code)
sys.setprofile(profile)
""" + EDITS_FIRST + """
from responses_oracle.proofs import inventory, matching, policies
for name in inventory.PROVED_NAMES:  # what the docs command runs outside any row
    inventory.row_plan(name, unbounded=True)
sys.setprofile(None)
from responses_oracle.docsite import fingerprint as prints
from responses_oracle.proofs import reads
modules = prints.proof_sources()
named = prints.model_names(modules)
files = {str(path) for name, path in modules.items() if not name.startswith(prints.MODEL)}
read = {
    key
    for code in ran
    if code.co_filename in files and reads._is_function(code)
    for name in reads._own_names(code)
    for key in named.get(name, ())
}
print(json.dumps(sorted(read)))
"""
"""A fresh interpreter that imports the proofs (edited as ``argv[1]`` says) under a
profiler and prints the imported model values named by the proof functions that ran:
code no row's marks can see."""

CHECK_AT_IMPORT = (
    "responses_oracle.proofs.properties",
    "    execution: bool = False\n",
    "    execution: bool = False\n\n"
    "    def __post_init__(self) -> None:\n"
    "        INVARIANTS_BY_NAME.get(self.name) or COMPLETENESS_BY_NAME[self.name]\n",
)
"""The scope check back where it was, in ``Property``'s making (at import): what the
profiled import must see."""


def _run_at_import(*edits: tuple[str, str, str]) -> set[str]:
    """``IMPORT_RUNS``'s answer, for the proofs edited as ``edits`` say."""
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_RUNS, json.dumps(edits)],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(run.stdout))


def test_what_runs_when_the_proofs_are_imported_counts_for_every_row() -> None:
    read = _run_at_import()
    modules = fingerprint.proof_sources()
    assert read <= set(fingerprint.every_row(modules))
    # No entry list is read at import: a row reads its own entry (``properties.stated``).
    assert not read & set(fingerprint.ENTRY_TABLES)
    # It can fail: with the scope check made at import again, the import reads the
    # entry lists, which the sources as they are count for no row.
    read = _run_at_import(CHECK_AT_IMPORT)
    assert set(fingerprint.ENTRY_TABLES) <= read
    assert not read <= set(fingerprint.every_row(modules))


SCRATCH_PROOF = '''
from responses_oracle.proofs.reads import remembered

CACHE = {}


def lemma(tables):
    return len(FROM_THE_LEMMA)


def proof(tables):
    return remembered(CACHE, "lemma", tables, lambda: lemma(tables)) + len(FROM_THE_PROOF)


def unused(tables):
    return FROM_NOWHERE
'''


def _scratch(tmp_path: Path, name: str) -> Any:
    """``SCRATCH_PROOF`` imported as module ``name`` from ``tmp_path``."""
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(SCRATCH_PROOF, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.FROM_THE_LEMMA = module.FROM_THE_PROOF = ()
    return module


def test_a_row_runs_what_it_calls_and_what_a_cached_value_ran(tmp_path: Path) -> None:
    from responses_oracle.proofs.reads import recording, running

    module = _scratch(tmp_path, "scratch_proof")
    with running([module]) as runs:
        with recording(None) as first:
            module.proof(None)
        with recording(None) as second:  # the lemma comes from the cache
            module.proof(None)
        with recording(None) as nothing:
            pass
        read = [runs.read(record) for record in (first, second, nothing)]
    assert all(names is not None for names in read)
    assert {"FROM_THE_LEMMA", "FROM_THE_PROOF"} <= read[0]  # type: ignore[operator]
    assert {"FROM_THE_LEMMA", "FROM_THE_PROOF"} <= read[1]  # type: ignore[operator]
    assert "FROM_NOWHERE" not in read[0] | read[1]  # type: ignore[operator]
    assert read[2] == frozenset()
    # Given its own code back after the block.
    assert "__proof_ran__" not in module.proof.__code__.co_names


def test_a_function_that_cannot_be_marked_makes_every_name_count(tmp_path: Path) -> None:
    from responses_oracle.proofs.reads import recording, running

    module = _scratch(tmp_path, "scratch_edited")
    path = tmp_path / "scratch_edited.py"
    path.write_text(SCRATCH_PROOF.replace("len(FROM_THE_PROOF)", "len(FROM_THE_PROOF) + 1"))
    with running([module]) as runs:
        with recording(None) as record:
            module.proof(None)
        assert runs.read(record) is None


VALUE_SOUNDNESS: dict[str, tuple[str, ...]] = {
    "fit-key-types-swapped": (
        "reference done_reported contract",
        "reference complete_once matcher",
        "reference first_admission_wins matcher",
        "reference no_cross_talk matcher",
        "reference nothing_lost matcher",
        "reference payload_reported contract",
        "reference identity_reported contract",
    ),
    "route-views-shared-swapped": (
        "reference ambiguity_rejected bounded",
        "reference routed_to_its_entry bounded",
        "reference refusal_reported bounded",
        "reference payload_reported contract",
        "reference slot_fill contract",
    ),
    "complete-once-clauses-dropped": (
        "reference complete_once bounded",
        "reference complete_once unbounded",
        "reference complete_once channels",
        "reference payload_reported contract",
        "reference done_reported contract",
    ),
}
"""Reference rows proved again before and after each edit of ``VALUE_EDITS``: rows that
read the edited value and rows that do not, each seconds to prove."""


@pytest.mark.parametrize("edit", _edits(VALUE_SOUNDNESS))
def test_every_row_whose_verdict_a_value_edit_changes_is_stale(edit: str) -> None:
    # The mutant: fingerprints blind to the model values each row read (its tables
    # still counted).
    _assert_sound(edit, VALUE_SOUNDNESS[edit], "tables_only")


def test_a_cached_value_counts_its_tables_in_every_open_record() -> None:
    from responses_oracle.proofs.reads import Reading, recording, remembered

    reading = Reading(REFERENCE)
    cache: dict[Any, Any] = {}
    remembered(cache, "lifecycle", reading, lambda: reading.lifecycle)
    with recording(reading) as outer, recording(reading) as inner:
        remembered(cache, "lifecycle", reading, _never)  # from the cache
    assert "lifecycle" in outer and "lifecycle" in inner
