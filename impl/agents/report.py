"""What ``responses-oracle agents`` prints: the terminal summary, JSON and an HTML page.

The verdict comes first: one line saying whether every cell held, how many broke a
verdict and how many clients were not run; then a row per cell with the three marks
(``verdicts.summary``), a gateway's ``answer_kept`` after them (does its client get the
answer serve sent?), and, for a broken or not-run cell, why.  ``--json`` is one
object: the cells as recorded (``Cell.to_json``).  ``--html`` is one self-contained
page: the same table, each cell's scenario linked to the timeline of the stream as
serve played it to that client (drawn by ``responses_oracle.timeline``, one page per
cell in a folder beside the report), each mark titled with serve's reason.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from responses_oracle.serve.verdicts import ANSWER_KEPT
from responses_oracle.words import counted

from .runner import Cell, error_line, slug
from .verdicts import LABELS, VERDICTS, CallVerdict, summary


def marks(cell: Cell) -> dict[str, str]:
    """A cell's mark per verdict, or ``not run`` for each when it did not run, ``not
    applicable`` when no offered tool takes the scenario's calls."""
    if not cell.ran:
        return dict.fromkeys(VERDICTS, "not run")
    if cell.not_applicable:
        return dict.fromkeys(VERDICTS, "not applicable")
    if not cell.calls:
        return dict.fromkeys(VERDICTS, "no verdict")
    return summary(cell.calls)


def answer_kept(cell: Cell) -> bool | None:
    """A gateway cell's ``answer_kept`` (serve's gateway verdict); None for other cells
    and where no downstream answer was handed back."""
    return cell.gateway.get(ANSWER_KEPT) if cell.gateway is not None else None


def broken(cell: Cell) -> bool:
    """Whether a cell that ran breaks a verdict (a gateway's ``answer_kept`` too)."""
    return cell.ran and ("FAIL" in marks(cell).values() or answer_kept(cell) is False)


def headline(cells: Sequence[Cell]) -> str:
    """The verdict line: all held, or how many cells broke one and how many did not run."""
    failing = sum(broken(c) for c in cells)
    idle = [c for c in cells if not c.ran]
    clients = sorted({c.client for c in idle})
    if not failing and not idle:
        every = "the one cell" if len(cells) == 1 else f"all {counted(len(cells), 'cell')}"
        return f"PASS: every verdict holds in {every}."
    parts = []
    if failing:
        parts.append(f"{failing:,} of {counted(len(cells), 'cell')} "
                     f"{'breaks' if failing == 1 else 'break'} a verdict")
    if idle:
        parts.append(f"{counted(len(idle), 'cell')} not run ({', '.join(clients)})")
    word = "FAIL" if failing else "NOT RUN"
    return f"{word}: {'; '.join(parts)}."


def why(cell: Cell) -> str:
    """The reason shown beside a cell: why it did not run, or each broken verdict's."""
    if not cell.ran or cell.not_applicable:
        return cell.reason
    found = [
        f"{call.call_id or call.name}: {LABELS[key]}: {call.reasons.get(key) or 'broken'}"
        for call in cell.calls
        for key in VERDICTS
        if call.values.get(key) is False
    ]
    if answer_kept(cell) is False and cell.gateway is not None:
        found.append(f"answer_kept: {cell.gateway['reason']}")
    elif found and answer_kept(cell):
        # Not the answer the gateway relayed: what broke happened after its client had it.
        found.append("the gateway relayed the answer intact (answer_kept): this broke "
                     "after its downstream client got it")
    said = cell.error or error_line(cell.output)
    if found and cell.exit_status not in (0, None) and said:
        # A call dropped by a client that failed: its error says why.
        found.append(f"the client exited {cell.exit_status}: {said[:200]}")
    return "; ".join(found) or cell.reason


