"""Look, don't read: a per-item timeline of any stream, as one self-contained HTML page.

``render_html(events)`` reduces a stream exactly as ``responses-oracle explain`` does and
draws it: a lane per output item of each response (and one for response-level events),
x the event index, each lane coloured by the item's lifecycle state (R8), a mark per
event (deltas, dones, the snapshot...), a dot per diagnostic in its severity's colour,
the item's slot beside its lane (a reused slot stands out, R3).  Pointing at or clicking
an event shows its JSON, the route and transition ``explain`` reports, and the rules it
applied, linked to the rule pages of the docs site when ``rule_url`` says where they are.

The page makes no request: SVG, CSS and script are inline, and its Content Security
Policy allows nothing else (pages that share one copy of the script and style,
``assets``, load those two files from their own origin and nothing else).  Strings
from the stream are escaped wherever they appear, so a hostile stream cannot run code
in it (``page``'s docstring says how).

``build.build_timeline`` is the data (lanes, segments, marks), ``page.render_timeline``
the drawing; ``render_html`` is both in one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from responses_oracle.core.step import DEFAULT_LIMITS, ReducerLimits
from responses_oracle.differential.candidate import Answer, Failure
from responses_oracle.wire.records import WireEvent

from .build import FOLD_ABOVE, Timeline, build_timeline
from .page import render_timeline, shared_assets
from .verdict import CellVerdict

__all__ = [
    "FOLD_ABOVE", "CellVerdict", "Failure", "Timeline", "build_timeline", "render_html",
    "render_timeline", "shared_assets",
]


def render_html(
    events: Iterable[Mapping[str, Any] | WireEvent],
    *,
    title: str = "responses-oracle timeline",
    answer: Answer | None = None,
    candidate_name: str = "candidate",
    rule_url: str | None = None,
    limits: ReducerLimits = DEFAULT_LIMITS,
    fold_above: int = FOLD_ABOVE,
    generated_by: str | None = None,
    assets: str | None = None,
    verdict: CellVerdict | None = None,
    links: Sequence[tuple[str, str]] = (),
) -> str:
    """The timeline page of ``events``, as the text of one HTML document.

    ``events`` are decoded event objects, or ``WireEvent``s from the front end
    (``responses_oracle.wire.read_wire_events``), as ``Reducer.feed`` takes them.
    ``answer`` is another parser's (a candidate's) answer for the same stream — its list of result
    objects (the result contract, one per response), or a ``Failure`` — shown beside
    the reference lanes, with each difference on the lane of the item it concerns
    (``differential.compare``).  ``rule_url`` is where the rule pages are, with ``{rule}``
    for ``R1`` … ``R12`` (e.g. ``"../rules/{rule}/"``); without it rules are named, not
    linked.  Responses of more than ``fold_above`` events fold runs of routine events.
    ``generated_by`` is written in an HTML comment at the top (a generated file's header).
    ``assets`` is the folder URL of ``shared_assets()``'s files, for a set of pages that
    share one copy of the script and style (``page.render_timeline``).  ``verdict`` is
    serve's verdict on what a client did with the stream (``agents --html``), shown
    above the lanes, with the events that carry a judged call marked on them.  ``links``
    are (address, text) pairs shown under the title: where the page was linked from
    (an audit's summary and its findings).
    """
    timeline = build_timeline(events, limits=limits, fold_above=fold_above)
    return render_timeline(
        timeline,
        title=title,
        rule_url=rule_url,
        answer=answer,
        candidate_name=candidate_name,
        generated_by=generated_by,
        assets=assets,
        verdict=verdict,
        links=links,
    )
