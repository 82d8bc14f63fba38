"""The lifecycle of one entry: the authority behind rule R8.

Theory of operation
-------------------
An *entry* is one admitted output item.  Every wire event that concerns an item is,
after routing (``routing.py``) or matching (``admission.py``), delivered to exactly one
entry as a ``Trigger``.  This table then says, for the entry's current state and the
trigger, which state comes next and which named effects the driver carries out.

Two rules keep the table honest:

1. Everything that decides an entry's state lives here.  The driver only classifies
   events into triggers and executes effects; the reducer kernels, the Z3 encoding,
   the transitions interpreter and the diagrams are all generated from this table.
2. The table is total: every (state, trigger) pair has a row.  Pairs the driver can
   never produce (a payload delta for an entry that was never admitted) still get a
   row, so the kernel never raises and the proofs range over every pair.

The closed states ``DONE`` and ``COMPLETED`` never go back: a done entry is never
reopened, and ``EMIT_COMPLETION`` appears only on the edges into a closed state from
an open one (``complete_once``).  The ``Transition`` rows read: next state, effects in
the order the driver applies them.
"""

from __future__ import annotations

from .recordkit import NamedTuple
from .vocabulary import Effect, EntryState, Trigger


class Transition(NamedTuple):
    """One row's outcome: the next state and the effects, in order."""

    next_state: EntryState
    effects: tuple[Effect, ...]


LifecycleTable = dict[EntryState, dict[Trigger, Transition]]
"""state → trigger → transition."""

S, T, E = EntryState, Trigger, Effect

OPEN_STATES: tuple[EntryState, ...] = (S.ADDED, S.STREAMING, S.PAYLOAD_DONE)
"""Admitted and not yet done: payload events still change these entries."""

CLOSED_STATES: tuple[EntryState, ...] = (S.DONE, S.COMPLETED)
"""Done or completed: the entry has emitted its completion; nothing reopens it."""

_ADMIT_DONE = (
    E.ADMIT,
    E.BIND_SLOT,
    E.MERGE_ITEM,
    E.OFFER_ITEM_PAYLOADS,
    E.CONFIRM,
    E.TOMBSTONE_SLOT,
    E.EMIT_COMPLETION,
)
_CLOSE = (E.MERGE_ITEM, E.OFFER_ITEM_PAYLOADS, E.CONFIRM, E.TOMBSTONE_SLOT, E.EMIT_COMPLETION)
_PAYLOAD_DONE = (E.OFFER_PAYLOAD, E.CLOSE_CHANNEL, E.CONFIRM, E.LEARN_ITEM_ID)
_LATE = (E.NOTE_LATE_EVENT,)
_DUP = (E.NOTE_DUPLICATE_ITEM,)
_ORPHAN = (E.NOTE_ORPHAN,)


