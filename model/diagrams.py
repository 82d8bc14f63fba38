"""The docs generator: model tables → Markdown pages with diagrams (``docs/model/``).

Each page opens with its table module's docstring (the theory of operation, as prose),
then shows the table.  The two state machines — the entry lifecycle and the slots —
also get a Mermaid ``stateDiagram-v2`` drawn by ``transitions``' ``GraphMachine`` from
the same edges ``machine.py`` runs, so the picture cannot drift from the model either.
The three stateless decision tables are shown as tables: routing and payload as grids
(first key down, second key across), admission as two lists.

States, triggers, effects and actions are written by their enum names, as in the
kernels; diagnostic codes by their values, as in the result contract.  Output is
deterministic: tables are walked in their own order and nothing depends on time.

Regenerate with::

    python -m responses_oracle.model.diagrams          # writes docs/model/*.md
    python -m responses_oracle.model.diagrams --check  # exit 1 if a page is stale

``transitions`` is an optional dependency (extras ``model`` and ``test``).
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import re
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import NamedTuple, TypeVar

from . import admission, channels, lifecycle, payload, routing, slots
from .machine import Edge, lifecycle_edges, machine_config, slot_edges
from .tables import REFERENCE, ModelTables
from .vocabulary import (
    CHANNEL_TRIGGERS,
    CODES,
    NOTE_CODES,
    NOTE_EFFECTS,
    ChannelState,
    Code,
    CodeSpec,
    EntryState,
    SlotFit,
    SlotState,
)

REGENERATE_COMMAND = "python -m responses_oracle.model.diagrams"
"""The command that regenerates the pages; written into each page's header."""

_Row = TypeVar("_Row", bound=Enum)
_Column = TypeVar("_Column", bound=Enum)

_HEADER = """\
<!-- GENERATED FILE — DO NOT EDIT.
     Generated from the tables of model "{name}" by `{command}`.
     Change a table in model/ and rerun that command; a test fails when this page is stale. -->
"""


def docs_dir() -> Path:
    """Where the generated pages live in the source tree (links resolved)."""
    spec = importlib.util.find_spec("responses_oracle.model")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent.parent / "docs" / "model"


def _prose(module: types.ModuleType | type) -> list[str]:
    """A docstring as Markdown: reST's ``literal`` becomes a code span."""
    text = inspect.cleandoc(module.__doc__ or "")
    return re.sub(r"``(.+?)``", r"`\1`", text).splitlines()


def _code(value: Enum | None) -> str:
    """One enum member as a code span: a diagnostic by its value, others by name."""
    if value is None:
        return "—"
    return f"`{value.value}`" if isinstance(value, Code) else f"`{value.name}`"


def _codes(values: Sequence[Enum]) -> str:
    """A sequence of members, in order; an empty one is a dash."""
    return ", ".join(_code(value) for value in values) or "—"


def _decision(decision: tuple[Enum, Code | None]) -> str:
    """An (action, diagnostic) decision as one grid cell."""
    action, code = decision
    return _code(action) if code is None else f"{_code(action)} ({_code(code)})"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A Markdown table."""
    lines = [f"| {' | '.join(header)} |", f"|{'---|' * len(header)}"]
    lines.extend(f"| {' | '.join(row)} |" for row in rows)
    return lines


def _grid(
    corner: str, table: Mapping[_Row, Mapping[_Column, tuple[Enum, Code | None]]]
) -> list[str]:
    """A two-key decision table as a grid: first key down, second key across."""
    columns = list(next(iter(table.values())))
    return _table(
        [corner, *(_code(column) for column in columns)],
        (
            [_code(key), *(_decision(row[column]) for column in columns)]
            for key, row in table.items()
        ),
    )


def _mermaid(title: str, edges: Iterable[Edge], initial: Enum) -> list[str]:
    """A Mermaid state diagram of ``edges`` drawn by ``transitions``' GraphMachine."""
    from transitions.extensions import GraphMachine

    # transitions writes the title verbatim between Mermaid's front-matter fences,
    # which Mermaid parses as YAML: it must be a ``title:`` key to be shown.
    machine = GraphMachine(
        graph_engine="mermaid", title=f"title: {title}", **machine_config(edges, initial)
    )
    source: str = machine.get_graph().draw(None)
    return ["```mermaid", *(line.rstrip() for line in source.splitlines()), "```"]


