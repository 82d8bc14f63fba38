"""The mutation score: what refutes each one-cell table mutant and each driver edit.

A proof that cannot fail proves nothing, and a proof that fails only on the mutants
its authors thought of proves little more.  This command applies mutants nobody chose
— every one-cell change of every model table — and a set of small driver edits, and
reports for each one what refutes it.

Theory of operation
-------------------
*Cells reached.*  The reducer consults the tables only through its kernels, so running
the reference reducer with every kernel call recorded (``recording``) gives the cells
each stream reaches.  A mutant differs from the reference in one cell: on a stream that
never reaches that cell it behaves exactly as the reference, call for call.  Its
behaviour check therefore runs only the corpus streams that reach its cell.

*The corpus* (``build_corpus``) is chosen for coverage: from a pool of streams — the
counterexample fixtures, ``examples/``, the vendored recordings under ``fixtures/``,
the shortest witness trace of every lifecycle row and routing cell that bounded model
checking finds (``vacuity``, rendered as streams), and seeded generated streams
(valid, model-guided, faulty) — each kept if it reaches a cell fewer than
``per_cell`` kept streams reach.  A cell no stream reaches is reported with the reason
it cannot be reached where there is a proof: no input of the classifier selects it
(``contracts.selectable``: a Z3 query over the step), no step of the encoding fires it
from a state the inductive reachability clauses allow (``vacuity.prove_unreachable``,
any depth), or no run of the routing system reaches it (``vacuity``, up to its depth);
otherwise it is listed as a gap of the corpus.

*Per mutant*, in a worker process with a wall-clock budget (``--timeout``; over it the
verdict is ``timeout``, never refuted):

- **changes behaviour**: on a stream reaching the cell the mutant's reducer gives
  another result (status, items, their states, executability, diagnostics) than the
  reference.  A mutant that changes nothing observable is reported but not scored (it
  may be equivalent: its cell's change has no effect the result shows);
- **proof** (behaviour-changing mutants only): ``prove`` finds a counterexample to one
  of the invariants, completeness obligations or diagnostic contracts at 2 entries and
  2 slots (the routing system's at ``prove``'s default bound, 2 to 4 of each: R5's
  ambiguous cells need more than two entries; a lifecycle proof that is unknown at 2x2
  is tried again at 3x3) (rendered, abstract, or at one decision step); a proof that
  breaks without a counterexample is ``unknown``, not refuted;
- **refinement** (table mutants that survive the proof, and every driver edit):
  ``proofs.refinement.check_stream`` fails on a corpus stream, the driver running the
  mutant (its kernels, or the edited driver) and the encoding the reference.

Table mutants are scored by the proofs (the proofs are about the tables), driver edits
by the refinement check (the proofs never read driver code).  Run it with::

    python -m responses_oracle.proofs.mutation --jobs 2                  # everything
    python -m responses_oracle.proofs.mutation --sample 30 --no-witnesses  # a quick look

The results are recorded in ``benchmarks/RESULTS.md`` (a measurement, not a test).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass, replace
from enum import Enum
from functools import partial
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, cast

from responses_oracle.core import admit, dispatch, effects, identity, reconcile, route, settle
from responses_oracle.model.annotations import AdditionType
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.execution import CLIENT_CALLS
from responses_oracle.model.tables import REFERENCE, KernelSet, ModelTables, tables_by_kernel
from responses_oracle.model.vocabulary import (
    CHANNEL_TRIGGERS,
    AddedView,
    Code,
    Effect,
    IdentityField,
    MatchView,
    ResponseStatus,
    SlotTrigger,
    Trigger,
)
from responses_oracle.reducer import Reducer
from responses_oracle.streamgen.choices import RandomChooser
from responses_oracle.streamgen.faults import fault_stream
from responses_oracle.streamgen.streams import openai_stream
from responses_oracle.streamgen.walk import model_guided_stream
from responses_oracle.wire import read_wire_events

from .contracts import CONTRACTS, check_contract
from .counterexample import fixture_dir
from .encoding import Bounds
from .induction import check_induction
from .inventory import DEFAULT_BOUND, PROVED_NAMES, ProofResult, Status, prove
from .properties import PROPERTIES
from .reads import Reading
from .refinement import check_stream

Event = Mapping[str, Any]
"""One decoded wire event."""

Cell = tuple[str, tuple[Any, ...]]
"""One cell as the reducer consults it: the kernel and its arguments (the cell's path)."""


TABLES: tuple[str, ...] = tuple(f.name for f in fields(ModelTables) if f.name != "name")
"""The tables of a model, by field name."""

KERNEL_OF: dict[str, str] = {
    table: kernel
    for kernel, cells in tables_by_kernel(REFERENCE).items()
    for table in TABLES
    if getattr(REFERENCE, table) is cells
}
"""The kernel that consults each table (``ModelTables`` field → ``KernelSet`` field).
``restated`` has none: the proxy reads it (its log tells a re-spelling from a repair),
never the reducer, so no corpus stream reaches its cells and its mutants are scored by
the proof alone (``restated_silently``)."""


@dataclass(frozen=True)
class TableMutant:
    """One cell of one table changed: where, from what, to what."""

    table: str
    cell: tuple[Any, ...]
    change: str
    tables: ModelTables

    @property
    def reached_as(self) -> Cell:
        """The kernel call that consults the changed cell."""
        return KERNEL_OF.get(self.table, self.table), self.cell


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
    """Every one-field change of a cell: another enum member, the other boolean, a dropped
    code, an effect dropped from the effects."""
    if isinstance(value, bool):
        yield f"{value} -> {not value}", not value
        return
    if isinstance(value, Enum):
        for other in type(value):
            if other is not value:
                yield f"{_show(value)} -> {_show(other)}", other
        return
    if is_dataclass(value) and not isinstance(value, type):
        # A record of trigger tuples (``vocabulary.Restatement``): one trigger dropped.
        for item in fields(value):
            current = getattr(value, item.name)
            for member in current:
                kept = tuple(m for m in current if m is not member)
                yield f"{item.name} drops {_show(member)}", replace(value, **{item.name: kept})
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


def independent(
    mutants: Sequence[TableMutant], count: int, seed: int, drawn: frozenset[str] = frozenset()
) -> list[TableMutant]:
    """``count`` of ``mutants`` drawn by ``random.Random(seed)``, none that is one of the
    named mutants (``mutants.MUTANT_LIST``: its changed table equal to a named one's) or
    was ``drawn`` by an earlier sample (its name in an ``--exclude`` record)."""
    from .mutants import MUTANT_LIST

    named = [(m.tables, field) for m in MUTANT_LIST for field in TABLES]
    fresh = [
        mutant
        for mutant in mutants
        if mutant.tables.name not in drawn
        and not any(
            field == mutant.table and getattr(tables, field) == getattr(mutant.tables, field)
            for tables, field in named
        )
    ]
    return random.Random(seed).sample(fresh, min(count, len(fresh)))


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


def _slot_freed(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any, trigger: SlotTrigger) -> None:
        original(step, entry, trigger)
        if trigger is SlotTrigger.TOMBSTONE and entry.slot is not None:
            step.state.slots.pop(entry.slot, None)

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


def _replay_admitted(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(*args: Any) -> Any:
        view, target = original(*args)
        if view is AddedView.REPLAY:
            return AddedView.NEW, None
        return view, target

    return edited


def _identity_overwritten(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any, item: Any, stage: Any, *rest: Any) -> None:
        original(step, entry, item, stage, *rest)
        for field in IdentityField:
            value = item.get(field.value)
            if isinstance(value, str) and value:
                setattr(entry, field.value, value)

    return edited


def _identity_not_taken(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any, item: Any, stage: Any, *rest: Any) -> None:
        held = {field: getattr(entry, field.value) for field in IdentityField}
        original(step, entry, item, stage, *rest)
        for field, value in held.items():
            setattr(entry, field.value, value)

    return edited


def _blank_replaces(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, channel: Any, value: Any, source: Any) -> None:
        original(step, channel, value, source)
        if value == "":
            channel.value = ""

    return edited


def _route_guessed(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(kernel: Any, bound: Any, shared: Any, named: Any, present: Any) -> Any:
        decision, target, summary = original(kernel, bound, shared, named, present)
        return decision, bound[0] if target is None and bound else target, summary

    return edited


def _execute_all(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any) -> None:
        original(step)
        for entry in step.state.entries:
            if entry.item_type in CLIENT_CALLS:
                entry.executable = True

    return edited


def _silent(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, effect: Effect, code: Code, entry: Any, nonempty: bool) -> None:
        return None

    return edited


def _id_not_learned(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, entry: Any) -> None:
        return None

    return edited


def _amend_kept(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any, event: Any) -> None:
        original(step, event)
        step.state.amendable = True  # the flag is never reset

    return edited


def _unended_completed(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any) -> None:
        if not step.state.terminal:
            step.note(Code.MISSING_TERMINAL, "input ended before a terminal event")
            settle.end(step, ResponseStatus.COMPLETED, None)

    return edited


def _held_by_id_only(original: Callable[..., Any]) -> Callable[..., Any]:
    def edited(step: Any) -> None:
        # The slot test dropped: an id-less held event never attaches.
        step.state.held_over[:] = [
            (None, item_id, diagnostic) for _, item_id, diagnostic in step.state.held_over
        ]
        original(step)

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
    # Until issue #16 merged TOMB into LIVE this was "never-tombstone" (skip the done
    # move), equivalent once the done move keeps the binding; its bug class is freeing.
    DriverEdit(
        "slot-freed-when-done",
        "a done item's slot is freed (opencode #46965: no tombstones), so a late event on "
        "it is an orphan and a new item re-binds it silently",
        effects,
        "move_slot",
        _slot_freed,
    ),
    DriverEdit(
        "deltas-dropped",
        "append_delta drops every delta",
        reconcile,
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
    DriverEdit(
        "replay-admitted-twice",
        "an output_item.added replaying an admitted item admits a second entry",
        admit,
        "added_view",
        _replay_admitted,
    ),
    DriverEdit(
        "identity-overwritten",
        "every non-empty call_id, name or namespace an item brings overwrites the entry's",
        identity,
        "merge_item",
        _identity_overwritten,
    ),
    DriverEdit(
        "identity-never-taken",
        "merging an item never sets the entry's call_id, name or namespace",
        identity,
        "merge_item",
        _identity_not_taken,
    ),
    DriverEdit(
        "blank-replaces-payload",
        "an empty payload offer replaces the held value",
        reconcile,
        "offer",
        _blank_replaces,
    ),
    DriverEdit(
        "unroutable-goes-to-slot",
        "an event the routing table refuses goes to the first entry at its slot",
        route,
        "resolve_route",
        _route_guessed,
    ),
    DriverEdit(
        "every-call-executable",
        "the end of a response makes every client call executable",
        settle,
        "_settle",
        _execute_all,
    ),
    DriverEdit(
        "notes-silent",
        "a note effect raises no diagnostic",
        effects,
        "_note",
        _silent,
    ),
    # Issue #41: three one-line edits that passed both the refinement and the tests.
    DriverEdit(
        "amend-flag-kept",
        "after error + response.failed, a third terminal is taken as an amend too "
        "(after_terminal disappears)",
        dispatch,
        "describe_failure",
        _amend_kept,
    ),
    DriverEdit(
        "unended-taken-as-completed",
        "a stream with no terminal event ends completed, not interrupted",
        dispatch,
        "_end_of_input",
        _unended_completed,
    ),
    DriverEdit(
        "held-attached-by-id-only",
        "a resumed stream's held event attaches only by its item_id: an id-less one "
        "becomes a false orphan_event",
        settle,
        "_attach_held",
        _held_by_id_only,
    ),
    DriverEdit(
        "item-id-not-learned",
        "a delivered event's item_id is never learned (LEARN_ITEM_ID does nothing)",
        effects,
        "_learn_item_id",
        _id_not_learned,
    ),
)
"""The driver edits, each one function of ``impl/core`` replaced."""


# -- cells reached ---------------------------------------------------------------------


def recording(kernels: KernelSet, reached: set[Cell]) -> KernelSet:
    """``kernels`` with every call recorded in ``reached`` as ``(kernel, arguments)``."""

    def wrap(name: str, kernel: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: Any) -> Any:
            reached.add((name, args))
            return kernel(*args)

        return recorded

    return KernelSet(**{name: wrap(name, getattr(kernels, name)) for name in KernelSet._fields})


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


def reached_by(events: Sequence[Event]) -> frozenset[Cell]:
    """The cells the reference reducer consults on ``events``."""
    reached: set[Cell] = set()
    outcome(events, recording(load_kernels(REFERENCE), reached))
    return frozenset(reached)


# -- the corpus ------------------------------------------------------------------------


@dataclass(frozen=True)
class Stream:
    """One corpus stream: where it comes from, its events, the cells it reaches."""

    name: str
    events: Sequence[Event]
    reached: frozenset[Cell] = frozenset()


def _jsonl(path: Path) -> list[Event]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def recorded_streams() -> list[Stream]:
    """The counterexample fixtures, ``examples/`` and the vendored recordings."""
    root = Path(__file__).resolve().parents[1]
    streams = [
        Stream(f"counterexample {path.stem}", _jsonl(path))
        for path in sorted(fixture_dir().glob("*.jsonl"))
    ]
    for folder in (root / "examples", root / "fixtures"):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".jsonl", ".sse"):
                continue
            events = [e.payload for e in read_wire_events(path) if e.payload is not None]
            if events:
                streams.append(Stream(str(path.relative_to(root)), events))
    return streams


def witness_streams() -> list[Stream]:
    """The shortest renderable witness of every lifecycle row and routing cell (bounded
    model checking, ``vacuity``), rendered as streams."""
    from .counterexample import render
    from .induction import close_snapshot
    from .vacuity import identity_coverage, lifecycle_coverage, routing_coverage

    runs: dict[int, Any] = {}
    lifecycle = lifecycle_coverage(REFERENCE, Bounds(2, 2), depth=4, renderable=True)
    for witness in lifecycle.witnesses.values():
        if witness is not None:
            runs.setdefault(id(witness[0]), close_snapshot(witness[0], REFERENCE))
    routing = routing_coverage(REFERENCE, Bounds(4, 2), depth=8).witnesses.values()
    identity = identity_coverage(REFERENCE, Bounds(2, 2), depth=6).witnesses.values()
    for found in (*routing, *identity):
        if found is not None:
            runs.setdefault(id(found[0]), found[0])
    return [Stream(f"witness {k}", render(run)) for k, run in enumerate(runs.values())]


def matching_witnesses(depth: int = 3) -> list[Stream]:
    """A renderable run of the matching system (``matching.py``) for every cell of the
    matching table a proposed entry can consult within ``depth`` items, rendered as streams
    (the search of ``matching.fit_coverage``, keeping the runs)."""
    from responses_oracle.model.tables import table_cells

    from .matching import MatchingSystem, consulting_runs, render_run

    system = MatchingSystem(REFERENCE, Bounds(2, 2))
    cells = [path for path, _ in table_cells(REFERENCE.matching)]
    streams: list[Stream] = []
    for _, run, _ in consulting_runs(system, cells, depth, renderable=True):
        streams.append(Stream(f"matching witness {len(streams)}", render_run(run)))
    return streams


def _numbered(events: list[dict[str, Any]]) -> list[Event]:
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _call(key: str, call_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": key,
        "call_id": call_id,
        "name": "f",
        "arguments": "",
    } | fields


def _search(key: str, call_id: str, status: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": "tool_search_call",
        "id": key,
        "call_id": call_id,
        "status": status,
        "arguments": {},
        "execution": "client",
    } | fields


def _added(index: int | None, item: dict[str, Any]) -> dict[str, Any]:
    slot = {} if index is None else {"output_index": index}
    return {"type": "response.output_item.added", **slot, "item": item}


def _done(index: int | None, item: dict[str, Any]) -> dict[str, Any]:
    slot = {} if index is None else {"output_index": index}
    return {"type": "response.output_item.done", **slot, "item": item}


def _opening(kind: str, response_id: str | None = None) -> dict[str, Any]:
    """A ``response.<kind>`` event, with the response id if one is given."""
    named = {} if response_id is None else {"id": response_id}
    return {"type": f"response.{kind}", "response": {"status": "in_progress", **named}}


def _ended(response_id: str | None = None) -> dict[str, Any]:
    """A ``response.completed`` with an empty output, with the response id if given."""
    named = {} if response_id is None else {"id": response_id}
    response = {"status": "completed", "output": [], **named}
    return {"type": "response.completed", "response": response}


def _annotation(
    scope: dict[str, Any], index: int | None, url: str, kind: AdditionType
) -> dict[str, Any]:
    """A part addition event of type ``kind`` citing ``url`` at ``index`` (none: the
    field left out) of the part ``scope`` names."""
    placed = {} if index is None else {"annotation_index": index}
    annotation = {"type": "url_citation", "url": url, "start_index": 0, "end_index": 0}
    return {"type": kind.value, **scope, **placed, "annotation": annotation}


_TERMINAL_TYPES = (
    "response.completed",
    "response.failed",
    "response.cancelled",
    "response.incomplete",
    "error",
)
"""The wire types of the terminal events (``catalogue.TERMINALS``)."""


def _cut_everywhere() -> list[dict[str, Any]]:
    """Every reachable cell of ``BOUNDARY`` and ``FRAMES`` (R14), each decided once at
    least: openings with the held id, another, or none, while nothing, an open or an
    ended response is held; a steer and two create frames.  Each wire type of
    ``OPENINGS`` and ``CLIENT_FRAMES`` is first read where its kind decides the cut: a
    ``queued`` without an id while a response is open (a ``created`` would cut it), a
    ``response.create`` after an ended response, right before an ``error`` (a steer
    would leave the error after the terminal)."""
    steer, create = {"type": "response.steer", "input": "x"}, {"type": "response.create"}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    return [
        *(_opening("in_progress", "r1"), _opening("queued"), _opening("created", "r1")),
        *(_opening("in_progress", "r1"), _opening("in_progress", "rx")),
        *(_opening("in_progress"), steer, _added(0, message)),
        *(_opening("created"), _opening("created", "r2"), _ended("r2")),
        *(_opening("in_progress", "r2"), _opening("in_progress"), _opening("in_progress", "r3")),
        *(_ended("r3"), _opening("created", "r3"), _ended("r3")),
        *(_opening("created", "r4"), _ended("r4"), _opening("created"), _ended()),
        *(create, _opening("created", "r5"), _opening("created", "r6")),
        *(create, _opening("queued", "r7"), _ended("r7")),
        # WebSocket mode answers a bad response.create with an error frame alone.
        *(create, {"type": "error", "error": {"code": "invalid_request", "message": "x"}}),
    ]


def runner_streams() -> list[Stream]:
    """A response per cell of R13's runner tables: a declared shell with each kind of
    environment (none, ``local``, both containers, one the model does not know) and a
    tool search with each ``execution`` (``client``, ``server``, unset, and a call stating
    ``server`` against its declared tool's ``client``), each call
    confirmed, with a ``call_id``, unanswered, in a completed response."""
    shell = {
        "type": "shell_call",
        "id": "sh_1",
        "call_id": "call_sh",
        "status": "completed",
        "action": {"commands": ["ls"]},
    }
    search = {
        "type": "tool_search_call",
        "id": "ts_1",
        "call_id": "call_ts",
        "status": "completed",
        "arguments": {"query": "weather"},
    }
    environments: list[dict[str, Any]] = [
        {},
        {"environment": {"type": "local"}},
        {"environment": {"type": "container_auto"}},
        {"environment": {"type": "container_reference", "container_id": "cntr_1"}},
        {"environment": {"type": "vm"}},
    ]
    declared = (
        [({"type": "shell", **env}, shell) for env in environments]
        + [
            # The search's own execution decides over its declared tool's (R13); first, so
            # that it is the stream the corpus keeps for the wire's "server".
            ({"type": "tool_search", "execution": "client"}, {**search, "execution": "server"})
        ]
        + [
            ({"type": "tool_search", **execution}, search)
            for execution in ({"execution": "client"}, {"execution": "server"}, {})
        ]
    )

    def run(tool: dict[str, Any], item: dict[str, Any]) -> list[Event]:
        response = {"id": "r", "status": "in_progress", "tools": [tool]}
        completed = {**response, "status": "completed", "output": [item]}
        return _numbered(
            [
                {"type": "response.created", "response": response},
                _added(0, {**item, "status": "in_progress"}),
                _done(0, item),
                {"type": "response.completed", "response": completed},
            ]
        )

    return [
        Stream(f"edge: a {item['type']} of a declared {json.dumps(tool)}", run(tool, item))
        for tool, item in declared
    ]


def edge_streams() -> list[Stream]:
    """Streams for the cells no recording, generator or witness search reaches (found by
    the corpus's own coverage report): an added call with another call type's
    ``call_id``; a done item two entries fit; null payload fields over nothing, a blank
    and a value; a namespace that differs; names and namespaces first brought, or
    changed, by an entry's own renaming done; an item of a kind with no namespace; an
    incomplete response whose output completes a done call; a part announced again
    after its ``*.done``; every reachable cut of R14's tables; calls announced without a
    slot, one given it by its done item, one listed by the snapshot at another's slot
    (``FILLS_MISSING_SLOT``); annotations at each kind of place (``PART_MERGE``); a
    response ended by each terminal (``TERMINAL_STATUS``), another terminal right after
    it (``AMENDABLE_TERMINALS``)."""
    start = {"type": "response.created", "response": {"id": "r", "status": "in_progress"}}
    end = {"type": "response.completed", "response": {"id": "r", "status": "completed"}}
    other = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "g"}
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    scope = {"output_index": 3, "item_id": "fc_3"}
    text = {"output_index": 0, "item_id": "msg_1", "content_index": 0}
    part = {**text, "part": {"type": "output_text", "text": "", "annotations": []}}
    return [
        Stream(
            "edge: an incomplete response whose output completes a call",
            _numbered(
                [
                    start,
                    _added(0, _call("fc_1", "call_1")),
                    _done(0, _call("fc_1", "call_1", arguments="{}")),
                    {
                        "type": "response.incomplete",
                        "response": {
                            "id": "r",
                            "status": "incomplete",
                            "output": [_call("fc_1", "call_1", arguments="{}")],
                        },
                    },
                ]
            ),
        ),
        Stream(
            "edge: a part announced again after its done",
            _numbered(
                [
                    start,
                    _added(0, message),
                    {**part, "type": "response.content_part.added"},
                    {**text, "type": "response.output_text.delta", "delta": "hi"},
                    {**text, "type": "response.output_text.done", "text": "hi"},
                    {**part, "type": "response.content_part.added"},
                    end,
                ]
            ),
        ),
        Stream(
            "edge: call_id of another type",
            _numbered([start, _added(0, _call("fc_1", "call_1")), _added(1, other), end]),
        ),
        Stream(
            "edge: a done item two entries fit",
            _numbered(
                [
                    start,
                    _added(0, _call("fc_1", "call_1")),
                    _added(1, _call("fc_2", "call_2")),
                    _done(1, _call("fc_2", "call_1", arguments="{}")),
                    end,
                ]
            ),
        ),
        Stream(
            "edge: null, blank and differing fields, renaming dones",
            _numbered(
                [
                    start,
                    _added(0, _call("fc_9", "call_9")),
                    _added(1, _search("tsc_1", "call_A", "in_progress", name="a", namespace="n1")),
                    _done(1, _search("tsc_1", "call_B", "completed", name="b", namespace="n2")),
                    _added(2, _search("tsc_2", "call_C", "in_progress")),
                    _done(2, _search("tsc_2", "call_D", "completed", name="s", namespace="n")),
                    _added(3, _call("fc_3", "call_3", namespace="x")),
                    {"type": "response.function_call_arguments.delta", **scope, "delta": "{}"},
                    _done(3, _call("fc_3", "call_3", namespace="y", arguments=None)),
                    _added(4, _call("fc_4", "call_4")),
                    {
                        "type": "response.function_call_arguments.done",
                        "output_index": 4,
                        "item_id": "fc_4",
                        "arguments": "",
                    },
                    _done(4, _call("fc_4", "call_4", arguments=None)),
                    _added(5, _call("fc_5", "call_5")),
                    _done(5, _call("fc_5", "call_5", arguments=None)),
                    _added(6, message | {"call_id": "call_m"}),
                    end,
                ]
            ),
        ),
        Stream("edge: responses cut at every opening and frame", _cut_everywhere()),
        Stream(
            "edge: a response ended by each terminal, and another terminal right after",
            [
                event
                for number, kind in enumerate(_TERMINAL_TYPES)
                for event in (
                    _opening("created", f"r{number}"),
                    _added(0, _call(f"fc_{number}", f"call_{number}", arguments="{}")),
                    {"type": kind, "response": {}, "error": {"code": "boom"}},
                    {"type": "response.failed", "response": {"error": {"code": "again"}}},
                )
            ],
        ),
        # Each spelling of the event (PART_ADDITIONS' keys) on its own stream.
        *(
            Stream(
                f"edge: annotations ({kind.value}) at a new place, at a held one, and "
                "without a place",
                _numbered(
                    [
                        start,
                        _added(0, message),
                        {**part, "type": "response.content_part.added"},
                        {**text, "type": "response.output_text.delta", "delta": "hi"},
                        *(
                            _annotation(text, index, url, kind)
                            for index, url in ((0, "a"), (0, "b"), (1, "c"), (None, "d"))
                        ),
                        end,
                    ]
                ),
            )
            for kind in AdditionType
        ),
        Stream(
            "edge: calls without a slot, given one by their done or their snapshot position",
            _numbered(
                [
                    start,
                    _added(None, _call("fc_a", "call_a", status="in_progress")),
                    _added(None, _call("fc_c", "call_c", status="in_progress")),
                    _added(1, _call("fc_b", "call_b", status="in_progress")),
                    _done(0, _call("fc_a", "call_a", arguments="{}", status="completed")),
                    {
                        "type": "response.completed",
                        "response": {
                            "id": "r",
                            "status": "completed",
                            "output": [
                                _call("fc_a", "call_a", arguments="{}", status="completed"),
                                _call("fc_c", "call_c", arguments="{}", status="completed"),
                                _call("fc_b", "call_b", arguments="{}", status="completed"),
                            ],
                        },
                    },
                ]
            ),
        ),
    ]


def generated_streams(count: int) -> list[Stream]:
    """``count`` seeded streams of each generator: valid, model-guided (with and without
    faults), faulty."""
    streams: list[Stream] = []
    for seed in range(count):
        streams.append(
            Stream(f"valid {seed}", list(openai_stream(RandomChooser(f"valid-{seed}")).events))
        )
        for fault in (False, True):
            walk = model_guided_stream(RandomChooser(f"walk-{seed}-{fault}"), fault=fault)
            streams.append(Stream(f"walk {seed}{' fault' if fault else ''}", list(walk.events)))
        base = openai_stream(RandomChooser(f"fault-base-{seed}"))
        faulty = fault_stream(base, RandomChooser(f"fault-{seed}"))[0]
        streams.append(Stream(f"fault {seed}", list(faulty.events)))
    return streams


@dataclass(frozen=True)
class Corpus:
    """The streams every mutant is judged on, the reference's result on each, and which
    streams reach each cell."""

    streams: list[Stream]
    expected: list[Any]
    reaching: dict[Cell, list[int]]
    pooled: int

    def on(self, cell: Cell) -> list[int]:
        """The streams that reach ``cell``."""
        return self.reaching.get(cell, [])


def build_corpus(pool: Sequence[Stream], per_cell: int) -> Corpus:
    """Every pooled stream that reaches a cell fewer than ``per_cell`` kept streams reach."""
    kept: list[Stream] = []
    reaching: dict[Cell, list[int]] = {}
    for stream in pool:
        reached = reached_by(stream.events)
        if any(len(reaching.get(cell, ())) < per_cell for cell in reached):
            for cell in reached:
                reaching.setdefault(cell, []).append(len(kept))
            kept.append(replace(stream, reached=reached))
    reference = load_kernels(REFERENCE)
    expected = [outcome(stream.events, reference) for stream in kept]
    return Corpus(kept, expected, reaching, len(pool))


def unreachable(corpus: Corpus, vacuity: bool = True) -> dict[Cell, str]:
    """Why each cell no corpus stream reaches cannot be reached, where a proof says so
    (``""``: no proof, a gap of the corpus); ``vacuity``: also search the lifecycle and
    routing systems for the rows no trace fires (bounded model checking, slow)."""
    from .contracts import SELECTING, selectable
    from .matching import fit_coverage
    from .vacuity import prove_unreachable, routing_coverage

    lifecycle: set[Any] = set()
    routing: set[Any] = set()
    fits: set[Any] = set()
    if vacuity:
        fits = set(fit_coverage(REFERENCE, Bounds(2, 2), 3).unreached)
        reachability = prove_unreachable(REFERENCE, Bounds(2, 2))
        if reachability.proved:
            lifecycle = set(reachability.unreachable)
        routing = set(routing_coverage(REFERENCE, Bounds(4, 2), depth=8).unreached)
    reasons: dict[Cell, str] = {}
    for table in TABLES:
        for path, _ in _leaves(getattr(REFERENCE, table)):
            cell = (KERNEL_OF.get(table, table), path)
            if corpus.on(cell):
                continue
            if table not in KERNEL_OF:
                reasons[cell] = "the reducer reads no such table (the proxy's: KERNEL_OF)"
            elif table == "reclassification" and path[0] not in CHANNEL_TRIGGERS:
                reasons[cell] = "the driver reclassifies channel events only (CHANNEL_TRIGGERS)"
            elif table in SELECTING and not selectable(table, path, REFERENCE):
                reasons[cell] = "no input of the classifier selects it (contracts.selectable)"
            elif table == "lifecycle" and path in lifecycle:
                reasons[cell] = (
                    "no step fires it from a reachable state (vacuity.prove_unreachable)"
                )
            elif table == "matching" and path in fits:
                reasons[cell] = "no key proposes such an entry (matching.fit_coverage, 2x2)"
            elif table == "routing" and path in routing:
                reasons[cell] = "no run of the routing system reaches it (vacuity, 4x2, depth 8)"
            else:
                reasons[cell] = ""
    return reasons


# -- judging ---------------------------------------------------------------------------


NOT_RUN = "(not run)"
"""The proof of a mutant that changes no result (or was not reached by the budget)."""

BUDGET = "(not run: budget)"
"""The proof of a behaviour-changing mutant the run's time budget did not reach."""


@dataclass(frozen=True)
class Verdict:
    """What refutes one mutant.

    ``reached``: some corpus stream consults the mutated cell (driver edits: always);
    ``proof``: the first property ``prove`` refutes, ``unknown: NAME``, ``-`` (none),
    ``timeout``, or ``(not run)``; ``refinement``: refuted by the refinement check, or
    not run (``None``).
    """

    mutant: str
    kind: str
    table: str
    reached: bool
    changes_behaviour: bool
    proof: str
    refinement: bool | None
    seconds: float
    witness: str = ""
    """The first stream whose result the mutant changes."""

    @property
    def refuted_by_proof(self) -> bool:
        """``prove`` found a counterexample."""
        return not self.proof.startswith(("-", "(", "n/a", "timeout", "crashed", "unknown"))

    @property
    def proof_attempted(self) -> bool:
        """A behaviour-changing table mutant whose proofs ran (to a verdict or timeout)."""
        return self.kind == "table" and self.changes_behaviour and not self.proof.startswith("(")


@dataclass(frozen=True)
class Reads:
    """Which tables each proof of ``prove`` reads: the lifecycle row's system (the
    encoding, the routing system, or a contract's step) and the matcher row's."""

    system: dict[str, frozenset[str]]
    matcher: dict[str, frozenset[str]]


def proof_reads() -> Reads:
    """Recorded by running each reference proof once at 2x2 on recording tables.  A
    proof whose systems read no table a mutant changes builds the very formulas it builds
    for the reference, so its verdict is the reference's (proved): it need not be run."""
    from .matching import MATCHER_PROPERTIES, induct_matcher

    system: dict[str, frozenset[str]] = {}
    matcher: dict[str, frozenset[str]] = {}
    for name in PROVED_NAMES:
        reading = Reading(REFERENCE)
        if name in CONTRACTS:
            check_contract(name, cast(ModelTables, reading))
        else:
            check_induction(cast(ModelTables, reading), name, Bounds(2, 2))
        system[name] = frozenset(reading.read)
        if name in MATCHER_PROPERTIES:
            reading = Reading(REFERENCE)
            induct_matcher(cast(ModelTables, reading), name, Bounds(2, 2))
            matcher[name] = frozenset(reading.read)
    return Reads(system, matcher)


def _listed(row: Callable[..., ProofResult], *args: Any) -> list[ProofResult]:
    return [row(*args)]


def _proof(tables: ModelTables, table: str, reads: Reads, depth: int) -> str:
    """The first property ``prove`` refutes at 2x2 (routing's at the default bound)
    (``name``), ``unknown: name``, or ``-``.

    Only the proofs that read ``table`` are run (``proof_reads``), the diagnostic
    contracts first (one query each), then each property's lifecycle row (induction,
    then bounded model checking to ``depth`` where it breaks), then the matcher rows;
    the first counterexample ends the search."""
    from .inventory import over_matcher

    unknown = None
    rows: list[Callable[[], list[ProofResult]]] = []
    for name in sorted(PROVED_NAMES, key=lambda name: name not in CONTRACTS):
        if table in reads.system[name]:
            # The routing system is small, and R5's ambiguous cells need three or four
            # entries (two at a shared slot, one or two the id names outside it): its
            # proofs run at prove's own bound.
            routing = name in PROPERTIES and PROPERTIES[name].routing
            bound = DEFAULT_BOUND if routing else (2, 2)
            rows.append(partial(prove, name, tables, bound, depth, matcher=False))
    for name, read in reads.matcher.items():
        if table in read:
            rows.append(partial(_listed, over_matcher, name, tables))
    unknowns: list[str] = []
    for run in rows:
        for row in run():
            if row.status is Status.COUNTEREXAMPLE:
                return row.invariant + (" (matcher)" if row.system == "matcher" else "")
            if row.status is Status.UNKNOWN:
                unknown = unknown or row.invariant
                prop = PROPERTIES.get(row.invariant)
                if row.system == "lifecycle" and prop is not None and not prop.routing:
                    unknowns.append(row.invariant)
    # An induction that breaks at 2x2 without a run there may have a run with a third
    # entry (a third binding of a shared slot): prove searches its largest bound too,
    # so the unknowns get a second chance at 3x3.
    for name in unknowns:
        (row,) = prove(name, tables, (3, 3), depth, matcher=False)
        if row.status is Status.COUNTEREXAMPLE:
            return f"{name} (3x3)"
    return f"unknown: {unknown}" if unknown else "-"


def _violated(streams: Sequence[Stream], kernels: KernelSet | None) -> bool:
    """Some stream violates the refinement (a driver that raises does not refine)."""
    for stream in streams:
        try:
            if check_stream(stream.events, kernels):
                return True
        except Exception:  # an edited driver may crash: not a step of the model
            return True
    return False


def _changed(corpus: Corpus, indexes: Sequence[int], kernels: KernelSet) -> list[int]:
    return [i for i in indexes if outcome(corpus.streams[i].events, kernels) != corpus.expected[i]]


def behaviour(mutant: TableMutant, corpus: Corpus) -> tuple[Verdict, list[int]]:
    """Whether the mutant changes a result on the streams reaching its cell (no proof
    run yet), and which streams it changes."""
    started = time.perf_counter()
    indexes = corpus.on(mutant.reached_as)
    changed = _changed(corpus, indexes, load_kernels(mutant.tables))
    verdict = Verdict(
        mutant.tables.name,
        "table",
        mutant.table,
        bool(indexes),
        bool(changed),
        NOT_RUN,
        None,
        time.perf_counter() - started,
        corpus.streams[changed[0]].name if changed else "",
    )
    return verdict, changed


def judge_table(mutant: TableMutant, corpus: Corpus, reads: Reads, depth: int = 5) -> Verdict:
    """The verdict on one table mutant: behaviour on the streams reaching its cell, then
    the proofs, then (if they miss it) the refinement check on the streams it changed."""
    started = time.perf_counter()
    verdict, changed = behaviour(mutant, corpus)
    if not changed:
        return verdict
    proof, refined = _proof(mutant.tables, mutant.table, reads, depth), None
    if proof == "-" or proof.startswith("unknown"):
        kernels = load_kernels(mutant.tables)
        refined = _violated([corpus.streams[i] for i in changed], kernels)
    return replace(verdict, proof=proof, refinement=refined, seconds=time.perf_counter() - started)


def judge_edit(
    edit: DriverEdit, corpus: Corpus, refinable: Collection[int] | None = None
) -> Verdict:
    """The verdict on one driver edit (the proofs do not read the driver: ``n/a``): the
    refinement check runs on a behaviour-changing edit, the streams it changes first,
    only on the ``refinable`` ones (default: all) -- a stream the unedited driver does
    not refine would refute every edit."""
    started = time.perf_counter()
    kernels = load_kernels(REFERENCE)
    everything = range(len(corpus.streams))
    with edit.applied():
        changed = _changed(corpus, everything, kernels)
        # Only a behaviour-changing edit is scored; its changed streams are checked first.
        refuted = None
        if changed:
            order = [*changed, *(i for i in everything if i not in set(changed))]
            kept = [i for i in order if refinable is None or i in refinable]
            refuted = _violated([corpus.streams[i] for i in kept], None)
    return Verdict(
        edit.name,
        "driver",
        edit.module.__name__.rsplit(".", 1)[-1],
        True,
        bool(changed),
        "n/a",
        refuted,
        time.perf_counter() - started,
        corpus.streams[changed[0]].name if changed else "",
    )


Job = Callable[[], Verdict]
"""One mutant's judgement, run in a worker process."""


def _work(job: Job, connection: Any) -> None:
    connection.send(job())
    connection.close()


def run_jobs(
    jobs: Sequence[tuple[Verdict, Job]], workers: int, timeout: float, budget: float = 0
) -> list[Verdict]:
    """Run each job in a forked worker, ``workers`` at a time, and return its verdict; a
    job over ``timeout`` seconds is killed (its placeholder verdict, proof ``timeout``);
    once ``budget`` seconds have passed no new job starts (placeholder, proof
    ``BUDGET``).  With one worker, no timeout and no budget the jobs run in this
    process."""
    if workers <= 1 and timeout <= 0 and budget <= 0:
        return [job() for _, job in jobs]
    context = multiprocessing.get_context("fork")
    started = time.perf_counter()
    verdicts: dict[int, Verdict] = {}
    pending = list(enumerate(jobs))
    running: dict[Any, tuple[int, Any, float]] = {}  # receiving end -> job, process, start
    while pending or running:
        if budget > 0 and time.perf_counter() - started > budget:
            for index, (placeholder, _) in pending:
                verdicts[index] = replace(placeholder, proof=BUDGET)
            pending = []
        while pending and len(running) < max(workers, 1):
            index, (_, job) = pending.pop(0)
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_work, args=(job, send), daemon=True)
            process.start()
            send.close()
            running[receive] = (index, process, time.perf_counter())
        ready: list[Any] = wait(list(running), timeout=1.0) if running else []
        for answered in ready:
            index, process, _ = running.pop(answered)
            try:
                verdicts[index] = answered.recv()
            except EOFError:  # the worker died without an answer
                verdicts[index] = replace(jobs[index][0], proof="crashed")
            process.join()
        now = time.perf_counter()
        for receive, (index, process, begun) in list(running.items()):
            if timeout > 0 and now - begun > timeout:
                process.kill()
                process.join()
                del running[receive]
                verdicts[index] = replace(jobs[index][0], proof="timeout", seconds=now - begun)
    return [verdicts[index] for index in range(len(jobs))]


