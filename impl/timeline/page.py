"""The timeline as one self-contained HTML page: inline SVG, CSS and a small script.

Theory of operation
-------------------
The picture is drawn here, in Python, as SVG: one ``<svg>`` per response, a row per
lane, x the event index.  Lane contents sit in one group scaled horizontally
(``scale(step, 1)``, one unit per event), so zooming is a change of one attribute; the
marks are strokes with ``vector-effect: non-scaling-stroke``, which keeps their
widths on screen at any zoom.  Labels, slots, the candidate's side and the diagnostics
table are HTML beside the SVG, in rows of the same height.  The script
(``timeline.js``) only reads: it draws the axis for the current zoom, and fills the
detail panel of the event under the pointer (or clicked, or reached with the arrow
keys) from the data block.

Hostile streams.  Every string taken from the stream reaches the page one of two ways:

- as HTML text or attribute value, through ``_esc`` (``html.escape`` with quotes);
- inside the ``<script type="application/json">`` data block, through ``_json_block``:
  JSON with every ``<``, ``>`` and ``&`` written as ``\\u003c``/``\\u003e``/``\\u0026``,
  so no ``</script>`` or ``<!--`` can end or change the block; the script reads it with
  ``JSON.parse`` and writes it with ``textContent`` only, never as markup.

Links are made from our own rule ids and the caller's ``rule_url`` (checked: relative,
``http`` or ``https``), never from the stream.  On top, the page carries a Content
Security Policy that allows exactly its own script and style (by SHA-256) and nothing
else: no other script, no network request of any kind.  A set of pages can share one
copy of the script and style instead (``assets``, the files of ``shared_assets``): each
page then links them, and its policy allows scripts and styles from its own origin only
(still no inline script, so nothing a stream smuggled into the markup could run).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, Final

from responses_oracle.differential.candidate import Answer, Failure
from responses_oracle.differential.compare import Difference, compare
from responses_oracle.differential.oracle_trace import DECISION_RULES
from responses_oracle.model.rules import CODE_RULES, RULES
from responses_oracle.model.vocabulary import (
    SEVERITY,
    Code,
    EntryState,
    ResponseStatus,
    Severity,
)
from responses_oracle.words import counted

from ..cli.render import clean
from ..core.state import Diagnostic
from .build import Kind, Lane, Mark, ResponseTimeline, Timeline
from .verdict import CellVerdict, named_events
from .verdict import render as render_verdict

STATE_COLOURS: Final[dict[EntryState, str]] = {
    EntryState.ABSENT: "#d9d9d9",
    EntryState.ADDED: "#c6dbef",
    EntryState.STREAMING: "#6baed6",
    EntryState.PAYLOAD_DONE: "#9e9ac8",
    EntryState.DONE: "#74c476",
    EntryState.COMPLETED: "#238b45",
    EntryState.INCOMPLETE: "#fd8d3c",
}
"""The colour of a lane segment in each lifecycle state (R8): blues while open, greens
once confirmed, orange for an item the response did not complete."""

SEVERITY_COLOURS: Final[dict[Severity, str]] = {
    Severity.ERROR: "#d62728",
    Severity.WARNING: "#f0a202",
    Severity.INFO: "#7f8c9a",
}
"""The colour of a diagnostic's dot and table cell."""

STATUS_COLOURS: Final[dict[ResponseStatus, str]] = {
    ResponseStatus.IN_PROGRESS: "#6baed6",
    ResponseStatus.COMPLETED: "#238b45",
    ResponseStatus.INCOMPLETE: "#e6550d",
    ResponseStatus.FAILED: "#d62728",
    ResponseStatus.CANCELLED: "#e6550d",
    ResponseStatus.INTERRUPTED: "#d62728",
}
"""The colour of a response's status badge (R9)."""

