"""What ``responses-oracle agents`` prints: the terminal summary, JSON and an HTML page.

The verdict comes first: one line saying whether every cell held, how many broke a
verdict, how many were not judged and how many clients were not run; then a row per
cell with the three marks (``verdicts.summary``), a gateway's ``answer_kept`` after them
(does its client get the answer serve sent?), the clean twin's marks, and, for a
broken, not-judged or not-run cell, why.

A cell's ``outcome``: a broken verdict counts only where the client gets that verdict
right on the scenario's clean twin (the twin's mark for it holds); a cell whose every
broken verdict is broken on the twin too (or does not apply there) is *not judged: fails
the clean twin too (why)* -- what broke is not the scenario's deviation.  Per verdict,
not per cell: a client that drops a call on the scenario but runs it on the twin broke
on the deviation, even where it replays the twin's call without its id.  A cell without
a twin (recorded before twins were run) is not judged either.  ``--json`` is one
object: the cells as recorded (``Cell.to_json``).  ``--html`` is one self-contained
page: the same table, each cell's scenario linked to the timeline of the stream as
serve played it to that client (drawn by ``responses_oracle.timeline``, one page per
cell in a folder beside the report), each mark titled with serve's reason.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from responses_oracle.serve.verdicts import ANSWER_KEPT
from responses_oracle.words import counted

from .runner import Cell, error_line, scenario_slug, slug
from .served_verdicts import LABELS, VERDICTS, CallVerdict, summary


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


def _marked(cell: Cell, held: bool) -> frozenset[str]:
    """The verdicts a run holds (``held``) or breaks, a gateway's ``answer_kept`` too."""
    found = {key for key, mark in marks(cell).items() if mark == ("ok" if held else "FAIL")}
    return frozenset(found | {ANSWER_KEPT} if answer_kept(cell) is held else found)


def breaks(cell: Cell) -> bool:
    """Whether a run breaks a verdict (a gateway's ``answer_kept`` too), twin or not."""
    return cell.ran and bool(_marked(cell, held=False))


HELD: Final = "held"
BROKEN: Final = "broken"
NOT_JUDGED: Final = "not judged"
NOT_RUN: Final = "not run"
NOT_APPLICABLE: Final = "not applicable"
"""A cell's outcomes (``outcome``)."""


def outcome(cell: Cell) -> str:
    """``not run``; ``not applicable`` (no offered tool takes the scenario's calls);
    ``held`` (nothing broke); ``broken`` (a verdict broke that the clean twin holds);
    ``not judged`` (every verdict that broke is broken on the clean twin too, or does
    not apply there, or the twin was not run or not recorded)."""
    if not cell.ran:
        return NOT_RUN
    if cell.not_applicable:
        return NOT_APPLICABLE
    if not breaks(cell):
        return HELD
    return BROKEN if _counted(cell) else NOT_JUDGED


def _counted(cell: Cell) -> frozenset[str]:
    """The verdicts the scenario breaks and its clean twin holds: what counts."""
    twin = cell.twin
    if twin is None or not twin.ran or not twin.calls:
        return frozenset()
    return _marked(cell, held=False) & _marked(twin, held=True)


def broken(cell: Cell) -> bool:
    """Whether a cell counts as broken: a verdict broke on the scenario, not the twin."""
    return outcome(cell) == BROKEN


def not_judged(cell: Cell) -> str:
    """Why a cell whose verdict broke is not judged (``""`` when it is judged)."""
    if outcome(cell) != NOT_JUDGED:
        return ""
    twin = cell.twin
    if twin is None:
        return "not judged: no clean twin was recorded"
    if not twin.ran:
        return f"not judged: the clean twin was not run ({twin.reason})"
    if not twin.calls:
        return f"not judged: the clean twin got no verdict ({twin.reason})"
    return f"not judged: fails the clean twin too ({_broke(twin)})"


def twin_marks(cell: Cell) -> dict[str, str] | None:
    """The clean twin's marks, or None when the cell has no twin."""
    return marks(cell.twin) if cell.twin is not None else None


def headline(cells: Sequence[Cell]) -> str:
    """The verdict line: all held, or how many cells broke one, how many were not
    judged, how many did not run."""
    found = [outcome(c) for c in cells]
    failing, unjudged = found.count(BROKEN), found.count(NOT_JUDGED)
    idle = [c for c in cells if not c.ran]
    clients = sorted({c.client for c in idle})
    silent = sum(c.ran and not c.calls and not c.not_applicable for c in cells)
    apart = [f"{found.count(NOT_APPLICABLE)} not applicable"] if NOT_APPLICABLE in found else []
    apart += [f"{silent} got no verdict: no call to judge"] if silent else []
    if not failing and not idle and not unjudged:
        every = "the one cell" if len(cells) == 1 else f"all {counted(len(cells), 'cell')}"
        # A cell with nothing to judge holds nothing: it is counted apart.
        none = f" ({'; '.join(apart)})" if apart else ""
        return f"PASS: every verdict holds in {every}{none}."
    parts = []
    if failing:
        parts.append(f"{failing:,} of {counted(len(cells), 'cell')} "
                     f"{'breaks' if failing == 1 else 'break'} a verdict its clean twin "
                     "keeps")
    if unjudged:
        parts.append(f"{counted(unjudged, 'cell')} not judged (a verdict broke, and the "
                     "clean twin did not hold)")
    if idle:
        parts.append(f"{counted(len(idle), 'cell')} not run ({', '.join(clients)})")
    word = "FAIL" if failing else "NOT JUDGED" if unjudged else "NOT RUN"
    return f"{word}: {'; '.join(parts)}."


