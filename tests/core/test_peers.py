"""The peer implementations' test cases, answered by our rules.

Every case listed in ``reference/peer-implementations.md`` becomes a stream written by
hand from its description (opencode A.4 1-28 and the Mantle capture A.5, codex B.4,
AxonHub C.4 1-32), and one test per row of table D.  The expected values are OUR answer
per DESIGN.md, not the peer's; where they differ, the docstring says how and why.
A peer's "tool-call" corresponds to our ``executable`` item; a peer that "produces
nothing" for an item corresponds to an item we keep but do not execute (``nothing_lost``:
the result is what a client persists, so no admitted item is ever dropped).
"""

from __future__ import annotations

from typing import Any

import pytest
from responses_oracle import replay_input
from responses_oracle.core.ids import mint_item_id, synthetic_output_id

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
    fc,
    input_done,
    msg,
    only,
    part_event,
    payload_done,
    reduce1,
    refusal_part,
    row,
    rows,
    rs,
    text_part,
)

NS = "collaboration"
"""AxonHub's round-trip suite puts every function item in this namespace."""


def axfc(id: str | None, call_id: str | None, args: str | None = "", **extra: Any) -> Item:
    """An AxonHub-suite function call: name ``lookup`` in namespace ``collaboration``."""
    return fc(id, call_id, "lookup", args, namespace=NS, **extra)


def axctc(id: str | None, call_id: str | None, input: str | None = "", **extra: Any) -> Item:
    """An AxonHub-suite custom tool call: ``apply_patch``."""
    return ctc(id, call_id, "apply_patch", input, **extra)


def summary_delta(index: int, item_id: str | None, text: str, part: int) -> Event:
    """A ``reasoning_summary_text.delta`` for summary part ``part``."""
    return delta(index, item_id, text, "reasoning_summary_text", summary_index=part)


def text_delta(index: int, item_id: str | None, text: str, part: int = 0) -> Event:
    """An ``output_text.delta`` for content part ``part``."""
    return delta(index, item_id, text, "output_text", content_index=part)


def text_done(index: int, item_id: str | None, text: str, part: int = 0) -> Event:
    """An ``output_text.done`` for content part ``part``."""
    return payload_done("output_text", index, item_id, text, content_index=part)


# =======================================================================================
# opencode, A.4 (open-responses-lifecycle.test.ts and friends)
# =======================================================================================


def test_opencode_01_closes_implicit_summary_boundaries_and_ignores_late_events() -> None:
    """Same answer: three summary parts, late events inert, encrypted content from done.

    Part 2 carries a wrong item_id on slot 0: R5 routes it by the slot
    (``item_id_unrecognized``), as opencode's slot remap does.
    """
    final = rs("rs_1", "First.", "Second.", "Third.", encrypted_content="enc_done")
    result = reduce1(
        created(),
        added(0, rs("rs_1", encrypted_content="enc_partial")),
        added(0, rs("rs_1", encrypted_content="enc_partial")),
        summary_delta(0, "rs_1", "First.", 0),
        summary_delta(0, "rs_1", "Second.", 1),
        summary_delta(0, "rs_wrong", "Third.", 2),
        done(0, final),
        done(0, final),
        added(0, rs("rs_1")),
        summary_delta(0, "rs_1", "late", 3),
        part_event(
            "reasoning_summary_part.added", 0, "rs_1", {"type": "summary_text", "text": ""},
            summary_index=4,
        ),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", False)]
    assert codes(result) == [
        "duplicate_item",
        "duplicate_item",
        "duplicate_item",
        "item_id_unrecognized",
        "late_event",
        "late_event",
        *["part_not_added"] * 3,
    ]


def test_opencode_02_preserves_done_only_reasoning_without_replaying_late_events() -> None:
    """Same answer: one reasoning item with the done text; everything after it is inert."""
    final = rs("rs_1", "Done-only summary.", encrypted_content="enc")
    result = reduce1(
        created(),
        done(0, final),
        done(0, final),
        added(0, rs("rs_1")),
        summary_delta(0, "rs_1", "late", 0),
        completed(),
        summary_delta(0, "rs_1", "after", 0),
    )
    assert rows(result) == [row(0, final, "wire", "item_done", "completed", False)]
    assert codes(result) == [
        "after_terminal",
        "done_only_item",
        "duplicate_item",
        "duplicate_item",
        "late_event",
        "snapshot_absent",
    ]


def test_opencode_03_never_streamed_messages_and_refusal_phases() -> None:
    """Differs: opencode "forgets" the never-streamed msg_empty; we keep it (with no
    content), because R6 admits every item and a persisted history must not lose one.
    Text, refusal and the done phase agree: non-identity fields take the latest non-empty
    value, and a repeated ``output_text.done`` with the same text changes nothing.
    """
    result = reduce1(
        created(),
        added(0, msg("msg_empty")),
        done(0, msg("msg_empty")),
        added(1, msg("msg_1", phase="commentary")),
        text_done(1, "msg_1", "Working."),
        text_done(1, "msg_1", "Working."),
        done(1, msg("msg_1", text_part("Working."), phase="commentary")),
        added(2, msg("msg_2", phase="commentary")),
        delta(2, "msg_2", "Can", "refusal", content_index=0),
        payload_done("refusal", 2, "msg_2", "Can't.", content_index=0),
        done(2, msg("msg_2", refusal_part("Can't."), phase="final_answer")),
        done(3, msg("msg_3", refusal_part("Refused."))),
        completed(),
    )
    assert rows(result) == [
        row(0, msg("msg_empty"), "wire", "none", "completed", False),
        row(1, msg("msg_1", text_part("Working."), phase="commentary"), "wire", "item_done",
            "completed", False),
        row(2, msg("msg_2", refusal_part("Can't."), phase="final_answer"), "wire", "item_done",
            "completed", False),
        row(3, msg("msg_3", refusal_part("Refused.")), "wire", "item_done", "completed", False),
    ]
    assert codes(result) == [
        "done_only_item",
        "part_not_added",
        "payload_extended",
        "snapshot_absent",
    ]


def test_opencode_04_preserves_non_empty_done_only_message_content() -> None:
    """Differs only for the empty message: opencode produces nothing for it, we keep the
    item as it came (an empty text part), since nothing admitted is ever dropped."""
    result = reduce1(
        created(),
        done(0, msg("msg_1", text_part("Hello."))),
        done(1, msg("msg_2", refusal_part("No."))),
        done(2, msg("msg_3", text_part(""))),
        completed(),
    )
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Hello.")), "wire", "item_done", "completed", False),
        row(1, msg("msg_2", refusal_part("No.")), "wire", "item_done", "completed", False),
        row(2, msg("msg_3", text_part("")), "wire", "none", "completed", False),
    ]
    assert codes(result) == [
        "done_only_item",
        "done_only_item",
        "done_only_item",
        "snapshot_absent",
    ]


MANTLE_ARGS = '{\n  "city": "Paris"\n}'


def mantle_capture() -> list[Event]:
    """A.5: the Bedrock Mantle gpt-oss-120b capture, written from its description."""
    reasoning = rs("msg_879a68b589198b4c")
    terminal = fc(
        None,
        "call_bc1eb4b42e70ee53",
        "get_weather",
        MANTLE_ARGS,
        item_id="fc_828bee50dee1d029",
        output_index=1,
        status="completed",
    )
    return [
        created(),
        added(0, reasoning),
        done(0, reasoning),
        added(
            1,
            fc(
                "fc_828bee50dee1d029",
                "call_bc1eb4b42e70ee53",
                "get_weather",
                "",
                status="in_progress",
            ),
        ),
        delta(1, "fc_828bee50dee1d029", MANTLE_ARGS),
        args_done(1, "fc_828bee50dee1d029", MANTLE_ARGS),
        done(1, terminal),
        completed([reasoning, terminal]),
    ]