KIND_TEXT: Final[dict[Kind, str]] = {
    Kind.START: "response.created",
    Kind.ADDED: "item added",
    Kind.DELTA: "delta (a run when folded)",
    Kind.PAYLOAD_DONE: "payload *.done",
    Kind.DONE: "output_item.done",
    Kind.TERMINAL: "terminal event",
    Kind.SNAPSHOT: "terminal with snapshot",
    Kind.OTHER: "other event",
    Kind.NOT_REDUCED: "not reduced (undecodable)",
    Kind.END_OF_INPUT: "end of input",
}
"""The legend's name of each kind of mark."""

ROW: Final = 34
"""Height of one lane, in pixels, in the SVG and in the HTML columns beside it."""

AXIS: Final = 22
"""Height of the axis row above the lanes."""

PAD: Final = 8
"""Space left and right of the plotted columns."""

FIT_WIDTH: Final = 960
"""Width the columns are fitted to before the script measures the real one."""

MAX_STEP: Final = 56.0
"""Widest column, in pixels, when a short stream is fitted."""

LIFECYCLE_RULE: Final = "R8"
"""The rule of every state transition drawn (the lifecycle table's, model/lifecycle.py)."""

TEXT_CHARS: Final = 120
"""Longest stream string shown whole in a label or cell (the full text is its tooltip)."""

_SCHEME: Final = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_ITEM_PATH: Final = re.compile(r"^\[(\d+)\]\.items\[(\+?)(\d+)\]")
_RESPONSE_PATH: Final = re.compile(r"^\[(\d+)\]")


def _esc(value: Any) -> str:
    """Any value as HTML text or attribute content."""
    text = value if isinstance(value, str) else json.dumps(value, default=repr)
    return html.escape(text, quote=True)


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= TEXT_CHARS else text[: TEXT_CHARS - 1] + "…"


def _json_block(value: Any) -> str:
    """JSON that cannot end or change the ``<script type="application/json">`` it is in."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def rule_href(rule_url: str | None, rule: str) -> str | None:
    """The link to ``rule``'s page: ``rule_url`` with ``{rule}`` replaced, or None."""
    return None if rule_url is None else rule_url.replace("{rule}", rule)


def check_address(address: str, name: str) -> None:
    """Refuse an address (named ``name`` in the error) that is not relative, ``http``
    or ``https``: no ``javascript:`` link on the page."""
    scheme = _SCHEME.match(address)
    if scheme is not None and scheme.group(1).lower() not in {"http", "https"}:
        raise ValueError(f"{name} must be relative, http or https, not {scheme.group(1)}:")


def check_rule_url(rule_url: str | None) -> None:
    """Refuse a rule link template that is not relative, ``http`` or ``https``."""
    if rule_url is None:
        return
    check_address(rule_url, "rule_url")
    if "{rule}" not in rule_url:
        raise ValueError("rule_url must contain {rule}, e.g. 'https://host/rules/{rule}/'")


def decision_rule(decision: str) -> str | None:
    """The rule behind a step's decision (``testing.explain.DECISION_RULES``)."""
    return next((rule for prefix, rule in DECISION_RULES if decision.startswith(prefix)), None)


def _rules_of(mark: Mark) -> list[str]:
    """The rules a mark's event applied: its decision's, R8 for a move, its codes'."""
    found: list[str] = []
    trace = mark.row.trace if mark.row is not None else None
    if trace is not None:
        rule = decision_rule(trace.decision)
        if rule is not None:
            found.append(rule)
        if mark.lane is not None and trace.before is not trace.after:
            found.append(LIFECYCLE_RULE)
    found += [CODE_RULES[d.code] for d in mark.diagnostics]
    return list(dict.fromkeys(found))


def _worst(diagnostics: Iterable[Diagnostic]) -> Severity | None:
    severities = {SEVERITY[d.code] for d in diagnostics}
    return next((s for s in Severity if s in severities), None)


def _lane_name(lane: int | None) -> str:
    return "response" if lane is None else f"items[{lane}]"


