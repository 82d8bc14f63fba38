"""What ``responses-oracle agents`` prints: the terminal summary, JSON and an HTML page.

The verdict comes first: one line saying whether every cell held, how many broke a
verdict, how many were not judged and how many clients were not run; then a row per
cell with the three marks (``verdicts.summary``), a gateway's ``answer_kept`` after them
(does its client get the answer serve sent?), the clean twin's marks, and, for a
broken, not-judged or not-run cell, why.

A cell's ``outcome`` is one of ``OUTCOMES`` (named constants: the pages colour by
them):

==================  ==================================================================
outcome             when
==================  ==================================================================
not run             the client could not be installed or started, or sent no request
not applicable      no offered tool takes the scenario's calls as a model makes them
no verdict          it ran, but serve had no call to judge (and, for a gateway, no
                    downstream answer was handed back)
held                nothing broke
broken              a verdict broke that the clean twin holds (per verdict, not per
                    cell: a client that drops a call on the scenario but runs it on the
                    twin broke on the deviation, even where it replays the twin's call
                    without its id)
proxy regression    behind the proxy: a verdict the same client holds *directly* on the
                    same scenario broke (#39: the proxy made it worse); held directly
                    means on every direct run of the same stream (a scenario of no
                    deviation: the cell and its twin)
not counted         a verdict broke on a robustness row (the scenario list's
                    ``counted: false``: a deviation no provider is shown to send, or a
                    stream the oracle calls an error), or on a row that judges the
                    driver's own reading of an SDK without a tool loop
                    (``Profile.driver_loop``: openai-go's two readings), or the client
                    refused the stream with one of its own named checks
                    (``Profile.refuses``: a rejection its maintainers chose): shown,
                    never counted as harm
not judged          every broken verdict is broken on the clean twin too (or does not
                    apply there, or no twin was recorded); behind the proxy, broken
                    directly too (or no direct cell was recorded)
==================  ==================================================================

**Each row judges its own program.**  A gateway's cell is judged on ``answer_kept``
alone: what its downstream client then did with the answer is that client's row
(openai-python's), so the three verdicts of the downstream run are shown and never
counted.  **Behind the proxy** a cell is compared with the same client direct, never
with the twin behind the proxy: a verdict held directly and lost behind the proxy is a
proxy regression, counted and named (``regressions``).

**Bugs, not cells.**  ``bugs`` groups the counted cells: one client's cells are one bug
when they break on the same root cause (``causes``) or their scenarios serve the same
stream up to ids (``scenario_list.same_stream``).  The pages count bugs, each with the
cells that show it, so a stream the list names three times is one bug of a client.

``--json`` is one object: the cells as recorded (``Cell.to_json``).  ``--html`` is one
self-contained page: the same table, each cell's scenario linked to the timeline of
the stream as serve played it to that client (drawn by ``responses_oracle.timeline``,
one page per cell in a folder beside the report), each mark titled with serve's reason.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
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


def gateway_cell(cell: Cell) -> bool:
    """Whether ``cell`` is a gateway's: judged on ``answer_kept`` alone (module
    docstring); its downstream client's verdicts belong to that client's row."""
    from .profiles import BY_NAME

    profile = BY_NAME.get(cell.client)
    return cell.gateway is not None or (profile is not None and profile.gateway)


def _marked(cell: Cell, held: bool) -> frozenset[str]:
    """The verdicts a run holds (``held``) or breaks: a gateway's ``answer_kept`` only,
    any other client's three."""
    if gateway_cell(cell):
        return frozenset({ANSWER_KEPT} if answer_kept(cell) is held else ())
    return frozenset(key for key, mark in marks(cell).items()
                     if mark == ("ok" if held else "FAIL"))


def breaks(cell: Cell) -> bool:
    """Whether a run breaks a verdict it is judged on, twin or not."""
    return cell.ran and bool(_marked(cell, held=False))


HELD: Final = "held"
"""Nothing the cell is judged on broke."""
BROKEN: Final = "broken"
"""A verdict broke that the clean twin holds: counted as harm."""
PROXY_REGRESSION: Final = "proxy regression"
"""Behind the proxy, a verdict broke that the same client holds directly: counted."""
NOT_COUNTED: Final = "not counted"
"""A verdict broke on a robustness row (the scenario list's ``counted: false``)."""
NOT_JUDGED: Final = "not judged"
"""Every broken verdict is broken on the twin (behind the proxy: directly) too."""
NO_VERDICT: Final = "no verdict"
"""It ran, but serve had nothing to judge."""
NOT_RUN: Final = "not run"
"""The client was not installed, did not start or sent no request."""
NOT_APPLICABLE: Final = "not applicable"
"""No offered tool takes the scenario's calls as a model makes them."""

