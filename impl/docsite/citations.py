"""Citations in the generated pages, as links: notes sections and GitHub threads.

Rules
-----
1. "protocol notes §N" and "peer notes §X" (also a list, "peer notes §A.1, §A.6") cite
   a section of the research notes the site publishes (``NOTES``: ``docs/notes/``); each
   ``§`` becomes a link to that section's anchor (``section_anchor``: ``§1.1`` of the
   protocol notes is ``#protocol-1-1``, ``§A.2`` of the peer notes ``#peer-a-2``).
2. A thread written ```owner/repo#N``` becomes a link to it on GitHub (``/issues/N``,
   which GitHub forwards to the pull request when N is one); a bare ```#N``` after it
   in the same text means the same repository, as the notes write a list of them.
3. Text already inside a Markdown link is left alone, so linking twice changes nothing.

``linked(text, base)`` applies both; ``base`` is the way from the page to ``docs/``
(``"../"`` for a rule page).  ``citations(text)`` lists the (notes, anchor) pairs a text
cites, for the test that every one of them exists.
"""

from __future__ import annotations

import re
from typing import Final

NOTES: Final[dict[str, str]] = {"protocol": "notes/protocol.md", "peer": "notes/peers.md"}
"""Which notes page each kind of citation names, under ``docs/``."""

_SECTION: Final = r"§(?:[A-Z]|\d+)(?:\.\d+)?"
_CITATION: Final = re.compile(rf"\b(protocol|peer) notes ({_SECTION}(?:, {_SECTION})*)")
_ONE_SECTION: Final = re.compile(_SECTION)
_THREAD: Final = re.compile(r"(?<!\[)`(?:([\w.-]+/[\w.-]+))?#(\d+)`(?!\])")
_LINKED: Final = re.compile(r"\[[^\]]*\]\([^)]*\)")


def section_anchor(notes: str, section: str) -> str:
    """The anchor of ``section`` (``§1.1``, ``§A.2``) in the ``notes`` page."""
    return f"{notes}-" + section.lstrip("§").lower().replace(".", "-")


def citations(text: str) -> list[tuple[str, str]]:
    """Every (notes page under ``docs/``, anchor) that ``text`` cites (rule 1)."""
    return [
        (NOTES[match.group(1)], section_anchor(match.group(1), section))
        for match in _CITATION.finditer(text)
        for section in _ONE_SECTION.findall(match.group(2))
    ]


def _link_sections(match: re.Match[str], base: str) -> str:
    notes = match.group(1)

    def link(section: re.Match[str]) -> str:
        anchor = section_anchor(notes, section.group(0))
        return f"[{section.group(0)}]({base}{NOTES[notes]}#{anchor})"

    return f"{notes} notes " + _ONE_SECTION.sub(link, match.group(2))


def _link_threads(text: str) -> str:
    repository: str | None = None

    def link(match: re.Match[str]) -> str:
        nonlocal repository
        repository = match.group(1) or repository
        if repository is None:
            return match.group(0)
        return f"[{match.group(0)}](https://github.com/{repository}/issues/{match.group(2)})"

    return _THREAD.sub(link, text)


def linked(text: str, base: str = "") -> str:
    """``text`` with its notes citations and GitHub threads as links (module rules)."""
    pieces: list[str] = []
    start = 0
    for existing in _LINKED.finditer(text):
        pieces.append(_plain_linked(text[start : existing.start()], base))
        pieces.append(existing.group(0))
        start = existing.end()
    pieces.append(_plain_linked(text[start:], base))
    return "".join(pieces)


def _plain_linked(text: str, base: str) -> str:
    text = _CITATION.sub(lambda match: _link_sections(match, base), text)
    return _link_threads(text)


_PEER_SOURCE: Final = re.compile(r"section ([A-Z])\b|\b([A-Z]\.\d+)\b")


def peer_sections(source: str, base: str = "") -> str:
    """A peers-page scenario's source ("section D row 1; A.2, B.2") with each section
    linked into the peer notes (rule 1)."""

    def link(match: re.Match[str]) -> str:
        section = f"§{match.group(1) or match.group(2)}"
        return f"[{section}]({base}{NOTES['peer']}#{section_anchor('peer', section)})"

    return _PEER_SOURCE.sub(link, source)
