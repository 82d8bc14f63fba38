"""A scenario's clean twin: the same answer, sent as a valid stream.

A verdict on a scenario says what the client did with the scenario's deviation only
if the client handles the same answer without it.  The twin is that answer:

* for a built-in scenario (a base stream plus declared deviations,
  ``model.deviations``), the *base*, mapped onto the client's tools exactly as the
  served stream is -- the served stream is the mapped base with the deviations applied,
  so both hold the same calls, the same tools and the same harmless arguments, and
  differ in the declared deviations only;
* for any other stream (a user's file, a generated case), ``canonical``
  (``responses_oracle.canonicalizer``) of the stream *as served*, after mapping: the
  oracle's answer re-emitted as a complete, valid stream.

``serve --twin`` (``Scenario.twin``) plays each scenario's twin instead of the
scenario; the ``agents`` runner runs every cell twice, scenario then twin, and counts
a broken verdict only where the client gets the twin right
(``agents.report.outcome``).
"""

from __future__ import annotations

from dataclasses import replace

from .mapping import Mapped
from .scenarios import Scenario


def played(scenario: Scenario, mapped: Mapped) -> Mapped:
    """What serve plays of ``scenario`` once its events are ``mapped`` onto the client's
    tools: a built-in scenario's mapped base with its deviations (its twin: the mapped
    base), another stream as mapped (its twin: ``twin_of``)."""
    if scenario.built:
        return replace(mapped, events=tuple(scenario.played(mapped.events)))
    return twin_of(mapped) if scenario.twin else mapped


def twin_of(mapped: Mapped) -> Mapped:
    """``mapped`` with its events replaced by their canonical clean twin (the mapping
    kept): the twin of a stream that is not built from a base."""
    from responses_oracle.canonicalizer import canonical

    return replace(mapped, events=tuple(canonical(list(mapped.events))))
