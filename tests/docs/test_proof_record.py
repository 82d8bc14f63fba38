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
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import REPO
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
    assert part == "contract" and reads == ("payload",)
    assert result.status is prove.Status.PROVED_UNBOUNDED
    sources = fingerprint.sources_text()
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
from responses_oracle.docsite.fingerprint import sources_text
print(hashlib.sha256(sources_text(policy=True).encode()).hexdigest())
"""


def test_a_new_item_type_and_its_events_change_no_row() -> None:
    def digest(which: str) -> str:
        run = subprocess.run(
            [sys.executable, "-c", NEW_ITEM_TYPE, which],
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.strip()

    assert digest("new") == digest("as-is")


def test_the_kinds_the_matcher_reads_of_the_catalogue_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = fingerprint.sources_text()
    spec = catalogue.ITEM_TYPES["function_call"]
    kind = next(k for k in ItemKind if k is not spec.kind)
    other = {**catalogue.ITEM_TYPES, "function_call": replace(spec, kind=kind)}
    monkeypatch.setattr(catalogue, "ITEM_TYPES", other)
    assert fingerprint.sources_text() != before


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
    before = fingerprint.sources_text()
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
    assert fingerprint.sources_text() == before
    copy.write_text(deeper)
    assert fingerprint.sources_text() != before


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

    def run(plan: object, tables: object) -> tuple[Any, tuple[str, ...]]:
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

EDITED_MODEL = '''
"""A fresh interpreter whose model modules are edited as ``argv[1]`` says (a JSON list
of ``[module, old text, new text]``): each module runs from its edited source, and
``inspect`` reads that source too, as if the file said it.  Prints, as JSON, the
fingerprint of each row of the record at ``argv[3]`` (``fingerprints``; ``blind``: the
same left blind to what each row read), a digest of each table of each scope
(``tables``) and the verdict of each reference row named in ``argv[2]`` proved again
(``verdicts``)."""
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

from responses_oracle.docsite import fingerprint as prints, proofs
from responses_oracle.proofs import inventory, policies

record = proofs.load_record(Path(sys.argv[3]))
tables = {proofs.REFERENCE_SCOPE: proofs._reference()}
tables.update((policy.name, policy.tables) for policy in policies.PEER_POLICIES)
sources = {False: prints.sources_text(), True: prints.sources_text(policy=True)}
rows = [(proofs.REFERENCE_SCOPE, row) for row in record.rows]
rows += [(policy.name, row) for policy in record.policies for row in policy.rows]
vacuity = record.matching_vacuity or {}
keyed = [(proofs.row_key(scope, row.invariant, row.part), scope, row.reads) for scope, row in rows]
keyed.append((proofs.VACUITY_KEY, proofs.REFERENCE_SCOPE, vacuity.get("reads", ())))
found, blind = {}, {}
for key, scope, reads in keyed:
    text = sources[scope != proofs.REFERENCE_SCOPE]
    found[key] = prints.fingerprint(text, key, tables[scope], reads)
    blind[key] = prints.fingerprint(text, key, tables[scope], ())
digests = {
    scope: {
        field: hashlib.sha256(prints.canonical(getattr(value, field)).encode()).hexdigest()
        for field in prints.table_fields()
    }
    for scope, value in tables.items()
}
verdicts = {}
for key in json.loads(sys.argv[2]):
    _, invariant, part = key.split(" ")
    plan = dict(inventory.row_plan(invariant, unbounded=True))[part]
    result, _ = proofs._run(plan, tables[proofs.REFERENCE_SCOPE])
    verdicts[key] = [result.status.value, result.detail, result.counterexample]
print(json.dumps({"fingerprints": found, "blind": blind, "tables": digests, "verdicts": verdicts}))
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
"""Edits of one imported model value each, in its module's source: what a person
changing the model writes."""


@functools.cache
def _edited(edit: str, verdicts: tuple[str, ...] = ()) -> dict[str, Any]:
    """``EDITED_MODEL``'s answer for ``NOTE_CODE_EDITS[edit]`` (``""``: no edit)."""
    edits = [NOTE_CODE_EDITS[edit]] if edit else []
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


@pytest.mark.parametrize("edit", sorted(NOTE_CODE_EDITS))
def test_an_edited_model_value_makes_stale_exactly_the_rows_that_read_it(edit: str) -> None:
    before, after = _edited("")["tables"], _edited(edit)["tables"]
    changed = {
        scope: {field for field, value in fields.items() if before[scope][field] != value}
        for scope, fields in after.items()
    }
    # The edit is one table's: the ModelTables field the source's value fills.
    (table,) = changed[proofs.REFERENCE_SCOPE]
    readers = {
        key for key in _edited("")["fingerprints"] if changed[_scope_of(key)] & _reads_of(key)
    }
    stale = _stale_after(edit)
    assert any(table in _reads_of(key) for key in stale), f"no row reads {table}"
    assert stale == readers
    assert len(stale) < len(_edited("")["fingerprints"]), "every row re-runs"


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


@pytest.mark.parametrize("edit", SOUNDNESS_EDITS)
def test_every_row_whose_verdict_an_edit_changes_is_stale(edit: str) -> None:
    sample = SOUNDNESS_SAMPLE
    before, after = _edited("", sample)["verdicts"], _edited(edit, sample)["verdicts"]
    moved = {key for key in sample if before[key] != after[key]}
    stale = _stale_after(edit, sample)
    assert moved, "the edit changes no verdict of the sample: it shows nothing"
    assert set(sample) - stale, "every row of the sample is stale: it shows nothing"
    assert moved <= stale
    # The check can fail: fingerprints blind to what each row read keep the moved rows
    # current.
    assert not moved <= _stale_after(edit, sample, "blind")