OUTCOMES: Final = (HELD, BROKEN, PROXY_REGRESSION, NOT_COUNTED, NOT_JUDGED, NO_VERDICT,
                   NOT_APPLICABLE, NOT_RUN)
"""Every outcome of a cell (``outcome``), in the order the reports count them."""

COUNTED: Final = (BROKEN, PROXY_REGRESSION)
"""The outcomes counted as harm."""


def counted_scenario(name: str) -> bool:
    """Whether a broken verdict on scenario ``name`` counts as harm: False for a
    robustness row of the built-in list (its ``counted``); a scenario outside the list
    (a user's own file) counts."""
    return name not in _uncounted()


@cache
def _uncounted() -> frozenset[str]:
    """The robustness rows of the built-in list (read once)."""
    from .scenario_list import builtin

    return frozenset(s.name for s in builtin() if not s.counted)


def outcome(cell: Cell, direct: Cell | None = None) -> str:
    """The cell's outcome (``OUTCOMES``; module docstring).  ``direct``: for a cell
    recorded behind the proxy, the same client's direct cell on the same scenario
    (None when none was recorded; ``behind_proxy`` says whether it is such a cell)."""
    if not cell.ran:
        return NOT_RUN
    if cell.not_applicable:
        return NOT_APPLICABLE
    if not (cell.calls or (gateway_cell(cell) and answer_kept(cell) is not None)):
        return NO_VERDICT
    if not breaks(cell):
        return HELD
    if not counted_scenario(cell.scenario):
        return NOT_COUNTED
    if behind_proxy(cell):
        # The same driver on both sides: what the proxy lost is the proxy's.
        return PROXY_REGRESSION if _lost(cell, direct) else NOT_JUDGED
    if not _counted(cell):
        return NOT_JUDGED
    # The SDK handed over the events as sent; which of them the calls are read from
    # is the driver's choice, and the ✗ follows it; or the client refused the stream
    # by a check of its own, as its maintainers meant (#42's re-judgement).
    return NOT_COUNTED if driver_loop(cell.client) or refusal(cell) else BROKEN


def refusal(cell: Cell) -> str:
    """The client's own named check that refused the stream, when the run failed with
    the one its profile lists for a deviation of the cell's scenario
    (``Profile.refuses``); ``""`` for any other cell."""
    from .profiles import BY_NAME
    from .scenario_list import declared

    profile, scenario = BY_NAME.get(cell.client), declared(cell.scenario)
    if profile is None or scenario is None or cell.exit_status in (0, None):
        return ""
    said = cell.error or error_line(cell.output)
    carried = {applied.name for applied in scenario.deviations}
    return next((check for deviation, check in profile.refuses
                 if deviation in carried and check in said), "")


def driver_loop(client: str) -> str:
    """Which raw events the driver's own loop reads ``client``'s calls from, for a row
    that judges that reading rather than the SDK (``Profile.driver_loop``); ``""`` for
    every other row."""
    from .profiles import BY_NAME

    profile = BY_NAME.get(client)
    return profile.driver_loop if profile is not None else ""


def behind_proxy(cell: Cell) -> bool:
    """Whether the cell was recorded with the proxy between serve and the client."""
    from .runner import VIA_PROXY

    return cell.client.endswith(VIA_PROXY)


def _lost(cell: Cell, direct: Cell | None) -> frozenset[str]:
    """The verdicts broken behind the proxy that the same client holds directly."""
    if direct is None or not direct.ran:
        return frozenset()
    return _marked(cell, held=False) & _held_directly(direct)


def _held_directly(direct: Cell) -> frozenset[str]:
    """The verdicts a client holds directly on every run of the same stream: its direct
    cell's, and, on a scenario of no deviation (whose clean twin is the same stream),
    its twin's too -- a client that breaks a verdict on one run of the same bytes and
    holds it on another is not shown to hold it, so losing it behind the proxy is no
    proxy regression."""
    from .scenario_list import declared

    held = _marked(direct, held=True)
    scenario = declared(direct.scenario)
    if scenario is not None and not scenario.deviations and direct.twin is not None:
        held &= _marked(direct.twin, held=True)
    return held


def _counted(cell: Cell) -> frozenset[str]:
    """The verdicts the scenario breaks and its clean twin holds: what counts."""
    return frozenset(broken_kept(cell, cell.twin))


