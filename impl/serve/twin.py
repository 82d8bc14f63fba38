"""A scenario's clean twin: the same answer, sent as a valid stream.

A verdict on a scenario says what the client did with the scenario's deviation only
if the client handles the same answer without it.  The twin is that answer:
``canonical`` (``responses_oracle.canonicalizer``) re-emits the oracle's answer on the
stream *as served* -- after mapping, so the twin holds the same calls, mapped onto the
same offered tools with the same harmless arguments, byte for byte -- as a complete,
valid stream.  ``reduce(twin) == reduce(served)``: the judge expects the same of both.

``serve --twin`` (``Scenario.twin``) plays each scenario's twin instead of the
scenario; the ``agents`` runner runs every cell twice, scenario then twin, and counts
a broken verdict only where the client gets the twin right
(``agents.report.outcome``).
"""

from __future__ import annotations

from dataclasses import replace

from .mapping import Mapped


def twin_of(mapped: Mapped) -> Mapped:
    """``mapped`` with its events replaced by their clean twin (the mapping kept)."""
    from responses_oracle.canonicalizer import canonical

    return replace(mapped, events=tuple(canonical(list(mapped.events))))
