"""The diagnostic contracts of the payload, identity and admission tables, proved by Z3.

A table cell says what happens *and* what is reported.  The invariants of
``properties.py`` see what happens; the codes a payload, identity or admission cell
raises enter no encoding, so a cell that reports the wrong thing, or nothing, was
caught only by CrossHair's per-cell conditions (``crosshair_targets``), which read a
cell's key, not the values that select it.  Each ``Contract`` here states, for one
decision step of the driver, which code the step must raise in terms of the *values*
the step sees (rules R6 and R7), and Z3 proves it for every value.

Theory of operation
-------------------
A contract is a formula over one step: fresh Z3 constants stand for the step's inputs
(the abstract strings of ``sorts.Payload`` for a held value, an offer, a
``call_id``; a ``Bool`` per fact; a ``Bool`` per entry for a set of entries), the
model's own classifier (``payload_key``, ``identity_relation``, ``added_view``,
``fit_key`` and ``match_view``) is called on them through ``ops_z3.Z3Ops``, and the
cell it selects is read from the table under proof by ``ops_z3.lookup`` — an ``If``
chain over the table's cells.  Nothing here restates a table or a classifier: a one-cell
mutant yields another ``If`` chain, and the contract is asked of it.  The proof asks
for inputs, within the step's ``domain`` (what the driver guarantees, each clause with
its reason), that violate the ``claim``: none (unsat) is a proof, a model is a
counterexample, reported with the inputs and the code the cell raised.

Payload and identity steps read no entries: their proofs hold at any size.  An
admission step reads the entries an item may belong to; at most three keys propose
entries (slot, ``call_id``, id), so its proof is run for 2 to 4 entries and is
reported bounded.

The same steps say which cells can be consulted at all (``selectable``): a cell no
input within the domain selects — ``(NOTHING, EQUAL)`` of the payload table, a ``name``
``TAKEN`` — is never read, so a mutant of it cannot change behaviour (the mutation score
reports such mutants as unreachable, with this proof as the reason).

The contract names join ``prove``'s rows after the invariants and obligations
(``prove.PROVED_NAMES``); this module imports Z3 only when a contract is proved, so the
command line can list the names without the proofs extra.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from responses_oracle.model.tables import ModelTables
from responses_oracle.model.vocabulary import Code

from .reports_z3 import admission_step, announced_step, restated_step
from .responses_z3 import (
    amended_step,
    boundary_step,
    frames_step,
    part_merge_step,
    slot_fill_step,
    terminal_status_step,
)
from .runners_z3 import search_runner_step, shell_runner_step
from .step_facts import StepFacts

if TYPE_CHECKING:
    from .ops_z3 import Z3Ops
    from .sorts import Term

ENTRY_BOUNDS: tuple[int, ...] = (2, 3, 4)
"""The numbers of entries an admission contract is proved for."""


Builder = Callable[[ModelTables, int], StepFacts]
"""Builds the contract's step over a model's table for ``n`` entries."""


@dataclass(frozen=True)
class Contract:
    """A diagnostic contract: its name, the table it constrains, the rule in words, and
    the step it is stated over."""

    name: str
    table: str
    rule: str
    statement: str
    build: Builder
    entries: bool = False
    """Whether the step reads entries (then it is proved for ``ENTRY_BOUNDS``)."""


def _raised(table: Any, keys: Sequence[Any]) -> dict[Code, Term]:
    """Per code, whether the cell the keys select raises it."""
    from .ops_z3 import lookup

    def raises(code: Code) -> Callable[[Any], bool]:
        return lambda cell: cell.code is code

    return {code: lookup(table, *keys, project=raises(code)) for code in Code}


def _only(raised: dict[Code, Term], expected: dict[Code, Term]) -> Term:
    """Each code of ``expected`` is raised exactly when its formula holds; no other."""
    import z3

    return z3.And(
        [raised[code] == expected[code] for code in expected]
        + [z3.Not(raised[code]) for code in Code if code not in expected]
    )


def _payload(tables: ModelTables, n: int) -> StepFacts:
    import z3
    from responses_oracle.model.payload import payload_key
    from responses_oracle.model.vocabulary import PayloadAction

    from .ops_z3 import PAYLOAD, Z3Ops, lookup

    ops = Z3Ops(n)
    held, offer = PAYLOAD.var("held"), PAYLOAD.var("offer")
    key = payload_key(ops, held, offer)
    raised = _raised(tables.payload, key)
    take = lookup(tables.payload, *key, project=lambda cell: cell.action is PayloadAction.TAKE)
    both = z3.And(ops.present(held), ops.present(offer), z3.Not(ops.same(offer, held)))
    claim = z3.And(
        _only(
            raised,
            {
                # R7: a blank never replaces a value, and says so.
                Code.EMPTY_PAYLOAD_IGNORED: z3.And(ops.present(held), ops.blank(offer)),
                # R7: two different non-empty values: info if the later extends the
                # earlier, a warning otherwise.
                Code.PAYLOAD_EXTENDED: z3.And(both, ops.extends(offer, held)),
                Code.DIVERGENT_PAYLOAD: z3.And(both, z3.Not(ops.extends(offer, held))),
                # R7: a value after an explicit empty one (a blanked done) is taken, and
                # said: a client that read the empty one holds another answer.
                Code.EMPTY_PAYLOAD_FILLED: z3.And(ops.blank(held), ops.present(offer)),
            },
        ),
        # R7: the last non-empty offer wins; an empty one fills only nothing.
        take == z3.Or(ops.present(offer), z3.And(ops.blank(offer), ops.missing(held))),
    )
    show = {"held": held, "offer": offer}
    return StepFacts(raised, z3.BoolVal(True), claim, show, {"payload": ((z3.BoolVal(True), key),)})


def _identity(tables: ModelTables, n: int) -> StepFacts:
    import z3
    from responses_oracle.model.admission import identity_relation
    from responses_oracle.model.vocabulary import IdentityField, MergeStage, PayloadAction

    from .ops_z3 import PAYLOAD, Z3Ops, lookup
    from .sorts import finite_sort

    ops = Z3Ops(n)
    fields, stages = finite_sort(IdentityField), finite_sort(MergeStage)
    field, stage = fields.var("field"), stages.var("stage")
    held, value = PAYLOAD.var("held"), PAYLOAD.var("value")
    # Another entry of the item's kind holds ``value``; whether that makes it TAKEN is
    # the table's (``names_one_entry``), so a changed cell there is refuted here too.
    elsewhere = z3.Bool("elsewhere")
    names_one = lookup(tables.names_one_entry, field)
    taken = z3.And(elsewhere, names_one)
    key = (field, stage, identity_relation(ops, held, value, taken))
    raised = _raised(tables.identity, key)
    take = lookup(tables.identity, *key, project=lambda cell: cell.action is PayloadAction.TAKE)
    call_id = field == fields[IdentityField.CALL_ID]
    renaming = z3.And(call_id, stage == stages[MergeStage.CONFIRMING])
    # R6: one call_id names one entry of a kind -- a call_id another entry holds, the
    # entry's own value aside; a tool's name or namespace is shared by many calls.
    foreign = z3.And(call_id, ops.present(value), elsewhere, z3.Not(ops.same(value, held)))
    differs = z3.And(
        ops.present(held), ops.present(value), z3.Not(ops.same(value, held)), z3.Not(foreign)
    )
    claim = z3.And(
        _only(
            raised,
            {
                # R6: one call_id names one entry of a kind.
                Code.DUPLICATE_CALL_ID: foreign,
                # R6: the entry's own done may rename the call_id added announced ...
                Code.CALL_ID_RENAMED: z3.And(differs, renaming),
                # ... every other different value is reported and not obeyed.
                Code.METADATA_CONFLICT: z3.And(differs, z3.Not(renaming)),
            },
        ),
        # R6: the first non-empty value is taken, a different one only by a rename.
        take
        == z3.And(
            ops.present(value),
            z3.Not(foreign),
            z3.Or(z3.Not(ops.present(held)), z3.And(differs, renaming)),
        ),
    )
    show = {"field": field, "stage": stage, "held": held, "value": value, "elsewhere": elsewhere}
    reads: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "identity": ((z3.BoolVal(True), key),),
        "names_one_entry": ((z3.BoolVal(True), (field,)),),
    }
    return StepFacts(raised, z3.BoolVal(True), claim, show, reads)


def _flags(name: str, n: int) -> tuple[Term, ...]:
    import z3

    return tuple(z3.Bool(f"{name}_{i}") for i in range(n))


def _at_most_one(flags: Sequence[Term]) -> Term:
    import z3

    return z3.AtMost(*flags, 1)


def _added(tables: ModelTables, n: int) -> StepFacts:
    import z3
    from responses_oracle.model.admission import added_view
    from responses_oracle.model.vocabulary import AdmissionAction, MergeStage

    from .ops_z3 import PAYLOAD, Z3Ops, lookup

    ops = Z3Ops(n)
    holder, named, same_type = _flags("holder", n), _flags("named", n), _flags("same_type", n)
    call = PAYLOAD.var("call")
    view, target = added_view(ops, holder, named, lambda e: same_type[e], call)
    raised = _raised(tables.added_admission, (view,))

    def action(member: AdmissionAction) -> Term:
        return lookup(tables.added_admission, view, project=lambda cell: cell.action is member)

    held_by_other_type = z3.Or([z3.And(holder[e], z3.Not(same_type[e])) for e in range(n)])
    held_by_same_type = z3.Or([z3.And(holder[e], same_type[e]) for e in range(n)])
    claim = z3.And(
        # R6: a call_id held by an entry of another type is duplicate_call_id, refused.
        _only(raised, {Code.DUPLICATE_CALL_ID: held_by_other_type}),
        action(AdmissionAction.REJECT) == held_by_other_type,
        # R6: a replay of a held call_id is that entry's, never a second entry.
        z3.Implies(held_by_same_type, action(AdmissionAction.MATCH)),
        z3.Implies(
            action(AdmissionAction.MATCH),
            z3.Or([z3.And(target == e, same_type[e]) for e in range(n)]),
        ),
        # R6: only an entry's own done merges at the confirming stage, never an added.
        z3.Not(
            lookup(tables.added_admission, view, project=lambda c: c.stage is MergeStage.CONFIRMING)
        ),
    )
    # The driver's holder is the one entry holding the call_id in the kind's namespace;
    # only a present call_id is held.
    domain = z3.And(_at_most_one(holder), z3.Implies(z3.Or(holder), ops.present(call)))
    show: dict[str, Term] = {"call": call, **{f"holder_{e}": holder[e] for e in range(n)}}
    keys: dict[str, tuple[tuple[Term, tuple[Any, ...]], ...]] = {
        "added_admission": ((z3.BoolVal(True), (view,)),)
    }
    return StepFacts(raised, domain, claim, show, keys)


def _done(tables: ModelTables, n: int) -> StepFacts:
    import z3
    from responses_oracle.model.admission import (
        MatchFacts,
        fit_key,
        identity_relation,
        match_view,
    )
    from responses_oracle.model.vocabulary import (
        AdmissionAction,
        Fit,
        IdentityField,
        MergeStage,
    )

    from .ops_z3 import PAYLOAD, Z3Ops, lookup
    from .sorts import finite_sort

    fit_sort = finite_sort(Fit)
    ops = Z3Ops(n)
    bound, named, holder = _flags("bound", n), _flags("named", n), _flags("holder", n)
    same_type, has_id_of, open_ = _flags("same_type", n), _flags("has_id_of", n), _flags("open", n)
    call_of = tuple(PAYLOAD.var(f"call_of_{i}") for i in range(n))
    call, has_id = PAYLOAD.var("call"), z3.Bool("has_id")
    snapshot, shared = z3.Bool("snapshot"), z3.Bool("shared")
    facts = MatchFacts(
        call,
        has_id,
        snapshot,
        bound,
        shared,
        named,
        holder,
        lambda e: same_type[e],
        lambda e: call_of[e],
        lambda e: has_id_of[e],
        lambda e: open_[e],
    )

    def fit(e: int) -> Any:
        return lookup(tables.matching, *fit_key(ops, facts, e))

    # match_view calls fit with concrete ordinals only (Z3Ops.where and Z3Ops.of).
    fits = {e: fit(e) for e in range(n)}
    view, target = match_view(ops, facts, lambda e: fits[e])
    raised = _raised(tables.done_admission, (view,))

    def cell(test: Callable[[Any], bool]) -> Term:
        return lookup(tables.done_admission, view, project=test)

    def target_fits(member: Fit) -> Term:
        return z3.Or([z3.And(target == e, fits[e] == fit_sort[member]) for e in range(n)])

    match = cell(lambda c: c.action is AdmissionAction.MATCH)
    reject = cell(lambda c: c.action is AdmissionAction.REJECT)
    held_by_other_type = z3.Or([z3.And(holder[e], z3.Not(same_type[e])) for e in range(n)])
    fitting = [fits[e] != fit_sort[Fit.NONE] for e in range(n)]
    claim = z3.And(
        _only(
            raised,
            {
                # R6: a call_id held by an entry of another type: refused, reported.
                Code.DUPLICATE_CALL_ID: held_by_other_type,
                # R6: several fitting entries: refused as ambiguous, never guessed.
                Code.AMBIGUOUS_ROUTE: z3.And(reject, z3.Not(held_by_other_type)),
                # R6: a snapshot item re-keying a done entry is that entry's, reported.
                Code.SNAPSHOT_REKEYED: z3.And(match, target_fits(Fit.REKEYED)),
            },
        ),
        # R6: a duplicate is refused; any other refusal is an ambiguity, and a real one:
        # two entries fit.
        z3.Implies(held_by_other_type, reject),
        z3.Implies(z3.And(reject, z3.Not(held_by_other_type)), z3.AtLeast(*fitting, 2)),
        # R6: a new entry only when none of the entries its keys name fits: the holder of
        # its call_id, the one entry its id names, the one entry bound at its slot.
        z3.Implies(
            cell(lambda c: c.action is AdmissionAction.ADMIT),
            z3.And(
                [
                    z3.Not(z3.And(key[e], fitting[e]))
                    for key in (holder, ops.only(named), ops.only(bound))
                    for e in range(n)
                ]
            ),
        ),
        # The item goes only to an entry it fits.
        z3.Implies(match, z3.Or([z3.And(target == e, fitting[e]) for e in range(n)])),
        # R6: only the entry's own done merges at the confirming stage (a rename).
        cell(lambda c: c.stage is MergeStage.CONFIRMING) == z3.And(match, target_fits(Fit.OWN)),
        # A re-key is the snapshot's only.
        z3.Implies(raised[Code.SNAPSHOT_REKEYED], snapshot),
        *[_fits_as_r6_says(ops, facts, e, fits[e], fit_sort) for e in range(n)],
    )
    domain = z3.And(
        # The holder is the one entry holding the item's (present) call_id.
        _at_most_one(holder),
        *[z3.Implies(holder[e], z3.And(ops.present(call), call_of[e] == call)) for e in range(n)],
        # An id names entries only if the item has one, and only entries that have one.
        *[z3.Implies(named[e], z3.And(has_id, has_id_of[e])) for e in range(n)],
        # A slot is shared exactly when two or more entries are bound to it (R3).
        shared == z3.AtLeast(*bound, 2),
    )
    show: dict[str, Term] = {"call": call, "has_id": has_id, "snapshot": snapshot, "shared": shared}
    stage = cell(lambda c: c.stage)
    keys = {
        "done_admission": ((z3.BoolVal(True), (view,)),),
        "matching": tuple((z3.BoolVal(True), fit_key(ops, facts, e)) for e in range(n)),
        # The item's call_id merged into the entry it matches, at the cell's stage: which
        # identity cells of the call_id a done or snapshot item can reach.
        "identity": tuple(
            (
                z3.And(match, target == e),
                (
                    IdentityField.CALL_ID,
                    stage,
                    identity_relation(
                        ops,
                        call_of[e],
                        call,
                        z3.And(z3.Or(holder), z3.Not(holder[e])),
                    ),
                ),
            )
            for e in range(n)
        ),
    }
    return StepFacts(raised, domain, claim, show, keys)


def _fits_as_r6_says(ops: Z3Ops, facts: Any, e: int, fit: Term, fit_sort: Any) -> Term:
    """R6 on one proposed entry ``e``, over the values the matching table's key is read from:
    whether the item fits it, and as what (``Fit``)."""
    import z3
    from responses_oracle.model.vocabulary import Fit

    call, theirs = facts.call, facts.call_of(e)
    same_type, named, open_ = facts.same_type(e), facts.named[e], facts.open_(e)
    fitting = fit != fit_sort[Fit.NONE]
    both = z3.And(ops.present(call), ops.present(theirs))
    differs = z3.And(both, z3.Not(ops.same(call, theirs)))
    own_slot = z3.And(facts.bound[e], z3.Not(facts.shared))
    unseen = z3.And(facts.has_id, facts.has_id_of(e), z3.Not(z3.Or(*facts.named)))
    # The entry's own done: its id, at its own slot, while it is open.
    own = z3.And(z3.Not(facts.snapshot), named, open_, own_slot)
    # The snapshot at a done entry's own slot, with the entry's id or a never-seen one.
    rekey = z3.And(facts.snapshot, z3.Not(open_), own_slot, z3.Or(named, unseen))
    ids_compared = z3.And(facts.has_id, facts.has_id_of(e))
    return z3.And(
        # An item of another type is never the entry's, whatever its keys say.
        z3.Implies(fitting, same_type),
        z3.Implies(
            same_type,
            z3.And(
                # Equal call_ids are the strongest key.
                z3.Implies(z3.And(both, ops.same(call, theirs)), fit == fit_sort[Fit.AGREE]),
                # Without two call_ids to compare the ids decide: an id naming the entry
                # fits, one naming only others does not, nothing to compare fits; a
                # never-seen id fits through the entry's own slot, if the entry is open
                # or the item is the snapshot's.
                z3.Implies(
                    z3.Not(both),
                    z3.And(
                        z3.Implies(named, fitting),
                        z3.Implies(
                            z3.And(ids_compared, z3.Not(named), z3.Or(*facts.named)),
                            z3.Not(fitting),
                        ),
                        z3.Implies(z3.Not(ids_compared), fitting),
                        z3.Implies(
                            unseen, fitting == z3.And(own_slot, z3.Or(open_, facts.snapshot))
                        ),
                    ),
                ),
                # Different call_ids are different calls, but for the own done (a rename)
                # and the snapshot's re-key of a done entry.
                z3.Implies(
                    differs,
                    fit
                    == z3.If(
                        own,
                        fit_sort[Fit.OWN],
                        z3.If(rekey, fit_sort[Fit.REKEYED], fit_sort[Fit.NONE]),
                    ),
                ),
            ),
        ),
        # An agreement is never between different call_ids, a rename or re-key only.
        z3.Implies(fit == fit_sort[Fit.AGREE], z3.Not(differs)),
        z3.Implies(z3.Or(fit == fit_sort[Fit.OWN], fit == fit_sort[Fit.REKEYED]), differs),
    )


CONTRACTS: dict[str, Contract] = {
    contract.name: contract
    for contract in (
        Contract(
            "payload_reported",
            "payload",
            "R7",
            "an offered payload value raises empty_payload_ignored exactly when it is blank "
            "over a held value, payload_extended exactly when it extends a different held "
            "value, divergent_payload exactly when it differs otherwise, "
            "empty_payload_filled exactly when it is non-empty over an explicit empty "
            "value, no other code; "
            "it is taken exactly when it is non-empty, or blank over nothing",
            _payload,
        ),
        Contract(
            "identity_reported",
            "identity",
            "R6",
            "a merged identity value raises duplicate_call_id exactly when another entry "
            "holds it, call_id_renamed exactly when the entry's own done brings a different "
            "call_id, metadata_conflict exactly when it differs otherwise, no other code; "
            "it is taken exactly when it is the first non-empty value, or a rename",
            _identity,
        ),
        Contract(
            "added_reported",
            "added_admission",
            "R6",
            "an added item raises duplicate_call_id and is refused exactly when an entry of "
            "another type holds its call_id, no other code; a replay of a held call_id goes "
            "to the entry holding it",
            _added,
            entries=True,
        ),
        Contract(
            "done_reported",
            "done_admission",
            "R6",
            "a done or snapshot item raises duplicate_call_id exactly when an entry of "
            "another type holds its call_id, ambiguous_route exactly when it is refused "
            "otherwise (two entries fit), snapshot_rekeyed exactly when it goes to an entry "
            "it re-keys (a snapshot item only), no other code; it goes only to an entry it "
            "fits, at the confirming stage exactly when it is that entry's own done; it fits "
            "an entry of its type with its call_id, else the one its id names, never one of "
            "another call_id but as the own done or the snapshot's re-key",
            _done,
            entries=True,
        ),
        Contract(
            "response_boundaries",
            "boundary",
            "R14",
            "an opening event never cuts when nothing is held; a response.created starts the "
            "next response unless it repeats the id of the open one; a response.queued or "
            "response.in_progress continues the held response unless that one ended and the "
            "event names another response (stated over the wire type)",
            boundary_step,
        ),
        Contract(
            "client_frames",
            "frames",
            "R14",
            "a client's response.create frame ends the response before it; a response.steer "
            "frame ends nothing (stated over the wire type)",
            frames_step,
        ),
        Contract(
            "slot_fill",
            "fills_missing_slot",
            "R6",
            "a matched item binds its slot to its entry exactly when the entry has none, the "
            "item has one and it is a done item (never a snapshot position); a bound slot is "
            "never rebound (stated over the trigger the item is delivered with)",
            slot_fill_step,
        ),
        Contract(
            "part_additions",
            "part_merge",
            "R15",
            "a part addition event's annotation goes to the text part its content_index "
            "names and is never lost: one at an annotation_index the part's array holds "
            "replaces the element there, any other is appended (stated over the wire "
            "event's fields)",
            part_merge_step,
        ),
        Contract(
            "terminal_status",
            "terminal_status",
            "R9",
            "each terminal event gives its response the status it is named after, and an "
            "error fails it: only response.completed completes a response",
            terminal_status_step,
        ),
        Contract(
            "amended_terminals",
            "amendable",
            "R14",
            "only an error is described by the terminal right after it (one failure, not an "
            "after_terminal event); every other terminal is final",
            amended_step,
        ),
        Contract(
            "shell_runners",
            "environment_runner",
            "R13",
            "a declared shell with no environment type or a local one is run by the client; a "
            "hosted container, or an environment type the model does not know, by the server "
            "(stated over the wire value)",
            shell_runner_step,
        ),
        Contract(
            "search_runners",
            "execution_runner",
            "R13",
            "a tool search whose execution is \"client\", or that states none the model "
            "knows and whose declared tool's is \"client\", is run by the client; any "
            "other, by the server (stated over the wire values)",
            search_runner_step,
        ),
        Contract(
            "admission_reports",
            "note_codes",
            "R6",
            "each admission path owes its one report: an item first seen in its done "
            "done_only_item, in the terminal's output snapshot_only_item (neither in a "
            "resumed response), an event for no entry orphan_event, an item event its entry "
            "had duplicate_item, an event too late for its entry late_event, at "
            "response.completed an unconfirmed entry unconfirmed_item and a confirmed one "
            "the snapshot missed snapshot_missing_item; every other step none (stated over "
            "the lifecycle row, its note codes and the resume waivers)",
            admission_step,
        ),
        Contract(
            "parts_announced",
            "announced_parts",
            "R7",
            "a delta that opens a channel owes part_not_added exactly when the wire's "
            "deltas of that channel name a part by its index (the API opens such a part "
            "with its added event), resumed or not",
            announced_step,
        ),
        Contract(
            "restated_silently",
            "restated",
            "R7",
            "an event the upstream left out is said again exactly when it is a part's "
            "added, a payload's done or an item's done and a later event carries the whole "
            "item (the item's done, the terminal's output), but a part's added where a "
            "delta of the part streamed (owed: part_not_added); never an item's added, a "
            "delta or a progress event",
            restated_step,
        ),
    )
}
"""Every diagnostic contract, by name, in table order."""


@dataclass(frozen=True)
class ContractResult:
    """A contract on one model: ``proved`` (for each size tried), ``counterexample`` (the
    inputs that break it, in ``detail``), or ``unknown`` (Z3 gave up)."""

    name: str
    verdict: str
    sizes: tuple[int, ...]
    detail: str


def _shown(model: Any, show: dict[str, Term], raised: dict[Code, Term]) -> str:
    import z3

    values = ", ".join(f"{name}={model.eval(term, True)}" for name, term in show.items())
    if not raised:  # a step whose table raises no code (proofs/responses_z3.py)
        return values
    codes = [code.value for code, term in raised.items() if z3.is_true(model.eval(term, True))]
    return f"{values}: the cell raises {codes or 'no code'}"


def _least_model(solver: Any, show: dict[str, Term]) -> Any:
    """The least model of the satisfiable ``solver``: each shown input, in order, takes
    its first value (``False`` before ``True``, an enum sort in declaration order) that
    still breaks the contract.  Z3's own model depends on what the process asked before;
    this one depends only on the step, so the proof record does not change on a re-run."""
    import z3

    for term in show.values():
        sort = term.sort()
        if z3.is_bool(term):
            values = [z3.BoolVal(False), z3.BoolVal(True)]
        else:
            values = [sort.constructor(i)() for i in range(sort.num_constructors())]
        for value in values:
            solver.push()
            solver.add(term == value)
            found = solver.check() == z3.sat
            solver.pop()
            if found:
                solver.add(term == value)
                break
    if solver.check() != z3.sat:
        raise AssertionError("a satisfiable contract query lost its model")
    return solver.model()


def check_contract(name: str, tables: ModelTables) -> ContractResult:
    """Prove contract ``name`` over ``tables``, or find the inputs that break it."""
    import z3

    contract = CONTRACTS[name]
    sizes = ENTRY_BOUNDS if contract.entries else ENTRY_BOUNDS[:1]
    for n in sizes:
        where = f" at {n} entries" if contract.entries else ""
        facts = contract.build(tables, n)
        solver = z3.Solver()
        solver.add(facts.domain, z3.Not(facts.claim))
        answer = solver.check()
        if answer == z3.sat:
            inputs = _shown(_least_model(solver, facts.show), facts.show, facts.raised)
            return ContractResult(
                name, "counterexample", (n,), f"{contract.rule} broken{where}: {inputs}"
            )
        if answer != z3.unsat:
            return ContractResult(name, "unknown", (n,), f"Z3 answered {answer} at {n} entries")
    where = f"for {sizes[0]}..{sizes[-1]} entries" if contract.entries else "for every value"
    detail = f"{contract.rule}, one {contract.table} step: holds {where}"
    return ContractResult(name, "proved", sizes, detail)


SELECTING: dict[str, str] = {contract.table: contract.name for contract in CONTRACTS.values()} | {
    "matching": "done_reported",
    "execution_values": "search_runners",
    "environment_types": "shell_runners",
    "openings": "response_boundaries",
    "client_frames": "client_frames",
    "matched_items": "slot_fill",
    "part_additions": "part_additions",
    "resume_waived": "admission_reports",
}
"""The contract whose step looks up each classifier-keyed table."""


def selectable(table: str, cell: tuple[Any, ...], tables: ModelTables) -> bool:
    """Whether any input of the step, within its domain, selects ``cell`` of ``table``
    (at the largest size tried): a cell no input selects is never consulted, so a
    mutant of it cannot change what the reducer does.  A ``call_id``'s identity cell at
    the confirming stage is asked of the done step (only an own done merges there)."""
    import z3
    from responses_oracle.model.vocabulary import IdentityField, MergeStage

    from .ops_z3 import _term

    name = SELECTING[table]
    if table == "identity" and cell[:2] == (IdentityField.CALL_ID, MergeStage.CONFIRMING):
        # Only the entry's own done merges at the confirming stage: which relations its
        # call_id can have there is the done step's to say, not the identity step's.
        name = "done_reported"
    contract = CONTRACTS[name]
    facts = contract.build(tables, (ENTRY_BOUNDS if contract.entries else ENTRY_BOUNDS[:1])[-1])
    hits = [
        z3.And(when, *[_term(key) == _term(part) for key, part in zip(keys, cell, strict=True)])
        for when, keys in facts.keys[table]
    ]
    solver = z3.Solver()
    solver.add(facts.domain, z3.Or(hits))
    return bool(solver.check() == z3.sat)
