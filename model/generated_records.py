# GENERATED FILE — DO NOT EDIT.
# Generated from the @record declarations of model/ and impl/ by `python -m responses_oracle.model.codegen`.
# Change a declaration and rerun that command; a test fails when this file is stale.
"""The records' methods, as ``dataclasses.dataclass`` would write them (``model/recordkit.py``).

Each builder takes the class as declared and its defaults (in field order) and returns
its methods; ``RECORDS`` maps each record's dotted name to the shape of the declaration
its builder was written for, and the builder.  ``TUPLES`` maps each named tuple made with
``recordkit.NamedTuple`` to its fields and the ``__new__`` ``collections.namedtuple`` would
compile for them.  Loaded from bytecode like any module, so a record costs no ``exec``
and no ``import dataclasses`` at start-up, a named tuple no ``eval``.
"""

from __future__ import annotations

from _thread import get_ident as _get_ident
from collections.abc import Callable
from typing import Any

Methods = tuple[tuple[str, Any], ...]
"""A record's methods, by name."""

_object_setattr = object.__setattr__
_tuple_new = tuple.__new__


class _HasDefaultFactory:
    """The default an ``__init__`` shows for a field with a default factory."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _HasDefaultFactory()


def _frozen_error(message: str) -> Exception:
    """``dataclasses.FrozenInstanceError``, imported when a record is written to."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


