"""The proof record is remade only when what the proofs read changes.

``docs/proofs.json`` holds what ``prove()`` said, with a fingerprint of the code it read
(``docsite.proofs.sources_fingerprint``): the import closure of the proof entry points,
without prose.  The docs generator reuses a current record and runs the proofs (minutes)
only when it is stale or with ``--prove``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from responses_oracle.docsite import __main__ as command
from responses_oracle.docsite import proofs
from responses_oracle.docsite.proofs import ProofRecord, ProofRow, proof_sources

ROW = ProofRow("complete_once", "proved_bounded", "base and induction hold")


def test_the_fingerprint_covers_the_model_the_proofs_and_the_reducer_they_replay() -> None:
    read = set(proof_sources())
    assert {
        "responses_oracle.model.tables",
        "responses_oracle.model.vocabulary",
        "responses_oracle.model.ops",
        "responses_oracle.proofs.encoding",
        "responses_oracle.proofs.policies",
        "responses_oracle.core.kernels",
        "responses_oracle.reducer",
    } <= read


def test_the_fingerprint_leaves_out_what_no_proof_reads() -> None:
    read = set(proof_sources())
    assert "responses_oracle.model.divergence" not in read
    assert "responses_oracle.model.diagrams" not in read
    assert not {name for name in read if name.startswith("responses_oracle.docsite")}
    assert not {name for name in read if name.startswith("responses_oracle.cli")}


def _module(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TABLE = '''"""The table."""
CELLS = {
    "a": 1,  # a comment
    "b": 2,
}
SPEC = CodeSpec(ERROR, "R1", meaning="what it means")
"""What each cell is."""


def cell(key: str) -> int:
    """The cell of ``key``."""
    return CELLS[key]
'''


def test_prose_does_not_count_but_a_cell_does(tmp_path: Path) -> None:
    code = proofs._code(_module(tmp_path, "table.py", TABLE))
    reworded = (
        TABLE.replace("The table.", "The table, reworded.")
        .replace("# a comment", "# another comment")
        .replace('"""The cell of ``key``."""', '"""Which cell ``key`` selects."""')
        .replace("what it means", "what it means, reworded")
    )
    relaid = reworded.replace('    "b": 2,\n}', '    "b": 2}')
    assert proofs._code(_module(tmp_path, "prose.py", relaid)) == code
    changed = TABLE.replace('"b": 2', '"b": 3')
    assert proofs._code(_module(tmp_path, "cell.py", changed)) != code
    graver = TABLE.replace("CodeSpec(ERROR", "CodeSpec(WARNING")
    assert proofs._code(_module(tmp_path, "severity.py", graver)) != code


def test_a_function_of_docstring_only_still_hashes(tmp_path: Path) -> None:
    only = 'def f() -> None:\n    """Nothing."""\n'
    assert proofs._code(_module(tmp_path, "only.py", only)) == "def f() -> None:\n    pass"


def _never(*_: object) -> None:
    raise AssertionError("the proofs ran although the record is current")


def test_a_current_record_is_reused_without_running_the_proofs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    current = ProofRecord(proofs.sources_fingerprint(), (ROW,))
    (tmp_path / proofs.RECORD_NAME).write_text(current.to_text(), encoding="utf-8")
    monkeypatch.setattr(command, "run_proofs", _never)
    monkeypatch.setattr(command, "run_sdk", lambda: None)
    assert command.current_records(tmp_path)[0] == current


def test_a_stale_record_or_prove_runs_the_proofs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = ProofRecord(proofs.sources_fingerprint(), (ROW,))
    monkeypatch.setattr(command, "run_proofs", lambda: fresh)
    monkeypatch.setattr(command, "run_sdk", lambda: None)
    stale = ProofRecord("0" * 64, (ROW,))
    (tmp_path / proofs.RECORD_NAME).write_text(stale.to_text(), encoding="utf-8")
    assert command.current_records(tmp_path)[0] is fresh
    (tmp_path / proofs.RECORD_NAME).write_text(fresh.to_text(), encoding="utf-8")
    ran: list[bool] = []
    monkeypatch.setattr(command, "run_proofs", lambda: ran.append(True) or fresh)
    assert command.current_records(tmp_path, prove=True)[0] is fresh
    assert ran == [True]


def test_check_and_prove_together_are_refused() -> None:
    with pytest.raises(SystemExit) as exit_:
        command.main(["--check", "--prove"])
    assert exit_.value.code == 2
