"""The three verdicts of a scenario call, as ``serve`` wrote them to ``verdicts.json``.

Rules
-----
1. The verdicts are serve's (``responses_oracle.serve.verdicts`` names them, its judge
   decides): this module reads them, it never judges.  A verdict is ``True`` (holds),
   ``False`` (fails) or ``None`` (does not apply), with serve's reason and its notes
   (what differed without harm).
2. A ``verdicts.json`` that is missing or unreadable gives no call at all, and a
   scenario serve never served gives none either: the cell then says why
   (``Cell.reason``) instead of showing a verdict.

Theory of operation
-------------------
``load_verdicts`` reads serve's file (format ``responses-oracle/serve-verdicts``): the
entry of the one scenario served, its calls with their booleans and reasons, whether
the call was dropped (no next request), and the stream as served (its timeline).
``summary`` folds a cell's calls into one mark per verdict: ``FAIL`` if any call
breaks it, ``ok`` if every call it applies to holds, ``n/a`` if it applies to none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from responses_oracle.serve.verdicts import ANSWER_KEPT, VerdictName

VERDICTS: Final = tuple(name.value for name in VerdictName)
"""The three verdicts of a call, in report order (serve's names and order)."""

LABELS: Final = {"executed": "executed", "history_faithful": "history-faithful",
                 "api_valid": "API-valid"}
"""Each verdict as the reports name it."""


@dataclass(frozen=True)
class CallVerdict:
    """One scenario call: its id, type and mapped name, and each verdict with its reason."""

    call_id: str
    name: str
    values: Mapping[str, bool | None]
    reasons: Mapping[str, str] = field(default_factory=dict)
    item_type: str = ""
    executable: bool | None = None
    expected: Mapping[str, Any] | None = None
    """The oracle's replay item of the call (serve's ``expected``); not recorded."""
    events: tuple[int, ...] = ()
    """The served events that carry the call (serve's ``events``); not recorded."""
    notes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per verdict, what differed without harm (serve's notes: another of the
    provider's ids, other bytes of JSON-equal arguments): shown beside it, never a
    failure."""

    def to_json(self) -> dict[str, Any]:
        """The call as recorded data."""
        return {
            "call_id": self.call_id,
            "type": self.item_type,
            "name": self.name,
            "executable": self.executable,
            **{key: self.values.get(key) for key in VERDICTS},
            "reasons": {key: self.reasons.get(key, "") for key in VERDICTS},
            **({"notes": {key: list(found) for key, found in self.notes.items()}}
               if self.notes else {}),
        }

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> CallVerdict:
        """A call from serve's record, or from ``to_json``'s (a reason is serve's
        ``{"value", "reason", "rule"}`` object, or its text)."""
        reasons = {}
        notes = {
            key: tuple(str(note) for note in found)
            for key, found in (record.get("notes") or {}).items() if found
        }
        for key, given in (record.get("reasons") or {}).items():
            reasons[key] = str(given.get("reason", "") if isinstance(given, Mapping) else given)
            if isinstance(given, Mapping) and given.get("notes"):
                notes[key] = tuple(str(note) for note in given["notes"])
        return cls(
            call_id=str(record.get("call_id") or ""),
            name=str(record.get("name") or ""),
            values={key: record.get(key) for key in VERDICTS},
            reasons=reasons,
            item_type=str(record.get("type") or ""),
            executable=record.get("executable"),
            expected=record["expected"] if isinstance(record.get("expected"), Mapping) else None,
            events=tuple(i for i in record.get("events") or () if isinstance(i, int)),
            notes=notes,
        )


@dataclass(frozen=True)
class Served:
    """What serve wrote about a run: the calls of its scenario, or why there are none."""

    calls: list[CallVerdict]
    problem: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)
    mapping: list[dict[str, Any]] = field(default_factory=list)
    gateway: dict[str, Any] | None = None
    """serve's ``answer_kept`` verdict with its reason, the first request's problems and
    the differences (each its aspect, path, rule and why), when the downstream was
    handed back (gateway mode); the values compared are left in serve's file."""
    not_applicable: str = ""
    """Why no offered tool could take the scenario's calls as a model makes them (serve's
    ``not_applicable``): the cell is no verdict."""
    stream: bool | None = None
    """Whether the client asked for a stream (``False``: judged on the terminal
    response object serve answered ``stream: false`` with)."""
    next_request: int | None = None
    """The index of the client's request that answered the scenario's calls (in serve's
    ``requests.jsonl``); None when it sent none (the calls were dropped)."""


def load_verdicts(path: Path) -> Served:
    """The calls serve judged in its ``verdicts.json`` (one scenario per serve run)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Served([], "serve wrote no verdicts.json")
    scenarios = data.get("scenarios") or []
    skipped = [str(why).split(": ", 1)[-1] for why in data.get("not_applicable") or []]
    if not scenarios and skipped:
        return Served([], f"not applicable: {skipped[0]}", not_applicable=skipped[0])
    if not scenarios:
        errors = "; ".join(data.get("errors") or [])
        if errors:
            # Passed over: serve could not play it to what the client offered.
            return Served([], f"serve could not play the scenario: {errors}")
        unserved = ", ".join(data.get("unserved") or []) or "the scenario"
        because = data.get("unserved_because") or "no request asked for it"
        return Served([], f"serve never served {unserved}: {because}")
    entry = scenarios[0]
    return Served(
        [CallVerdict.from_json(call) for call in entry.get("calls") or []],
        "" if entry.get("calls") else "the scenario has no call to judge",
        list(entry.get("served_events") or []),
        list(entry.get("mapping") or []),
        _gateway(entry.get("gateway")),
        stream=entry.get("stream") if isinstance(entry.get("stream"), bool) else None,
        next_request=entry["next_request"] if isinstance(entry.get("next_request"), int)
        else None,
    )


def _gateway(found: Any) -> dict[str, Any] | None:
    if not isinstance(found, Mapping) or ANSWER_KEPT not in found:
        return None
    return {
        ANSWER_KEPT: found[ANSWER_KEPT],
        "reason": str(found.get("reason") or ""),
        "differences": [
            {key: d.get(key) for key in ("aspect", "path", "rule", "why")}
            for d in found.get("differences") or [] if isinstance(d, Mapping)
        ],
        "upstream_problems": list(found.get("upstream_problems") or []),
    }


def summary(calls: Iterable[CallVerdict]) -> dict[str, str]:
    """One mark per verdict for a cell: ``FAIL``, ``ok`` or ``n/a`` (module docstring)."""
    calls = list(calls)
    marks = {}
    for key in VERDICTS:
        given = [call.values.get(key) for call in calls]
        if any(value is False for value in given):
            marks[key] = "FAIL"
        elif any(value is True for value in given):
            marks[key] = "ok"
        else:
            marks[key] = "n/a"
    return marks
