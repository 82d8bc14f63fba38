"""What the commands print for people: ``rich`` renderings of results and diagnostics.

Theory of operation
-------------------
Machine output (JSON, one value a line) lives in ``common`` (``write_json``), so that a
command printing JSON never imports ``rich``; ``clean``, ``json_text`` and
``write_json`` are re-exported here for the commands that print both.

Human output is built from ``rich`` renderables: a title rule per response, the output
items as a table (the wire-shaped item as indented JSON beside how the reducer arrived
at it) and the diagnostics as a table coloured by severity.  Every string taken from
the input is wrapped in ``Text`` so that rich never reads it as markup.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from rich.console import Console, Group, RenderableType
from rich.json import JSON
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..core.state import Diagnostic
from ..model.vocabulary import SEVERITY, Severity
from ..result import Result
from .common import clean as clean
from .common import encodable
from .common import json_text as json_text
from .common import write_json as write_json

SEVERITY_STYLE: Final[dict[Severity, str]] = {
    Severity.ERROR: "bold red",
    Severity.WARNING: "yellow",
    Severity.INFO: "cyan",
}
"""How each severity is coloured in tables and summaries."""

STATUS_STYLE: Final[dict[bool, str]] = {True: "bold green", False: "bold red"}
"""A response is green when ``Result.ok`` and red when it carries an error."""


def json_view(value: Any) -> Text:
    """``value`` as syntax-highlighted, indented JSON, long strings folded, never cut."""
    text = json.dumps(value, ensure_ascii=False)
    view = JSON(text, indent=2, ensure_ascii=not encodable(text)).text
    # rich renders JSON unwrapped and cropped; a cropped payload would hide the answer.
    view.no_wrap, view.overflow = False, "fold"
    return view


class _StdoutConsole(Console):
    """A console that reports a closed pipe as every command does (``main``: exit 141,
    quietly), where rich's own handler would exit with status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def stdout_console() -> Console:
    """A console on the current stdout (coloured only when it is a terminal)."""
    return _StdoutConsole(file=sys.stdout, highlight=False)


def code_text(diagnostic: Diagnostic) -> Text:
    """A diagnostic's code, coloured by its severity."""
    return Text(diagnostic.code.value, style=SEVERITY_STYLE[SEVERITY[diagnostic.code]])


def severity_summary(diagnostics: Iterable[Diagnostic]) -> Text:
    """``2 errors, 1 warning`` style counts, coloured; ``no diagnostics`` when none."""
    counts = Counter(SEVERITY[d.code] for d in diagnostics)
    parts = [
        Text(f"{counts[s]} {s.value}{'s' if counts[s] != 1 else ''}", style=SEVERITY_STYLE[s])
        for s in Severity
        if counts[s]
    ]
    return Text(", ").join(parts) if parts else Text("no diagnostics", style="dim")


def result_title(result: Result, number: int) -> RenderableType:
    """The heading of a response: a rule with its number, status and verdict, then its id
    and counts on a line of their own (ids run long)."""
    style = STATUS_STYLE[result.ok]
    rule = Rule(
        Text.assemble(
            (f"response {number}", "bold"),
            f"  {result.status.value}  ",
            ("ok" if result.ok else "ERROR", style),
        ),
        style=style,
    )
    count = len(result.items)
    line = Text.assemble(
        ("id ", "dim"),
        clean(result.response_id or "(none)"),
        f"  ·  {count} item{'s' if count != 1 else ''}  ·  ",
        severity_summary(result.diagnostics),
    )
    return Group(rule, line)


def items_table(result: Result) -> Table:
    """The output items: position in ``items``, the wire-shaped item, its provenance."""
    table = Table(title="output items", title_justify="left", expand=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("item", ratio=1)
    table.add_column("how", no_wrap=True)
    for position, item in enumerate(result.items):
        slot = "none" if item.output_index is None else str(item.output_index)
        how = Text.assemble(
            f"output_index: {slot}\n",
            f"id: {item.id_source.value}\n",
            f"payload: {item.payload_source.value}\n",
            f"state: {item.state.value}\n",
            "executable: ",
            ("yes", "bold green") if item.executable else ("no", "dim"),
            f"\nwhy: {item.execution.value}",
        )
        table.add_row(str(position), json_view(item.item), how)
    return table


def diagnostics_table(diagnostics: Iterable[Diagnostic]) -> Table:
    """The diagnostics: severity, code, the event they concern, the detail."""
    table = Table(title="diagnostics", title_justify="left", expand=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("event", justify="right", no_wrap=True)
    table.add_column("detail", ratio=1)
    for diagnostic in diagnostics:
        severity = SEVERITY[diagnostic.code]
        event = "end" if diagnostic.event_index is None else str(diagnostic.event_index)
        table.add_row(
            Text(severity.value, style=SEVERITY_STYLE[severity]),
            code_text(diagnostic),
            event,
            Text(clean(diagnostic.detail), overflow="fold"),
        )
    return table


def result_view(
    result: Result, number: int, *, events: RenderableType | None = None
) -> RenderableType:
    """One response for people: its title, ``events`` if given, its items, its diagnostics."""
    parts: list[RenderableType] = [result_title(result, number)]
    if events is not None:
        parts.append(events)
    if result.items:
        parts.append(items_table(result))
    else:
        parts.append(Text("no output items", style="dim"))
    if result.diagnostics:
        parts.append(diagnostics_table(result.diagnostics))
    return Group(*parts)


def replay_view(result: Result, items: list[dict[str, Any]], number: int) -> RenderableType:
    """One response's replay ``input`` for people: its title, then the array as JSON."""
    return Group(result_title(result, number), json_view(items))