def _frozen(cls: Any, names: tuple[str, ...]) -> tuple[Any, Any]:
    """A frozen record's ``__setattr__`` and ``__delattr__`` (``cls``: as declared)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _slot_state(names: tuple[str, ...]) -> tuple[Any, Any]:
    """A frozen record with slots: what a copy or a pickle keeps of it, and restores."""

    def _dataclass_getstate(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def _dataclass_setstate(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            _object_setattr(self, name, value)

    return _dataclass_getstate, _dataclass_setstate


def _core_context_ReducerLimits(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ReducerLimits`` of ``responses_oracle.core.context``."""
    _dflt_max_entries, _dflt_max_channel_chars = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, max_entries: Any = _dflt_max_entries, max_channel_chars: Any = _dflt_max_channel_chars) -> None:
        _object_setattr(self, 'max_entries', max_entries)
        _object_setattr(self, 'max_channel_chars', max_channel_chars)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(max_entries={self.max_entries!r}, max_channel_chars={self.max_channel_chars!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.max_entries, self.max_channel_chars) == (other.max_entries, other.max_channel_chars)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('max_entries', 'max_channel_chars'))
    def __hash__(self: Any) -> int:
        return hash((self.max_entries, self.max_channel_chars))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('max_entries', 'max_channel_chars'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('max_entries', 'max_channel_chars')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _core_dispatch_StepTrace(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``StepTrace`` of ``responses_oracle.core.dispatch``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, index: Any, type: Any, decision: Any, entry: Any, before: Any, after: Any, codes: Any) -> None:
        _object_setattr(self, 'index', index)
        _object_setattr(self, 'type', type)
        _object_setattr(self, 'decision', decision)
        _object_setattr(self, 'entry', entry)
        _object_setattr(self, 'before', before)
        _object_setattr(self, 'after', after)
        _object_setattr(self, 'codes', codes)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(index={self.index!r}, type={self.type!r}, decision={self.decision!r}, entry={self.entry!r}, before={self.before!r}, after={self.after!r}, codes={self.codes!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.index, self.type, self.decision, self.entry, self.before, self.after, self.codes) == (other.index, other.type, other.decision, other.entry, other.before, other.after, other.codes)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('index', 'type', 'decision', 'entry', 'before', 'after', 'codes'))
    def __hash__(self: Any) -> int:
        return hash((self.index, self.type, self.decision, self.entry, self.before, self.after, self.codes))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('index', 'type', 'decision', 'entry', 'before', 'after', 'codes'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('index', 'type', 'decision', 'entry', 'before', 'after', 'codes')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _core_state_Channel(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Channel`` of ``responses_oracle.core.state``."""
    _dflt_deltas, _dflt_delta_chars, _dflt_value, _dflt_source, _dflt_closed, _dflt_part, _dflt_any_nonempty, _dflt_last_nonempty, _dflt_attached = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, kind: Any, index: Any, deltas: Any = _HAS_DEFAULT_FACTORY, delta_chars: Any = _dflt_delta_chars, value: Any = _dflt_value, source: Any = _dflt_source, closed: Any = _dflt_closed, part: Any = _dflt_part, any_nonempty: Any = _dflt_any_nonempty, last_nonempty: Any = _dflt_last_nonempty, attached: Any = _dflt_attached) -> None:
        self.kind = kind
        self.index = index
        self.deltas = _dflt_deltas() if deltas is _HAS_DEFAULT_FACTORY else deltas
        self.delta_chars = delta_chars
        self.value = value
        self.source = source
        self.closed = closed
        self.part = part
        self.any_nonempty = any_nonempty
        self.last_nonempty = last_nonempty
        self.attached = attached
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(kind={self.kind!r}, index={self.index!r}, deltas={self.deltas!r}, delta_chars={self.delta_chars!r}, value={self.value!r}, source={self.source!r}, closed={self.closed!r}, part={self.part!r}, any_nonempty={self.any_nonempty!r}, last_nonempty={self.last_nonempty!r}, attached={self.attached!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.kind, self.index, self.deltas, self.delta_chars, self.value, self.source, self.closed, self.part, self.any_nonempty, self.last_nonempty, self.attached) == (other.kind, other.index, other.deltas, other.delta_chars, other.value, other.source, other.closed, other.part, other.any_nonempty, other.last_nonempty, other.attached)
        return NotImplemented
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__hash__', None),
        ('__match_args__', ('kind', 'index', 'deltas', 'delta_chars', 'value', 'source', 'closed', 'part', 'any_nonempty', 'last_nonempty', 'attached')),
    )


def _core_state_Diagnostic(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Diagnostic`` of ``responses_oracle.core.state``."""
    (_dflt_event,) = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, code: Any, event_index: Any, sequence_number: Any, detail: Any, event: Any = _dflt_event) -> None:
        _object_setattr(self, 'code', code)
        _object_setattr(self, 'event_index', event_index)
        _object_setattr(self, 'sequence_number', sequence_number)
        _object_setattr(self, 'detail', detail)
        _object_setattr(self, 'event', event)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(code={self.code!r}, event_index={self.event_index!r}, sequence_number={self.sequence_number!r}, detail={self.detail!r}, event={self.event!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.code, self.event_index, self.sequence_number, self.detail, self.event) == (other.code, other.event_index, other.sequence_number, other.detail, other.event)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('code', 'event_index', 'sequence_number', 'detail', 'event'))
    def __hash__(self: Any) -> int:
        return hash((self.code, self.event_index, self.sequence_number, self.detail, self.event))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('code', 'event_index', 'sequence_number', 'detail', 'event'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('code', 'event_index', 'sequence_number', 'detail', 'event')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _core_state_Entry(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Entry`` of ``responses_oracle.core.state``."""
    _dflt_state, _dflt_completions, _dflt_call_id, _dflt_name, _dflt_namespace, _dflt_item_id, _dflt_id_source, _dflt_confirmed, _dflt_executable, _dflt_execution, _dflt_in_snapshot, _dflt_done_item, _dflt_given_ids, _dflt_given_call_ids, _dflt_item, _dflt_channels = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, ordinal: Any, item_type: Any, spec: Any, slot: Any, state: Any = _dflt_state, completions: Any = _dflt_completions, call_id: Any = _dflt_call_id, name: Any = _dflt_name, namespace: Any = _dflt_namespace, item_id: Any = _dflt_item_id, id_source: Any = _dflt_id_source, confirmed: Any = _dflt_confirmed, executable: Any = _dflt_executable, execution: Any = _dflt_execution, in_snapshot: Any = _dflt_in_snapshot, done_item: Any = _dflt_done_item, given_ids: Any = _HAS_DEFAULT_FACTORY, given_call_ids: Any = _HAS_DEFAULT_FACTORY, item: Any = _HAS_DEFAULT_FACTORY, channels: Any = _HAS_DEFAULT_FACTORY) -> None:
        self.ordinal = ordinal
        self.item_type = item_type
        self.spec = spec
        self.slot = slot
        self.state = state
        self.completions = completions
        self.call_id = call_id
        self.name = name
        self.namespace = namespace
        self.item_id = item_id
        self.id_source = id_source
        self.confirmed = confirmed
        self.executable = executable
        self.execution = execution
        self.in_snapshot = in_snapshot
        self.done_item = done_item
        self.given_ids = _dflt_given_ids() if given_ids is _HAS_DEFAULT_FACTORY else given_ids
        self.given_call_ids = _dflt_given_call_ids() if given_call_ids is _HAS_DEFAULT_FACTORY else given_call_ids
        self.item = _dflt_item() if item is _HAS_DEFAULT_FACTORY else item
        self.channels = _dflt_channels() if channels is _HAS_DEFAULT_FACTORY else channels
        self.__post_init__()
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(ordinal={self.ordinal!r}, item_type={self.item_type!r}, spec={self.spec!r}, slot={self.slot!r}, state={self.state!r}, completions={self.completions!r}, call_id={self.call_id!r}, name={self.name!r}, namespace={self.namespace!r}, item_id={self.item_id!r}, id_source={self.id_source!r}, confirmed={self.confirmed!r}, executable={self.executable!r}, execution={self.execution!r}, in_snapshot={self.in_snapshot!r}, done_item={self.done_item!r}, given_ids={self.given_ids!r}, given_call_ids={self.given_call_ids!r}, item={self.item!r}, channels={self.channels!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.ordinal, self.item_type, self.spec, self.slot, self.state, self.completions, self.call_id, self.name, self.namespace, self.item_id, self.id_source, self.confirmed, self.executable, self.execution, self.in_snapshot, self.done_item, self.given_ids, self.given_call_ids, self.item, self.channels) == (other.ordinal, other.item_type, other.spec, other.slot, other.state, other.completions, other.call_id, other.name, other.namespace, other.item_id, other.id_source, other.confirmed, other.executable, other.execution, other.in_snapshot, other.done_item, other.given_ids, other.given_call_ids, other.item, other.channels)
        return NotImplemented
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__hash__', None),
        ('__match_args__', ('ordinal', 'item_type', 'spec', 'slot', 'state', 'completions', 'call_id', 'name', 'namespace', 'item_id', 'id_source', 'confirmed', 'executable', 'execution', 'in_snapshot', 'done_item', 'given_ids', 'given_call_ids', 'item', 'channels')),
    )


def _core_state_ResponseState(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ResponseState`` of ``responses_oracle.core.state``."""
    _dflt_response_id, _dflt_status, _dflt_terminal, _dflt_started, _dflt_events, _dflt_entries, _dflt_slots, _dflt_interner, _dflt_aliases, _dflt_routes, _dflt_call_ids, _dflt_diagnostics, _dflt_snapshot_items, _dflt_snapshot_placed, _dflt_done_items, _dflt_done_placed, _dflt_refusals, _dflt_last_sequence, _dflt_resumed_at, _dflt_held_over, _dflt_entries_limit_hit, _dflt_tools, _dflt_amendable = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, response_id: Any = _dflt_response_id, status: Any = _dflt_status, terminal: Any = _dflt_terminal, started: Any = _dflt_started, events: Any = _dflt_events, entries: Any = _HAS_DEFAULT_FACTORY, slots: Any = _HAS_DEFAULT_FACTORY, interner: Any = _HAS_DEFAULT_FACTORY, aliases: Any = _HAS_DEFAULT_FACTORY, routes: Any = _HAS_DEFAULT_FACTORY, call_ids: Any = _HAS_DEFAULT_FACTORY, diagnostics: Any = _HAS_DEFAULT_FACTORY, snapshot_items: Any = _dflt_snapshot_items, snapshot_placed: Any = _dflt_snapshot_placed, done_items: Any = _dflt_done_items, done_placed: Any = _dflt_done_placed, refusals: Any = _HAS_DEFAULT_FACTORY, last_sequence: Any = _dflt_last_sequence, resumed_at: Any = _dflt_resumed_at, held_over: Any = _HAS_DEFAULT_FACTORY, entries_limit_hit: Any = _dflt_entries_limit_hit, tools: Any = _dflt_tools, amendable: Any = _dflt_amendable) -> None:
        self.response_id = response_id
        self.status = status
        self.terminal = terminal
        self.started = started
        self.events = events
        self.entries = _dflt_entries() if entries is _HAS_DEFAULT_FACTORY else entries
        self.slots = _dflt_slots() if slots is _HAS_DEFAULT_FACTORY else slots
        self.interner = _dflt_interner() if interner is _HAS_DEFAULT_FACTORY else interner
        self.aliases = _dflt_aliases() if aliases is _HAS_DEFAULT_FACTORY else aliases
        self.routes = _dflt_routes() if routes is _HAS_DEFAULT_FACTORY else routes
        self.call_ids = _dflt_call_ids() if call_ids is _HAS_DEFAULT_FACTORY else call_ids
        self.diagnostics = _dflt_diagnostics() if diagnostics is _HAS_DEFAULT_FACTORY else diagnostics
        self.snapshot_items = snapshot_items
        self.snapshot_placed = snapshot_placed
        self.done_items = done_items
        self.done_placed = done_placed
        self.refusals = _dflt_refusals() if refusals is _HAS_DEFAULT_FACTORY else refusals
        self.last_sequence = last_sequence
        self.resumed_at = resumed_at
        self.held_over = _dflt_held_over() if held_over is _HAS_DEFAULT_FACTORY else held_over
        self.entries_limit_hit = entries_limit_hit
        self.tools = tools
        self.amendable = amendable
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(response_id={self.response_id!r}, status={self.status!r}, terminal={self.terminal!r}, started={self.started!r}, events={self.events!r}, entries={self.entries!r}, slots={self.slots!r}, interner={self.interner!r}, aliases={self.aliases!r}, routes={self.routes!r}, call_ids={self.call_ids!r}, diagnostics={self.diagnostics!r}, snapshot_items={self.snapshot_items!r}, snapshot_placed={self.snapshot_placed!r}, done_items={self.done_items!r}, done_placed={self.done_placed!r}, refusals={self.refusals!r}, last_sequence={self.last_sequence!r}, resumed_at={self.resumed_at!r}, held_over={self.held_over!r}, entries_limit_hit={self.entries_limit_hit!r}, tools={self.tools!r}, amendable={self.amendable!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.response_id, self.status, self.terminal, self.started, self.events, self.entries, self.slots, self.interner, self.aliases, self.routes, self.call_ids, self.diagnostics, self.snapshot_items, self.snapshot_placed, self.done_items, self.done_placed, self.refusals, self.last_sequence, self.resumed_at, self.held_over, self.entries_limit_hit, self.tools, self.amendable) == (other.response_id, other.status, other.terminal, other.started, other.events, other.entries, other.slots, other.interner, other.aliases, other.routes, other.call_ids, other.diagnostics, other.snapshot_items, other.snapshot_placed, other.done_items, other.done_placed, other.refusals, other.last_sequence, other.resumed_at, other.held_over, other.entries_limit_hit, other.tools, other.amendable)
        return NotImplemented
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__hash__', None),
        ('__match_args__', ('response_id', 'status', 'terminal', 'started', 'events', 'entries', 'slots', 'interner', 'aliases', 'routes', 'call_ids', 'diagnostics', 'snapshot_items', 'snapshot_placed', 'done_items', 'done_placed', 'refusals', 'last_sequence', 'resumed_at', 'held_over', 'entries_limit_hit', 'tools', 'amendable')),
    )


def _core_state_Slot(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Slot`` of ``responses_oracle.core.state``."""
    _dflt_state, _dflt_entries = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, state: Any = _dflt_state, entries: Any = _HAS_DEFAULT_FACTORY) -> None:
        self.state = state
        self.entries = _dflt_entries() if entries is _HAS_DEFAULT_FACTORY else entries
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(state={self.state!r}, entries={self.entries!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.state, self.entries) == (other.state, other.entries)
        return NotImplemented
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__hash__', None),
        ('__match_args__', ('state', 'entries')),
    )


def _core_view_EntryFacts(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``EntryFacts`` of ``responses_oracle.core.view``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, ordinal: Any, item_type: Any, state: Any, slot: Any, completions: Any, confirmed: Any, in_snapshot: Any, channels: Any, delta_chars: Any, call_id: Any, name: Any, namespace: Any, item_id: Any, executable: Any, execution: Any) -> None:
        _object_setattr(self, 'ordinal', ordinal)
        _object_setattr(self, 'item_type', item_type)
        _object_setattr(self, 'state', state)
        _object_setattr(self, 'slot', slot)
        _object_setattr(self, 'completions', completions)
        _object_setattr(self, 'confirmed', confirmed)
        _object_setattr(self, 'in_snapshot', in_snapshot)
        _object_setattr(self, 'channels', channels)
        _object_setattr(self, 'delta_chars', delta_chars)
        _object_setattr(self, 'call_id', call_id)
        _object_setattr(self, 'name', name)
        _object_setattr(self, 'namespace', namespace)
        _object_setattr(self, 'item_id', item_id)
        _object_setattr(self, 'executable', executable)
        _object_setattr(self, 'execution', execution)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(ordinal={self.ordinal!r}, item_type={self.item_type!r}, state={self.state!r}, slot={self.slot!r}, completions={self.completions!r}, confirmed={self.confirmed!r}, in_snapshot={self.in_snapshot!r}, channels={self.channels!r}, delta_chars={self.delta_chars!r}, call_id={self.call_id!r}, name={self.name!r}, namespace={self.namespace!r}, item_id={self.item_id!r}, executable={self.executable!r}, execution={self.execution!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.ordinal, self.item_type, self.state, self.slot, self.completions, self.confirmed, self.in_snapshot, self.channels, self.delta_chars, self.call_id, self.name, self.namespace, self.item_id, self.executable, self.execution) == (other.ordinal, other.item_type, other.state, other.slot, other.completions, other.confirmed, other.in_snapshot, other.channels, other.delta_chars, other.call_id, other.name, other.namespace, other.item_id, other.executable, other.execution)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('ordinal', 'item_type', 'state', 'slot', 'completions', 'confirmed', 'in_snapshot', 'channels', 'delta_chars', 'call_id', 'name', 'namespace', 'item_id', 'executable', 'execution'))
    def __hash__(self: Any) -> int:
        return hash((self.ordinal, self.item_type, self.state, self.slot, self.completions, self.confirmed, self.in_snapshot, self.channels, self.delta_chars, self.call_id, self.name, self.namespace, self.item_id, self.executable, self.execution))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('ordinal', 'item_type', 'state', 'slot', 'completions', 'confirmed', 'in_snapshot', 'channels', 'delta_chars', 'call_id', 'name', 'namespace', 'item_id', 'executable', 'execution'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('ordinal', 'item_type', 'state', 'slot', 'completions', 'confirmed', 'in_snapshot', 'channels', 'delta_chars', 'call_id', 'name', 'namespace', 'item_id', 'executable', 'execution')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _core_view_SlotFacts(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``SlotFacts`` of ``responses_oracle.core.view``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, state: Any, entries: Any) -> None:
        _object_setattr(self, 'state', state)
        _object_setattr(self, 'entries', entries)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(state={self.state!r}, entries={self.entries!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.state, self.entries) == (other.state, other.entries)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('state', 'entries'))
    def __hash__(self: Any) -> int:
        return hash((self.state, self.entries))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('state', 'entries'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('state', 'entries')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_admission_MatchFacts(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``MatchFacts`` of ``responses_oracle.model.admission``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, call: Any, has_id: Any, snapshot: Any, bound: Any, shared: Any, named: Any, holder: Any, same_type: Any, call_of: Any, has_id_of: Any, open_: Any) -> None:
        _object_setattr(self, 'call', call)
        _object_setattr(self, 'has_id', has_id)
        _object_setattr(self, 'snapshot', snapshot)
        _object_setattr(self, 'bound', bound)
        _object_setattr(self, 'shared', shared)
        _object_setattr(self, 'named', named)
        _object_setattr(self, 'holder', holder)
        _object_setattr(self, 'same_type', same_type)
        _object_setattr(self, 'call_of', call_of)
        _object_setattr(self, 'has_id_of', has_id_of)
        _object_setattr(self, 'open_', open_)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(call={self.call!r}, has_id={self.has_id!r}, snapshot={self.snapshot!r}, bound={self.bound!r}, shared={self.shared!r}, named={self.named!r}, holder={self.holder!r}, same_type={self.same_type!r}, call_of={self.call_of!r}, has_id_of={self.has_id_of!r}, open_={self.open_!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.call, self.has_id, self.snapshot, self.bound, self.shared, self.named, self.holder, self.same_type, self.call_of, self.has_id_of, self.open_) == (other.call, other.has_id, other.snapshot, other.bound, other.shared, other.named, other.holder, other.same_type, other.call_of, other.has_id_of, other.open_)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('call', 'has_id', 'snapshot', 'bound', 'shared', 'named', 'holder', 'same_type', 'call_of', 'has_id_of', 'open_'))
    def __hash__(self: Any) -> int:
        return hash((self.call, self.has_id, self.snapshot, self.bound, self.shared, self.named, self.holder, self.same_type, self.call_of, self.has_id_of, self.open_))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('call', 'has_id', 'snapshot', 'bound', 'shared', 'named', 'holder', 'same_type', 'call_of', 'has_id_of', 'open_')),
    )


def _model_admission_Refusal(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Refusal`` of ``responses_oracle.model.admission``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, item_type: Any, call_id: Any, view: Any, limited: Any, snapshot: Any) -> None:
        _object_setattr(self, 'item_type', item_type)
        _object_setattr(self, 'call_id', call_id)
        _object_setattr(self, 'view', view)
        _object_setattr(self, 'limited', limited)
        _object_setattr(self, 'snapshot', snapshot)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(item_type={self.item_type!r}, call_id={self.call_id!r}, view={self.view!r}, limited={self.limited!r}, snapshot={self.snapshot!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.item_type, self.call_id, self.view, self.limited, self.snapshot) == (other.item_type, other.call_id, other.view, other.limited, other.snapshot)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('item_type', 'call_id', 'view', 'limited', 'snapshot'))
    def __hash__(self: Any) -> int:
        return hash((self.item_type, self.call_id, self.view, self.limited, self.snapshot))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('item_type', 'call_id', 'view', 'limited', 'snapshot'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('item_type', 'call_id', 'view', 'limited', 'snapshot')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_catalogue_ChannelLocation(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ChannelLocation`` of ``responses_oracle.model.catalogue``."""
    _dflt_container, _dflt_array, _dflt_part_type = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, channel: Any, field: Any, container: Any = _dflt_container, array: Any = _dflt_array, part_type: Any = _dflt_part_type) -> None:
        _object_setattr(self, 'channel', channel)
        _object_setattr(self, 'field', field)
        _object_setattr(self, 'container', container)
        _object_setattr(self, 'array', array)
        _object_setattr(self, 'part_type', part_type)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(channel={self.channel!r}, field={self.field!r}, container={self.container!r}, array={self.array!r}, part_type={self.part_type!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.channel, self.field, self.container, self.array, self.part_type) == (other.channel, other.field, other.container, other.array, other.part_type)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('channel', 'field', 'container', 'array', 'part_type'))
    def __hash__(self: Any) -> int:
        return hash((self.channel, self.field, self.container, self.array, self.part_type))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('channel', 'field', 'container', 'array', 'part_type'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('channel', 'field', 'container', 'array', 'part_type')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_catalogue_ClientCall(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ClientCall`` of ``responses_oracle.model.catalogue``."""
    _dflt_output_key, _dflt_replay_output = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, tool_types: Any, declaration: Any, output: Any, output_key: Any = _dflt_output_key, replay_output: Any = _dflt_replay_output) -> None:
        _object_setattr(self, 'tool_types', tool_types)
        _object_setattr(self, 'declaration', declaration)
        _object_setattr(self, 'output', output)
        _object_setattr(self, 'output_key', output_key)
        _object_setattr(self, 'replay_output', replay_output)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(tool_types={self.tool_types!r}, declaration={self.declaration!r}, output={self.output!r}, output_key={self.output_key!r}, replay_output={self.replay_output!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.tool_types, self.declaration, self.output, self.output_key, self.replay_output) == (other.tool_types, other.declaration, other.output, other.output_key, other.replay_output)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('tool_types', 'declaration', 'output', 'output_key', 'replay_output'))
    def __hash__(self: Any) -> int:
        return hash((self.tool_types, self.declaration, self.output, self.output_key, self.replay_output))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('tool_types', 'declaration', 'output', 'output_key', 'replay_output'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('tool_types', 'declaration', 'output', 'output_key', 'replay_output')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_catalogue_ItemTypeSpec(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ItemTypeSpec`` of ``responses_oracle.model.catalogue``."""
    _dflt_channels, _dflt_call, _dflt_kind = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, id_prefix: Any, channels: Any = _dflt_channels, call: Any = _dflt_call, kind: Any = _dflt_kind) -> None:
        _object_setattr(self, 'id_prefix', id_prefix)
        _object_setattr(self, 'channels', channels)
        _object_setattr(self, 'call', call)
        _object_setattr(self, 'kind', kind)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(id_prefix={self.id_prefix!r}, channels={self.channels!r}, call={self.call!r}, kind={self.kind!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.id_prefix, self.channels, self.call, self.kind) == (other.id_prefix, other.channels, other.call, other.kind)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('id_prefix', 'channels', 'call', 'kind'))
    def __hash__(self: Any) -> int:
        return hash((self.id_prefix, self.channels, self.call, self.kind))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('id_prefix', 'channels', 'call', 'kind'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('id_prefix', 'channels', 'call', 'kind')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_catalogue_WireEventSpec(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``WireEventSpec`` of ``responses_oracle.model.catalogue``."""
    _dflt_trigger, _dflt_channel, _dflt_value_field, _dflt_index_field, _dflt_value_in_part = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, event_class: Any, trigger: Any = _dflt_trigger, channel: Any = _dflt_channel, value_field: Any = _dflt_value_field, index_field: Any = _dflt_index_field, value_in_part: Any = _dflt_value_in_part) -> None:
        _object_setattr(self, 'event_class', event_class)
        _object_setattr(self, 'trigger', trigger)
        _object_setattr(self, 'channel', channel)
        _object_setattr(self, 'value_field', value_field)
        _object_setattr(self, 'index_field', index_field)
        _object_setattr(self, 'value_in_part', value_in_part)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(event_class={self.event_class!r}, trigger={self.trigger!r}, channel={self.channel!r}, value_field={self.value_field!r}, index_field={self.index_field!r}, value_in_part={self.value_in_part!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.event_class, self.trigger, self.channel, self.value_field, self.index_field, self.value_in_part) == (other.event_class, other.trigger, other.channel, other.value_field, other.index_field, other.value_in_part)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('event_class', 'trigger', 'channel', 'value_field', 'index_field', 'value_in_part'))
    def __hash__(self: Any) -> int:
        return hash((self.event_class, self.trigger, self.channel, self.value_field, self.index_field, self.value_in_part))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('event_class', 'trigger', 'channel', 'value_field', 'index_field', 'value_in_part'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('event_class', 'trigger', 'channel', 'value_field', 'index_field', 'value_in_part')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_execution_CallFacts(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``CallFacts`` of ``responses_oracle.model.execution``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, item: Any, completed: Any, confirmed: Any, call_id: Any, answered: Any, tools: Any) -> None:
        _object_setattr(self, 'item', item)
        _object_setattr(self, 'completed', completed)
        _object_setattr(self, 'confirmed', confirmed)
        _object_setattr(self, 'call_id', call_id)
        _object_setattr(self, 'answered', answered)
        _object_setattr(self, 'tools', tools)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(item={self.item!r}, completed={self.completed!r}, confirmed={self.confirmed!r}, call_id={self.call_id!r}, answered={self.answered!r}, tools={self.tools!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.item, self.completed, self.confirmed, self.call_id, self.answered, self.tools) == (other.item, other.completed, other.confirmed, other.call_id, other.answered, other.tools)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('item', 'completed', 'confirmed', 'call_id', 'answered', 'tools'))
    def __hash__(self: Any) -> int:
        return hash((self.item, self.completed, self.confirmed, self.call_id, self.answered, self.tools))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('item', 'completed', 'confirmed', 'call_id', 'answered', 'tools'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('item', 'completed', 'confirmed', 'call_id', 'answered', 'tools')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_tables_ModelTables(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ModelTables`` of ``responses_oracle.model.tables``."""
    _dflt_name, _dflt_lifecycle, _dflt_slots, _dflt_routing, _dflt_namespaces, _dflt_added_admission, _dflt_matching, _dflt_done_admission, _dflt_payload, _dflt_identity, _dflt_reclassification, _dflt_boundary, _dflt_frames, _dflt_fills_missing_slot, _dflt_part_merge, _dflt_terminal_status, _dflt_amendable, _dflt_execution, _dflt_names_one_entry, _dflt_environment_runner, _dflt_execution_runner, _dflt_declared, _dflt_execution_values, _dflt_environment_types, _dflt_openings, _dflt_client_frames, _dflt_matched_items, _dflt_part_additions, _dflt_withheld, _dflt_note_codes, _dflt_resume_waived, _dflt_announced_parts, _dflt_restated = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, name: Any = _dflt_name, lifecycle: Any = _HAS_DEFAULT_FACTORY, slots: Any = _HAS_DEFAULT_FACTORY, routing: Any = _HAS_DEFAULT_FACTORY, namespaces: Any = _HAS_DEFAULT_FACTORY, added_admission: Any = _HAS_DEFAULT_FACTORY, matching: Any = _HAS_DEFAULT_FACTORY, done_admission: Any = _HAS_DEFAULT_FACTORY, payload: Any = _HAS_DEFAULT_FACTORY, identity: Any = _HAS_DEFAULT_FACTORY, reclassification: Any = _HAS_DEFAULT_FACTORY, boundary: Any = _HAS_DEFAULT_FACTORY, frames: Any = _HAS_DEFAULT_FACTORY, fills_missing_slot: Any = _HAS_DEFAULT_FACTORY, part_merge: Any = _HAS_DEFAULT_FACTORY, terminal_status: Any = _HAS_DEFAULT_FACTORY, amendable: Any = _HAS_DEFAULT_FACTORY, execution: Any = _HAS_DEFAULT_FACTORY, names_one_entry: Any = _HAS_DEFAULT_FACTORY, environment_runner: Any = _HAS_DEFAULT_FACTORY, execution_runner: Any = _HAS_DEFAULT_FACTORY, declared: Any = _HAS_DEFAULT_FACTORY, execution_values: Any = _HAS_DEFAULT_FACTORY, environment_types: Any = _HAS_DEFAULT_FACTORY, openings: Any = _HAS_DEFAULT_FACTORY, client_frames: Any = _HAS_DEFAULT_FACTORY, matched_items: Any = _HAS_DEFAULT_FACTORY, part_additions: Any = _HAS_DEFAULT_FACTORY, withheld: Any = _HAS_DEFAULT_FACTORY, note_codes: Any = _HAS_DEFAULT_FACTORY, resume_waived: Any = _HAS_DEFAULT_FACTORY, announced_parts: Any = _HAS_DEFAULT_FACTORY, restated: Any = _HAS_DEFAULT_FACTORY) -> None:
        _object_setattr(self, 'name', name)
        _object_setattr(self, 'lifecycle', _dflt_lifecycle() if lifecycle is _HAS_DEFAULT_FACTORY else lifecycle)
        _object_setattr(self, 'slots', _dflt_slots() if slots is _HAS_DEFAULT_FACTORY else slots)
        _object_setattr(self, 'routing', _dflt_routing() if routing is _HAS_DEFAULT_FACTORY else routing)
        _object_setattr(self, 'namespaces', _dflt_namespaces() if namespaces is _HAS_DEFAULT_FACTORY else namespaces)
        _object_setattr(self, 'added_admission', _dflt_added_admission() if added_admission is _HAS_DEFAULT_FACTORY else added_admission)
        _object_setattr(self, 'matching', _dflt_matching() if matching is _HAS_DEFAULT_FACTORY else matching)
        _object_setattr(self, 'done_admission', _dflt_done_admission() if done_admission is _HAS_DEFAULT_FACTORY else done_admission)
        _object_setattr(self, 'payload', _dflt_payload() if payload is _HAS_DEFAULT_FACTORY else payload)
        _object_setattr(self, 'identity', _dflt_identity() if identity is _HAS_DEFAULT_FACTORY else identity)
        _object_setattr(self, 'reclassification', _dflt_reclassification() if reclassification is _HAS_DEFAULT_FACTORY else reclassification)
        _object_setattr(self, 'boundary', _dflt_boundary() if boundary is _HAS_DEFAULT_FACTORY else boundary)
        _object_setattr(self, 'frames', _dflt_frames() if frames is _HAS_DEFAULT_FACTORY else frames)
        _object_setattr(self, 'fills_missing_slot', _dflt_fills_missing_slot() if fills_missing_slot is _HAS_DEFAULT_FACTORY else fills_missing_slot)
        _object_setattr(self, 'part_merge', _dflt_part_merge() if part_merge is _HAS_DEFAULT_FACTORY else part_merge)
        _object_setattr(self, 'terminal_status', _dflt_terminal_status() if terminal_status is _HAS_DEFAULT_FACTORY else terminal_status)
        _object_setattr(self, 'amendable', _dflt_amendable() if amendable is _HAS_DEFAULT_FACTORY else amendable)
        _object_setattr(self, 'execution', _dflt_execution() if execution is _HAS_DEFAULT_FACTORY else execution)
        _object_setattr(self, 'names_one_entry', _dflt_names_one_entry() if names_one_entry is _HAS_DEFAULT_FACTORY else names_one_entry)
        _object_setattr(self, 'environment_runner', _dflt_environment_runner() if environment_runner is _HAS_DEFAULT_FACTORY else environment_runner)
        _object_setattr(self, 'execution_runner', _dflt_execution_runner() if execution_runner is _HAS_DEFAULT_FACTORY else execution_runner)
        _object_setattr(self, 'declared', _dflt_declared() if declared is _HAS_DEFAULT_FACTORY else declared)
        _object_setattr(self, 'execution_values', _dflt_execution_values() if execution_values is _HAS_DEFAULT_FACTORY else execution_values)
        _object_setattr(self, 'environment_types', _dflt_environment_types() if environment_types is _HAS_DEFAULT_FACTORY else environment_types)
        _object_setattr(self, 'openings', _dflt_openings() if openings is _HAS_DEFAULT_FACTORY else openings)
        _object_setattr(self, 'client_frames', _dflt_client_frames() if client_frames is _HAS_DEFAULT_FACTORY else client_frames)
        _object_setattr(self, 'matched_items', _dflt_matched_items() if matched_items is _HAS_DEFAULT_FACTORY else matched_items)
        _object_setattr(self, 'part_additions', _dflt_part_additions() if part_additions is _HAS_DEFAULT_FACTORY else part_additions)
        _object_setattr(self, 'withheld', _dflt_withheld() if withheld is _HAS_DEFAULT_FACTORY else withheld)
        _object_setattr(self, 'note_codes', _dflt_note_codes() if note_codes is _HAS_DEFAULT_FACTORY else note_codes)
        _object_setattr(self, 'resume_waived', _dflt_resume_waived() if resume_waived is _HAS_DEFAULT_FACTORY else resume_waived)
        _object_setattr(self, 'announced_parts', _dflt_announced_parts() if announced_parts is _HAS_DEFAULT_FACTORY else announced_parts)
        _object_setattr(self, 'restated', _dflt_restated() if restated is _HAS_DEFAULT_FACTORY else restated)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(name={self.name!r}, lifecycle={self.lifecycle!r}, slots={self.slots!r}, routing={self.routing!r}, namespaces={self.namespaces!r}, added_admission={self.added_admission!r}, matching={self.matching!r}, done_admission={self.done_admission!r}, payload={self.payload!r}, identity={self.identity!r}, reclassification={self.reclassification!r}, boundary={self.boundary!r}, frames={self.frames!r}, fills_missing_slot={self.fills_missing_slot!r}, part_merge={self.part_merge!r}, terminal_status={self.terminal_status!r}, amendable={self.amendable!r}, execution={self.execution!r}, names_one_entry={self.names_one_entry!r}, environment_runner={self.environment_runner!r}, execution_runner={self.execution_runner!r}, declared={self.declared!r}, execution_values={self.execution_values!r}, environment_types={self.environment_types!r}, openings={self.openings!r}, client_frames={self.client_frames!r}, matched_items={self.matched_items!r}, part_additions={self.part_additions!r}, withheld={self.withheld!r}, note_codes={self.note_codes!r}, resume_waived={self.resume_waived!r}, announced_parts={self.announced_parts!r}, restated={self.restated!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.name, self.lifecycle, self.slots, self.routing, self.namespaces, self.added_admission, self.matching, self.done_admission, self.payload, self.identity, self.reclassification, self.boundary, self.frames, self.fills_missing_slot, self.part_merge, self.terminal_status, self.amendable, self.execution, self.names_one_entry, self.environment_runner, self.execution_runner, self.declared, self.execution_values, self.environment_types, self.openings, self.client_frames, self.matched_items, self.part_additions, self.withheld, self.note_codes, self.resume_waived, self.announced_parts, self.restated) == (other.name, other.lifecycle, other.slots, other.routing, other.namespaces, other.added_admission, other.matching, other.done_admission, other.payload, other.identity, other.reclassification, other.boundary, other.frames, other.fills_missing_slot, other.part_merge, other.terminal_status, other.amendable, other.execution, other.names_one_entry, other.environment_runner, other.execution_runner, other.declared, other.execution_values, other.environment_types, other.openings, other.client_frames, other.matched_items, other.part_additions, other.withheld, other.note_codes, other.resume_waived, other.announced_parts, other.restated)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('name', 'lifecycle', 'slots', 'routing', 'namespaces', 'added_admission', 'matching', 'done_admission', 'payload', 'identity', 'reclassification', 'boundary', 'frames', 'fills_missing_slot', 'part_merge', 'terminal_status', 'amendable', 'execution', 'names_one_entry', 'environment_runner', 'execution_runner', 'declared', 'execution_values', 'environment_types', 'openings', 'client_frames', 'matched_items', 'part_additions', 'withheld', 'note_codes', 'resume_waived', 'announced_parts', 'restated'))
    def __hash__(self: Any) -> int:
        return hash((self.name, self.lifecycle, self.slots, self.routing, self.namespaces, self.added_admission, self.matching, self.done_admission, self.payload, self.identity, self.reclassification, self.boundary, self.frames, self.fills_missing_slot, self.part_merge, self.terminal_status, self.amendable, self.execution, self.names_one_entry, self.environment_runner, self.execution_runner, self.declared, self.execution_values, self.environment_types, self.openings, self.client_frames, self.matched_items, self.part_additions, self.withheld, self.note_codes, self.resume_waived, self.announced_parts, self.restated))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('name', 'lifecycle', 'slots', 'routing', 'namespaces', 'added_admission', 'matching', 'done_admission', 'payload', 'identity', 'reclassification', 'boundary', 'frames', 'fills_missing_slot', 'part_merge', 'terminal_status', 'amendable', 'execution', 'names_one_entry', 'environment_runner', 'execution_runner', 'declared', 'execution_values', 'environment_types', 'openings', 'client_frames', 'matched_items', 'part_additions', 'withheld', 'note_codes', 'resume_waived', 'announced_parts', 'restated')),
    )


def _model_vocabulary_CodeSpec(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``CodeSpec`` of ``responses_oracle.model.vocabulary``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, severity: Any, rule: Any, meaning: Any) -> None:
        _object_setattr(self, 'severity', severity)
        _object_setattr(self, 'rule', rule)
        _object_setattr(self, 'meaning', meaning)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(severity={self.severity!r}, rule={self.rule!r}, meaning={self.meaning!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.severity, self.rule, self.meaning) == (other.severity, other.rule, other.meaning)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('severity', 'rule', 'meaning'))
    def __hash__(self: Any) -> int:
        return hash((self.severity, self.rule, self.meaning))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('severity', 'rule', 'meaning'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('severity', 'rule', 'meaning')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _model_vocabulary_Restatement(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Restatement`` of ``responses_oracle.model.vocabulary``."""
    (_dflt_unless,) = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, by: Any, unless: Any = _dflt_unless) -> None:
        _object_setattr(self, 'by', by)
        _object_setattr(self, 'unless', unless)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(by={self.by!r}, unless={self.unless!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.by, self.unless) == (other.by, other.unless)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('by', 'unless'))
    def __hash__(self: Any) -> int:
        return hash((self.by, self.unless))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('by', 'unless'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('by', 'unless')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _result_Result(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Result`` of ``responses_oracle.result``."""
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, response_id: Any, status: Any, items: Any, diagnostics: Any) -> None:
        _object_setattr(self, 'response_id', response_id)
        _object_setattr(self, 'status', status)
        _object_setattr(self, 'items', items)
        _object_setattr(self, 'diagnostics', diagnostics)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(response_id={self.response_id!r}, status={self.status!r}, items={self.items!r}, diagnostics={self.diagnostics!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.response_id, self.status, self.items, self.diagnostics) == (other.response_id, other.status, other.items, other.diagnostics)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('response_id', 'status', 'items', 'diagnostics'))
    def __hash__(self: Any) -> int:
        return hash((self.response_id, self.status, self.items, self.diagnostics))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('response_id', 'status', 'items', 'diagnostics'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('response_id', 'status', 'items', 'diagnostics')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _result_ResultItem(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``ResultItem`` of ``responses_oracle.result``."""
    _dflt_given_ids, _dflt_given_call_ids = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, output_index: Any, item: Any, id_source: Any, payload_source: Any, state: Any, executable: Any, execution: Any, given_ids: Any = _dflt_given_ids, given_call_ids: Any = _dflt_given_call_ids) -> None:
        _object_setattr(self, 'output_index', output_index)
        _object_setattr(self, 'item', item)
        _object_setattr(self, 'id_source', id_source)
        _object_setattr(self, 'payload_source', payload_source)
        _object_setattr(self, 'state', state)
        _object_setattr(self, 'executable', executable)
        _object_setattr(self, 'execution', execution)
        _object_setattr(self, 'given_ids', given_ids)
        _object_setattr(self, 'given_call_ids', given_call_ids)
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(output_index={self.output_index!r}, item={self.item!r}, id_source={self.id_source!r}, payload_source={self.payload_source!r}, state={self.state!r}, executable={self.executable!r}, execution={self.execution!r}, given_ids={self.given_ids!r}, given_call_ids={self.given_call_ids!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.output_index, self.item, self.id_source, self.payload_source, self.state, self.executable, self.execution) == (other.output_index, other.item, other.id_source, other.payload_source, other.state, other.executable, other.execution)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('output_index', 'item', 'id_source', 'payload_source', 'state', 'executable', 'execution', 'given_ids', 'given_call_ids'))
    def __hash__(self: Any) -> int:
        return hash((self.output_index, self.item, self.id_source, self.payload_source, self.state, self.executable, self.execution))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('output_index', 'item', 'id_source', 'payload_source', 'state', 'executable', 'execution', 'given_ids', 'given_call_ids'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('output_index', 'item', 'id_source', 'payload_source', 'state', 'executable', 'execution', 'given_ids', 'given_call_ids')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


def _wire_records_Limits(cls: Any, defaults: tuple[Any, ...]) -> Methods:
    """``Limits`` of ``responses_oracle.wire.records``."""
    _dflt_max_event_bytes, _dflt_max_total_bytes, _dflt_max_document_bytes = defaults
    running: set[tuple[int, int]] = set()
    def __init__(self: Any, max_event_bytes: Any = _dflt_max_event_bytes, max_total_bytes: Any = _dflt_max_total_bytes, max_document_bytes: Any = _dflt_max_document_bytes) -> None:
        _object_setattr(self, 'max_event_bytes', max_event_bytes)
        _object_setattr(self, 'max_total_bytes', max_total_bytes)
        _object_setattr(self, 'max_document_bytes', max_document_bytes)
        self.__post_init__()
    def __repr__(self: Any) -> Any:
        key = id(self), _get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + f"(max_event_bytes={self.max_event_bytes!r}, max_total_bytes={self.max_total_bytes!r}, max_document_bytes={self.max_document_bytes!r})"
        finally:
            running.discard(key)
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return (self.max_event_bytes, self.max_total_bytes, self.max_document_bytes) == (other.max_event_bytes, other.max_total_bytes, other.max_document_bytes)
        return NotImplemented
    __setattr__, __delattr__ = _frozen(cls, ('max_event_bytes', 'max_total_bytes', 'max_document_bytes'))
    def __hash__(self: Any) -> int:
        return hash((self.max_event_bytes, self.max_total_bytes, self.max_document_bytes))
    _dataclass_getstate, _dataclass_setstate = _slot_state(('max_event_bytes', 'max_total_bytes', 'max_document_bytes'))
    return (
        ('__init__', __init__),
        ('__repr__', __repr__),
        ('__eq__', __eq__),
        ('__setattr__', __setattr__),
        ('__delattr__', __delattr__),
        ('__hash__', __hash__),
        ('__match_args__', ('max_event_bytes', 'max_total_bytes', 'max_document_bytes')),
        ('__getstate__', _dataclass_getstate),
        ('__setstate__', _dataclass_setstate),
    )


RECORDS: dict[str, tuple[Any, Callable[[type, tuple[Any, ...]], Methods]]] = {
    'responses_oracle.core.context.ReducerLimits': (
        (True, True, False, (('max_entries', True, False, True, True, True), ('max_channel_chars', True, False, True, True, True))),
        _core_context_ReducerLimits,
    ),
    'responses_oracle.core.dispatch.StepTrace': (
        (True, True, False, (('index', False, False, True, True, True), ('type', False, False, True, True, True), ('decision', False, False, True, True, True), ('entry', False, False, True, True, True), ('before', False, False, True, True, True), ('after', False, False, True, True, True), ('codes', False, False, True, True, True))),
        _core_dispatch_StepTrace,
    ),
    'responses_oracle.core.state.Channel': (
        (False, True, False, (('kind', False, False, True, True, True), ('index', False, False, True, True, True), ('deltas', False, True, True, True, True), ('delta_chars', True, False, True, True, True), ('value', True, False, True, True, True), ('source', True, False, True, True, True), ('closed', True, False, True, True, True), ('part', True, False, True, True, True), ('any_nonempty', True, False, True, True, True), ('last_nonempty', True, False, True, True, True), ('attached', True, False, True, True, True))),
        _core_state_Channel,
    ),
    'responses_oracle.core.state.Diagnostic': (
        (True, True, False, (('code', False, False, True, True, True), ('event_index', False, False, True, True, True), ('sequence_number', False, False, True, True, True), ('detail', False, False, True, True, True), ('event', True, False, True, True, True))),
        _core_state_Diagnostic,
    ),
    'responses_oracle.core.state.Entry': (
        (False, True, True, (('ordinal', False, False, True, True, True), ('item_type', False, False, True, True, True), ('spec', False, False, True, True, True), ('slot', False, False, True, True, True), ('state', True, False, True, True, True), ('completions', True, False, True, True, True), ('call_id', True, False, True, True, True), ('name', True, False, True, True, True), ('namespace', True, False, True, True, True), ('item_id', True, False, True, True, True), ('id_source', True, False, True, True, True), ('confirmed', True, False, True, True, True), ('executable', True, False, True, True, True), ('execution', True, False, True, True, True), ('in_snapshot', True, False, True, True, True), ('done_item', True, False, True, True, True), ('given_ids', False, True, True, True, True), ('given_call_ids', False, True, True, True, True), ('item', False, True, True, True, True), ('channels', False, True, True, True, True), ('channel_kinds', False, False, False, False, False))),
        _core_state_Entry,
    ),
    'responses_oracle.core.state.ResponseState': (
        (False, True, False, (('response_id', True, False, True, True, True), ('status', True, False, True, True, True), ('terminal', True, False, True, True, True), ('started', True, False, True, True, True), ('events', True, False, True, True, True), ('entries', False, True, True, True, True), ('slots', False, True, True, True, True), ('interner', False, True, True, True, True), ('aliases', False, True, True, True, True), ('routes', False, True, True, True, True), ('call_ids', False, True, True, True, True), ('diagnostics', False, True, True, True, True), ('snapshot_items', True, False, True, True, True), ('snapshot_placed', True, False, True, True, True), ('done_items', True, False, True, True, True), ('done_placed', True, False, True, True, True), ('refusals', False, True, True, True, True), ('last_sequence', True, False, True, True, True), ('resumed_at', True, False, True, True, True), ('held_over', False, True, True, True, True), ('entries_limit_hit', True, False, True, True, True), ('tools', True, False, True, True, True), ('amendable', True, False, True, True, True))),
        _core_state_ResponseState,
    ),
    'responses_oracle.core.state.Slot': (
        (False, True, False, (('state', True, False, True, True, True), ('entries', False, True, True, True, True))),
        _core_state_Slot,
    ),
    'responses_oracle.core.view.EntryFacts': (
        (True, True, False, (('ordinal', False, False, True, True, True), ('item_type', False, False, True, True, True), ('state', False, False, True, True, True), ('slot', False, False, True, True, True), ('completions', False, False, True, True, True), ('confirmed', False, False, True, True, True), ('in_snapshot', False, False, True, True, True), ('channels', False, False, True, True, True), ('delta_chars', False, False, True, True, True), ('call_id', False, False, True, True, True), ('name', False, False, True, True, True), ('namespace', False, False, True, True, True), ('item_id', False, False, True, True, True), ('executable', False, False, True, True, True), ('execution', False, False, True, True, True))),
        _core_view_EntryFacts,
    ),
    'responses_oracle.core.view.SlotFacts': (
        (True, True, False, (('state', False, False, True, True, True), ('entries', False, False, True, True, True))),
        _core_view_SlotFacts,
    ),
    'responses_oracle.model.admission.MatchFacts': (
        (True, False, False, (('call', False, False, True, True, True), ('has_id', False, False, True, True, True), ('snapshot', False, False, True, True, True), ('bound', False, False, True, True, True), ('shared', False, False, True, True, True), ('named', False, False, True, True, True), ('holder', False, False, True, True, True), ('same_type', False, False, True, True, True), ('call_of', False, False, True, True, True), ('has_id_of', False, False, True, True, True), ('open_', False, False, True, True, True))),
        _model_admission_MatchFacts,
    ),
    'responses_oracle.model.admission.Refusal': (
        (True, True, False, (('item_type', False, False, True, True, True), ('call_id', False, False, True, True, True), ('view', False, False, True, True, True), ('limited', False, False, True, True, True), ('snapshot', False, False, True, True, True))),
        _model_admission_Refusal,
    ),
    'responses_oracle.model.catalogue.ChannelLocation': (
        (True, True, False, (('channel', False, False, True, True, True), ('field', False, False, True, True, True), ('container', True, False, True, True, True), ('array', True, False, True, True, True), ('part_type', True, False, True, True, True))),
        _model_catalogue_ChannelLocation,
    ),
    'responses_oracle.model.catalogue.ClientCall': (
        (True, True, False, (('tool_types', False, False, True, True, True), ('declaration', False, False, True, True, True), ('output', False, False, True, True, True), ('output_key', True, False, True, True, True), ('replay_output', True, False, True, True, True))),
        _model_catalogue_ClientCall,
    ),
    'responses_oracle.model.catalogue.ItemTypeSpec': (
        (True, True, False, (('id_prefix', False, False, True, True, True), ('channels', True, False, True, True, True), ('call', True, False, True, True, True), ('kind', True, False, True, True, True))),
        _model_catalogue_ItemTypeSpec,
    ),
    'responses_oracle.model.catalogue.WireEventSpec': (
        (True, True, False, (('event_class', False, False, True, True, True), ('trigger', True, False, True, True, True), ('channel', True, False, True, True, True), ('value_field', True, False, True, True, True), ('index_field', True, False, True, True, True), ('value_in_part', True, False, True, True, True))),
        _model_catalogue_WireEventSpec,
    ),
    'responses_oracle.model.execution.CallFacts': (
        (True, True, False, (('item', False, False, True, True, True), ('completed', False, False, True, True, True), ('confirmed', False, False, True, True, True), ('call_id', False, False, True, True, True), ('answered', False, False, True, True, True), ('tools', False, False, True, True, True))),
        _model_execution_CallFacts,
    ),
    'responses_oracle.model.tables.ModelTables': (
        (True, False, False, (('name', True, False, True, True, True), ('lifecycle', False, True, True, True, True), ('slots', False, True, True, True, True), ('routing', False, True, True, True, True), ('namespaces', False, True, True, True, True), ('added_admission', False, True, True, True, True), ('matching', False, True, True, True, True), ('done_admission', False, True, True, True, True), ('payload', False, True, True, True, True), ('identity', False, True, True, True, True), ('reclassification', False, True, True, True, True), ('boundary', False, True, True, True, True), ('frames', False, True, True, True, True), ('fills_missing_slot', False, True, True, True, True), ('part_merge', False, True, True, True, True), ('terminal_status', False, True, True, True, True), ('amendable', False, True, True, True, True), ('execution', False, True, True, True, True), ('names_one_entry', False, True, True, True, True), ('environment_runner', False, True, True, True, True), ('execution_runner', False, True, True, True, True), ('declared', False, True, True, True, True), ('execution_values', False, True, True, True, True), ('environment_types', False, True, True, True, True), ('openings', False, True, True, True, True), ('client_frames', False, True, True, True, True), ('matched_items', False, True, True, True, True), ('part_additions', False, True, True, True, True), ('withheld', False, True, True, True, True), ('note_codes', False, True, True, True, True), ('resume_waived', False, True, True, True, True), ('announced_parts', False, True, True, True, True), ('restated', False, True, True, True, True))),
        _model_tables_ModelTables,
    ),
    'responses_oracle.model.vocabulary.CodeSpec': (
        (True, True, False, (('severity', False, False, True, True, True), ('rule', False, False, True, True, True), ('meaning', False, False, True, True, True))),
        _model_vocabulary_CodeSpec,
    ),
    'responses_oracle.model.vocabulary.Restatement': (
        (True, True, False, (('by', False, False, True, True, True), ('unless', True, False, True, True, True))),
        _model_vocabulary_Restatement,
    ),
    'responses_oracle.result.Result': (
        (True, True, False, (('response_id', False, False, True, True, True), ('status', False, False, True, True, True), ('items', False, False, True, True, True), ('diagnostics', False, False, True, True, True))),
        _result_Result,
    ),
    'responses_oracle.result.ResultItem': (
        (True, True, False, (('output_index', False, False, True, True, True), ('item', False, False, True, True, True), ('id_source', False, False, True, True, True), ('payload_source', False, False, True, True, True), ('state', False, False, True, True, True), ('executable', False, False, True, True, True), ('execution', False, False, True, True, True), ('given_ids', True, False, True, True, False), ('given_call_ids', True, False, True, True, False))),
        _result_ResultItem,
    ),
    'responses_oracle.wire.records.Limits': (
        (True, True, True, (('max_event_bytes', True, False, True, True, True), ('max_total_bytes', True, False, True, True, True), ('max_document_bytes', True, False, True, True, True))),
        _wire_records_Limits,
    ),
}
"""Each record's declared shape and its builder, by dotted name."""


def _new_cli_common_CommandSpec(_cls: Any, name: Any, module: Any, summary: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.cli.common.CommandSpec``."""
    return _tuple_new(_cls, (name, module, summary))


def _new_core_events_Event(_cls: Any, index: Any, type: Any, spec: Any, payload: Any, sequence_number: Any, output_index: Any, item_id: Any, channel: Any, part_index: Any, value: Any, part: Any, item: Any, response: Any, problems: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.core.events.Event``."""
    return _tuple_new(_cls, (index, type, spec, payload, sequence_number, output_index, item_id, channel, part_index, value, part, item, response, problems))


def _new_model_admission_Admission(_cls: Any, action: Any, code: Any, stage: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.admission.Admission``."""
    return _tuple_new(_cls, (action, code, stage))


def _new_model_admission_IdentityDecision(_cls: Any, action: Any, code: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.admission.IdentityDecision``."""
    return _tuple_new(_cls, (action, code))


def _new_model_annotations_PartAddition(_cls: Any, channel: Any, part_index: Any, value: Any, position: Any, part_type: Any, array: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.annotations.PartAddition``."""
    return _tuple_new(_cls, (channel, part_index, value, position, part_type, array))


def _new_model_lifecycle_Transition(_cls: Any, next_state: Any, effects: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.lifecycle.Transition``."""
    return _tuple_new(_cls, (next_state, effects))


def _new_model_payload_PayloadDecision(_cls: Any, action: Any, code: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.payload.PayloadDecision``."""
    return _tuple_new(_cls, (action, code))


def _new_model_routing_Route(_cls: Any, action: Any, code: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.routing.Route``."""
    return _tuple_new(_cls, (action, code))


def _new_model_slots_SlotTransition(_cls: Any, next_state: Any, code: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.slots.SlotTransition``."""
    return _tuple_new(_cls, (next_state, code))


def _new_model_tables_KernelSet(_cls: Any, lifecycle: Any, slot: Any, route: Any, namespace: Any, admit_added: Any, fit: Any, admit_done: Any, payload: Any, identity: Any, reclassify: Any, boundary: Any, frame: Any, fills_slot: Any, merge_part: Any, terminal_status: Any, amends: Any, execute: Any, names_one: Any, shell_runner: Any, search_runner: Any, declares: Any, reads_execution: Any, reads_environment: Any, reads_opening: Any, reads_frame: Any, reads_matched: Any, reads_addition: Any, withholds: Any, notes: Any, waives: Any, announces: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.model.tables.KernelSet``."""
    return _tuple_new(_cls, (lifecycle, slot, route, namespace, admit_added, fit, admit_done, payload, identity, reclassify, boundary, frame, fills_slot, merge_part, terminal_status, amends, execute, names_one, shell_runner, search_runner, declares, reads_execution, reads_environment, reads_opening, reads_frame, reads_matched, reads_addition, withholds, notes, waives, announces))


def _new_stream_names_Named(_cls: Any, argument: Any, path: Any, decoded: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.stream_names.Named``."""
    return _tuple_new(_cls, (argument, path, decoded))


def _new_wire_records_WireEvent(_cls: Any, index: Any, payload: Any, sse_event: Any, problem: Any, detail: Any, raw: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.wire.records.WireEvent``."""
    return _tuple_new(_cls, (index, payload, sse_event, problem, detail, raw))


def _new_wire_sse_SSEMessage(_cls: Any, event: Any, data: Any, id: Any, invalid_utf8: Any, oversized: Any, relayed: Any) -> Any:
    """``__new__`` of the named tuple ``responses_oracle.wire.sse.SSEMessage``."""
    return _tuple_new(_cls, (event, data, id, invalid_utf8, oversized, relayed))


TUPLES: dict[str, tuple[tuple[str, ...], Callable[..., Any]]] = {
    'responses_oracle.cli.common.CommandSpec': (('name', 'module', 'summary'), _new_cli_common_CommandSpec),
    'responses_oracle.core.events.Event': (('index', 'type', 'spec', 'payload', 'sequence_number', 'output_index', 'item_id', 'channel', 'part_index', 'value', 'part', 'item', 'response', 'problems'), _new_core_events_Event),
    'responses_oracle.model.admission.Admission': (('action', 'code', 'stage'), _new_model_admission_Admission),
    'responses_oracle.model.admission.IdentityDecision': (('action', 'code'), _new_model_admission_IdentityDecision),
    'responses_oracle.model.annotations.PartAddition': (('channel', 'part_index', 'value', 'position', 'part_type', 'array'), _new_model_annotations_PartAddition),
    'responses_oracle.model.lifecycle.Transition': (('next_state', 'effects'), _new_model_lifecycle_Transition),
    'responses_oracle.model.payload.PayloadDecision': (('action', 'code'), _new_model_payload_PayloadDecision),
    'responses_oracle.model.routing.Route': (('action', 'code'), _new_model_routing_Route),
    'responses_oracle.model.slots.SlotTransition': (('next_state', 'code'), _new_model_slots_SlotTransition),
    'responses_oracle.model.tables.KernelSet': (('lifecycle', 'slot', 'route', 'namespace', 'admit_added', 'fit', 'admit_done', 'payload', 'identity', 'reclassify', 'boundary', 'frame', 'fills_slot', 'merge_part', 'terminal_status', 'amends', 'execute', 'names_one', 'shell_runner', 'search_runner', 'declares', 'reads_execution', 'reads_environment', 'reads_opening', 'reads_frame', 'reads_matched', 'reads_addition', 'withholds', 'notes', 'waives', 'announces'), _new_model_tables_KernelSet),
    'responses_oracle.stream_names.Named': (('argument', 'path', 'decoded'), _new_stream_names_Named),
    'responses_oracle.wire.records.WireEvent': (('index', 'payload', 'sse_event', 'problem', 'detail', 'raw'), _new_wire_records_WireEvent),
    'responses_oracle.wire.sse.SSEMessage': (('event', 'data', 'id', 'invalid_utf8', 'oversized', 'relayed'), _new_wire_sse_SSEMessage),
}
"""Each named tuple's fields and its ``__new__``, by dotted name."""
