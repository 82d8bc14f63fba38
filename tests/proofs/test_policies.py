"""The peers' policies: what Z3 refutes on each, on streams that show the documented
behaviour, and where two policies first disagree.

Every counterexample stream is reduced with the policy's generated reducer and with the
reference reducer: the policy must show the peer's documented bad outcome
(``reference/peer-implementations.md``), the reference the right answer.  The proofs
run at 2x2 entries and slots: bounded model checking searches at the first bound whose
induction fails, which is 2x2 for every refutation here, so the streams are the ones
the default bounds give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.invariants import (
    INVARIANTS,
    INVARIANTS_BY_NAME,
    ChannelSnapshot,
    ResponseSnapshot,
)
from responses_oracle.model.tables import REFERENCE, ModelTables
from responses_oracle.model.vocabulary import PAYLOAD_EFFECTS, EntryState, Trigger
from responses_oracle.proofs.conformance import follow
from responses_oracle.proofs.distinguishing import (
    ALPHABET,
    ARGUMENTS,
    outcome,
    shortest_difference,
    stream_events,
    streams,
)
from responses_oracle.proofs.inventory import ProofResult, Status
from responses_oracle.proofs.policies import (
    AXONHUB,
    CODEX,
    OPENCODE,
    PEER_POLICIES,
    POLICIES,
    Policy,
    prove_policy,
)
from responses_oracle.reducer import Reducer

Event = dict[str, Any]

BOUND = (2, 2)

BROKEN: dict[str, set[str]] = {
    "opencode": {
        "complete_once",
        "ambiguity_rejected",
        "late_is_inert",
        "empty_never_erases",
        "latest_nonempty_wins",
        "nothing_lost",
        "executable_needs_completion",
    },
    "axonhub": {
        "first_admission_wins",
        "ambiguity_rejected",
        "empty_never_erases",
        "latest_nonempty_wins",
    },
    "codex": {
        "complete_once",
        "late_is_inert",
        "nothing_lost",
        "empty_never_erases",
        "latest_nonempty_wins",
    },
}
"""The invariants each policy breaks, as Z3 finds them."""


@pytest.fixture(scope="module")
def proofs() -> dict[str, dict[str, ProofResult]]:
    """The bounded verdict of every invariant of DESIGN section 4 on every peer policy,
    proved once.  Not the completeness obligations (``model.completeness``): their
    verdicts on the peers are not documented peer behaviour yet, so no test reads them
    (``prove --policy`` still proves them)."""
    return {
        policy.name: {
            result.invariant: result
            for invariant in INVARIANTS_BY_NAME
            for result in prove_policy(policy, invariant, bound=BOUND, unbounded=False)
        }
        for policy in PEER_POLICIES
    }


class Reduced:
    """A stream reduced by one policy: the state before the last event, after it, and
    the result (JSON) once the input ended."""

    def __init__(self, tables: ModelTables, events: list[Event]) -> None:
        reducer = Reducer(kernels=load_kernels(tables))
        reducer.feed_all(events[:-1])
        self.before: ResponseSnapshot = reducer.snapshot()
        reducer.feed(events[-1])
        self.after: ResponseSnapshot = reducer.snapshot()
        (result,) = reducer.finish()
        self.result: dict[str, Any] = result.to_json()

    def completions(self) -> list[int]:
        return [entry.completions for entry in self.after.entries]

    def arguments(self) -> dict[str, str | None]:
        return {
            item["item"]["call_id"]: item["item"].get("arguments")
            for item in self.result["items"]
        }

    def channels(self) -> list[ChannelSnapshot]:
        return [channel for entry in self.after.entries for channel in entry.channels]

    def codes(self) -> set[str]:
        return {diagnostic["code"] for diagnostic in self.result["diagnostics"]}


def _types(events: list[Event]) -> list[str]:
    return [str(event["type"]).removeprefix("response.") for event in events]


def _duplicate_done(policy: Reduced, reference: Reduced) -> None:
    # A.6 / B.2: the duplicate done completes the call a second time.
    assert policy.completions() == [2]
    assert reference.completions() == [1] and "duplicate_item" in reference.codes()
    assert len(policy.result["items"]) == len(reference.result["items"]) == 1


def _empty_done_erases(policy: Reduced, reference: Reduced) -> None:
    # A.2 / A.6: the second done's "" wins over the arguments the first one carried.
    (erased,) = policy.channels()
    assert (erased.final, erased.last_nonempty_offer) == ("", '{"entry": 0}')
    (kept,) = reference.channels()
    assert (kept.final, kept.last_nonempty_offer) == ('{"entry": 0}', '{"entry": 0}')
    assert "duplicate_item" in reference.codes()
    # The result writer never blanks a non-empty field of the merged item (driver code,
    # listed in OPENCODE.not_modelled), so only the channel shows it here; after
    # streamed deltas the result shows it too (test_section_d_inputs_...).
    assert policy.arguments() == reference.arguments() == {"call_0": '{"entry": 0}'}


def _snapshot_skipped(policy: Reduced, reference: Reduced) -> None:
    # C.2 "the reported bug" (and A.2 for opencode): a call already done ignores the
    # arguments response.completed carries; B.2: codex ignores response.completed.output.
    # The snapshot is an offer all the same (R3), so the loss is a violation.
    (channel,) = policy.channels()
    assert (channel.final or "", channel.last_nonempty_offer) == ("", '{"entry": 0}')
    assert not policy.arguments()["call_0"]
    assert reference.arguments() == {"call_0": '{"entry": 0}'}


def _reopened(policy: Reduced, reference: Reduced) -> None:
    # A.1.6: a replayed added after done reopens the finished call.
    assert [e.state for e in policy.before.entries] == [EntryState.DONE]
    assert [e.state for e in policy.after.entries] == [EntryState.ADDED]
    assert [e.state for e in reference.after.entries] == [EntryState.DONE]
    assert "duplicate_item" in reference.codes()


def _snapshot_only_lost(policy: Reduced, reference: Reduced) -> None:
    # A.2 test 8 / B.2: a call seen only in response.completed is not in the items.
    assert policy.result["items"] == []
    (item,) = reference.result["items"]
    assert item["item"]["call_id"] == "call_0" and item["executable"]


def _flushed(policy: Reduced, reference: Reduced) -> None:
    # A.2 finishAll / A.4 test 11: an unconfirmed pending call becomes executable.
    assert [item["executable"] for item in policy.result["items"]] == [True]
    assert [item["executable"] for item in reference.result["items"]] == [False]
    assert "unconfirmed_item" in reference.codes()


def _renamed(policy: Reduced, reference: Reduced) -> None:
    # C.1 / C.2: the done item's different name replaces the one the call was added with.
    assert [item["item"]["name"] for item in policy.result["items"]] == ["tool_0_renamed"]
    assert [item["item"]["name"] for item in reference.result["items"]] == ["tool_0"]
    assert "metadata_conflict" in reference.codes()
    assert "metadata_conflict" not in policy.codes()


def _routed_to(call_id: str) -> Callable[[Reduced, Reduced], None]:
    def check(policy: Reduced, reference: Reduced) -> None:
        # The delta carries output_index 0 (call_0's) and item_id fc_1 (call_1's).
        assert {k: v for k, v in policy.arguments().items() if v} == {call_id: " "}
        assert reference.arguments() == {"call_0": "", "call_1": ""}
        assert "ambiguous_route" in reference.codes()

    return check


# (policy, invariant) -> the event types of the shortest stream, and its outcome.
DOCUMENTED: dict[tuple[str, str], tuple[list[str], Callable[[Reduced, Reduced], None]]] = {
    ("opencode", "complete_once"): (
        ["created", "output_item.done", "output_item.done"],
        _duplicate_done,
    ),
    ("opencode", "empty_never_erases"): (
        ["created", "output_item.done", "completed"],
        _snapshot_skipped,
    ),
    ("opencode", "latest_nonempty_wins"): (
        ["created", "output_item.done", "completed"],
        _snapshot_skipped,
    ),
    ("opencode", "late_is_inert"): (
        ["created", "output_item.done", "output_item.added"],
        _reopened,
    ),
    ("opencode", "nothing_lost"): (["created", "completed"], _snapshot_only_lost),
    ("opencode", "executable_needs_completion"): (
        ["created", "output_item.added", "completed"],
        _flushed,
    ),
    ("opencode", "ambiguity_rejected"): (
        ["created", "output_item.added", "output_item.added", "function_call_arguments.delta"],
        # A.1.1: output_index beats the event's own item_id.
        _routed_to("call_0"),
    ),
    ("axonhub", "empty_never_erases"): (
        ["created", "output_item.done", "completed"],
        _snapshot_skipped,
    ),
    ("axonhub", "latest_nonempty_wins"): (
        ["created", "output_item.done", "completed"],
        _snapshot_skipped,
    ),
    ("axonhub", "first_admission_wins"): (
        ["created", "output_item.added", "output_item.done"],
        _renamed,
    ),
    ("axonhub", "ambiguity_rejected"): (
        ["created", "output_item.added", "output_item.added", "function_call_arguments.delta"],
        # C.1: item_id is looked up before output_index.
        _routed_to("call_1"),
    ),
    ("codex", "complete_once"): (
        ["created", "output_item.done", "output_item.done"],
        _duplicate_done,
    ),
    ("codex", "late_is_inert"): (
        ["created", "output_item.done", "output_item.done"],
        _duplicate_done,
    ),
    ("codex", "nothing_lost"): (["created", "completed"], _snapshot_only_lost),
    ("codex", "empty_never_erases"): (
        ["created", "output_item.added", "completed"],
        _snapshot_skipped,
    ),
    ("codex", "latest_nonempty_wins"): (
        ["created", "output_item.added", "completed"],
        _snapshot_skipped,
    ),
}
"""Every refutation, with the peer behaviour its stream shows."""


@pytest.mark.parametrize("policy", PEER_POLICIES, ids=lambda p: p.name)
def test_z3_refutes_what_the_peer_is_documented_to_break(
    policy: Policy, proofs: dict[str, dict[str, ProofResult]]
) -> None:
    results = proofs[policy.name]
    assert set(results) == {invariant.name for invariant in INVARIANTS}
    refuted = {name for name, r in results.items() if r.status is Status.COUNTEREXAMPLE}
    assert refuted == BROKEN[policy.name]
    assert refuted == {name for p, name in DOCUMENTED if p == policy.name}
    kernels = load_kernels(policy.tables)
    for name in refuted:  # the stream drives the policy's reducer as the trace says
        result = results[name]
        assert result.counterexample is not None and result.expected is not None
        assert follow(result.counterexample, result.expected, kernels).mismatches == ()
    # Every invariant is decided on every policy: proved where not refuted.
    assert {r.status for name, r in results.items() if name not in refuted} == {
        Status.PROVED_BOUNDED
    }


@pytest.mark.parametrize("case", sorted(DOCUMENTED), ids=lambda case: "-".join(case))
def test_each_counterexample_shows_the_documented_behaviour(
    case: tuple[str, str], proofs: dict[str, dict[str, ProofResult]]
) -> None:
    name, invariant = case
    events = proofs[name][invariant].counterexample
    assert events is not None
    types, check = DOCUMENTED[case]
    assert _types(events) == types
    check(Reduced(POLICIES[name].tables, events), Reduced(REFERENCE, events))


def _call(arguments: str, status: str) -> Event:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "lookup",
        "arguments": arguments,
        "status": status,
    }


def _stream(*events: Event) -> list[Event]:
    created = {"type": "response.created", "response": {"id": "resp_d", "output": []}}
    return [created, *events]


def _added() -> Event:
    item = _call("", "in_progress")
    return {"type": "response.output_item.added", "output_index": 0, "item": item}


def _delta(text: str) -> Event:
    return {
        "type": "response.function_call_arguments.delta",
        "output_index": 0,
        "item_id": "fc_1",
        "delta": text,
    }


def _done(arguments: str) -> Event:
    item = _call(arguments, "completed")
    return {"type": "response.output_item.done", "output_index": 0, "item": item}


def _completed(*arguments: str, output: bool = True) -> Event:
    response: Event = {"id": "resp_d", "status": "completed"}
    if output:
        response["output"] = [_call(a, "completed") for a in arguments]
    return {"type": "response.completed", "response": response}


A, Q, X = '{"a":1}', "{}", '{"q":"x"}'

# peer-implementations.md section D: the same input, each peer's answer, as
# (arguments, executable) of the one call (None: no item at all).
SECTION_D: list[tuple[str, list[Event], dict[str, tuple[str, bool] | None]]] = [
    (
        "streamed args, empty done",
        _stream(_added(), _delta(A), _done(""), _completed(output=False)),
        # opencode: done "" wins (A.2); codex: the done item is the only source (B.2).
        {"reference": (A, True), "opencode": ("", True), "codex": ("", True), "axonhub": (A, True)},
    ),
    (
        "the reported bug: empty done, real args in completed",
        _stream(_added(), _done(""), _completed(A)),
        {"reference": (A, True), "opencode": ("", True), "codex": ("", True),
         "axonhub": ("", True)},
    ),
    (
        "no done, completed corrects the deltas",
        _stream(_added(), _delta(Q), _completed(X)),
        # codex: no done, no call (here: an unconfirmed, non-executable item).
        {"reference": (X, True), "opencode": (X, True), "codex": ("", False), "axonhub": (X, True)},
    ),
    (
        "no done, completed without output",
        _stream(_added(), _delta(Q), _completed(output=False)),
        # opencode flushes the pending call (A.2); AxonHub drops it (not modelled: kept,
        # not executable, as the reference does).
        {"reference": (Q, False), "opencode": (Q, True), "codex": ("", False),
         "axonhub": (Q, False)},
    ),
]


@pytest.mark.parametrize("case", SECTION_D, ids=[case[0] for case in SECTION_D])
def test_section_d_inputs_give_each_peers_answer(
    case: tuple[str, list[Event], dict[str, tuple[str, bool] | None]],
) -> None:
    _, events, answers = case
    for name, expected in answers.items():
        (item,) = Reduced(POLICIES[name].tables, events).result["items"]
        assert (item["item"]["arguments"], item["executable"]) == expected, name


def test_section_d_duplicate_done_completes_twice_in_opencode_and_codex_only() -> None:
    events = _stream(_added(), _delta(A), _done(A), _done(A), _completed(A))
    completions = {
        name: Reduced(policy.tables, events).completions() for name, policy in POLICIES.items()
    }
    assert completions == {"reference": [1], "opencode": [2], "axonhub": [1], "codex": [2]}


def test_the_axonhub_bug_is_reproduced_and_refuted_by_the_payload_invariants(
    proofs: dict[str, dict[str, ProofResult]],
) -> None:
    # The reducer reproduces it (test_section_d_inputs_give_each_peers_answer), and the
    # payload invariants count the snapshot item as an offer on arrival (R3), so the
    # skipped snapshot is a counterexample, not a silent loss.
    for invariant in ("empty_never_erases", "latest_nonempty_wins"):
        assert proofs["axonhub"][invariant].status is Status.COUNTEREXAMPLE
    assert AXONHUB.unoffered == ((EntryState.DONE, Trigger.SNAPSHOT_ITEM),)
    assert AXONHUB.unoffered_cells == ("(done, snapshot_item)",)
    found = shortest_difference(REFERENCE, AXONHUB.tables).difference
    assert found is not None and found.shapes == ("done empty", "completed")
    assert found.a["items"][0]["item"]["arguments"] == ARGUMENTS
    assert found.b["items"][0]["item"]["arguments"] == ""


def test_every_change_is_a_real_change_with_its_evidence() -> None:
    for policy in PEER_POLICIES:
        assert policy.tables.name == policy.name
        assert policy.not_modelled, policy.name
        for change in policy.changes:
            assert change.evidence[0] in "ABC" and "." in change.evidence, change
            # Each cell differs from the reference, and setting it again changes nothing.
            assert change.apply(policy.tables) == policy.tables
            assert change.apply(REFERENCE) != REFERENCE
    assert POLICIES["reference"].tables == REFERENCE


def test_unoffered_lists_cells_that_ignore_a_payload_the_reference_offers() -> None:
    assert OPENCODE.unoffered_cells == ("(absent, snapshot_item)", "(done, snapshot_item)")
    for state, trigger in CODEX.unoffered:
        row = REFERENCE.lifecycle[state][trigger]
        assert any(effect in PAYLOAD_EFFECTS for effect in row.effects)
        assert not set(CODEX.tables.lifecycle[state][trigger].effects) & set(PAYLOAD_EFFECTS)
    assert (EntryState.ADDED, Trigger.DELTA) in CODEX.unoffered
    assert POLICIES["reference"].unoffered == ()


@pytest.mark.parametrize(
    ("a", "b", "shapes"),
    [
        # A.2 test 8 / B.2: a completed-only call is lost.
        ("reference", "opencode", ("completed empty",)),
        ("reference", "codex", ("completed empty",)),
        # C.2 reported bug.
        ("reference", "axonhub", ("done empty", "completed")),
        # B.2: deltas are not codex's arguments.
        ("opencode", "codex", ("added", "delta")),
    ],
)
def test_diff_policies_finds_the_shortest_disagreement(
    a: str, b: str, shapes: tuple[str, ...]
) -> None:
    found = shortest_difference(POLICIES[a].tables, POLICIES[b].tables)
    assert found.difference is not None and found.difference.shapes == shapes
    events = list(found.difference.events)
    assert events == stream_events(tuple(s for name in shapes for s in ALPHABET if s.name == name))
    assert found.difference.a == outcome(load_kernels(POLICIES[a].tables), events)
    assert found.difference.b == outcome(load_kernels(POLICIES[b].tables), events)
    assert found.difference.a != found.difference.b
    # Nothing shorter differs, and the search is deterministic.
    for shorter in streams(len(shapes) - 1):
        before = stream_events(shorter)
        assert outcome(load_kernels(POLICIES[a].tables), before) == outcome(
            load_kernels(POLICIES[b].tables), before
        )
    assert shortest_difference(POLICIES[a].tables, POLICIES[b].tables) == found


def test_the_opencode_codex_difference_is_the_streamed_arguments() -> None:
    found = shortest_difference(OPENCODE.tables, CODEX.tables).difference
    assert found is not None
    assert [item["item"]["arguments"] for item in found.a["items"]] == [ARGUMENTS]
    assert [item["item"]["arguments"] for item in found.b["items"]] == [""]


def test_identical_tables_are_not_searched() -> None:
    found = shortest_difference(CODEX.tables, CODEX.tables)
    assert found.identical and found.difference is None and found.searched == 0


def test_diagnostics_can_make_a_difference_shorter() -> None:
    without = shortest_difference(REFERENCE, OPENCODE.tables, max_length=2)
    with_codes = shortest_difference(REFERENCE, OPENCODE.tables, max_length=2, diagnostics=True)
    assert without.difference is not None and with_codes.difference is not None
    assert "diagnostics" in with_codes.difference.a
    assert "diagnostics" not in without.difference.a
    assert with_codes.searched <= without.searched


def test_streams_are_shortlex_and_end_at_a_terminal() -> None:
    ongoing = sum(not shape.terminal for shape in ALPHABET)
    listed = list(streams(2))
    assert len(listed) == len(ALPHABET) * (1 + ongoing)
    assert [len(s) for s in listed] == sorted(len(s) for s in listed)
    assert all(not shape.terminal for stream in listed for shape in stream[:-1])
