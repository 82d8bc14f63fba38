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
)
"""The completeness obligations, in the order of issue #16."""

COMPLETENESS_BY_NAME: dict[str, Obligation] = {ob.name: ob for ob in COMPLETENESS}
"""The same obligations, by name."""

_CONFIRMED = (
    "an entry that received a confirming event is confirmed and in a confirming state "
    "unless incomplete, and in a confirming state only if confirmed"
)

STRENGTHENING: dict[str, tuple[str, ...]] = {
    "end_settles": (
        _CONFIRMED,
        "an entry the snapshot reached is completed",
        "the response is completed only by its terminal event",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
    ),
    "unconfirmed_reported": (_CONFIRMED,),
    # Routing's obligations read the slot table's meaning, as ambiguity_rejected does.
    "routed_to_its_entry": INVARIANT_STRENGTHENING["ambiguity_rejected"],
    "refusal_reported": INVARIANT_STRENGTHENING["ambiguity_rejected"],
    "deltas_accounted": (
        "an absent entry's channel holds nothing, has no deltas and was offered nothing",
        "deltas wait unjoined only while nothing was offered to their channel, and are not empty",
        "a channel that was offered a value is closed, or its entry is no longer open",
        "a channel holds the last non-empty candidate offered to it, if there was one",
        "an entry is completed only by the snapshot or at the end, and incomplete only at the end",
        "an entry that received a non-empty delta has a non-empty candidate",
        "if any candidate was non-empty, the channel's value is non-empty",
    ),
}
"""Clauses the induction of each obligation needs beyond the obligation itself.

``end_settles`` needs confirmation tied to the state (an open entry that is confirmed
is ``payload_done``, which ``response.completed`` completes) and the snapshot tied to
the ``completed`` state (``response.completed`` is not delivered to the entries the
snapshot reached).  ``deltas_accounted`` needs the channel discipline of R7 (the
payload clauses of ``invariants.STRENGTHENING``) and ``empty_never_erases`` itself:
a delta's text, once a candidate, is never erased.
"""
