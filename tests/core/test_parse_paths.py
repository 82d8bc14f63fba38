"""``parse_event``'s two paths read the same fields and agree on every combination of them.

``core.events.parse_event`` reads the common item-scoped event in one step and sends
everything else to ``_validated``, which checks field by field.  Neither path's field
list is written here: the test finds them by handing each path a payload that records
every key it reads, for every event type of ``model.catalogue.WIRE_EVENTS`` (and an
unknown one), and then checks, type by type:

1. **the same fields**: when the one-step path answers, it has read exactly the keys
   the field-by-field path reads for that type, so a field renamed on one path only
   (the field-by-field path reading ``item_ref``, say, while the one-step path still
   reads ``item_id``) is a failure here, not an event silently dropped;
2. **the same events**: for every combination of those fields, each absent or holding
   one of ``VALUES`` (right and wrong types, the edges of the index range), the two
   paths give equal ``Event``s, problems included.

``test_a_field_renamed_on_one_path_only_is_caught`` makes exactly that edit to the
source of ``_validated`` (``item_id`` read as ``item_ref``) and checks that both checks
reject the edited module.
"""

from __future__ import annotations

import inspect
import itertools
import types
from collections.abc import Iterator
from typing import Any

import pytest
from responses_oracle.core import events
from responses_oracle.model.catalogue import WIRE_EVENTS

ABSENT = object()
"""A field left out of the payload."""

VALUES: tuple[Any, ...] = (
    ABSENT,
    None,
    3,
    -1,
    events.MAX_INDEX + 1,
    True,
    "x",
    {"type": "output_text", "text": "t"},
)
"""What each field takes in turn: absent, null, a good index, two bad ones, a bool,
a string, an object (a good part, item or response)."""

TYPES = (*sorted(WIRE_EVENTS), "response.unknown_extension")
"""Every event type of the catalogue, and one it does not know."""


class Recorder(dict):  # type: ignore[type-arg]
    """A payload that records each key read from it (``get``, ``[]``, ``in``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read: set[str] = set()

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


class _FellBack(Exception):
    """The one-step path handed the event to ``_validated``."""


def _one_step(module: types.ModuleType, payload: dict[str, Any]) -> Any:
    """``parse_event`` with ``_validated`` replaced: its own answer, or ``_FellBack``."""
    general = module._validated

    def refuse(*args: Any) -> Any:
        raise _FellBack

    module._validated = refuse
    try:
        return module.parse_event(0, payload)
    finally:
        module._validated = general


def _field_by_field(module: types.ModuleType, payload: dict[str, Any]) -> Any:
    return module._validated(0, payload["type"], WIRE_EVENTS.get(payload["type"]), payload)


def _fields(module: types.ModuleType, type_: str) -> tuple[set[str] | None, set[str]]:
    """The keys each path reads for ``type_`` (None: the one-step path never answers)."""
    spec = WIRE_EVENTS.get(type_)
    # A delta without its text needs a word (R1): the one-step path answers with it only.
    value = {} if spec is None or spec.value_field is None else {spec.value_field: ""}
    general = Recorder(type=type_, **value)
    _field_by_field(module, general)
    fast: set[str] | None = None
    try:
        payload = Recorder(type=type_, **value)
        _one_step(module, payload)
        fast = payload.read
    except _FellBack:
        pass
    return fast, general.read


def _payloads(type_: str, fields: list[str]) -> Iterator[dict[str, Any]]:
    for values in itertools.product(VALUES, repeat=len(fields)):
        payload: dict[str, Any] = {"type": type_}
        payload.update((f, v) for f, v in zip(fields, values, strict=True) if v is not ABSENT)
        yield payload


def disagreements(module: types.ModuleType) -> list[str]:
    """Every way the two paths of ``module`` differ (empty: none)."""
    found: list[str] = []
    fast_types = 0
    for type_ in TYPES:
        fast, general = _fields(module, type_)
        if fast is None:
            continue  # every event of this type is read field by field
        fast_types += 1
        if fast != general:
            found.append(
                f"{type_}: one step reads {sorted(fast)}, field by field {sorted(general)}"
            )
        fields = sorted((fast | general) - {"type"})
        for payload in _payloads(type_, fields):
            try:
                quick = _one_step(module, payload)
            except _FellBack:
                continue
            slow = _field_by_field(module, payload)
            if quick != slow:
                found.append(f"{payload}: one step {quick}, field by field {slow}")
                break
    assert fast_types >= 20, "the one-step path answers for the payload and delta types"
    return found


def test_both_paths_read_the_same_fields_and_agree_on_every_combination() -> None:
    assert disagreements(events) == []


def test_every_type_reads_its_spec_fields() -> None:
    """Not vacuous: the recorded fields are the spec's own, for the types of the one-step path."""
    delta = WIRE_EVENTS["response.function_call_arguments.delta"]
    fast, general = _fields(events, "response.function_call_arguments.delta")
    assert fast == general
    assert {events.ITEM_ID_FIELD, events.OUTPUT_INDEX_FIELD, delta.value_field} <= general


def _mutant(old: str, new: str) -> types.ModuleType:
    """``core.events`` with ``old`` replaced by ``new`` in ``_validated`` only."""
    source = inspect.getsource(events)
    function = inspect.getsource(events._validated)
    assert source.count(function) == 1 and function.count(old) == 1
    module = types.ModuleType("events_mutant")
    module.__dict__["__name__"] = "events_mutant"
    edited = source.replace(function, function.replace(old, new))
    exec(compile(edited, "<events mutant>", "exec"), module.__dict__)
    return module


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("_string(payload, ITEM_ID_FIELD, problems)", '_string(payload, "item_ref", problems)'),
        ("payload.get(SEQUENCE_FIELD)", 'payload.get("sequence")'),
    ],
)
def test_a_field_renamed_on_one_path_only_is_caught(old: str, new: str) -> None:
    found = disagreements(_mutant(old, new))
    assert any("one step reads" in line for line in found)
    assert any("one step Event" in line for line in found)
