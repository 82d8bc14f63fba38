"""Comparing answers: minted ids by alpha-renaming, pairing, and the rule each difference names."""

from __future__ import annotations

from typing import Any

from responses_oracle import reduce
from responses_oracle.differential.candidate import Failure
from responses_oracle.differential.compare import (
    NO_ARGUMENTS,
    PARSED_ARGUMENTS,
    Aspect,
    as_parsed,
    carried_ids,
    compare,
    payloads,
)
from responses_oracle.model.rules import CODE_RULES, RULES, rules_of_codes
from responses_oracle.model.vocabulary import Code

CREATED = {"type": "response.created", "response": {"id": "resp_1"}}


def _fc(id: str | None, call_id: str, arguments: str = "{}", **extra: Any) -> dict[str, Any]:
    item = {"type": "function_call", "call_id": call_id, "name": "f", "arguments": arguments}
    return item | ({"id": id} if id is not None else {}) | extra


def _stream(*items: dict[str, Any]) -> list[dict[str, Any]]:
    """Done-only items at slots 0, 1, …, then a completed response without snapshot."""
    done = [
        {"type": "response.output_item.done", "output_index": n, "item": item}
        for n, item in enumerate(items)
    ]
    completed = {"type": "response.completed", "response": {"id": "resp_1"}}
    return [CREATED, *done, completed]