@dataclass
class _Candidate:
    """The candidate's answer, its differences placed on the responses and lanes."""

    name: str
    answer: Answer
    general: list[Difference] = field(default_factory=list)
    by_response: dict[int, list[Difference]] = field(default_factory=dict)
    by_lane: dict[tuple[int, int], list[Difference]] = field(default_factory=dict)
    extra: dict[int, list[Difference]] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, answer: Answer, timeline: Timeline) -> _Candidate:
        oracle = [result.to_json() for result in timeline.results]
        placed = cls(name, answer)
        for difference in compare(list(timeline.payloads), oracle, answer):
            item = _ITEM_PATH.match(difference.path)
            response = _RESPONSE_PATH.match(difference.path)
            if item is not None and item.group(2):
                placed.extra.setdefault(int(item.group(1)), []).append(difference)
            elif item is not None:
                key = (int(item.group(1)), int(item.group(3)))
                placed.by_lane.setdefault(key, []).append(difference)
            elif response is not None:
                placed.by_response.setdefault(int(response.group(1)), []).append(difference)
            else:
                placed.general.append(difference)
        return placed


class _Page:
    """Accumulates the page's HTML and the marks' data while the responses are drawn."""

    def __init__(
        self, rule_url: str | None, candidate: _Candidate | None, named: frozenset[int]
    ) -> None:
        self.rule_url = rule_url
        self.candidate = candidate
        self.named = named
        """The events that carry a call serve judged (``verdict.named_events``)."""
        self.marks: list[dict[str, Any]] = []
        self.rules_used: set[str] = set()

    def rule_link(self, rule: str) -> str:
        """``rule`` as a link to its page (or named, without ``rule_url``), its summary
        the tooltip."""
        self.rules_used.add(rule)
        href = rule_href(self.rule_url, rule)
        summary = _esc(RULES.get(rule, ""))
        if href is None:
            return f'<span class="rule" title="{summary}">{rule}</span>'
        return f'<a class="rule" href="{_esc(href)}" target="_top" title="{summary}">{rule}</a>'

    def mark_data(self, number: int, response: ResponseTimeline, mark: Mark) -> int:
        """Add ``mark`` to the data block (what the panel shows); its key on the page."""
        row, trace = mark.row, mark.row.trace if mark.row is not None else None
        rules = _rules_of(mark)
        self.rules_used.update(rules)
        slot = before = after = None
        if mark.lane is not None:
            slot = response.lanes[mark.lane].entry.output_index
            # Only an item-level event's trace names its entry (a terminal moves them all).
            if trace is not None and trace.before is not None and trace.after is not None:
                before, after = trace.before.value, trace.after.value
        self.marks.append(
            {
                "response": number,
                "i": mark.first,
                "z": mark.last,
                "n": mark.count,
                "c": mark.chars,
                "k": mark.kind.value,
                "t": row.type if row is not None else None,
                "lane": _lane_name(mark.lane),
                "slot": slot,
                "d": trace.decision if trace is not None else None,
                "b": before,
                "a": after,
                "r": rules,
                "g": [
                    [d.code.value, SEVERITY[d.code].value, d.detail, CODE_RULES[d.code]]
                    for d in mark.diagnostics
                ],
                "j": mark.payload,
            }
        )
        return len(self.marks) - 1


def _segment_svg(lane: Lane, y: int, first: int, columns: int) -> list[str]:
    # A segment starts at the middle of the column of the event that moved the item,
    # where that event's mark is drawn; the last one runs to the right edge.
    drawn = []
    for segment in lane.segments:
        left = segment.start - first + 0.5
        right = min(segment.end - first + 0.5, columns)
        drawn.append(
            f'<rect class="seg s-{segment.state.value}" x="{left}" y="{y + 13}" '
            f'width="{right - left}" height="10"><title>items[{lane.position}] '
            f"{segment.state.value} from #{segment.start}</title></rect>"
        )
    return drawn


