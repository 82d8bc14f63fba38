"""The result contract (docs/schema/result.schema.json): what one reduced response looks like.

``build_result`` reads a finished ``ResponseState`` and produces a frozen ``Result``;
``Result.to_dict()`` is the stable JSON object other tools consume, as plain ``dict``s
and ``list``s (``json.dumps`` takes it as it is).  ``to_json()`` is its former name,
kept, deprecated, while callers move (it warns nothing: the proofs still call it); it
returns the same ``dict``, not JSON text.  Items are
*wire-shaped*: what a client should persist and replay — the first-admitted identity
(``id``, ``call_id``, ``name``, ``namespace``), the reconciled payloads written back
where the wire puts them, stray gateway fields (``item_id``, ``output_index`` inside an
item) removed.  Output order is by slot, then admission order (R10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from responses_oracle.model import recordkit
from responses_oracle.model.catalogue import STRAY_ITEM_FIELDS, ChannelLocation
from responses_oracle.model.execution import Execution
from responses_oracle.model.payload import OFFER_ORDER
from responses_oracle.model.recordkit import record
from responses_oracle.model.vocabulary import (
    SEVERITY,
    EntryState,
    IdentityField,
    IdSource,
    PayloadSource,
    ResponseStatus,
    Severity,
)

from .core.state import Channel, Diagnostic, Entry, ResponseState, channel_text


@record(frozen=True, slots=True)
class ResultItem:
    """One output item of the result, with how the reducer arrived at it."""

    output_index: int | None
    item: dict[str, Any]
    id_source: IdSource
    payload_source: PayloadSource
    state: EntryState
    executable: bool
    execution: Execution
    """Why it is or is not executable (``model/execution.py``)."""
    given_ids: tuple[str, ...] = recordkit.field(default=(), compare=False)
    """Every id the stream named the item by (``Entry.given_ids``); not in the
    contract: ``item`` carries the one the oracle keeps."""
    given_call_ids: tuple[str, ...] = recordkit.field(default=(), compare=False)
    """Every ``call_id`` the stream gave the item (``Entry.given_call_ids``); not in the
    contract: ``item`` carries the one the oracle keeps."""

    def to_dict(self) -> dict[str, Any]:
        """The item as in the result contract (a JSON-ready ``dict``)."""
        return {
            "output_index": self.output_index,
            "item": self.item,
            "id_source": self.id_source.value,
            "payload_source": self.payload_source.value,
            "state": self.state.value,
            "executable": self.executable,
            "execution": self.execution.value,
        }

    def to_json(self) -> dict[str, Any]:
        """Deprecated name of ``to_dict()`` (it returns a ``dict``, not JSON text)."""
        return self.to_dict()


def diagnostic_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """One diagnostic as in the result contract."""
    return {
        "code": diagnostic.code.value,
        "severity": SEVERITY[diagnostic.code].value,
        "event_index": diagnostic.event_index,
        "sequence_number": diagnostic.sequence_number,
        "detail": diagnostic.detail,
        "event": diagnostic.event,
    }


@record(frozen=True, slots=True)
class Result:
    """One reduced response: its id and status, its output items, its diagnostics."""

    response_id: str | None
    status: ResponseStatus
    items: tuple[ResultItem, ...]
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        """True when no diagnostic has error severity."""
        return not any(SEVERITY[d.code] is Severity.ERROR for d in self.diagnostics)

    def to_dict(self) -> dict[str, Any]:
        """The result contract as a JSON-ready ``dict`` (what ``reduce`` prints a line of)."""
        return {
            "response": {"id": self.response_id, "status": self.status.value},
            "items": [item.to_dict() for item in self.items],
            "diagnostics": [diagnostic_json(d) for d in self.diagnostics],
        }

    def to_json(self) -> dict[str, Any]:
        """Deprecated name of ``to_dict()`` (it returns a ``dict``, not JSON text)."""
        return self.to_dict()


def _replaces(value: str | None, current: Any) -> bool:
    """Empty never erases (R7): not even the value the item was first admitted with."""
    return value is not None and (value != "" or not current)


def _write_channels(
    item: dict[str, Any], location: ChannelLocation, channels: list[Channel]
) -> None:
    """Write reconciled channel values back where the wire puts them.

    Only the containers on the way to a written value are copied: the rest of the item
    is shared with the events it came from (results are read-only), which keeps a
    deeply nested field from costing a deep copy.  Parts are written in index order; an
    index past the end of the array appends, so a hostile ``content_index`` cannot
    inflate the result.
    """
    container = item
    for key in location.container:
        nested = container.get(key)
        container[key] = dict(nested) if isinstance(nested, dict) else {}
        container = container[key]
    if location.array is None:
        value = channel_text(channels[0])
        if location.field is not None and _replaces(value, container.get(location.field)):
            container[location.field] = value
        return
    found = container.get(location.array)
    parts: list[Any] = list(found) if isinstance(found, list) else []
    container[location.array] = parts
    field = location.field or "text"
    for channel, position in part_positions(len(parts), channels):
        value = channel_text(channel)
        if position == len(parts):
            parts.append(None)
        if location.part_type is None:
            parts[position] = value
            continue
        part = parts[position]
        if isinstance(part, dict) and part.get("type") == location.part_type:
            if not _replaces(value, part.get(field)):
                continue
            part = dict(part)
        else:
            part = dict(channel.part) if channel.part is not None else {"type": location.part_type}
            if location.part_type == "output_text":
                part.setdefault("annotations", [])
        part[field] = value
        parts[position] = part


def part_positions(length: int, channels: Iterable[Channel]) -> list[tuple[Channel, int]]:
    """Where ``_write_channels`` writes each channel that holds a value into an array of
    ``length`` parts: at its index, or appended when the index is past the end (so the
    position differs from the index after a gap).  Channels without a value are not
    written."""
    placed: list[tuple[Channel, int]] = []
    for channel in sorted(channels, key=lambda c: c.index):
        if channel_text(channel) is None:
            continue
        position = min(channel.index, length)
        length += position == length
        placed.append((channel, position))
    return placed


def wire_item(entry: Entry) -> dict[str, Any]:
    """The entry's item as the wire carries it: first-admitted identity, reconciled
    payloads written back, stray gateway fields removed (what ``Result.items`` holds)."""
    item = {k: v for k, v in entry.item.items() if k not in STRAY_ITEM_FIELDS}
    item["type"] = entry.item_type
    if entry.item_id is not None:
        item["id"] = entry.item_id
    for field in IdentityField:
        value = getattr(entry, field.value)
        if value is not None:
            item[field.value] = value
    for location in entry.spec.channels:
        channels = [c for c in entry.channels.values() if c.kind is location.channel]
        if channels:
            _write_channels(item, location, channels)
    return item


def _payload_source(entry: Entry) -> PayloadSource:
    sources = [
        (PayloadSource.DELTAS if channel.value is None else channel.source)
        for channel in entry.channels.values()
        if channel_text(channel)
    ]
    return max(sources, key=OFFER_ORDER.index, default=PayloadSource.NONE)


class Placed(Protocol):
    """Anything with an entry's place: its ``output_index`` and admission ordinal."""

    @property
    def slot(self) -> int | None:
        """The entry's ``output_index``, if it has one."""

    @property
    def ordinal(self) -> int:
        """The entry's admission ordinal."""