LIFECYCLE: LifecycleTable = {
    S.ABSENT: {
        T.ITEM_ADDED: Transition(S.ADDED, (E.ADMIT, E.BIND_SLOT, E.MERGE_ITEM)),
        T.PART_ADDED: Transition(S.ABSENT, _ORPHAN),
        T.DELTA: Transition(S.ABSENT, _ORPHAN),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.ABSENT, _ORPHAN),
        T.PAYLOAD_DONE: Transition(S.ABSENT, _ORPHAN),
        T.PROGRESS: Transition(S.ABSENT, _ORPHAN),
        # Done-only and snapshot-only items are recovered, and reported: the API
        # announces every item with output_item.added first, and a client that waits
        # for it loses the item (R6).
        T.ITEM_DONE: Transition(S.DONE, (E.ADMIT, E.NOTE_DONE_ONLY, *_ADMIT_DONE[1:])),
        T.SNAPSHOT_ITEM: Transition(
            S.COMPLETED, (E.ADMIT, E.NOTE_SNAPSHOT_ONLY, *_ADMIT_DONE[1:])
        ),
        T.RESPONSE_COMPLETED: Transition(S.ABSENT, ()),
        T.RESPONSE_ABORTED: Transition(S.ABSENT, ()),
    },
    S.ADDED: {
        T.ITEM_ADDED: Transition(S.ADDED, _DUP),
        T.PART_ADDED: Transition(S.ADDED, (E.OPEN_PART, E.LEARN_ITEM_ID)),
        T.DELTA: Transition(S.STREAMING, (E.APPEND_DELTA, E.LEARN_ITEM_ID)),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.ADDED, _LATE),
        T.PAYLOAD_DONE: Transition(S.PAYLOAD_DONE, _PAYLOAD_DONE),
        T.PROGRESS: Transition(S.ADDED, (E.LEARN_ITEM_ID,)),
        T.ITEM_DONE: Transition(S.DONE, _CLOSE),
        T.SNAPSHOT_ITEM: Transition(S.COMPLETED, _CLOSE),
        T.RESPONSE_COMPLETED: Transition(S.ADDED, (E.NOTE_UNCONFIRMED,)),
        T.RESPONSE_ABORTED: Transition(S.INCOMPLETE, ()),
    },
    S.STREAMING: {
        T.ITEM_ADDED: Transition(S.STREAMING, _DUP),
        T.PART_ADDED: Transition(S.STREAMING, (E.OPEN_PART, E.LEARN_ITEM_ID)),
        T.DELTA: Transition(S.STREAMING, (E.APPEND_DELTA, E.LEARN_ITEM_ID)),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.STREAMING, _LATE),
        T.PAYLOAD_DONE: Transition(S.PAYLOAD_DONE, _PAYLOAD_DONE),
        T.PROGRESS: Transition(S.STREAMING, (E.LEARN_ITEM_ID,)),
        T.ITEM_DONE: Transition(S.DONE, _CLOSE),
        T.SNAPSHOT_ITEM: Transition(S.COMPLETED, _CLOSE),
        T.RESPONSE_COMPLETED: Transition(S.STREAMING, (E.NOTE_UNCONFIRMED,)),
        T.RESPONSE_ABORTED: Transition(S.INCOMPLETE, ()),
    },
    S.PAYLOAD_DONE: {
        T.ITEM_ADDED: Transition(S.PAYLOAD_DONE, _DUP),
        T.PART_ADDED: Transition(S.PAYLOAD_DONE, (E.OPEN_PART, E.LEARN_ITEM_ID)),
        T.DELTA: Transition(S.PAYLOAD_DONE, (E.APPEND_DELTA, E.LEARN_ITEM_ID)),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.PAYLOAD_DONE, _LATE),
        T.PAYLOAD_DONE: Transition(S.PAYLOAD_DONE, _PAYLOAD_DONE),
        T.PROGRESS: Transition(S.PAYLOAD_DONE, (E.LEARN_ITEM_ID,)),
        T.ITEM_DONE: Transition(S.DONE, _CLOSE),
        T.SNAPSHOT_ITEM: Transition(S.COMPLETED, _CLOSE),
        T.RESPONSE_COMPLETED: Transition(
            S.COMPLETED, (E.NOTE_MISSING_FROM_SNAPSHOT, E.EMIT_COMPLETION)
        ),
        T.RESPONSE_ABORTED: Transition(S.INCOMPLETE, ()),
    },
    S.DONE: {
        T.ITEM_ADDED: Transition(S.DONE, _DUP),
        T.PART_ADDED: Transition(S.DONE, _LATE),
        T.DELTA: Transition(S.DONE, _LATE),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.DONE, _LATE),
        T.PAYLOAD_DONE: Transition(S.DONE, _LATE),
        T.PROGRESS: Transition(S.DONE, _LATE),
        T.ITEM_DONE: Transition(S.DONE, _DUP),
        T.SNAPSHOT_ITEM: Transition(S.COMPLETED, (E.MERGE_ITEM, E.OFFER_ITEM_PAYLOADS)),
        T.RESPONSE_COMPLETED: Transition(S.COMPLETED, (E.NOTE_MISSING_FROM_SNAPSHOT,)),
        T.RESPONSE_ABORTED: Transition(S.DONE, ()),
    },
    S.COMPLETED: {
        T.ITEM_ADDED: Transition(S.COMPLETED, _DUP),
        T.PART_ADDED: Transition(S.COMPLETED, _LATE),
        T.DELTA: Transition(S.COMPLETED, _LATE),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.COMPLETED, _LATE),
        T.PAYLOAD_DONE: Transition(S.COMPLETED, _LATE),
        T.PROGRESS: Transition(S.COMPLETED, _LATE),
        T.ITEM_DONE: Transition(S.COMPLETED, _DUP),
        T.SNAPSHOT_ITEM: Transition(S.COMPLETED, _DUP),
        T.RESPONSE_COMPLETED: Transition(S.COMPLETED, ()),
        T.RESPONSE_ABORTED: Transition(S.COMPLETED, ()),
    },
    # The response ended otherwise; nothing after a terminal event reaches an entry,
    # but the row exists so the table stays total.
    S.INCOMPLETE: {
        T.ITEM_ADDED: Transition(S.INCOMPLETE, _LATE),
        T.PART_ADDED: Transition(S.INCOMPLETE, _LATE),
        T.DELTA: Transition(S.INCOMPLETE, _LATE),
        T.DELTA_ON_CLOSED_CHANNEL: Transition(S.INCOMPLETE, _LATE),
        T.PAYLOAD_DONE: Transition(S.INCOMPLETE, _LATE),
        T.PROGRESS: Transition(S.INCOMPLETE, _LATE),
        T.ITEM_DONE: Transition(S.INCOMPLETE, _LATE),
        T.SNAPSHOT_ITEM: Transition(S.INCOMPLETE, _LATE),
        T.RESPONSE_COMPLETED: Transition(S.INCOMPLETE, _LATE),
        T.RESPONSE_ABORTED: Transition(S.INCOMPLETE, _LATE),
    },
}
"""The lifecycle table (R8).  Generated kernels, proofs and docs all read it."""

CONFIRMING_STATES: tuple[EntryState, ...] = (S.PAYLOAD_DONE, S.DONE, S.COMPLETED)
"""States that imply the entry was confirmed by a ``*.done``, a done item or the snapshot."""

REACHABILITY: tuple[str, ...] = (
    "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
    "an entry the snapshot reached was reached while the response delivered snapshot items",
    "a channel is closed only once its entry is past streaming (payload_done or later)",
)
"""Why the rows no stream reaches are unreachable, as strengthening clauses (R8).

The table is total, so it has rows no run of the driver fires: a payload trigger for an
absent entry (the router drops the event), ``DELTA_ON_CLOSED_CHANNEL`` for an entry
that is ``added`` or ``streaming`` (a channel closes only on a ``*.done``, which moves
its entry to ``payload_done``), anything but the rest of the snapshot and the end for a
``completed`` entry (it is completed inside the terminal event), and anything for an
``incomplete`` one (after the terminal event).  These clauses, with the environment of
the proofs, exclude them: ``proofs.vacuity.prove_unreachable`` checks each inductive
and proves every such row unfireable, and every lifecycle proof assumes those that are
inductive for its model (``proofs.induction.reachability_lemmas``)."""