def broken_kept(cell: Cell, twin: Cell | None) -> list[str]:
    """The verdicts ``cell`` breaks that the clean ``twin`` holds, in report order (the
    three verdicts, then a gateway's ``answer_kept``): the one rule of what counts, which
    the runner's one-cause replays ask too."""
    if twin is None or not twin.ran or not twin.calls:
        return []
    found = _marked(cell, held=False) & _marked(twin, held=True)
    return [key for key in (*VERDICTS, ANSWER_KEPT) if key in found]


def broken(cell: Cell, direct: Cell | None = None) -> bool:
    """Whether a cell counts as harm: a verdict broke on the scenario, not the twin (or,
    behind the proxy, held directly)."""
    return outcome(cell, direct) in COUNTED


def not_judged(cell: Cell, direct: Cell | None = None) -> str:
    """Why a cell whose verdict broke is not judged (``""`` when it is judged)."""
    if outcome(cell, direct) != NOT_JUDGED:
        return ""
    if behind_proxy(cell):
        if direct is None or not direct.ran:
            return ("not judged: the same client was not recorded directly on this scenario "
                    "(on the same scenario list)")
        if not breaks(direct) and direct.twin is not None:
            # Held on the direct cell, broken on its twin: the same stream (_held_directly).
            return ("not judged: directly, held on one run and broken on another of the "
                    f"same stream (its clean twin, which has no deviation: {_broke(direct.twin)})")
        return f"not judged: broken directly too ({_broke(direct)})"
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


def direct_cells(cells: Sequence[Cell]) -> dict[tuple[str, str], Cell]:
    """Each direct cell of ``cells`` by (client, scenario): what a cell behind the proxy
    is compared with (``outcome``'s ``direct``)."""
    return {(c.client, c.scenario): c for c in cells if not behind_proxy(c)}


def direct_of(cell: Cell, directs: Mapping[tuple[str, str], Cell]) -> Cell | None:
    """The direct cell a cell behind the proxy is compared with (None: none recorded,
    or ``cell`` is direct itself)."""
    from .runner import VIA_PROXY

    if not behind_proxy(cell):
        return None
    return directs.get((cell.client.removesuffix(VIA_PROXY), cell.scenario))


def outcomes(cells: Sequence[Cell]) -> list[str]:
    """Each cell's outcome, a cell behind the proxy compared with the same client's
    direct cell in ``cells``."""
    directs = direct_cells(cells)
    return [outcome(cell, direct_of(cell, directs)) for cell in cells]


def by_verdict(cells: Sequence[Cell]) -> dict[str, int]:
    """How many counted cells (``COUNTED``) broke each verdict: label → cells, in report
    order, a verdict none broke left out (the headline's counts per verdict)."""
    found = outcomes(cells)
    directs = direct_cells(cells)
    tally = dict.fromkeys([*(LABELS[key] for key in VERDICTS), ANSWER_KEPT], 0)
    for cell, said in zip(cells, found, strict=True):
        if said in COUNTED:
            lost = (_lost(cell, direct_of(cell, directs)) if said == PROXY_REGRESSION
                    else _counted(cell))
            for key in lost:
                tally[LABELS.get(key, key)] += 1
    return {label: n for label, n in tally.items() if n}


def causes(cell: Cell) -> tuple[str, ...]:
    """The root cause(s) of a broken cell: the deviations whose one-cause replay alone
    breaks a verdict the twin keeps (the runner's ``causes``, rule 7); a scenario's one
    deviation where no replay was needed; several joined by ``+`` where none breaks
    alone; none known for a cell recorded without its replays."""
    from .scenario_list import declared

    if cell.causes:
        # Only what the row is judged on: a gateway's answer_kept, another's three.
        judged = {ANSWER_KEPT} if gateway_cell(cell) else set(VERDICTS)
        alone = tuple(name for name, lost in cell.causes.items() if judged & set(lost))
        return alone or (" + ".join(cell.causes),)
    scenario = declared(cell.scenario)
    names = tuple(dict.fromkeys(d.name for d in scenario.deviations)) if scenario else ()
    return names if len(names) == 1 else ()


def evidence(scenario: str) -> tuple[str, ...]:
    """What shows a provider sends scenario ``scenario``'s deviations: each deviation's
    evidence in the catalogue (``model.deviations``), capture paths and public issues,
    in order, once each; none for a scenario outside the built-in list."""
    from responses_oracle.model.deviations import DEVIATIONS

    from .scenario_list import declared

    found = declared(scenario)
    return tuple(dict.fromkeys(
        shown for applied in (found.deviations if found else ())
        for shown in DEVIATIONS[applied.name].evidence
    ))