def _mark_svg(mark: Mark, key: int, y: int, first: int) -> str:
    x = mark.first - first + 0.5
    parts = [f'<g class="m k-{mark.kind.value}" data-e="{key}">']
    if mark.count > 1:
        width = mark.last - mark.first + 1
        parts.append(
            f'<rect class="run" x="{mark.first - first}" y="{y + 10}" width="{width}" '
            f'height="16"/>'
        )
    parts.append(f'<line class="v" x1="{x}" x2="{x}" y1="{y + 7}" y2="{y + 29}"/>')
    worst = _worst(mark.diagnostics)
    if worst is not None:
        parts.append(
            f'<line class="dg sev-{worst.value}" x1="{x}" x2="{x}" y1="{y + 4}" y2="{y + 4}"/>'
        )
    parts.append(f'<line class="hit" x1="{x}" x2="{x}" y1="{y}" y2="{y + ROW}"/>')
    parts.append("</g>")
    return "".join(parts)


def _lane_label(lane: Lane) -> str:
    item = lane.entry.item
    name = item.get("name") or item.get("role") or ""
    ids = " · ".join(
        f"{key} {_esc(_short(item[key]))}" for key in ("call_id", "id") if item.get(key)
    )
    executable = "executable" if lane.entry.executable else "not executable"
    full = _esc(json.dumps(item, ensure_ascii=False, default=repr)[:2000])
    return (
        f'<div class="lane" data-lane="{lane.position}" title="{full}">'
        f'<div><span class="pos">items[{lane.position}]</span> '
        f'<b>{_esc(_short(item.get("type", "?")))}</b> {_esc(_short(name))}</div>'
        f'<div class="sub">{ids} · <span class="fin s-{lane.entry.state.value}">'
        f"{lane.entry.state.value}</span> · {executable}</div></div>"
    )


def _slot_cell(lane: Lane, lanes: Sequence[Lane], page: _Page) -> str:
    slot = lane.entry.output_index
    if slot is None:
        return '<div class="slot none" title="no output_index">—</div>'
    if not lane.shared_slot:
        return f'<div class="slot" title="output_index {slot}">{slot}</div>'
    sharing = ", ".join(f"items[{o.position}]" for o in lanes if o.entry.output_index == slot)
    return (
        f'<div class="slot shared" title="output_index {slot} reused: {sharing}">'
        f"{slot} reused · {page.rule_link(CODE_RULES[Code.SLOT_REUSED])}</div>"
    )


def _differences(differences: Sequence[Difference], page: _Page) -> str:
    """Each difference: what, the reference's value, the candidate's, the rule (why: the
    tooltip)."""
    name = _esc(page.candidate.name if page.candidate is not None else "candidate")
    return "".join(
        f'<div class="diff" title="{_esc(d.why)}">{_esc(d.aspect.value)} '
        f"{page.rule_link(d.rule)}: reference <code>{_esc(_short(d.oracle))}</code>, "
        f"{name} <code>{_esc(_short(d.answer))}</code></div>"
        for d in differences
    )


def _candidate_cells(
    number: int, response: ResponseTimeline, candidate: _Candidate, page: _Page
) -> str:
    head = f'<div class="head">{_esc(candidate.name)}</div>'
    cells = [head]
    top = candidate.by_response.get(number, []) + candidate.extra.get(number, [])
    cells.append(
        '<div class="cand bad">' + _differences(top, page) + "</div>"
        if top
        else '<div class="cand ok">response agrees</div>'
    )
    for lane in response.lanes:
        found = candidate.by_lane.get((number, lane.position), [])
        cells.append(
            '<div class="cand bad">' + _differences(found, page) + "</div>"
            if found
            else '<div class="cand ok">agrees</div>'
        )
    return '<div class="col cands">' + "".join(cells) + "</div>"


