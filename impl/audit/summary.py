"""The audit summary: totals that reconcile, findings by provider x code x class.

Theory of operation
-------------------
``summarize`` reads the whole dataset once (``store.OutputDir.dataset``) and counts:

- the totals: inputs planned, inputs seen in the rows (one ``source`` per input),
  inputs reduced and inputs failed, responses, events.  They *reconcile* when every
  planned input is in the rows exactly once as reduced or failed; a summary that does
  not reconcile says so at the top (it means rows were lost, which must not happen);
- ``groups``: responses by provider x diagnostic code x divergence class, with the
  code's severity and rule, the number of responses and streams, and example stream
  ids (the first in name order, so both engines give the same summary).  A response
  without diagnostics counts under the code ``(none)``; one without persisted output
  under the class ``(not compared)``, one whose persisted output agrees under
  ``(agrees)``;
- the failed inputs by error kind x provider, with examples and their messages;
- one line per provider.

``compare`` sets two summaries side by side ("what changed since last week"): for each
group whose count changed, its share of its provider's responses before and now; new and
vanished groups first, then the largest changes.  A group whose count is the same is not
listed even when its share moved (its provider's other groups did), nor is one whose share
moved less than ``CHANGE_THRESHOLD``.

A summary is rendered from one ``Document`` (sections of paragraphs and tables) as
Markdown (``to_markdown``) and as a self-contained HTML page (``to_html``), so the two
cannot say different things.  Findings by code is a chart: inline SVG in the page (a bar
per code in its severity's colour, linked to the code's first row of the findings), a
text chart in the Markdown.  An example links to its stream's timeline page when
``example_pages`` drew one (``example_pages.example_pages``), and that page links back
to the rows of the findings it is an example of (``example_groups``).
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from responses_oracle.model.rules import CODE_RULES
from responses_oracle.model.vocabulary import SEVERITY, Code
from responses_oracle.words import counted

EXAMPLES: Final = 3
"""Example stream ids per group."""

NO_CODE: Final = "(none)"
NOT_COMPARED: Final = "(not compared)"
AGREES: Final = "(agrees)"
UNKNOWN_PROVIDER: Final = "(unknown)"

CHANGE_THRESHOLD: Final = 0.01
"""A group whose share of its provider's responses moved less than this is unchanged."""

GroupKey = tuple[str, str, str]
"""(provider, code, divergence class)."""


@dataclass(frozen=True, order=True)
class Example:
    """One response a group or a page points to."""

    stream_id: str
    response_index: int
    source: str
    """The input it came from (what ``example_pages`` reads to draw the stream)."""

    @property
    def label(self) -> str:
        """How the summary names it: the stream id, with ``#N`` past the first response."""
        return (
            self.stream_id if not self.response_index else f"{self.stream_id}#{self.response_index}"
        )


@dataclass(frozen=True)
class Group:
    """Responses sharing a provider, a diagnostic code and a divergence class."""

    provider: str
    code: str
    divergence: str
    responses: int
    streams: int
    examples: tuple[Example, ...]

    @property
    def severity(self) -> str:
        """The code's severity (empty for ``(none)``)."""
        return SEVERITY[Code(self.code)].value if self.code != NO_CODE else ""

    @property
    def rule(self) -> str:
        """The rule the code reports on (empty for ``(none)``)."""
        return CODE_RULES.get(Code(self.code), "") if self.code != NO_CODE else ""


@dataclass(frozen=True)
class Failure:
    """Inputs that failed the same way at the same provider."""

    kind: str
    provider: str
    inputs: int
    examples: tuple[tuple[str, str], ...]
    """(stream id, error message) of the first inputs."""


@dataclass(frozen=True)
class ProviderLine:
    """One provider's totals."""

    provider: str
    responses: int
    failed_inputs: int
    errors: int
    """Responses with an error-severity diagnostic."""
    warnings: int
    executable_calls: int
    divergent: int
    """Responses whose persisted output differs from the reference."""