def why(cell: Cell) -> str:
    """The reason shown beside a cell: why it did not run or does not apply, each
    broken verdict's, and why a cell is not judged."""
    if not cell.ran or cell.not_applicable:
        return cell.reason
    unjudged = not_judged(cell)
    if unjudged:
        return f"{unjudged}; the scenario: {_broke(cell)}"
    twin = cell.twin
    also = _marked(cell, held=False) - _counted(cell) if twin is not None else frozenset()
    if also and twin is not None:
        # Counted: what the twin holds. Said too: what it does not, and why.
        shown = ", ".join(LABELS.get(key, key) for key in sorted(also))
        return f"{_broke(cell)}; not counted ({shown}): the clean twin does not hold it " \
               f"either ({_broke(twin)})"
    return _broke(cell)


def _broke(cell: Cell) -> str:
    """Each broken verdict's reason (a gateway's answer_kept too), and the client's
    error where it failed."""
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
    lines.append(f"{'client':<{width}}  {'scenario':<{swidth}}  executed  history   "
                 "api-valid  twin")
    for cell in cells:
        mark = marks(cell)
        row = f"{cell.client:<{width}}  {cell.scenario:<{swidth}}  " + "  ".join(
            f"{mark[key]:<8}" for key in VERDICTS
        )
        twin = twin_marks(cell)
        row += f"   {'/'.join(twin[key] for key in VERDICTS) if twin else '-':<14}"
        kept = answer_kept(cell)
        if kept is not None:
            row += f"  answer-kept {'ok' if kept else 'FAIL'}"
        reason = why(cell)
        # A cell that held shows no reason, unless it got no verdict at all.
        lines.append(row.rstrip() + (f"  {reason[:160]}" if reason and (
            outcome(cell) != HELD or not cell.calls) else ""))
    return "\n".join(lines) + "\n"


def to_json(cells: Sequence[Cell]) -> dict[str, Any]:
    """The ``--json`` object."""
    return {"verdict": headline(cells), "cells": [cell.to_json() for cell in cells]}


def cell_from_json(record: dict[str, Any]) -> Cell:
    """A recorded cell (``Cell.to_json``) as a ``Cell``, with its twin."""
    twin = record.get("twin")
    return Cell(
        twin=cell_from_json(twin) if isinstance(twin, dict) else None,
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
.ok{background:#dfd}.not{background:#eee;color:#555}.uncounted{background:#fe9}"""


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
            css, shown = mark[key].split()[0], mark[key]
            if css == "FAIL" and outcome(cell) != BROKEN:
                # Broken, but not counted (not judged): never a red FAIL.
                css, shown = "uncounted", f"FAIL, {outcome(cell)}"
            tds.append(f'<td class="{css}" title="{html.escape(reasons)}">'
                       f"{html.escape(shown)}</td>")
        twin = twin_marks(cell)
        shown = "/".join(twin[key] for key in VERDICTS) if twin else "-"
        rows.append(f"<tr><td>{html.escape(cell.client)}</td><td>{scenario}</td>"
                    f"{''.join(tds)}<td>{html.escape(shown)}</td>"
                    f"<td>{html.escape(outcome(cell))}</td>"
                    f"<td>{html.escape(why(cell))}</td></tr>")
    return (
        "<!doctype html><html><head><meta charset=utf-8>"
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\"><title>responses-oracle agents</title>"
        f"<style>{_STYLE}</style></head><body><h1>responses-oracle agents</h1>"
        f"<p><strong>{html.escape(headline(cells))}</strong></p><table><tr><th>client</th>"
        "<th>scenario (timeline)</th>"
        + "".join(f"<th>{LABELS[k]}</th>" for k in VERDICTS)
        + "<th>clean twin</th><th>outcome</th>"
        + f"<th>why</th></tr>{''.join(rows)}</table></body></html>\n"
    )


def write_timelines(cells: Sequence[Cell], folder: Path) -> dict[int, str]:
    """The timeline page of the stream each cell was served (from its run's
    ``verdicts.json``), under ``folder``: cell index → file name.  A cell that was not
    served gets no page (the report names its scenario without a link).  The pages share
    one copy of the timeline's script and style, written beside them."""
    from responses_oracle.timeline import render_html, shared_assets

    from .cell_page import cell_verdict
    from .served_verdicts import load_verdicts

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
            assets="", verdict=cell_verdict(cell, served),
        ), encoding="utf-8")
        written[n] = target.name
    return written

