"""The timeline page of every rule's worked example: ``docs/timelines/R1.html`` …

Each rule page embeds the timeline of its example (``responses_oracle.timeline``): the
same reduction its trace table shows, drawn as lanes.  The pages are generated like the
Markdown pages (same header, same ``--check``) and copied by mkdocs as they are; their
rule links point back at the rule pages of the site (``RULE_URL``, relative to
``timelines/``), and open in the whole window when the page is embedded.  The pages of
one folder share one copy of the script and style (``asset_pages``), as the Real agents
timelines do.
"""

from __future__ import annotations

from typing import Final

from responses_oracle.timeline import render_html, shared_assets

from .examples import Run, inputs
from .rule_texts import RULES, Rule

FOLDER: Final = "timelines"
"""Where the timeline pages go, under ``docs/``."""

RULE_URL: Final = "../rules/{rule}/"
"""The rule pages as seen from ``docs/timelines/`` once the site is built."""

_ROW, _CHROME, _RESPONSE, _DIAGNOSTIC = 34, 330, 110, 23
"""Pixel heights the embedding frame is sized by: a lane, the page's header and panel,
a response's heading and axis, a row of its diagnostics table."""


def timeline_path(rule: Rule) -> str:
    """The timeline page of ``rule``'s example, as a path under ``docs/``."""
    return f"{FOLDER}/{rule.key}.html"


def frame_height(outcome: Run) -> int:
    """Pixels an embedding ``<iframe>`` needs to show the whole timeline of ``outcome``."""
    return _CHROME + sum(
        _RESPONSE + _ROW * (len(r.result.items) + 1) + _DIAGNOSTIC * (len(r.result.diagnostics) + 1)
        for r in outcome.responses
    )


def timeline_page(rule: Rule, header: str) -> str:
    """The timeline page of ``rule``'s worked example (its script and style beside it:
    ``asset_pages``)."""
    return render_html(
        [event for _, _, event in inputs(rule.example)],
        title=f"{rule.key} {rule.title}: the worked example",
        rule_url=RULE_URL,
        generated_by=header,
        assets="",
    )


def asset_pages(folder: str, header: str) -> dict[str, str]:
    """The one copy of the timeline script and style the pages of ``folder`` share,
    each headed by ``header`` in a comment: path under ``docs/`` → text."""
    return {
        f"{folder}/{name}": f"/* {header} */\n{text}" for name, text in shared_assets().items()
    }


def render_timelines(header: str) -> dict[str, str]:
    """Every rule's timeline page, and the script and style they share: path under
    ``docs/`` → text."""
    pages = asset_pages(FOLDER, header)
    pages.update({timeline_path(rule): timeline_page(rule, header) for rule in RULES})
    return pages
