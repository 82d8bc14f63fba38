"""The peers' rules as alternative policies of the same model.

Theory of operation
-------------------
A *policy* is a ``ModelTables``: the reference tables with the cells changed that make
the generated reducer do what one peer implementation does, as
``reference/peer-implementations.md`` describes it — opencode after its normalize
refactor (section A), codex's done-only rule (B), AxonHub's aggregator with its
reported bug (C).  Each ``Change`` is one cell, built with the cell setters of
``mutants`` (a mutant is a one-cell policy), and names the section it comes from.
Because a policy is ordinary tables, everything downstream works on it unchanged: the
generator (``model.codegen.load_kernels``) makes its reducer, ``prove.prove`` refutes
the invariants it breaks with a shortest stream (``prove_policy`` runs it invariant by
invariant, and tries the unbounded proof only where the bounded one held),
``diff_policies`` compares two policies' reducers stream by stream.

Two kinds of honesty note travel with every policy, and every report prints them:

- ``not_modelled``: what the peer does that no table cell can say (the driver code
  decides it, or the tables have no word for it), so the policy does *not* reproduce
  it.  A proof about the policy says nothing about these behaviours.
- ``unoffered``, computed from the tables: the lifecycle cells where the reference
  makes a payload offer to a channel and the policy's row makes none (the
  offer is ignored).  The payload invariants (``empty_never_erases``,
  ``latest_nonempty_wins``) are stated over the offers *made* to a channel —
  the ghost of ``encoding.py`` and of ``model.invariants`` — plus the first snapshot
  item of an entry, which counts on arrival (the snapshot is reconciliation, R3).  So
  a skipped snapshot is refuted — AxonHub's reported bug (an empty
  ``output_item.done`` then a ``response.completed`` with the real arguments gives
  empty arguments) is a counterexample — but a delta or ``*.done`` that a row ignores
  is invisible to them, and a PROVED payload row does not cover those cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from responses_oracle.model.admission import IdentityDecision
from responses_oracle.model.lifecycle import LIFECYCLE, Transition
from responses_oracle.model.payload import PayloadDecision
from responses_oracle.model.routing import Route
from responses_oracle.model.tables import REFERENCE, ModelTables
from responses_oracle.model.vocabulary import (
    PAYLOAD_EFFECTS,
    Effect,
    EntryState,
    IdentityRelation,
    IdView,
    OfferRelation,
    PayloadAction,
    PayloadHeld,
    RouteAction,
    SlotView,
    Trigger,
)

from .any_channels import ANY_CHANNELS
from .inventory import (
    DEFAULT_BOUND,
    DEFAULT_DEPTH,
    ProofResult,
    Status,
    over_any_channels,
    over_matcher,
    over_unbounded,
    prove,
)
from .matching import MATCHER_PROPERTIES
from .mutants import (
    with_cell,
    with_identity_cell,
)
from .unbounded import UNBOUNDED

_S, _T, _E = EntryState, Trigger, Effect


@dataclass(frozen=True)
class Change:
    """One table cell a policy changes: which, to what, and where the peer does it."""

    table: str
    cell: str
    value: str
    evidence: str
    apply: Callable[[ModelTables], ModelTables]


def _effects(transition: Transition) -> str:
    effects = ", ".join(effect.value for effect in transition.effects) or "no effect"
    return f"{transition.next_state.value} ({effects})"


def lifecycle_cell(state: EntryState, trigger: Trigger) -> str:
    """How reports name the lifecycle cell ``(state, trigger)``."""
    return f"({state.value}, {trigger.value})"


def lifecycle_change(
    state: EntryState, trigger: Trigger, transition: Transition, evidence: str
) -> Change:
    """The lifecycle cell ``(state, trigger)`` set to ``transition``."""
    return Change(
        "lifecycle",
        lifecycle_cell(state, trigger),
        _effects(transition),
        evidence,
        lambda tables: with_cell(tables, tables.name, "lifecycle", (state, trigger), transition),
    )


def route_change(slot_view: SlotView, id_view: IdView, route: Route, evidence: str) -> Change:
    """The routing cell ``(slot_view, id_view)`` set to ``route``."""
    code = f" ({route.code.value})" if route.code is not None else ""
    return Change(
        "routing",
        f"(slot {slot_view.value}, item_id {id_view.value})",
        route.action.value + code,
        evidence,
        lambda tables: with_cell(tables, tables.name, "routing", (slot_view, id_view), route),
    )


def _keep_or_take(decision: PayloadDecision | IdentityDecision) -> str:
    code = f"({decision.code.value})" if decision.code is not None else "(no diagnostic)"
    return f"{decision.action.value} {code}"


def payload_change(
    held: PayloadHeld, relation: OfferRelation, decision: PayloadDecision, evidence: str
) -> Change:
    """The payload cell ``(held, relation)`` set to ``decision``."""
    return Change(
        "payload",
        f"(held {held.value}, offer {relation.value})",
        _keep_or_take(decision),
        evidence,
        lambda tables: with_cell(tables, tables.name, "payload", (held, relation), decision),
    )


def identity_change(
    relation: IdentityRelation, decision: IdentityDecision, evidence: str
) -> Change:
    """The identity cell ``relation`` set to ``decision``."""
    return Change(
        "identity",
        f"(item field {relation.value})",
        _keep_or_take(decision),
        evidence,
        lambda tables: with_identity_cell(tables, tables.name, relation, decision),
    )


@dataclass(frozen=True)
class Policy:
    """One peer's rules as tables, with what the tables cannot say about it."""

    name: str
    description: str
    evidence: str
    tables: ModelTables
    changes: tuple[Change, ...]
    not_modelled: tuple[str, ...]

    @property
    def unoffered(self) -> tuple[tuple[EntryState, Trigger], ...]:
        """Lifecycle cells where the reference offers a payload offer and this
        policy's row ignores it: the payload invariants cannot see these cells."""
        return tuple(
            (state, trigger)
            for state, row in REFERENCE.lifecycle.items()
            for trigger, transition in row.items()
            if _offers(transition) and not _offers(self.tables.lifecycle[state][trigger])
        )

    @property
    def unoffered_cells(self) -> tuple[str, ...]:
        """``unoffered``, named as reports name lifecycle cells."""
        return tuple(lifecycle_cell(state, trigger) for state, trigger in self.unoffered)


