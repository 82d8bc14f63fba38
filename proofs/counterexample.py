"""Counterexample traces → concrete wire event streams, and the regression fixtures.

Theory of operation
-------------------
A ``Trace`` from bounded model checking is a list of abstract steps ``(trigger,
entry, slot)``.  ``render`` turns it into the events a producer would have sent, one
or more wire events per step, every entry a ``function_call`` item:

- entry ``i`` is the item ``{"type": "function_call", "id": "fc_<i>", "call_id":
  "call_<i>", "name": "tool_<i>", ...}``; every event that concerns it carries
  ``item_id`` ``fc_<i>`` and ``output_index`` = the step's slot, so that the driver
  routes (R5) or matches (R6) it to exactly that entry;
- ``ITEM_ADDED`` is ``response.output_item.added`` (arguments ``""``); ``DELTA`` and
  ``DELTA_ON_CLOSED_CHANNEL`` are ``response.function_call_arguments.delta`` (the
  reclassification table, ``model/channels.py``, tells them apart by whether the
  channel was already done: a function_call has one channel);
  ``PAYLOAD_DONE`` is ``response.function_call_arguments.done``; ``ITEM_DONE`` is
  ``response.output_item.done``;
- ``SNAPSHOT_ITEM`` steps are the items of one ``response.completed`` event, in array
  order (the encoding's environment guarantees position = slot), and
  ``RESPONSE_COMPLETED`` closes that event — a trace that stops inside the snapshot
  still gets its ``response.completed``; ``RESPONSE_ABORTED`` is
  ``response.incomplete``.

- ``PROGRESS`` is ``response.mcp_call.in_progress``: a progress event, which the
  driver routes like a payload event whatever the item type.

A run of the routing system (``routing.py``) renders one event per step:
``ADMIT`` is an ``output_item.added`` whose id is ``fc_<token>`` (ids may be shared or
never admitted), ``CLOSE`` an ``output_item.done`` at the entry's slot, ``ROUTE`` a
``function_call_arguments.delta`` carrying only the keys the step has.

Payloads.  When the trace tracks abstract payloads (``Payload``), ``A`` is entry
``i``'s arguments ``{"entry": i}``, ``B`` is ``A`` plus a space (so ``B`` extends
``A``), ``EMPTY`` is ``""`` and ``MISSING`` omits the field.  A delta carries what
makes the joined deltas spell its value: the whole text after an offer or at first,
the missing suffix otherwise.  When the trace does not track payloads they are
honest: an entry's text is ``A``, extended by a space by every later delta; the first
delta (before anything else carried the text) carries ``A`` whole, and every
``*.done``, done item and snapshot item carries the text so far.
So a stream differs from a well-behaved one only in what the trace says.

Names.  When the trace tracks names (``Encoding(identity=True)``), the items of its
``ITEM_ADDED``, ``ITEM_DONE`` and ``SNAPSHOT_ITEM`` steps carry the step's name: ``A``
is ``tool_<i>``, ``B`` is ``tool_<i>_renamed``, ``EMPTY`` is ``""`` and ``MISSING``
omits the field; otherwise every item of entry ``i`` is named ``tool_<i>``.

Predictions.  ``expectations`` cuts the stream into the frames ``render_frames``
makes and writes, after each, what the encoding predicts the reducer shows there
(``Observed``, or ``RoutingObserved`` for a routing run), as text: all a replay needs
besides the stream (``conformance.follow``), so the proof record can replay it later
without the trace.

The fixtures under ``tests/proofs/counterexamples/`` are these streams for every named
mutant, one JSON event per line.  Regenerate them with::

    python -m responses_oracle.proofs.counterexample --write
    python -m responses_oracle.proofs.counterexample --check   # exit 1 if stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from responses_oracle.model.vocabulary import EntryState, SlotState, Trigger

from .encoding import NONEMPTY, Bounds, ConcreteState, ConcreteStep, Payload
from .induction import Run, bmc, close_snapshot
from .matching import MATCHER_DEPTH, ConcreteMatchStep, check_matcher, render_run
from .mutants import TRACED, Mutant
from .routing_z3 import ConcreteRoutingState, ConcreteRoutingStep, RoutingKind

Event = dict[str, Any]
"""One wire event as a JSON object."""

RESPONSE_ID = "resp_counterexample"
"""The response id of every rendered stream."""

FIXTURE_BOUNDS = Bounds(entries=2, slots=2)
"""The bounds at which the fixture counterexamples are searched."""

FIXTURE_DEPTH = 8
"""The depth to which the fixture counterexamples are searched."""

WRITE_COMMAND = "python -m responses_oracle.proofs.counterexample --write"
"""The command that regenerates the fixture streams."""


def arguments_of(entry: int) -> str:
    """The arguments an honest producer streams for entry ``entry`` (the value ``A``)."""
    return json.dumps({"entry": entry})


def payload_text(entry: int, value: Payload) -> str | None:
    """The concrete text of an abstract payload value of entry ``entry``."""
    texts = {
        Payload.MISSING: None,
        Payload.EMPTY: "",
        Payload.A: arguments_of(entry),
        Payload.B: arguments_of(entry) + " ",
    }
    return texts[value]


def name_text(entry: int, value: Payload) -> str | None:
    """The concrete name of an abstract name of entry ``entry``."""
    texts = {
        Payload.MISSING: None,
        Payload.EMPTY: "",
        Payload.A: f"tool_{entry}",
        Payload.B: f"tool_{entry}_renamed",
    }
    return texts[value]


def _item(
    entry: int,
    arguments: str | None,
    status: str,
    token: int | None = None,
    name: Payload = Payload.A,
) -> Event:
    item: Event = {
        "type": "function_call",
        "id": f"fc_{entry if token is None else token}",
        "call_id": f"call_{entry}",
        "name": name_text(entry, name),
        "arguments": arguments,
        "status": status,
    }
    # A missing value is an absent field, never a null.
    return {key: value for key, value in item.items() if value is not None}


def _response(status: str, output: list[Event] | None = None) -> Event:
    response: Event = {"id": RESPONSE_ID, "object": "response", "status": status}
    if output is not None:
        response["output"] = output
    return response


@dataclass(frozen=True)
class Frame:
    """Events that carry out whole steps: after them the reducer should be in the
    trace's state ``states[steps]``.  ``steps`` is None for the ``response.completed``
    that closes a trace ending inside the snapshot (no trace state follows it)."""

    steps: int | None
    events: tuple[Event, ...]


class _Renderer:
    """Renders steps in order; holds the deltas sent and the pending snapshot."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.frames: list[Frame] = []
        self.texts: dict[int, str] = {}
        self.snapshot: list[Event] | None = None
        self.emit({"type": "response.created", "response": _response("in_progress", [])})

    def value(self, step: ConcreteStep) -> str | None:
        """The payload an item or ``*.done`` of this step carries."""
        if step.value is None:
            text = self.texts.setdefault(step.entry, arguments_of(step.entry))
            return text
        return payload_text(step.entry, step.value)

    def name(self, step: ConcreteStep) -> Payload:
        """The abstract name the item of this step carries (``A`` when untracked)."""
        return Payload.A if step.name is None else step.name

    def delta(self, step: ConcreteStep, before: ConcreteState) -> str:
        """The delta text of this step."""
        if step.value is None:
            text = self.texts.get(step.entry, "")
            chunk = " " if text else arguments_of(step.entry)
            self.texts[step.entry] = text + chunk
            return chunk
        target = payload_text(step.entry, step.value) or ""
        pending = before.pending[step.entry]
        joined = payload_text(step.entry, pending) if pending in NONEMPTY else ""
        return target[len(joined) :] if joined and target.startswith(joined) else target

    def emit(self, event: Event) -> None:
        self.events.append({**event, "sequence_number": len(self.events)})

    def cut(self, steps: int | None) -> None:
        done = sum(len(frame.events) for frame in self.frames)
        self.frames.append(Frame(steps, tuple(self.events[done:])))

    def scoped(self, type_: str, step: ConcreteStep, **fields: Any) -> Event:
        event = {"type": type_, "item_id": f"fc_{step.entry}", "output_index": step.slot}
        return {**event, **{k: v for k, v in fields.items() if v is not None}}

    def step(self, step: ConcreteStep, before: ConcreteState) -> None:
        # The stream holds the wire event; the trigger its entry receives is the
        # reducer's own reclassification of it (model.channels).
        trigger, entry = step.event or step.trigger, step.entry
        if self.snapshot is not None and trigger is not Trigger.SNAPSHOT_ITEM:
            self.close_snapshot()
            if trigger is Trigger.RESPONSE_COMPLETED:
                return
        if trigger is Trigger.ITEM_ADDED:
            self.emit(
                {
                    "type": "response.output_item.added",
                    "output_index": step.slot,
                    "item": _item(entry, "", "in_progress", name=self.name(step)),
                }
            )
        elif trigger in (Trigger.DELTA, Trigger.DELTA_ON_CLOSED_CHANNEL):
            delta = self.delta(step, before)
            self.emit(self.scoped("response.function_call_arguments.delta", step, delta=delta))
        elif trigger is Trigger.PAYLOAD_DONE:
            self.emit(
                self.scoped(
                    "response.function_call_arguments.done", step, arguments=self.value(step)
                )
            )
        elif trigger is Trigger.PROGRESS:
            self.emit(self.scoped("response.mcp_call.in_progress", step))
        elif trigger is Trigger.ITEM_DONE:
            self.emit(
                {
                    "type": "response.output_item.done",
                    "output_index": step.slot,
                    "item": _item(entry, self.value(step), "completed", name=self.name(step)),
                }
            )
        elif trigger is Trigger.SNAPSHOT_ITEM:
            if self.snapshot is None:
                self.snapshot = []
            self.snapshot.append(_item(entry, self.value(step), "completed", name=self.name(step)))
        elif trigger is Trigger.RESPONSE_COMPLETED:
            self.snapshot = []
            self.close_snapshot()
        elif trigger is Trigger.RESPONSE_ABORTED:
            response = _response("incomplete")
            response["incomplete_details"] = {"reason": "max_output_tokens"}
            self.emit({"type": "response.incomplete", "response": response})
        else:
            raise ValueError(f"{trigger} has no function_call rendering (not renderable)")

    def close_snapshot(self) -> None:
        self.emit({"type": "response.completed", "response": _response("completed", self.snapshot)})
        self.snapshot = None


