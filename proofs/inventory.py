"""``prove``: every invariant of a model, proved or refuted, with the evidence.

Theory of operation
-------------------
For one model (the reference, or a mutant) and each invariant:

1. The base case and the induction step are checked for every bound
   ``2 <= N <= bound[0]``, ``2 <= M <= bound[1]``.  All unsatisfiable:
   ``PROVED_BOUNDED`` (for all depths, at those numbers of entries and slots).  An
   invariant that holds by construction of the driver (``properties.STRUCTURAL``) says
   so in its detail.
2. If a bound fails, bounded model checking searches a shortest renderable trace at
   that bound, up to ``depth`` steps.  Found: ``COUNTEREXAMPLE``, with the trace
   rendered as a wire event stream and, after each of its frames, the state the
   encoding predicts (``expected``): replaying the stream through the reducer generated
   from the same model is a separate step (``conformance.follow``), so a change to the
   reducer needs no proof re-run.  Not found, the search is repeated without the
   ``RENDERABLE`` restriction (entries with several channels, as a message's parts):
   found, ``COUNTEREXAMPLE`` with the abstract steps and no stream.  Still not found:
   ``UNKNOWN``, with the conjuncts the induction step broke (the command line exits
   non-zero on it).
3. With ``unbounded=True`` a second row per invariant reports the proof for any number
   of entries and slots (``unbounded.py``): ``PROVED_UNBOUNDED`` or ``UNKNOWN``; and a
   third, for the invariants of ``any_channels.ANY_CHANNELS`` (about each channel on its
   own, or the entry alone), the proof for any number of channels per entry too
   (system ``channels``).
4. A diagnostic contract (``contracts.CONTRACTS``: what the payload, identity and
   admission cells must report) is one Z3 query over one decision step:
   ``PROVED_UNBOUNDED`` when it reads no entries, ``PROVED_BOUNDED`` for 2 to 4 entries
   when it does, or ``COUNTEREXAMPLE`` with the inputs that break it (no stream: the
   step is not a trace).
5. The invariants that also range over the matcher (``matching.MATCHER_PROPERTIES``:
   R6's choice of which entry an item belongs to) get a row for it: base and induction
   over the matching system at every bound of ``MATCHER_BOUNDS`` (``PROVED_BOUNDED``),
   or the shortest violating run, rendered as a stream (``COUNTEREXAMPLE``), or
   ``UNKNOWN`` with the clauses the induction broke.
6. Who runs a call (``execution_z3``): the same proofs over the lifecycle encoding with
   each entry's ``call_id`` and execution evidence; a counterexample is reported by its
   abstract run (its tools and outputs have no ``function_call`` rendering).

The command line (``responses-oracle prove``) is a thin layer over ``prove``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import Any

from responses_oracle.model.completeness import COMPLETENESS
from responses_oracle.model.invariants import INVARIANTS
from responses_oracle.model.tables import REFERENCE, ModelTables

from .any_channels import ANY_CHANNELS, prove_any_channels
from .contracts import CONTRACTS, check_contract
from .counterexample import Expectations, expectations
from .encoding import Bounds
from .execution_z3 import describe
from .induction import InductionResult, bmc, check_induction, close_snapshot
from .matching import (
    MATCHER_DEPTH,
    MATCHER_PROPERTIES,
    check_matcher,
    induct_matcher,
    render_run,
)
from .properties import PROPERTIES, STRUCTURAL
from .unbounded import UNBOUNDED, prove_unbounded

DEFAULT_BOUND: tuple[int, int] = (4, 4)
"""Entries and slots of the default run: every ``N, M`` in ``{2, 3, 4}``."""

DEFAULT_DEPTH = 8
"""How deep bounded model checking looks for a counterexample."""

MODEL_NAMES: tuple[str, ...] = (
    *(inv.name for inv in INVARIANTS),
    *(ob.name for ob in COMPLETENESS),
)
"""The invariants of DESIGN section 4, then the completeness obligations of
``model.completeness``, by name: all this module reads of the two lists, so what every
row counts of them (``docsite.fingerprint.every_row``) is their names, not their
entries (a row reads its own entry: ``properties.stated``)."""

PROVED_NAMES: list[str] = [*MODEL_NAMES, *CONTRACTS]
"""What ``prove`` proves by default: ``MODEL_NAMES``, then the diagnostic contracts."""
MATCHER_BOUNDS: tuple[Bounds, ...] = (Bounds(2, 2), Bounds(3, 3))
"""Entries and slots of the matcher's proofs in ``prove``."""


