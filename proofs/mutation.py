"""The mutation score: what refutes each one-cell table mutant and each driver edit.

A proof that cannot fail proves nothing, and a proof that fails only on the mutants
its authors thought of proves little more.  This command applies mutants nobody chose
— every one-cell change of every model table, sampled deterministically — and a set of
small driver edits, and reports for each one what refutes it:

- **changes behaviour**: the mutant's reducer gives another result (status, items,
  their states, executability, diagnostics) than the reference on at least one stream
  of a fixed corpus (the counterexample fixtures, ``examples/``, and seeded generated
  streams: valid, model-guided and faulty).  A mutant that changes nothing observable
  there is reported but not scored (it may be equivalent);
- **proof**: ``prove`` finds a counterexample to one of the invariants or completeness
  obligations at 2 entries and 2 slots (rendered or abstract); an induction step that
  breaks without a counterexample is reported as ``unknown``, not as refuted;
- **refinement**: ``proofs.refinement.check_stream`` fails on a corpus stream, the
  driver running the mutant (its kernels, or the edited driver) and the encoding the
  reference.

Table mutants are scored by the proofs (the reference model's proofs are about the
tables), driver edits by the refinement check (the proofs never read driver code).
Run it with::

    python -m responses_oracle.proofs.mutation                 # the default sample
    python -m responses_oracle.proofs.mutation --sample 0      # every table mutant

The results are recorded in ``benchmarks/RESULTS.md`` (a measurement, not a test).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from responses_oracle.core import admit, dispatch, effects, payload, route, settle
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import REFERENCE, KernelSet, ModelTables
from responses_oracle.model.vocabulary import Effect, MatchView, SlotTrigger, Trigger
from responses_oracle.reducer import Reducer
from responses_oracle.testing.choices import RandomChooser
from responses_oracle.testing.faults import fault_stream
from responses_oracle.testing.streams import openai_stream
from responses_oracle.testing.walk import model_guided_stream

from .counterexample import fixture_dir
from .prove import PROVED_NAMES, Status, prove
from .refinement import check_stream

Event = Mapping[str, Any]
"""One decoded wire event."""

DEFAULT_SAMPLE = 40
"""How many table mutants the default run takes (evenly spread over all of them)."""

TABLES: tuple[str, ...] = tuple(f.name for f in fields(ModelTables) if f.name != "name")
"""The tables of a model, by field name."""


@dataclass(frozen=True)
class TableMutant:
    """One cell of one table changed: where, from what, to what."""

    table: str
    cell: tuple[Any, ...]
    change: str
    tables: ModelTables


def _show(value: Any) -> str:
    return value.value if isinstance(value, Enum) else str(value)


def _leaves(
    table: Mapping[Any, Any], path: tuple[Any, ...] = ()
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _leaves(value, (*path, key))
        else:
            yield (*path, key), value


def _replaced(table: Mapping[Any, Any], path: tuple[Any, ...], value: Any) -> dict[Any, Any]:
    head, *rest = path
    inner = _replaced(table[head], tuple(rest), value) if rest else value
    return {**table, head: inner}


def _alternatives(value: Any) -> Iterator[tuple[str, Any]]:
    """Every one-field change of a cell: another enum member, a dropped code, an effect
    dropped from the effects."""
    if isinstance(value, Enum):
        for other in type(value):
            if other is not value:
                yield f"{_show(value)} -> {_show(other)}", other
        return
    for name in getattr(value, "_fields", ()):
        current = getattr(value, name)
        if isinstance(current, Enum) and name != "code":
            for other in type(current):
                if other is not current:
                    yield (
                        f"{name} {_show(current)} -> {_show(other)}",
                        value._replace(**{name: other}),
                    )
        elif name == "code" and current is not None:
            yield f"code {_show(current)} dropped", value._replace(code=None)
        elif isinstance(current, tuple):
            for effect in current:
                kept = tuple(e for e in current if e is not effect)
                yield f"drop {_show(effect)}", value._replace(**{name: kept})


def table_mutants(base: ModelTables = REFERENCE) -> list[TableMutant]:
    """Every one-cell mutant of every table of ``base``, in table and cell order."""
    mutants: list[TableMutant] = []
    for table in TABLES:
        for path, value in _leaves(getattr(base, table)):
            for change, other in _alternatives(value):
                name = f"{table}[{'/'.join(_show(p) for p in path)}]: {change}"
                tables = replace(
                    base, name=name, **{table: _replaced(getattr(base, table), path, other)}
                )
                mutants.append(TableMutant(table, path, change, tables))
    return mutants


def sample(mutants: Sequence[TableMutant], count: int) -> list[TableMutant]:
    """``count`` mutants spread evenly over ``mutants`` (all of them for 0)."""
    if count <= 0 or count >= len(mutants):
        return list(mutants)
    stride = len(mutants) / count
    return [mutants[int(k * stride)] for k in range(count)]


# -- driver edits ----------------------------------------------------------------------


@dataclass(frozen=True)
class DriverEdit:
    """A small edit of the driver, applied by replacing one function of ``impl/core``."""

    name: str
    description: str
    module: Any
    attribute: str
    replacement: Callable[[Callable[..., Any]], Callable[..., Any]]

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """The driver with this edit, for the duration of the block."""
        original = getattr(self.module, self.attribute)
        setattr(self.module, self.attribute, self.replacement(original))
        try:
            yield
        finally:
            setattr(self.module, self.attribute, original)


def _match_by_slot(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(ops: Any, facts: Any, fit: Any) -> Any:
        view, target = original(ops, facts, fit)
        if view is MatchView.NONE and len(facts.bound) == 1:
            return MatchView.AGREE, facts.bound[0]
        return view, target

    return edited


def _skipping(effect: Effect) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def edited(step: Any, current: Effect, *args: Any) -> None:
            if current is not effect:
                original(step, current, *args)

        return edited

    return wrap


def _no_tombstone(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any, trigger: SlotTrigger) -> None:
        if trigger is not SlotTrigger.TOMBSTONE:
            original(step, entry, trigger)

    return edited


def _no_delta(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, channel: Any, value: Any) -> None:
        return None

    return edited


def _no_snapshot(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, response: Any) -> None:
        original(step, None)

    return edited


def _never_settle(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any) -> None:
        return None

    return edited


def _closed_channel_not_late(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any, trigger: Trigger, **kwargs: Any) -> None:
        if trigger is Trigger.DELTA_ON_CLOSED_CHANNEL:
            trigger = Trigger.DELTA
        original(step, entry, trigger, **kwargs)

    return edited


def _status_kept(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, status: Any, event: Any) -> None:
        original(step, status, event)
        step.state.terminal = False

    return edited


DRIVER_EDITS: tuple[DriverEdit, ...] = (
    DriverEdit(
        "match-by-slot-against-done",
        "an item that fits no entry goes to the one bound at its slot, done or not",
        admit,
        "match_view",
        _match_by_slot,
    ),
    DriverEdit(
        "confirm-ignored",
        "the CONFIRM effect does nothing",
        effects,
        "_execute",
        _skipping(Effect.CONFIRM),
    ),
    DriverEdit(
        "completion-not-counted",
        "the EMIT_COMPLETION effect does nothing",
        effects,
        "_execute",
        _skipping(Effect.EMIT_COMPLETION),
    ),
    DriverEdit(
        "close-channel-ignored",
        "the CLOSE_CHANNEL effect does nothing (a later delta is not late)",
        effects,
        "_execute",
        _skipping(Effect.CLOSE_CHANNEL),
    ),
    DriverEdit(
        "admit-ignored",
        "the ADMIT effect does nothing (the entry is never added to the response)",
        effects,
        "_execute",
        _skipping(Effect.ADMIT),
    ),
    DriverEdit(
        "never-tombstone",
        "a done item's slot is never tombstoned",
        effects,
        "move_slot",
        _no_tombstone,
    ),
    DriverEdit(
        "deltas-dropped",
        "append_delta drops every delta",
        payload,
        "append_delta",
        _no_delta,
    ),
    DriverEdit(
        "snapshot-ignored",
        "response.completed is reconciled as if it had no output",
        settle,
        "_reconcile_snapshot",
        _no_snapshot,
    ),
    DriverEdit(
        "settle-skipped",
        "the end of a response mints no ids and decides no executability",
        settle,
        "_settle",
        _never_settle,
    ),
    DriverEdit(
        "closed-channel-delta-not-late",
        "a delta on a channel whose *.done came is delivered as a plain delta",
        route,
        "deliver",
        _closed_channel_not_late,
    ),
    DriverEdit(
        "terminal-not-kept",
        "the terminal gate is lost: events after the end still count",
        dispatch,
        "end",
        _status_kept,
    ),
)
"""The driver edits, each one function of ``impl/core`` replaced."""


# -- the corpus ------------------------------------------------------------------------


def corpus(generated: int = 60) -> list[list[Event]]:
    """The streams every mutant is run on: the counterexample fixtures, the examples and
    ``generated`` seeded streams of each generator (valid, model-guided, faulty)."""
    streams: list[list[Event]] = []
    for path in sorted(fixture_dir().glob("*.jsonl")):
        streams.append([json.loads(line) for line in path.read_text("utf-8").splitlines()])
    examples = Path(__file__).resolve().parents[1] / "examples"
    for path in sorted(examples.glob("*.jsonl")):
        streams.append([json.loads(line) for line in path.read_text("utf-8").splitlines()])
    for seed in range(generated):
        streams.append(list(openai_stream(RandomChooser(f"valid-{seed}")).events))
        walk = model_guided_stream(RandomChooser(f"walk-{seed}"), fault=seed % 2 == 1)
        streams.append(list(walk.events))
        base = openai_stream(RandomChooser(f"fault-base-{seed}"))
        streams.append(list(fault_stream(base, RandomChooser(f"fault-{seed}"))[0].events))
    return streams


def outcome(events: Sequence[Event], kernels: KernelSet) -> Any:
    """What a user sees of one stream: per response its status, items and codes (or the
    exception, if an edit made the driver raise)."""
    reducer = Reducer(kernels=kernels)
    try:
        reducer.feed_all(events)
        results = reducer.finish()
    except Exception as error:  # an edited driver may crash: that changes behaviour
        return ("raised", type(error).__name__)
    return [
        (
            result.status,
            [(item.item, item.state, item.executable) for item in result.items],
            [diagnostic.code for diagnostic in result.diagnostics],
        )
        for result in results
    ]


@dataclass(frozen=True)
class Verdict:
    """What refutes one mutant."""

    mutant: str
    kind: str
    changes_behaviour: bool
    proof: str
    refinement: bool
    seconds: float


def _proof(tables: ModelTables) -> str:
    """The first invariant ``prove`` refutes at 2x2 (``name``), ``unknown: name``, or ``-``."""
    unknown = None
    for name in PROVED_NAMES:
        # The lifecycle row, and the matcher's for the invariants it also proves.
        for row in prove(name, tables, bound=(2, 2)):
            if row.status is Status.COUNTEREXAMPLE:
                return name
            if row.status is Status.UNKNOWN and unknown is None:
                unknown = name
    return f"unknown: {unknown}" if unknown else "-"


def _refined(streams: Sequence[Sequence[Event]], kernels: KernelSet | None) -> bool:
    """No stream violates the refinement (a driver that raises does not refine)."""
    for events in streams:
        try:
            if check_stream(events, kernels):
                return False
        except Exception:  # an edited driver may crash: not a step of the model
            return False
    return True


def judge_table(
    mutant: TableMutant, streams: Sequence[Sequence[Event]], expected: list[Any]
) -> Verdict:
    """The verdict on one table mutant."""
    started = time.perf_counter()
    kernels = load_kernels(mutant.tables)
    changed = [outcome(events, kernels) for events in streams] != expected
    proof = _proof(mutant.tables) if changed else "(not run)"
    refuted = not _refined(streams, kernels) if changed else False
    return Verdict(
        mutant.tables.name, "table", changed, proof, refuted, time.perf_counter() - started
    )


def judge_edit(
    edit: DriverEdit, streams: Sequence[Sequence[Event]], expected: list[Any]
) -> Verdict:
    """The verdict on one driver edit (the proofs do not read the driver: ``n/a``)."""
    started = time.perf_counter()
    kernels = load_kernels(REFERENCE)
    with edit.applied():
        changed = [outcome(events, kernels) for events in streams] != expected
        refuted = not _refined(streams, None)
    return Verdict(edit.name, "driver", changed, "n/a", refuted, time.perf_counter() - started)


def report(verdicts: Sequence[Verdict]) -> str:
    """The verdicts as a Markdown table and the two scores."""
    lines = [
        "| mutant | kind | changes behaviour | proof | refinement | s |",
        "|---|---|---|---|---|---|",
    ]
    for v in verdicts:
        lines.append(
            f"| `{v.mutant}` | {v.kind} | {'yes' if v.changes_behaviour else 'no'} | "
            f"{v.proof} | {'refuted' if v.refinement else '-'} | {v.seconds:.1f} |"
        )
    tables = [v for v in verdicts if v.kind == "table" and v.changes_behaviour]
    edits = [v for v in verdicts if v.kind == "driver" and v.changes_behaviour]
    proved = sum(
        1 for v in tables if v.proof not in ("-", "(not run)") and not v.proof.startswith("unknown")
    )
    refined = sum(1 for v in edits if v.refinement)
    lines += [
        "",
        f"table mutants changing behaviour: {len(tables)}; refuted by prove: {proved}"
        f" ({100 * proved / max(len(tables), 1):.0f} %)",
        f"driver edits changing behaviour: {len(edits)}; refuted by the refinement check: "
        f"{refined} ({100 * refined / max(len(edits), 1):.0f} %)",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants and print the report."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.mutation",
        description="What refutes each table mutant (prove) and each driver edit (refinement).",
    )
    parser.add_argument("--sample", type=int, default=DEFAULT_SAMPLE, help="table mutants (0: all)")
    parser.add_argument("--generated", type=int, default=20, help="seeded streams per generator")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    streams = corpus(args.generated)
    expected = [outcome(events, load_kernels(REFERENCE)) for events in streams]
    everyone = table_mutants()
    chosen = sample(everyone, args.sample)
    verdicts = [judge_table(m, streams, expected) for m in chosen]
    verdicts += [judge_edit(edit, streams, expected) for edit in DRIVER_EDITS]
    print(report(verdicts))
    print(
        f"\n{len(chosen)} of {len(everyone)} table mutants, {len(DRIVER_EDITS)} driver edits, "
        f"{len(streams)} streams; {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
