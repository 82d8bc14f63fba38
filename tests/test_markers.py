"""Tests are found by kind and by rule: the markers ``tests/conftest.py`` gives each file
(``KINDS``) name files that exist, every rule R1 to R15 has tests carrying its
``rule("RN")`` marker, and the rule pages' lists (``docsite.rule_tests``, read from the
test files' syntax) are what pytest itself collects under those markers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import KINDS, SLOW, kinds
from helpers import REPO
from responses_oracle.docsite.rule_tests import rule_tests
from responses_oracle.docsite.rule_texts import RULES

_DUMP = """
import json, os

def pytest_collection_finish(session):
    found = {}
    for item in session.items:
        for mark in item.iter_markers("rule"):
            for rule in mark.args:
                found.setdefault(rule, set()).add(item.nodeid.split("[")[0])
    with open(os.environ["RULE_DUMP"], "w") as out:
        json.dump({rule: sorted(ids) for rule, ids in found.items()}, out)
"""
"""A pytest plugin writing each rule's collected test ids (parameters dropped)."""


def test_every_kinds_entry_names_a_test_file_folder_or_test() -> None:
    tests = REPO / "tests"
    missing = [where for where in KINDS if not _names_a_test(tests, where)]
    assert missing == [], "KINDS in tests/conftest.py names what is no longer there"


def test_proofs_clients_and_browser_tests_are_slow() -> None:
    tests = REPO / "tests"
    assert kinds(tests / "proofs" / "test_prove.py") == ("proofs", "slow")
    assert kinds(tests / "docs" / "test_browser.py") == ("browser", "slow")
    assert kinds(tests / "core" / "test_rules.py") == ()
    assert {mark for marks in KINDS.values() for mark in marks} >= SLOW


def test_a_test_entry_marks_that_test_only() -> None:
    compliance = REPO / "tests" / "testing" / "test_compliance.py"
    measured = "test_the_recorded_compliance_is_what_the_client_answers_now"
    assert kinds(compliance, measured) == ("clients", "slow")
    assert kinds(compliance, "test_the_summary_opens_the_page_with_every_client_and_rule") == ()


def test_no_test_file_gives_itself_a_kind() -> None:
    # KINDS is the one place a test gets a kind; a mark written in a test file would be
    # a second place, which the quick loop's documentation does not look in.
    tests = REPO / "tests"
    marked = [
        path.relative_to(tests).as_posix()
        for path in sorted(tests.rglob("*.py"))
        if _marks_a_kind(path.read_text(encoding="utf-8"))
    ]
    assert marked == [], "mark these in KINDS (tests/conftest.py) instead"


def test_the_kind_check_rejects_its_mutant() -> None:
    # The mutant: a file marking itself slow, as tests/test_installed.py once did.
    assert _marks_a_kind("import pytest\n\npytestmark = pytest.mark." + "slow\n")
    assert _marks_a_kind("@pytest.mark." + "clients\ndef test_x() -> None: ...\n")
    assert not _marks_a_kind("@pytest.mark.rule('R7')\ndef test_x() -> None: ...\n")


def _names_a_test(tests: Path, where: str) -> bool:
    """Whether the ``KINDS`` key ``where`` names a folder, a file, or a ``file::test``
    whose file defines that test."""
    if where.endswith("/"):
        return (tests / where).is_dir()
    file, _, test = where.partition("::")
    if not (tests / file).is_file():
        return False
    source = (tests / file).read_text(encoding="utf-8")
    return not test or re.search(rf"^def {test}\(", source, re.M) is not None


def _marks_a_kind(source: str) -> bool:
    """Whether ``source`` marks a test with a kind itself (``slow``, ``proofs``, ``clients``,
    ``browser``: a ``pytest.mark`` attribute)."""
    names = "|".join(sorted(SLOW | {"slow"}))
    return re.search(rf"\bmark\.({names})\b", source) is not None


def test_every_rule_has_tests_carrying_its_marker() -> None:
    found = rule_tests(REPO)
    assert [rule.key for rule in RULES if not found.get(rule.key)] == []
    assert set(found) <= {rule.key for rule in RULES}, "a marker names no rule"


def test_the_rule_pages_lists_are_what_pytest_collects(tmp_path: Path) -> None:
    found = rule_tests(REPO)
    files = sorted({test.split("::")[0] for tests in found.values() for test in tests})
    (tmp_path / "rule_dump.py").write_text(textwrap.dedent(_DUMP), encoding="utf-8")
    dump = tmp_path / "rules.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "rule_dump",
            "-p",
            "no:cacheprovider",
            *files,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env={**_environment(), "PYTHONPATH": str(tmp_path), "RULE_DUMP": str(dump)},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    collected = json.loads(dump.read_text(encoding="utf-8"))
    assert {rule: sorted(set(tests)) for rule, tests in found.items()} == collected


def test_rule_selects_only_that_rules_tests() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rule",
            "R11",
            "tests/core/test_rules.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env=_environment(),
    )
    assert done.returncode == 0, done.stdout[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert [re.sub(r"\[.*", "", test) for test in ids] == list(rule_tests(REPO)["R11"])


def _environment() -> dict[str, str]:
    """This process's environment without ``PYTHONPATH`` (pytest sets its own paths)."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