class Status(Enum):
    """The verdict on one invariant of one model."""

    PROVED_BOUNDED = "proved_bounded"
    PROVED_UNBOUNDED = "proved_unbounded"
    COUNTEREXAMPLE = "counterexample"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class ProofResult:
    """One row of the proof report.

    ``counterexample`` is the wire event stream that breaks the invariant (with
    ``COUNTEREXAMPLE``); ``detail`` says what was checked, or why nothing could be.
    """

    invariant: str
    model: str
    status: Status
    seconds: float
    counterexample: list[dict[str, Any]] | None
    detail: str
    system: str = "lifecycle"
    """The transition system of the row: ``lifecycle`` (or routing), ``matcher``,
    ``contract`` (one decision step), or ``channels`` (any number of channels)."""
    expected: Expectations | None = None
    """With a rendered lifecycle or routing trace: what the encoding predicts after each
    frame of ``counterexample``, for the replay through the reducer."""


def _bounds(bound: tuple[int, int]) -> list[Bounds]:
    entries, slots = bound
    return [
        Bounds(n, m)
        for n in range(min(2, entries), entries + 1)
        for m in range(min(2, slots), slots + 1)
    ]


def _bounded(
    invariant: str, tables: ModelTables, bound: tuple[int, int], depth: int
) -> ProofResult:
    started = time.perf_counter()
    failed: InductionResult | None = None
    checked = _bounds(bound)
    for bounds in checked:
        result = check_induction(tables, invariant, bounds)
        if not result.proved:
            failed = result
            break
    if failed is None:
        detail = f"base and induction hold for N x M in {checked[0]}..{checked[-1]}"
        if invariant in STRUCTURAL:
            detail += f" (structural: {STRUCTURAL[invariant]})"
        seconds = time.perf_counter() - started
        return ProofResult(invariant, tables.name, Status.PROVED_BOUNDED, seconds, None, detail)
    # Who runs a call: its runs carry tools and outputs no function_call stream renders,
    # so they are searched and reported abstractly (execution_z3.describe).
    renderable = not PROPERTIES[invariant].execution
    search = bmc(tables, invariant, failed.bounds, depth, renderable)
    # The induction may break at a small bound on a state no run reaches, while the
    # run that breaks the invariant needs more entries (a third binding of a shared
    # slot): search the largest bound too before giving up (a run at a smaller bound is
    # one at the largest, its extra entries and slots left unused).
    if search.trace is None and failed.bounds != checked[-1]:
        search = bmc(tables, invariant, checked[-1], depth, renderable)
    if search.trace is not None and not renderable:
        return ProofResult(
            invariant,
            tables.name,
            Status.COUNTEREXAMPLE,
            time.perf_counter() - started,
            None,
            f"abstract run at {search.trace.bounds} (no function_call rendering): "
            + describe(search.trace),
        )
    if search.trace is None:
        # No stream of function_call items breaks it; an entry with several channels
        # (a message's parts) may.  Such a trace is a counterexample of the model all
        # the same, reported with its abstract steps (it has no function_call rendering).
        abstract = (
            bmc(tables, invariant, failed.bounds, depth, renderable=False) if renderable else search
        )
        if abstract.trace is not None:
            steps = ", ".join(
                f"{step.trigger.value}@{step.entry}" + (f"/{step.channel}" if step.channel else "")
                for step in abstract.trace.steps
            )
            return ProofResult(
                invariant,
                tables.name,
                Status.COUNTEREXAMPLE,
                time.perf_counter() - started,
                None,
                f"{abstract.depth}-step abstract trace at {failed.bounds} with entries of "
                f"several channels (no function_call rendering; entry/channel): {steps}",
            )
        what = "base case" if not failed.base_holds else f"induction step breaks {failed.broken}"
        return ProofResult(
            invariant,
            tables.name,
            Status.UNKNOWN,
            time.perf_counter() - started,
            None,
            f"at {failed.bounds} the {what}; no counterexample up to depth {depth}",
        )
    events, expected = expectations(close_snapshot(search.trace, tables))
    return ProofResult(
        invariant,
        tables.name,
        Status.COUNTEREXAMPLE,
        time.perf_counter() - started,
        events,
        f"{search.depth}-step trace at {search.trace.bounds}",
        expected=expected,
    )


def over_contract(name: str, tables: ModelTables) -> ProofResult:
    """The row of diagnostic contract ``name``: one query per size (``contracts``)."""
    started = time.perf_counter()
    result = check_contract(name, tables)
    status = {
        "proved": Status.PROVED_BOUNDED if CONTRACTS[name].entries else Status.PROVED_UNBOUNDED,
        "counterexample": Status.COUNTEREXAMPLE,
        "unknown": Status.UNKNOWN,
    }[result.verdict]
    seconds = time.perf_counter() - started
    return ProofResult(name, tables.name, status, seconds, None, result.detail, "contract")


def over_any_channels(invariant: str, tables: ModelTables) -> ProofResult:
    """The row of ``invariant`` for any number of channels per entry (``any_channels``):
    ``PROVED_UNBOUNDED`` or ``UNKNOWN``."""
    return _any_size(invariant, tables, prove_any_channels, "channels")


