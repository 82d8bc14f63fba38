"""A page for each example stream: the summary links its examples to their timelines.

The summary names a few example streams per group.  ``example_pages`` draws each of
them once with ``responses_oracle.timeline.render_html`` (lanes per item, a mark per
event, the diagnostics) into ``OUT/streams/KEY.html`` and returns where each input's
page is, so that the summary links an example to its page (``summary.document``); each
page links back to the summary and to the rows of the findings it is an example of
(``summary.example_groups``).

The pages are drawn on the driver after the run, from the inputs again: a file is read
and decoded as the workers did (``work.file_events``), a manifest row is found by
reading its manifest once, only the slices that hold a wanted row
(``sources.manifest_slices``, ``work.iter_slice``).  At most ``MAX_PAGES`` pages are
drawn (``audit --pages N``; 0 draws none), the examples of the first groups first; an
input that cannot be read again simply gets no page (its row already says what it is).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from responses_oracle.audit.sources import InputFault, PlanError, StorageOptions, manifest_slices
from responses_oracle.audit.summary import SUMMARY_HTML, Summary, example_groups
from responses_oracle.audit.work import Settings, file_events, iter_slice, row_events
from responses_oracle.wire import WireEvent

MAX_PAGES: Final = 100
"""Example stream pages drawn per audit at most, by default (``audit --pages``)."""

FOLDER: Final = "streams"
"""Where the pages go, under the output folder."""


def _wanted(summary: Summary, limit: int) -> list[tuple[str, str]]:
    """(source, stream id) of the examples, each input once, the first groups first."""
    seen: dict[str, str] = {}
    for group in summary.groups:
        for example in group.examples:
            if len(seen) == limit:
                return list(seen.items())
            seen.setdefault(example.source, example.stream_id)
    return list(seen.items())


def _split(source: str, manifests: Collection[str]) -> tuple[str, int] | None:
    """(manifest, row) when ``source`` names a manifest row, None for a file."""
    manifest, _, row = source.rpartition("#")
    return (manifest, int(row)) if manifest in manifests and row.isdigit() else None


def _manifest_rows(
    manifest: str, numbers: set[int], storage_options: StorageOptions
) -> dict[int, Any]:
    """The rows ``numbers`` of one manifest, reading only the slices that hold them."""
    found: dict[int, Any] = {}
    _, slices = manifest_slices(manifest, storage_options=storage_options)
    for piece in slices:
        if not any(piece.first_row <= n < piece.first_row + piece.rows for n in numbers):
            continue
        for offset, row in enumerate(iter_slice(piece, storage_options)):
            if piece.first_row + offset in numbers:
                found[piece.first_row + offset] = row
    return found


def _draw(
    events: Iterable[WireEvent | Mapping[str, Any]], title: str, back: list[tuple[str, str]]
) -> str:
    # Imported here: the timeline reuses ``cli.explain``, and the command line imports
    # this package, so a module-level import would be circular.
    from responses_oracle.timeline import render_html

    links = [(f"../{SUMMARY_HTML}", "the audit summary")]
    links += [(f"../{SUMMARY_HTML}#{anchor}", label) for anchor, label in back]
    return render_html(list(events), title=title, generated_by="responses-oracle audit",
                       links=links)


def example_pages(
    out: Path,
    summary: Summary,
    manifests: Collection[str],
    settings: Settings,
    limit: int = MAX_PAGES,
) -> dict[str, str]:
    """Draw at most ``limit`` example streams' pages under ``out`` (stale ones removed);
    source -> address relative to ``out``."""
    wanted = _wanted(summary, limit)
    rows_wanted: dict[str, set[int]] = defaultdict(set)
    for source, _ in wanted:
        split = _split(source, manifests)
        if split is not None:
            rows_wanted[split[0]].add(split[1])
    manifest_rows: dict[str, dict[int, Any]] = {}
    for manifest, numbers in rows_wanted.items():
        try:
            manifest_rows[manifest] = _manifest_rows(manifest, numbers, settings.storage_options)
        except (InputFault, PlanError):
            manifest_rows[manifest] = {}
    folder = out / FOLDER
    folder.mkdir(exist_ok=True)
    for stale in folder.glob("*.html"):
        stale.unlink()
    pages: dict[str, str] = {}
    for source, stream_id in wanted:
        split = _split(source, manifests)
        back = example_groups(summary, source)
        try:
            if split is None:
                page = _draw(file_events(source, settings), stream_id, back)
            else:
                row = manifest_rows[split[0]].get(split[1])
                events = row_events(split[0], row, settings) if isinstance(row, dict) else None
                if events is None:
                    continue
                page = _draw(events, stream_id, back)
        except InputFault:
            continue
        name = f"{FOLDER}/{hashlib.sha256(source.encode()).hexdigest()[:16]}.html"
        (out / name).write_text(page, encoding="utf-8")
        pages[source] = name
    return pages
