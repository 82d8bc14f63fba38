"""How the text people read writes a count: ``counted(1, "response")`` is ``1 response``,
``counted(2, "response")`` is ``2 responses``, ``counted(12345, "input")`` is ``12,345
inputs``.  Every message that counts something says it this way, so no output reads
"1 responses"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one (``plural`` when
    it is not the noun plus ``s``); thousands separated by commas."""
    word = noun if count == 1 else (plural if plural is not None else f"{noun}s")
    return f"{count:,} {word}"
