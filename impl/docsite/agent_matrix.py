"""The Real agents page's verdict matrix: one HTML table, a cell per client and scenario,
coloured by the cell's outcome.

Rules
-----
1. The outcome of a cell is ``agents.report``'s (``real_agents`` passes it in): this
   module never judges.  It colours a cell by the outcome's name (the class
   ``o-<outcome>``, spaces as dashes), so an outcome report.py adds is drawn too (the
   stylesheet gives every cell a colour of its own kind first; a named outcome
   overrides it) and is listed in the legend with its count.
2. Everything the matrix shows is in the HTML: the marks in the cell, serve's reason in
   its title, the link to the scenario's timeline.  The script
   (``docs/assets/real-agents.js``) only hides and dims what the filters leave out;
   without it the whole matrix shows.  Nothing loads from another host.
3. Strings from the record (client names, reasons) are HTML-escaped wherever they
   appear.

Theory of operation
-------------------
MkDocs puts raw HTML into the page as it is: its links are not rewritten as a
Markdown link's are.  The page is served at ``real-agents/`` (directory URLs), so a
link from the matrix to ``docs/agents/timelines/`` climbs one folder (``SITE_UP``).
The table sits in a scrolling box whose header row and first column are sticky
(``docs/assets/real-agents.css``): every client column is reachable at any width, and
the scenario and client names stay in view while scrolling.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .markdown import table

SITE_UP: Final = "../"
"""From the page's URL (``real-agents/``) to the site's root, for links in raw HTML."""

TITLE_CHARS: Final = 200
"""Longest reason shown in a cell's title (the page's Why section has it whole)."""


@dataclass(frozen=True)
class Column:
    """A column of the matrix: a client, run directly or behind the proxy."""

    client: str
    via_proxy: bool

    @property
    def name(self) -> str:
        """The column's heading."""
        return f"{self.client} via proxy" if self.via_proxy else self.client


@dataclass(frozen=True)
class Shown:
    """One cell as the matrix shows it: its outcome, its marks, what its title says."""

    outcome: str
    marks: str
    title: str
    no_verdict: bool = False
    """The cell ran but had no call to judge (its marks are all ``?``): drawn apart
    from the cells whose verdicts held."""
    broke: tuple[str, ...] = ()
    """The verdicts that broke on the scenario (their labels), counted or not: what the
    verdict filter finds."""


@dataclass(frozen=True)
class Row:
    """A scenario's row: its name, what it checks, its timeline, a cell per column
    (None where that column has no cell for it)."""

    scenario: str
    what: str
    link: str
    cells: Sequence[Shown | None]


def outcome_class(outcome: str) -> str:
    """The CSS class of an outcome: ``o-`` and its name, spaces as dashes."""
    return "o-" + outcome.replace(" ", "-")


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _swatch(outcome: str, no_verdict: bool = False) -> str:
    extra = " ra-nv" if no_verdict else ""
    return f'<span class="ra-swatch {outcome_class(outcome)}{extra}"></span>'


def legend(
    outcomes: Sequence[str],
    meaning: Mapping[str, str],
    columns: Sequence[Column],
    rows: Sequence[Row],
    no_verdict: str,
) -> list[str]:
    """The legend as a Markdown table: a swatch per outcome (``outcomes`` first, in
    their order, then any other the matrix holds), what it means, and how many cells
    have it, directly and behind the proxy; the cells with no call to judge apart
    (``no_verdict``: the outcome they have)."""
    every = every_outcome(outcomes, rows)

    def count(outcome: str, proxy: bool, silent: bool = False) -> str:
        return str(sum(
            cell is not None and cell.outcome == outcome and cell.no_verdict == silent
            and column.via_proxy == proxy
            for row in rows for column, cell in zip(columns, row.cells, strict=True)
        ))

    lines = [
        (_swatch(o), f"**{o}**", meaning.get(o, o), count(o, False), count(o, True))
        for o in every
    ]
    lines.append((_swatch(no_verdict, no_verdict=True), f"**{no_verdict}**, no call",
                  "the client ran, but serve had no call to judge: the marks are `???`",
                  count(no_verdict, False, True), count(no_verdict, True, True)))
    return table(("colour", "outcome", "what it means", "cells direct", "via proxy"), lines)


