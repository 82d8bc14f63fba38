"""The isolation guard (``isolation.py``) sees each way a test file can leave shared state
changed, names it, and sees nothing when nothing changed.

Each test here changes shared state on purpose between two snapshots and puts it back
before it ends (so the guard of this very file, ``conftest.py``, finds it as it was).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import REPO
from isolation import Snapshot
from responses_oracle.docsite import peers
from responses_oracle.model.admission import IDENTITY, IdentityDecision
from responses_oracle.model.vocabulary import (
    IdentityField,
    IdentityRelation,
    MergeStage,
    PayloadAction,
)
from responses_oracle.serve.shapes import shapes
from responses_oracle.streamgen import cases


@pytest.fixture
def before() -> Snapshot:
    """The state at the start of the test."""
    return Snapshot.take()


def test_nothing_changed_is_no_change(before: Snapshot) -> None:
    assert before.changes(Snapshot.take()) == []


def test_a_nested_cell_of_a_model_table_edited_in_place_is_named_with_its_path(
    before: Snapshot,
) -> None:
    """CI's case, on a table that can still be edited: a test changed an item nested in
    shared data, and the next file in the worker read the change."""
    row = IDENTITY[IdentityField.CALL_ID][MergeStage.FIXED]
    kept = row[IdentityRelation.EQUAL]
    try:
        row[IdentityRelation.EQUAL] = IdentityDecision(PayloadAction.TAKE, None)
        changes = before.changes(Snapshot.take())
    finally:
        row[IdentityRelation.EQUAL] = kept
    # The table, and each table of tables that holds it (``REFERENCE``), under every
    # name that imports it.
    assert changes and all(": edited in place" in change for change in changes)
    [change] = [c for c in changes if "responses_oracle.model.admission.IDENTITY" in c]
    assert (
        "IDENTITY[<IdentityField.CALL_ID: 'call_id'>][<MergeStage.FIXED: 'fixed'>]"
        "[<IdentityRelation.EQUAL: 'equal'>][0]: "
        "<PayloadAction.KEEP: 'keep'> -> <PayloadAction.TAKE: 'take'>"
    ) in change


def test_an_examples_events_are_a_copy_for_each_reader() -> None:
    """The peers scenario CI's failing test renamed: editing what one reader got leaves
    the example as it was for the next."""
    [scenario] = [s for s in peers.SCENARIOS if s.key == "arguments-only-in-snapshot"]
    scenario.example.events[1]["item"]["name"] = "say`hi`"
    events = scenario.example.events
    assert events[1]["item"]["name"] == "get_weather"
    assert events == scenario.example.events and events is not scenario.example.events


def test_a_cached_loaders_value_edited_in_place_is_named() -> None:
    table = shapes()  # loaded before the snapshot: what every later caller shares
    before = Snapshot.take()
    try:
        table["isolation-test"] = {}
        changes = before.changes(Snapshot.take())
    finally:
        del table["isolation-test"]
    assert [c.split(" (also")[0] for c in changes] == [
        "responses_oracle.serve.shapes.shapes(): edited in place"
    ]
    assert "shapes['isolation-test']: '(absent)' -> {}" in changes[0]


def test_an_entry_of_a_table_pickle_refuses_replaced_is_seen(before: Snapshot) -> None:
    """``GENERATORS`` holds lambdas: held by what its top level holds."""
    generator = cases.GENERATORS["openai"]
    try:
        cases.GENERATORS["openai"] = cases.GENERATORS["profile"]
        changes = before.changes(Snapshot.take())
    finally:
        cases.GENERATORS["openai"] = generator
    assert [c.split(" (also")[0] for c in changes] == [
        "responses_oracle.streamgen.cases.GENERATORS: edited in place"
    ]


def test_a_module_name_given_another_value_is_named(before: Snapshot) -> None:
    peers_before = peers.PEERS
    try:
        peers.PEERS = ("opencode",)
        changes = before.changes(Snapshot.take())
    finally:
        peers.PEERS = peers_before
    assert changes == ["responses_oracle.docsite.peers.PEERS: now holds another object"]


@pytest.mark.parametrize(
    ("what", "change", "undo"),
    [
        ("os.environ", lambda: os.environ.__setitem__("ISOLATION_TEST", "1"),
         lambda: os.environ.pop("ISOLATION_TEST")),
        ("os.getcwd()", lambda: os.chdir("/"), lambda: None),
        ("sys.path", lambda: sys.path.append("/nowhere"), lambda: sys.path.remove("/nowhere")),
    ],
)
def test_process_settings_changed_without_monkeypatch_are_named(
    what: str, change: Callable[[], object], undo: Callable[[], object], before: Snapshot
) -> None:
    here = os.getcwd()
    try:
        change()
        changes = before.changes(Snapshot.take())
    finally:
        undo()
        os.chdir(here)
    assert [c.split(":")[0] for c in changes] == [what]


_EDITS = '''
from responses_oracle.model.admission import IDENTITY
from responses_oracle.model.vocabulary import IdentityField, IdentityRelation, MergeStage


def test_edits_a_cell_in_place():
    del IDENTITY[IdentityField.CALL_ID][MergeStage.FIXED][IdentityRelation.EQUAL]
'''

_READS = '''
from responses_oracle.model.admission import IDENTITY
from responses_oracle.model.vocabulary import IdentityField, IdentityRelation, MergeStage


def test_reads_the_cell():
    assert IdentityRelation.EQUAL in IDENTITY[IdentityField.CALL_ID][MergeStage.FIXED]
'''


def test_the_guard_fails_the_file_that_edited_a_shared_table_in_place(
    tmp_path: Path,
) -> None:
    """The conftest's fixture, run by pytest on two files (this suite's conftest loaded
    as a plugin): the file that edits a shared table in place errs, its name and the
    path edited in the report, and the file that reads the table after it fails."""
    (tmp_path / "test_a_edits.py").write_text(_EDITS, encoding="utf-8")
    (tmp_path / "test_b_reads.py").write_text(_READS, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO / "tests"), str(REPO / "tools")])}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:xdist",
         "-p", "no:cacheprovider", "-q", "test_a_edits.py", "test_b_reads.py"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600,
    )
    assert "ERROR test_a_edits.py::test_edits_a_cell_in_place" in done.stdout, done.stdout
    assert "test_a_edits.py changed state other test files share" in done.stdout
    assert (
        "IDENTITY[<IdentityField.CALL_ID: 'call_id'>][<MergeStage.FIXED: 'fixed'>]"
        "[<IdentityRelation.EQUAL: 'equal'>]: "
        "IdentityDecision(action=<PayloadAction.KEEP: 'keep'>, code=None) -> '(absent)'"
    ) in done.stdout
    assert "1 failed, 1 passed, 1 error" in done.stdout