P = TypeVar("P", bound=Placed)


def output_key(entry: Placed) -> tuple[bool, int, int]:
    """An entry's place in the order of ``Result.items`` (R10): by ``output_index``,
    entries without one last, then in admission order."""
    return (entry.slot is None, entry.slot if entry.slot is not None else 0, entry.ordinal)


def output_order(entries: Iterable[P]) -> list[P]:
    """Entries in the order of ``Result.items`` (``output_key``)."""
    return sorted(entries, key=output_key)


def item_positions(entries: Iterable[Placed]) -> dict[int, int]:
    """Admission ordinal → position of the entry's item in ``Result.items`` (every
    entry is in the output once, ``nothing_lost``)."""
    return {entry.ordinal: position for position, entry in enumerate(output_order(entries))}


def build_result(state: ResponseState) -> Result:
    """The result contract for a response that has ended."""
    entries = output_order(state.entries)
    items = tuple(
        ResultItem(
            output_index=entry.slot,
            item=wire_item(entry),
            id_source=entry.id_source or IdSource.MINTED,
            payload_source=_payload_source(entry),
            state=entry.state,
            executable=entry.executable,
            execution=entry.execution,
            given_ids=tuple(entry.given_ids),
            given_call_ids=tuple(entry.given_call_ids),
        )
        for entry in entries
    )
    return Result(state.response_id, state.status, items, tuple(state.diagnostics))