@dataclass(frozen=True)
class Summary:
    """Everything the summary says (rules in the module docstring)."""

    planned_inputs: int
    seen_inputs: int
    reduced_inputs: int
    failed_inputs: int
    responses: int
    events: int
    compared: int
    statuses: dict[str, int]
    groups: tuple[Group, ...]
    failures: tuple[Failure, ...]
    providers: tuple[ProviderLine, ...]
    duplicated_inputs: int = 0
    """Inputs that appear both reduced and failed, or in two partitions (must be 0)."""

    @property
    def reconciles(self) -> bool:
        """Every planned input is in the rows exactly once."""
        return (
            self.planned_inputs == self.seen_inputs == self.reduced_inputs + self.failed_inputs
            and self.duplicated_inputs == 0
        )

    def provider_responses(self) -> dict[str, int]:
        """Responses per provider."""
        return {line.provider: line.responses for line in self.providers}


def summarize(table: Any, planned_inputs: int) -> Summary:
    """The summary of a dataset of ``planned_inputs`` inputs."""
    columns = table.select(
        [
            "stream_id",
            "response_index",
            "provider",
            "source",
            "status",
            "events",
            "executable_calls",
            "severity",
            "codes",
            "divergences",
            "error_kind",
            "error",
            "partition",
        ]
    ).to_pydict()
    order = sorted(
        range(table.num_rows),
        key=lambda n: (columns["stream_id"][n], columns["response_index"][n] or 0),
    )
    counts: Counter[GroupKey] = Counter()
    streams: dict[GroupKey, set[str]] = defaultdict(set)
    examples: dict[GroupKey, list[Example]] = defaultdict(list)
    failures: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    statuses: Counter[str] = Counter()
    per_provider: dict[str, Counter[str]] = defaultdict(Counter)
    reduced: dict[str, str] = {}
    failed: dict[str, str] = {}
    duplicated = 0
    events = compared = 0
    for n in order:
        provider = columns["provider"][n] or UNKNOWN_PROVIDER
        source, partition = columns["source"][n], columns["partition"][n]
        events += columns["events"][n] or 0
        line = per_provider[provider]
        kind = columns["error_kind"][n]
        if kind is not None:
            if source in failed or source in reduced:
                duplicated += 1
            failed[source] = partition
            failures[(kind, provider)].append((columns["stream_id"][n], columns["error"][n]))
            line["failed_inputs"] += 1
            continue
        if failed.get(source) is not None or reduced.get(source, partition) != partition:
            duplicated += 1
        reduced[source] = partition
        statuses[columns["status"][n]] += 1
        line["responses"] += 1
        line["executable_calls"] += columns["executable_calls"][n] or 0
        severity = columns["severity"][n]
        if severity in ("error", "warning"):
            line[f"{severity}s"] += 1
        classes = columns["divergences"][n]
        if classes is not None:
            compared += 1
            line["divergent"] += bool(classes)
        example = Example(columns["stream_id"][n], columns["response_index"][n] or 0, source)
        for code in columns["codes"][n] or [NO_CODE]:
            for divergence in (AGREES,) if classes == [] else classes or (NOT_COMPARED,):
                key = (provider, code, divergence)
                counts[key] += 1
                streams[key].add(source)
                if len(examples[key]) < EXAMPLES:
                    examples[key].append(example)
    groups = tuple(
        Group(*key, counts[key], len(streams[key]), tuple(examples[key]))
        for key in sorted(counts, key=lambda key: (key[0], -counts[key], key[1], key[2]))
    )
    return Summary(
        planned_inputs=planned_inputs,
        seen_inputs=len(set(reduced) | set(failed)),
        reduced_inputs=len(reduced),
        failed_inputs=len(failed),
        responses=sum(statuses.values()),
        events=events,
        compared=compared,
        statuses=dict(sorted(statuses.items())),
        groups=groups,
        failures=tuple(
            Failure(kind, provider, len(found), tuple(found[:EXAMPLES]))
            for (kind, provider), found in sorted(failures.items())
        ),
        providers=tuple(
            ProviderLine(
                provider,
                line["responses"],
                line["failed_inputs"],
                line["errors"],
                line["warnings"],
                line["executable_calls"],
                line["divergent"],
            )
            for provider, line in sorted(per_provider.items())
        ),
        duplicated_inputs=duplicated,
    )


# -- comparing two audits --------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One group in two audits: responses and share of its provider's responses."""

    key: GroupKey
    before: int
    before_share: float
    now: int
    now_share: float

    @property
    def kind(self) -> str:
        """``new``, ``gone`` or ``changed``."""
        return "new" if not self.before else "gone" if not self.now else "changed"


