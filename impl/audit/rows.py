"""The audit dataset's rows: one per reduced response, one per input that failed.

``SCHEMA`` is the Parquet schema of every partition file (``docs/usage/audit.md``
describes each column; a test checks the two agree).  ``Rows`` collects rows column by
column -- a partition of thousands of responses becomes one ``pyarrow.Table`` without a
dict per row -- and ``Rows.table`` builds it against ``SCHEMA``.

A response row carries what the reducer answered (status, item and call counts, the
diagnostics with their severities, the rules behind them) and, when the manifest gave
the output items another parser persisted, the divergence classes of the differential
taxonomy.  An input that yielded no response -- unreadable, a corrupt archive, not a
stream, a bad manifest row, a partition whose worker kept dying -- is one row with
``error_kind`` and ``error`` set and ``status`` null, so that every input is a row and
the totals reconcile with the input count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from responses_oracle.audit.libraries import require
from responses_oracle.audit.sources import Fault
from responses_oracle.core.state import Diagnostic
from responses_oracle.model.catalogue import ITEM_TYPES, UNKNOWN_ITEM_TYPE
from responses_oracle.model.vocabulary import SEVERITY, Severity
from responses_oracle.result import Result
from responses_oracle.testing.rule_codes import rules_of_codes

MAX_DIAGNOSTICS: Final = 1000
"""Diagnostics kept per row; ``diagnostic_count`` always has the full number."""

_WORST: Final = (Severity.ERROR, Severity.WARNING, Severity.INFO)

COLUMNS: Final[tuple[str, ...]] = (
    "stream_id",
    "response_index",
    "response_id",
    "provider",
    "model",
    "source",
    "status",
    "events",
    "items",
    "calls",
    "executable_calls",
    "ok",
    "severity",
    "codes",
    "rules",
    "diagnostic_count",
    "diagnostics",
    "persisted_items",
    "divergences",
    "error_kind",
    "error",
    "partition",
)
"""The columns, in schema order."""


def schema() -> Any:
    """The ``pyarrow.Schema`` of the dataset (pyarrow is imported on first use)."""
    pa = require("pyarrow", "audit", "an audit")
    text, small = pa.string(), pa.int32()
    diagnostic = pa.struct([("code", text), ("severity", text), ("event_index", pa.int64())])
    types = {
        "stream_id": text,
        "response_index": small,
        "response_id": text,
        "provider": text,
        "model": text,
        "source": text,
        "status": text,
        "events": pa.int64(),
        "items": small,
        "calls": small,
        "executable_calls": small,
        "ok": pa.bool_(),
        "severity": text,
        "codes": pa.list_(text),
        "rules": pa.list_(text),
        "diagnostic_count": pa.int64(),
        "diagnostics": pa.list_(diagnostic),
        "persisted_items": small,
        "divergences": pa.list_(text),
        "error_kind": text,
        "error": text,
        "partition": text,
    }
    return pa.schema([(name, types[name]) for name in COLUMNS])


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a stream came from: the columns every row of one input shares."""

    stream_id: str
    source: str
    provider: str | None
    model: str | None


def _is_call(entry_item: dict[str, Any]) -> bool:
    kind = entry_item.get("type")
    spec = ITEM_TYPES.get(kind, UNKNOWN_ITEM_TYPE) if isinstance(kind, str) else UNKNOWN_ITEM_TYPE
    return spec.client_call


def _diagnostic_columns(diagnostics: Sequence[Diagnostic]) -> dict[str, Any]:
    """The diagnostic columns of a row: codes, their rules, the worst severity, the list."""
    codes = sorted({d.code.value for d in diagnostics})
    severities = {SEVERITY[d.code] for d in diagnostics}
    return {
        "codes": codes,
        "rules": rules_of_codes(codes),
        "severity": next((s.value for s in _WORST if s in severities), None),
        "diagnostic_count": len(diagnostics),
        "diagnostics": [
            {"code": d.code.value, "severity": SEVERITY[d.code].value, "event_index": d.event_index}
            for d in diagnostics[:MAX_DIAGNOSTICS]
        ],
    }


class Rows:
    """The rows of one partition, column by column."""

    def __init__(self, partition: str) -> None:
        self.partition = partition
        self.columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}

    def __len__(self) -> int:
        return len(self.columns["stream_id"])

    def response(
        self,
        origin: Origin,
        index: int,
        result: Result,
        events: int,
        model: str | None,
        persisted: tuple[int, list[str] | None] | None = None,
    ) -> None:
        """Add the row of one reduced response (``persisted``: items, classes)."""
        self._add(
            origin,
            response_index=index,
            response_id=result.response_id,
            model=origin.model or model,
            status=result.status.value,
            events=events,
            items=len(result.items),
            calls=sum(1 for entry in result.items if _is_call(entry.item)),
            executable_calls=sum(1 for entry in result.items if entry.executable),
            ok=result.ok,
            **_diagnostic_columns(result.diagnostics),
            persisted_items=None if persisted is None else persisted[0],
            divergences=None if persisted is None else persisted[1],
        )

    def failure(
        self,
        origin: Origin,
        kind: Fault,
        message: str,
        *,
        events: int = 0,
        results: Sequence[Result] = (),
    ) -> None:
        """Add the row of an input that yielded no response (with what was read of it)."""
        self._add(
            origin,
            events=events,
            ok=False,
            **_diagnostic_columns([d for result in results for d in result.diagnostics]),
            error_kind=kind.value,
            error=message,
        )

    def _add(self, origin: Origin, **values: Any) -> None:
        values.setdefault("model", origin.model)
        values["stream_id"] = origin.stream_id
        values["source"] = origin.source
        values["provider"] = origin.provider
        values["partition"] = self.partition
        for name, column in self.columns.items():
            column.append(values.get(name))

    def table(self) -> Any:
        """The rows as a ``pyarrow.Table`` of ``schema()``."""
        pa = require("pyarrow", "audit", "an audit")
        return pa.Table.from_pydict(self.columns, schema=schema())
