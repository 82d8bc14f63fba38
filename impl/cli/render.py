"""Everything the commands print: JSON for tools, rich renderings for people.

Theory of operation
-------------------
Machine output is JSON, one value a line (``write_json``), so that a tool loop's
responses stream out one by one and ``jq`` or any JSON Lines reader takes them as they
come.  It is written with ``ensure_ascii=False`` for readable payloads; a value holding
a lone surrogate (legal in a JSON escape, not encodable as UTF-8) is written
ASCII-escaped instead, so hostile input cannot crash the printer.

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

SEVERITY_STYLE: Final[dict[Severity, str]] = {
    Severity.ERROR: "bold red",
    Severity.WARNING: "yellow",
    Severity.INFO: "cyan",
}
"""How each severity is coloured in tables and summaries."""

STATUS_STYLE: Final[dict[bool, str]] = {True: "bold green", False: "bold red"}
"""A response is green when ``Result.ok`` and red when it carries an error."""


def clean(text: str) -> str:
    """``text`` with lone surrogates escaped as ``\\udXXX``, so any console can encode it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON text that any UTF-8 stream can take."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return text if _encodable(text) else json.dumps(value, ensure_ascii=True, indent=indent)


def write_json(value: Any, indent: int | None = None) -> None:
    """Print ``value`` as JSON on stdout: one line, or indented when ``indent`` is given.

    Flushed at once, so that a consumer of a live pipe sees each value as it is made.
    """
    sys.stdout.write(json_text(value, indent) + "\n")
    sys.stdout.flush()


def json_view(value: Any) -> Text:
    """``value`` as syntax-highlighted, indented JSON, long strings folded, never cut."""
    text = json.dumps(value, ensure_ascii=False)
    view = JSON(text, indent=2, ensure_ascii=not _encodable(text)).text
    # rich renders JSON unwrapped and cropped; a cropped payload would hide the answer.
    view.no_wrap, view.overflow = False, "fold"
    return view


def stdout_console() -> Console:
    """A console on the current stdout (coloured only when it is a terminal)."""
    return Console(file=sys.stdout, highlight=False)


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
            f" ({item.execution.value})",
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