def compare(before: Summary, now: Summary) -> tuple[list[Change], int]:
    """The groups whose count and share changed (new and gone first), and how many
    groups did not."""
    totals = before.provider_responses(), now.provider_responses()
    counts = (
        {g_key(g): g.responses for g in before.groups},
        {g_key(g): g.responses for g in now.groups},
    )
    changes: list[Change] = []
    unchanged = 0
    for key in sorted(set(counts[0]) | set(counts[1])):
        values = [side.get(key, 0) for side in counts]
        shares = [
            v / t[key[0]] if t.get(key[0]) else 0.0 for v, t in zip(values, totals, strict=True)
        ]
        change = Change(key, values[0], shares[0], values[1], shares[1])
        moved = abs(shares[1] - shares[0]) >= CHANGE_THRESHOLD
        if values[0] == values[1] or (change.kind == "changed" and not moved):
            unchanged += 1
        else:
            changes.append(change)
    rank = {"new": 0, "gone": 1, "changed": 2}
    changes.sort(key=lambda c: (rank[c.kind], -abs(c.now_share - c.before_share), c.key))
    return changes, unchanged


def g_key(group: Group) -> GroupKey:
    """A group's key."""
    return (group.provider, group.code, group.divergence)


# -- rendering ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A table cell that links to a page when ``href`` is set."""

    text: str
    href: str | None = None


Cell = str | int | Link | tuple[Link, ...]


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: a diagnostic code, its severity, its responses, and the
    anchor of its first row in the findings table."""

    code: str
    severity: str
    responses: int
    anchor: str


@dataclass
class Section:
    """A heading, paragraphs, at most one chart and at most one table (``row_ids``: an
    anchor per row, for links to it)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    header: tuple[str, ...] = ()
    rows: list[tuple[Cell, ...]] = field(default_factory=list)
    chart: tuple[Bar, ...] = ()
    row_ids: list[str] = field(default_factory=list)


def finding_anchor(index: int) -> str:
    """The anchor of ``summary.groups[index]``'s row in the findings table."""
    return f"finding-{index + 1}"


SUMMARY_HTML: Final = "summary.html"
"""The HTML summary's file name, beside the ``streams/`` folder of example pages."""


def example_groups(summary: Summary, source: str) -> list[tuple[str, str]]:
    """The findings an input is an example of, as (anchor, label): what its stream's
    page links back to."""
    return [
        (finding_anchor(n), f"{g.provider} · {g.code} · {g.divergence}")
        for n, g in enumerate(summary.groups)
        if any(example.source == source for example in g.examples)
    ]


def _by_code(summary: Summary) -> Section:
    """A bar per diagnostic code: its responses over every provider and class, the
    largest first; the responses without a diagnostic are said, not drawn."""
    totals: Counter[str] = Counter()
    first: dict[str, int] = {}
    for n, group in enumerate(summary.groups):
        totals[group.code] += group.responses
        first.setdefault(group.code, n)
    bars = tuple(
        Bar(code, summary.groups[first[code]].severity, responses, finding_anchor(first[code]))
        for code, responses in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
        if code != NO_CODE
    )
    clean = totals.get(NO_CODE, 0)
    said = (
        f"Responses with each diagnostic code, over every provider, coloured by severity; "
        f"a bar links to the code's first row of the findings. {counted(clean, 'response')} "
        f"had no diagnostic."
        if bars
        else f"No diagnostic in any response ({counted(clean, 'response')})."
    )
    return Section("Findings by code", [said], chart=bars)


def _examples(examples: Iterable[Example], pages: Mapping[str, str]) -> tuple[Link, ...]:
    return tuple(Link(example.label, pages.get(example.source)) for example in examples)


def _share(value: float) -> str:
    return f"{100 * value:.1f}%"


def _findings(summary: Summary, pages: Mapping[str, str]) -> Section:
    """The findings table; its divergence class only when persisted output was compared
    (without a manifest's ``output`` every class would be ``(not compared)``)."""
    header = ("provider", "code", "severity", "rule", "class", "responses", "streams", "examples")
    rows: list[tuple[Cell, ...]] = [
        (
            g.provider,
            g.code,
            g.severity,
            g.rule,
            g.divergence,
            g.responses,
            g.streams,
            _examples(g.examples, pages),
        )
        for g in summary.groups
    ]
    anchors = [finding_anchor(n) for n in range(len(rows))]
    if summary.compared:
        return Section(
            "Findings by provider, code and class",
            [
                f"Responses per diagnostic code and divergence class; {NO_CODE}: no "
                f"diagnostic, {NOT_COMPARED}: no persisted output, {AGREES}: the persisted "
                "output agrees with the reference."
            ],
            header,
            rows,
            row_ids=anchors,
        )
    class_column = header.index("class")
    return Section(
        "Findings by provider and code",
        [
            f"Responses per diagnostic code; {NO_CODE}: no diagnostic. No persisted output "
            "was compared (a manifest's output column compares it)."
        ],
        header[:class_column] + header[class_column + 1 :],
        [row[:class_column] + row[class_column + 1 :] for row in rows],
        row_ids=anchors,
    )