def _diagnostics_table(marks: Sequence[tuple[int, Mark]], page: _Page) -> str:
    rows = []
    for key, mark in marks:
        for d in mark.diagnostics:
            severity = SEVERITY[d.code].value
            where = "end of input" if d.event_index is None else f"#{d.event_index}"
            rows.append(
                f'<tr data-e="{key}"><td>{where}</td><td>{_lane_name(mark.lane)}</td>'
                f'<td class="sev sev-{severity}">{severity}</td><td><code>{d.code.value}</code>'
                f"</td><td>{page.rule_link(CODE_RULES[d.code])}</td>"
                f"<td>{_esc(_short(d.detail))}</td></tr>"
            )
    if not rows:
        return '<p class="nodiag">No diagnostics.</p>'
    return (
        '<table class="diags"><thead><tr><th>event</th><th>lane</th><th>severity</th>'
        "<th>code</th><th>rule</th><th>detail</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _response_html(number: int, response: ResponseTimeline, page: _Page) -> str:
    result = response.result
    first, columns = response.first, response.columns
    step = min(MAX_STEP, FIT_WIDTH / columns)
    height = AXIS + ROW * (len(response.lanes) + 1)
    lane_rows: dict[int | None, int] = {None: 0}
    lane_rows.update({lane.position: lane.position + 1 for lane in response.lanes})
    body: list[str] = []
    for row in range(len(response.lanes) + 1):
        body.append(
            f'<rect class="band b{row % 2}" x="0" y="{AXIS + row * ROW}" width="{columns}" '
            f'height="{ROW}"/>'
        )
    # A judged call's events: a column behind the lanes, from the axis down (narrower
    # than the event's, so neighbours stay apart).
    body += [
        f'<rect class="named" x="{index - first + 0.2}" y="{AXIS}" width="0.6" '
        f'height="{height - AXIS}"><title>#{index} carries a judged call</title></rect>'
        for index in sorted(page.named)
        if first <= index < first + columns
    ]
    for lane in response.lanes:
        body += _segment_svg(lane, AXIS + lane_rows[lane.position] * ROW, first, columns)
    keyed: list[tuple[int, Mark]] = []
    for mark in response.marks:
        key = page.mark_data(number, response, mark)
        keyed.append((key, mark))
        body.append(_mark_svg(mark, key, AXIS + lane_rows[mark.lane] * ROW, first))
    body.append(f'<line class="cursor" x1="-1" x2="-1" y1="{AXIS}" y2="{height}"/>')
    width = PAD * 2 + columns * step
    svg = (
        f'<svg class="chart" width="{width:.1f}" height="{height}" data-first="{first}" '
        f'data-columns="{columns}" data-step="{step:.4f}" xmlns="http://www.w3.org/2000/svg">'
        f'<g class="axis"></g><g class="x" transform="translate({PAD},0) scale({step:.4f},1)">'
        + "".join(body)
        + "</g></svg>"
    )
    labels = ['<div class="head">item</div>', '<div class="lane resp">response events</div>']
    labels += [_lane_label(lane) for lane in response.lanes]
    slots = ['<div class="head">slot</div>', '<div class="slot none">—</div>']
    slots += [_slot_cell(lane, response.lanes, page) for lane in response.lanes]
    columns_html = [
        '<div class="col labels">' + "".join(labels) + "</div>",
        '<div class="col slots">' + "".join(slots) + "</div>",
        f'<div class="col plot">{svg}</div>',
    ]
    if page.candidate is not None:
        columns_html.append(_candidate_cells(number, response, page.candidate, page))
    status = result.status.value
    errors = sum(SEVERITY[d.code] is Severity.ERROR for d in result.diagnostics)
    folded = " · routine events folded into runs" if response.folded else ""
    return (
        f'<section class="response" id="response-{number}">'
        f"<h2>Response {number + 1} <code>{_esc(_short(result.response_id or '(no id)'))}"
        f'</code> <span class="status st-{status}">{status}</span></h2>'
        f'<p class="summary">events #{first} to #{response.end - 1} · '
        f"{counted(len(result.items), 'item')} · "
        f"{counted(len(result.diagnostics), 'diagnostic')} ({counted(errors, 'error')}){folded}</p>"
        f'<div class="grid{" with-cand" if page.candidate else ""}">'
        + "".join(columns_html)
        + "</div>"
        + _diagnostics_table(keyed, page)
        + "</section>"
    )


def _legend() -> str:
    states = "".join(
        f'<span class="key"><i class="sw s-{state.value}"></i>{state.value}</span>'
        for state in EntryState
        if state is not EntryState.ABSENT
    )
    kinds = "".join(
        f'<span class="key"><svg width="14" height="16"><g class="m k-{kind.value}">'
        f'<line class="v" x1="7" x2="7" y1="2" y2="14"/></g></svg>{_esc(text)}</span>'
        for kind, text in KIND_TEXT.items()
    )
    severities = "".join(
        f'<span class="key"><i class="dot sev-{severity.value}"></i>{severity.value}</span>'
        for severity in Severity
    )
    return (
        '<div class="legend"><div><b>state (R8)</b> ' + states + "</div>"
        "<div><b>event</b> " + kinds + "</div>"
        "<div><b>diagnostic</b> " + severities + "</div></div>"
    )


def _colour_css() -> str:
    rules = [f".s-{s.value}{{fill:{c};background:{c}}}" for s, c in STATE_COLOURS.items()]
    rules += [
        f".sev-{s.value}{{stroke:{c};background:{c};color:#fff}}"
        for s, c in SEVERITY_COLOURS.items()
    ]
    rules += [f".st-{s.value}{{background:{c}}}" for s, c in STATUS_COLOURS.items()]
    return "\n".join(rules)


def _contents(timeline: Timeline) -> str:
    """A tool loop's responses, one line each, linked to their sections (from two on)."""
    if len(timeline.responses) < 2:
        return ""
    lines = []
    for number, response in enumerate(timeline.responses):
        result = response.result
        errors = sum(SEVERITY[d.code] is Severity.ERROR for d in result.diagnostics)
        lines.append(
            f'<li><a href="#response-{number}">Response {number + 1}</a> '
            f"<code>{_esc(_short(result.response_id or '(no id)'))}</code> "
            f'<span class="status st-{result.status.value}">{result.status.value}</span> '
            f"{counted(len(result.items), 'item')}, "
            f"{counted(len(result.diagnostics), 'diagnostic')} ({counted(errors, 'error')})</li>"
        )
    return '<ol class="contents">' + "".join(lines) + "</ol>"


def _links(links: Sequence[tuple[str, str]]) -> str:
    """The caller's links under the title (addresses checked as ``rule_url`` is)."""
    if not links:
        return ""
    for href, _ in links:
        check_address(href, "a link")
    shown = " · ".join(f'<a href="{_esc(href)}">{_esc(text)}</a>' for href, text in links)
    return f'<p class="links">Back to {shown}</p>'


def _asset(name: str) -> str:
    return files("responses_oracle.timeline").joinpath(name).read_text(encoding="utf-8")


SCRIPT_FILE: Final = "timeline.js"
STYLE_FILE: Final = "timeline.css"


def shared_assets() -> dict[str, str]:
    """The script and style every page inlines, as files for pages that link them
    (``render_timeline(..., assets=...)``): file name → text."""
    return {SCRIPT_FILE: _asset(SCRIPT_FILE), STYLE_FILE: _asset(STYLE_FILE) + "\n" + _colour_css()}


def _candidate_answer(candidate: _Candidate, page: _Page) -> str:
    answer = candidate.answer
    shown = (
        f"failure: {answer.message}"
        if isinstance(answer, Failure)
        else json.dumps(answer, ensure_ascii=False, indent=2, default=repr)
    )
    general = _differences(candidate.general, page)
    return (
        f'<details class="answer"><summary>{_esc(candidate.name)}\'s answer</summary>'
        f"{general}<pre>{_esc(shown)}</pre></details>"
    )


def render_timeline(
    timeline: Timeline,
    *,
    title: str,
    rule_url: str | None = None,
    answer: Answer | None = None,
    candidate_name: str = "candidate",
    generated_by: str | None = None,
    assets: str | None = None,
    verdict: CellVerdict | None = None,
    links: Sequence[tuple[str, str]] = (),
) -> str:
    """The page of ``timeline`` (see ``responses_oracle.timeline.render_html``).

    ``generated_by`` is put in an HTML comment at the top (a generated file's header).
    ``assets``, when given, is the folder URL (``""`` for the page's own, else ending in
    ``/``) of the files of ``shared_assets``: the page links them instead of inlining
    them, and its policy allows scripts and styles from its own origin only.
    """
    check_rule_url(rule_url)
    placed = None if answer is None else _Candidate.of(candidate_name, answer, timeline)
    page = _Page(rule_url, placed, named_events(verdict))
    sections = [_response_html(n, r, page) for n, r in enumerate(timeline.responses)]
    if not sections:
        sections.append('<p class="empty">No events: nothing was reduced.</p>')
    answer_html = _candidate_answer(placed, page) if placed is not None else ""
    rules = {
        rule: {"s": RULES.get(rule, ""), "h": rule_href(rule_url, rule)}
        for rule in sorted(page.rules_used, key=lambda r: int(r[1:]))
    }
    geometry = {"axis": AXIS, "pad": PAD, "maxStep": MAX_STEP}
    data = _json_block({"marks": page.marks, "rules": rules, **geometry})
    shared = shared_assets()
    script, style = shared[SCRIPT_FILE], shared[STYLE_FILE]
    if assets is None:
        allowed = f"script-src {_sha256(script)}; style-src {_sha256(style)}"
        style_tag, script_tag = f"<style>{style}</style>", f"<script>{script}</script>"
    else:
        allowed = "script-src 'self'; style-src 'self'"
        style_tag = f'<link rel="stylesheet" href="{_esc(assets + STYLE_FILE)}">'
        script_tag = f'<script src="{_esc(assets + SCRIPT_FILE)}"></script>'
    policy = (
        f"default-src 'none'; {allowed}; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )
    events = len(timeline.payloads)
    page_text = (
        "<!DOCTYPE html>\n"
        + (f"<!-- {_esc(generated_by)} -->\n" if generated_by else "")
        + '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(title)}</title>{style_tag}</head><body>"
        f"<header><h1>{_esc(title)}</h1>"
        + _links(links)
        + f'<p class="summary">{counted(events, "event")} · '
        f'{counted(len(timeline.responses), "response")} · '
        "made by responses-oracle explain --html: lanes are the result's output items, "
        "x is the event index. Point at or click an event (← → step through them).</p>"
        '<div class="controls"><button type="button" data-zoom="out">&minus;</button>'
        '<button type="button" data-zoom="fit">fit</button>'
        '<button type="button" data-zoom="in">+</button></div>'
        + _legend()
        + "</header><main>"
        + (render_verdict(verdict) if verdict is not None else "")
        + _contents(timeline)
        + answer_html
        + "".join(sections)
        + '</main><aside id="panel" aria-live="polite"><p class="hint">'
        "Point at an event to see its JSON, route, transition and rule.</p></aside>"
        f'<script type="application/json" id="timeline-data">{data}</script>'
        f"{script_tag}</body></html>\n"
    )
    # A lone surrogate (legal in a JSON escape) cannot be written as UTF-8: it is shown as
    # its escape, in the data block an escape JSON.parse reads back (cli.render.clean).
    return clean(page_text)