def test_opencode_05_mantle_recovers_a_terminal_function_call_id_from_its_output_slot() -> None:
    """Same answer: one call, id from the slot's entry (the added item's wire id), the
    arguments byte for byte (opencode parses them to ``{city: "Paris"}``; we keep the
    opaque string, R7), and no stray ``item_id``/``output_index`` inside the item."""
    result = reduce1(*mantle_capture())
    call = fc(
        "fc_828bee50dee1d029",
        "call_bc1eb4b42e70ee53",
        "get_weather",
        MANTLE_ARGS,
        status="completed",
    )
    assert rows(result) == [
        row(0, rs("msg_879a68b589198b4c"), "wire", "none", "completed", False),
        row(1, call, "wire", "snapshot", "completed", True),
    ]
    # The done item and the snapshot's name the call by item_id only: reported (#33).
    assert codes(result) == ["id_only_as_item_id"] * 2


def test_opencode_06_mints_an_id_for_a_done_only_tool_that_never_had_one() -> None:
    """Same idea, different id: opencode mints ``fc_<32 random hex>``; we mint the
    deterministic ``fc_<uuid5>`` of R11, so the same stream always gives the same id."""
    result = reduce1(created(), done(0, fc(None, "call_1", "lookup", "{}")), completed())
    minted = mint_item_id("resp_1", 0, 0, "function_call")
    assert rows(result) == [
        row(0, fc(minted, "call_1", "lookup", "{}"), "minted", "item_done", "completed", True)
    ]
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


def test_opencode_07_opens_and_closes_a_done_only_tool() -> None:
    """Same answer: a done-only call is recovered and executable."""
    call = fc("fc_1", "call_1", "lookup", '{"q":1}')
    result = reduce1(created(), done(0, call), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["done_only_item"]


def test_opencode_08_recovers_pending_calls_and_reconciles_terminal_reasoning() -> None:
    """Differs twice.  The reasoning item takes the snapshot's new ``encrypted_content``
    (opencode leaves terminal reasoning alone): R9 reconciles every snapshot item.  The
    unseen snapshot call ``fc_unseen`` is recovered and executable (opencode ignores it):
    R6 admits snapshot-only items.  The pending call gets the final arguments, as in
    opencode, with ``divergent_payload`` because they contradict the deltas."""
    final_rs = rs("rs_1", encrypted_content="enc_final")
    final_call = fc("fc_1", "call_1", "search", '{"query":"final"}')
    unseen = fc("fc_unseen", "call_unseen", "search", '{"query":"other"}')
    result = reduce1(
        created(),
        added(1, fc("fc_1", "call_1", "search")),
        delta(1, "fc_1", '{"query":"draft"}'),
        added(0, rs("rs_1", encrypted_content="enc_open")),
        summary_delta(0, "rs_1", "Thinking", 0),
        completed([final_rs, final_call, unseen]),
    )
    assert rows(result) == [
        row(0, rs("rs_1", "Thinking", encrypted_content="enc_final"), "wire", "deltas",
            "completed", False),
        row(1, final_call, "wire", "snapshot", "completed", True),
        row(2, unseen, "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == ["divergent_payload", "part_not_added", "snapshot_only_item"]


def test_opencode_09_keeps_text_and_reasoning_identities_separate_with_empty_ids() -> None:
    """Same answer: an empty id is no id (DESIGN: "first non-empty"), the slots keep the
    two items apart, and each gets a minted id."""
    result = reduce1(
        created(),
        added(0, rs("")),
        added(1, msg("")),
        summary_delta(0, "", "Reasoning.", 0),
        text_delta(1, "", "Answer."),
        done(0, rs("", "Reasoning.")),
        done(1, msg("", text_part("Answer."))),
        completed(),
    )
    rs_id = mint_item_id("resp_1", 0, 0, "reasoning")
    msg_id = mint_item_id("resp_1", 1, 1, "message")
    assert rows(result) == [
        row(0, rs(rs_id, "Reasoning."), "minted", "item_done", "completed", False),
        row(1, msg(msg_id, text_part("Answer.")), "minted", "item_done", "completed", False),
    ]
    assert codes(result) == ["id_minted", "id_minted", *["part_not_added"] * 2, "snapshot_absent"]


def test_opencode_10_does_not_merge_a_completed_tool_into_a_message_with_the_same_id() -> None:
    """Partly differs.  Same: the function_call is never merged into the message that
    shares its id (different types are never compatible, R6).  Differs: opencode drops
    the call; we admit it as a snapshot-only item at its array position (R6, R10), which
    makes slot 0 shared, and it is executable because the snapshot confirms it (R9).
    The message never completed and is not in the snapshot: kept, ``unconfirmed_item``."""
    call = fc("item_1", "call_1", "lookup", "{}")
    result = reduce1(
        created(),
        added(0, msg("item_1")),
        text_delta(0, "item_1", "Hello"),
        completed([call]),
    )
    assert rows(result) == [
        row(0, msg("item_1", text_part("Hello")), "wire", "deltas", "streaming", False),
        row(0, call, "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == [
        "part_not_added",
        "slot_reused",
        "snapshot_only_item",
        "unconfirmed_item",
    ]


def test_opencode_11_pending_calls_and_open_text_when_completed_output_is_absent() -> None:
    """Differs (table D row 4): opencode flushes the pending call and executes ``{}``; we
    keep both items but nothing confirmed the call, so it is not executable (R9)."""
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        text_delta(0, "msg_1", "Let me check."),
        added(1, fc("fc_1", "call_1", "lookup", "{}")),
        completed(None),
    )
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Let me check.")), "wire", "deltas", "streaming", False),
        row(1, fc("fc_1", "call_1", "lookup", "{}"), "wire", "none", "added", False),
    ]
    assert codes(result) == [
        "part_not_added",
        "snapshot_absent",
        "unconfirmed_item",
        "unconfirmed_item",
    ]


def test_opencode_12_incomplete_response_reconciles_its_snapshot() -> None:
    """Same answer: no call executes.  Differs: opencode ignores an incomplete
    response's output; here every terminal snapshot is reconciled (issue #11, R9), as
    openai-python keeps it, so the call's arguments are the snapshot's (extending the
    streamed prefix: ``payload_extended``); the response did not complete, so nothing
    is run (R13 ``not_completed``)."""
    result = reduce1(
        created(),
        added(0, rs("rs_1", encrypted_content="enc_open")),
        added(1, fc("fc_1", "call_1", "search")),
        delta(1, "fc_1", '{"query":'),
        ended(
            "incomplete",
            [
                rs("rs_1", encrypted_content="enc_final"),
                fc("fc_1", "call_1", "search", '{"query":"full"}'),
            ],
        ),
        status="incomplete",
    )
    assert rows(result) == [
        row(0, rs("rs_1", encrypted_content="enc_final"), "wire", "none", "completed", False),
        row(1, fc("fc_1", "call_1", "search", '{"query":"full"}'), "wire", "snapshot",
            "completed", False),
    ]
    assert [entry.execution.value for entry in result.items] == ["not_a_call", "not_completed"]
    assert codes(result) == ["payload_extended", "response_error"]


@pytest.mark.parametrize(
    ("first_id", "terminal_id", "final_id", "id_codes"),
    [
        (None, "fc_1", "fc_1", []),
        ("fc_1", None, "fc_1", []),
        ("fc_old", "fc_new", "fc_old", ["id_changed"]),
    ],
    ids=["introduced", "omitted", "changed"],
)
def test_opencode_13_reconciles_a_terminal_call_whose_item_id_changes(
    first_id: str | None, terminal_id: str | None, final_id: str, id_codes: list[str]
) -> None:
    """Same: exactly one call with the final input; a changed id keeps the first.
    Differs for "introduced": opencode keeps no id (the first admission had none); R6
    only protects values once set, and fills a missing id from a later item.  The
    snapshot lists the item twice: the second copy is a ``duplicate_item``."""
    terminal = fc(terminal_id, "call_1", "search", '{"query":"final"}')
    result = reduce1(
        created(),
        added(0, fc(first_id, "call_1", "search")),
        completed([terminal, terminal]),
    )
    assert rows(result) == [
        row(0, fc(final_id, "call_1", "search", '{"query":"final"}'), "wire", "snapshot",
            "completed", True)
    ]
    assert codes(result) == sorted(["duplicate_item", *id_codes])


def test_opencode_14_does_not_reconcile_an_unseen_call_through_a_colliding_item_id() -> None:
    """Same: the colliding snapshot item is not merged into call_1 (call_ids differ, so
    not compatible, R6).  Differs: opencode flushes call_1 with ``{}`` and ignores the
    snapshot item; we keep call_1 unconfirmed (it never got a done, and the snapshot does
    not list it) and admit the snapshot item as its own executable call at slot 0."""
    colliding = fc("fc_1", "call_unseen", "wrong", '{"x":1}')
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "lookup")),
        delta(0, "fc_1", "{}"),
        completed([colliding]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", "lookup", "{}"), "wire", "deltas", "streaming", False),
        row(0, colliding, "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == ["slot_reused", "snapshot_only_item", "unconfirmed_item"]


def test_opencode_15_preserves_call_identity_and_order_when_an_item_id_is_reused() -> None:
    """Same order call_1, call_2, call_3 and the reused id fc_1 does not merge call_3
    into call_1 (different call_ids).  Differs: call_2 never got a done and the snapshot
    is empty, so it is kept but not executable (opencode flushes it)."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "a")),
        added(1, fc("fc_2", "call_2", "b")),
        delta(1, "fc_2", '{"b":2}'),
        done(0, fc("fc_1", "call_1", "a", '{"a":1}')),
        added(2, fc("fc_1", "call_3", "c")),
        done(2, fc("fc_1", "call_3", "c", '{"c":3}')),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", "a", '{"a":1}'), "wire", "item_done", "completed", True),
        row(1, fc("fc_2", "call_2", "b", '{"b":2}'), "wire", "deltas", "streaming", False),
        row(2, fc("fc_1", "call_3", "c", '{"c":3}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["snapshot_absent", "unconfirmed_item"]


def test_opencode_16_flushes_pending_id_less_call() -> None:
    """Differs (table D row 4): opencode executes the id-less pending call; we keep it,
    unconfirmed and not executable, with a minted id (R11)."""
    result = reduce1(
        created(),
        added(0, fc(None, "call_1", "lookup")),
        delta(0, None, "{}"),
        completed(None),
    )
    minted = mint_item_id("resp_1", 0, 0, "function_call")
    assert rows(result) == [
        row(0, fc(minted, "call_1", "lookup", "{}"), "minted", "deltas", "streaming", False)
    ]
    assert codes(result) == ["id_minted", "snapshot_absent", "unconfirmed_item"]


def test_opencode_17_uses_the_final_name_and_namespace_when_the_call_starts_without() -> None:
    """Same answer: missing identity values are filled by later items (R6)."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", None)),
        delta(0, "fc_1", "{}"),
        done(0, fc("fc_1", "call_1", "lookup", "{}", namespace="tools")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", "lookup", "{}", namespace="tools"), "wire", "item_done",
            "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_opencode_18_emits_one_tool_call_when_a_completed_item_is_repeated() -> None:
    """Same as the completedTools-era opencode (post-#46965 emits two): every entry
    completes at most once; the repeated done is a ``duplicate_item``."""
    call = fc("fc_1", "call_1", "lookup", "{}")
    result = reduce1(
        created(), added(0, fc("fc_1", "call_1", "lookup")), done(0, call), done(0, call),
        completed(),
    )
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["duplicate_item", "snapshot_absent"]


def test_opencode_19_does_not_reopen_a_completed_call_on_replayed_added_and_delta() -> None:
    """Same as the completedTools-era opencode (post-#46965 reopens it): a replayed
    added is a ``duplicate_item`` and the replayed delta is a ``late_event``."""
    call = fc("fc_1", "call_1", "lookup", "{}")
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "lookup")),
        done(0, call),
        added(0, fc("fc_1", "call_1", "lookup")),
        delta(0, "fc_1", '{"again":1}'),
        completed(),
    )
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["duplicate_item", "late_event", "snapshot_absent"]