def document(
    summary: Summary,
    since: tuple[str, Summary] | None = None,
    pages: Mapping[str, str] | None = None,
) -> list[Section]:
    """The summary as sections (the comparison with ``since`` = (label, summary) last).

    ``pages`` maps an input's ``source`` to the address of its stream's page
    (``example_pages.example_pages``); examples without one are plain text.
    """
    pages = pages or {}
    verdict = (
        "The totals reconcile: every input is one row or more, none twice."
        if summary.reconciles
        else f"**The totals do not reconcile**: {summary.planned_inputs} inputs planned, "
        f"{summary.seen_inputs} in the rows, {summary.duplicated_inputs} twice. Rows were lost."
    )
    statuses = ", ".join(f"{status} {count:,}" for status, count in summary.statuses.items())
    sections = [
        Section(
            "Totals",
            [
                f"{counted(summary.planned_inputs, 'input')}: {summary.reduced_inputs:,} "
                f"reduced to {counted(summary.responses, 'response')} "
                f"({counted(summary.events, 'event')}), {summary.failed_inputs:,} failed. "
                f"{verdict}",
                f"Responses by status: {statuses or 'none'}. Persisted output compared with "
                f"the reference for {summary.compared:,} responses.",
            ],
        ),
        Section(
            "By provider",
            header=(
                "provider",
                "responses",
                "failed inputs",
                "with errors",
                "with warnings",
                "executable calls",
                "divergent",
            ),
            rows=[
                (
                    p.provider,
                    p.responses,
                    p.failed_inputs,
                    p.errors,
                    p.warnings,
                    p.executable_calls,
                    p.divergent,
                )
                for p in summary.providers
            ],
        ),
        _by_code(summary),
        _findings(summary, pages),
        Section(
            "Inputs that failed",
            [] if summary.failures else ["None: every input was reduced."],
            ("error", "provider", "inputs", "examples"),
            [
                (
                    f.kind,
                    f.provider,
                    f.inputs,
                    "; ".join(f"{stream_id}: {message}" for stream_id, message in f.examples),
                )
                for f in summary.failures
            ],
        ),
    ]
    if since is not None:
        label, before = since
        changes, unchanged = compare(before, summary)
        sections.append(
            Section(
                f"Changes since {label}",
                [
                    f"Before: {before.responses:,} responses from {before.planned_inputs:,} "
                    f"inputs; now: {summary.responses:,} from {summary.planned_inputs:,}. "
                    f"Shares are of the provider's responses; {unchanged} groups kept their "
                    f"count, or moved less than {_share(CHANGE_THRESHOLD)}, and are not "
                    "listed."
                ],
                (
                    "change",
                    "provider",
                    "code",
                    "class",
                    "before",
                    "now",
                    "share before",
                    "share now",
                ),
                [
                    (c.kind, *c.key, c.before, c.now, _share(c.before_share), _share(c.now_share))
                    for c in changes
                ],
            )
        )
    return sections


def _markdown_cell(cell: Cell) -> str:
    if isinstance(cell, Link):
        return f"[`{cell.text}`]({cell.href})" if cell.href else f"`{cell.text}`"
    if isinstance(cell, tuple):
        return ", ".join(_markdown_cell(link) for link in cell)
    text = f"{cell:,}" if isinstance(cell, int) else cell
    return text.replace("|", "\\|").replace("\n", " ")


BAR_CHARS: Final = 40
"""The longest bar of the Markdown chart, in characters."""


def _text_chart(bars: Sequence[Bar]) -> list[str]:
    """The chart as a text block: a row of blocks per code, as long as its share of the
    largest, then its number of responses."""
    width = max(len(bar.code) for bar in bars)
    largest = max(bar.responses for bar in bars)
    lines = [
        f"{bar.code:<{width}}  {'█' * max(1, round(BAR_CHARS * bar.responses / largest))} "
        f"{bar.responses:,} ({bar.severity})"
        for bar in bars
    ]
    return ["```text", *lines, "```", ""]


