"""Completeness obligations: the invariants that say "enough", next to the ones that
say "never too much".

The invariants of ``invariants.py`` are safety properties: an entry completes at most
once, an identity never changes, a late event changes nothing.  Each holds of a reducer
that does nothing at all — drops every delta, never confirms, never settles an entry,
never takes a name.  The obligations here close that gap.  Each is stated over the
model's *ghost history*: facts accumulated from the events themselves (which triggers
reached an entry, which deltas and names they carried), never from the effect that is
supposed to act on them, so that a row that forgets its effect is caught.

Theory of operation
-------------------
An ``Obligation`` has a name, a statement and a scope, as an ``Invariant`` has, but no
Python predicate over ``ResponseSnapshot``: a snapshot holds what the driver kept, not
what the events brought, so "nothing forgotten" cannot be read off it.  The obligations
are proved by Z3 over the encoding (``proofs.properties``), and the driver is held to
them by the refinement check (``proofs.refinement``): every step the reducer takes is
abstracted and must be a step the encoding allows, so everything proved of the encoding
holds of the reducer's runs.

``STRENGTHENING`` lists, in words, the clauses the induction needs beyond each
obligation (``proofs.properties.CLAUSES`` maps each sentence to its formula).
"""

from __future__ import annotations

from dataclasses import dataclass

from .invariants import STRENGTHENING as INVARIANT_STRENGTHENING
from .invariants import Scope


@dataclass(frozen=True)
class Obligation:
    """A completeness invariant: its name, statement and scope (proved, not sampled)."""

    name: str
    statement: str
    scope: Scope