@dataclass(frozen=True)
class Bug:
    """One bug: a client and a root cause, with every counted cell that shows it."""

    client: str
    causes: tuple[str, ...]
    """The root cause(s) its cells break on (``causes``; ``UNKNOWN_CAUSE`` when none was
    replayed)."""
    cells: tuple[Cell, ...]
    """Its counted cells, in the order given."""


def bugs(cells: Sequence[Cell]) -> list[Bug]:
    """The counted cells (``COUNTED``) of ``cells`` as bugs, most cells first.

    Two counted cells of one client (a client behind the proxy is a client of its own)
    are one bug when they break on the same root cause (``causes``), or when their
    scenarios serve the same stream (``scenario_list.same_stream``: the same bytes up to
    ids, so the same failure whatever cause was recorded), and so on transitively.  A
    scenario list that holds one stream under three names gives a client's bug on it
    once, with its three cells under it: the headline counts bugs, not cells."""
    from .scenario_list import same_stream

    # Union-find over (client, cause) and (client, stream) nodes: a cell joins its two.
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(node: tuple[str, str]) -> tuple[str, str]:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    def named(cell: Cell) -> tuple[str, ...]:
        return causes(cell) or (UNKNOWN_CAUSE,)

    def cause_node(cell: Cell) -> tuple[str, str]:
        return (cell.client, "cause: " + ", ".join(named(cell)))

    counted_cells = [cell for cell, said in zip(cells, outcomes(cells), strict=True)
                     if said in COUNTED]
    for cell in counted_cells:
        stream = (cell.client, "stream: " + same_stream(cell.scenario))
        parent[root(stream)] = root(cause_node(cell))
    grouped: dict[tuple[str, str], list[Cell]] = {}
    for cell in counted_cells:
        grouped.setdefault(root(cause_node(cell)), []).append(cell)
    found = [
        Bug(client, tuple(dict.fromkeys(cause for cell in group for cause in named(cell))),
            tuple(group))
        for (client, _), group in grouped.items()
    ]
    return sorted(found, key=lambda bug: (-len(bug.cells), bug.client, bug.causes))


def by_cause(cells: Sequence[Cell]) -> dict[str, int]:
    """How many bugs (``bugs``: a client and a root cause) each root cause is: cause →
    bugs, most first; ``UNKNOWN_CAUSE`` for a counted cell recorded without its
    replays."""
    tally: dict[str, int] = {}
    for bug in bugs(cells):
        for cause in bug.causes:
            tally[cause] = tally.get(cause, 0) + 1
    return dict(sorted(tally.items(), key=lambda pair: (-pair[1], pair[0])))


UNKNOWN_CAUSE: Final = "cause not replayed"
"""The cause of a counted cell recorded without one-cause replays."""


def regressions(cells: Sequence[Cell]) -> list[Cell]:
    """The proxy regressions of ``cells`` (#39): cells behind the proxy that lost a
    verdict the same client holds directly."""
    return [cell for cell, said in zip(cells, outcomes(cells), strict=True)
            if said == PROXY_REGRESSION]


def _split(tally: Mapping[str, int]) -> str:
    return ", ".join(f"{label} {n}" for label, n in tally.items())


def headline(cells: Sequence[Cell]) -> str:
    """The verdict line: all held, or how many cells broke a verdict (per verdict), how
    many proxy regressions, how many were not counted, not judged or not run."""
    found = outcomes(cells)
    failing, lost = found.count(BROKEN), found.count(PROXY_REGRESSION)
    unjudged, uncounted = found.count(NOT_JUDGED), found.count(NOT_COUNTED)
    idle = [c for c in cells if not c.ran]
    clients = sorted({c.client for c in idle})
    silent = found.count(NO_VERDICT)
    apart = [f"{found.count(NOT_APPLICABLE)} not applicable"] if NOT_APPLICABLE in found else []
    apart += [f"{silent} got no verdict: no call to judge"] if silent else []
    apart += [f"{uncounted} broke a verdict on a robustness row, not counted"] if uncounted \
        else []
    if not failing and not lost and not idle and not unjudged:
        every = "the one cell" if len(cells) == 1 else f"all {counted(len(cells), 'cell')}"
        # A cell with nothing to judge holds nothing: it is counted apart.
        none = f" ({'; '.join(apart)})" if apart else ""
        return f"PASS: every verdict holds in {every}{none}."
    parts = []
    if failing:
        parts.append(f"{failing:,} of {counted(len(cells), 'cell')} "
                     f"{'breaks' if failing == 1 else 'break'} a verdict its clean twin "
                     "keeps")
    if lost:
        parts.append(f"{counted(lost, 'proxy regression')} (held directly, lost behind "
                     "the proxy)")
    if failing or lost:
        parts[-1] += (f" (by verdict: {_split(by_verdict(cells))}; "
                      f"{counted(len(bugs(cells)), 'bug')}: a client and a root cause)")
    if unjudged:
        parts.append(f"{counted(unjudged, 'cell')} not judged (a verdict broke, and the "
                     "clean twin, or the client direct, did not hold)")
    if uncounted:
        parts.append(f"{counted(uncounted, 'cell')} not counted (robustness rows, the "
                     "driver's own reading of an SDK without a tool loop, or a client's "
                     "designed refusal)")
    if idle:
        parts.append(f"{counted(len(idle), 'cell')} not run ({', '.join(clients)})")
    word = "FAIL" if failing or lost else "NOT JUDGED" if unjudged else "NOT RUN"
    return f"{word}: {'; '.join(parts)}."