def _offers(transition: Transition) -> bool:
    return any(effect in PAYLOAD_EFFECTS for effect in transition.effects)


def policy(
    name: str,
    description: str,
    evidence: str,
    changes: tuple[Change, ...],
    not_modelled: tuple[str, ...],
) -> Policy:
    """The policy whose tables are the reference with ``changes`` applied in order."""
    tables = replace(REFERENCE, name=name)
    for change in changes:
        tables = change.apply(tables)
    return Policy(name, description, evidence, tables, changes, not_modelled)


_CLOSE = LIFECYCLE[_S.ADDED][_T.ITEM_DONE]
"""The reference's first done: merge, offer the item's payloads, confirm, tombstone,
emit the completion.  A peer that keeps no record of a finished call does it again."""

_FLUSH = (_E.CONFIRM, _E.EMIT_COMPLETION)
"""A pending call finished at response.completed as if it had been confirmed."""

OPENCODE = policy(
    "opencode",
    "opencode's Responses parser after #46885 (normalize at the stream boundary) and "
    "#46965 (no replay tombstones): a finished tool is forgotten, the first terminal that "
    "finishes a tool wins, the done item's arguments win even when empty, pending calls "
    "are flushed as calls at response.completed, output_index beats the wire item_id.",
    "reference/peer-implementations.md A.1, A.2, A.4, A.6 (sst/opencode 27ab8353)",
    (
        # A.1.6, A.6: no tombstone since #46965 -- a repeated done for a finished tool
        # starts and finishes it again: a second tool call for the same call_id.
        lifecycle_change(
            _S.DONE,
            _T.ITEM_DONE,
            Transition(_S.DONE, _CLOSE.effects),
            "A.1.6, A.6: a repeated output_item.done starts and finishes the tool again "
            "(two tool calls)",
        ),
        # A.1.6, A.4 test 19 (fails post-#46965): a replayed added after done reopens
        # the call; its slot registration never went away, so no new binding.
        lifecycle_change(
            _S.DONE,
            _T.ITEM_ADDED,
            Transition(_S.ADDED, (_E.MERGE_ITEM,)),
            "A.1.6, A.6: a replayed output_item.added after done reopens the call",
        ),
        # A.2: response.completed only finishes still-pending tools; items of finished
        # tools are ignored ("cannot correct a call that already finished", A.6).
        lifecycle_change(
            _S.DONE,
            _T.SNAPSHOT_ITEM,
            Transition(_S.COMPLETED, ()),
            "A.2, A.6: completed.output items of finished tools are ignored",
        ),
        # A.2, A.4 test 8: completed.output items never seen in the stream are ignored.
        lifecycle_change(
            _S.ABSENT,
            _T.SNAPSHOT_ITEM,
            Transition(_S.ABSENT, ()),
            "A.2, A.4 test 8: unseen completed.output calls are ignored",
        ),
        # A.2 finishAll, A.4 test 11: every still-pending tool becomes a tool call with
        # its streamed buffer, confirmed by nothing but the end of the response.
        *(
            lifecycle_change(
                state,
                _T.RESPONSE_COMPLETED,
                Transition(_S.COMPLETED, _FLUSH),
                "A.2, A.4 test 11: finishAll flushes pending calls as tool calls",
            )
            for state in (_S.ADDED, _S.STREAMING)
        ),
        # A.2, A.6: output_item.done arguments "" win over the streamed ones (finish
        # with input ""), and a divergent argsDone replaces the buffer.
        payload_change(
            PayloadHeld.VALUE,
            OfferRelation.EMPTY,
            PayloadDecision(PayloadAction.TAKE, None),
            "A.2, A.6: an empty done argument string erases streamed arguments",
        ),
        payload_change(
            PayloadHeld.VALUE,
            OfferRelation.DIFFERS,
            PayloadDecision(PayloadAction.TAKE, None),
            "A.2, A.6: a divergent final value silently replaces the buffer",
        ),
        # A.1.1, A.6: normalize replaces the event's item_id with the id registered at
        # its output_index: the slot wins even when the item_id names another item.
        *(
            route_change(
                SlotView.ONE,
                id_view,
                Route(RouteAction.BY_SLOT, None),
                "A.1.1, A.6: output_index beats the event's own item_id",
            )
            for id_view in (IdView.ONE_OUTSIDE, IdView.SEVERAL_OUTSIDE)
        ),
    ),
    (
        "No call_id identity (A.1.3, A.6): two items with different ids and the same "
        "call_id become two calls in opencode; the driver matches items by call_id "
        "before any table is read.",
        "Slot overwrite (A.1.2, A.6): a second output_item.added at an output_index "
        "re-points later events to the newest item; the driver's by-slot route always "
        "takes the slot's first binding, so the reference slot table (shared slot, "
        "ambiguous_route) is kept.",
        "An empty arguments string is parsed as {} (A.2); payloads are opaque strings "
        'here, so the erased value is "".',
        "The result writer (driver code) never blanks a non-empty field of the merged "
        'item: a done with arguments "" after a done with arguments erases the channel '
        "(what the invariants read) but the result keeps the first done's arguments; "
        "after streamed deltas the erasure shows in the result too.",
        "A function_call added without call_id, or done without call_id or name, is "
        "ignored (A.1.3, A.1.5); admission is driver code.",
        "Minted ids are fc_ + 32 random hex digits (A.1.1); ids are not table cells.",
    ),
)
"""opencode after #46885 and #46965 (peer-implementations.md A)."""