def _routing_event(step: ConcreteRoutingStep, before: ConcreteRoutingState) -> Event:
    """The one event of a routing step.  Ids are ``fc_<token>``, so that several
    entries can share one and an id can be one no entry has."""
    entry = step.entry
    if step.kind is RoutingKind.ADMIT:
        item = _item(entry, "", "in_progress", step.token)
        return {"type": "response.output_item.added", "output_index": step.slot, "item": item}
    if step.kind is RoutingKind.CLOSE:
        item = _item(entry, arguments_of(entry), "completed", before.first_token[entry])
        slot = before.entry_slot[entry]
        return {"type": "response.output_item.done", "output_index": slot, "item": item}
    event: Event = {"type": "response.function_call_arguments.delta", "delta": " "}
    if step.slot is not None:
        event["output_index"] = step.slot
    if step.token is not None:
        event["item_id"] = f"fc_{step.token}"
    return event


def render_frames(trace: Run[Any, Any]) -> list[Frame]:
    """The wire events of a run (of the lifecycle encoding or of the routing system),
    cut where a state of the run can be compared."""
    renderer = _Renderer()
    renderer.cut(0)
    for number, step in enumerate(trace.steps, start=1):
        before = trace.states[number - 1]
        if isinstance(step, ConcreteRoutingStep):
            renderer.emit(_routing_event(step, before))
        else:
            renderer.step(step, before)
        if renderer.snapshot is None:
            renderer.cut(number)
    if renderer.snapshot is not None:
        renderer.close_snapshot()
        renderer.cut(None)
    return renderer.frames