COMPLETENESS: tuple[Obligation, ...] = (
    Obligation(
        "confirmation_sticks",
        "an entry that received a confirming event (*.done, done item, snapshot item) is "
        "confirmed and stays in a confirming state (payload_done, done, completed) unless "
        "the response was aborted; an entry is in a confirming state only if confirmed",
        Scope.STATE,
    ),
    Obligation(
        "end_settles",
        "after response.completed every entry is completed, or still open and reported "
        "unconfirmed only if it was never confirmed; after an abort no entry is open",
        Scope.FINAL,
    ),
    Obligation(
        "identity_taken",
        "once an item that admits or confirms an entry brought a non-empty name, the "
        "entry holds a non-empty name",
        Scope.STATE,
    ),
    Obligation(
        "deltas_accounted",
        "a non-empty delta that reached an open channel is accounted for: until a value "
        "is offered the channel's joined deltas are the deltas received, and its final "
        "value is non-empty",
        Scope.STATE,
    ),
    Obligation(
        "parts_opened",
        "every content_part.added that reaches an open entry opens its part, so that the "
        "part's own fields (logprobs, annotations) are kept",
        Scope.STATE,
    ),
    Obligation(
        "done_closes_its_channel",
        "a *.done (output_text.done, content_part.done, arguments.done) that reaches an "
        "open entry closes the channel it names, and a channel is closed only by its own "
        "*.done: another part's events neither close it nor reopen it",
        Scope.STATE,
    ),
    # Diagnostics: nothing is dropped silently.  Each states, for the codes a step
    # raises (``proofs.encoding.Encoding.raised``), that a code is raised exactly where
    # its rule says.
    Obligation(
        "unconfirmed_reported",
        "at response.completed an entry the snapshot did not reach is reported "
        "unconfirmed_item exactly when it is open and was never confirmed",
        Scope.STEP,
    ),
    Obligation(
        "late_reported",
        "an event that reaches a done, completed or incomplete entry (other than the "
        "snapshot and the response end) is reported late_event or duplicate_item",
        Scope.STEP,
    ),
    Obligation(
        "slot_reuse_reported",
        "an entry admitted at a slot that is already bound is reported slot_reused",
        Scope.STEP,
    ),
    # Routing (R5), over ``proofs.routing.RoutingSystem``.  An entry *fits* a payload
    # event when at least one of the event's keys names it and every key that names an
    # admitted entry names it (the slot by its bindings, the item_id by R4's aliases);
    # ``ambiguity_rejected`` says a delivered event reaches the one entry that fits.
    Obligation(
        "routed_to_its_entry",
        "a payload event that exactly one admitted entry fits (each of its keys that names "
        "an entry names that one) reaches that entry, open or done",
        Scope.STEP,
    ),
    Obligation(
        "refusal_reported",
        "a payload event that reaches no entry is reported orphan_event when neither of "
        "its keys names an admitted entry and ambiguous_route otherwise; one routed by "
        "its slot while its item_id names no entry is reported item_id_unrecognized; "
        "routing raises no other code",
        Scope.STEP,
    ),
    # The state follows the wire events (R8): each lifecycle state is the one the
    # events that reached the entry call for, so a row that moves to the wrong state —
    # or a reclassification that turns a delta into an item or a response end — is
    # caught by the events it did not see.
    Obligation(
        "closed_by_its_events",
        "an entry is done only once a done item reached it, and an entry a done item "
        "reached stays done or completed (never incomplete); an entry a snapshot item "
        "reached is completed, and an entry is completed only by the snapshot or by "
        "response.completed",
        Scope.STATE,
    ),
    Obligation(
        "open_state_follows_events",
        "an open entry is payload_done exactly when a *.done reached it, streaming "
        "exactly when a delta reached it and no *.done did, and added when neither did",
        Scope.STATE,
    ),
    Obligation(
        "values_offered",
        "every non-empty value an event brings to a channel is offered to it, "
        "in the order brought — a delta to an open channel (its joined text), "
        "a *.done or a done item reaching the open entry (or admitting it), the entry's "
        "first snapshot item — and nothing else is: the channel's last offer is the "
        "last value brought (which latest_nonempty_wins makes its final value)",
        Scope.STATE,
    ),
    Obligation(
        "channel_events_stay_in_channel",
        "an event naming a channel (a delta, content_part.added, a *.done) admits, "
        "closes and ends nothing: every open entry stays open, every other entry keeps "
        "its state and the response is not ended; and a delta that reaches a closed "
        "channel of an admitted entry is reported late_event",
        Scope.STEP,
    ),
    Obligation(
        "duplicate_reported",
        "an item that repeats what already reached its entry is reported duplicate_item: "
        "an output_item.added reaching an admitted entry, a done item reaching an entry "
        "a done item reached, a snapshot item reaching an entry the snapshot reached",
        Scope.STEP,
    ),
    Obligation(
        "item_id_learned",
        "an entry that an event carrying an item id reached — an item that admits, "
        "confirms or reconciles it, or a payload event that is not late — is named by an "
        "item id (R4: an entry admitted without one learns it from its events)",
        Scope.STATE,
    ),
    # R9's other report at the end, beside unconfirmed_reported: a confirmed entry the
    # terminal snapshot left out is completed and says so.
    Obligation(
        "missing_from_snapshot_reported",
        "at a response.completed whose snapshot has items, an entry the snapshot did not "
        "reach is reported snapshot_missing_item exactly when it was confirmed (a "
        "snapshot with no items is reported once, as snapshot_absent: model.vocabulary.NOTE_CODES)",
        Scope.STEP,
    ),
    # Issue #41: which report an item first seen past its announcement is owed.
    Obligation(
        "first_sight_reported",
        "an item that admits an entry from its output_item.done is reported "
        "done_only_item, one that admits it from the terminal snapshot "
        "snapshot_only_item: the API announces every item with output_item.added first, "
        "and a client that waits for it loses the item (R6; a resumed response waives "
        "both: model.vocabulary.RESUME_WAIVED)",
        Scope.STEP,
    ),
    Obligation(
        "client_run_is_executable",
        "once the response ended, a call the evidence says the client runs is executable, "
        "its verdict client when tools were declared and tools_unknown when none were: an "
        "admitted client call type that received a confirming event, with a non-empty "
        "call_id, that no output answers, in a response that completed, whose declared "
        "tools say the client runs it or that declared none (R13)",
        Scope.FINAL,
    ),
    Obligation(
        "withheld_reported",
        "once the response ended, a client call type that is not executable in a "
        "response that completed is reported why, once: unconfirmed_item when nothing "
        "confirmed it (unconfirmed_reported), else call_withheld naming its verdict "
        "(undeclared, unknown tool type, server-run, answered, no call_id); no other "
        "entry is reported call_withheld: no completed call is withheld in silence (R13)",
        Scope.FINAL,
    ),
)
"""The completeness obligations, in the order of issue #16 (then issue #24's, #41's)."""

