"""Single faults: drop, duplicate, reorder, strip a key, retarget a slot, truncate.

A fault is applied to the *next* one or two events of a stream (``apply_fault``) or at
a chosen position of a whole stream (``fault_stream``).  Exactly one fault per stream
is the point: with one fault the reducer's answer can still be judged against the
rules, and a failure shrinks to the fault and the few events it touches.  The
model-guided walk (``walk.py``) adds a seventh kind, ``disabled``: an event whose
trigger the lifecycle table disables for its entry (a late delta, a replayed item).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .choices import Chooser
from .streams import Event, GeneratedStream, clone


class FaultKind(Enum):
    """The kinds of single fault."""

    DROP = "drop"
    DUPLICATE = "duplicate"
    REORDER = "reorder"
    STRIP = "strip"
    RETARGET = "retarget"
    TRUNCATE = "truncate"
    DISABLED = "disabled"


LIST_FAULTS: tuple[FaultKind, ...] = tuple(k for k in FaultKind if k is not FaultKind.DISABLED)
"""The faults that apply to any list of events (``disabled`` needs the walk's model)."""


@dataclass(frozen=True)
class Fault:
    """Which fault, where (event position), and what exactly it did."""

    kind: FaultKind
    position: int
    detail: str

    @property
    def label(self) -> str:
        """A short label: ``fault:strip@7(item_id)``."""
        return f"fault:{self.kind.value}@{self.position}({self.detail})"


def strippable_keys(event: Event) -> list[str]:
    """Key paths a fault may strip: top-level keys but ``type``, and an item's keys."""
    keys = [key for key in event if key != "type"]
    item = event.get("item")
    if isinstance(item, dict):
        keys.extend(f"item.{key}" for key in item if key != "type")
    return keys


def _strip(event: Event, path: str) -> Event:
    stripped: Event = clone(event)
    head, _, rest = path.partition(".")
    if rest:
        stripped[head].pop(rest, None)
    else:
        stripped.pop(head, None)
    return stripped


def apply_fault(
    kind: FaultKind, pending: Sequence[Event], choose: Chooser, slots: Sequence[int] = ()
) -> tuple[list[Event], str]:
    """``pending`` (the next one or two events) after the fault, and what it did.

    ``slots`` are the output indexes the stream uses; a retarget moves the event to
    another of them or to a fresh one.  ``reorder`` needs two events, the rest one;
    with too few, or nothing to strip or retarget, the fault degrades to ``drop``.
    """
    first = pending[0]
    if kind is FaultKind.DUPLICATE:
        return [first, clone(first), *pending[1:]], first.get("type", "?")
    if kind is FaultKind.REORDER and len(pending) > 1:
        return [pending[1], first, *pending[2:]], f"{first.get('type')}<->{pending[1].get('type')}"
    if kind is FaultKind.STRIP and strippable_keys(first):
        path = choose.choice(strippable_keys(first))
        return [_strip(first, path), *pending[1:]], path
    if kind is FaultKind.RETARGET and isinstance(first.get("output_index"), int):
        current = first["output_index"]
        others = [slot for slot in slots if slot != current]
        target = choose.choice([*others, max([current, *slots]) + 1])
        return [{**first, "output_index": target}, *pending[1:]], f"{current}->{target}"
    if kind is FaultKind.TRUNCATE:
        return [], "end of input"
    return list(pending[1:]), first.get("type", "?")


def fault_stream(stream: GeneratedStream, choose: Chooser) -> tuple[GeneratedStream, Fault]:
    """``stream`` with exactly one list fault at a chosen position."""
    events = list(stream.events)
    kind = choose.choice(LIST_FAULTS)
    position = choose.integer(0, len(events) - 1)
    slots = sorted({e["output_index"] for e in events if isinstance(e.get("output_index"), int)})
    width = 2 if kind is FaultKind.REORDER else 1
    changed, detail = apply_fault(kind, events[position : position + width], choose, slots)
    if kind is FaultKind.TRUNCATE:
        del events[position:]
    else:
        events[position : position + width] = changed
    fault = Fault(kind, position, detail)
    return stream.relabel(events, fault.label), fault
