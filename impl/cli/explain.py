"""``responses-oracle explain``: what the reducer did with every event, and why.

For each event: its index and type, the keys it carries (``output_index``, ``item_id``,
the item's ``id``, ``item_id`` (Bedrock Mantle's rename) and ``call_id``), the decision
the reducer took (the R5 route of a payload event, the R6 admission of an item), the
state transition of the entry it touched, and the diagnostics it raised; then the
response's final items and all its diagnostics.  A terminal event touches every entry
at once, so only item-level events (``no_cross_talk``: at most one entry each) name an
entry.

How it works: the reducer runs with ``trace=True`` and the CLI reads its ``StepTrace``s
(one per event the core stepped; events the front end or the reducer rejected before
the core have none).  An entry is named by its position in the final ``items`` array
(``items[2]``), never by its internal admission ordinal: just before a response is
closed the reducer's snapshot gives each entry's slot, and since the output is ordered
by slot, then admission (R10), the n-th entry admitted at a slot is the n-th item with
that ``output_index``.

``--json`` prints JSON Lines for tools: per response, one object per event
``{"kind": "event", "response_index", "index", "type", "keys", "decision", "item",
"before", "after", "diagnostics"}`` (``item`` is the position in the result's
``items``, or null; ``before``/``after`` are entry states, or null), then
``{"kind": "result", "response_index", "result"}`` with the result contract.
``response_index`` counts responses from 0, as the lines of ``reduce`` do.

``--html OUT.html`` draws the same story as a page instead (``responses_oracle.timeline``).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..core.state import Diagnostic
from ..core.step import DEFAULT_LIMITS, ReducerLimits, StepTrace
from ..model.catalogue import ITEM_LEVEL_CLASSES, WIRE_EVENTS
from ..model.responses import MAY_CLOSE
from ..model.rules import RULE_RANGE
from ..model.vocabulary import EntryState
from ..reducer import Reducer
from ..result import Result, diagnostic_json, item_positions
from ..wire.records import WireEvent
from .common import InputSession, Tally, add_input_arguments, command_parser, inputs
from .render import clean, code_text, result_view, stdout_console, write_json

if TYPE_CHECKING:
    from .common import Subparsers

_ITEM_LEVEL: Final = ITEM_LEVEL_CLASSES
"""Event classes that touch at most one entry, whose trace names it."""

_KEY_CHARS: Final = 16
"""Longest key value the table shows whole (GitHub Copilot ids run to 400 characters)."""


@dataclass(frozen=True, slots=True)
class EventRow:
    """One event as ``explain`` shows it."""

    index: int
    type: str | None
    keys: dict[str, Any]
    trace: StepTrace | None
    """None when the event never reached the core (undecodable, not an object, no type)."""


@dataclass(frozen=True, slots=True)
class Explained:
    """One response: its events, its result, and where each entry ended up."""

    rows: list[EventRow]
    result: Result
    positions: dict[int, int]
    """Entry admission ordinal → position of its item in ``result.items``."""

    def item_of(self, row: EventRow) -> int | None:
        """The position of the item ``row``'s event touched, if it touched exactly one."""
        trace = row.trace
        if trace is None or trace.entry is None:
            return None
        spec = WIRE_EVENTS.get(trace.type)
        if spec is None or spec.event_class not in _ITEM_LEVEL:
            return None
        return self.positions.get(trace.entry)

    def diagnostics_by_event(self) -> dict[int | None, list[Diagnostic]]:
        """The response's diagnostics by event index (None: raised at the end of input)."""
        grouped: dict[int | None, list[Diagnostic]] = defaultdict(list)
        for diagnostic in self.result.diagnostics:
            grouped[diagnostic.event_index].append(diagnostic)
        return grouped


def register(subparsers: Subparsers) -> None:
    """Add ``explain`` to the command set."""
    parser = command_parser(
        subparsers,
        "explain",
        description="Reduce the stream and show, for every event, the keys it carries, "
        "the route or admission the reducer took (rules R5, R6), the state transition of "
        "the entry it touched (R8) and the diagnostics it raised; then the final items. "
        "Exit status as for reduce.",
        examples=(
            "explain examples/copilot-rotating-ids.jsonl",
            "explain examples/mantle-missing-id.jsonl --json | jq 'select(.kind == \"event\")'",
            "explain examples/parallel-calls.sse --html parallel-calls.html",
        ),
        run=run,
    )
    add_input_arguments(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help="JSON Lines for tools: one object per event, then one per result",
    )
    parser.add_argument(
        "--html",
        metavar="OUT.html",
        help="write the timeline instead: one self-contained page, a lane per item "
        "coloured by its state, every event and diagnostic clickable",
    )
    parser.add_argument(
        "--rules-url",
        metavar="URL",
        help=f"with --html: link rules to their pages, {{rule}} standing for {RULE_RANGE} "
        "(e.g. 'https://docs.example/rules/{rule}/')",
    )


def run(args: argparse.Namespace) -> int:
    """Explain the input, response by response."""
    if args.html is not None:
        # Imported here: the timeline package builds on this module.
        from ..timeline.command import write_page

        return write_page(args)
    tally = Tally()
    console = None if args.json else stdout_console()
    for session in inputs(args, tally):
        shown = (e for e in explain(session) if session.admit(e.result))
        for number, explained in enumerate(shown):
            tally.add(explained.result)
            session.make_room()
            if console is None:
                for line in json_lines(explained, number):
                    write_json(line)
            else:
                console.print(view(explained, number + 1))
    return tally.exit_status()