def render(trace: Run[Any, Any]) -> list[Event]:
    """The wire events of a trace, numbered by ``sequence_number`` (a matcher run is
    rendered by ``matching.render_run``)."""
    if trace.steps and isinstance(trace.steps[0], ConcreteMatchStep):
        return render_run(trace)
    return [event for frame in render_frames(trace) for event in frame.events]


# -- what the encoding predicts of a trace's stream, frame by frame ------------------


@dataclass(frozen=True)
class Observed:
    """The part of a reducer snapshot the encoding predicts, in the encoding's terms."""

    entry_state: tuple[EntryState, ...]
    completions: tuple[int, ...]
    entry_slot: tuple[int | None, ...]
    slot_state: tuple[SlotState, ...]
    terminal: bool
    payloads: tuple[tuple[Payload, Payload], ...] | None
    names: tuple[Payload, ...] | None = None


def predicted(state: ConcreteState, payloads: bool = False, names: bool = False) -> Observed:
    """What the encoding says ``observe`` must show in ``state``."""
    admitted = [entry is not EntryState.ABSENT for entry in state.entry_state]
    return Observed(
        entry_state=state.entry_state,
        completions=state.completions,
        entry_slot=tuple(
            slot if is_admitted else None
            for slot, is_admitted in zip(state.entry_slot, admitted, strict=True)
        ),
        slot_state=state.slot_state,
        terminal=state.terminal,
        payloads=tuple(
            _predicted_payload(held, pending, last)
            for held, pending, last in zip(
                state.held, state.pending, state.last_offered, strict=True
            )
        )
        if payloads
        else None,
        names=state.name if names else None,
    )


def _predicted_payload(held: Payload, pending: Payload, last: Payload) -> tuple[Payload, Payload]:
    """The final value and last offer, as ``properties.final_value`` and
    ``properties.last_offer`` define them over the abstract channel."""
    missing = Payload.MISSING
    final = pending if pending is not missing and held is missing else held
    return final, pending if pending is not missing else last


@dataclass(frozen=True)
class RoutingObserved:
    """What the routing system predicts: admitted and closed entries, slot states,
    and the entry the last event was delivered to (None if it was not)."""

    admitted: tuple[bool, ...]
    closed: tuple[bool, ...]
    slot_state: tuple[SlotState, ...]
    delivered: int | None


