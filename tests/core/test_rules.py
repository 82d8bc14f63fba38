"""Rules R1-R12 of DESIGN section 2, each shown on the smallest streams that exercise it.

Every test asserts the whole outcome a user sees: the items of the result contract (order,
``output_index``, wire-shaped item, ``id_source``, ``payload_source``, ``state``,
``executable``), the response status, and the exact multiset of diagnostic codes.  A test
marked ``xfail(strict=True)`` with a ``BUG:`` reason pins a place where the reducer
contradicts DESIGN.md, one with ``DESIGN GAP:`` a place where DESIGN.md is silent and the
test states the answer we chose; either must start passing once the reducer follows it.
Comments starting "Decision" mark the other answers chosen where DESIGN.md is silent.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from differential.invariant_check import check_invariants
from responses_oracle import Reducer, replay_input
from responses_oracle.core.ids import mint_item_id, synthetic_output_id
from responses_oracle.model.admission import IdentityDecision
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import REFERENCE
from responses_oracle.model.vocabulary import (
    SEVERITY,
    Code,
    IdentityRelation,
    PayloadAction,
    Severity,
)
from responses_oracle.proofs.mutants import MUTANTS, with_identity_cell
from responses_oracle.wire.records import WireEvent

from .streams import (
    Event,
    Item,
    added,
    args_done,
    codes,
    completed,
    created,
    ctc,
    delta,
    done,
    ended,
    event,
    fc,
    input_done,
    msg,
    numbered,
    only,
    part_event,
    payload_done,
    reduce1,
    reduce_all,
    refusal_part,
    row,
    rows,
    rs,
    text_part,
)

ARGS = '{"city":"Paris"}'


# -- R1 dispatch ------------------------------------------------------------------------


def _one_call(*middle: Any) -> list[Any]:
    """A complete one-call stream with ``middle`` spliced in after the item is added."""
    return [
        created(),
        added(0, fc("fc_1", "call_1", "get_weather")),
        *middle,
        args_done(0, "fc_1", ARGS),
        done(0, fc("fc_1", "call_1", "get_weather", ARGS)),
        completed([fc("fc_1", "call_1", "get_weather", ARGS)]),
    ]


CALL_ROW = row(0, fc("fc_1", "call_1", "get_weather", ARGS), "wire", "snapshot", "completed", True)


def test_r1_keepalive_is_a_no_op() -> None:
    result = reduce1(*_one_call(event("keepalive"), event("keepalive")))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == []


def test_r1_unknown_event_without_sequence_number_is_ignored_with_info() -> None:
    events = numbered(_one_call())
    events.insert(2, {"type": "acme:trace_event"})
    reducer = Reducer()
    reducer.feed_all(events)
    [result] = reducer.finish()
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["unknown_event"]


def test_r1_unknown_event_is_ignored_with_info() -> None:
    # An extension event consumes a sequence number like any other: no sequence_gap.
    result = reduce1(*_one_call(event("acme:trace_event", payload={"x": 1})))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["unknown_event"]


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ([1, 2], "not_an_object"),
        ("a string", "not_an_object"),
        (None, "not_an_object"),
        ({"sequence_number": 3, "delta": "x"}, "missing_type"),
        ({"type": 7}, "missing_type"),
    ],
)
def test_r1_undecodable_event_is_skipped_and_the_rest_reduced(bad: Any, code: str) -> None:
    result = reduce1(*_one_call(bad))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == [code]
    diagnostic = result.diagnostics[0]
    assert diagnostic.event_index == 2
    assert diagnostic.event == bad


def test_r1_malformed_wire_event_is_skipped_and_the_rest_reduced() -> None:
    reducer = Reducer()
    events = numbered(_one_call())
    reducer.feed(WireEvent(0, events[0]))
    reducer.feed(WireEvent(1, None, problem=Code.MALFORMED_EVENT, detail="bad JSON", raw="{oops"))
    for index, payload in enumerate(events[1:], start=2):
        reducer.feed(WireEvent(index, payload))
    [result] = reducer.finish()
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["malformed_event"]
    assert result.to_json()["diagnostics"] == [
        {
            "code": "malformed_event",
            "severity": "error",
            "event_index": 1,
            "sequence_number": None,
            "detail": "bad JSON",
            "event": "{oops",
        }
    ]


def test_r1_item_null_is_noted_and_changes_nothing() -> None:
    # Decision (DESIGN silent): `item: null` in `added` (openai-python#3125, which the
    # SDK tolerates since #3126) is noted as null_item (info) and otherwise ignored.
    result = reduce1(*_one_call(event("response.output_item.added", output_index=1, item=None)))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["null_item"]


@pytest.mark.parametrize("text", [None, "absent"], ids=["null", "absent"])
def test_r1_a_delta_without_its_text_is_reported_and_changes_nothing(text: str | None) -> None:
    # The published types require a delta's `delta`: one without it is reported
    # (invalid_field), not passed over in silence.  A `*.done` without its value is
    # R7's missing offer instead (test_r7_empty_or_missing_never_erases).
    bare = delta(0, "fc_1", "")
    if text is None:
        bare["delta"] = None
    else:
        del bare["delta"]
    result = reduce1(*_one_call(delta(0, "fc_1", ARGS), bare))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["invalid_field"]
    assert result.diagnostics[0].detail.endswith("delta is missing")


def test_r1_sse_event_name_is_only_cross_checked() -> None:
    reducer = Reducer()
    events = numbered(_one_call())
    names: list[str | None] = [
        "response.created",
        "response.output_item.done",  # lies: the JSON type wins
        "message",  # the SSE default name is not a mismatch
        None,  # data-only frames are fine
        "response.completed",
    ]
    for index, (payload, name) in enumerate(zip(events, names, strict=True)):
        reducer.feed(WireEvent(index, payload, sse_event=name))
    [result] = reducer.finish()
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["event_name_mismatch"]
    assert result.diagnostics[0].event_index == 1


# -- R2 keys ----------------------------------------------------------------------------


def test_r2_name_comes_from_the_item_not_from_arguments_done() -> None:
    result = reduce1(*_one_call(args_done(0, "fc_1", ARGS, name="evil")))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == []


def test_r2_name_missing_from_items_is_not_taken_from_arguments_done() -> None:
    # Decision: DESIGN makes executability depend on completion and confirmation only,
    # so a call whose items never carried a name is still executable, without a name.
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", None)),
        args_done(0, "fc_1", ARGS, name="evil"),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", None, ARGS), "wire", "payload_done", "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_r2_call_id_never_routes_a_payload_event() -> None:
    # An argument event naming the call only by call_id (as @ai-sdk/open-responses types
    # allow) and without a slot is an orphan: call_id is for admission only.
    result = reduce1(*_one_call(delta(None, None, "{}", call_id="call_1")))
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["orphan_event"]


# -- R3 slots and tombstones ------------------------------------------------------------


def test_r3_payload_events_on_a_tombstoned_slot_are_late() -> None:
    events = _one_call()
    events[-1:-1] = [
        delta(0, None, "{}"),
        delta(0, "fc_other", "{}"),
        args_done(0, "fc_1", '{"city":"Rome"}'),
    ]
    result = reduce1(*events)
    assert rows(result) == [CALL_ROW]
    assert codes(result) == ["late_event", "late_event", "late_event"]
    assert [d.event_index for d in result.diagnostics] == [4, 5, 6]
    assert result.diagnostics[0].event == numbered(events)[4]


def test_r3_a_tombstone_is_never_rebound_the_slot_becomes_shared() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "a")),
        done(0, fc("fc_1", "call_1", "a", "{}")),
        added(0, fc("fc_2", "call_2", "b")),
        delta(0, None, '{"x":1}'),  # only the slot names it: ambiguous, not "the newest"
        delta(0, "fc_2", '{"y":2}'),
        done(0, fc("fc_2", "call_2", "b")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", "a", "{}"), "wire", "item_done", "completed", True),
        row(0, fc("fc_2", "call_2", "b", '{"y":2}'), "wire", "deltas", "completed", True),
    ]
    assert codes(result) == [
        "ambiguous_route",
        "empty_payload_ignored",
        "slot_reused",
        "snapshot_absent",
    ]


def test_r3_live_slot_reused_keeps_both_items() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        added(0, fc("fc_2", "call_2")),
        delta(0, None, "{}"),
        delta(0, "fc_1", '{"a":1}'),
        delta(0, "fc_2", '{"b":2}'),
        done(0, fc("fc_2", "call_2", args=None)),
        done(0, fc("fc_1", "call_1", args=None)),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "deltas", "completed", True),
        row(0, fc("fc_2", "call_2", args='{"b":2}'), "wire", "deltas", "completed", True),
    ]
    assert codes(result) == ["ambiguous_route", "slot_reused", "snapshot_absent"]
    rejected = next(d for d in result.diagnostics if d.code is Code.AMBIGUOUS_ROUTE)
    assert rejected.event_index == 3
    assert rejected.event == delta(0, None, "{}") | {"sequence_number": 3}


# -- R4 aliases ---------------------------------------------------------------------------


def test_r4_every_id_an_entry_was_seen_with_resolves_to_it() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_a", "call_1")),
        delta(0, "fc_b", '{"x"'),  # rotated id, routed by slot, now an alias
        delta(None, "fc_b", ":1"),  # alias alone routes
        done(0, fc("fc_c", "call_1", args=None)),  # id changed under the same call_id
        completed([fc("fc_c", "call_1", args=None)]),
    )
    assert rows(result) == [
        row(0, fc("fc_a", "call_1", args='{"x":1'), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == [
        "id_changed",
        "id_changed",
        "invalid_json_arguments",
        "item_id_unrecognized",
    ]


def test_r4_an_alias_from_a_done_item_routes_later_events() -> None:
    # fc_c, seen only on the done item, names the entry: an event without a slot that
    # carries it reaches the entry, which is done, so the event is late.
    result = reduce1(
        created(),
        added(0, fc("fc_a", "call_1")),
        done(0, fc("fc_c", "call_1", args="{}")),
        delta(None, "fc_c", "late"),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_a", "call_1", args="{}"), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == ["id_changed", "late_event", "snapshot_absent"]


def test_r4_an_id_naming_several_entries_is_ambiguous() -> None:
    result = reduce1(
        created(),
        added(None, fc("fc_dup", "call_1")),
        added(None, fc("fc_dup", "call_2")),
        delta(None, "fc_dup", "{}"),
        done(None, fc("fc_dup", "call_1", args="{}")),
        done(None, fc("fc_dup", "call_2", args='{"b":1}')),
        completed(),
    )
    assert rows(result) == [
        row(None, fc("fc_dup", "call_1", args="{}"), "wire", "item_done", "completed", True),
        row(None, fc("fc_dup", "call_2", args='{"b":1}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["ambiguous_route", "snapshot_absent"]


# -- R5 routing: every row of the table ---------------------------------------------------

_X, _Y, _Z = fc("fc_x", "call_x"), fc("fc_y", "call_y"), fc("fc_z", "call_z")

ROUTING_SETUPS: dict[str, list[Event]] = {
    # slot 0 bound to X only; Y at slot 1
    "one": [added(0, _X), added(1, _Y)],
    # slot 0 shared by X and Y; Z at slot 1
    "shared": [added(0, _X), added(0, _Y), added(1, _Z)],
    # X and Y both carry the id fc_dup, at slots 0 and 1
    "dup": [added(0, fc("fc_dup", "call_x")), added(1, fc("fc_dup", "call_y"))],
    # X at slot 0; Y and Z both carry the id fc_dup, at slots 1 and 2
    "one_dup": [added(0, _X), added(1, fc("fc_dup", "call_y")), added(2, fc("fc_dup", "call_z"))],
    # X and Y share slot 0 and both carry the id fc_dup
    "shared_dup": [added(0, fc("fc_dup", "call_x")), added(0, fc("fc_dup", "call_y"))],
}


@pytest.mark.parametrize(
    ("setup", "probe", "receiver", "route_codes"),
    [
        # slot bound to one entry X
        ("one", delta(0, None, "{}"), "call_x", []),
        ("one", delta(0, "fc_rotated", "{}"), "call_x", ["item_id_unrecognized"]),
        ("one", delta(0, "fc_x", "{}"), "call_x", []),
        ("one", delta(0, "fc_y", "{}"), None, ["ambiguous_route"]),
        ("one_dup", delta(0, "fc_dup", "{}"), None, ["ambiguous_route"]),
        ("dup", delta(0, "fc_dup", "{}"), "call_x", []),  # names X (and Y): X
        # shared slot
        ("shared", delta(0, "fc_y", "{}"), "call_y", []),
        ("shared", delta(0, None, "{}"), None, ["ambiguous_route"]),
        ("shared", delta(0, "fc_rotated", "{}"), None, ["ambiguous_route"]),
        ("shared", delta(0, "fc_z", "{}"), None, ["ambiguous_route"]),
        ("shared_dup", delta(0, "fc_dup", "{}"), None, ["ambiguous_route"]),
        # unbound or absent slot
        ("one", delta(None, "fc_y", "{}"), "call_y", []),
        ("one", delta(7, "fc_y", "{}"), "call_y", []),
        ("dup", delta(None, "fc_dup", "{}"), None, ["ambiguous_route"]),
        ("dup", delta(7, "fc_dup", "{}"), None, ["ambiguous_route"]),
        ("one", delta(None, None, "{}"), None, ["orphan_event"]),
        ("one", delta(7, None, "{}"), None, ["orphan_event"]),
        ("one", delta(None, "fc_never", "{}"), None, ["orphan_event"]),
        ("one", delta(7, "fc_never", "{}"), None, ["orphan_event"]),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_r5_routing_table(
    setup: str, probe: Event, receiver: str | None, route_codes: list[str]
) -> None:
    setup_events = ROUTING_SETUPS[setup]
    result = reduce1(created(), *setup_events, probe, completed())
    arguments = {item.item["call_id"]: item.item["arguments"] for item in result.items}
    assert arguments == {
        entry["item"]["call_id"]: ("{}" if entry["item"]["call_id"] == receiver else "")
        for entry in setup_events
    }
    states = {item.item["call_id"]: item.state.value for item in result.items}
    assert states == {
        entry["item"]["call_id"]: ("streaming" if entry["item"]["call_id"] == receiver else "added")
        for entry in setup_events
    }
    slot_codes = ["slot_reused"] if setup.startswith("shared") else []
    unconfirmed = ["unconfirmed_item"] * len(setup_events)
    assert codes(result) == sorted([*route_codes, *slot_codes, *unconfirmed, "snapshot_absent"])
    for diagnostic in result.diagnostics:
        if diagnostic.code in (Code.AMBIGUOUS_ROUTE, Code.ORPHAN_EVENT):
            # A rejected or dropped event is reported with its index and itself.
            numbered_probe = numbered([created(), *setup_events, probe])[-1]
            assert diagnostic.event_index == len(setup_events) + 1
            assert diagnostic.sequence_number == numbered_probe["sequence_number"]
            assert diagnostic.event == numbered_probe


def test_r5_copilot_rotating_ids_route_by_slot() -> None:
    item = fc("enc_1", "call_1", "get_weather")
    result = reduce1(
        created(),
        added(0, item),
        delta(0, "enc_2", '{"city":'),
        delta(0, "enc_3", '"Paris"}'),
        args_done(0, "enc_4", ARGS),
        done(0, fc("enc_5", "call_1", "get_weather", ARGS)),
        completed([fc("enc_6", "call_1", "get_weather", ARGS)]),
    )
    assert rows(result) == [
        row(0, fc("enc_1", "call_1", "get_weather", ARGS), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == [
        "id_changed",
        "id_changed",
        "item_id_unrecognized",
        "item_id_unrecognized",
        "item_id_unrecognized",
    ]


def test_r5_shell_command_events_route_by_slot_alone() -> None:
    # protocol-notes 2.6: shell command events carry no item_id at all.
    shell = {
        "type": "shell_call",
        "id": "sh_1",
        "call_id": "call_s",
        "status": "in_progress",
        "action": {"commands": [], "timeout_ms": 1000},
    }
    final = shell | {
        "status": "completed",
        "action": {"commands": ["ls -la", ""], "timeout_ms": 1000},
    }
    result = reduce1(
        created(),
        added(0, shell),
        event("response.shell_call_command.added", output_index=0, command_index=0, command=""),
        delta(0, None, "ls", "shell_call_command", command_index=0),
        payload_done("shell_call_command", 0, None, "ls -la", command_index=0),
        event("response.shell_call_command.added", output_index=0, command_index=1, command=""),
        delta(0, None, "pwd", "shell_call_command", command_index=1),
        done(0, final),
        completed(),
    )
    expected = shell | {
        "status": "completed",
        "action": {"commands": ["ls -la", "pwd"], "timeout_ms": 1000},
    }
    assert rows(result) == [row(0, expected, "wire", "item_done", "completed", True)]
    assert codes(result) == ["empty_payload_ignored", "payload_extended", "snapshot_absent"]


# -- R6 admission -------------------------------------------------------------------------


def test_r6_replayed_added_is_a_duplicate_and_never_reopens_a_done_call() -> None:
    final = fc("fc_1", "call_1", "get_weather", ARGS)
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "get_weather")),
        delta(0, "fc_1", ARGS),
        done(0, final),
        added(0, fc("fc_1", "call_1", "get_weather")),
        delta(0, "fc_1", ARGS),
        done(0, final),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["duplicate_item", "duplicate_item", "late_event"]


def test_r6_replayed_added_while_open_is_a_duplicate() -> None:
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        delta(0, "msg_1", "Hel", "output_text", content_index=0),
        added(0, msg("msg_1")),
        delta(0, "msg_1", "lo", "output_text", content_index=0),
        done(0, msg("msg_1", text_part("Hello"))),
        completed(),
    )
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Hello")), "wire", "item_done", "completed", False)
    ]
    assert codes(result) == ["duplicate_item", "part_not_added", "snapshot_absent"]


def test_r6_done_only_item_is_recovered() -> None:
    final = fc("fc_1", "call_1", "get_weather", ARGS)
    reducer = Reducer()
    reducer.feed_all(numbered([created(), done(0, final)]))
    assert [e.state.value for e in reducer.snapshot().entries] == ["done"]
    reducer.feed(completed())
    [result] = reducer.finish()
    assert rows(result) == [row(0, final, "wire", "item_done", "completed", True)]
    assert codes(result) == ["done_only_item", "snapshot_absent"]


def test_r6_snapshot_only_items_are_recovered_at_their_array_position() -> None:
    message = msg("msg_1", text_part("Calling."))
    call = fc("fc_1", "call_1", "get_weather", ARGS)
    result = reduce1(created(), completed([message, call]))
    assert rows(result) == [
        row(0, message, "wire", "snapshot", "completed", False),
        row(1, call, "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == ["snapshot_only_item"] * 2  # reported, never streamed


def test_r6_first_admission_wins_and_conflicts_are_reported() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "get_weather", namespace="tools")),
        done(0, fc("fc_1", "call_1", "set_weather", ARGS, namespace="other")),
        completed([fc("fc_1", "call_1", "get_weather", ARGS, namespace="tools")]),
    )
    expected = fc("fc_1", "call_1", "get_weather", ARGS, namespace="tools")
    assert rows(result) == [row(0, expected, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["metadata_conflict", "metadata_conflict"]


def test_r6_every_identity_field_is_decided_by_the_identity_table() -> None:
    # merge_item asks the identity kernel for call_id, name and namespace alike: with
    # the DIFFERS cell of every field mutated to TAKE, both conflicting fields are
    # overwritten; with only the name's mutated, only the name.
    every_field = with_identity_cell(
        REFERENCE,
        "every-field-overwrites",
        IdentityRelation.DIFFERS,
        IdentityDecision(PayloadAction.TAKE, Code.METADATA_CONFLICT),
    )
    stream = [
        created(),
        added(0, fc("fc_1", "call_1", "get_weather", namespace="tools")),
        done(0, fc("fc_1", "call_1", "set_weather", ARGS, namespace="other")),
        completed(),
    ]

    def reduced(tables: Any) -> Any:
        reducer = Reducer(kernels=load_kernels(tables))
        reducer.feed_all(stream)
        (result,) = reducer.finish()
        return result

    renamed = reduced(MUTANTS["later-name-overwrites"].tables)
    assert [(e.item["name"], e.item["namespace"]) for e in renamed.items] == [
        ("set_weather", "tools")
    ]
    result = reduced(every_field)
    expected = fc("fc_1", "call_1", "set_weather", ARGS, namespace="other")
    assert rows(result) == [row(0, expected, "wire", "item_done", "completed", True)]
    conflicts = [d.detail for d in result.diagnostics if d.code is Code.METADATA_CONFLICT]
    assert [m.split()[0] for m in conflicts] == ["name", "namespace"]
    assert all(m.endswith("took the new one") for m in conflicts)


def test_r6_missing_identity_is_filled_by_later_items() -> None:
    # AxonHub #14/#27: the added item lacks call_id, name and namespace; done supplies them.
    result = reduce1(
        created(),
        added(0, fc("fc_1", None, "")),
        delta(0, "fc_1", ARGS),
        done(0, fc("fc_1", "call_1", "get_weather", ARGS, namespace="tools")),
        completed(),
    )
    expected = fc("fc_1", "call_1", "get_weather", ARGS, namespace="tools")
    assert rows(result) == [row(0, expected, "wire", "item_done", "completed", True)]
    assert codes(result) == ["snapshot_absent"]


def test_r6_id_changed_under_the_same_call_id_is_info() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_old", "call_1")),
        done(0, fc("fc_new", "call_1", args="{}")),
        completed([fc("fc_newer", "call_1", args="{}")]),
    )
    assert rows(result) == [
        row(0, fc("fc_old", "call_1", args="{}"), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == ["id_changed", "id_changed"]


def test_r6_call_id_held_by_another_item_type_is_not_admitted() -> None:
    call = fc("fc_1", "call_1", "get_weather", ARGS)
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "get_weather")),
        added(1, ctc("ctc_1", "call_1", "apply_patch")),
        done(1, ctc("ctc_1", "call_1", "apply_patch", "patch")),
        done(0, call),
        completed([call, ctc("ctc_1", "call_1", "apply_patch", "patch")]),
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["duplicate_call_id", "duplicate_call_id", "duplicate_call_id"]


def test_r6_match_keys_naming_different_entries_are_ambiguous() -> None:
    # The id-less, call_id-less entry at slot 0 is compatible with the done item; the
    # item's call_id names the entry at slot 1: two keys, two entries -> reject.
    result = reduce1(
        created(),
        added(0, fc(None, None, "a")),
        added(1, fc("fc_2", "call_2", "b")),
        done(0, fc(None, "call_2", "b", "{}")),
        done(1, fc("fc_2", "call_2", "b", '{"ok":1}')),
        completed(),
    )
    minted = mint_item_id("resp_1", 0, 0, "function_call")
    assert rows(result) == [
        row(0, fc(minted, None, "a"), "minted", "none", "added", False),
        row(1, fc("fc_2", "call_2", "b", '{"ok":1}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["ambiguous_route", "id_minted", "snapshot_absent", "unconfirmed_item"]


def test_r6_an_unseen_id_at_the_items_own_slot_is_a_rotated_id() -> None:
    # Changed from DESIGN's letter (see the issue note): without call_ids, a done item
    # whose id names no entry is matched through its slot — GitHub Copilot rotates ids
    # on every event and vLLM's final ids differ — and first admission keeps the id.
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        delta(0, "msg_rotated", "Hi", "output_text", content_index=0),
        done(0, msg("msg_2", text_part("Hi"))),
        completed([msg("msg_3", text_part("Hi"))]),
    )
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Hi")), "wire", "snapshot", "completed", False),
    ]
    assert codes(result) == ["id_changed", "id_changed", "item_id_unrecognized", "part_not_added"]


def test_r6_an_id_naming_another_entry_is_never_matched_through_the_slot() -> None:
    # The slot tolerates an unseen id, never one that names another entry.
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        added(1, msg("msg_2")),
        done(0, msg("msg_2", text_part("Hi"))),
        completed(),
    )
    assert [r["item"]["id"] for r in result.to_json()["items"]] == ["msg_1", "msg_2"]
    assert [r["state"] for r in result.to_json()["items"]] == ["added", "completed"]


def test_r6_a_shared_slot_never_picks_an_anonymous_entry() -> None:
    # Consequence of R6 worth pinning: on a shared slot only the item's own call_id or id
    # can pick an entry, so an entry admitted with neither is never matched; the done
    # item becomes a new entry and the anonymous one stays unconfirmed.
    result = reduce1(
        created(),
        added(0, fc(None, "call_a")),
        added(0, fc(None, None)),
        done(0, fc("fc_a", "call_a", args='{"a":1}')),
        done(0, fc("fc_b", "call_b", args='{"b":2}')),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_a", "call_a", args='{"a":1}'), "wire", "item_done", "completed", True),
        row(
            0,
            fc(mint_item_id("resp_1", 0, 1, "function_call"), None),
            "minted",
            "none",
            "added",
            False,
        ),
        row(0, fc("fc_b", "call_b", args='{"b":2}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == [
        "done_only_item",
        "id_minted",
        "slot_reused",
        "slot_reused",
        "snapshot_absent",
        "unconfirmed_item",
    ]


def test_r6_done_matched_to_a_done_entry_is_a_duplicate() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, fc("fc_1", "call_1", args='{"a":1}')),
        done(0, fc("fc_1", "call_1", args='{"a":2}')),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == ["duplicate_item", "snapshot_absent"]


def test_r6_mantle_renamed_id_field_on_a_done_only_item() -> None:
    terminal = fc(None, "call_1", "get_weather", ARGS, item_id="fc_9", output_index=1)
    result = reduce1(created(), done(1, terminal), completed([terminal]))
    assert rows(result) == [
        row(
            1,
            fc("fc_9", "call_1", "get_weather", ARGS),
            "renamed_field",
            "snapshot",
            "completed",
            True,
        )
    ]
    # The snapshot's item again names it by item_id only (#33).
    assert codes(result) == ["done_only_item", "id_only_as_item_id", "id_renamed_field"]


def test_r6_id_adopted_from_an_event_routed_by_slot() -> None:
    result = reduce1(
        created(),
        added(0, fc(None, "call_1")),
        delta(0, "fc_p", "{}"),
        done(0, fc(None, "call_1", args="{}")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_p", "call_1", args="{}"), "slot", "item_done", "completed", True)
    ]
    assert codes(result) == ["id_adopted_from_slot", "item_id_unrecognized", "snapshot_absent"]


def test_r6_a_wire_id_beats_an_adopted_one() -> None:
    # AxonHub #9: the id-less added adopts the delta's item_id, then the done item's id
    # (the same string here) is a wire id.
    result = reduce1(
        created(),
        added(0, fc(None, "call_1")),
        delta(0, "fc_p", "{}"),
        done(0, fc("fc_q", "call_1", args="{}")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_q", "call_1", args="{}"), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == [
        "id_adopted_from_slot",
        "item_id_unrecognized",
        "snapshot_absent",
    ]


def test_r6_minted_id_when_no_id_ever_appeared() -> None:
    result = reduce1(created(), done(None, fc(None, "call_1", args="{}")), completed())
    minted = mint_item_id("resp_1", None, 0, "function_call")
    assert minted.startswith("fc_")
    assert rows(result) == [
        row(None, fc(minted, "call_1", args="{}"), "minted", "item_done", "completed", True)
    ]
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


# -- R7 payload ---------------------------------------------------------------------------


def test_r7_latest_non_empty_offer_wins() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", '{"a"'),
        args_done(0, "fc_1", '{"a":1}'),  # extends the deltas
        done(0, fc("fc_1", "call_1", args='{"a":2}')),  # diverges
        completed([fc("fc_1", "call_1", args='{"a":3}')]),  # diverges again
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":3}'), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == ["divergent_payload", "divergent_payload", "payload_extended"]


@pytest.mark.parametrize("blank", ["", None], ids=["empty", "missing"])
def test_r7_empty_or_missing_never_erases(blank: str | None) -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", '{"a":1}'),
        args_done(0, "fc_1", blank),
        done(0, fc("fc_1", "call_1", args=blank)),
        completed([fc("fc_1", "call_1", args=blank)]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == (["empty_payload_ignored"] * 3 if blank == "" else [])


def test_r7_snapshot_fills_an_empty_done() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, fc("fc_1", "call_1", args="")),
        completed([fc("fc_1", "call_1", args='{"a":1}')]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "snapshot", "completed", True)
    ]
    # Taken, and reported: a client reading the done events holds "" (#33).
    assert codes(result) == ["empty_payload_filled"]


def test_r7_an_empty_done_never_blanks_the_added_items_payload() -> None:
    # Decision: the added item's payload is not one of R7's offers, but whatever the
    # result shows must not go from non-empty to empty because a gateway blanked a field.
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", args='{"a":1}')),
        done(0, fc("fc_1", "call_1", args="")),
        completed(),
    )
    assert only(result).item["arguments"] == '{"a":1}'
    # Not an offer, so no payload diagnostic: the empty value simply erases nothing.
    assert codes(result) == ["snapshot_absent"]


def test_r7_the_added_items_payload_stays_when_no_offer_comes() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", args='{"a":1}')),
        done(0, fc("fc_1", "call_1", args=None)),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "none", "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_r7_a_zero_argument_call_keeps_its_empty_string() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        args_done(0, "fc_1", ""),
        done(0, fc("fc_1", "call_1", args="")),
        completed([fc("fc_1", "call_1", args="")]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args=""), "wire", "none", "completed", True)
    ]
    assert codes(result) == []


def test_r7_invalid_json_arguments_are_kept_and_flagged() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", '{"a":'),
        args_done(0, "fc_1", '{"a":'),
        done(0, fc("fc_1", "call_1", args='{"a":')),
        completed([fc("fc_1", "call_1", args='{"a":')]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":'), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == ["invalid_json_arguments"]


def test_r7_payloads_are_opaque_a_trailing_newline_is_kept() -> None:
    raw = '{"data":{}}\n'  # gpt-oss-20b via Bedrock Mantle
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", raw),
        args_done(0, "fc_1", raw),
        done(0, fc("fc_1", "call_1", args=raw)),
        completed([fc("fc_1", "call_1", args=raw)]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args=raw), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == []


def test_r7_delta_after_its_channel_is_done_is_late() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", "{}"),
        args_done(0, "fc_1", "{}"),
        delta(0, "fc_1", "junk"),
        done(0, fc("fc_1", "call_1", args=None)),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "payload_done", "completed", True)
    ]
    assert codes(result) == ["late_event", "snapshot_absent"]
    assert result.diagnostics[0].event_index == 4


def test_r7_message_text_and_refusal_parts() -> None:
    final = msg("msg_1", text_part("Hello"), refusal_part("No."))
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        part_event("content_part.added", 0, "msg_1", text_part(""), content_index=0),
        delta(0, "msg_1", "Hel", "output_text", content_index=0),
        delta(0, "msg_1", "lo", "output_text", content_index=0),
        payload_done("output_text", 0, "msg_1", "Hello", content_index=0),
        part_event("content_part.done", 0, "msg_1", text_part("Hello"), content_index=0),
        part_event("content_part.added", 0, "msg_1", refusal_part(""), content_index=1),
        delta(0, "msg_1", "No", "refusal", content_index=1),
        payload_done("refusal", 0, "msg_1", "No.", content_index=1),
        done(0, msg("msg_1", text_part("Hello"), refusal_part(""))),
        completed([msg("msg_1", text_part(""), refusal_part("No."))]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", False)]
    assert codes(result) == ["empty_payload_ignored", "empty_payload_ignored", "payload_extended"]


def test_r7_message_text_from_deltas_only_is_written_into_the_item() -> None:
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        delta(0, "msg_1", "Hello", "output_text", content_index=0),
        done(0, msg("msg_1")),
        completed([msg("msg_1")]),
    )
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Hello")), "wire", "deltas", "completed", False)
    ]
    assert codes(result) == ["part_not_added"]  # no content_part.added before the deltas


def test_r7_reasoning_summary_parts_and_reasoning_text() -> None:
    summary_part = {"type": "summary_text", "text": ""}
    result = reduce1(
        created(),
        added(0, rs("rs_1")),
        part_event("reasoning_summary_part.added", 0, "rs_1", summary_part, summary_index=0),
        delta(0, "rs_1", "Think", "reasoning_summary_text", summary_index=0),
        payload_done("reasoning_summary_text", 0, "rs_1", "Think.", summary_index=0),
        delta(0, "rs_1", "Then", "reasoning_summary_text", summary_index=1),
        delta(0, "rs_1", "raw", "reasoning_text", content_index=0),
        payload_done("reasoning_text", 0, "rs_1", "raw!", content_index=0),
        done(0, rs("rs_1", "Think.", encrypted_content="enc")),
        completed(),
    )
    expected = rs(
        "rs_1",
        "Think.",
        "Then",
        encrypted_content="enc",
        content=[{"type": "reasoning_text", "text": "raw!"}],
    )
    assert rows(result) == [row(0, expected, "wire", "item_done", "completed", False)]
    assert codes(result) == [
        *["part_not_added"] * 2,
        "payload_extended",
        "payload_extended",
        "snapshot_absent",
    ]


def test_r7_custom_tool_input() -> None:
    patch = "*** Begin Patch\n*** End Patch\n"
    result = reduce1(
        created(),
        added(0, ctc("ctc_1", "call_1", "apply_patch")),
        delta(0, "ctc_1", "*** Begin", "custom_tool_call_input"),
        input_done(0, "ctc_1", patch),
        done(0, ctc("ctc_1", "call_1", "apply_patch", "")),
        completed(),
    )
    assert rows(result) == [
        row(
            0,
            ctc("ctc_1", "call_1", "apply_patch", patch),
            "wire",
            "payload_done",
            "completed",
            True,
        )
    ]
    assert codes(result) == ["empty_payload_ignored", "payload_extended", "snapshot_absent"]


def test_r7_mcp_call_arguments() -> None:
    mcp = {"type": "mcp_call", "id": "mcp_1", "server_label": "s", "name": "n", "arguments": ""}
    result = reduce1(
        created(),
        added(0, mcp),
        event("response.mcp_call.in_progress", output_index=0, item_id="mcp_1"),
        delta(0, "mcp_1", '{"q"', "mcp_call_arguments"),
        payload_done("mcp_call_arguments", 0, "mcp_1", '{"q":1}'),
        event("response.mcp_call.completed", output_index=0, item_id="mcp_1"),
        done(0, mcp | {"output": "ok"}),
        completed(),
    )
    expected = mcp | {"arguments": '{"q":1}', "output": "ok"}
    # mcp_call is executed by the server: never executable by the client.
    assert rows(result) == [row(0, expected, "wire", "payload_done", "completed", False)]
    assert codes(result) == ["empty_payload_ignored", "payload_extended", "snapshot_absent"]


def test_r7_code_interpreter_code() -> None:
    call = {
        "type": "code_interpreter_call",
        "id": "ci_1",
        "container_id": "cntr_1",
        "code": "",
        "outputs": None,
        "status": "in_progress",
    }
    result = reduce1(
        created(),
        added(0, call),
        event("response.code_interpreter_call.interpreting", output_index=0, item_id="ci_1"),
        delta(0, "ci_1", "print(1)", "code_interpreter_call_code"),
        payload_done("code_interpreter_call_code", 0, "ci_1", "print(1)\n"),
        done(0, call | {"status": "completed"}),
        completed([call | {"code": "print(1)\n", "status": "completed"}]),
    )
    expected = call | {"code": "print(1)\n", "status": "completed"}
    assert rows(result) == [row(0, expected, "wire", "snapshot", "completed", False)]
    assert codes(result) == ["empty_payload_ignored", "payload_extended"]


def test_r7_apply_patch_operation_diff() -> None:
    call = {
        "type": "apply_patch_call",
        "id": "apc_1",
        "call_id": "call_a",
        "status": "in_progress",
        "operation": {"type": "update_file", "path": "x.py", "diff": ""},
    }
    result = reduce1(
        created(),
        added(0, call),
        delta(0, "apc_1", "@@ -1", "apply_patch_call_operation_diff"),
        payload_done("apply_patch_call_operation_diff", 0, "apc_1", "@@ -1 +1 @@\n"),
        done(0, call | {"status": "completed"}),
        completed(),
    )
    expected = call | {
        "status": "completed",
        "operation": {"type": "update_file", "path": "x.py", "diff": "@@ -1 +1 @@\n"},
    }
    assert rows(result) == [row(0, expected, "wire", "payload_done", "completed", True)]
    assert codes(result) == ["empty_payload_ignored", "payload_extended", "snapshot_absent"]


# -- R8 lifecycle -------------------------------------------------------------------------


def _states_along(events: list[Any]) -> list[list[str]]:
    reducer = Reducer()
    seen: list[list[str]] = []
    for item in numbered(events):
        reducer.feed(item)
        seen.append([entry.state.value for entry in reducer.snapshot().entries])
    return seen


def test_r8_every_open_and_closed_state_in_order() -> None:
    states = _states_along(
        [
            created(),
            added(0, fc("fc_1", "call_1")),
            delta(0, "fc_1", "{"),
            delta(0, "fc_1", "}"),
            args_done(0, "fc_1", "{}"),
            done(0, fc("fc_1", "call_1", args="{}")),
            completed([fc("fc_1", "call_1", args="{}")]),
        ]
    )
    assert [s[0] if s else None for s in states] == [
        None,
        "added",
        "streaming",
        "streaming",
        "payload_done",
        "done",
        "completed",
    ]


@pytest.mark.parametrize(
    ("middle", "completed_state", "aborted_state"),
    [
        ([], "added", "incomplete"),
        ([delta(0, "fc_1", "{}")], "streaming", "incomplete"),
        ([args_done(0, "fc_1", "{}")], "completed", "incomplete"),
        (
            [args_done(0, "fc_1", "{}"), done(0, fc("fc_1", "call_1", args="{}"))],
            "completed",
            "done",
        ),
    ],
    ids=["added", "streaming", "payload_done", "done"],
)
def test_r8_final_state_is_shown_in_the_result(
    middle: list[Event], completed_state: str, aborted_state: str
) -> None:
    head = [created(), added(0, fc("fc_1", "call_1")), *middle]
    assert only(reduce1(*head, completed())).state.value == completed_state
    assert only(reduce1(*head, ended("incomplete"), status="incomplete")).state.value == (
        aborted_state
    )
    assert only(reduce1(*head, status="interrupted")).state.value == aborted_state


def test_r8_done_only_and_snapshot_only_entries_enter_closed() -> None:
    states = _states_along(
        [
            created(),
            done(0, fc("fc_1", "call_1", args="{}")),
            completed([fc("fc_1", "call_1", args="{}"), fc("fc_2", "call_2", args="{}")]),
        ]
    )
    assert states == [[], ["done"], ["completed", "completed"]]


# -- R9 response end ----------------------------------------------------------------------


def test_r9_done_entries_missing_from_a_non_empty_snapshot_are_kept() -> None:
    message = msg("msg_1", text_part("Hi"))
    result = reduce1(
        created(),
        added(0, rs("rs_1")),
        done(0, rs("rs_1", "thinking")),
        added(1, msg("msg_1")),
        done(1, message),
        completed([message]),
    )
    assert rows(result) == [
        row(0, rs("rs_1", "thinking"), "wire", "item_done", "completed", False),
        row(1, message, "wire", "snapshot", "completed", False),
    ]
    assert codes(result) == ["snapshot_missing_item"]


@pytest.mark.parametrize("output", [[], None], ids=["empty", "absent"])
def test_r9_empty_or_absent_snapshot_is_tolerated(output: list[Item] | None) -> None:
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(created(), added(0, fc("fc_1", "call_1")), done(0, call), completed(output))
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["snapshot_absent"]


def test_r9_unconfirmed_items_are_kept_but_not_executable() -> None:
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", "{}"),
        added(1, fc("fc_2", "call_2")),
        done(1, fc("fc_2", "call_2", args="{}")),
        completed([fc("fc_2", "call_2", args="{}")]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "deltas", "streaming", False),
        row(1, fc("fc_2", "call_2", args="{}"), "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == ["unconfirmed_item"]


@pytest.mark.parametrize("status", ["incomplete", "failed", "cancelled"])
def test_r9_a_response_that_ends_otherwise_executes_nothing(status: str) -> None:
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, call),
        added(1, fc("fc_2", "call_2")),
        delta(1, "fc_2", "{}"),
        ended(status, [call]),
        status=status,
    )
    # Every terminal's snapshot is reconciled (issue #11): the call it lists is confirmed
    # by it, the one it leaves out is cut off; neither runs (R13 ``not_completed``).
    assert rows(result) == [
        row(0, call, "wire", "snapshot", "completed", False),
        row(1, fc("fc_2", "call_2", args="{}"), "wire", "deltas", "incomplete", False),
    ]
    assert [entry.execution.value for entry in result.items] == ["not_completed"] * 2
    assert codes(result) == ["response_error"]


def test_r9_error_event_fails_the_response() -> None:
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, call),
        event("error", error={"type": "server_error", "code": "server_error", "message": "boom"}),
        ended("failed"),
        status="failed",
    )
    # ``error`` then ``response.failed`` is one failure (model/responses.py
    # AMENDABLE_TERMINALS): no after_terminal, one response_error.
    assert rows(result) == [row(0, call, "wire", "item_done", "done", False)]
    assert codes(result) == ["response_error"]
    # Issue #41: the amend is one terminal, once; a third terminal is after the end.
    third = reduce1(
        created(),
        event("error", error={"type": "server_error", "code": "server_error", "message": "boom"}),
        ended("failed"),
        ended("failed"),
        status="failed",
    )
    assert codes(third) == ["after_terminal", "response_error"]


def test_r9_missing_terminal_is_interrupted() -> None:
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(created(), added(0, fc("fc_1", "call_1")), done(0, call), status="interrupted")
    assert rows(result) == [row(0, call, "wire", "item_done", "done", False)]
    assert codes(result) == ["missing_terminal"]


def test_r9_after_terminal_nothing_changes_and_a_repeated_terminal_is_idempotent() -> None:
    call = fc("fc_1", "call_1", args="{}")
    once = reduce1(created(), done(0, call), completed([call]))
    twice = reduce1(
        created(),
        done(0, call),
        completed([call]),
        completed([fc("fc_1", "call_1", args='{"x":1}'), fc("fc_2", "call_2", args="{}")]),
        delta(0, "fc_1", "junk"),
        added(1, fc("fc_3", "call_3")),
        ended("failed"),
    )
    assert rows(twice) == rows(once) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(once) == ["done_only_item"]
    assert codes(twice) == ["after_terminal"] * 4 + ["done_only_item"]


def test_r9_only_client_calls_with_a_call_id_are_executable() -> None:
    message = msg("msg_1", text_part("Hi"))
    search = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {}}
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(created(), completed([message, search, call]))
    assert [item.executable for item in result.items] == [False, False, True]


def test_r9_events_before_response_created_are_reduced_with_a_warning() -> None:
    # Decision (DESIGN silent): a stream without response.created is still one response;
    # the id comes from the terminal event.
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(done(0, call), completed())
    assert (result.response_id, result.status.value) == ("resp_1", "completed")
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["done_only_item", "no_response_started", "snapshot_absent"]


def test_r9_a_new_response_created_interrupts_an_unfinished_response() -> None:
    # Decision (DESIGN: "each response.created starts a new result"): the response it
    # cuts off never saw a terminal event, so it is interrupted like one at end of input.
    first, second = reduce_all(
        created("resp_a"),
        added(0, fc("fc_1", "call_1")),
        created("resp_b"),
        done(0, fc("fc_2", "call_2", args="{}")),
        completed(resp_id="resp_b"),
    )
    assert (first.response_id, first.status.value) == ("resp_a", "interrupted")
    assert rows(first) == [row(0, fc("fc_1", "call_1"), "wire", "none", "incomplete", False)]
    assert codes(first) == ["missing_terminal"]
    assert (second.response_id, second.status.value) == ("resp_b", "completed")
    assert rows(second) == [
        row(0, fc("fc_2", "call_2", args="{}"), "wire", "item_done", "completed", True)
    ]
    assert codes(second) == ["done_only_item", "snapshot_absent"]


def test_r9_a_call_confirmed_by_arguments_done_alone_is_executable() -> None:
    message = msg("msg_1", text_part("Hi"))
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        args_done(0, "fc_1", "{}"),
        done(1, message),
        completed([message]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "payload_done", "completed", True),
        row(1, message, "wire", "snapshot", "completed", False),
    ]
    assert codes(result) == ["done_only_item", "snapshot_missing_item"]


@pytest.mark.parametrize(
    ("code", "severity"),
    [
        ("id_changed", "info"),
        ("item_id_unrecognized", "info"),
        ("metadata_conflict", "warning"),
        ("divergent_payload", "warning"),
        ("payload_extended", "info"),
        ("invalid_json_arguments", "warning"),
        ("snapshot_absent", "info"),
    ],
)
def test_contract_severities_named_in_design(code: str, severity: str) -> None:
    assert SEVERITY[Code(code)] is Severity(severity)


# -- R10 order ----------------------------------------------------------------------------


def test_r10_order_is_by_slot_then_admission_not_by_completion() -> None:
    result = reduce1(
        created(),
        added(2, fc("fc_2", "call_2")),
        added(0, rs("rs_1")),
        added(1, msg("msg_1")),
        done(2, fc("fc_2", "call_2", args="{}")),
        done(1, msg("msg_1", text_part("x"))),
        done(0, rs("rs_1")),
        added(1, fc("fc_3", "call_3")),  # reuses slot 1: after msg_1 there
        done(1, fc("fc_3", "call_3", args="{}")),
        completed(),
    )
    assert [(i.output_index, i.item["id"]) for i in result.items] == [
        (0, "rs_1"),
        (1, "msg_1"),
        (1, "fc_3"),
        (2, "fc_2"),
    ]
    assert codes(result) == ["slot_reused", "snapshot_absent"]


def test_r10_snapshot_only_items_take_their_array_position() -> None:
    result = reduce1(
        created(),
        added(0, rs("rs_1")),
        done(0, rs("rs_1")),
        completed([rs("rs_1"), msg("msg_1", text_part("x")), fc("fc_1", "call_1", args="{}")]),
    )
    assert [(i.output_index, i.item["id"], i.state.value) for i in result.items] == [
        (0, "rs_1", "completed"),
        (1, "msg_1", "completed"),
        (2, "fc_1", "completed"),
    ]
    assert codes(result) == ["snapshot_only_item"] * 2


def test_r10_items_without_a_slot_come_last() -> None:
    # Decision (DESIGN silent): an item admitted without any output_index sorts after
    # every slotted item, in admission order.
    result = reduce1(
        created(),
        done(None, fc("fc_9", "call_9", args="{}")),
        done(1, fc("fc_1", "call_1", args="{}")),
        done(0, fc("fc_0", "call_0", args="{}")),
        completed(),
    )
    assert [(i.output_index, i.item["id"]) for i in result.items] == [
        (0, "fc_0"),
        (1, "fc_1"),
        (None, "fc_9"),
    ]


def test_r10_a_missing_slot_is_filled_by_a_later_item() -> None:
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(created(), added(None, fc("fc_1", "call_1")), done(0, call), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


# -- R11 minted ids -----------------------------------------------------------------------


def _idless_turn(resp_id: str) -> list[Event]:
    return [
        created(resp_id),
        added(0, msg(None)),
        delta(0, None, "Hi", "output_text", content_index=0),
        done(0, msg(None, text_part("Hi"))),
        done(1, fc(None, "call_1", args="{}")),
        completed(resp_id=resp_id),
    ]


def test_r11_minted_ids_are_deterministic() -> None:
    first = reduce1(*_idless_turn("resp_a"))
    second = reduce1(*_idless_turn("resp_a"))
    assert first.to_json() == second.to_json()
    assert [i.item["id"] for i in first.items] == [
        mint_item_id("resp_a", 0, 0, "message"),
        mint_item_id("resp_a", 1, 1, "function_call"),
    ]
    assert [i.item["id"].split("_")[0] for i in first.items] == ["msg", "fc"]
    assert [i.id_source.value for i in first.items] == ["minted", "minted"]
    assert codes(first) == [
        "done_only_item",
        "id_minted",
        "id_minted",
        "part_not_added",
        "snapshot_absent",
    ]


def test_r11_minted_ids_differ_across_responses() -> None:
    one, two = reduce_all(*_idless_turn("resp_a"), *_idless_turn("resp_b"))
    assert (one.response_id, two.response_id) == ("resp_a", "resp_b")
    ids_one = [i.item["id"] for i in one.items]
    ids_two = [i.item["id"] for i in two.items]
    assert not set(ids_one) & set(ids_two)
    assert ids_two == [
        mint_item_id("resp_b", 0, 0, "message"),
        mint_item_id("resp_b", 1, 1, "function_call"),
    ]


# -- R12 replay ---------------------------------------------------------------------------


def test_r12_replay_adds_codex_compatible_aborted_outputs() -> None:
    mantle = fc(None, "call_2", "lookup", "{}", item_id="fc_m", output_index=2)
    result = reduce1(
        created(),
        added(0, rs("rs_1")),
        done(0, rs("rs_1", "plan")),
        done(1, fc("fc_1", "call_1", "get_weather", ARGS)),
        added(2, fc("fc_m", "call_2", "lookup")),
        done(2, mantle),
        done(3, ctc("ctc_1", "call_3", "apply_patch", "patch")),
        done(4, fc(None, "call_4", "noid", "{}")),
        completed([rs("rs_1", "plan"), fc("fc_1", "call_1", "get_weather", ARGS), mantle]),
    )
    minted = mint_item_id("resp_1", 4, 4, "function_call")
    replayed = replay_input([item.item for item in result.items])
    assert [(i["type"], i.get("id"), i.get("call_id")) for i in replayed] == [
        ("reasoning", "rs_1", None),
        ("function_call", "fc_1", "call_1"),
        ("function_call_output", "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4", "call_1"),
        ("function_call", "fc_m", "call_2"),
        ("function_call_output", synthetic_output_id("fco", "fc_m"), "call_2"),
        ("custom_tool_call", "ctc_1", "call_3"),
        ("custom_tool_call_output", synthetic_output_id("ctco", "ctc_1"), "call_3"),
        ("function_call", minted, "call_4"),
        ("function_call_output", synthetic_output_id("fco", minted), "call_4"),
    ]
    assert all(i.get("output") == "aborted" for i in replayed if i["type"].endswith("_output"))
    # No stray gateway fields survive into the next request.
    assert not any("item_id" in i or "output_index" in i for i in replayed)
    assert json.loads(replayed[3]["arguments"]) == {}
    assert codes(result) == [
        "done_only_item",
        "done_only_item",
        "done_only_item",
        "id_minted",
        "id_only_as_item_id",
        "id_only_as_item_id",
        "snapshot_missing_item",
        "snapshot_missing_item",
    ]


def test_r12_outputs_the_client_appended_pair_and_orphans_drop() -> None:
    result = reduce1(created(), done(0, fc("fc_1", "call_1", args="{}")), completed())
    history = [item.item for item in result.items]
    answered = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
    orphan = {"type": "function_call_output", "call_id": "call_gone", "output": "x"}
    assert replay_input([*history, answered, orphan]) == [*history, answered]


# -- section 4 invariants on rule streams ------------------------------------------------


def test_invariants_hold_when_the_snapshot_lists_an_item_twice() -> None:
    terminal = fc("fc_1", "call_1", args="{}")
    events = numbered([created(), added(0, fc("fc_1", "call_1")), completed([terminal, terminal])])
    assert check_invariants(events, every_prefix=True) == []


def test_invariants_hold_when_a_snapshot_item_reuses_a_call_id_of_another_type() -> None:
    events = numbered(
        [
            created(),
            done(0, fc("fc_1", "call_1", args="{}")),
            completed([fc("fc_1", "call_1", args="{}"), ctc("ctc_1", "call_1", input="x")]),
        ]
    )
    assert check_invariants(events, every_prefix=True) == []


def test_r9_a_field_the_snapshot_sends_anew_is_reported_and_the_snapshots_kept() -> None:
    # Decision (issue #35): OpenAI sends a reasoning item's encrypted_content anew in
    # response.completed; no rule decides it, so the oracle says it keeps the snapshot's.
    first = rs("rs_1", "plan", encrypted_content="gAAAA-done")
    again = rs("rs_1", "plan", encrypted_content="gAAAA-snapshot")
    events = [created(), added(0, rs("rs_1")), done(0, first), completed([again])]
    result = reduce1(*numbered(events))
    assert rows(result) == [row(0, again, "wire", "snapshot", "completed", False)]
    assert codes(result) == ["divergent_item_field"]


def test_r13_a_dated_echo_of_a_declared_tool_type_declares_the_tool() -> None:
    # Decision (issue #35): computer_use_preview comes back as
    # computer-use-preview-2025-03-11; it names the computer tool.
    call = {
        "type": "computer_call",
        "id": "cu_1",
        "call_id": "call_1",
        "status": "completed",
        "action": {"type": "screenshot"},
        "pending_safety_checks": [],
    }
    tools = [{"type": "computer-use-preview-2025-03-11"}]
    response = {"id": "resp_1", "status": "in_progress", "output": [], "tools": tools}
    end = {**response, "status": "completed", "output": [call]}
    result = reduce1(
        *numbered(
            [
                {"type": "response.created", "response": response},
                done(0, call),
                {"type": "response.completed", "response": end},
            ]
        )
    )
    assert rows(result) == [row(0, call, "wire", "none", "completed", True)]
    assert codes(result) == ["done_only_item"]
    unknown = [{"type": "robot_arm"}]
    result = reduce1(
        *numbered(
            [
                {"type": "response.created", "response": {**response, "tools": unknown}},
                done(0, call),
                {"type": "response.completed", "response": {**end, "tools": unknown}},
            ]
        )
    )
    assert only(result).execution.value == "unknown_tool_type"
    # The type, once; the call it leaves unrun, once (issue #41: never in silence).
    assert codes(result) == ["call_withheld", "done_only_item", "unknown_tool_type"]


def test_r13_a_flattened_namespace_echo_leaves_the_call_withheld_and_says_so() -> None:
    # Issue #41: a vLLM gateway declares the namespace tool upstream as one flat
    # function (agentic_ns__{namespace}__{member}), echoes that flat name in
    # response.tools, and sends the call with the namespace restored.  No echoed tool
    # names the call: it is not run, and never in silence.
    flat = "agentic_ns__mcp__agentic_fixture__add_numbers"
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "namespace": "mcp__agentic_fixture",
        "name": "add_numbers",
        "arguments": '{"numbers":[8,0]}',
        "status": "completed",
    }
    tools = [{"type": "function", "name": flat, "parameters": {"type": "object"}}]
    response = {"id": "resp_1", "status": "in_progress", "output": [], "tools": tools}
    stream = numbered(
        [
            {"type": "response.created", "response": response},
            added(0, {**call, "arguments": "", "status": "in_progress"}),
            done(0, call),
            {
                "type": "response.completed",
                "response": {**response, "status": "completed", "output": [call]},
            },
        ]
    )
    result = reduce1(*stream)
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", False)]
    assert only(result).execution.value == "undeclared"
    assert codes(result) == ["call_withheld"]
    (withheld,) = result.diagnostics
    assert withheld.detail == (
        "entry 0 (function_call 'mcp__agentic_fixture.add_numbers' call_id 'call_1') "
        "is not executable: undeclared"
    )
    # The withheld cell of the verdict decides the report: the mutant that clears it
    # withholds the same call in silence.
    mutant = Reducer(kernels=load_kernels(MUTANTS["undeclared-call-withheld-silently"].tables))
    mutant.feed_all(stream)
    (silent,) = mutant.finish()
    assert (only(silent).execution.value, codes(silent)) == ("undeclared", [])


def test_r13_a_call_of_a_declared_namespace_tool_is_executable() -> None:
    # The call names its tool by namespace and name; the namespace declares the member.
    # (proofs/line-edits-sample6.json: a verdict taken without the call's namespace
    # passed every other reducer test.)
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "namespace": "ns",
        "name": "f",
        "arguments": "{}",
        "status": "completed",
    }
    tools = [{"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": "f"}]}]
    response = {"id": "resp_1", "status": "in_progress", "output": [], "tools": tools}
    result = reduce1(
        *numbered(
            [
                {"type": "response.created", "response": response},
                added(0, call),
                done(0, call),
                {
                    "type": "response.completed",
                    "response": {**response, "status": "completed", "output": [call]},
                },
            ]
        )
    )
    assert (only(result).execution.value, only(result).executable) == ("client", True)
    assert codes(result) == []


def test_r14_a_resume_that_starts_inside_a_message_attaches_its_events() -> None:
    # Decision (issue #35): GET ...?stream=true&starting_after=N starts at N+1, here at
    # a text delta of a message opened before it: no warning, one response_resumed.
    item = msg("msg_1", text_part("Hello."))
    events = numbered(
        [created(), added(0, msg("msg_1"))]
        + [part_event("content_part.added", 0, "msg_1", text_part(""), content_index=0)]
        + [delta(0, "msg_1", t, "output_text", content_index=0) for t in ("Hel", "lo.")]
        + [done(0, item), completed([item])]
    )
    reducer = Reducer()  # reduce1 would number the cut stream from 0 again
    reducer.feed_all(events[4:])
    (result,) = reducer.finish()
    assert rows(result) == rows(reduce1(*events))
    assert codes(result) == ["response_resumed"]


def test_r14_a_part_of_an_item_added_after_the_resume_point_is_owed_its_added() -> None:
    # Issue #41: the resume waives what came before it, not what came after.  The
    # message is announced after the resume point, so its part's added was due there too.
    item = msg("msg_2", text_part("Hi."))
    events = numbered(
        [created(), added(0, msg("msg_1", text_part("A"))), done(0, msg("msg_1", text_part("A")))]
        + [added(1, msg("msg_2"))]
        + [delta(1, "msg_2", t, "output_text", content_index=0) for t in ("H", "i.")]
        + [done(1, item), completed([msg("msg_1", text_part("A")), item])]
    )
    reducer = Reducer()
    reducer.feed_all(events[3:])
    (result,) = reducer.finish()
    assert [entry.item for entry in result.items] == [msg("msg_1", text_part("A")), item]
    # msg_1, in the snapshot only, was announced before the resume point: no word.
    assert codes(result) == ["part_not_added", "response_resumed"]


def test_r14_a_resume_inside_an_id_less_item_attaches_its_events() -> None:
    # Issue #41: the held events of an item opened before the resume point carry no
    # item_id, only their output_index: the item's done binds that slot, so they attach
    # to it, without an orphan_event.
    bare = {key: value for key, value in msg("msg_1").items() if key != "id"}
    item = {**bare, "content": [text_part("Hello.")]}
    events = numbered(
        [created(), added(0, bare)]
        + [part_event("content_part.added", 0, None, text_part(""), content_index=0)]
        + [delta(0, None, t, "output_text", content_index=0) for t in ("Hel", "lo.")]
        + [done(0, item), completed([item])]
    )
    reducer = Reducer()
    reducer.feed_all(events[3:])
    (result,) = reducer.finish()
    assert [entry.item["content"] for entry in result.items] == [[text_part("Hello.")]]
    assert codes(result) == ["id_minted", "response_resumed"]
