"""The timeline page of one cell of ``agents --html``: the stream as serve played it to
the client, under serve's verdict on what the client did with it.

Rules
-----
1. The outcome is the report's (``report.outcome``), the reasons serve's; nothing is
   judged here.  A broken verdict is drawn red only in a cell whose outcome is
   *broken*; in any other cell (*not judged* above all) it is amber and says "not
   counted", so a not-judged cell shows no red FAIL.  The reason line is
   ``report.why``, which says which broken verdicts count and why the others do not.
2. What the client replayed is read from serve's own log of the run
   (``requests.jsonl`` in the cell's folder): the items of the request serve judged
   (``next_request``) that carry a ``call_id``, under whatever ids the client gave
   them, shown beside the oracle's replay items.  A run with no such request shows
   that the calls were dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from responses_oracle.serve.server import REQUESTS_FILE
from responses_oracle.timeline.verdict import CallShown, CellVerdict, VerdictLine

from .report import BROKEN, outcome, why
from .runner import Cell
from .served_verdicts import LABELS, VERDICTS, Served


def _request(folder: Path, index: int | None) -> Mapping[str, Any] | None:
    """Request ``index`` of serve's log in ``folder`` (None: absent or unreadable)."""
    if index is None:
        return None
    try:
        lines = (folder / REQUESTS_FILE).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("index") == index:
            return record
    return None


def _replayed(request: Mapping[str, Any] | None) -> tuple[Mapping[str, Any], ...]:
    """The input items of ``request`` that carry a ``call_id`` (calls, outputs), under
    whatever ids the client gave them."""
    body = request.get("body") if request is not None else None
    items = body.get("input") if isinstance(body, dict) else None
    return tuple(
        item for item in items if isinstance(item, dict) and "call_id" in item
    ) if isinstance(items, list) else ()


def cell_verdict(cell: Cell, served: Served) -> CellVerdict:
    """serve's verdict on ``cell`` as its timeline page shows it (``served``: what
    serve wrote about the run, from the cell's folder)."""
    found = outcome(cell)
    request = _request(Path(cell.folder), served.next_request) if cell.folder else None
    calls = tuple(
        CallShown(
            call_id=call.call_id,
            name=call.name,
            events=call.events,
            verdicts=tuple(
                VerdictLine(LABELS[key], call.values.get(key), call.reasons.get(key, ""),
                            counted=found == BROKEN)
                for key in VERDICTS
            ),
            expected=call.expected,
        )
        for call in served.calls
    )
    return CellVerdict(
        outcome=found,
        reason=why(cell) or "every verdict that applies holds",
        calls=calls,
        next_request=served.next_request,
        replayed=_replayed(request),
        client=cell.client,
    )
