"""The invariants of DESIGN section 4, as named predicates over reducer snapshots.

The reducer exposes its state as a ``ResponseSnapshot``: plain frozen data, so that a
predicate here never depends on how the driver stores things.  There are three kinds
of invariant:

- ``STATE`` predicates hold in every reachable state;
- ``STEP`` predicates relate the state before and after one event (a ``StepRecord``);
- ``FINAL`` predicates hold once the response has ended.

The Hypothesis suites check all of them on every prefix of every generated stream; the
Z3 proofs check the same statements over the encoding generated from the tables.  Some
invariants are not inductive on their own: the extra clauses the induction needs are
listed in ``STRENGTHENING`` — they are the design rationale, written down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .admission import NAMESPACES, Refusal
from .catalogue import ITEM_TYPES, UNKNOWN_ITEM_TYPE, ChannelKind, EventClass
from .execution import CLIENT_CALLS, Execution, answered_ordinals
from .lifecycle import OPEN_STATES
from .vocabulary import LATE_CODES, Code, EntryState, MatchView, ResponseStatus, SlotState


@dataclass(frozen=True, slots=True)
class ChannelSnapshot:
    """One channel of one entry: its final value and the ghost history of offers."""

    kind: ChannelKind
    index: int
    final: str | None
    any_nonempty_offer: bool
    last_nonempty_offer: str | None


@dataclass(frozen=True, slots=True)
class EntrySnapshot:
    """One entry as the invariants see it.  ``completions`` is a ghost counter."""

    ordinal: int
    item_type: str
    state: EntryState
    completions: int
    call_id: str | None
    name: str | None
    item_id: str | None
    slot: int | None
    confirmed: bool
    executable: bool
    channels: tuple[ChannelSnapshot, ...]
    execution: Execution = Execution.NOT_A_CALL
    """Why it is or is not executable: decided when its response ends."""


@dataclass(frozen=True, slots=True)
class SlotSnapshot:
    """One slot: its state and the entries bound to it, first binding first."""

    index: int
    state: SlotState
    entries: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ResponseSnapshot:
    """The whole reducer state of one response, as plain data."""

    status: ResponseStatus
    terminal: bool
    entries: tuple[EntrySnapshot, ...]
    slots: tuple[SlotSnapshot, ...]
    snapshot_items: int
    snapshot_placed: int
    output_ordinals: tuple[int, ...]
    done_items: int = 0
    done_placed: int = 0
    refusals: tuple[Refusal, ...] = ()


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One event's effect: the state before and after, what the event was, what it raised."""

    before: ResponseSnapshot
    after: ResponseSnapshot
    event_class: EventClass | None
    codes: frozenset[Code]


class Scope(Enum):
    """When an invariant is checked."""

    STATE = "state"
    STEP = "step"
    FINAL = "final"


@dataclass(frozen=True)
class Invariant:
    """A named invariant: its statement in words and its predicate."""

    name: str
    statement: str
    scope: Scope
    holds: Callable[..., bool]


def _entries_by_ordinal(snapshot: ResponseSnapshot) -> dict[int, EntrySnapshot]:
    return {entry.ordinal: entry for entry in snapshot.entries}


def _complete_once(state: ResponseSnapshot) -> bool:
    return all(entry.completions <= 1 for entry in state.entries)


def _first_admission_wins(step: StepRecord) -> bool:
    after = _entries_by_ordinal(step.after)
    for old in step.before.entries:
        new = after.get(old.ordinal)
        if new is None or new.item_type != old.item_type:
            return False
        # Identity is fixed at confirmation: the one change allowed is the call_id an
        # open entry's own done renames (and reports).
        renamed = (
            old.state in OPEN_STATES
            and new.state is EntryState.DONE
            and step.event_class is EventClass.ITEM_DONE
            and Code.CALL_ID_RENAMED in step.codes
        )
        if old.call_id and new.call_id != old.call_id and not renamed:
            return False
        if old.name and new.name != old.name:
            return False
    return True