def terminal(cells: Sequence[Cell]) -> str:
    """The terminal summary."""
    width = max([len(c.client) for c in cells] + [6])
    swidth = max([len(c.scenario) for c in cells] + [8])
    lines = [headline(cells), ""]
    lines.append(f"{'client':<{width}}  {'scenario':<{swidth}}  executed  history   api-valid")
    for cell in cells:
        mark = marks(cell)
        row = f"{cell.client:<{width}}  {cell.scenario:<{swidth}}  " + "  ".join(
            f"{mark[key]:<8}" for key in VERDICTS
        )
        kept = answer_kept(cell)
        if kept is not None:
            row += f"  answer-kept {'ok' if kept else 'FAIL'}"
        reason = why(cell)
        lines.append(row.rstrip() + (f"  {reason[:160]}" if reason and (
            broken(cell) or not cell.ran or cell.not_applicable) else ""))
    return "\n".join(lines) + "\n"


def to_json(cells: Sequence[Cell]) -> dict[str, Any]:
    """The ``--json`` object."""
    return {"verdict": headline(cells), "cells": [cell.to_json() for cell in cells]}


def cell_from_json(record: dict[str, Any]) -> Cell:
    """A recorded cell (``Cell.to_json``) as a ``Cell``."""
    return Cell(
        gateway=record.get("gateway"),
        not_applicable=record.get("not_applicable", ""),
        stream=record.get("stream"),
        client=record["client"], scenario=record["scenario"], ran=record["ran"],
        reason=record.get("reason", ""), exit_status=record.get("exit_status"),
        seconds=record.get("seconds", 0.0), requests=record.get("requests", 0),
        calls=[CallVerdict.from_json(call) for call in record.get("calls") or []],
        output=record.get("output", ""), error=record.get("error", ""),
    )


_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.FAIL{background:#fdd}
.ok{background:#dfd}.not{background:#eee;color:#555}"""


def page(cells: Sequence[Cell], timeline: Callable[[int], str | None]) -> str:
    """The HTML report; ``timeline(n)`` is the link to the timeline of cell ``n``."""
    rows = []
    for n, cell in enumerate(cells):
        mark = marks(cell)
        link = timeline(n)
        name = html.escape(cell.scenario)
        scenario = f'<a href="{html.escape(link)}">{name}</a>' if link else name
        tds = []
        for key in VERDICTS:
            reasons = "; ".join(
                f"{c.call_id}: {c.reasons.get(key, '')}" for c in cell.calls
            ) or cell.reason
            css = mark[key].split()[0]
            tds.append(f'<td class="{css}" title="{html.escape(reasons)}">'
                       f"{html.escape(mark[key])}</td>")
        rows.append(f"<tr><td>{html.escape(cell.client)}</td><td>{scenario}</td>"
                    f"{''.join(tds)}<td>{html.escape(why(cell))}</td></tr>")
    return (
        "<!doctype html><html><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\"><title>responses-oracle agents</title>"
        f"<style>{_STYLE}</style></head><body><h1>responses-oracle agents</h1>"
        f"<p><strong>{html.escape(headline(cells))}</strong></p><table><tr><th>client</th>"
        "<th>scenario (timeline)</th>"
        + "".join(f"<th>{LABELS[k]}</th>" for k in VERDICTS)
        + f"<th>why</th></tr>{''.join(rows)}</table></body></html>\n"
    )


def write_timelines(cells: Sequence[Cell], folder: Path) -> dict[int, str]:
    """The timeline page of the stream each cell was served (from its run's
    ``verdicts.json``), under ``folder``: cell index → file name.  A cell that was not
    served gets no page (the report names its scenario without a link).  The pages share
    one copy of the timeline's script and style, written beside them."""
    from responses_oracle.timeline import render_html, shared_assets

    from .verdicts import load_verdicts

    folder.mkdir(parents=True, exist_ok=True)
    for name, text in shared_assets().items():
        (folder / name).write_text(text, encoding="utf-8")
    written = {}
    for n, cell in enumerate(cells):
        served = load_verdicts(Path(cell.folder) / "verdicts.json") if cell.folder else None
        if served is None or not served.events:
            continue
        target = folder / f"{n:03d}-{slug(cell.client)}-{scenario_slug(cell.scenario)}.html"
        target.write_text(render_html(
            served.events, title=f"{cell.client}: scenario {cell.scenario}, as served",
            assets="",
        ), encoding="utf-8")
        written[n] = target.name
    return written


def scenario_slug(name: str) -> str:
    """A file name for a scenario name (a path, a quirk or a vector name)."""
    return slug(Path(name).stem if name.endswith((".jsonl", ".sse", ".json")) else name)
