"""The three verdicts of a scenario call, as ``serve`` wrote them to ``verdicts.json``.

Rules
-----
1. The verdicts are serve's: this module reads them, it never judges.  A verdict is
   ``True`` (holds), ``False`` (broken) or ``None`` (does not apply), with serve's reason.
2. A ``verdicts.json`` that is missing or unreadable gives no call at all, so the cell
   says so (``Cell.reason``) instead of inventing a verdict.

Theory of operation
-------------------
``VERDICTS`` names the three verdicts once, in the order every report shows them.
``load_verdicts`` reads serve's file: its ``calls`` (or ``verdicts``) list, one record a
scenario call, each verdict a boolean or null with its reason beside it (``reasons``,
``<verdict>_reason``, or a ``{"value", "reason"}`` object).  ``summary`` folds a cell's
calls into one mark per verdict: ``FAIL`` if any call breaks it, ``ok`` if every call
it applies to holds, ``n/a`` if it applies to none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

VERDICTS: Final = ("executed", "history_faithful", "api_valid")
"""The three verdicts of a call, in report order."""

LABELS: Final = {"executed": "executed", "history_faithful": "history-faithful",
                 "api_valid": "API-valid"}
"""Each verdict as the reports name it."""


@dataclass(frozen=True)
class CallVerdict:
    """One scenario call: its ids and name, and each verdict with its reason."""

    call_id: str
    name: str
    values: Mapping[str, bool | None]
    reasons: Mapping[str, str] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The call as recorded data."""
        return {
            "call_id": self.call_id,
            "name": self.name,
            **{key: self.values.get(key) for key in VERDICTS},
            "reasons": {key: self.reasons.get(key, "") for key in VERDICTS},
            **({"extra": dict(self.extra)} if self.extra else {}),
        }

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> CallVerdict:
        """A call from serve's record (or from ``to_json``'s)."""
        values: dict[str, bool | None] = {}
        reasons: dict[str, str] = {}
        given = record.get("reasons")
        for key in VERDICTS:
            raw = record.get(key)
            reason = record.get(f"{key}_reason")
            if isinstance(raw, Mapping):
                reason = raw.get("reason", reason)
                raw = raw.get("value", raw.get("ok"))
            if isinstance(given, Mapping) and key in given:
                reason = given[key]
            values[key] = raw if isinstance(raw, bool) else None
            reasons[key] = str(reason or "")
        known = {"call_id", "name", "reasons", *VERDICTS, *(f"{k}_reason" for k in VERDICTS)}
        extra = {k: v for k, v in record.items() if k not in known and k != "extra"}
        extra.update(record.get("extra") or {})
        return cls(
            call_id=str(record.get("call_id") or ""),
            name=str(record.get("name") or record.get("tool") or ""),
            values=values,
            reasons=reasons,
            extra=extra,
        )


def load_verdicts(path: Path, scenario: str) -> list[CallVerdict]:
    """The calls serve judged, from its ``verdicts.json``; none if there is no file.

    A file with several scenarios (one serve, many conversations) gives only the calls
    of ``scenario``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [CallVerdict.from_json(record) for record in _records(data, scenario)]


def _records(data: Any, scenario: str) -> Iterable[Mapping[str, Any]]:
    if isinstance(data, list):
        for entry in data:
            if isinstance(entry, Mapping) and ("calls" in entry or "verdicts" in entry):
                if entry.get("scenario") in (None, scenario):
                    yield from _records(entry, scenario)
            elif isinstance(entry, Mapping) and entry.get("scenario") in (None, scenario):
                yield entry
        return
    if isinstance(data, Mapping):
        for key in ("scenarios", "calls", "verdicts"):
            if key in data:
                yield from _records(data[key], scenario)
                return


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