def _is_quiet_loop(edge: Edge) -> bool:
    """A self-loop that changes nothing but may note a diagnostic (late, duplicate, …)."""
    return edge.source is edge.dest and all(label in NOTE_EFFECTS for label in edge.labels)


def _lifecycle_body(tables: ModelTables) -> list[str]:
    edges = lifecycle_edges(tables.lifecycle)
    return [
        "## Diagram",
        "",
        *_mermaid(
            "Entry lifecycle",
            (edge for edge in edges if not _is_quiet_loop(edge)),
            EntryState.ABSENT,
        ),
        "",
        "Self-loops that change nothing but may note a diagnostic (late, duplicate, "
        "orphan and unconfirmed events, and rows without effects) are left out of the "
        "diagram for readability; the table below lists every row.  The highlighted "
        "state is the initial one.",
        "",
        "## Table",
        "",
        "Effects are listed in the order the driver applies them.",
        "",
        *_table(
            ["state", "trigger", "next state", "effects"],
            (
                [_code(edge.source), _code(edge.trigger), _code(edge.dest), _codes(edge.labels)]
                for edge in edges
            ),
        ),
    ]


def _slots_body(tables: ModelTables) -> list[str]:
    edges = slot_edges(tables.slots)
    return [
        "## Diagram",
        "",
        *_mermaid("Slots", edges, SlotState.FREE),
        "",
        "The highlighted state is the initial one.",
        "",
        "## Table",
        "",
        *_table(
            ["state", "trigger", "next state", "diagnostic"],
            (
                [_code(edge.source), _code(edge.trigger), _code(edge.dest), _codes(edge.labels)]
                for edge in edges
            ),
        ),
    ]


def _routing_body(tables: ModelTables) -> list[str]:
    return [
        "## Table",
        "",
        "Rows: the event's slot view; columns: its id view; cell: the action "
        "(and the diagnostic it raises).",
        "",
        *_grid("slot view / id view", tables.routing),
    ]


def _admission_body(tables: ModelTables) -> list[str]:
    header = ["view", "action", "diagnostic"]
    slot_fits = list(SlotFit)
    return [
        "## `output_item.added`",
        "",
        *_table(
            header,
            ([_code(view), *map(_code, cell[:2])] for view, cell in tables.added_admission.items()),
        ),
        "",
        "## `call_id` namespaces",
        "",
        *_table(
            ["item kind", "namespace"],
            ([_code(kind), _code(space)] for kind, space in tables.namespaces.items()),
        ),
        "",
        "## Matching: does a done or snapshot item fit a proposed entry",
        "",
        *_matching_flow(tables),
        "",
        "Each key (the slot's binding, the `call_id`'s holder, the entry the id names)",
        "proposes an entry; a row is the proposed entry's type, `call_id` and id fit, a",
        "column how the slot reached it.  `none` means: not this entry.",
        "",
        *_table(
            ["type", "call_id", "id", *(_code(fit) for fit in slot_fits)],
            (
                [_code(t), _code(c), _code(i), *(_code(row[s]) for s in slot_fits)]
                for t, by_call in tables.matching.items()
                for c, by_id in by_call.items()
                for i, row in by_id.items()
            ),
        ),
        "",
        "## `output_item.done` and snapshot items",
        "",
        *_table(
            [*header, "identity merged at"],
            ([_code(view), *map(_code, cell)] for view, cell in tables.done_admission.items()),
        ),
        "",
        "## Identity fields of a merged item (`call_id`, `name`, `namespace`)",
        "",
        *_table(
            ["field", "stage", "relation to the entry's value", "action", "diagnostic"],
            (
                [_code(field), _code(stage), _code(relation), *map(_code, cell)]
                for field, stages in tables.identity.items()
                for stage, row in stages.items()
                for relation, cell in row.items()
            ),
        ),
    ]


