"""A second, independent oracle: the state tables run by a real ``transitions.Machine``.

Theory of operation
-------------------
The generated kernels (``codegen.py``) and the dict-lookup interpreter
(``interpreter.py``) both read a table cell directly.  This module does not: it feeds
the lifecycle and slot tables to ``transitions`` as ordinary state machines — the
states are the enum members' names, and every table row becomes one transition
``{trigger, source, dest}`` whose ``after`` callbacks append the row's labels (the
effects, or the slot's diagnostic code) to a list on the model object.  A kernel call
puts the model into the given state (``set_state``, which runs no callbacks), fires the
trigger, and reads back the state the machine moved to and the labels its own dispatch
recorded.  A table the machine cannot represent faithfully, or a dispatch that picks the
wrong row, therefore shows up as a difference from the generated kernels.

Only the two real state machines are run this way.  Routing, admission and payload are
stateless decision tables (no state is carried from one decision to the next), so
``machine_kernels`` takes those four kernels from ``interpreter.table_kernels``.

``transitions`` is an optional dependency (extras ``model`` and ``test``); it is
imported inside the functions that need it.  The kernels built here share one mutable
model object per machine: they are a test oracle, not for concurrent use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, NamedTuple

from .interpreter import table_kernels
from .lifecycle import LifecycleTable, Transition
from .slots import SlotTable, SlotTransition
from .tables import REFERENCE, KernelSet, ModelTables
from .vocabulary import Code, Effect, EntryState, SlotState, SlotTrigger, Trigger


class Edge(NamedTuple):
    """One table row as a machine transition: source, trigger, dest and its labels."""

    source: Enum
    trigger: Enum
    dest: Enum
    labels: tuple[Enum, ...]


def lifecycle_edges(table: LifecycleTable) -> list[Edge]:
    """Every row of a lifecycle table, in table order; the labels are the effects."""
    return [
        Edge(state, trigger, cell.next_state, cell.effects)
        for state, row in table.items()
        for trigger, cell in row.items()
    ]


def slot_edges(table: SlotTable) -> list[Edge]:
    """Every row of a slot table, in table order; the label is the diagnostic, if any."""
    return [
        Edge(state, trigger, cell.next_state, () if cell.code is None else (cell.code,))
        for state, row in table.items()
        for trigger, cell in row.items()
    ]


def _recorder(label: str) -> Callable[[Any], None]:
    """An ``after`` callback that records ``label`` on the model the event was fired on."""

    def record(event: Any) -> None:
        event.model.labels.append(label)

    return record


def machine_config(edges: Iterable[Edge], initial: Enum) -> dict[str, Any]:
    """Keyword arguments for a ``transitions`` machine with one transition per edge.

    The states are all members of ``initial``'s enum, by name, so a state no row enters
    is still a state of the machine.  ``send_event`` hands the callbacks the event, from
    which they reach the model.
    """
    return {
        "states": [member.name for member in type(initial)],
        "initial": initial.name,
        "transitions": [
            {
                "trigger": edge.trigger.name,
                "source": edge.source.name,
                "dest": edge.dest.name,
                "after": [_recorder(label.name) for label in edge.labels],
            }
            for edge in edges
        ],
        "auto_transitions": False,
        "send_event": True,
    }


class _Recorder:
    """The model object: ``state`` is written by the machine, ``labels`` by the callbacks."""

    def __init__(self) -> None:
        self.state = ""
        self.labels: list[str] = []


def _runner(edges: list[Edge], initial: Enum) -> Callable[[Enum, Enum], tuple[str, list[str]]]:
    """Build one machine for ``edges`` and return a function that fires one trigger on it."""
    from transitions import Machine

    model = _Recorder()
    machine = Machine(model=model, **machine_config(edges, initial))

    def fire(state: Enum, trigger: Enum) -> tuple[str, list[str]]:
        machine.set_state(state.name, model=model)
        model.labels.clear()
        machine.events[trigger.name].trigger(model)
        return model.state, list(model.labels)

    return fire


def machine_kernels(tables: ModelTables = REFERENCE) -> KernelSet:
    """Kernels whose ``lifecycle`` and ``slot`` decisions are made by ``transitions`` machines.

    One machine per state table is built per call, not per event.  The other eight kernels
    (``route``, ``namespace``, ``admit_added``, ``fit``, ``admit_done``, ``payload``,
    ``identity``, ``reclassify``) are
    stateless decision tables and come from ``interpreter.table_kernels``.  A (state, trigger)
    pair with no row makes the machine raise ``transitions.MachineError``.
    """
    fire_lifecycle = _runner(lifecycle_edges(tables.lifecycle), EntryState.ABSENT)
    fire_slot = _runner(slot_edges(tables.slots), SlotState.FREE)

    def lifecycle(state: EntryState, trigger: Trigger) -> Transition:
        """The lifecycle row the machine dispatched to."""
        next_state, labels = fire_lifecycle(state, trigger)
        return Transition(EntryState[next_state], tuple(Effect[label] for label in labels))

    def slot(state: SlotState, trigger: SlotTrigger) -> SlotTransition:
        """The slot row the machine dispatched to."""
        next_state, labels = fire_slot(state, trigger)
        return SlotTransition(SlotState[next_state], _recorded_code(labels))

    return table_kernels(tables)._replace(lifecycle=lifecycle, slot=slot)


def _recorded_code(labels: list[str]) -> Code | None:
    """The one diagnostic a slot transition recorded, or None; more than one is a bug."""
    if not labels:
        return None
    (label,) = labels
    return Code[label]
