"""Shared test helpers (import as `from helpers import ...`): where the recorded streams live.

Every recorded stream the tests read is vendored into the repository under
``fixtures/`` (its README gives each folder's source and licence), so a fresh clone runs
every capture test with nothing beside it: no test reads a folder outside the
repository, and none skips for want of one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
"""The repository root."""


def installed_outside_checkout(printed: str) -> bool:
    """Whether the module file a child printed (``print(module.__file__)``) is an
    installed copy under ``site-packages`` and not a file of this checkout (by path,
    not by text: a temp folder named like the checkout is not inside it)."""
    path = Path(printed.strip()).resolve()
    return "site-packages" in path.parts and REPO not in path.parents


DEEP = os.environ.get("RESPONSES_ORACLE_DEEP") == "1"
"""``RESPONSES_ORACLE_DEEP=1``: the widest fences at their full width.  Without it (CI,
the README's commands, the quick loop) each runs a quick slice that still catches what
it fences: every case once, or the quickest cases, and a fixed rotating sample of the
rest (``sliced``).  ``docs/building.md`` gives both times."""

FULL_WIDTH = "outside CI's quick slice: RESPONSES_ORACLE_DEEP=1 runs it (docs/building.md)"
"""Why a case of a sliced fence is skipped, and how to run it."""


def sliced(cases: Iterable[tuple[Any, ...]], quick: Iterable[bool]) -> list[Any]:
    r"""``cases`` as ``pytest.param``\ s, each case whose ``quick`` is false skipped
    (``FULL_WIDTH``) unless ``DEEP``: the parametrisation of a sliced fence."""
    skip = pytest.mark.skipif(not DEEP, reason=FULL_WIDTH)
    return [
        pytest.param(*case, marks=() if keep else skip)
        for case, keep in zip(cases, quick, strict=True)
    ]


FIXTURES = REPO / "fixtures"
"""The vendored recorded streams (``fixtures/README.md``)."""

PEERS = FIXTURES / "peers"
"""Peers' recordings: opencode, AxonHub, vercel/ai (``ai-sdk``), codex (none copied)."""

CAPTURES = FIXTURES / "captures"
"""The 97 streams from vercel/ai and pydantic-ai, listed in ``SOURCES.tsv`` there."""

QUIRKS = FIXTURES / "quirks"
"""Hand-written minimal streams, one provider quirk each (README there)."""


def reduce_with(events: list[dict[str, Any]], tables: Any) -> Any:
    """The one ``Result`` of ``events`` reduced by the kernels generated from ``tables``
    (a ``ModelTables``: the reference or a mutant)."""
    from responses_oracle.model.codegen import load_kernels
    from responses_oracle.reducer import Reducer

    reducer = Reducer(kernels=load_kernels(tables))
    reducer.feed_all(events)
    (result,) = reducer.finish()
    return result


def counterexample_events(mutant: Any) -> list[dict[str, Any]]:
    """The committed counterexample stream of a named mutant (``proofs.mutants``)."""
    import json

    from responses_oracle.proofs.counterexample import fixture_path

    text = fixture_path(mutant).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def same_runner(mutant: Any) -> bool:
    """Whether the one-cell table mutant ``mutant`` (``proofs.mutation.TableMutant``)
    reads a wire environment type as another environment of the same runner (``local``
    as none, one hosted container as another): an equivalent mutant, since who runs a
    shell is all the reducer takes from the environment (R13)."""
    from responses_oracle.model.execution import ENVIRONMENT_TYPES
    from responses_oracle.model.tables import REFERENCE

    if mutant.table != "environment_types":
        return False
    (kind,) = mutant.cell
    runner = REFERENCE.environment_runner
    return runner[mutant.tables.environment_types[kind]] is runner[ENVIRONMENT_TYPES[kind]]


def assert_contract_refutes(mutant: Any) -> None:
    """``prove`` refutes a named one-step-contract mutant (``proofs.mutants``) by the
    contract it ``breaks``, and says which cell is broken."""
    from responses_oracle.proofs.inventory import Status, prove

    (row,) = prove(mutant.breaks, mutant.tables)
    assert (row.status, row.system) == (Status.COUNTEREXAMPLE, "contract")
    assert " broken: " in row.detail


def as_if_not_installed(monkeypatch: Any, missing: str, *dropped: str) -> None:
    """For one test, an install without the extra that brings ``missing``: importing it
    fails, and the modules ``dropped`` (and ``missing``), with their submodules, leave
    ``sys.modules`` so that importing them again meets the failure.  ``monkeypatch``
    (a ``pytest.MonkeyPatch``) puts all back after the test: ``sys.modules``, and the
    attribute of each module's package, which an import binds too (left alone, the
    package would hold the module imported during the test, and later tests reach
    another ``responses_oracle.serve`` through it than through ``sys.modules``)."""
    import sys

    for name in list(sys.modules):
        if any(name == top or name.startswith(top + ".") for top in (missing, *dropped)):
            monkeypatch.delitem(sys.modules, name)
            package, _, attribute = name.rpartition(".")
            if package in sys.modules:
                kept = getattr(sys.modules[package], attribute, None)
                monkeypatch.setattr(sys.modules[package], attribute, kept, raising=False)
    monkeypatch.setitem(sys.modules, missing, None)


_COPIED = ("build", "dist", "site", ".git", ".venv*", "*.egg-info", "__pycache__", ".*cache",
           "node_modules")
"""What the wheel is not built from (build output, environments, caches)."""


def copied_checkout(target: Path) -> Path:
    """A copy of this checkout at ``target``, without its build output, environments
    and caches: what a fresh clone holds, for builds that must not write into this one."""
    shutil.copytree(REPO, target, ignore=shutil.ignore_patterns(*_COPIED))
    return target


def pip(python: str, *args: str) -> None:
    """Run ``python -m pip`` quietly (the pip cache is reused); fail with its output."""
    done = subprocess.run(
        [python, "-m", "pip", "--disable-pip-version-check", "-q", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