# -- the report ------------------------------------------------------------------------


def _percent(part: int, whole: int) -> str:
    # Rounded down, to one decimal: 678 of 681 is 99.5 %, never a "100 %" with survivors.
    return f"{(1000 * part // whole) / 10:.1f} %" if whole else "-"


def summary(verdicts: Sequence[Verdict], gaps: Mapping[Cell, str]) -> str:
    """Per table: mutants, reached, behaviour-changing, proofs run, refuted by prove (of
    those run); the survivors; the driver edits; the cells no stream reaches."""
    lines = [
        "| table | mutants | cell reached | change behaviour | proofs run | refuted by prove "
        "| unknown or timeout | survive |",
        "|---|---|---|---|---|---|---|---|",
    ]
    tables = [v for v in verdicts if v.kind == "table"]
    for table in [*TABLES, "all"]:
        mine = [v for v in tables if table in ("all", v.table)]
        if not mine:
            continue
        changing = [v for v in mine if v.changes_behaviour]
        run = [v for v in changing if v.proof_attempted]
        proved = [v for v in run if v.refuted_by_proof]
        open_ = [v for v in run if v.proof == "timeout" or v.proof.startswith("unknown")]
        lines.append(
            f"| {table} | {len(mine)} | {sum(v.reached for v in mine)} | {len(changing)} | "
            f"{len(run)} | {len(proved)} ({_percent(len(proved), len(run))}) | {len(open_)} | "
            f"{len(run) - len(proved)} |"
        )
    survivors = [v for v in tables if v.proof_attempted and not v.refuted_by_proof]
    lines += ["", f"Behaviour-changing table mutants not refuted by prove: {len(survivors)}", ""]
    refinement = {True: "refutes", False: "does not refute", None: "not run"}
    lines += [
        f"- `{v.mutant}`: proof {v.proof}; refinement {refinement[v.refinement]}; "
        f"changes `{v.witness}`"
        for v in survivors
    ]
    edits = [v for v in verdicts if v.kind == "driver"]
    if edits:
        lines += [
            "",
            "| driver edit | module | changes behaviour | refinement | s |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{v.mutant}` | {v.table} | {'yes' if v.changes_behaviour else 'no'} | "
            f"{'refuted' if v.refinement else '-'} | {v.seconds:.1f} |"
            for v in edits
        ]
        changing = [v for v in edits if v.changes_behaviour]
        refuted = sum(1 for v in changing if v.refinement)
        lines += [
            "",
            f"driver edits changing behaviour: {len(changing)}; refuted by the refinement "
            f"check: {refuted} ({_percent(refuted, len(changing))})",
        ]
    proofless = sorted(f"`{k}{list(map(_show, c))}`" for (k, c), why in gaps.items() if not why)
    lines += ["", f"Cells no corpus stream reaches and no proof rules out: {len(proofless)}"]
    if proofless:
        lines.append(", ".join(proofless))
    return "\n".join(lines)


