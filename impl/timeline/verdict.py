"""What a client did with the stream a timeline draws: serve's verdict, above the lanes.

Rules
-----
1. This module judges nothing.  The caller (``agents.cell_page``) gives the cell's
   outcome as the agents report names it, each call's verdicts with serve's reasons,
   whether a broken verdict *counts* (the report's rule: the clean twin holds it), the
   oracle's replay item and what the client replayed.  A verdict that broke but does
   not count is drawn amber and says "not counted", never red: a *not judged* cell
   shows no red FAIL.
2. The stream's events that carry a judged call (serve's ``events`` of the call) get a
   column marker on the timeline, so the served events behind a verdict are seen
   where they sit.
3. Every string is escaped (``html.escape``) as the rest of the page is.

Theory of operation
-------------------
``CellVerdict`` is the data; ``render`` is its ``<section>``; ``named_events`` the event
indexes the page marks.  The section opens with the verdict (the outcome and why), then
a row per call (its three verdicts, and the events that carry it), then the oracle's
replay items beside what the client's next request replayed.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

MARK: Final = {True: "✓", False: "✗", None: "-"}
"""A verdict's mark, as the reports show it."""


@dataclass(frozen=True)
class VerdictLine:
    """One verdict on one call: its label, value (None: does not apply), serve's
    reason, and, when it broke, whether it counts."""

    label: str
    value: bool | None
    reason: str
    counted: bool = False


@dataclass(frozen=True)
class CallShown:
    """A judged call: its ids, the served events that carry it, its verdicts and the
    oracle's replay item."""

    call_id: str
    name: str
    events: tuple[int, ...]
    verdicts: tuple[VerdictLine, ...]
    expected: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class CellVerdict:
    """serve's verdict on one cell: its outcome, why, the calls, and the request that
    followed the stream (None: the client sent none that answers a call)."""

    outcome: str
    reason: str
    calls: tuple[CallShown, ...] = ()
    next_request: int | None = None
    replayed: tuple[Mapping[str, Any], ...] = ()
    """The items of that request that carry a ``call_id`` (calls and their outputs),
    whatever ids they carry: what the client replayed."""
    client: str = "the client"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _tone(line: VerdictLine) -> str:
    if line.value is False:
        return "v-fail" if line.counted else "v-uncounted"
    return "v-ok" if line.value else "v-na"


def tone(verdict: CellVerdict) -> str:
    """The section's colour: red where a broken verdict counts, amber where one broke
    without counting, green where every verdict that applies held, grey otherwise."""
    lines = [line for call in verdict.calls for line in call.verdicts]
    if any(line.value is False and line.counted for line in lines):
        return "v-fail"
    if any(line.value is False for line in lines):
        return "v-uncounted"
    return "v-ok" if any(line.value for line in lines) else "v-na"


def named_events(verdict: CellVerdict | None) -> frozenset[int]:
    """The event indexes of the stream that carry a judged call."""
    if verdict is None:
        return frozenset()
    return frozenset(index for call in verdict.calls for index in call.events)


def _events(events: Sequence[int]) -> str:
    if not events:
        return "no served event names it"
    return "events " + ", ".join(f"#{index}" for index in events)


def _cell(line: VerdictLine) -> str:
    word = {"v-fail": "broken", "v-uncounted": "broken, not counted", "v-ok": "holds",
            "v-na": "does not apply"}[_tone(line)]
    return (
        f'<td class="{_tone(line)}"><b>{MARK[line.value]} {word}</b>'
        f'<div class="why">{_esc(line.reason)}</div></td>'
    )


def _json(value: Any) -> str:
    return _esc(json.dumps(value, ensure_ascii=False, indent=1, default=repr))


def _replays(verdict: CellVerdict) -> str:
    """The oracle's replay item of each call, beside what the client replayed."""
    expected = "".join(
        f"<pre>{_json(call.expected)}</pre>" if call.expected is not None
        else f'<p class="summary">{_esc(call.call_id)}: the oracle does not replay it</p>'
        for call in verdict.calls
    )
    if verdict.next_request is None:
        where = ""
        replayed = f'<p class="summary">{_esc(verdict.client)} sent no request that ' \
                   "answers a call: the calls were dropped</p>"
    else:
        where = f" (request #{verdict.next_request})"
        replayed = (
            "".join(f"<pre>{_json(item)}</pre>" for item in verdict.replayed)
            or '<p class="summary">no item with a call_id</p>'
        )
    return (
        f'<div class="replays"><div><h3>the oracle\'s replay</h3>{expected}</div>'
        f"<div><h3>what {_esc(verdict.client)} replayed{where}</h3>{replayed}</div></div>"
    )


def render(verdict: CellVerdict) -> str:
    """The verdict's section: the outcome and why, a row per call, the replays."""
    rows = "".join(
        f"<tr><th>{_esc(call.call_id)}"
        + (f" <code>{_esc(call.name)}</code>" if call.name else "")
        + f'<div class="why">{_esc(_events(call.events))}</div></th>'
        + "".join(_cell(line) for line in call.verdicts)
        + "</tr>"
        for call in verdict.calls
    )
    labels = [line.label for line in verdict.calls[0].verdicts] if verdict.calls else []
    heads = "".join(f"<th>{_esc(label)}</th>" for label in labels)
    table = (
        f'<table class="verdicts"><thead><tr><th>call</th>{heads}</tr></thead>'
        f"<tbody>{rows}</tbody></table>" if rows else ""
    )
    marked = (
        '<p class="summary">The timeline below is the stream as serve played it; '
        'the events that carry a judged call have a yellow column.</p>'
        if named_events(verdict) else ""
    )
    return (
        f'<section class="verdict {tone(verdict)}" id="verdict">'
        f'<h2>serve\'s verdict: <span class="outcome">{_esc(verdict.outcome)}</span></h2>'
        f'<p class="reason">{_esc(verdict.reason)}</p>{table}'
        + (_replays(verdict) if verdict.calls else "")
        + marked
        + "</section>"
    )