def _routing_predicted(state: ConcreteRoutingState, routed: bool) -> RoutingObserved:
    return RoutingObserved(
        state.admitted,
        state.closed,
        state.slot_state,
        state.target if routed and state.target >= 0 else None,
    )


@dataclass(frozen=True)
class FrameExpectation:
    """One frame of a rendered trace: how many events it holds, the trace step it ends
    at (None: inside the snapshot, not compared), and the observation the encoding
    predicts there, as text (``Observed`` or ``RoutingObserved``)."""

    events: int
    steps: int | None
    expected: str | None
    routed: bool | None = None
    """Routing frames: whether the frame's step delivered an event (None: an entry frame)."""


@dataclass(frozen=True)
class Expectations:
    """What the encoding predicts after every frame of a trace's stream: enough to
    replay the stream later without the trace (``follow``)."""

    bounds: Bounds
    payloads: bool
    names: bool
    frames: tuple[FrameExpectation, ...]

    def to_json(self) -> dict[str, Any]:
        """As the proof record writes it."""
        return {
            "bounds": [self.bounds.entries, self.bounds.slots],
            "payloads": self.payloads,
            "names": self.names,
            "frames": [[f.events, f.steps, f.expected, f.routed] for f in self.frames],
        }

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Expectations:
        """Read what ``to_json`` wrote."""
        entries, slots = document["bounds"]
        return cls(
            Bounds(entries, slots),
            document["payloads"],
            document["names"],
            tuple(FrameExpectation(*frame) for frame in document["frames"]),
        )


def expectations(trace: Run[Any, Any]) -> tuple[list[Event], Expectations]:
    """``trace``'s stream and, after each of its frames, what the encoding predicts."""
    payloads = any(getattr(step, "value", None) is not None for step in trace.steps)
    names = any(getattr(step, "name", None) is not None for step in trace.steps)
    events: list[Event] = []
    frames: list[FrameExpectation] = []
    for frame in render_frames(trace):
        events += frame.events
        if frame.steps is None:
            frames.append(FrameExpectation(len(frame.events), None, None))
            continue
        state = trace.states[frame.steps]
        if isinstance(state, ConcreteRoutingState):
            routed = frame.steps > 0 and trace.steps[frame.steps - 1].kind is RoutingKind.ROUTE
            expected = str(_routing_predicted(state, routed))
            frames.append(FrameExpectation(len(frame.events), frame.steps, expected, routed))
        else:
            expected = str(predicted(state, payloads, names))
            frames.append(FrameExpectation(len(frame.events), frame.steps, expected))
    return events, Expectations(trace.bounds, payloads, names, tuple(frames))


def counterexample_trace(mutant: Mutant) -> Run[Any, Any]:
    """The shortest renderable run on which ``mutant`` breaks its invariant (a trace
    that stops inside the snapshot is closed by its ``RESPONSE_COMPLETED``)."""
    if mutant.system == "matcher":
        found = check_matcher(
            mutant.tables, mutant.breaks, FIXTURE_BOUNDS, MATCHER_DEPTH, renderable=True
        )
        if found.run is None:
            raise LookupError(f"no counterexample for {mutant.tables.name}")
        return found.run
    result = bmc(mutant.tables, mutant.breaks, FIXTURE_BOUNDS, FIXTURE_DEPTH)
    if result.trace is None:
        raise LookupError(f"no counterexample for {mutant.tables.name} up to depth {FIXTURE_DEPTH}")
    return close_snapshot(result.trace, mutant.tables)


def to_jsonl(events: Iterable[Event]) -> str:
    """One JSON event per line."""
    return "".join(json.dumps(event) + "\n" for event in events)


def fixture_dir() -> Path:
    """Where the fixture streams live in the source tree (links resolved)."""
    return Path(__file__).resolve().parents[1] / "tests" / "proofs" / "counterexamples"


def fixture_path(mutant: Mutant, directory: Path | None = None) -> Path:
    """The fixture file of ``mutant``."""
    return (directory or fixture_dir()) / f"{mutant.tables.name}.jsonl"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) the counterexample stream of every mutant."""
    parser = argparse.ArgumentParser(
        prog="python -m responses_oracle.proofs.counterexample",
        description="Render every mutant's counterexample as a JSONL regression fixture.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="write the fixture files")
    action.add_argument("--check", action="store_true", help="exit 1 if a fixture is stale")
    parser.add_argument("--dir", type=Path, default=None, help="fixture directory")
    args = parser.parse_args(argv)
    stale = 0
    for mutant in TRACED:
        path = fixture_path(mutant, args.dir)
        text = to_jsonl(render(counterexample_trace(mutant)))
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if args.check:
            if current != text:
                print(f"{path} is stale: run {WRITE_COMMAND}", file=sys.stderr)
                stale += 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