_SLOT_SUCCESSORS: dict[SlotState, frozenset[SlotState]] = {
    SlotState.FREE: frozenset(SlotState),
    SlotState.LIVE: frozenset({SlotState.LIVE, SlotState.SHARED}),
    SlotState.SHARED: frozenset({SlotState.SHARED}),
}


def _slot_first_write(step: StepRecord) -> bool:
    after = {slot.index: slot for slot in step.after.slots}
    for old in step.before.slots:
        new = after.get(old.index)
        if new is None or new.state not in _SLOT_SUCCESSORS[old.state]:
            return False
        if new.entries[: len(old.entries)] != old.entries:
            return False
    return True


def _changed_entries(step: StepRecord) -> int:
    before = _entries_by_ordinal(step.before)
    return sum(1 for entry in step.after.entries if before.get(entry.ordinal) != entry)


_RESPONSE_WIDE = frozenset(
    {
        EventClass.RESPONSE_COMPLETED,
        EventClass.RESPONSE_INCOMPLETE,
        EventClass.RESPONSE_FAILED,
        EventClass.RESPONSE_CANCELLED,
        EventClass.ERROR,
        None,
    }
)
"""Event classes that legitimately touch every entry (the response ends), and the end
of input (``None``)."""


def _no_cross_talk(step: StepRecord) -> bool:
    return step.event_class in _RESPONSE_WIDE or _changed_entries(step) <= 1


def _inert(step: StepRecord) -> bool:
    return step.before.entries == step.after.entries and step.before.slots == step.after.slots


def _ambiguity_rejected(step: StepRecord) -> bool:
    if step.event_class in _RESPONSE_WIDE or Code.AMBIGUOUS_ROUTE not in step.codes:
        return True
    return _inert(step)


def _late_is_inert(step: StepRecord) -> bool:
    if step.event_class in _RESPONSE_WIDE or step.codes.isdisjoint(LATE_CODES):
        return True
    return _inert(step)


def _channels(state: ResponseSnapshot) -> list[ChannelSnapshot]:
    return [channel for entry in state.entries for channel in entry.channels]


def _empty_never_erases(state: ResponseSnapshot) -> bool:
    return all(
        bool(channel.final) for channel in _channels(state) if channel.any_nonempty_offer
    )


def _latest_nonempty_wins(state: ResponseSnapshot) -> bool:
    return all(
        channel.final == channel.last_nonempty_offer
        for channel in _channels(state)
        if channel.any_nonempty_offer
    )


def _nothing_lost(state: ResponseSnapshot) -> bool:
    ordinals = [entry.ordinal for entry in state.entries]
    snapshot_refused = sum(refusal.snapshot for refusal in state.refusals)
    return (
        sorted(state.output_ordinals) == sorted(ordinals)
        and len(set(state.output_ordinals)) == len(state.output_ordinals)
        and state.snapshot_placed + snapshot_refused == state.snapshot_items
        and state.done_placed + len(state.refusals) - snapshot_refused == state.done_items
        and all(_refusal_justified(state, refusal) for refusal in state.refusals)
    )


def _refusal_justified(state: ResponseSnapshot, refusal: Refusal) -> bool:
    """R6 refuses an item only when it is not one (no type), the entry limit is reached,
    several entries fit it, or its ``call_id`` is held by an entry of another type in
    its namespace — read off the state, not off the admission table."""
    if refusal.item_type is None or refusal.limited or refusal.view is MatchView.CONFLICT:
        return True
    namespace = NAMESPACES[ITEM_TYPES.get(refusal.item_type, UNKNOWN_ITEM_TYPE).kind]
    return refusal.call_id is not None and any(
        entry.call_id == refusal.call_id
        and entry.item_type != refusal.item_type
        and NAMESPACES[ITEM_TYPES.get(entry.item_type, UNKNOWN_ITEM_TYPE).kind] == namespace
        for entry in state.entries
    )


def _terminal_is_final(step: StepRecord) -> bool:
    return not step.before.terminal or step.before == step.after


