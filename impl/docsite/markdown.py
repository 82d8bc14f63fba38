"""Markdown building blocks for the generated pages: tables, code blocks, JSON.

Output must be byte-stable (the drift test compares it with the committed pages), so
JSON is always written with fixed separators and key order as given, never sorted
or re-indented by anything that depends on the environment.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any


def code(text: str) -> str:
    """``text`` as an inline code span that survives any backticks inside it."""
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """``text`` made safe for a table cell: pipes escaped, line breaks as ``<br>``."""
    return text.replace("|", "\\|").replace("\n", "<br>")


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A Markdown table; cells are escaped with ``cell``."""
    lines = [f"| {' | '.join(map(cell, header))} |", f"|{'---|' * len(header)}"]
    lines.extend(f"| {' | '.join(map(cell, row))} |" for row in rows)
    return lines


def fenced(language: str, text: str, title: str | None = None, wrap: bool = False) -> list[str]:
    """A fenced code block; ``title`` becomes its caption, ``wrap`` folds long lines.

    ``wrap`` adds the class ``wrap``, which the site's stylesheet (``extra.css``) renders
    with wrapped lines: a stream has one long event a line.
    """
    attributes = [f".{language}"]
    if wrap:
        attributes.append(".wrap")
    if title:
        attributes.append(f'title="{title}"')
    return [f"``` {{{' '.join(attributes)}}}", *text.rstrip("\n").splitlines(), "```"]


def details(summary: str, body: list[str], open_: bool = False) -> list[str]:
    """A collapsible block (``pymdownx.details``), closed unless ``open_``."""
    marker = "???+" if open_ else "???"
    return [f'{marker} note "{summary}"', "", *(f"    {line}" if line else "" for line in body)]


def compact_json(value: Any) -> str:
    """One JSON value on one line, as a stream carries it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def spaced_json(value: Any) -> str:
    """One JSON value on one line with spaces after separators, so a table can wrap it."""
    return json.dumps(value, ensure_ascii=False)


def pretty_json(value: Any) -> str:
    """One JSON value indented for reading."""
    return json.dumps(value, ensure_ascii=False, indent=2)
