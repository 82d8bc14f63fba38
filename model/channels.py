"""Channel events: the trigger an entry receives for an event that names one of its
channels (rule R7), as a decision table.

An entry has one channel per streamed value (a function call's arguments; each part
of a message or of a reasoning summary, by its ``content_index`` or
``summary_index``).  A ``*.done`` closes its own channel only (``CLOSE_CHANNEL``), and
a delta that reaches a closed channel is late although its entry may still be open —
another part may still be streaming.  So the trigger the lifecycle table (R8) sees
depends on the state of the channel the event names: this table says which.

Theory of operation
-------------------
``RECLASSIFICATION[trigger][channel_state]`` is the trigger delivered to the entry.
The driver consults it for the events of ``CHANNEL_TRIGGERS`` only (the payload events
that name a channel), through the generated kernel ``reclassify``; the Z3 encoding
reads the same cells for the steps that name a channel
(``proofs.encoding.Encoding.received``), so a one-cell mutant changes both.  The rows
of the other triggers name no channel: they are the identity, never consulted, and
exist so that the table is total like every table of the model.  Which column applies
is ``channel_state``, written once against ``ops.Ops``.
"""

from __future__ import annotations

from .ops import Fact, Ops, Value
from .vocabulary import ChannelState, Trigger

ReclassificationTable = dict[Trigger, dict[ChannelState, Trigger]]
"""event trigger → state of the channel it names → trigger the entry receives."""

_T, _OPEN, _CLOSED = Trigger, ChannelState.OPEN, ChannelState.CLOSED

RECLASSIFICATION: ReclassificationTable = {
    # R7: a delta after its own channel's *.done is late, even while the entry is open.
    _T.DELTA: {_OPEN: _T.DELTA, _CLOSED: _T.DELTA_ON_CLOSED_CHANNEL},
    # A part announced again after its *.done is still an announcement: OPEN_PART keeps
    # the first part object (the lifecycle row decides whether it is late).
    _T.PART_ADDED: {_OPEN: _T.PART_ADDED, _CLOSED: _T.PART_ADDED},
    # A second *.done of one channel (output_text.done, then content_part.done) offers
    # its value again: an offer like any other, never lost.
    _T.PAYLOAD_DONE: {_OPEN: _T.PAYLOAD_DONE, _CLOSED: _T.PAYLOAD_DONE},
    # Triggers of events that name no channel: the identity (never consulted).
    _T.ITEM_ADDED: {_OPEN: _T.ITEM_ADDED, _CLOSED: _T.ITEM_ADDED},
    _T.DELTA_ON_CLOSED_CHANNEL: {
        _OPEN: _T.DELTA_ON_CLOSED_CHANNEL,
        _CLOSED: _T.DELTA_ON_CLOSED_CHANNEL,
    },
    _T.PROGRESS: {_OPEN: _T.PROGRESS, _CLOSED: _T.PROGRESS},
    _T.ITEM_DONE: {_OPEN: _T.ITEM_DONE, _CLOSED: _T.ITEM_DONE},
    _T.SNAPSHOT_ITEM: {_OPEN: _T.SNAPSHOT_ITEM, _CLOSED: _T.SNAPSHOT_ITEM},
    _T.RESPONSE_COMPLETED: {_OPEN: _T.RESPONSE_COMPLETED, _CLOSED: _T.RESPONSE_COMPLETED},
    _T.RESPONSE_ABORTED: {_OPEN: _T.RESPONSE_ABORTED, _CLOSED: _T.RESPONSE_ABORTED},
}
"""The reclassification table (R7).  Generated kernel, proofs and docs all read it."""


# -- the classifier (written once; run by the reducer and by the proofs) ---------------


def channel_state(ops: Ops, closed: Fact) -> Value:
    """The column of ``RECLASSIFICATION`` for a channel: ``CLOSED`` once its ``*.done``
    came (``CLOSE_CHANNEL``), else ``OPEN``."""
    return ops.cond(closed, _CLOSED, _OPEN)
