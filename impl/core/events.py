"""Typed, validated events: the decoded JSON of one wire event, read once.

The front end hands the core plain JSON objects.  ``parse_event`` reads each field the
reducer uses exactly once, checks its type, and produces a frozen ``Event``; a field of
the wrong type (``output_index`` as a string, ``item: null``, ``arguments`` as an
object, a negative or absurd index) is dropped from the event and reported as an
``invalid_field`` problem, so the rest of the event — and of the stream — is still
reduced.  After this module nothing in the core looks at raw JSON again, except to copy
items into the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from responses_oracle.model.catalogue import (
    MAX_INDEX,
    PART_CHANNELS,
    PART_VALUE_FIELDS,
    WIRE_EVENTS,
    ChannelKind,
    EventClass,
    WireEventSpec,
)
from responses_oracle.model.recordkit import NamedTuple
from responses_oracle.model.vocabulary import Code, Trigger

SEQUENCE_FIELD: Final = "sequence_number"
OUTPUT_INDEX_FIELD: Final = "output_index"
ITEM_ID_FIELD: Final = "item_id"
"""The top-level fields every event type reads besides its spec's own
(``WireEventSpec.index_field`` and ``value_field``): named once, for both paths of
``parse_event``.  ``tests/core/test_parse_paths.py`` records the fields each path
reads, for every event type, and checks that they are the same and give the same
``Event`` for every combination of present, absent and wrong-typed fields."""


class Event(NamedTuple):
    """One wire event, validated.  ``spec`` is None for an unknown event type.

    A named tuple rather than a frozen dataclass: one is made per event on the hot
    path, and a 14-field frozen dataclass takes four times as long to build (its
    ``__init__`` goes through ``object.__setattr__`` once per field).  The field
    ``index`` hides ``tuple.index``, which nothing calls on an event.
    """

    index: int  # type: ignore[assignment]
    type: str
    spec: WireEventSpec | None
    payload: Mapping[str, Any]
    sequence_number: int | None
    output_index: int | None
    item_id: str | None
    channel: ChannelKind | None
    part_index: int
    value: str | None
    part: Mapping[str, Any] | None
    item: Mapping[str, Any] | None
    response: Mapping[str, Any] | None
    problems: tuple[tuple[Code, str], ...]


_new_tuple: Final = tuple.__new__
"""Builds a named tuple from a tuple of all its fields, without its ``__new__``."""

Problems = list[tuple[Code, str]]
"""What is wrong with an event's fields, as (code, text) pairs."""


def _invalid(problems: Problems, text: str) -> None:
    problems.append((Code.INVALID_FIELD, text))


def _index(payload: Mapping[str, Any], field: str, problems: Problems) -> int | None:
    value = payload.get(field)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= MAX_INDEX:
        problems.append(
            (Code.INVALID_FIELD, f"{field} must be an integer in 0..{MAX_INDEX}, got {value!r:.60}")
        )
        return None
    return value


def _string(payload: Mapping[str, Any], field: str, problems: Problems) -> str | None:
    value = payload.get(field)
    if value is None or isinstance(value, str):
        return value
    _invalid(problems, f"{field} must be a string, got {type(value).__name__}")
    return None


def _object(payload: Mapping[str, Any], field: str, problems: Problems) -> Mapping[str, Any] | None:
    value = payload.get(field)
    if isinstance(value, dict):
        return value
    if field in payload:
        problems.append(
            (Code.INVALID_FIELD, f"{field} must be an object, got {type(value).__name__}")
        )
    return None


def _item(payload: Mapping[str, Any], problems: Problems) -> Mapping[str, Any] | None:
    if "item" in payload and payload["item"] is None:
        problems.append((Code.NULL_ITEM, "item is null; event ignored"))
        return None
    item = _object(payload, "item", problems)
    if item is not None and not isinstance(item.get("type"), str):
        _invalid(problems, "item.type must be a string")
        return None
    if item is None and "item" not in payload:
        _invalid(problems, "item is missing")
    return item


_PLAIN_SCOPED: dict[str, WireEventSpec] = {
    name: spec
    for name, spec in WIRE_EVENTS.items()
    if spec.event_class is EventClass.ITEM_SCOPED and not spec.value_in_part
}
"""The item-scoped event types whose fields are all top-level scalars: deltas, payload
``*.done`` events, progress.  Almost every event of a stream is one of them."""