def _matching_flow(tables: ModelTables) -> list[str]:
    """The matcher as a flowchart: keys propose, the matching table fits, the done
    admission table acts (one edge per view, with its action, code and merge stage)."""
    lines = [
        "```mermaid",
        "flowchart LR",
        '    item["done or snapshot item"] --> slot["entry bound alone at its slot"]',
        '    item --> holder["entry holding its call_id (its kind\'s namespace)"]',
        '    item --> named["entry its id names uniquely"]',
        '    slot --> fit{"MATCHING: does the item fit?"}',
        "    holder --> fit",
        "    named --> fit",
    ]
    for view, (action, code, stage) in tables.done_admission.items():
        label = view.value if code is None else f"{view.value} ({code.value})"
        node = f"{view.name}_{action.name}"
        lines.append(f'    fit -->|"{label}"| {node}["{action.value}, merged {stage.value}"]')
    return [*lines, "```"]


def _payload_body(tables: ModelTables) -> list[str]:
    return [
        "## Table",
        "",
        "Rows: what the channel holds; columns: how the new offer relates to it; "
        "cell: keep or take (and the diagnostic it raises).",
        "",
        *_grid("held / offer", tables.payload),
        "",
        "## Reclassification of channel events (`model/channels.py`)",
        "",
        *_prose(channels)[3:],
        "",
        "Rows: the trigger of an event that names a channel; columns: the state of that "
        "channel; cell: the trigger its entry receives (the rows of the other triggers "
        "are the identity).",
        "",
        *_table(
            ["trigger / channel", *(_code(state) for state in ChannelState)],
            (
                [
                    _code(trigger),
                    *(_code(tables.reclassification[trigger][state]) for state in ChannelState),
                ]
                for trigger in CHANNEL_TRIGGERS
            ),
        ),
    ]


def _codes_body(tables: ModelTables) -> list[str]:
    """The code table (``vocabulary.CODES``), then the code of each note effect."""
    del tables  # the codes are one table for every model
    rule = "../rules/{0}.md"
    return [
        "## Every code",
        "",
        *_table(
            ["code", "severity", "rule", "meaning"],
            (
                [
                    _code(code),
                    f"`{spec.severity.value}`",
                    f"[{spec.rule}]({rule.format(spec.rule)})",
                    spec.meaning,
                ]
                for code, spec in CODES.items()
            ),
        ),
        "",
        "## The code of each note effect",
        "",
        *_table(
            ["effect", "code"],
            ([_code(effect), _code(code)] for effect, code in NOTE_CODES.items()),
        ),
    ]


class _Page(NamedTuple):
    """One generated page: file name, title, the module whose docstring opens it, body."""

    filename: str
    title: str
    module: types.ModuleType | type
    """The table's module, or the record class of a table that shares its module."""
    body: Callable[[ModelTables], list[str]]


_PAGES: tuple[_Page, ...] = (
    _Page("lifecycle.md", "Entry lifecycle (R8)", lifecycle, _lifecycle_body),
    _Page("slots.md", "Slots (R3)", slots, _slots_body),
    _Page("routing.md", "Routing (R5)", routing, _routing_body),
    _Page("admission.md", "Admission (R6)", admission, _admission_body),
    _Page("payload.md", "Payload (R7)", payload, _payload_body),
    _Page("codes.md", "Diagnostic codes", CodeSpec, _codes_body),
)


def render_pages(tables: ModelTables = REFERENCE) -> dict[str, str]:
    """The generated pages for ``tables``: file name → Markdown text."""
    header = _HEADER.format(name=tables.name, command=REGENERATE_COMMAND)
    return {
        page.filename: "\n".join(
            [header, f"# {page.title}", "", *_prose(page.module), "", *page.body(tables), ""]
        )
        for page in _PAGES
    }


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) the generated pages in ``docs/model/``."""
    parser = argparse.ArgumentParser(
        prog=REGENERATE_COMMAND,
        description="Regenerate docs/model/*.md from the model tables.",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is stale")
    args = parser.parse_args(argv)
    directory = docs_dir()
    pages = render_pages()
    if args.check:
        stale = [
            name
            for name, text in pages.items()
            if not (directory / name).exists()
            or (directory / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"{directory / name} is stale: run {REGENERATE_COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (directory / name).write_text(text, encoding="utf-8")
        print(f"wrote {directory / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