COMPLETENESS_BY_NAME: dict[str, Obligation] = {ob.name: ob for ob in COMPLETENESS}
"""The same obligations, by name."""

_CONFIRMED = (
    "an entry that received a confirming event is confirmed and in a confirming state "
    "unless incomplete, and in a confirming state only if confirmed"
)

_UNREACHED = (
    "an entry not yet admitted was reached by no event: no delta, *.done, done item, "
    "snapshot item or item id"
)

STRENGTHENING: dict[str, tuple[str, ...]] = {
    "end_settles": (
        _CONFIRMED,
        "an entry the snapshot reached is completed",
        "the response is completed only by its terminal event",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
    ),
    "unconfirmed_reported": (_CONFIRMED,),
    "missing_from_snapshot_reported": (_CONFIRMED,),
    # A repeated item is told by the state its first copy left: the snapshot's completed,
    # a done item's done or completed.
    "duplicate_reported": (
        _UNREACHED,
        "an entry the snapshot reached is completed",
        "an entry a done item reached is done or completed",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
    ),
    # Routing's obligations read the slot table's meaning, as ambiguity_rejected does.
    "routed_to_its_entry": INVARIANT_STRENGTHENING["ambiguity_rejected"],
    "refusal_reported": INVARIANT_STRENGTHENING["ambiguity_rejected"],
    "deltas_accounted": (
        "an absent entry's channel holds nothing, has no deltas and was offered nothing",
        "deltas wait unjoined only while nothing was offered to their channel, and are not empty",
        "a channel that was offered a value is closed, or its entry is no longer open",
        "a channel holds the last non-empty offer offered to it, if there was one",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
        "an entry that received a non-empty delta has a non-empty offer",
        "if any offer was non-empty, the channel's value is non-empty",
    ),
    "closed_by_its_events": (
        _UNREACHED,
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
        "an entry the snapshot reached was reached while the response delivered snapshot items",
    ),
    "open_state_follows_events": (
        _UNREACHED,
        "a channel is closed only once its entry is past streaming (payload_done or later)",
    ),
    "item_id_learned": (_UNREACHED,),
    # Who runs a call reads the state the end leaves: end_settles's clauses.
    "client_run_is_executable": (
        _CONFIRMED,
        "an entry the snapshot reached is completed",
        "the response is completed only by its terminal event",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
    ),
    "values_offered": (
        "an absent entry's channel holds nothing, has no deltas and was offered nothing",
        "deltas wait unjoined only while nothing was offered to their channel, and are not empty",
        "a channel that was offered a value is closed, or its entry is no longer open",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
        "an entry the snapshot reached is completed",
    ),
}
"""Clauses the induction of each obligation needs beyond the obligation itself.

``end_settles`` needs confirmation tied to the state (an open entry that is confirmed
is ``payload_done``, which ``response.completed`` completes) and the snapshot tied to
the ``completed`` state (``response.completed`` is not delivered to the entries the
snapshot reached).  ``deltas_accounted`` needs the channel discipline of R7 (the
payload clauses of ``invariants.STRENGTHENING``) and ``empty_never_erases`` itself:
a delta's text, once an offer, is never erased.  The state obligations need the
ghosts of an entry not yet admitted to be blank (an ``output_item.added`` admits it
afresh); ``values_offered`` needs the snapshot's entries completed (a second
snapshot item reaching an entry is a duplicate, not an offer).
"""