AXONHUB = policy(
    "axonhub",
    "AxonHub's outbound aggregator in the PR #2038 era, with its reported bug: "
    "output_item.done is authoritative, so once it arrived the response.completed item "
    "of that call is skipped entirely -- even when the done item's arguments were empty "
    "and the snapshot carries the real ones; argument events are looked up by item_id "
    "before output_index.",
    "reference/peer-implementations.md C.1, C.2 and 'The reported bug' (id 58349715313)",
    (
        # C.2 precedence and the reported bug: fromCompletedResponse && outputItemDone
        # -> return.  The empty done arguments were ignored, so the call keeps "".
        lifecycle_change(
            _S.DONE,
            _T.SNAPSHOT_ITEM,
            Transition(_S.COMPLETED, ()),
            "C.2 reported bug: the completed.output item of a done call is skipped",
        ),
        # C.1: argument events look up event call_id, then item_id, and only then the
        # output_index slot: an item_id naming one call routes there whatever the slot.
        *(
            route_change(
                slot_view,
                IdView.ONE_OUTSIDE,
                Route(RouteAction.BY_ID, None),
                "C.1: item_id is looked up before output_index",
            )
            for slot_view in (SlotView.ONE, SlotView.SHARED)
        ),
        # C.1, C.2: "call_id is overwritten by any later item that carries one";
        # "name/namespace: any non-empty final value overwrites".
        identity_change(
            IdentityRelation.DIFFERS,
            IdentityDecision(PayloadAction.TAKE, None),
            "C.1, C.2: a later item's call_id, name or namespace overwrites the first",
        ),
    ),
    (
        "Provisional calls (added and deltas, nothing confirming) are dropped at "
        "response.completed (C.2, roundtrip test 21); no table effect removes an entry, "
        "so here they stay unconfirmed, non-executable items, as in the reference.",
        "An explicit empty final custom tool input clears the streamed input (C.2); the "
        "payload table does not know the channel kind, so the function-argument rule "
        "(empty never replaces) applies to every channel.",
        "'ambiguous tool call output_index N' ends the stream with an error (C.3); here "
        "it is an ambiguous_route diagnostic and the rest of the stream is reduced.",
        "Argument events are also looked up by their call_id and by item_id read as a "
        "call_id (C.1); the driver routes by output_index and item_id only.",
        "Calls are emitted in first-seen order (C.2); results here are ordered by "
        "output_index (R10).",
    ),
)
"""AxonHub's aggregator with the reported bug (peer-implementations.md C)."""