def to_markdown(sections: Sequence[Section], title: str) -> str:
    """The sections as a Markdown page."""
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for paragraph in section.paragraphs:
            lines += [paragraph, ""]
        if section.chart:
            lines += _text_chart(section.chart)
        if section.header and section.rows:
            lines.append("| " + " | ".join(section.header) + " |")
            lines.append("|" + "|".join("---" for _ in section.header) + "|")
            for row in section.rows:
                lines.append("| " + " | ".join(_markdown_cell(cell) for cell in row) + " |")
            lines.append("")
    return "\n".join(lines)


def _html_cell(cell: Cell) -> str:
    if isinstance(cell, Link):
        text = f"<code>{html.escape(cell.text)}</code>"
        return f'<a href="{html.escape(cell.href)}">{text}</a>' if cell.href else text
    if isinstance(cell, tuple):
        return ", ".join(_html_cell(link) for link in cell)
    if isinstance(cell, int):
        return f'<span class="n">{cell:,}</span>'
    return html.escape(cell)


_STRONG: Final = re.compile(r"\*\*(.+?)\*\*")

_STYLE: Final = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:80em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "th{background:#eef}td .n{display:block;text-align:right}code{font-size:90%}"
    "tr:target{outline:2px solid #f0a202}svg.chart text{font:12px system-ui,sans-serif}"
)

CHART_ROW: Final = 20
"""Height of one bar's row in the SVG chart, in pixels."""

CHART_BAR: Final = 420
"""Width of the longest bar, in pixels."""


def _svg_chart(bars: Sequence[Bar]) -> str:
    """The chart as inline SVG (in HTML, no namespace needed): a labelled bar per code
    in its severity's colour (the timeline's colours), each a link to the code's first
    row of the findings."""
    # Imported here: the timeline imports the command line, which imports this package.
    from responses_oracle.model.vocabulary import Severity
    from responses_oracle.timeline.page import SEVERITY_COLOURS

    colours = {severity.value: colour for severity, colour in SEVERITY_COLOURS.items()}
    label = 8 * max(len(bar.code) for bar in bars) + 10
    largest = max(bar.responses for bar in bars)
    parts = [
        f'<svg class="chart" role="img" aria-label="findings by code" width="'
        f'{label + CHART_BAR + 80}" height="{CHART_ROW * len(bars) + 4}">'
    ]
    for n, bar in enumerate(bars):
        y = n * CHART_ROW + 2
        width = max(1.0, CHART_BAR * bar.responses / largest)
        colour = colours.get(bar.severity, colours[Severity.INFO.value])
        parts.append(
            f'<a href="#{html.escape(bar.anchor)}"><title>{html.escape(bar.code)}: '
            f"{bar.responses:,} responses ({html.escape(bar.severity)})</title>"
            f'<text x="{label - 6}" y="{y + 14}" text-anchor="end">{html.escape(bar.code)}</text>'
            f'<rect x="{label}" y="{y + 2}" width="{width:.1f}" height="{CHART_ROW - 6}" '
            f'fill="{colour}"/><text x="{label + width + 6:.1f}" y="{y + 14}">'
            f"{bar.responses:,}</text></a>"
        )
    parts.append("</svg>")
    return "".join(parts)


def to_html(sections: Sequence[Section], title: str) -> str:
    """The sections as one self-contained HTML page (no script, no external asset)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    for section in sections:
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        for paragraph in section.paragraphs:
            text = _STRONG.sub(r"<strong>\1</strong>", html.escape(paragraph))
            parts.append(f"<p>{text}</p>")
        if section.chart:
            parts.append(_svg_chart(section.chart))
        if section.header and section.rows:
            parts.append("<table><thead><tr>")
            parts += [f"<th>{html.escape(name)}</th>" for name in section.header]
            parts.append("</tr></thead><tbody>")
            ids = section.row_ids or [""] * len(section.rows)
            for row, anchor in zip(section.rows, ids, strict=True):
                opening = f'<tr id="{html.escape(anchor)}">' if anchor else "<tr>"
                parts.append(opening + "".join(f"<td>{_html_cell(c)}</td>" for c in row)
                             + "</tr>")
            parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