def _matches(name: str, texts: Sequence[str]) -> bool:
    return not texts or any(text in name for text in texts)


def _table_job(mutant: TableMutant, corpus: Corpus, reads: Reads, depth: int) -> Job:
    return lambda: judge_table(mutant, corpus, reads, depth)


def _edit_job(edit: DriverEdit, corpus: Corpus) -> Job:
    return lambda: judge_edit(edit, corpus)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants and print the report."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.mutation",
        description="What refutes each table mutant (prove) and each driver edit (refinement).",
    )
    parser.add_argument("--sample", type=int, default=0, help="table mutants (0: all)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="draw --sample table mutants at random with this seed, none of the named "
        "mutants (an independent sample; without it the sample is spread evenly)",
    )
    parser.add_argument(
        "--exclude",
        type=Path,
        action="append",
        default=[],
        metavar="RECORD",
        help="with --seed: draw none of the mutants of this --json record (repeatable)",
    )
    parser.add_argument(
        "--match",
        action="append",
        default=[],
        metavar="TEXT",
        help="only mutants whose name contains TEXT (repeatable: any of them)",
    )
    parser.add_argument("--generated", type=int, default=100, help="seeded streams per generator")
    parser.add_argument("--per-cell", type=int, default=3, help="corpus streams kept per cell")
    parser.add_argument(
        "--no-witnesses",
        action="store_true",
        help="no bounded model checking: no witness streams, no vacuity reasons",
    )
    parser.add_argument("--no-edits", action="store_true", help="table mutants only")
    parser.add_argument("--no-tables", action="store_true", help="driver edits only")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--depth", type=int, default=5, help="steps bounded model checking searches per proof"
    )
    parser.add_argument("--timeout", type=float, default=0, help="seconds per mutant (0: none)")
    parser.add_argument(
        "--budget",
        type=float,
        default=0,
        help="seconds after which no new proof starts (0: none); the rest is reported unproved",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the verdicts here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    pool = recorded_streams() + edge_streams() + runner_streams()
    if not args.no_witnesses:
        pool += witness_streams()
        pool += matching_witnesses()
    pool += generated_streams(args.generated)
    corpus = build_corpus(pool, args.per_cell)
    gaps = unreachable(corpus, vacuity=not args.no_witnesses)
    print(
        f"corpus: {len(corpus.streams)} of {corpus.pooled} pooled streams, "
        f"{len(corpus.reaching)} cells reached, {len(gaps)} not "
        f"({sum(1 for why in gaps.values() if why)} of them provably unreachable); "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )
    reads = proof_reads()
    # Driver edits first (few, and scored whole); then the behaviour of every table
    # mutant, here; then the proofs of the behaviour-changing ones in a fixed shuffled
    # order, so that a run cut short by --budget has proved an unbiased sample of them.
    jobs: list[tuple[Verdict, Job]] = []
    if not args.no_edits:
        for edit in DRIVER_EDITS:
            if _matches(edit.name, args.match):
                placeholder = Verdict(edit.name, "driver", "", True, True, "n/a", None, 0.0)
                jobs.append((placeholder, _edit_job(edit, corpus)))
    unchanged: list[Verdict] = []
    if not args.no_tables:
        chosen = [m for m in table_mutants() if _matches(m.tables.name, args.match)]
        changing: list[tuple[Verdict, Job]] = []
        if args.seed is not None:
            drawn = frozenset(
                verdict["mutant"]
                for record in args.exclude
                for verdict in json.loads(record.read_text(encoding="utf-8"))["verdicts"]
            )
            chosen = independent(chosen, args.sample, args.seed, drawn)
        for mutant in sample(chosen, 0 if args.seed is not None else args.sample):
            verdict, changed = behaviour(mutant, corpus)
            if changed:
                changing.append((verdict, _table_job(mutant, corpus, reads, args.depth)))
            else:
                unchanged.append(verdict)
        random.Random(16).shuffle(changing)
        jobs += changing
        print(
            f"{len(chosen)} table mutants: {len(changing)} change behaviour; "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
    verdicts = run_jobs(jobs, args.jobs, args.timeout, args.budget) + unchanged
    print(summary(verdicts, gaps))
    elapsed = time.perf_counter() - started
    print(f"\n{len(jobs)} mutants, {len(corpus.streams)} streams; {elapsed:.0f} s")
    if args.json is not None:
        records = [asdict(v) for v in verdicts]
        unreached = [
            {"kernel": k, "cell": [_show(p) for p in c], "why": why} for (k, c), why in gaps.items()
        ]
        args.json.write_text(json.dumps({"verdicts": records, "unreached": unreached}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