def _any_size(
    invariant: str,
    tables: ModelTables,
    proof: Callable[[ModelTables, str], tuple[bool, str]],
    system: str,
) -> ProofResult:
    """A row of a proof for any size: ``PROVED_UNBOUNDED`` or ``UNKNOWN``, with its detail."""
    started = time.perf_counter()
    proved, detail = proof(tables, invariant)
    status = Status.PROVED_UNBOUNDED if proved else Status.UNKNOWN
    seconds = time.perf_counter() - started
    return ProofResult(invariant, tables.name, status, seconds, None, detail, system)


def over_matcher(invariant: str, tables: ModelTables) -> ProofResult:
    """The row of ``invariant`` over the matcher: proved by induction at every bound of
    ``MATCHER_BOUNDS``, or refuted by the shortest run, or unknown."""
    started = time.perf_counter()
    for bounds in MATCHER_BOUNDS:
        induction = induct_matcher(tables, invariant, bounds)
        if not induction.proved:
            break
    else:
        detail = (
            f"over the matcher (R6): base and induction hold for N x M in "
            f"{MATCHER_BOUNDS[0]}..{MATCHER_BOUNDS[-1]}"
        )
        seconds = time.perf_counter() - started
        return ProofResult(
            invariant, tables.name, Status.PROVED_BOUNDED, seconds, None, detail, "matcher"
        )
    found = check_matcher(tables, invariant, Bounds(2, 2), MATCHER_DEPTH, renderable=True)
    if found.run is None:
        found = check_matcher(tables, invariant, induction.bounds, MATCHER_DEPTH)
    seconds = time.perf_counter() - started
    if found.run is None:
        detail = (
            f"over the matcher (R6): at {induction.bounds} the induction breaks "
            f"{list(induction.broken)}; no run of up to {MATCHER_DEPTH} items breaks it"
        )
        return ProofResult(
            invariant, tables.name, Status.UNKNOWN, seconds, None, detail, "matcher"
        )
    return ProofResult(
        invariant,
        tables.name,
        Status.COUNTEREXAMPLE,
        seconds,
        render_run(found.run),
        f"over the matcher (R6): a {len(found.run.steps)}-item run at {found.bounds} breaks it",
        "matcher",
    )


def prove(
    invariant: str | None = None,
    tables: ModelTables = REFERENCE,
    bound: tuple[int, int] = DEFAULT_BOUND,
    depth: int = DEFAULT_DEPTH,
    unbounded: bool = False,
    matcher: bool = True,
) -> list[ProofResult]:
    """Prove ``invariant`` (all of DESIGN section 4 when None) on ``tables``.

    ``bound`` is the largest ``(entries, slots)`` of the bounded proofs; ``depth`` the
    depth of the counterexample search; ``unbounded`` adds the proofs for any number
    of entries and slots as separate rows; ``matcher`` the rows over the matcher.
    """
    names = PROVED_NAMES if invariant is None else [invariant]
    unknown = [name for name in names if name not in PROPERTIES and name not in CONTRACTS]
    if unknown:
        raise KeyError(f"no such invariant: {unknown[0]}")
    return [
        row(tables)
        for name in names
        for _, row in row_plan(name, bound, depth, unbounded=unbounded, matcher=matcher)
    ]


Row = Callable[[ModelTables], ProofResult]
"""One row of the report, as a function of the tables it is proved on."""


def row_plan(
    name: str,
    bound: tuple[int, int] = DEFAULT_BOUND,
    depth: int = DEFAULT_DEPTH,
    unbounded: bool = False,
    matcher: bool = True,
) -> list[tuple[str, Row]]:
    """The rows ``prove`` reports for ``name``, in order, each with its part:
    ``contract``, or ``bounded`` then ``unbounded``, ``channels`` and ``matcher`` where
    they apply.  Each row runs on its own, so a record can re-run one (``docsite``)."""
    if name in CONTRACTS:
        return [("contract", partial(over_contract, name))]
    plan: list[tuple[str, Row]] = [("bounded", partial(_bounded, name, bound=bound, depth=depth))]
    if unbounded and name in UNBOUNDED:
        plan.append(("unbounded", partial(over_unbounded, name)))
    if unbounded and name in ANY_CHANNELS:
        plan.append(("channels", partial(over_any_channels, name)))
    if matcher and name in MATCHER_PROPERTIES:
        plan.append(("matcher", partial(over_matcher, name)))
    return plan


def over_unbounded(invariant: str, tables: ModelTables) -> ProofResult:
    """The row of ``invariant`` for any number of entries and slots (``unbounded``):
    ``PROVED_UNBOUNDED`` or ``UNKNOWN``."""
    return _any_size(invariant, tables, prove_unbounded, "lifecycle")
