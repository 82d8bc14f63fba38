"""Which report each admission path owes, proved one step at a time: the note codes a
lifecycle row raises (R8), the ones a resumed response waives (R14), the parts a delta
must not open unannounced (R7), and the events a stream may leave out with nothing lost
(the proxy's re-spellings, issue #33).

The lifecycle encoding (``encoding.py``) reads the note codes through its obligations
(``late_reported``, ``duplicate_reported``, ``first_sight_reported``...), one report
each.  No transition system reads whether a response is resumed, whether a channel's
parts are announced, or which left-out events another event restates: issue #41 found
one-cell mutants of ``RESUME_WAIVED``, ``ANNOUNCED_PARTS`` and ``RESTATED`` that
re-ran no proof row.  So each is stated here as a contract (``contracts.Contract``)
over the values one step sees, through the model's own tables (``ModelTables``
fields ``note_codes``, ``resume_waived``, ``announced_parts``, ``restated``), and Z3
proves it for every value.

Examples
--------
``responses-oracle prove --invariant admission_reports`` on the reference::

    invariant           policy      verdict   scope       time
    admission_reports   reference   PROVED    one step   0.10s

and on the mutant that waives ``unconfirmed_item`` in a resumed response
(``resume_waived[NOTE_UNCONFIRMED]`` → ``True``; ``mutants.py``,
``resumed-unconfirmed-silent``) ``prove`` answers ``COUNTEREXAMPLE`` with the step
that breaks the claim: ``state=EntryState.ADDED, trigger=Trigger.RESPONSE_COMPLETED,
resumed=True: the cell raises no code``.

Theory of operation
-------------------
*The admission step* (``admission_reports``).  Its inputs: the entry's state before an
event (``EntryState``: ``ABSENT`` for an item or event that reaches no admitted entry),
the event's trigger, and whether the response is resumed (R14: it opened with
``response.in_progress`` or a sequence number past the start).  The codes the step
raises are read from the tables the driver runs: each note effect of the lifecycle
row, through ``tables.note_codes``, unless ``tables.resume_waived`` waives it in a
resumed response.  The claim names, per admission path, the one report it owes:

- an item first seen in its ``output_item.added``: none (the path the API takes);
- first seen in its ``output_item.done``: ``done_only_item``; in the terminal's
  output: ``snapshot_only_item`` (R6) -- neither in a resumed response, where the item
  was announced before the resume point;
- a payload or progress event for no admitted entry: ``orphan_event`` (a resumed
  response holds it and reports it at its end unless it attaches: R14, the routing
  table's code);
- an item event its entry already had (an added on an admitted entry, a done on a done
  one, a snapshot item on one the snapshot reached): ``duplicate_item``;
- any event for an entry cut off (``INCOMPLETE``), a payload event for a closed entry, a
  delta on a closed channel: ``late_event``;
- at ``response.completed``, an entry never confirmed: ``unconfirmed_item``; one
  confirmed that the snapshot did not reach: ``snapshot_missing_item`` (R9);
- every other step: no report.

Resumed or not, only the two first-sight reports differ.

*The part step* (``parts_announced``).  Its input is a channel kind.  The claim (R7):
a delta that opens a channel owes ``part_not_added`` exactly when the channel's parts
are announced, and they are announced exactly when the wire's deltas of that channel
name a part by its index (``WireEventSpec.index_field``: a message's ``content_index``,
a summary's ``summary_index``, a shell command's ``command_index``): such a part sits
in an array of its item and the API opens it with its own added event.  Stated over
the wire catalogue, not over ``ITEM_TYPES`` (which ``ANNOUNCED_PARTS`` is computed
from), so the two catalogues are checked against each other too.  A resumed stream
waives it for no channel (the driver never asks ``resumed`` here).

*The restatement step* (``restated_silently``).  Its inputs: the trigger of an event
the upstream left out, the trigger of an event it sent for the same item, and whether
a delta of the same part was streamed.  ``tables.restated`` says whether the left-out
event counts as said again.  The claim: a left-out event is restated exactly when it
is one that says nothing an item does not carry -- a part's added, a payload's done,
an item's done -- and the event sent is a later one that carries the whole item (the
item's done after a part's added or a payload's done; the terminal's output after
any of them), except a part's added where a delta of the part streamed
(``part_not_added``, a report, never a re-spelling).  An item's added is never
restated (``done_only_item`` / ``snapshot_only_item`` report it), nor a delta (the
streaming itself: a client shows the value only at the end without it), nor a
progress event (the item carries its status, not its progress).

This module imports Z3 only when a contract is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables

from .step_facts import StepFacts

if TYPE_CHECKING:
    from .sorts import Term


def admission_step(tables: ModelTables, n: int) -> StepFacts:
    """The admission step (R6, R8, R9, R14): the codes a lifecycle row raises through
    ``tables.note_codes`` less those ``tables.resume_waived`` waives when resumed; the
    claim is the report each path owes (the module doc); ``n`` is unused."""
    import z3
    from responses_oracle.model.lifecycle import CLOSED_STATES
    from responses_oracle.model.vocabulary import (
        ROUTED_TRIGGERS,
        Code,
        Effect,
        EntryState,
        Trigger,
    )

    from .sorts import finite_sort

    states, triggers = finite_sort(EntryState), finite_sort(Trigger)
    state, trigger = states.var("state"), triggers.var("trigger")
    resumed = z3.Bool("resumed")

    def is_state(*members: EntryState) -> Term:
        return z3.Or([state == states[member] for member in members])

    def is_trigger(*members: Trigger) -> Term:
        return z3.Or([trigger == triggers[member] for member in members])

    # The rows that carry each effect (one disjunction per effect: the same cells an
    # ``ops_z3.lookup`` of the lifecycle would select, without its long ``If`` chain).
    rows: dict[Effect, list[Term]] = {effect: [] for effect in Effect}
    for before, row in tables.lifecycle.items():
        for on, transition in row.items():
            for effect in transition.effects:
                rows[effect].append(z3.And(state == states[before], trigger == triggers[on]))
    raised: dict[Code, list[Term]] = {code: [] for code in Code}
    keys: list[tuple[Term, tuple[Any, ...]]] = []
    # The driver asks the waiver of an effect that reports, in a resumed response only.
    asked: list[tuple[Term, tuple[Any, ...]]] = []
    waivers: list[Term] = []
    for effect, code in tables.note_codes.items():
        has = z3.Or(rows[effect]) if rows[effect] else z3.BoolVal(False)
        keys.append((has, (effect,)))
        waives = tables.resume_waived[effect]
        # A waiver names a note: one on an effect that reports nothing is a table error.
        waivers.append(z3.BoolVal(not waives or code is not None))
        if code is not None:
            asked.append((z3.And(has, resumed), (effect,)))
            raised[code].append(z3.And(has, z3.Not(z3.And(resumed, z3.BoolVal(waives)))))
    said = {code: z3.Or(terms) if terms else z3.BoolVal(False) for code, terms in raised.items()}

    absent = is_state(EntryState.ABSENT)
    admitted = z3.Not(absent)
    closed = is_state(*CLOSED_STATES)
    completed = trigger == triggers[Trigger.RESPONSE_COMPLETED]
    owed: dict[Code, Term] = {
        # First sight past the announcement (R6), waived where the response resumed.
        Code.DONE_ONLY_ITEM: z3.And(absent, is_trigger(Trigger.ITEM_DONE), z3.Not(resumed)),
        Code.SNAPSHOT_ONLY_ITEM: z3.And(absent, is_trigger(Trigger.SNAPSHOT_ITEM), z3.Not(resumed)),
        # A payload or progress event that reaches no entry.
        Code.ORPHAN_EVENT: z3.And(absent, is_trigger(*ROUTED_TRIGGERS)),
        # The same item event again.
        Code.DUPLICATE_ITEM: z3.And(
            z3.Not(is_state(EntryState.INCOMPLETE)),
            z3.Or(
                z3.And(admitted, is_trigger(Trigger.ITEM_ADDED)),
                z3.And(closed, is_trigger(Trigger.ITEM_DONE)),
                z3.And(is_state(EntryState.COMPLETED), is_trigger(Trigger.SNAPSHOT_ITEM)),
            ),
        ),
        # Too late: a cut-off entry, a closed entry's payload, a closed channel's delta.
        Code.LATE_EVENT: z3.Or(
            is_state(EntryState.INCOMPLETE),
            z3.And(closed, is_trigger(*ROUTED_TRIGGERS)),
            z3.And(admitted, is_trigger(Trigger.DELTA_ON_CLOSED_CHANNEL)),
        ),
        # R9's two reports at the end.
        Code.UNCONFIRMED_ITEM: z3.And(completed, is_state(EntryState.ADDED, EntryState.STREAMING)),
        Code.SNAPSHOT_MISSING_ITEM: z3.And(
            completed, is_state(EntryState.PAYLOAD_DONE, EntryState.DONE)
        ),
    }
    claim = z3.And(*waivers, *[said[code] == owed.get(code, z3.BoolVal(False)) for code in Code])
    show = {"state": state, "trigger": trigger, "resumed": resumed}
    keys_by_table = {"note_codes": tuple(keys), "resume_waived": tuple(asked)}
    return StepFacts(said, z3.BoolVal(True), claim, show, keys_by_table)


def announced_step(tables: ModelTables, n: int) -> StepFacts:
    """The part step (R7): ``tables.announced_parts`` against the wire catalogue's deltas
    that name their part by an index (``catalogue.PART_INDEXED_CHANNELS``); ``n`` is
    unused."""
    import z3
    from responses_oracle.model.catalogue import PART_INDEXED_CHANNELS, ChannelKind

    from .ops_z3 import lookup
    from .sorts import finite_sort

    kinds = finite_sort(ChannelKind)
    kind = kinds.var("kind")
    announced = lookup(tables.announced_parts, kind)
    # A channel's parts are announced when its deltas name the part by an index.
    indexed = z3.Or([kind == kinds[c] for c in sorted(PART_INDEXED_CHANNELS, key=str)])
    claim = announced == indexed
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "announced_parts": ((z3.BoolVal(True), (kind,)),)
    }
    return StepFacts({}, z3.BoolVal(True), claim, {"kind": kind, "announced": announced}, keys)


def restated_step(tables: ModelTables, n: int) -> StepFacts:
    """The restatement step: whether ``tables.restated`` counts a left-out event as said
    again by another the upstream sent for the item; ``n`` is unused."""
    import z3
    from responses_oracle.model.vocabulary import Trigger

    from .sorts import finite_sort

    triggers = finite_sort(Trigger)
    left, sent = triggers.var("left_out"), triggers.var("sent")
    streamed = z3.Bool("delta_streamed")
    cases: list[Term] = []
    keys: list[tuple[Term, tuple[Any, ...]]] = []
    for key, rule in tables.restated.items():
        hit = left == triggers[key]
        keys.append((hit, (key,)))
        by = z3.Or([sent == triggers[trigger] for trigger in rule.by])
        blocked = z3.And(streamed, z3.BoolVal(Trigger.DELTA in rule.unless))
        cases.append(z3.And(hit, by, z3.Not(blocked)))
    restated = z3.Or(cases) if cases else z3.BoolVal(False)
    # The API's order of the events that say nothing an item does not carry, then the
    # two events that carry the whole item: a later one restates an earlier one.
    order = (Trigger.PART_ADDED, Trigger.PAYLOAD_DONE, Trigger.ITEM_DONE, Trigger.SNAPSHOT_ITEM)
    carries = (Trigger.ITEM_DONE, Trigger.SNAPSHOT_ITEM)
    later = z3.Or(
        [
            z3.And(left == triggers[earlier], sent == triggers[item])
            for i, earlier in enumerate(order[:-1])
            for item in order[i + 1 :]
            if item in carries
        ]
    )
    # A part's added where a delta streamed is owed: part_not_added, not a re-spelling.
    owed = z3.And(streamed, left == triggers[Trigger.PART_ADDED])
    claim = restated == z3.And(later, z3.Not(owed))
    show = {"left_out": left, "sent": sent, "delta_streamed": streamed}
    return StepFacts({}, z3.BoolVal(True), claim, show, {"restated": tuple(keys)})