CODEX = policy(
    "codex",
    "openai/codex's stream loop: the output_item.done item is the only source of a "
    "call's arguments; deltas feed only the apply_patch preview, "
    "function_call_arguments.done is not handled, response.completed.output is ignored, "
    "and a duplicate done is dispatched twice (the later history repair that drops "
    "duplicates is not part of the stream loop).",
    "reference/peer-implementations.md B.1, B.2 (codex-api sse/responses.rs 0a7fb0d7)",
    (
        # B.2: ToolCallInputDelta only feeds the diff consumer; argsDone is not handled.
        *(
            lifecycle_change(
                state,
                _T.DELTA,
                Transition(_S.STREAMING, ()),
                "B.2: argument deltas are not the call's arguments",
            )
            for state in (_S.ADDED, _S.STREAMING)
        ),
        *(
            lifecycle_change(
                state,
                _T.PAYLOAD_DONE,
                Transition(state, ()),
                "B.2: function_call_arguments.done is not handled",
            )
            for state in (_S.ADDED, _S.STREAMING)
        ),
        # B.2: response.output is ignored: a completed-only call is never executed and
        # nothing is recovered or corrected from the snapshot.
        lifecycle_change(
            _S.ABSENT,
            _T.SNAPSHOT_ITEM,
            Transition(_S.ABSENT, ()),
            "B.2: a call seen only in completed.output is lost",
        ),
        *(
            lifecycle_change(
                state,
                _T.SNAPSHOT_ITEM,
                Transition(state, (_E.NOTE_UNCONFIRMED,)),
                "B.2: a call without output_item.done is never executed",
            )
            for state in (_S.ADDED, _S.STREAMING)
        ),
        lifecycle_change(
            _S.DONE,
            _T.SNAPSHOT_ITEM,
            Transition(_S.COMPLETED, ()),
            "B.2: completed.output does not touch a done call",
        ),
        # B.2, D: no dedup in the stream loop -- a duplicate done is dispatched twice.
        lifecycle_change(
            _S.DONE,
            _T.ITEM_DONE,
            Transition(_S.DONE, _CLOSE.effects),
            "B.2: a duplicate output_item.done is dispatched twice",
        ),
    ),
    (
        "Calls are dispatched at output_item.done (B.2), before the response ends; "
        "executability (R9: response completed and call confirmed) is driver code, so "
        "a codex call on an incomplete response is not executable here.",
        "Tool calls are not tracked from output_item.added (B.1): an added-only call "
        "leaves no trace in codex; here it stays an unconfirmed, non-executable item.",
        "A done item without id gets a fresh fc_<uuidv7> (B.1); ids are not table cells "
        "(the driver adopts the id the slot's added carried).",
        "item_id and output_index route nothing in codex (B.1); since deltas and "
        "argsDone change nothing in this policy, the reference routing table is kept "
        "and decides only which diagnostics appear.",
    ),
)
"""codex's done-only rule (peer-implementations.md B)."""

