"""pytest configuration; the shared helpers live in ``helpers.py`` (on the test path)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FIXTURES, REPO, copied_checkout, pip
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase
from isolation import Snapshot

__all__ = ["FIXTURES", "REPO", "wheel"]

# -- Hypothesis: the same examples on every run, unless a search is asked for ------------

FIXED = "fixed"
"""The Hypothesis profile every run uses unless told otherwise (the README's commands,
CI, the quick loop): derandomized -- each test draws the same examples every time, in
every process, whatever ran before it -- and no example database, so nothing one run
found changes what the next one draws.  A failure is a failure of the code, every time."""

SEARCH = "search"
"""The wider random search, asked for with ``--hypothesis-profile search``: new random
examples every run (as many as each test asks for), and the examples that failed kept in
``.hypothesis/examples`` so a second run replays them first.  What it finds is made an
explicit ``@example(...)`` on the test (the failure prints the falsifying example), so
the fixed profile runs it from then on (``docs/building.md``)."""

settings.register_profile(FIXED, derandomize=True, database=None, print_blob=True)
settings.register_profile(
    SEARCH,
    derandomize=False,
    database=DirectoryBasedExampleDatabase(REPO / ".hypothesis" / "examples"),
    print_blob=True,
)
settings.load_profile(FIXED)


# -- isolation: no test file leaves shared state changed for the next one -----------------


_STATE_AFTER_LAST_FILE = pytest.StashKey[Snapshot]()


@pytest.fixture(scope="module", autouse=True)
def _leaves_shared_state_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test file that changed shared state -- a module-level table of the
    package, a cached loader's value, the environment, the working folder... (the list:
    ``isolation.py``) -- whatever file runs before or after it: an error at the
    teardown of its last test, naming each change.  Set up before the file's own
    fixtures and torn down after them, so what they restore counts as restored.  The
    state after one file is the state before the next (one snapshot per file): a
    session fixture a file is the first to ask for counts as that file's."""
    stash = request.config.stash
    before = stash.get(_STATE_AFTER_LAST_FILE, None) or Snapshot.take()
    yield
    after = stash[_STATE_AFTER_LAST_FILE] = Snapshot.take()
    changes = before.changes(after)
    if changes:
        pytest.fail(
            f"{request.node.nodeid} changed state other test files share (copy what you "
            "edit; monkeypatch what you set):\n  " + "\n  ".join(changes),
            pytrace=False,
        )


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built once per session from a copy of it (``pip
    wheel``: the isolated build a user's ``pip install .`` makes)."""
    root = tmp_path_factory.mktemp("wheel")
    source = copied_checkout(root / "source")
    pip(sys.executable, "wheel", "--no-deps", "-w", str(root / "dist"), str(source))
    [built] = (root / "dist").glob("*.whl")
    return built


# -- markers: what kind of test each file is ----------------------------------------------

KINDS: dict[str, tuple[str, ...]] = {
    # The Z3 proofs, their mutants and the CrossHair checks (minutes).
    "proofs/": ("proofs",),
    "cli/test_cli_prove.py": ("proofs",),
    # Real clients and agents (Python, Node, Go, Java), driven as their users drive them.
    "agents/": ("clients",),
    "proxy/test_agents.py": ("clients",),
    "serve/test_clients.py": ("clients",),
    "serve/test_docs.py": ("clients",),
    "testing/test_compliance.py::test_the_recorded_compliance_is_what_the_client_answers_now": (
        "clients",
    ),
    "testing/test_clients.py": ("clients",),
    "testing/test_upstream.py": ("clients",),
    "testing/test_go_candidates.py": ("clients",),
    # Headless Chromium.
    "docs/test_browser.py": ("browser",),
    "timeline/test_timeline_browser.py": ("browser",),
    # Slow for another reason: a wheel built and installed, the site built, a Dask
    # cluster or an S3 server started, long Hypothesis runs.
    "test_installed.py": ("slow",),
    "test_isolation.py::test_the_guard_fails_the_file_that_edited_a_shared_table_in_place": (
        "slow",
    ),
    "test_install_modes.py": ("slow",),
    # The whole quick loop again, in shuffled orders.
    "test_order.py": ("slow",),
    "test_readme.py": ("slow",),
    "docs/test_site.py": ("slow",),
    "audit/": ("slow",),
    # Every generated page rendered again (minutes on a loaded machine: measured).
    "docs/test_generated.py": ("slow",),
    "docs/test_proof_record.py": ("slow",),
    # Hypothesis at hundreds of examples, or every recorded stream through the suite.
    "differential/": ("slow",),
    "fuzz/test_fuzz_pipeline.py": ("slow",),
    "test_canonical.py": ("slow",),
    "testing/test_stateful.py": ("slow",),
    "wire/test_wire_hostile.py": ("slow",),
    "wire/test_wire_rechunk.py": ("slow",),
    "wire/test_wire_sse.py": ("slow",),
}
"""A folder (ending ``/``) or file under ``tests/`` → the markers of every test in it;
``file::test`` → the markers of that one test (all its parameters), for the one slow
test of a file that is otherwise quick. This is the one place a test is given a kind:
no test file marks itself ``slow`` or another kind (``test_markers.py`` checks).
``proofs``, ``clients`` and ``browser`` tests are ``slow`` too (``SLOW``), so
``pytest -m 'not slow'`` is the quick loop; the README's ``pytest`` runs everything."""

SLOW = frozenset({"proofs", "clients", "browser"})
"""The kinds that are slow by nature: each adds the ``slow`` marker."""

_TESTS = Path(__file__).resolve().parent


def kinds(path: Path, test: str = "") -> tuple[str, ...]:
    """The markers ``KINDS`` gives the test named ``test`` (no parameters) of the file at
    ``path`` (its file's, its folder's and its own), ``slow`` added for ``SLOW``."""
    if not path.is_relative_to(_TESTS):
        return ()
    relative = path.relative_to(_TESTS).as_posix()
    marks = [
        mark
        for where, marks in KINDS.items()
        if where in (relative, f"{relative}::{test}")
        or (where.endswith("/") and relative.startswith(where))
        for mark in marks
    ]
    if SLOW.intersection(marks):
        marks.append("slow")
    return tuple(dict.fromkeys(marks))


# -- xdist: the longest files start first -------------------------------------------------

LONGEST: tuple[str, ...] = (
    "proofs/test_branch_cover.py",
    "test_install_modes.py",
    "docs/test_proof_record.py",
    "test_order.py",
    "proofs/test_crosshair.py",
    "proofs/test_line_edits.py",
    "testing/test_clients.py",
    "proofs/test_mutation.py",
    "proofs/test_completeness.py",
    "proofs/test_execution_proofs.py",
    "docs/test_generated.py",
    "proofs/test_contracts.py",
    "testing/test_compliance.py",
    "cli/test_cli_prove.py",
    "test_installed.py",
)
"""The files under ``tests/`` that take the longest (minutes each; the times measured are
in ``docs/building.md``), longest first.  Under ``--dist loadfile`` a file is one unit of
work, and pytest-xdist by default hands out the files with the most tests first: a file
of one test that runs for minutes (``test_order.py``) went last, on one worker, while
the other had nothing left to do.  These go first, in this order, and the rest after
them in collection order, to fill the gaps.  A file missing here costs time, never a
result."""


def _longest_first(item: pytest.Item) -> int:
    """Where ``item``'s file is in ``LONGEST`` (after all of it when it is not there)."""
    path = item.path
    relative = path.relative_to(_TESTS).as_posix() if path.is_relative_to(_TESTS) else ""
    return LONGEST.index(relative) if relative in LONGEST else len(LONGEST)


def pytest_configure(config: pytest.Config) -> None:
    """Under ``--dist loadfile``, hand the files out in collection order, which
    ``pytest_collection_modifyitems`` makes ``LONGEST`` first (not by their number of
    tests)."""
    if getattr(config.option, "dist", "no") == "loadfile":
        config.option.loadscopereorder = False


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--rule R7``: only the tests carrying that rule's marker."""
    parser.addoption(
        "--rule",
        action="append",
        default=[],
        metavar="RN",
        help="run only the tests marked rule(RN); repeatable (the rule pages list them)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by its file (``KINDS``) and each ``test_rN_`` test of the rules
    file by its rule (``rule_tests.NAMED``); in a pytest-xdist worker, put the
    ``LONGEST`` files first (the order the controller hands them out in); with
    ``--rule``, keep only those rules' tests."""
    from responses_oracle.docsite.rule_tests import MARKER, NAMED, NAMED_FILE

    named = REPO / NAMED_FILE
    for item in items:
        name = getattr(item, "originalname", item.name)
        for mark in kinds(item.path, name):
            item.add_marker(mark)
        if item.path == named and (match := NAMED.match(name)):
            item.add_marker(pytest.mark.rule(f"R{match[1]}"))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the order handed out
        items.sort(key=_longest_first)  # stable: each file's tests stay in their order
    wanted = set(config.getoption("rule"))
    if wanted:
        keep = [
            item
            for item in items
            if wanted.intersection(arg for mark in item.iter_markers(MARKER) for arg in mark.args)
        ]
        kept = set(map(id, keep))
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept])
        items[:] = keep