def _oracle(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [result.to_json() for result in reduce(events)]


def _answer(*items: dict[str, Any], status: str = "completed") -> list[dict[str, Any]]:
    entries = [{"item": item} for item in items]
    return [{"response": {"id": "resp_1", "status": status}, "items": entries}]


def test_the_oracle_agrees_with_itself() -> None:
    events = _stream(_fc("fc_1", "call_1"), _fc(None, "call_2"))
    assert compare(events, _oracle(events), _oracle(events), codes=True) == []


def test_minted_ids_match_any_made_up_id_one_to_one() -> None:
    events = _stream(_fc(None, "call_1"), _fc(None, "call_2"))
    oracle = _oracle(events)
    assert all(i["id_source"] == "minted" for i in oracle[0]["items"])
    assert carried_ids(events) == {"resp_1", "call_1", "call_2"}
    mine = _answer(_fc("x1", "call_1"), _fc("x2", "call_2"))
    assert compare(events, oracle, mine) == []
    # The same made-up id for two different minted ids is not a renaming.
    same = _answer(_fc("x1", "call_1"), _fc("x1", "call_2"))
    [difference] = compare(events, oracle, same)
    assert (difference.aspect, difference.rule, difference.path) == (
        Aspect.ID, "R11", "[0].items[1].item.id"
    )


def test_a_carried_id_or_no_id_never_matches_a_minted_one() -> None:
    events = _stream(_fc(None, "call_1"))
    oracle = _oracle(events)
    for wrong in ("call_1", None):
        item = _fc(wrong, "call_1")
        [difference] = compare(events, oracle, _answer(item))
        assert difference.aspect is Aspect.ID and difference.rule == "R11"


def test_a_missing_item_is_one_difference_not_a_cascade() -> None:
    events = _stream(_fc("fc_1", "call_1"), _fc("fc_2", "call_2"), _fc("fc_3", "call_3"))
    mine = _answer(_fc("fc_1", "call_1"), _fc("fc_3", "call_3"))
    [difference] = compare(events, _oracle(events), mine)
    assert difference.aspect is Aspect.MISSING_ITEM and difference.rule == "R6"
    assert difference.oracle["call_id"] == "call_2"


def test_swapped_items_are_an_order_difference() -> None:
    events = _stream(_fc("fc_1", "call_1"), _fc("fc_2", "call_2"))
    mine = _answer(_fc("fc_2", "call_2"), _fc("fc_1", "call_1"))
    [difference] = compare(events, _oracle(events), mine)
    assert (difference.aspect, difference.rule) == (Aspect.ORDER, "R10")


def test_a_blanked_payload_breaks_empty_never_erases() -> None:
    events = _stream(_fc("fc_1", "call_1", '{"a":1}'))
    [difference] = compare(events, _oracle(events), _answer(_fc("fc_1", "call_1", "")))
    assert (difference.aspect, difference.rule, difference.path) == (
        Aspect.PAYLOAD, "R7", "[0].items[0].item.arguments"
    )
    assert "empty never erases" in difference.why


def test_optional_fields_are_compared_only_when_given() -> None:
    events = _stream(_fc("fc_1", "call_1"))
    oracle = _oracle(events)
    bare = _answer(_fc("fc_1", "call_1"))
    assert compare(events, oracle, bare) == []
    wrong = [{**bare[0], "items": [{"item": _fc("fc_1", "call_1"), "executable": False,
                                    "output_index": 3}]}]
    assert {(d.aspect, d.rule) for d in compare(events, oracle, wrong)} == {
        (Aspect.EXECUTABLE, "R9"), (Aspect.OUTPUT_INDEX, "R3")
    }


def test_status_and_codes() -> None:
    events = _stream(_fc("fc_1", "call_1"))
    oracle = _oracle(events)
    [status] = compare(events, oracle, _answer(_fc("fc_1", "call_1"), status="failed"))
    assert (status.aspect, status.rule) == (Aspect.STATUS, "R9")
    with_codes = [{**_answer(_fc("fc_1", "call_1"))[0], "diagnostics": []}]
    assert compare(events, oracle, with_codes) == []
    # The oracle's codes the answer lacks, each under its rule (the items are done-only).
    found = compare(events, oracle, with_codes, codes=True)
    assert {(code.aspect, code.oracle, code.rule) for code in found} == {
        (Aspect.CODES, "snapshot_absent", "R9"), (Aspect.CODES, "done_only_item", "R6")}


def test_a_failure_is_one_difference_saying_what_the_oracle_answers() -> None:
    events = _stream(_fc("fc_1", "call_1"))
    [difference] = compare(events, _oracle(events), Failure("RuntimeError: boom"))
    assert difference.aspect is Aspect.FAILURE and difference.answer == "RuntimeError: boom"
    assert "completed with 1 item(s)" in difference.why


def test_payloads_are_read_where_the_catalogue_puts_them() -> None:
    message = {"type": "message", "content": [
        {"type": "output_text", "text": "a"}, {"type": "refusal", "refusal": "no"},
    ]}
    assert payloads(message) == {"content[output_text].text": ["a"],
                                 "content[refusal].refusal": ["no"]}
    patch = {"type": "apply_patch_call", "operation": {"diff": "+x"}}
    assert payloads(patch) == {"operation.diff": "+x"}


def test_every_code_reports_on_a_rule_of_design() -> None:
    assert set(CODE_RULES) == set(Code)
    assert set(CODE_RULES.values()) <= set(RULES)
    assert rules_of_codes(["id_minted", "slot_reused", "nonsense"]) == ["R3", "R11"]


def _parsed(*items: dict[str, Any]) -> list[dict[str, Any]]:
    """An answer whose entries say their arguments are the parsed JSON value."""
    entries = [{"item": item, PARSED_ARGUMENTS: True} for item in items]
    return [{"response": {"id": "resp_1", "status": "completed"}, "items": entries}]


def test_parsed_arguments_are_compared_as_json_values() -> None:
    events = _stream(_fc("fc_1", "call_1", ' {"city": "Paris", "n": 1} '))
    oracle = _oracle(events)
    assert compare(events, oracle, _parsed(_fc("fc_1", "call_1", {"n": 1, "city": "Paris"}))) == []
    [other] = compare(events, oracle, _parsed(_fc("fc_1", "call_1", {"city": "Rome", "n": 1})))
    assert (other.aspect, other.path, other.answer) == (
        Aspect.PAYLOAD, "[0].items[0].item.arguments", {"city": "Rome", "n": 1})
    assert "parsed as JSON" in other.why
    # Without the field the value is compared with the wire string, and differs.
    [unparsed] = compare(events, oracle, _answer(_fc("fc_1", "call_1", {"city": "Paris", "n": 1})))
    assert unparsed.aspect is Aspect.PAYLOAD and "parsed" not in unparsed.why


def test_parsed_arguments_that_are_not_json_are_the_text_itself() -> None:
    events = _stream(_fc("fc_1", "call_1", "a b"), _fc("fc_2", "call_2", "NaN"))
    oracle = _oracle(events)
    assert compare(events, oracle, _parsed(_fc("fc_1", "call_1", "a b"),
                                           _fc("fc_2", "call_2", "NaN"))) == []
    # Blank arguments are a call without arguments: parsed, they are {} (the AI SDK's
    # parseToolCall); handed over as the text "{}" they are another input.
    empty = _stream(_fc("fc_1", "call_1", ""))
    assert compare(empty, _oracle(empty), _parsed(_fc("fc_1", "call_1", {}))) == []
    [difference] = compare(empty, _oracle(empty), [
        {"response": {"id": "resp_1"}, "items": [{"item": _fc("fc_1", "call_1", "{}")}]}])
    assert (difference.oracle, difference.answer) == ("", "{}")


def test_as_parsed_reads_json_like_json_parse() -> None:
    assert as_parsed('{"a": [1, "x"]}') == {"a": [1, "x"]}
    assert as_parsed('"quoted"') == "quoted"
    assert as_parsed("Infinity") == "Infinity"
    assert as_parsed("") == as_parsed(" \n") == NO_ARGUMENTS == {}


def test_an_item_found_elsewhere_is_moved_not_paired_with_another_by_position() -> None:
    # The reference: a call at slot 0, a message at slot 1.  The candidate puts the
    # message first and appends a second message the reference does not keep.
    message = {"type": "message", "id": "msg_1", "role": "assistant",
               "content": [{"type": "output_text", "text": "kept"}]}
    other = {**message, "id": "msg_2", "content": [{"type": "output_text", "text": "late"}]}
    events = [*_stream(_fc("fc_1", "call_1"), message),
              {"type": "response.output_item.done", "output_index": 2, "item": other}]
    differences = compare(events, _oracle(events), _answer(message, _fc("fc_1", "call_1"), other))
    # msg_1 moved (one order difference) and msg_2 is extra: msg_1 is not paired by
    # position with msg_2, which would be an id and a payload difference.
    assert sorted(d.aspect.value for d in differences) == ["extra_item", "order"]
    [extra] = [d for d in differences if d.aspect is Aspect.EXTRA_ITEM]
    assert extra.answer["id"] == "msg_2"
    # An item whose id differs and is nowhere else still pairs by position: an id
    # difference, not a lost item and an invented one.
    renamed = {**message, "id": "msg_9"}
    events = _stream(_fc("fc_1", "call_1"), message)
    [moved] = compare(events, _oracle(events), _answer(_fc("fc_1", "call_1"), renamed))
    assert moved.aspect is Aspect.ID