def why(cell: Cell, direct: Cell | None = None) -> str:
    """The reason shown beside a cell: why it did not run or does not apply, each
    broken verdict's, why a cell is not judged or not counted, and, behind the proxy,
    what it held directly.  ``direct`` as for ``outcome``."""
    if not cell.ran or cell.not_applicable:
        return cell.reason
    said = outcome(cell, direct)
    if said == NOT_COUNTED:
        return f"not counted: {_uncounted_because(cell)}; the scenario: {_broke(cell)}"
    unjudged = not_judged(cell, direct)
    if unjudged:
        return f"{unjudged}; the scenario: {_broke(cell)}"
    if said == PROXY_REGRESSION and direct is not None:
        shown = ", ".join(LABELS.get(key, key) for key in sorted(_lost(cell, direct)))
        return f"proxy regression: {shown} held directly, lost behind the proxy: {_broke(cell)}"
    twin = cell.twin
    also = _marked(cell, held=False) - _counted(cell) if twin is not None else frozenset()
    if also and twin is not None and said == BROKEN:
        # Counted: what the twin holds. Said too: what it does not, and why.
        shown = ", ".join(LABELS.get(key, key) for key in sorted(also))
        return f"{_broke(cell)}; not counted ({shown}): the clean twin does not hold it " \
               f"either ({_broke(twin)})"
    return _broke(cell)


def _uncounted_because(cell: Cell) -> str:
    """Why a cell whose verdict broke is not counted (``NOT_COUNTED``'s three cases)."""
    if not counted_scenario(cell.scenario):
        return robustness(cell.scenario)
    if driver_loop(cell.client):
        return ("the SDK has no tool loop and hands over the stream's response as the "
                f"server sent it: the driver's own loop read the calls from "
                f"{driver_loop(cell.client)}, one of the ways its docs show")
    return (f"the client refuses this stream by a check of its own (\"{refusal(cell)}\"): "
            "a rejection its maintainers chose, not a silent failure")


def robustness(scenario: str) -> str:
    """Why a scenario of the built-in list is a robustness row (its ``robustness``)."""
    from .scenario_list import declared

    found = declared(scenario)
    return (found.robustness if found else "") or "a robustness row of the scenario list"


def _broke(cell: Cell) -> str:
    """Each broken verdict's reason (a gateway's: answer_kept's alone), and the client's
    error where it failed."""
    if gateway_cell(cell):
        if answer_kept(cell) is False and cell.gateway is not None:
            return f"answer_kept: {cell.gateway['reason']}"
        return cell.reason
    found = [
        f"{call.call_id or call.name}: {LABELS[key]}: {call.reasons.get(key) or 'broken'}"
        for call in cell.calls
        for key in VERDICTS
        if call.values.get(key) is False
    ]
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
    directs = direct_cells(cells)
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
        direct = direct_of(cell, directs)
        reason = why(cell, direct)
        # A cell that held shows no reason, unless it got no verdict at all.
        lines.append(row.rstrip() + (f"  {reason[:160]}" if reason and (
            outcome(cell, direct) != HELD or not cell.calls) else ""))
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
        causes=record.get("causes"),
    )


_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.FAIL{background:#fdd}
.ok{background:#dfd}.not{background:#eee;color:#555}.uncounted{background:#fe9}"""


def page(cells: Sequence[Cell], timeline: Callable[[int], str | None]) -> str:
    """The HTML report; ``timeline(n)`` is the link to the timeline of cell ``n``."""
    rows = []
    directs = direct_cells(cells)
    for n, cell in enumerate(cells):
        mark = marks(cell)
        direct = direct_of(cell, directs)
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
                    f"<td>{html.escape(outcome(cell, direct))}</td>"
                    f"<td>{html.escape(why(cell, direct))}</td></tr>")
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

