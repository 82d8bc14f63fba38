"""Tables no transition system reads, proved by Z3 one step at a time: where a response
ends (R14), whether a matched item fills a missing slot (R6), where an annotation goes
in its part (R15), the status a terminal event gives (R9) and which terminal the next
one amends (R14).

The lifecycle encoding (``encoding.py``) follows one response; the cut of an input into
responses (``model/responses.py``: ``BOUNDARY`` and ``FRAMES``), the slot fill rule
(``model/admission.py``: ``FILLS_MISSING_SLOT``) the part merge
(``model/annotations.py``: ``PART_MERGE``), the terminal status
(``model/catalogue.py``: ``TERMINAL_STATUS``) and the amendable terminals
(``model/responses.py``: ``AMENDABLE_TERMINALS``) are decisions of one step each, taken
before or beside the lifecycle.  So each is stated as a diagnostic contract
(``contracts.Contract``): a claim over the values one step sees, proved by Z3 for every
value, through the model's own classifier and the cell it selects.

Examples
--------
``responses-oracle prove --invariant response_boundaries`` on the reference::

    invariant             policy      verdict   scope       time
    response_boundaries   reference   PROVED    one step   0.06s

and on the mutant that merges a ``response.created`` without an id into the open
response (``BOUNDARY[created][open][unknown]`` → ``continue``; ``mutants.py``,
``created-without-id-merged``) ``prove`` answers ``COUNTEREXAMPLE`` with the inputs
that break the claim: ``opening=Opening.CREATED, terminal=False, opened=True,
held_id=Payload.MISSING, event_id=Payload.MISSING, cut=Boundary.CONTINUE``.

Theory of operation
-------------------
*The boundary step.*  Its inputs are what the reducer reads when an opening event
arrives (``model.responses.starts_new``): the opening (``Opening``), whether the held
response ended (``terminal``) and was opened (``opened``), and the two response ids as
abstract strings (``sorts.Payload``).  ``model.responses.boundary_key`` — the function
the reducer runs — picks the cell of ``tables.boundary``; ``ops_z3.lookup`` reads it.
The domain is what the driver guarantees: ids are never blank (``nonempty`` drops
them), and a held id comes from a lifecycle event, which opened the response or ended it
(``impl/core/dispatch.py``: ``_response_fields``).  The claim is R14 in words: nothing
held is never cut (no response is empty); a ``response.created`` starts the next
response unless it repeats the id of the open one (an ``in_progress`` may come first);
a ``queued`` / ``in_progress`` continues the held response unless that one ended and
the event names another response.

*The frames step.*  Its input is a client frame (``ClientFrame``); the claim: a
``response.create`` ends the response before it (the server answers one request at a
time on a connection), a ``response.steer`` ends nothing (it adds input to the
response in flight).

*The slot fill step.*  Its inputs: where the matched item comes from (``MatchedItem``),
whether its entry has a slot and whether the item has one.
``model.admission.binds_missing_slot`` — the reducer's test in ``impl/core/admit.py`` —
combines them with the cell of ``tables.fills_missing_slot``.  The claim (R6): a done
item's ``output_index`` binds the slot of an entry that has none (the producer's word
for it), a snapshot position never does (gateways drop and reorder items there), and
an entry's slot, once bound, is never rebound by an item.

*The part addition step.*  Its inputs: the part's array length, the event's position
and whether it is a non-negative integer.  ``model.annotations.position_view`` — the
reducer's classifier in ``impl/core/route.py`` — picks the cell of
``tables.part_merge``.  The claim (R15): no annotation is lost, one at a position the
array holds replaces the element there (the same annotation sent again), any other is
appended.

*The terminal step.*  Its input is the terminal event (``Terminal``).  The claim (R9):
each gives the status it is named after, an ``error`` fails the response; so only
``response.completed`` completes it, the one status whose calls run (the lifecycle
encoding sees ``response.completed``'s trigger or an abort: the driver derives which
from this status).

*The amendment step.*  Its input is the terminal event; the claim (R14): only an
``error`` is described by the terminal right after it (OpenAI's ``error`` then
``response.failed`` is one failure); every other terminal is final.

Each table's one-cell mutants are swept by the mutation score (``mutation.table_mutants``
reads every ``ModelTables`` field), and ``mutants.MUTANT_LIST`` names the ones issue 24
found passing every proof.  This module imports Z3 only when a contract is built.

Table inventory
---------------
Every decision table of ``model/``, and what proves it (``prove`` rows; also
``docs/building.md``, "Which tables the proofs read"):

- ``lifecycle`` (R8), ``slots`` (R3), ``reclassification`` (R7): the lifecycle
  encoding's invariants and completeness obligations (the first two also the routing
  system's and the matcher's).
- ``payload`` (R7), ``identity`` (R6): the lifecycle encoding's payload and identity
  invariants, and the contracts ``payload_reported``, ``identity_reported`` (``identity``
  also the matcher's rows).
- ``routing`` (R5): the routing system's invariants.
- ``namespaces``, ``added_admission``, ``matching``, ``done_admission`` (R6): the
  matcher's invariants and the contracts ``added_reported``, ``done_reported``.
- ``boundary``, ``frames``, ``amendable`` (R14), ``fills_missing_slot`` (R6),
  ``part_merge`` (R15), ``terminal_status`` (R9): the contracts here.
- ``execution`` (R13): ``proofs/execution_z3.py``; ``names_one_entry`` (R6): the
  contract ``identity_reported`` (``contracts.py``); ``environment_runner``,
  ``execution_runner`` (R13): the contracts of ``runners_z3.py``.
- Not read by any proof: the wire facts of ``annotations.PART_ADDITIONS`` and
  ``catalogue.WIRE_EVENTS`` / ``ITEM_TYPES`` / ``TERMINALS`` (which field holds what,
  which events end a response: not decisions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables

from .step_facts import StepFacts

if TYPE_CHECKING:
    from .sorts import Term


def boundary_step(tables: ModelTables, n: int) -> StepFacts:
    """The boundary step (R14) over ``tables.boundary``; ``n`` is unused (no entries)."""
    import z3
    from responses_oracle.model.responses import Boundary, Opening, boundary_key

    from .ops_z3 import PAYLOAD, Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    openings, boundaries = finite_sort(Opening), finite_sort(Boundary)
    opening = openings.var("opening")
    terminal, opened = z3.Bool("terminal"), z3.Bool("opened")
    held_id, event_id = PAYLOAD.var("held_id"), PAYLOAD.var("event_id")
    key = (opening, *boundary_key(ops, terminal, opened, held_id, event_id))
    decided = lookup(tables.boundary, *key)
    cut = decided == boundaries[Boundary.NEW]
    nothing = z3.And(z3.Not(terminal), z3.Not(opened))
    open_ = z3.And(z3.Not(terminal), opened)
    both = z3.And(ops.present(held_id), ops.present(event_id))
    repeated = z3.And(both, ops.same(held_id, event_id))
    claim = z3.And(
        # Nothing held is never cut: no response is empty.
        z3.Implies(nothing, z3.Not(cut)),
        # A response.created starts the next response, unless it repeats the id of the
        # open one (an in_progress may come first: issue #11).
        z3.Implies(
            z3.And(opening == openings[Opening.CREATED], z3.Not(nothing)),
            cut == z3.Not(z3.And(open_, repeated)),
        ),
        # A queued / in_progress continues the held response (a resume stream, an id
        # that rotates), unless that one ended and the event names another response.
        z3.Implies(
            opening == openings[Opening.PROGRESS],
            cut == z3.And(terminal, both, z3.Not(ops.same(held_id, event_id))),
        ),
    )
    domain = z3.And(
        # ``nonempty`` drops a blank id: an id is missing or non-empty.
        z3.Not(ops.blank(held_id)),
        z3.Not(ops.blank(event_id)),
        # The held id comes from a lifecycle event: one that opened or ended the response.
        z3.Implies(ops.present(held_id), z3.Or(opened, terminal)),
    )
    show = {
        "opening": opening,
        "terminal": terminal,
        "opened": opened,
        "held_id": held_id,
        "event_id": event_id,
        "cut": decided,
    }
    return StepFacts({}, domain, claim, show, {"boundary": ((z3.BoolVal(True), key),)})


def frames_step(tables: ModelTables, n: int) -> StepFacts:
    """The client frame step (R14) over ``tables.frames``; ``n`` is unused."""
    import z3
    from responses_oracle.model.responses import Boundary, ClientFrame

    from .ops_z3 import lookup
    from .sorts import finite_sort

    frames, boundaries = finite_sort(ClientFrame), finite_sort(Boundary)
    frame = frames.var("frame")
    decided = lookup(tables.frames, frame)
    claim = (decided == boundaries[Boundary.NEW]) == (frame == frames[ClientFrame.CREATE])
    show = {"frame": frame, "ends": decided}
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "frames": ((z3.BoolVal(True), (frame,)),)
    }
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def slot_fill_step(tables: ModelTables, n: int) -> StepFacts:
    """The slot fill step (R6) over ``tables.fills_missing_slot``; ``n`` is unused."""
    import z3
    from responses_oracle.model.admission import MatchedItem, binds_missing_slot

    from .ops_z3 import Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    items = finite_sort(MatchedItem)
    item = items.var("item")
    entry_has_slot, item_has_slot = z3.Bool("entry_has_slot"), z3.Bool("item_has_slot")
    fills = lookup(tables.fills_missing_slot, item)
    binds = binds_missing_slot(ops, entry_has_slot, item_has_slot, fills)
    claim = z3.And(
        # A done item's output_index is the producer's word for the slot; a snapshot
        # position is where the item ended up, not a slot.
        binds == z3.And(z3.Not(entry_has_slot), item_has_slot, item == items[MatchedItem.DONE]),
        # A slot once bound is never rebound by an item.
        z3.Implies(entry_has_slot, z3.Not(binds)),
    )
    show = {"item": item, "entry_has_slot": entry_has_slot, "item_has_slot": item_has_slot}
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "fills_missing_slot": ((z3.BoolVal(True), (item,)),)
    }
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def part_merge_step(tables: ModelTables, n: int) -> StepFacts:
    """The part addition step (R15) over ``tables.part_merge``; ``n`` is unused.

    The part's array has ``length`` elements and the event brings a value at
    ``position`` (``placed``: a non-negative integer, as ``impl/core/route.py`` reads
    it); the driver appends on ``APPEND``, replaces on ``REPLACE`` when an element is
    there, and otherwise drops the value."""
    import z3
    from responses_oracle.model.annotations import PartMerge, position_view

    from .ops_z3 import Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    merges = finite_sort(PartMerge)
    placed, position, length = z3.Bool("placed"), z3.Int("position"), z3.Int("length")
    inside = z3.And(placed, position < length)
    view = position_view(ops, placed, inside)
    merge = lookup(tables.part_merge, view)
    replaced = z3.And(merge == merges[PartMerge.REPLACE], inside)
    appended = merge == merges[PartMerge.APPEND]
    grown = z3.If(appended, length + 1, length)
    at = z3.If(appended, length, z3.If(replaced, position, -1))
    claim = z3.And(
        # No annotation is lost: after the event its value is an element of the part.
        z3.And(at >= 0, at < grown),
        # One sent again (a position inside the array) replaces the one there, never
        # duplicates it; any other goes after those the part holds.
        z3.Implies(inside, z3.And(grown == length, at == position)),
        z3.Implies(z3.Not(inside), z3.And(grown == length + 1, at == length)),
    )
    domain = z3.And(length >= 0, z3.Implies(placed, position >= 0))
    show = {"placed": placed, "inside": inside, "merge": merge}
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "part_merge": ((z3.BoolVal(True), (view,)),)
    }
    return StepFacts({}, domain, claim, show, keys)


def terminal_status_step(tables: ModelTables, n: int) -> StepFacts:
    """The terminal step (R9) over ``tables.terminal_status``; ``n`` is unused.

    The claim is stated over the names, not the cells: each terminal gives the status
    it is named after (``response.failed`` fails the response, ...), an ``error`` fails
    it; so only ``response.completed`` completes a response, the one status whose calls
    run (the driver delivers ``response.completed``'s trigger for it, an abort for
    every other)."""
    import z3
    from responses_oracle.model.catalogue import Terminal
    from responses_oracle.model.vocabulary import ResponseStatus

    from .ops_z3 import lookup
    from .sorts import finite_sort

    terminals, statuses = finite_sort(Terminal), finite_sort(ResponseStatus)
    terminal = terminals.var("terminal")
    status = lookup(tables.terminal_status, terminal)
    named = {member.value: member for member in ResponseStatus}

    def expected(end: Terminal) -> ResponseStatus:
        return named.get(end.value, ResponseStatus.FAILED)

    claim = z3.And(
        [
            z3.Implies(terminal == terminals[end], status == statuses[expected(end)])
            for end in Terminal
        ]
    )
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "terminal_status": ((z3.BoolVal(True), (terminal,)),)
    }
    return StepFacts({}, z3.BoolVal(True), claim, {"terminal": terminal, "status": status}, keys)


def amended_step(tables: ModelTables, n: int) -> StepFacts:
    """The amendment step (R14) over ``tables.amendable``; ``n`` is unused."""
    import z3
    from responses_oracle.model.catalogue import Terminal

    from .ops_z3 import lookup
    from .sorts import finite_sort

    terminals = finite_sort(Terminal)
    terminal = terminals.var("terminal")
    amends = lookup(tables.amendable, terminal)
    # OpenAI's error then response.failed is one failure; any other terminal is final.
    claim = amends == (terminal == terminals[Terminal.ERROR])
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "amendable": ((z3.BoolVal(True), (terminal,)),)
    }
    return StepFacts({}, z3.BoolVal(True), claim, {"terminal": terminal}, keys)