def _executable_needs_completion(state: ResponseSnapshot) -> bool:
    return all(
        not entry.executable or (state.status is ResponseStatus.COMPLETED and entry.confirmed)
        for entry in state.entries
    )


def _executable_is_confirmed(state: ResponseSnapshot) -> bool:
    return all(entry.confirmed for entry in state.entries if entry.executable)


def _executable_in_completed_response(state: ResponseSnapshot) -> bool:
    return state.status is ResponseStatus.COMPLETED or not any(
        entry.executable for entry in state.entries
    )


def _executable_has_call_id(state: ResponseSnapshot) -> bool:
    return all(bool(entry.call_id) for entry in state.entries if entry.executable)


def _answered(state: ResponseSnapshot, call: EntrySnapshot) -> bool:
    """An output entry of the response answers ``call`` (``answered_ordinals``, the
    reducer's own pairing)."""
    return call.ordinal in answered_ordinals(state.entries)


def _executable_is_client_run(state: ResponseSnapshot) -> bool:
    # The snapshot carries no response.tools: the declaration half is the Z3 statement's
    # (proofs/execution_z3.py); here, the catalogue's half.
    return all(
        entry.item_type in CLIENT_CALLS and not _answered(state, entry)
        for entry in state.entries
        if entry.executable
    )


_VERDICT_MEANS: dict[Execution, Callable[[ResponseSnapshot, EntrySnapshot], bool]] = {
    Execution.NOT_A_CALL: lambda _, entry: entry.item_type not in CLIENT_CALLS,
    Execution.NOT_COMPLETED: lambda state, _: state.status is not ResponseStatus.COMPLETED,
    Execution.UNCONFIRMED: lambda _, entry: not entry.confirmed,
    Execution.NO_CALL_ID: lambda _, entry: not entry.call_id,
    Execution.ANSWERED: _answered,
}
"""What each verdict says of its entry, where the snapshot can tell (it carries no
``response.tools``: the declaration verdicts are the Z3 statement's, proofs/execution_z3.py)."""


def _verdict_says_why(state: ResponseSnapshot) -> bool:
    return not state.terminal or all(
        _VERDICT_MEANS[entry.execution](state, entry)
        for entry in state.entries
        if entry.execution in _VERDICT_MEANS
    )


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "complete_once",
        "every entry emits its completion at most once",
        Scope.STATE,
        _complete_once,
    ),
    Invariant(
        "first_admission_wins",
        "an entry's call_id / name / type never change once set, but for the call_id its "
        "own done renames (identity is fixed at confirmation)",
        Scope.STEP,
        _first_admission_wins,
    ),
    Invariant(
        "slot_first_write",
        "a slot's first binding never changes: a bound slot (live, or its entry done) is "
        "never freed nor re-bound, and a shared one stays shared",
        Scope.STEP,
        _slot_first_write,
    ),
    Invariant(
        "no_cross_talk",
        "one event changes at most one entry",
        Scope.STEP,
        _no_cross_talk,
    ),
    Invariant(
        "ambiguity_rejected",
        "an ambiguous event changes nothing and yields ambiguous_route",
        Scope.STEP,
        _ambiguity_rejected,
    ),
    Invariant(
        "late_is_inert",
        "events for done entries or tombstoned slots change nothing",
        Scope.STEP,
        _late_is_inert,
    ),
    Invariant(
        "empty_never_erases",
        "if any offer was non-empty, the final payload is non-empty",
        Scope.STATE,
        _empty_never_erases,
    ),
    Invariant(
        "latest_nonempty_wins",
        "the final payload is the last non-empty offer",
        Scope.STATE,
        _latest_nonempty_wins,
    ),
    Invariant(
        "nothing_lost",
        "every admitted entry is in the output once, and every done and snapshot item"
        " is in the output or refused where R6 refuses: no type, the entry limit,"
        " several entries fit it (ambiguous_route), or another type holds its call_id"
        " (duplicate_call_id)",
        Scope.STATE,
        _nothing_lost,
    ),
    Invariant(
        "terminal_is_final",
        "after a terminal event the state never changes",
        Scope.STEP,
        _terminal_is_final,
    ),
    Invariant(
        "executable_needs_completion",
        "no call is executable unless the response completed and the call was confirmed",
        Scope.STATE,
        _executable_needs_completion,
    ),
    Invariant(
        "executable_is_confirmed",
        "an executable call is confirmed (by its done or the snapshot)",
        Scope.STATE,
        _executable_is_confirmed,
    ),
    Invariant(
        "executable_in_completed_response",
        "an executable call belongs to a response that ended completed",
        Scope.STATE,
        _executable_in_completed_response,
    ),
    Invariant(
        "executable_has_call_id",
        "an executable call has a non-empty call_id",
        Scope.STATE,
        _executable_has_call_id,
    ),
    Invariant(
        "executable_is_client_run",
        "an executable call is client-run by the evidence: a client call type (the"
        " catalogue's ClientCall) that no output in its response answers, and the declared"
        " tools say the client runs it (or none were declared, and its verdict says"
        " tools_unknown)",
        Scope.STATE,
        _executable_is_client_run,
    ),
    Invariant(
        "verdict_says_why",
        "once its response ended, every call's execution verdict is true of it:"
        " not_a_call is no client call type, not_completed a response that did not"
        " complete, unconfirmed no confirmation, no_call_id no call_id, answered an output"
        " in the response, and client / server / undeclared / tools_unknown what the"
        " declared tools say",
        Scope.STATE,
        _verdict_says_why,
    ),
)
"""The invariants of DESIGN section 4, in its order."""

