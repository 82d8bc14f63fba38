"""Tables no transition system reads, proved by Z3 one step at a time: where a response
ends (R14), whether a matched item fills a missing slot (R6), where an annotation goes
in its part (R15), the status a terminal event gives (R9) and which terminal the next
one amends (R14).

The lifecycle encoding (``encoding.py``) follows one response; the cut of an input into
responses (``model/responses.py``: ``BOUNDARY`` and ``FRAMES``, read through
``OPENINGS`` and ``CLIENT_FRAMES``), the slot fill rule (``model/admission.py``:
``FILLS_MISSING_SLOT``, read through ``MATCHED_ITEMS``) the part merge
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
that break the claim: ``kind=OpeningType.CREATED, terminal=False, opened=True,
held_id=Payload.MISSING, event_id=Payload.MISSING, cut=Boundary.CONTINUE``.

Theory of operation
-------------------
*The boundary step.*  Its inputs are what the reducer reads when an opening event
arrives (``model.responses.starts_new``): the event's wire type (``OpeningType``:
``response.created``, ``queued``, ``in_progress``), whether the held response ended
(``terminal``) and was opened (``opened``), and the two response ids as abstract
strings (``sorts.Payload``).  ``tables.openings`` (``OPENINGS``) reads the type into
the kind of opening, and ``model.responses.boundary_key`` — the function the reducer
runs — picks the rest of the cell of ``tables.boundary``; ``ops_z3.lookup`` reads both.
The domain is what the driver guarantees: ids are never blank (``nonempty`` drops
them), and a held id comes from a lifecycle event, which opened the response or ended it
(``impl/core/dispatch.py``: ``_response_fields``).  The claim is R14 in words: nothing
held is never cut (no response is empty); a ``response.created`` starts the next
response unless it repeats the id of the open one (an ``in_progress`` may come first);
a ``queued`` / ``in_progress`` continues the held response unless that one ended and
the event names another response.  The claim is stated over the wire type, so a cell
of ``OPENINGS`` that misreads one is refuted (``mutants.py``,
``queued-read-as-created``).

*The frames step.*  Its input is a client frame's wire type (``FrameType``), read
through ``tables.client_frames`` (``CLIENT_FRAMES``) into the frame
(``ClientFrame``); the claim: a ``response.create`` ends the response before it (the
server answers one request at a time on a connection), a ``response.steer`` ends
nothing (it adds input to the response in flight).  Stated over the wire type, a
misread frame is refuted (``create-frame-read-as-steer``).

*The slot fill step.*  Its inputs: the trigger the matched item is delivered with
(``MatchTrigger``), read through ``tables.matched_items`` (``MATCHED_ITEMS``) into
where the item comes from (``MatchedItem``), whether its entry has a slot and whether
the item has one.  ``model.admission.binds_missing_slot`` — the reducer's test in
``impl/core/admit.py`` — combines them with the cell of ``tables.fills_missing_slot``.
The claim (R6): a done item's ``output_index`` binds the slot of an entry that has none
(the producer's word for it), a snapshot position never does (gateways drop and reorder
items there), and an entry's slot, once bound, is never rebound by an item.  Stated
over the trigger, a misread item source is refuted (``snapshot-item-read-as-done``).

*The part addition step.*  Its inputs: the event's wire type (``AdditionType``), its
fields (``AdditionField``: ``content_index``, ``annotation``, ``annotation_index``,
each present or not, the indexes non-negative integers when present, the annotation an
abstract value) and the part's array length.  ``tables.part_additions``
(``PART_ADDITIONS``) says which channel's part receives the value and which field
holds the part, the value and the position, read as ``impl/core/route.py`` reads them
(a missing part index is 0, a missing value adds nothing);
``model.annotations.position_view`` — the reducer's classifier — picks the cell of
``tables.part_merge``.  The claim (R15), over the wire fields: the annotation goes to
the text channel's part at ``content_index``; it is never lost: one at an
``annotation_index`` the array holds replaces the element there (the same annotation
sent again), any other is appended.  Stated over the fields, a cell of
``PART_ADDITIONS`` that reads another field or another channel is refuted
(``mutants.py``, ``annotation-placed-by-content-index``).

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
  ``part_merge`` (R15), ``terminal_status`` (R9): the contracts here; so are the maps
  read into them, ``openings``, ``client_frames`` (R14) and ``matched_items`` (R6).
- ``execution`` (R13): ``proofs/execution_z3.py``; ``names_one_entry`` (R6): the
  contract ``identity_reported`` (``contracts.py``); ``environment_runner``,
  ``execution_runner`` (R13): the contracts of ``runners_z3.py``.
- ``part_additions`` (R15): the contract ``part_additions``, with ``part_merge``.
- ``note_codes``, ``resume_waived`` (R6, R8, R14), ``announced_parts`` (R7) and
  ``restated`` (the proxy's re-spellings): the contracts of ``reports_z3.py``.
- Not read by any proof: the wire facts of ``catalogue.WIRE_EVENTS`` / ``ITEM_TYPES`` /
  ``TERMINALS`` (which field holds what, which events end a response: not decisions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables

from .step_facts import StepFacts

if TYPE_CHECKING:
    from .sorts import Term


def boundary_step(tables: ModelTables, n: int) -> StepFacts:
    """The boundary step (R14), over the wire value: ``tables.openings`` reads the
    opening event's type, ``tables.boundary`` says whether the opening it is cuts; ``n``
    is unused (no entries)."""
    import z3
    from responses_oracle.model.responses import Boundary, OpeningType, boundary_key

    from .ops_z3 import PAYLOAD, Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    kinds, boundaries = finite_sort(OpeningType), finite_sort(Boundary)
    kind = kinds.var("kind")
    opening = lookup(tables.openings, kind)
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
            z3.And(kind == kinds[OpeningType.CREATED], z3.Not(nothing)),
            cut == z3.Not(z3.And(open_, repeated)),
        ),
        # A queued / in_progress continues the held response (a resume stream, an id
        # that rotates), unless that one ended and the event names another response.
        z3.Implies(
            kind != kinds[OpeningType.CREATED],
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
        "kind": kind,
        "terminal": terminal,
        "opened": opened,
        "held_id": held_id,
        "event_id": event_id,
        "cut": decided,
    }
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "openings": ((z3.BoolVal(True), (kind,)),),
        "boundary": ((z3.BoolVal(True), key),),
    }
    return StepFacts({}, domain, claim, show, keys)


def frames_step(tables: ModelTables, n: int) -> StepFacts:
    """The client frame step (R14), over the wire value: ``tables.client_frames`` reads
    the frame's type, ``tables.frames`` says whether the frame it is ends the held
    response; ``n`` is unused."""
    import z3
    from responses_oracle.model.responses import Boundary, FrameType

    from .ops_z3 import lookup
    from .sorts import finite_sort

    kinds, boundaries = finite_sort(FrameType), finite_sort(Boundary)
    kind = kinds.var("kind")
    frame = lookup(tables.client_frames, kind)
    decided = lookup(tables.frames, frame)
    claim = (decided == boundaries[Boundary.NEW]) == (kind == kinds[FrameType.CREATE])
    show = {"kind": kind, "frame": frame, "ends": decided}
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "client_frames": ((z3.BoolVal(True), (kind,)),),
        "frames": ((z3.BoolVal(True), (frame,)),),
    }
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def slot_fill_step(tables: ModelTables, n: int) -> StepFacts:
    """The slot fill step (R6), over the trigger the item is delivered with:
    ``tables.matched_items`` reads where the item comes from, ``tables.fills_missing_slot``
    whether an item from there fills a missing slot; ``n`` is unused."""
    import z3
    from responses_oracle.model.admission import MatchTrigger, binds_missing_slot

    from .ops_z3 import Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    triggers = finite_sort(MatchTrigger)
    trigger = triggers.var("trigger")
    item = lookup(tables.matched_items, trigger)
    entry_has_slot, item_has_slot = z3.Bool("entry_has_slot"), z3.Bool("item_has_slot")
    fills = lookup(tables.fills_missing_slot, item)
    binds = binds_missing_slot(ops, entry_has_slot, item_has_slot, fills)
    claim = z3.And(
        # A done item's output_index is the producer's word for the slot; a snapshot
        # position is where the item ended up, not a slot.
        binds
        == z3.And(
            z3.Not(entry_has_slot), item_has_slot, trigger == triggers[MatchTrigger.ITEM_DONE]
        ),
        # A slot once bound is never rebound by an item.
        z3.Implies(entry_has_slot, z3.Not(binds)),
    )
    show = {
        "trigger": trigger,
        "item": item,
        "entry_has_slot": entry_has_slot,
        "item_has_slot": item_has_slot,
    }
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "matched_items": ((z3.BoolVal(True), (trigger,)),),
        "fills_missing_slot": ((z3.BoolVal(True), (item,)),),
    }
    return StepFacts({}, z3.BoolVal(True), claim, show, keys)


def part_merge_step(tables: ModelTables, n: int) -> StepFacts:
    """The part addition step (R15), over the wire event: ``tables.part_additions``
    reads the event's type into the channel and the fields that hold the part, the
    value and its position, ``tables.part_merge`` says where the value goes; ``n`` is
    unused.

    Each field of the event (``AdditionField``) is present or not (``has_<field>``);
    the indexes are non-negative integers when present (as ``impl/core/route.py``
    accepts them), the annotation an abstract value.  The driver reads a missing part
    index as 0 and adds nothing without a value; the part's array has ``length``
    elements; the driver appends on ``APPEND``, replaces on ``REPLACE`` when an element
    is there, and otherwise drops the value."""
    import z3
    from responses_oracle.model.annotations import (
        AdditionField,
        AdditionType,
        PartMerge,
        position_view,
    )
    from responses_oracle.model.catalogue import ChannelKind

    from .ops_z3 import Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    kinds, names = finite_sort(AdditionType), finite_sort(AdditionField)
    merges, channels = finite_sort(PartMerge), finite_sort(ChannelKind)
    kind = kinds.var("kind")
    has = {field: z3.Bool(f"has_{field.value}") for field in AdditionField}
    value = {field: z3.Int(field.value) for field in AdditionField}

    def read(name: Term, of: dict[AdditionField, Term]) -> Term:
        """``of`` at the field ``name`` (a term of ``names``)."""
        fields = list(AdditionField)
        chosen: Term = of[fields[-1]]
        for field in reversed(fields[:-1]):
            chosen = z3.If(name == names[field], of[field], chosen)
        return chosen

    def cell(attribute: str) -> Term:
        """One attribute of ``kind``'s cell of ``tables.part_additions``."""
        return lookup(tables.part_additions, kind, project=lambda a: getattr(a, attribute))

    channel, part_field = cell("channel"), cell("part_index")
    value_field, position_field = cell("value"), cell("position")
    part = z3.If(read(part_field, has), read(part_field, value), 0)
    added = read(value_field, has)
    placed, position = read(position_field, has), read(position_field, value)
    length = z3.Int("length")
    inside = z3.And(placed, position < length)
    view = position_view(ops, placed, inside)
    merge = lookup(tables.part_merge, view)
    replaced = z3.And(merge == merges[PartMerge.REPLACE], inside)
    appended = merge == merges[PartMerge.APPEND]
    grown = z3.If(appended, length + 1, length)
    at = z3.If(appended, length, z3.If(replaced, position, -1))
    # What the wire says: the annotation, at annotation_index, of the part at
    # content_index (openai-python's ResponseOutputTextAnnotationAddedEvent).
    index = AdditionField.ANNOTATION_INDEX
    wire_inside = z3.And(has[index], value[index] < length)
    claim = z3.And(
        # The annotation goes to the text channel's part the event names.
        channel == channels[ChannelKind.TEXT],
        part == value[AdditionField.CONTENT_INDEX],
        # No annotation is lost: the event's annotation is added, and after the event
        # it is an element of the part.
        added,
        read(value_field, value) == value[AdditionField.ANNOTATION],
        z3.And(at >= 0, at < grown),
        # One sent again (a position inside the array) replaces the one there, never
        # duplicates it; any other goes after those the part holds.
        z3.Implies(wire_inside, z3.And(grown == length, at == value[index])),
        z3.Implies(z3.Not(wire_inside), z3.And(grown == length + 1, at == length)),
    )
    domain = z3.And(
        length >= 0,
        # The API's event always carries its annotation and its part's index; the
        # position may be missing (Open Responses' older event, a gateway that drops it).
        has[AdditionField.ANNOTATION],
        has[AdditionField.CONTENT_INDEX],
        *[value[field] >= 0 for field in AdditionField],
    )
    show = {
        "kind": kind,
        **{f"has_{field.value}": has[field] for field in AdditionField},
        "inside": wire_inside,
        "merge": merge,
    }
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "part_additions": ((z3.BoolVal(True), (kind,)),),
        "part_merge": ((z3.BoolVal(True), (view,)),),
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
