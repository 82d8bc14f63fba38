"""Harvest the streams the rule tests reduce, so that they become conformance vectors.

Checkout tooling, not part of the package: ``tools/vector_corpus.py`` runs it to write
the corpus the package ships (``responses_oracle/differential/corpus.json``), which
``responses-oracle vectors export`` reads wherever it runs.

Theory of operation
-------------------
The rule tests (``tests/core/test_rules.py``) are the project's statement of each
rule (docs/rules/) on the smallest streams that exercise it, every outcome asserted.  Rather
than copying their streams into a second table that would drift, ``harvest`` runs
those tests under pytest with a small plugin that watches ``Reducer``: while a test
runs, every reducer it creates records the events fed to it.  When the test *passes*
(its assertions held, so the oracle's answer on those streams is the one the test
states), each recorded stream is kept, named after the test, with the rule taken from
the test's name (``test_r6_…`` → R6).

Streams are kept only from reducers with the reference kernels and default limits (a
test of a mutant or a limit is not a statement about the reference answer) and only
when every event fed was a decoded JSON object.  xfail tests are skipped: they pin
answers the reducer does not give yet.  Needs pytest (the test extra).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from responses_oracle.core.generated_kernels import KERNELS
from responses_oracle.core.step import DEFAULT_LIMITS
from responses_oracle.reducer import Reducer

_RULE = re.compile(r"^test_(r\d+)_", re.IGNORECASE)


@dataclass(frozen=True)
class Harvested:
    """One stream a passing rule test reduced."""

    test: str
    name: str
    rules: tuple[str, ...]
    events: tuple[dict[str, Any], ...]


@dataclass
class _Run:
    reducer: Reducer
    events: list[Any] = field(default_factory=list)

    def usable(self) -> bool:
        return (
            self.reducer.kernels is KERNELS
            and self.reducer.limits == DEFAULT_LIMITS
            and bool(self.events)
            and all(isinstance(event, Mapping) for event in self.events)
        )


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_.-]+", "-", text.lower()).strip("-")


class _Recorder:
    """The pytest plugin: record reducers' input during each test call."""

    def __init__(self) -> None:
        self.harvested: list[Harvested] = []
        self._seen: set[str] = set()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Generator[None, Any, None]:
        runs: list[_Run] = []
        init, feed = Reducer.__init__, Reducer.feed

        def recording_init(reducer: Reducer, *args: Any, **kwargs: Any) -> None:
            init(reducer, *args, **kwargs)
            run = _Run(reducer)
            runs.append(run)
            reducer.__dict__["_harvest"] = run

        def recording_feed(reducer: Reducer, event: Any) -> None:
            run = reducer.__dict__.get("_harvest")
            if run is not None:
                run.events.append(event)
            feed(reducer, event)

        setattr(Reducer, "__init__", recording_init)  # noqa: B010 - patched for one test
        setattr(Reducer, "feed", recording_feed)  # noqa: B010
        try:
            outcome = yield
        finally:
            setattr(Reducer, "__init__", init)  # noqa: B010
            setattr(Reducer, "feed", feed)  # noqa: B010
        if outcome.excinfo is not None:
            return
        self._keep(item, [run for run in runs if run.usable()])

    def _keep(self, item: Any, runs: list[_Run]) -> None:
        function = getattr(item, "originalname", None) or item.name
        match = _RULE.match(function)
        rules = (match.group(1).upper(),) if match else ()
        base = _slug(item.name.replace("[", "-").replace("]", ""))
        for number, run in enumerate(runs):
            events = tuple(dict(event) for event in run.events)
            try:
                key = json.dumps(events, sort_keys=True)
            except (TypeError, ValueError):
                continue
            if key in self._seen:
                continue
            self._seen.add(key)
            name = base if len(runs) == 1 else f"{base}-{number + 1}"
            self.harvested.append(Harvested(item.nodeid, name, rules, events))


def harvest(path: str | os.PathLike[str]) -> list[Harvested]:
    """Run the rule tests at ``path`` and return the streams of the passing ones.

    pytest's own output is swallowed; a failing rule test simply contributes nothing
    (its answer is in doubt).  Raises ``RuntimeError`` when pytest could not run.
    """
    recorder = _Recorder()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        # importlib: the rule tests' folder is not put on sys.path (this may run inside
        # another pytest session, whose later tests would import from it).
        status = pytest.main(
            [str(path), "-q", "-p", "no:cacheprovider", "--import-mode=importlib"],
            plugins=[recorder],
        )
    if status not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"pytest could not run the rule tests at {path} (exit {status})")
    return recorder.harvested