def fields_read(spec: WireEventSpec) -> frozenset[str]:
    """The fields ``parse_event`` reads of an event of ``spec``, one of ``_PLAIN_SCOPED``
    (a delta, a payload's ``done``, progress): its ``Event`` is the same whatever any
    other field holds, but for ``payload`` (``tests/core/test_fast_path.py``).  What
    the proxy's relay leaves open in a delta's shape beside them (``relay._Shape``)."""
    read = {"type", SEQUENCE_FIELD, OUTPUT_INDEX_FIELD, ITEM_ID_FIELD}
    return frozenset(read | {name for name in (spec.index_field, spec.value_field) if name})


def parse_event(index: int, payload: Mapping[str, Any]) -> Event:
    """Validate one decoded JSON event object (which must have a string ``type``).

    An event of ``_PLAIN_SCOPED`` whose fields all have the types ``_validated``
    accepts unchanged is read in one step; every other event, and any such event with
    a field that needs a word (a wrong type, an index out of range, a delta's text
    missing), goes through ``_validated``, which checks field by field.  Both give the
    same ``Event``.
    """
    type_ = payload["type"]
    spec = _PLAIN_SCOPED.get(type_)
    if spec is not None:
        sequence = payload.get(SEQUENCE_FIELD)
        output_index = payload.get(OUTPUT_INDEX_FIELD)
        item_id = payload.get(ITEM_ID_FIELD)
        part_index = None if spec.index_field is None else payload.get(spec.index_field)
        value = None if spec.value_field is None else payload.get(spec.value_field)
        if (
            (sequence is None or type(sequence) is int)
            and (
                output_index is None
                or (type(output_index) is int and 0 <= output_index <= MAX_INDEX)
            )
            and (
                part_index is None or (type(part_index) is int and 0 <= part_index <= MAX_INDEX)
            )
            and (item_id is None or type(item_id) is str)
            and (type(value) is str or (value is None and spec.trigger is not Trigger.DELTA))
        ):
            # ``tuple.__new__`` with every field given: the named tuple's own
            # ``__new__`` is a Python function, a frame that doubles the cost.
            return _new_tuple(
                Event,
                (
                    index,
                    type_,
                    spec,
                    payload,
                    sequence,
                    output_index,
                    item_id or None,
                    spec.channel,
                    part_index or 0,
                    value,
                    None,
                    None,
                    None,
                    (),
                ),
            )
    return _validated(index, type_, WIRE_EVENTS.get(type_), payload)


def _validated(
    index: int, type_: str, spec: WireEventSpec | None, payload: Mapping[str, Any]
) -> Event:
    """Any event, field by field: each field of a wrong type is dropped and reported."""
    problems: Problems = []
    sequence = payload.get(SEQUENCE_FIELD)
    if sequence is not None and type(sequence) is not int:
        problems.append(
            (Code.INVALID_FIELD, f"{SEQUENCE_FIELD} must be an integer, got {sequence!r:.60}")
        )
        sequence = None
    output_index = item_id = value = None
    item = part = response = None
    channel: ChannelKind | None = None
    part_index = 0
    event_class = spec.event_class if spec is not None else None
    if event_class is EventClass.ITEM_SCOPED and spec is not None:
        output_index = _index(payload, OUTPUT_INDEX_FIELD, problems)
        item_id = _string(payload, ITEM_ID_FIELD, problems) or None
        channel = spec.channel
        if spec.index_field is not None:
            part_index = _index(payload, spec.index_field, problems) or 0
        if spec.value_in_part:
            part = _object(payload, "part", problems)
            if part is not None:
                part_type = part.get("type")
                channel = channel or PART_CHANNELS.get(
                    part_type if isinstance(part_type, str) else ""
                )
                if channel is not None:
                    value = _string(part, PART_VALUE_FIELDS[channel], problems)
        elif spec.value_field is not None:
            value = _string(payload, spec.value_field, problems)
            if spec.trigger is Trigger.DELTA and payload.get(spec.value_field) is None:
                # The published types require it.  A ``*.done`` without its value is
                # R7's "missing" offer, which offers nothing; a delta without its text
                # is no delta at all.
                _invalid(problems, f"{spec.value_field} is missing")
    elif event_class in (EventClass.ITEM_ADDED, EventClass.ITEM_DONE):
        output_index = _index(payload, OUTPUT_INDEX_FIELD, problems)
        item = _item(payload, problems)
    elif event_class is not None and event_class not in (
        EventClass.KEEPALIVE,
        EventClass.UNROUTABLE,
        EventClass.ERROR,
    ):
        response = _object(payload, "response", problems)
    return Event(
        index,
        type_,
        spec,
        payload,
        sequence,
        output_index,
        item_id,
        channel,
        part_index,
        value,
        part,
        item,
        response,
        tuple(problems),
    )