REFERENCE_POLICY = Policy(
    "reference",
    "The rules this project stands behind (DESIGN section 2).",
    "DESIGN.md section 2",
    REFERENCE,
    (),
    (),
)
"""The reference model, as a policy, so that it can be named wherever a policy can."""

POLICY_LIST: tuple[Policy, ...] = (REFERENCE_POLICY, OPENCODE, AXONHUB, CODEX)
"""Every policy, the reference first."""

POLICIES: dict[str, Policy] = {entry.name: entry for entry in POLICY_LIST}
"""Every policy, by name."""

PEER_POLICIES: tuple[Policy, ...] = POLICY_LIST[1:]
"""The peers' policies (everything but the reference)."""


def prove_policy(
    policy: Policy,
    invariant: str | None = None,
    bound: tuple[int, int] = DEFAULT_BOUND,
    depth: int = DEFAULT_DEPTH,
    unbounded: bool = True,
    matcher: bool = False,
) -> list[ProofResult]:
    """``prove.prove`` on ``policy``'s tables, every invariant (or ``invariant``);
    ``matcher`` adds the rows over the matcher (the peers' documented breaks are
    lifecycle questions, so their runs leave them out).

    The proof for any number of entries and slots is attempted only where the bounded
    proof held: a refuted invariant has no unbounded proof to find, and Z3 spends its
    whole timeout to answer ``unknown`` there.  The proof for any number of channels
    too (``any_channels``) only where that one held.
    """
    results: list[ProofResult] = []
    for bounded in prove(invariant, policy.tables, bound, depth, matcher=False):
        results.append(bounded)
        if unbounded and bounded.status is Status.PROVED_BOUNDED and bounded.invariant in UNBOUNDED:
            results.append(over_unbounded(bounded.invariant, policy.tables))
            proved = results[-1].status is Status.PROVED_UNBOUNDED
            if proved and bounded.invariant in ANY_CHANNELS:
                results.append(over_any_channels(bounded.invariant, policy.tables))
        if matcher and bounded.invariant in MATCHER_PROPERTIES:
            results.append(over_matcher(bounded.invariant, policy.tables))
    return results