def _keys(payload: Mapping[str, Any]) -> dict[str, Any]:
    item = payload.get("item")
    item = item if isinstance(item, Mapping) else {}
    return {
        "output_index": payload.get("output_index"),
        "item_id": payload.get("item_id"),
        "item.id": item.get("id"),
        "item.item_id": item.get("item_id"),
        "call_id": payload["call_id"] if "call_id" in payload else item.get("call_id"),
    }


def explain(session: InputSession) -> Iterator[Explained]:
    """Reduce the session's input with traces on; yield each response as it closes."""
    return explain_events(session.events(), session.limits)


def explain_events(
    events: Iterable[WireEvent], limits: ReducerLimits = DEFAULT_LIMITS
) -> Iterator[Explained]:
    """Reduce ``events`` with traces on; yield each response as it closes.

    What is held is one response's rows: each trace and each result is handed on and
    dropped by the reducer, so memory does not grow with the number of responses.
    """
    reducer = Reducer(limits=limits, trace=True)
    traces = reducer.traces
    assert traces is not None
    rows: list[EventRow] = []
    snapshot = reducer.snapshot()
    for event in events:
        payload = event.payload
        type_ = payload.get("type") if isinstance(payload, dict) else None
        if type_ in MAY_CLOSE:
            snapshot = reducer.snapshot()
        closed = len(reducer.results)
        reducer.feed(event)
        # At most one trace per event: taken out at once, so that the reducer holds none
        # (a long stream's traces would outgrow everything else; ``rows`` keep what is
        # shown, one response at a time).
        trace = traces.pop() if traces else None
        if len(reducer.results) > closed:
            result = reducer.results.pop()
            yield Explained(rows, result, item_positions(snapshot.entries))
            rows = []
        rows.append(_row(event, type_, trace))
    snapshot = reducer.snapshot()
    if reducer.finish():
        yield Explained(rows, reducer.results.pop(), item_positions(snapshot.entries))


def _row(event: WireEvent, type_: Any, trace: StepTrace | None) -> EventRow:
    payload = event.payload if isinstance(event.payload, dict) else {}
    return EventRow(event.index, type_ if isinstance(type_, str) else None, _keys(payload), trace)


def _state(state: EntryState | None) -> str | None:
    return None if state is None else state.value


def json_lines(explained: Explained, number: int) -> Iterator[dict[str, Any]]:
    """The ``--json`` objects of one response: its events, then its result."""
    by_event = explained.diagnostics_by_event()
    for row in explained.rows:
        trace = row.trace
        item = explained.item_of(row)
        yield {
            "kind": "event",
            "response_index": number,
            "index": row.index,
            "type": row.type,
            "keys": row.keys,
            "decision": trace.decision if trace is not None else None,
            "item": item,
            "before": _state(trace.before) if trace is not None and item is not None else None,
            "after": _state(trace.after) if trace is not None and item is not None else None,
            "diagnostics": [diagnostic_json(d) for d in by_event.get(row.index, [])],
        }
    yield {"kind": "result", "response_index": number, "result": explained.result.to_dict()}


def _short(value: Any) -> str:
    text = clean(value if isinstance(value, str) else repr(value))
    return text if len(text) <= _KEY_CHARS else text[: _KEY_CHARS - 1] + "…"


def _event_cell(row: EventRow) -> Text:
    """The event's type (without the ``response.`` prefix) over its keys."""
    name = clean(row.type.removeprefix("response.")) if row.type else "(no type)"
    lines = [Text(name, style="bold")]
    lines += [
        Text.assemble((f"{key}=", "dim"), _short(value))
        for key, value in row.keys.items()
        if value is not None
    ]
    return Text("\n", overflow="fold").join(lines)


def _decision_cell(row: EventRow, item: int | None) -> Text:
    """The decision over the touched item and its state transition."""
    trace = row.trace
    if trace is None:
        return Text("not reduced", style="dim")
    decision = Text(trace.decision)
    if item is None:
        return decision
    move = f"items[{item}]: {_state(trace.before)} -> {_state(trace.after)}"
    return Text("\n").join([decision, Text(move, style="cyan")])


def _codes(diagnostics: list[Diagnostic]) -> Text:
    return Text("\n").join(code_text(d) for d in diagnostics)


def events_table(explained: Explained, number: int) -> Table:
    """The events of one response, one row each."""
    table = Table(
        title=f"events of response {number}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        expand=True,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("event and keys", ratio=1)
    table.add_column("decision\nitem: before -> after", ratio=1)
    table.add_column("diagnostics", no_wrap=True)
    by_event = explained.diagnostics_by_event()
    for row in explained.rows:
        table.add_row(
            str(row.index),
            _event_cell(row),
            _decision_cell(row, explained.item_of(row)),
            _codes(by_event.get(row.index, [])),
        )
    at_end = by_event.get(None)
    if at_end:
        table.add_row("", Text("end of input", style="dim"), "", _codes(at_end))
    return table


def view(explained: Explained, number: int) -> RenderableType:
    """One response for people: its title, events table, items and diagnostics."""
    return result_view(explained.result, number, events=events_table(explained, number))