def test_opencode_20_keeps_parseable_arguments_non_executable_until_confirmed() -> None:
    """Same answer: parseable arguments and even ``arguments.done`` do not make a call
    executable when the response is incomplete (R9)."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "lookup")),
        delta(0, "fc_1", '{"q":1}'),
        args_done(0, "fc_1", '{"q":1}'),
        ended("incomplete"),
        status="incomplete",
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", "lookup", '{"q":1}'), "wire", "payload_done", "incomplete",
            False)
    ]
    assert codes(result) == ["response_error"]


@pytest.mark.parametrize(
    ("done_text", "final", "text_codes"),
    [
        ("Draft expanded", "Draft expanded", ["divergent_payload", "divergent_payload"]),
        ("D", "D", ["divergent_payload", "divergent_payload"]),
        ("Replacement", "Replacement", ["divergent_payload", "divergent_payload"]),
        ("", "Part final", ["divergent_payload", "empty_payload_ignored"]),
    ],
    ids=["expanded", "shorter", "replacement", "empty"],
)
def test_opencode_21_replaces_streamed_text_with_completed_item_text(
    done_text: str, final: str, text_codes: list[str]
) -> None:
    """Same for non-empty done text: the latest non-empty offer wins, reported as
    ``divergent_payload`` (R7).  Differs for an empty done text: opencode ends with
    ``""``; we keep ``"Part final"`` (empty never erases).  The done ``phase`` wins."""
    result = reduce1(
        created(),
        added(0, msg("msg_1", phase="commentary")),
        text_delta(0, "msg_1", "Draft"),
        text_done(0, "msg_1", "Part final"),
        done(0, msg("msg_1", text_part(done_text), phase="final_answer")),
        completed(),
    )
    expected = msg("msg_1", text_part(final), phase="final_answer")
    source = "item_done" if done_text else "payload_done"
    assert rows(result) == [row(0, expected, "wire", source, "completed", False)]
    assert codes(result) == sorted([*text_codes, "part_not_added", "snapshot_absent"])


def test_opencode_22_joins_completed_text_and_refusal_parts_without_streamed_text() -> None:
    """Same content, kept as two parts of one wire item (joining them is rendering)."""
    final = msg("msg_1", text_part("Answer."), refusal_part(" Cannot help."))
    result = reduce1(created(), added(0, msg("msg_1")), done(0, final), completed([final]))
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", False)]
    assert codes(result) == []


def test_opencode_23_does_not_create_an_empty_text_fragment_for_an_empty_message() -> None:
    """Differs in form: opencode emits no text fragment; we keep the wire item as the
    snapshot gave it (an empty text part), with ``payload_source`` "none"."""
    empty = msg("msg_1", text_part(""))
    result = reduce1(created(), added(0, msg("msg_1")), done(0, empty), completed([empty]))
    assert rows(result) == [row(0, empty, "wire", "none", "completed", False)]
    assert codes(result) == []


def test_opencode_24_assembles_a_done_only_message_once_across_replayed_events() -> None:
    """Same answer: "Recovered" once.  The stray delta before any item is an
    ``orphan_event`` (R5: unbound slot, unknown id), never guessed onto the message."""
    final = msg("msg_1", text_part("Recovered"))
    result = reduce1(
        created(),
        text_delta(0, "msg_1", "Stray"),
        done(0, final),
        added(0, msg("msg_1")),
        done(0, final),
        completed(),
    )
    assert rows(result) == [row(0, final, "wire", "item_done", "completed", False)]
    assert codes(result) == [
        "done_only_item",
        "duplicate_item",
        "duplicate_item",
        "orphan_event",
        "snapshot_absent",
    ]


@pytest.mark.parametrize(
    ("streamed", "done_item", "expected", "text_codes"),
    [
        (
            summary_delta(0, "rs_1", "streamed", 0),
            rs("rs_1", "From summary."),
            rs("rs_1", "From summary."),
            ["divergent_payload"],
        ),
        (
            delta(0, "rs_1", "streamed", "reasoning_text", content_index=0),
            rs("rs_1", content=[{"type": "reasoning_text", "text": "From raw text."}]),
            rs("rs_1", content=[{"type": "reasoning_text", "text": "From raw text."}]),
            ["divergent_payload"],
        ),
        (
            summary_delta(0, "rs_1", "streamed", 0),
            rs("rs_1", "", content=[]),
            rs("rs_1", "streamed", content=[]),
            ["empty_payload_ignored"],
        ),
    ],
    ids=["summary", "raw_text", "streamed_fallback"],
)
def test_opencode_25_uses_summary_raw_text_or_streamed_fallback_at_item_completion(
    streamed: Event, done_item: Item, expected: Item, text_codes: list[str]
) -> None:
    """Same answer: each reasoning channel takes its latest non-empty value; with an
    all-empty done item the streamed text stays (R7)."""
    result = reduce1(created(), added(0, rs("rs_1")), streamed, done(0, done_item), completed())
    source = "deltas" if text_codes == ["empty_payload_ignored"] else "item_done"
    assert rows(result) == [row(0, expected, "wire", source, "completed", False)]
    assert codes(result) == sorted([*text_codes, "part_not_added", "snapshot_absent"])


def test_opencode_26_replaces_streamed_reasoning_with_the_completed_summary() -> None:
    """Same answer: the snapshot's two summary parts win over what was streamed."""
    final = rs("rs_1", "Final one.", "Final two.")
    result = reduce1(
        created(),
        added(0, rs("rs_1")),
        summary_delta(0, "rs_1", "Draft one", 0),
        summary_delta(0, "rs_1", "Draft two", 1),
        done(0, rs("rs_1")),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", False)]
    assert codes(result) == ["divergent_payload", "divergent_payload", *["part_not_added"] * 2]


def test_opencode_27_does_not_store_malformed_completed_reasoning_items() -> None:
    """Differs: opencode drops a reasoning item whose body is malformed; we do not
    validate item bodies.  An item with a string ``type`` is admitted and passed through
    as the wire gave it (nothing lost); a channel we cannot read stays empty."""
    malformed = {"type": "reasoning", "id": "rs_1", "summary": "not a list"}
    result = reduce1(created(), completed([malformed]))
    assert rows(result) == [row(0, malformed, "wire", "none", "completed", False)]
    assert codes(result) == ["snapshot_only_item"]


@pytest.mark.parametrize("terminal", ["completed", "incomplete"])
def test_opencode_28_part_finals_followed_by_a_terminal_without_item_completion(
    terminal: str,
) -> None:
    """Differs: opencode keeps the streamed text and ignores the part finals; R7 counts
    ``output_text.done`` / ``content_part.done`` as offers, so the latest non-empty
    one ("Final part") wins, reported as ``divergent_payload``."""
    end = completed(None) if terminal == "completed" else ended("incomplete")
    result = reduce1(
        created(),
        added(0, msg("msg_1")),
        text_delta(0, "msg_1", "Streamed"),
        text_done(0, "msg_1", "Final part"),
        part_event("content_part.done", 0, "msg_1", text_part("Final part"), content_index=0),
        end,
        status=terminal,
    )
    state = "completed" if terminal == "completed" else "incomplete"
    assert rows(result) == [
        row(0, msg("msg_1", text_part("Final part")), "wire", "payload_done", state, False)
    ]
    end_code = "snapshot_absent" if terminal == "completed" else "response_error"
    assert codes(result) == sorted(["divergent_payload", "part_not_added", end_code])


def test_opencode_bedrock_mantle_replays_reasoning_with_message_prefixed_ids() -> None:
    """Same answer: Mantle's ``msg_`` reasoning id is a wire id; it survives every
    event and is replayed unchanged as a ``reasoning`` input item."""
    final = rs("msg_95d4d0af4350432a", "Looked it up.", encrypted_content="enc")
    result = reduce1(
        created(),
        added(0, rs("msg_95d4d0af4350432a")),
        summary_delta(0, "msg_95d4d0af4350432a", "Looked it up.", 0),
        done(0, final),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", False)]
    assert replay_input([item.item for item in result.items]) == [final]
    assert codes(result) == ["part_not_added"]  # the summary part is opened by its delta


# =======================================================================================
# codex, B.4 (history_tests.rs, session tests, responses.rs, the .sse fixture)
# =======================================================================================


def _history(*items: Item) -> list[Item]:
    """The wire items of a one-response stream that carries ``items`` as done-only items."""
    result = reduce1(created(), *(done(i, item) for i, item in enumerate(items)), completed())
    return [entry.item for entry in result.items]


def _aborted(kind: str, call_id: str, output_id: str | None) -> Item:
    output: Item = {"type": kind, "call_id": call_id, "output": "aborted"}
    if output_id is not None:
        output["id"] = output_id
    return output


def test_codex_normalize_adds_missing_output_for_function_call() -> None:
    """Same shape (call, then an "aborted" output).  Differs in the output id: codex's
    call has no id, so its output has none; our result never has an id-less item (R11
    mints one), so the output id is the UUIDv5 of the minted id.  Replaying an id-less
    item directly gives codex's legacy answer byte for byte."""
    [call] = _history(fc(None, "call-x", "f", "{}"))
    minted = mint_item_id("resp_1", 0, 0, "function_call")
    assert call["id"] == minted
    assert replay_input([call]) == [
        call,
        _aborted("function_call_output", "call-x", synthetic_output_id("fco", minted)),
    ]
    bare = fc(None, "call-x", "f", "{}")
    assert replay_input([bare]) == [bare, _aborted("function_call_output", "call-x", None)]


def test_codex_normalize_adds_missing_output_for_custom_tool_call() -> None:
    """Same answer: a ``custom_tool_call_output`` "aborted" right after the call."""
    history = _history(ctc("ctc_1", "call-c", "apply_patch", "patch"))
    assert replay_input(history) == [
        *history,
        _aborted(
            "custom_tool_call_output", "call-c", "ctco_ffd2c872-81a7-5a00-b6f6-884096d1f522"
        ),
    ]


def test_codex_normalize_adds_missing_output_for_local_shell_call_with_id() -> None:
    """Same answer: a shell call is answered by a ``function_call_output``."""
    shell = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "call-s",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    history = _history(shell)
    assert history == [shell]
    assert replay_input(history) == [
        shell,
        _aborted("function_call_output", "call-s", "fco_37093384-5cd0-5813-8a86-723bfcccbbb2"),
    ]


@pytest.mark.parametrize(
    "orphan",
    [
        {"type": "function_call_output", "call_id": "call-gone", "output": "ok"},
        {"type": "custom_tool_call_output", "call_id": "call-gone", "output": "ok"},
        {
            "type": "tool_search_output",
            "call_id": "call-gone",
            "execution": "client",
            "status": "completed",
            "tools": [],
        },
    ],
    ids=["function", "custom", "client_tool_search"],
)
def test_codex_normalize_removes_orphan_outputs(orphan: Item) -> None:
    """Same answer: outputs whose call is not in the history are dropped."""
    history = _history(msg("msg_1", text_part("Hi")))
    assert replay_input([*history, orphan]) == history


def test_codex_normalize_mixed_inserts_and_removals() -> None:
    """Same placement (each output right after its call, the orphan removed).  Differs
    in ids: codex's calls have none so its outputs have none; ours carry the outputs'
    UUIDv5 of the calls' (minted) ids."""
    shell = {
        "type": "local_shell_call",
        "call_id": "s1",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    history = _history(fc(None, "f1", "f", "{}"), ctc(None, "t1", "t", "x"), shell)
    orphan = {"type": "custom_tool_call_output", "call_id": "c2", "output": "ok"}
    ids = [item["id"] for item in history]
    assert ids == [
        mint_item_id("resp_1", 0, 0, "function_call"),
        mint_item_id("resp_1", 1, 1, "custom_tool_call"),
        mint_item_id("resp_1", 2, 2, "local_shell_call"),
    ]
    assert replay_input([history[0], orphan, history[1], history[2]]) == [
        history[0],
        _aborted("function_call_output", "f1", synthetic_output_id("fco", ids[0])),
        history[1],
        _aborted("custom_tool_call_output", "t1", synthetic_output_id("ctco", ids[1])),
        history[2],
        _aborted("function_call_output", "s1", synthetic_output_id("fco", ids[2])),
    ]


def test_codex_normalize_adds_missing_output_for_function_call_inserts_output() -> None:
    """Same answer, byte for byte: the documented id ``fco:fc_1``."""
    history = _history(fc("fc_1", "call_1", "f", "{}"))
    assert replay_input(history) == [
        *history,
        _aborted("function_call_output", "call_1", "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4"),
    ]


def test_codex_for_prompt_assigns_stable_id_to_synthetic_output_without_reordering() -> None:
    """Same answer: two projections are equal, the output sits between the call and the
    later user message, and its id starts with ``fco_``."""
    history = _history(fc("existing", "call_1", "f", "{}"))
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    first = replay_input([*history, user])
    second = replay_input([*history, user])
    assert first == second
    assert [item["type"] for item in first] == ["function_call", "function_call_output", "message"]
    assert first[1]["id"].startswith("fco_")
    assert first[1]["id"] == synthetic_output_id("fco", "existing")


def test_codex_normalize_adds_missing_output_for_tool_search_call() -> None:
    """Same shape; differs from the later codex copy in ``status``: we follow 0803cc58's
    ``"completed"`` (the later copy says ``"incomplete"``)."""
    search = {
        "type": "tool_search_call",
        "id": "tsc_1",
        "call_id": "call-t",
        "status": "completed",
        "execution": "client",
        "arguments": {"query": "weather"},
    }
    history = _history(search)
    assert replay_input(history) == [
        search,
        {
            "type": "tool_search_output",
            "id": "tso_f380c6b3-5815-5031-91ee-dd1c77f963ee",
            "call_id": "call-t",
            "execution": "client",
            "status": "completed",
            "tools": [],
        },
    ]


@pytest.mark.parametrize(
    "case",
    [
        "custom_tool_call_missing_output",
        "local_shell_missing_output",
        "orphan_function_output",
        "orphan_custom_output",
        "orphan_client_tool_search_output",
    ],
)
def test_codex_panics_in_debug_variants(case: str) -> None:
    """Differs: codex panics on these in debug builds; we never raise and always give
    the release-build answer (an inserted output, or the orphan removed)."""
    shell = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "call-s",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    orphans: dict[str, Item] = {
        "orphan_function_output": {"type": "function_call_output", "call_id": "x", "output": ""},
        "orphan_custom_output": {"type": "custom_tool_call_output", "call_id": "x", "output": ""},
        "orphan_client_tool_search_output": {
            "type": "tool_search_output",
            "call_id": "x",
            "execution": "client",
            "tools": [],
        },
    }
    if case == "custom_tool_call_missing_output":
        history = _history(ctc("ctc_1", "call-c", "t", "x"))
        assert [i["type"] for i in replay_input(history)] == [
            "custom_tool_call",
            "custom_tool_call_output",
        ]
    elif case == "local_shell_missing_output":
        history = _history(shell)
        assert [i["type"] for i in replay_input(history)] == [
            "local_shell_call",
            "function_call_output",
        ]
    else:
        history = _history(msg("msg_1", text_part("Hi")))
        assert replay_input([*history, orphans[case]]) == history


def test_codex_normalization_retains_local_shell_outputs() -> None:
    """Same answer: a shell call's output is kept and no synthetic one is added."""
    shell = {
        "type": "local_shell_call",
        "id": "lsh_1",
        "call_id": "call-s",
        "status": "completed",
        "action": {"type": "exec", "command": ["ls"], "env": {}},
    }
    output = {"type": "function_call_output", "call_id": "call-s", "output": "a.txt"}
    history = _history(shell)
    assert replay_input([*history, output]) == [shell, output]


@pytest.mark.parametrize(
    ("call", "output_type"),
    [
        (fc("fc_1", "call_1", "f", "{}"), "function_call_output"),
        (
            {
                "type": "local_shell_call",
                "id": "lsh_1",
                "call_id": "call_1",
                "status": "completed",
                "action": {"type": "exec", "command": ["ls"], "env": {}},
            },
            "function_call_output",
        ),
        (ctc("ctc_1", "call_1", "t", "x"), "custom_tool_call_output"),
    ],
    ids=["function_call", "local_shell_pair", "custom_tool_pair"],
)
def test_codex_remove_first_item_removes_matching_output(call: Item, output_type: str) -> None:
    """codex's ``remove_first_item_removes_matching_output_for_function_call`` and
    ``…handles_local_shell_pair`` / ``…handles_custom_tool_pair``: removing a call removes
    its output.  We have no history editing; replay gives the same effect: once the
    client drops the call, its output is an orphan and is dropped too."""
    history = _history(call)
    output = {"type": output_type, "call_id": "call_1", "output": "done"}
    assert replay_input([*history, output]) == [*history, output]
    assert replay_input([output]) == []


def test_codex_remove_first_item_removes_matching_call_for_output() -> None:
    """Differs: codex removes the call together with its removed output; a client that
    drops only the output from our replay gets the call answered by a synthetic
    "aborted" output instead (R12), so the call is never sent unanswered."""
    history = _history(fc("fc_1", "call_1", "f", "{}"))
    assert replay_input(history) == [
        *history,
        _aborted("function_call_output", "call_1", synthetic_output_id("fco", "fc_1")),
    ]


@pytest.mark.parametrize(
    ("item_type", "role", "prefix"),
    [
        ("message", "assistant", "msg"),
        ("agent_message", "assistant", "item"),
        ("additional_tools", "developer", "at"),
        ("message", "user", "msg"),
    ],
    ids=["agent_message_ids:msg", "agent_message_ids:amsg", "additional_tools_ids", "user"],
)
def test_codex_assign_missing_response_item_ids(item_type: str, role: str, prefix: str) -> None:
    """Session tests 11-13.  Same prefixes for messages (``msg_``, also for the user
    message of ``default_turn_context_assigns_missing_response_item_ids``) and additional
    tools (``at_``); the suffix differs (our deterministic UUIDv5, codex's UUIDv7).
    Differs for the beta ``agent_message``: our catalogue does not know the type, so it
    passes through with the generic prefix ``item_`` (codex: ``amsg_``)."""
    item = {"type": item_type, "role": role, "content": []}
    result = reduce1(created(), done(0, item), completed())
    minted = mint_item_id("resp_1", 0, 0, item_type)
    assert minted.startswith(prefix + "_")
    assert rows(result) == [row(0, item | {"id": minted}, "minted", "none", "completed", False)]
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


def test_codex_sse_parses_items_and_completed() -> None:
    """Same answer: two done-only messages and the completed response."""
    first = msg("msg_1", text_part("Hello"))
    second = msg("msg_2", text_part("World"))
    result = reduce1(created(), done(0, first), done(1, second), completed())
    assert rows(result) == [
        row(0, first, "wire", "item_done", "completed", False),
        row(1, second, "wire", "item_done", "completed", False),
    ]
    assert codes(result) == ["done_only_item", "done_only_item", "snapshot_absent"]


def test_codex_cli_responses_fixture_sse() -> None:
    """Same answer as the hand-written fixture expects: one assistant message from a
    done-only id-less item; the empty ``completed.output`` does not erase it."""
    message = msg(None, text_part("fixture hello"))
    result = reduce1(created(), done(None, message), completed())
    minted = mint_item_id("resp_1", None, 0, "message")
    assert rows(result) == [
        row(None, message | {"id": minted}, "minted", "item_done", "completed", False)
    ]
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


# =======================================================================================
# AxonHub, C.4 (stream_tool_roundtrip_test.go)
# =======================================================================================

AX_ARGS = '{"query":"x"}'


def test_axonhub_01_preserves_function_call_arguments_from_final_events() -> None:
    """Same answer."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        args_done(0, "fc_1", AX_ARGS),
        done(0, call),
        completed([call]),
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


def test_axonhub_02_output_item_done_carries_complete_function_call() -> None:
    """Same answer: ``arguments.done`` confirms the call (R9) and the item carries the
    added item's identity with the final arguments, though no done item came."""
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        args_done(0, "fc_1", AX_ARGS),
        completed(),
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", AX_ARGS), "wire", "payload_done", "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_axonhub_03_preserves_arguments_when_arguments_done_is_missing() -> None:
    """Same answer."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(
        created(), added(0, axfc("fc_1", "call_1")), done(0, call), completed([call])
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


def test_axonhub_04_preserves_arguments_from_completed_snapshot() -> None:
    """Same answer: the snapshot alone confirms and completes the call."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(created(), added(0, axfc("fc_1", "call_1")), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


def test_axonhub_05_preserves_function_call_from_output_item_done_without_added() -> None:
    """Same answer: done-only, and the empty snapshot does not erase it."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(created(), done(0, call), completed([]))
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["done_only_item", "snapshot_absent"]


def test_axonhub_06_preserves_custom_tool_from_completed_snapshot_without_added() -> None:
    """Same answer."""
    call = axctc("ctc_1", "call_1", "patch", namespace=NS)
    result = reduce1(created(), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["snapshot_only_item"]  # reported: never streamed (R6)


def test_axonhub_07_creates_tool_call_from_final_item_without_added() -> None:
    """Same answer."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(created(), done(0, call), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["done_only_item"]


def test_axonhub_08_generates_stable_item_id_when_added_omits_it() -> None:
    """Same answer, pinned where AxonHub's test is not: the id is the upstream done
    item's ``fc_missing_item_id`` (a wire id beats minting, R6), one item, not two."""
    call = axfc("fc_missing_item_id", "call_1", AX_ARGS)
    result = reduce1(
        created(), added(0, axfc(None, "call_1")), done(0, call), completed([call])
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


def test_axonhub_09_associates_function_delta_by_output_index_when_added_omits_id() -> None:
    """Same answer: the delta is routed by its slot, and the empty done arguments do
    not erase it.  The id is first adopted from the delta, then confirmed by the done
    item's wire id."""
    result = reduce1(
        created(),
        added(0, axfc(None, "call_1")),
        delta(0, "fc_partial_1", AX_ARGS),
        done(0, axfc("fc_partial_1", "call_1", "")),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_partial_1", "call_1", AX_ARGS), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == [
        "empty_payload_ignored",
        "id_adopted_from_slot",
        "item_id_unrecognized",
        "snapshot_absent",
    ]


def test_axonhub_10_associates_custom_delta_by_output_index_when_added_omits_id() -> None:
    """Same answer for custom input; the done item has no ``input`` field at all."""
    result = reduce1(
        created(),
        added(0, axctc(None, "call_1")),
        delta(0, "ctc_partial_1", "patch", "custom_tool_call_input"),
        done(0, axctc("ctc_partial_1", "call_1", None)),
        completed([]),
    )
    assert rows(result) == [
        row(0, axctc("ctc_partial_1", "call_1", "patch"), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == ["id_adopted_from_slot", "item_id_unrecognized", "snapshot_absent"]


def test_axonhub_11_does_not_merge_different_tool_types_that_reuse_output_index() -> None:
    """Same answer: two items on slot 0 (``slot_reused``), each done matched through the
    shared slot by its own call_id or id."""
    result = reduce1(
        created(),
        added(0, axfc(None, "call_function")),
        added(0, axctc("ctc_reused_custom", None)),
        done(0, axfc("fc_reused_function", "call_function", "{}")),
        done(0, axctc("ctc_reused_custom", "call_custom", "patch")),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_reused_function", "call_function", "{}"), "wire", "item_done",
            "completed", True),
        row(0, axctc("ctc_reused_custom", "call_custom", "patch"), "wire", "item_done",
            "completed", True),
    ]
    assert codes(result) == ["slot_reused", "snapshot_absent"]


def test_axonhub_12_does_not_merge_same_type_tools_that_reuse_output_index() -> None:
    """Same answer: two partial function items on slot 0 (one without id, one without
    call_id); each done picks out its own entry on the shared slot, by call_id or id."""
    result = reduce1(
        created(),
        added(0, axfc(None, "call_a")),
        added(0, axfc("fc_b", None)),
        done(0, axfc("fc_a", "call_a", '{"a":1}')),
        done(0, axfc("fc_b", "call_b", '{"b":2}')),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_a", "call_a", '{"a":1}'), "wire", "item_done", "completed", True),
        row(0, axfc("fc_b", "call_b", '{"b":2}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["slot_reused", "snapshot_absent"]


def test_axonhub_13_rejects_ambiguous_late_item_id_after_output_index_reuse() -> None:
    """Same decision, different scope: the event is rejected as ``ambiguous_route``, but
    only that event: AxonHub fails the whole stream, we reduce the rest (R5)."""
    result = reduce1(
        created(),
        added(0, axfc(None, "call_a")),
        added(0, axfc(None, "call_b")),
        delta(0, "fc_ambiguous_a", AX_ARGS),
        done(0, axfc("fc_a", "call_a", '{"a":1}')),
        done(0, axfc("fc_b", "call_b", '{"b":2}')),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_a", "call_a", '{"a":1}'), "wire", "item_done", "completed", True),
        row(0, axfc("fc_b", "call_b", '{"b":2}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["ambiguous_route", "slot_reused", "snapshot_absent"]
    [rejected] = [d for d in result.to_json()["diagnostics"] if d["code"] == "ambiguous_route"]
    assert (rejected["severity"], rejected["event_index"]) == ("error", 3)
    assert rejected["event"]["item_id"] == "fc_ambiguous_a"


def test_axonhub_14_final_item_supplies_missing_call_id() -> None:
    """Same answer: a missing call_id is filled by the done item (R6)."""
    result = reduce1(
        created(),
        added(0, axfc("fc_1", None)),
        done(0, axfc("fc_1", "call_1", AX_ARGS)),
        completed([axfc("fc_1", "call_1", AX_ARGS)]),
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", AX_ARGS), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == []


def test_axonhub_15_empty_final_arguments_do_not_erase_streamed_arguments() -> None:
    """Same answer (R7: empty never erases)."""
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        delta(0, "fc_1", AX_ARGS),
        args_done(0, "fc_1", ""),
        done(0, axfc("fc_1", "call_1", "")),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", AX_ARGS), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == ["empty_payload_ignored", "empty_payload_ignored", "snapshot_absent"]


def test_axonhub_16_accepts_conflicting_final_function_arguments() -> None:
    """Same final value; we also report each contradiction (``divergent_payload``)."""
    final = axfc("fc_1", "call_1", '{"v":"different"}')
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        delta(0, "fc_1", '{"v":"first"}'),
        args_done(0, "fc_1", '{"v":"function-done"}'),
        done(0, final),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["divergent_payload", "divergent_payload"]


def test_axonhub_17_completed_snapshot_corrects_streamed_function_arguments() -> None:
    """Same answer (table D row 3)."""
    final = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        delta(0, "fc_1", "{}"),
        completed([final]),
    )
    assert rows(result) == [row(0, final, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["divergent_payload"]


def test_axonhub_18_accepts_conflicting_final_custom_tool_input() -> None:
    """Same final value, with both contradictions reported."""
    result = reduce1(
        created(),
        added(0, axctc("ctc_1", "call_1")),
        delta(0, "ctc_1", "draft", "custom_tool_call_input"),
        input_done(0, "ctc_1", "final"),
        done(0, axctc("ctc_1", "call_1", "output-item-final")),
        completed([]),
    )
    assert rows(result) == [
        row(0, axctc("ctc_1", "call_1", "output-item-final"), "wire", "item_done", "completed",
            True)
    ]
    assert codes(result) == ["divergent_payload", "divergent_payload", "snapshot_absent"]


def test_axonhub_19_explicit_empty_final_custom_input() -> None:
    """Differs: AxonHub lets an explicit ``input: ""`` clear the streamed input; R7
    never lets an empty value erase a non-empty one (gateways blank terminal fields), for
    custom input exactly as for function arguments."""
    result = reduce1(
        created(),
        added(0, axctc("ctc_1", "call_1")),
        delta(0, "ctc_1", "draft", "custom_tool_call_input"),
        done(0, axctc("ctc_1", "call_1", "")),
        completed([]),
    )
    assert rows(result) == [
        row(0, axctc("ctc_1", "call_1", "draft"), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == ["empty_payload_ignored", "snapshot_absent"]


def test_axonhub_20_completed_snapshot_explicit_empty_custom_input() -> None:
    """Differs like #19: the snapshot's empty input does not clear "draft".  The
    snapshot still confirms the call, so it is executable with the streamed input."""
    result = reduce1(
        created(),
        added(0, axctc("ctc_1", "call_1")),
        delta(0, "ctc_1", "draft", "custom_tool_call_input"),
        completed([axctc("ctc_1", "call_1", "")]),
    )
    assert rows(result) == [
        row(0, axctc("ctc_1", "call_1", "draft"), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == ["empty_payload_ignored"]


def test_axonhub_21_does_not_emit_provisional_tool_call_on_completed_response() -> None:
    """Same decision (no call executes); we keep the provisional item, unconfirmed."""
    result = reduce1(
        created(), added(0, axfc("fc_1", "call_1")), delta(0, "fc_1", "{}"), completed([])
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", "{}"), "wire", "deltas", "streaming", False)
    ]
    assert codes(result) == ["snapshot_absent", "unconfirmed_item"]


def test_axonhub_22_does_not_emit_tool_call_when_response_fails() -> None:
    """Same answer: a done call of a failed response is not executable."""
    result = reduce1(
        created(),
        added(0, axfc("fc_1", "call_1")),
        delta(0, "fc_1", AX_ARGS),
        done(0, axfc("fc_1", "call_1", AX_ARGS)),
        ended("failed"),
        status="failed",
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", AX_ARGS), "wire", "item_done", "done", False)
    ]
    assert codes(result) == ["response_error"]


def test_axonhub_23_duplicate_completed_is_idempotent() -> None:
    """Same answer: the second completed is ``after_terminal`` and changes nothing."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(created(), done(0, call), completed([call]), completed([call]))
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["after_terminal", "done_only_item"]


def test_axonhub_24_preserves_multiple_final_only_tools() -> None:
    """Same answer: both snapshot-only calls, in array order, ids kept."""
    function = axfc("fc_1", "call_1", AX_ARGS)
    custom = axctc("ctc_1", "call_2", "patch", namespace=NS)
    result = reduce1(created(), completed([function, custom]))
    assert rows(result) == [
        row(0, function, "wire", "snapshot", "completed", True),
        row(1, custom, "wire", "snapshot", "completed", True),
    ]
    assert codes(result) == ["snapshot_only_item"] * 2


def test_axonhub_25_duplicate_output_item_done_does_not_repeat_arguments() -> None:
    """Same answer: the arguments once, the second done a ``duplicate_item``."""
    call = axfc("fc_1", "call_1", AX_ARGS)
    result = reduce1(
        created(), added(0, axfc("fc_1", "call_1")), done(0, call), done(0, call), completed([call])
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == ["duplicate_item"]


def test_axonhub_26_preserves_custom_tool_input_from_final_events() -> None:
    """Same answer."""
    patch = "*** Begin Patch\n*** End Patch\n"
    call = axctc("ctc_1", "call_1", patch)
    result = reduce1(
        created(),
        added(0, axctc("ctc_1", "call_1")),
        input_done(0, "ctc_1", patch),
        done(0, call),
        completed([call]),
    )
    assert rows(result) == [row(0, call, "wire", "snapshot", "completed", True)]
    assert codes(result) == []


def test_axonhub_27_preserves_function_call_metadata_from_final_events() -> None:
    """Same answer: empty name/namespace count as missing and are filled (R6)."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1", "", namespace="")),
        delta(0, "fc_1", AX_ARGS),
        done(0, axfc("fc_1", "call_1", AX_ARGS)),
        completed([]),
    )
    assert rows(result) == [
        row(0, axfc("fc_1", "call_1", AX_ARGS), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_axonhub_28_preserves_custom_tool_metadata_from_final_events() -> None:
    """Same answer for a custom tool."""
    result = reduce1(
        created(),
        added(0, ctc("ctc_1", "call_1", "", namespace="")),
        delta(0, "ctc_1", "patch", "custom_tool_call_input"),
        done(0, axctc("ctc_1", "call_1", "patch", namespace=NS)),
        completed([]),
    )
    assert rows(result) == [
        row(0, axctc("ctc_1", "call_1", "patch", namespace=NS), "wire", "item_done",
            "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


@pytest.mark.parametrize(
    "call",
    [axfc("fc_1", "call_1", AX_ARGS), axctc("ctc_1", "call_1", "patch")],
    ids=["function", "custom"],
)
def test_axonhub_29_preserves_tool_item_ids_separately_from_call_ids(call: Item) -> None:
    """Same answer: the item id and the call id are different fields, both kept."""
    result = reduce1(created(), added(0, call), done(0, call), completed([call]))
    item = only(result).item
    assert (item["id"], item["call_id"]) == (call["id"], "call_1")
    assert codes(result) == []


@pytest.mark.parametrize(
    ("call", "prefix"),
    [(axfc(None, "call_1", AX_ARGS), "fc_"), (axctc(None, "call_1", "patch"), "ctc_")],
    ids=["function", "custom"],
)
def test_axonhub_30_generates_protocol_valid_tool_item_ids(call: Item, prefix: str) -> None:
    """Same answer: minted ids carry the type's wire prefix and are not the call_id."""
    result = reduce1(created(), done(0, call), completed())
    entry = only(result)
    assert entry.item["id"].startswith(prefix)
    assert entry.item["id"] != entry.item["call_id"]
    assert entry.id_source.value == "minted"
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


def test_axonhub_31_does_not_duplicate_initial_custom_tool_input() -> None:
    """Same answer: input carried by the added item and by the first delta appears once
    (the added item's payload is not an offer that deltas append to)."""
    result = reduce1(
        created(),
        added(0, axctc("ctc_1", "call_1", "*** Begin")),
        delta(0, "ctc_1", "*** Begin", "custom_tool_call_input"),
        delta(0, "ctc_1", " Patch", "custom_tool_call_input"),
        done(0, axctc("ctc_1", "call_1", "*** Begin Patch")),
        completed(),
    )
    assert rows(result) == [
        row(0, axctc("ctc_1", "call_1", "*** Begin Patch"), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == ["snapshot_absent"]


def test_axonhub_32_round_trip_preserves_tool_item_ids_separately_from_call_ids() -> None:
    """Same answer: fc_/fco_/ctc_/ctco_ ids survive request replay unchanged."""
    function = axfc("fc_1", "call_1", AX_ARGS)
    custom = axctc("ctc_1", "call_2", "patch", namespace=NS)
    result = reduce1(created(), done(0, function), done(1, custom), completed())
    function_output = {"type": "function_call_output", "id": "fco_1", "call_id": "call_1",
                       "output": "ok"}
    custom_output = {"type": "custom_tool_call_output", "id": "ctco_1", "call_id": "call_2",
                     "output": "ok"}
    history = [item.item for item in result.items]
    replayed = replay_input([history[0], function_output, history[1], custom_output])
    assert [(i["type"], i["id"], i["call_id"]) for i in replayed] == [
        ("function_call", "fc_1", "call_1"),
        ("function_call_output", "fco_1", "call_1"),
        ("custom_tool_call", "ctc_1", "call_2"),
        ("custom_tool_call_output", "ctco_1", "call_2"),
    ]


# =======================================================================================
# Table D: where the three disagree, and our answer
# =======================================================================================


def test_table_d_empty_done_arguments_after_deltas() -> None:
    """opencode ``{}``, codex ``""``, AxonHub the streamed value.  Ours: the streamed
    ``{"a":1}`` (R7: empty never erases), executable."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", '{"a":1}'),
        done(0, fc("fc_1", "call_1", args="")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "deltas", "completed", True)
    ]
    assert codes(result) == ["empty_payload_ignored", "snapshot_absent"]


def test_table_d_empty_done_then_real_arguments_in_completed() -> None:
    """opencode ``{}``, codex ``""``, AxonHub ``""`` (its reported bug).  Ours: the
    snapshot's ``{"a":1}`` (R7: latest non-empty wins; the snapshot reconciles a done
    entry, R3)."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, fc("fc_1", "call_1", args="")),
        completed([fc("fc_1", "call_1", args='{"a":1}')]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == ["empty_payload_filled"]


def test_table_d_completed_corrects_deltas_without_done() -> None:
    """opencode and AxonHub ``{"q":"x"}``, codex no call.  Ours: ``{"q":"x"}``,
    executable (the snapshot confirms), with ``divergent_payload``."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", "{}"),
        completed([fc("fc_1", "call_1", args='{"q":"x"}')]),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"q":"x"}'), "wire", "snapshot", "completed", True)
    ]
    assert codes(result) == ["divergent_payload"]


def test_table_d_completed_without_output_after_deltas() -> None:
    """opencode executes ``{}``, codex and AxonHub no call.  Ours: the item is kept with
    ``{}`` but not executable: nothing confirmed it (R9)."""
    result = reduce1(
        created(), added(0, fc("fc_1", "call_1")), delta(0, "fc_1", "{}"), completed(None)
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "deltas", "streaming", False)
    ]
    assert codes(result) == ["snapshot_absent", "unconfirmed_item"]


def test_table_d_mantle_terminal_item_without_id() -> None:
    """opencode adopts the slot id, codex mints a fresh ``fc_<uuidv7>``, AxonHub matches
    by call_id and keeps the added id.  Ours: the added item's wire id (the done item is
    matched through its slot and call_id; its ``item_id`` is only an alias)."""
    result = reduce1(*mantle_capture())
    call = result.items[1]
    assert (call.item["id"], call.id_source.value) == ("fc_828bee50dee1d029", "wire")
    assert "item_id" not in call.item and "output_index" not in call.item
    assert codes(result) == ["id_only_as_item_id"] * 2


def test_table_d_done_only_call_without_id_and_slot() -> None:
    """opencode ``fc_<32 hex>``, codex ``fc_<uuidv7>``, AxonHub a generated ``fc_…``, all
    random.  Ours: the deterministic ``fc_<uuid5>`` of R11."""
    result = reduce1(created(), done(None, fc(None, "call_1", args="{}")), completed())
    minted = mint_item_id("resp_1", None, 0, "function_call")
    assert rows(result) == [
        row(None, fc(minted, "call_1", args="{}"), "minted", "item_done", "completed", True)
    ]
    assert codes(result) == ["done_only_item", "id_minted", "snapshot_absent"]


def test_table_d_arguments_done_diverges_from_deltas() -> None:
    """opencode replaces silently, codex ignores ``arguments.done``, AxonHub re-emits the
    final.  Ours: the done value wins and the contradiction is reported."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        delta(0, "fc_1", '{"a":1}'),
        args_done(0, "fc_1", '{"a":2}'),
        done(0, fc("fc_1", "call_1", args=None)),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":2}'), "wire", "payload_done", "completed", True)
    ]
    assert codes(result) == ["divergent_payload", "snapshot_absent"]


def test_table_d_duplicate_done_for_the_same_call() -> None:
    """opencode two calls, codex dispatched twice, AxonHub one.  Ours: one
    (``complete_once``), the repeat a ``duplicate_item``."""
    call = fc("fc_1", "call_1", args="{}")
    result = reduce1(created(), added(0, fc("fc_1", "call_1")), done(0, call), done(0, call),
                     completed())
    assert rows(result) == [row(0, call, "wire", "item_done", "completed", True)]
    assert codes(result) == ["duplicate_item", "snapshot_absent"]


def test_table_d_two_items_same_call_id_different_item_ids() -> None:
    """opencode and codex two calls, AxonHub one state.  Ours: one entry; the second
    added is a replay (same type and call_id) and the done's new id is ``id_changed``."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        added(1, fc("fc_2", "call_1")),
        done(1, fc("fc_2", "call_1", args="{}")),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "item_done", "completed", True)
    ]
    assert codes(result) == ["duplicate_item", "id_changed", "snapshot_absent"]


def test_table_d_reused_output_index_then_id_less_event() -> None:
    """opencode routes to the latest added, codex does not route by index, AxonHub fails
    the stream.  Ours: that one event is rejected (``ambiguous_route``), the rest is
    reduced."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        added(0, fc("fc_2", "call_2")),
        delta(0, None, "{}"),
        done(0, fc("fc_1", "call_1", args='{"a":1}')),
        done(0, fc("fc_2", "call_2", args='{"b":2}')),
        completed(),
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args='{"a":1}'), "wire", "item_done", "completed", True),
        row(0, fc("fc_2", "call_2", args='{"b":2}'), "wire", "item_done", "completed", True),
    ]
    assert codes(result) == ["ambiguous_route", "slot_reused", "snapshot_absent"]


def test_table_d_incomplete_response_with_pending_and_done_calls() -> None:
    """opencode and AxonHub no calls, codex already dispatched the done one.  Ours: no
    call is executable; the done call shows state ``done``, the pending one
    ``incomplete``."""
    result = reduce1(
        created(),
        added(0, fc("fc_1", "call_1")),
        done(0, fc("fc_1", "call_1", args="{}")),
        added(1, fc("fc_2", "call_2")),
        delta(1, "fc_2", '{"b":'),
        ended("incomplete"),
        status="incomplete",
    )
    assert rows(result) == [
        row(0, fc("fc_1", "call_1", args="{}"), "wire", "item_done", "done", False),
        row(1, fc("fc_2", "call_2", args='{"b":'), "wire", "deltas", "incomplete", False),
    ]
    assert codes(result) == ["invalid_json_arguments", "response_error"]


def test_table_d_missing_output_for_a_call_at_prompt_time() -> None:
    """Only codex handles it: a synthetic "aborted" output with a UUIDv5 id.  Ours: the
    same bytes (R12)."""
    result = reduce1(created(), done(0, fc("fc_1", "call_1", args="{}")), completed())
    replayed = replay_input([item.item for item in result.items])
    assert replayed[1] == _aborted(
        "function_call_output", "call_1", "fco_d08ee114-ed5d-5706-8dbd-16ccacd40aa4"
    )