def every_outcome(outcomes: Sequence[str], rows: Sequence[Row]) -> list[str]:
    """``outcomes`` in their order, then any other outcome a cell of ``rows`` has."""
    found = {c.outcome for row in rows for c in row.cells if c is not None}
    return list(outcomes) + sorted(found - set(outcomes))


def _key(outcomes: Sequence[str], rows: Sequence[Row]) -> str:
    """One line above the matrix: each outcome's colour, name and number of cells; a
    click on one shows only its cells (the outcome filter)."""
    found = [cell.outcome for row in rows for cell in row.cells if cell is not None]
    return '<div class="ra-key">' + "".join(
        f'<button type="button" data-o="{_esc(o)}">{_swatch(o)} {_esc(o)} '
        f"<small>{found.count(o)}</small></button>"
        for o in outcomes
    ) + "</div>"


def _options(values: Sequence[str]) -> str:
    return '<option value="">any</option>' + "".join(
        f'<option value="{_esc(v)}">{_esc(v)}</option>' for v in values)


def _filters(outcomes: Sequence[str], verdicts: Sequence[str]) -> str:
    return (
        '<form class="ra-filters" role="search" aria-label="filter the matrix">'
        '<label>client <input type="search" name="client" placeholder="any"></label>'
        '<label>scenario <input type="search" name="scenario" placeholder="any"></label>'
        f'<label>outcome <select name="outcome">{_options(outcomes)}</select></label>'
        f'<label>verdict broken <select name="verdict">{_options(verdicts)}</select></label>'
        '<label>via proxy <select name="proxy"><option value="">direct and via proxy'
        '</option><option value="direct">direct only</option>'
        '<option value="proxy">via proxy only</option></select></label>'
        '<output class="ra-shown"></output></form>'
    )


def _cell(shown: Shown | None, link: str) -> str:
    if shown is None:
        return '<td class="ra-none"></td>'
    silent = " ra-nv" if shown.no_verdict else ""
    return (
        f'<td class="{outcome_class(shown.outcome)}{silent}" data-o="{_esc(shown.outcome)}"'
        f' data-v="{_esc("|".join(shown.broke))}"'
        f' title="{_esc(shown.title)}"><a href="{_esc(link)}">{_esc(shown.marks)}</a></td>'
    )


def matrix(
    columns: Sequence[Column], rows: Sequence[Row], outcomes: Sequence[str],
    verdicts: Sequence[str],
) -> str:
    """The matrix as one block of HTML (one line: Markdown leaves it as it is), with
    its filters (the outcome filter offers ``outcomes``, then any other found; the
    verdict filter ``verdicts``, the labels a cell's ``broke`` holds)."""
    heads = "".join(
        f'<th scope="col" data-client="{_esc(c.client)}" data-proxy="{int(c.via_proxy)}">'
        f"<span>{_esc(c.name)}</span></th>"
        for c in columns
    )
    body = "".join(
        f'<tr data-scenario="{_esc(row.scenario)}" data-what="{_esc(row.what)}">'
        f'<th scope="row" title="{_esc(row.scenario)}: {_esc(row.what)}">'
        f'<a href="{_esc(row.link)}">'
        f"{_esc(row.scenario)}</a></th>"
        + "".join(_cell(shown, row.link) for shown in row.cells)
        + "</tr>"
        for row in rows
    )
    every = every_outcome(outcomes, rows)
    return (
        f'<div class="ra-matrix">{_key(every, rows)}{_filters(every, verdicts)}'
        '<div class="ra-scroll" tabindex="0">'
        '<table class="ra-grid"><thead><tr><th scope="col" class="ra-corner">scenario</th>'
        f"{heads}</tr></thead><tbody>{body}</tbody></table></div></div>"
    )


def title(column: Column, scenario: str, outcome: str, marks: str, twin: str,
          reason: str) -> str:
    """A cell's title (its tooltip): where it is, its outcome, its marks and the clean
    twin's, and serve's reason, cut at ``TITLE_CHARS``."""
    text = f"{column.name} · {scenario}: {outcome}. {marks}"
    text += f" (clean twin {twin})" if twin else ""
    if reason:
        cut = reason if len(reason) <= TITLE_CHARS else reason[: TITLE_CHARS - 1] + "…"
        text += f". {cut}"
    return text