INVARIANTS_BY_NAME: dict[str, Invariant] = {inv.name: inv for inv in INVARIANTS}
"""The same invariants, by name."""

_PAYLOAD_STRENGTHENING: tuple[str, ...] = (
    "an absent entry's channel holds nothing, has no deltas and was offered nothing",
    "deltas wait unjoined only while nothing was offered to their channel, and are not empty",
    "a channel that was offered a value is closed, or its entry is no longer open",
    "a channel holds the last non-empty offer offered to it, if there was one",
    "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
)

STRENGTHENING: dict[str, tuple[str, ...]] = {
    "complete_once": (
        "an entry in an open state (or absent, or incomplete) has completed zero times",
        "an entry in a closed state (done, completed) has completed exactly once",
    ),
    "executable_needs_completion": (
        "an entry is confirmed only after it received a *.done, a done item or a snapshot item",
    ),
    "ambiguity_rejected": (
        "a free slot has no entry bound, a live one exactly one, a shared one more",
        "ids name only admitted entries, and only admitted entries are closed",
    ),
    "empty_never_erases": _PAYLOAD_STRENGTHENING,
    "latest_nonempty_wins": _PAYLOAD_STRENGTHENING,
}
"""Clauses an induction proof needs beyond the invariant itself, per invariant.

``complete_once`` alone is not inductive: a state with an open entry that somehow
completed once already would complete again on ``output_item.done``.  Tying the ghost
counter to the state (``completions == 1`` iff closed) is what makes it inductive, and
it is the design: completion *is* the move into a closed state, and nothing leaves one.

``executable_needs_completion`` needs "confirmed" to mean "a confirming event arrived"
in every state, not only once the response completed.  The payload invariants need
the channel discipline of R7 spelled out: deltas are joined into one offer before
anything else is offered; a value is offered only by a ``*.done`` (which closes the
channel) or by a done or snapshot item (which closes the entry), so no delta is ever
appended after an offer; and every non-empty offer is taken, so the held value is
the last one offered; and the first snapshot item of an entry is an offer even
where a row does not offer it (the snapshot is reconciliation, R3), which holds only
because an entry is completed by the snapshot itself or once the response has ended.
``ambiguity_rejected`` (over the routing system) needs the slot
table's meaning: a slot's state counts the entries bound to it, so that the slot view
``ONE`` really means one entry.  (Formulas: ``responses_oracle.proofs.properties.CLAUSES``.)
"""
