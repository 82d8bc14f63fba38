"""The one-line driver edits (``proofs/line_edits.py``, issue #41 part 6): made from the
driver's source, applied by swapping one function's code, and judged by a refinement."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from typing import Any

import pytest
from responses_oracle.proofs.line_edits import (
    PROXY_MODULES,
    REDUCER_MODULES,
    line_edits,
    sample,
)
from responses_oracle.proofs.refinement import check_stream
from responses_oracle.reducer import Reducer


def _renamed_response() -> list[dict[str, Any]]:
    """A response whose ``in_progress`` names another id: ``response_id_changed``."""
    return [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
        {"type": "response.in_progress", "response": {"id": "resp_2", "status": "in_progress"}},
        {"type": "response.completed", "response": {"id": "resp_1", "output": []}},
    ]


def _codes(events: list[dict[str, Any]]) -> list[str]:
    reducer = Reducer()
    reducer.feed_all(events)
    return [d["code"] for r in reducer.finish() for d in r.to_json()["diagnostics"]]


def test_every_driver_module_has_edits_and_each_changes_one_line() -> None:
    for name in (*REDUCER_MODULES, *PROXY_MODULES):
        edits = line_edits(name)
        if name.endswith(".step"):  # the driver's map: no function of its own
            assert edits == []
            continue
        assert edits, name
        assert all(edit.line > 0 and edit.change for edit in edits), name


@pytest.mark.parametrize("name", ["responses_oracle.core.dispatch", "responses_oracle.proxy.relay"])
def test_every_condition_is_negated_and_every_method_edited(name: str) -> None:
    # Until sample 9 the pool held no negated condition (the inserted ``not`` had no line
    # number, so compile() refused each one) and no edit of a method calling super()
    # (the relay's FastFraming: its code closes over __class__).
    module = importlib.import_module(name)
    tree = ast.parse(inspect.getsource(module))
    conditions = sum(isinstance(node, ast.If | ast.While | ast.IfExp) for node in ast.walk(tree))
    edits = line_edits(name)
    assert sum(e.change.startswith("condition negated") for e in edits) == conditions
    methods = {
        f"{c.name}.{f.name}"
        for c in tree.body
        if isinstance(c, ast.ClassDef)
        for f in c.body
        if isinstance(f, ast.FunctionDef)
    }
    assert methods <= {e.function for e in edits}


def test_a_negated_condition_runs_negated() -> None:
    edit = _edit("dispatch", "_response_fields", "condition negated", "if response is None")
    events = _renamed_response()
    assert "response_id_changed" in _codes(events)
    with edit.applied():
        assert "response_id_changed" not in _codes(events)


def test_an_edit_is_applied_only_inside_its_block() -> None:
    (edit,) = [
        e
        for e in line_edits("responses_oracle.core.dispatch")
        if e.change.startswith("dropped: step.note(Code.RESPONSE_ID_CHANGED")
    ]
    events = _renamed_response()
    assert "response_id_changed" in _codes(events)
    with edit.applied():
        assert "response_id_changed" not in _codes(events)
    assert "response_id_changed" in _codes(events)


def test_the_refinement_refutes_a_dropped_response_id_report() -> None:
    # Found by the first sample: the refinement did not say which codes a response's own
    # events owe (model: the first id is kept, another is reported).
    (edit,) = [
        e
        for e in line_edits("responses_oracle.core.dispatch")
        if e.change.startswith("dropped: step.note(Code.RESPONSE_ID_CHANGED")
    ]
    events = _renamed_response()
    assert check_stream(events) == []
    with edit.applied():
        (violation,) = check_stream(events)
    assert "owes ['response_id_changed']" in violation.reason


def test_the_sample_depends_only_on_the_seed() -> None:
    edits = line_edits("responses_oracle.core.route")
    assert [e.name for e in sample(edits, 5, 7)] == [e.name for e in sample(edits, 5, 7)]
    assert [e.name for e in sample(edits, 5, 7)] != [e.name for e in sample(edits, 5, 8)]


def _bad_arguments() -> list[dict[str, Any]]:
    """A completed call whose arguments are not JSON."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "r", "output": [call]}},
    ]


def _annotations() -> list[dict[str, Any]]:
    from responses_oracle.proofs.mutation import edge_streams

    name = "edge: annotations (response.output_text.annotation.added)"
    return next([dict(e) for e in s.events] for s in edge_streams() if s.name.startswith(name))


def _two_summary_parts() -> list[dict[str, Any]]:
    from helpers import REPO

    path = "fixtures/captures/pydantic-ai/test_openai_responses_thinking_part_iter.i0.jsonl"
    lines = (REPO / path).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize(
    ("module", "change", "witness"),
    [
        ("settle", "dropped: json.loads(text)", _bad_arguments),
        ("route", "dropped: _add_to_part(", _annotations),
        # A long capture (about 20 s of refinement): in the slow run.
        pytest.param("events", "is -> is not", _two_summary_parts),
    ],
)
def test_the_first_samples_survivors_are_refuted(module: str, change: str, witness: Any) -> None:
    # proofs/line-edits-sample1.json: three edits passed the refinement (the tests killed
    # them); the refinement now checks what each broke.
    edits = [
        e
        for e in line_edits(f"responses_oracle.core.{module}")
        if e.change.startswith(change)
        and (module != "events" or e.source.startswith("part_index = None if"))
    ]
    (edit,) = edits
    events = witness()
    assert check_stream(events) == []
    with edit.applied():
        assert check_stream(events)


def _edit(module: str, function: str, change: str, source: str = "") -> Any:
    """The one edit of ``function`` of ``impl/core/<module>`` whose change and source
    start so."""
    (edit,) = [
        e
        for e in line_edits(f"responses_oracle.core.{module}")
        if f" {function}: " in e.name
        and e.change.startswith(change)
        and e.source.startswith(source)
    ]
    return edit


def test_the_refinement_drives_the_fast_path_too() -> None:
    # proofs/line-edits-sample4.json: the Reducer's untraced advancer was a second entry
    # into the rules no refinement ran; the refinement now feeds it a twin state.
    edit = _edit("dispatch", "advancer", "dropped: return advance_bound")
    events = _bad_arguments()
    assert check_stream(events) == []
    with edit.applied(), pytest.raises(TypeError):
        check_stream(events)  # the twin's advancer is None: the driver does not refine


def test_a_fast_path_that_reaches_another_state_is_a_violation() -> None:
    # A fast path that skips the rules: every check on the traced step still holds.
    edit = _edit("dispatch", "advancer", "dropped: _reduce(context, event)")
    events = _bad_arguments()
    with edit.applied():
        violations = check_stream(events)
    assert [v.reason for v in violations] == [
        "the fast path (advancer) reached another state than the traced step"
    ]


def test_a_cached_trace_that_reaches_another_state_is_a_violation() -> None:
    # ``tracer`` (what Reducer(trace=True) runs: explain, diff, the proxy's canonicalizer)
    # is a third entry into the rules: the refinement feeds it a twin state too.
    edit = _edit("dispatch", "tracer", "dropped: _reduce(context, event)")
    events = _bad_arguments()
    assert check_stream(events) == []
    with edit.applied():
        violations = check_stream(events)
    assert [v.reason for v in violations] == [
        "the cached trace (tracer) reached another state than the traced step"
    ]


def _two_items_at_one_slot() -> list[dict[str, Any]]:
    """Two messages added at ``output_index`` 0: the second binding owes ``slot_reused``."""
    first = {"type": "message", "id": "m1", "role": "assistant", "content": []}
    second = {**first, "id": "m2"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": first},
        {"type": "response.output_item.added", "output_index": 0, "item": second},
        {"type": "response.completed", "response": {"id": "r", "output": [first, second]}},
    ]


def test_the_codes_a_slot_binding_owes_come_from_the_slot_table() -> None:
    # proofs/line-edits-sample4.json: move_slot's code condition flipped passed the
    # refinement; the slot table's row for each binding now says what it owes.
    events = _two_items_at_one_slot()
    assert "slot_reused" in _codes(events)
    assert check_stream(events) == []
    with _edit("effects", "move_slot", "is not -> is").applied():
        (violation,) = check_stream(events)
    assert violation.reason == "the slots bound owe ['slot_reused'], raised []"


def _message_without_id() -> list[dict[str, Any]]:
    """A message that never carries an id: at the end one is minted (R11)."""
    item = {"type": "message", "role": "assistant", "content": []}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": "r", "output": [item]}},
    ]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("dropped: step.note(Code.ID_MINTED", "1 entries never carried an id, 0 id_minted raised"),
        ("dropped: entry.item_id = mint_item_id(", "entry 0 has no id"),
    ],
)
def test_an_entry_that_never_carried_an_id_owes_id_minted(change: str, reason: str) -> None:
    # proofs/line-edits-sample4.json: the id_minted note dropped passed the refinement;
    # R11 now says at the end which entries never carried an id the stream gave.
    events = _message_without_id()
    assert "id_minted" in _codes(events)
    assert check_stream(events) == []
    with _edit("settle", "_settle", change).applied():
        (violation,) = check_stream(events)
    assert reason in violation.reason


def _fields_absent() -> list[dict[str, Any]]:
    """An item event with no ``output_index``, a completion with no ``output``: absent
    fields owe no ``invalid_field`` (R1); a completion without items owes one
    ``snapshot_absent`` (R9)."""
    item = {"type": "message", "id": "m1", "role": "assistant", "content": []}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "item": item},
        {"type": "response.completed", "response": {"id": "r"}},
    ]


@pytest.mark.parametrize(
    ("module", "function", "change", "reason"),
    [
        # _index's first return: an absent field is no field of the wrong type.
        ("events", "_index", "dropped: return None", "owe 0 invalid_field, 1 raised"),
        ("settle", "_reconcile_snapshot", "and -> or", "owe 0 invalid_field, 1 raised"),
    ],
)
def test_the_invalid_fields_an_event_owes_are_counted(
    module: str, function: str, change: str, reason: str
) -> None:
    # proofs/line-edits-sample2.json and -sample4.json: both passed the refinement, which
    # checked only item-scoped events' fields; every event's are counted now.
    events = _fields_absent()
    assert check_stream(events) == []
    edits = [
        e
        for e in line_edits(f"responses_oracle.core.{module}")
        if f" {function}: " in e.name and e.change.startswith(change)
    ]
    with edits[0].applied():
        (violation,) = check_stream(events)
    assert reason in violation.reason


def test_a_delta_without_its_text_owes_an_invalid_field() -> None:
    # R1: the published types require a delta's `delta`.  The reducer reported nothing
    # for one without it until 2026-12-05; the refinement owes the report now, so the
    # edit that drops it is refuted (and a `*.done` without its value owes none: R7).
    call = {"type": "function_call", "id": "fc", "call_id": "c", "name": "f", "arguments": ""}
    scoped = {"output_index": 0, "item_id": "fc"}
    events = [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.function_call_arguments.delta", **scoped},
        {"type": "response.function_call_arguments.done", **scoped},
        {"type": "response.completed", "response": {"id": "r", "output": []}},
    ]
    assert check_stream(events) == []
    (edit,) = [
        e
        for e in line_edits("responses_oracle.core.events")
        if " _validated: " in e.name and "is missing" in e.source and e.change.startswith("drop")
    ]
    with edit.applied():
        (violation,) = check_stream(events)
    assert "owe 1 invalid_field, 0 raised" in violation.reason


def test_snapshot_absent_is_owed_by_a_completion_without_items_only() -> None:
    edits = [
        e
        for e in line_edits("responses_oracle.core.settle")
        if " _reconcile_snapshot: " in e.name and e.source.startswith("if completed and not items")
    ]
    (edit,) = [e for e in edits if e.change == "and -> or"]
    events = _message_without_id()  # its completion carries the item
    with edit.applied():
        (violation,) = check_stream(events)
    assert violation.reason == "the terminal owes 0 snapshot_absent, 1 raised"


def _done_call_with_fields() -> list[dict[str, Any]]:
    """A call streamed, then its done item: arguments offered again, a blank status
    after a value, a null field (R6, R7)."""
    added = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "status": "x"}
    done = {**added, "arguments": '{"a": 1}', "status": "", "extra": None}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": added},
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 0,
            "item_id": "fc_1",
            "delta": '{"a": 1}',
        },
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [done]}},
    ]


@pytest.mark.parametrize(
    ("module", "function", "change", "source", "reason"),
    [
        ("identity", "merge_item", "is -> is not", "if wire_value is None", "merged fields"),
        ("reconcile", "item_channel_values", "0 -> 1", "return [(0,", "did not offer"),
    ],
)
def test_a_done_items_fields_and_payloads_are_the_models_merge(
    module: str, function: str, change: str, source: str, reason: str
) -> None:
    # proofs/line-edits-sample2.json, -sample3.json: both passed the refinement, which
    # compared no item fields and no item payloads; the done item's are compared now.
    events = _done_call_with_fields()
    assert check_stream(events) == []
    with _edit(module, function, change, source).applied():
        violations = check_stream(events)
    assert violations and reason in violations[0].reason


def test_an_excluded_edit_stays_excluded_when_its_line_moves() -> None:
    from responses_oracle.proofs.line_edits import unplaced

    moved = "settle:192 _settle: dropped: step.note(Code.ID_MINTED, f'entry"
    assert unplaced(moved) == unplaced(
        "settle:210 _settle: dropped: step.note(Code.ID_MINTED, f'entry"
    )
    assert unplaced(moved) != unplaced("settle:192 _settle: dropped: entry.item_id = mint")


def _message_by_parts() -> list[dict[str, Any]]:
    """A message streamed part by part: its second text part announced, streamed and
    done (the item done and the snapshot carry no content: nothing to realign)."""
    item = {"type": "message", "id": "m1", "role": "assistant", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    done = item
    at = {"output_index": 0, "item_id": "m1", "content_index": 1}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.content_part.added", **at, "part": part},
        {"type": "response.output_text.delta", **at, "delta": "hi"},
        {"type": "response.output_text.done", **at, "text": "hi"},
        {"type": "response.content_part.done", **at, "part": {**part, "text": "hi"}},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [done]}},
    ]


def _arguments_rewritten() -> list[dict[str, Any]]:
    """A call whose done item's arguments differ from its deltas: divergent_payload."""
    events = _done_call_with_fields()
    done = {**events[3]["item"], "arguments": '{"a": 2}'}
    return [*events[:3], {**events[3], "item": done}, events[4]]


def _undeclared_call() -> list[dict[str, Any]]:
    """A completed call of a function no declared tool names: withheld, and said so."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}
    tools = [{"type": "function", "name": "g", "parameters": {}}]
    return [
        {"type": "response.created", "response": {"id": "r", "tools": tools}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "r", "output": [call]}},
    ]


def _error_then_failed() -> list[dict[str, Any]]:
    """An ``error`` event, then the ``response.failed`` that describes the same failure."""
    failed = {"id": "r", "status": "failed", "error": {"code": "x", "message": "boom"}}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "error", "code": "x", "message": "boom"},
        {"type": "response.failed", "response": failed},
    ]


@pytest.mark.parametrize(
    ("module", "function", "change", "source", "witness", "code"),
    [
        ("events", "_validated", "or -> and", "part_index = ", _message_by_parts, None),
        ("events", "_validated", "dropped: channel = channel or", "", _message_by_parts, None),
        (
            "reconcile",
            "offer",
            "dropped: step.note(",
            "",
            _arguments_rewritten,
            "divergent_payload",
        ),
        ("settle", "_note_withheld", "dropped: step.note(", "", _undeclared_call, "call_withheld"),
        ("dispatch", "_reduce", "dropped: state.amendable", "", _error_then_failed, None),
    ],
)
def test_the_fifth_samples_survivors_are_refuted(
    module: str, function: str, change: str, source: str, witness: Any, code: str | None
) -> None:
    # proofs/line-edits-sample5.json: five edits passed the refinement (the tests killed
    # them); the refinement now checks what each broke.
    events = witness()
    assert code is None or code in _codes(events)
    assert check_stream(events) == []
    with _edit(module, function, change, source).applied():
        assert check_stream(events)


def _renamed_call() -> list[dict[str, Any]]:
    """A call whose done item gives another name: the identity table keeps the first
    and reports ``metadata_conflict`` (R6)."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}
    done = {**call, "name": "g"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [done]}},
    ]


def test_an_items_identity_cells_owe_their_codes() -> None:
    events = _renamed_call()
    assert "metadata_conflict" in _codes(events)
    assert check_stream(events) == []
    with _edit("identity", "merge_item", "dropped: step.note(decision.code").applied():
        (violation,) = check_stream(events)
    assert "the item's identity owes ['metadata_conflict'], raised []" in violation.reason


def _snapshot_rewrites_a_field() -> list[dict[str, Any]]:
    """A message whose snapshot gives another ``status`` than its done item: a field no
    rule decides, reported ``divergent_item_field`` (R6)."""
    done = {"type": "message", "id": "m1", "role": "assistant", "content": [], "status": "a"}
    stored = {**done, "status": "b"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": done},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [stored]}},
    ]


def _namespaced_call() -> list[dict[str, Any]]:
    """A completed call of a namespace tool, declared: executable (R13)."""
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c",
        "name": "f",
        "namespace": "ns",
        "arguments": "{}",
    }
    tools = [{"type": "namespace", "name": "ns", "tools": [{"type": "function", "name": "f"}]}]
    return [
        {"type": "response.created", "response": {"id": "r", "tools": tools}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.completed", "response": {"id": "r", "output": [call]}},
    ]


@pytest.mark.parametrize(
    ("module", "function", "change", "source", "witness", "reason"),
    [
        (
            "identity",
            "_report_divergent",
            "in -> not in",
            "if name in _IDENTITY_NAMES",
            _snapshot_rewrites_a_field,
            "divergent_item_field",
        ),
        (
            "identity",
            "merge_item",
            "True -> False",
            "",
            _snapshot_rewrites_a_field,
            "divergent_item_field",
        ),
        ("settle", "_settle", "dropped: item['namespace']", "", _namespaced_call, "the model's"),
    ],
)
def test_the_sixth_samples_survivors_are_refuted(
    module: str, function: str, change: str, source: str, witness: Any, reason: str
) -> None:
    # proofs/line-edits-sample6.json: three edits passed the refinement (the tests killed
    # them); it now checks the snapshot's divergent fields and every execution verdict.
    events = witness()
    assert check_stream(events) == []
    edits = [
        e
        for e in line_edits(f"responses_oracle.core.{module}")
        if f" {function}: " in e.name
        and e.change.startswith(change)
        and e.source.startswith(source)
    ]
    with edits[0].applied():
        violations = check_stream(events)
    assert violations and reason in violations[0].reason


def _delta_under_another_id() -> list[dict[str, Any]]:
    """A text delta at the message's slot under an id the stream never gave: routed by
    the slot, reported ``item_id_unrecognized`` (R5), the id learned."""
    item = {"type": "message", "id": "m1", "role": "assistant", "content": []}
    at = {"output_index": 0, "item_id": "other", "content_index": 0}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_text.delta", **at, "delta": "hi"},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": "r", "output": [item]}},
    ]


def test_the_seventh_samples_survivor_is_refuted() -> None:
    # proofs/line-edits-sample7.json: the route's code condition flipped passed the
    # refinement (the tests killed it); the routing cell's code is owed now.
    events = _delta_under_another_id()
    assert "item_id_unrecognized" in _codes(events)
    assert check_stream(events) == []
    with _edit("effects", "_learn_item_id", "is not -> is", "if step.route_code").applied():
        (violation,) = check_stream(events)
    assert violation.reason == "the route owes ['item_id_unrecognized'], raised []"


def test_the_tests_run_on_a_survivor_apply_its_edit(tmp_path: Any) -> None:
    # Run as ``python -m``, the module's ``__name__`` is ``__main__``: the pytest plugin
    # it named was pytest's own, which applies no edit, and a missing test path made
    # pytest's usage error count as a kill.  A survivor the tests must kill, retested
    # as a user runs it:
    import subprocess
    import sys

    from helpers import REPO

    edit = _edit("dispatch", "advancer", "dropped: return advance_bound")
    record = tmp_path / "record.json"
    verdict = {"edit": edit.name, "side": "reducer", "changes_behaviour": True, "refined": False}
    record.write_text(json.dumps({"verdicts": [verdict]}), encoding="utf-8")
    command = [sys.executable, "-m", "responses_oracle.proofs.line_edits", "--retest", str(record)]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True)
    assert json.loads(record.read_text(encoding="utf-8"))["retest"]["verdicts"] == {
        edit.name: "killed"
    }


def _at_the_index_bound() -> list[dict[str, Any]]:
    """A message at ``output_index`` and ``content_index`` ``MAX_INDEX`` (the largest
    the model allows; a delta one past it: ``invalid_field``), and a call at 0."""
    from responses_oracle.model.catalogue import MAX_INDEX

    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    done = {**message, "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
    call = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}
    at = {"item_id": "msg_1", "output_index": MAX_INDEX, "content_index": MAX_INDEX}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        {"type": "response.output_item.added", "output_index": MAX_INDEX, "item": message},
        {"type": "response.output_text.delta", **at, "delta": "hi"},
        {"type": "response.output_text.delta", **at, "content_index": MAX_INDEX + 1, "delta": "!"},
        {"type": "response.output_item.done", "output_index": MAX_INDEX, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [call, done]}},
    ]


def test_an_off_by_one_of_the_index_bound_is_refuted() -> None:
    # MAX_INDEX is the model's (model.catalogue): the parser and the refinement read it.
    events = _at_the_index_bound()
    assert check_stream(events) == []
    edits = [
        e
        for e in line_edits("responses_oracle.core.events")
        if "MAX_INDEX" in e.source and e.change == "<= -> <"
    ]
    checks = [e for e in edits if e.function == "_index"]
    fast = [e for e in edits if e.function == "parse_event"]
    assert (len(checks), len(fast)) == (2, 4)  # each bound's two comparisons
    for edit in checks:  # 0 or MAX_INDEX itself taken as out of range
        with edit.applied():
            assert check_stream(events), edit.name
    # The fast path's: the event goes to the checked path, which reads it the same.
    expected = _codes(events)
    for edit in fast:
        with edit.applied():
            assert (_codes(events), check_stream(events)) == (expected, []), edit.name


def _proxy_edit(function: str, change: str, source: str = "") -> Any:
    """The one edit of the canonicalizer's ``function`` whose change and source start so."""
    (edit,) = [
        e
        for e in line_edits("responses_oracle.canonicalizer")
        if e.function == function and e.change.startswith(change) and e.source.startswith(source)
    ]
    return edit


def _call_with_deltas() -> list[dict[str, Any]]:
    """A completed call whose arguments come in a delta, every event as OpenAI sends it."""
    call = {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "status": "x"}
    done = {**call, "arguments": "{}", "status": "completed"}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**call, "arguments": "", "status": "in_progress"},
        },
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 0,
            "delta": "{}",
        },
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [done]}},
    ]


def test_the_ninth_samples_survivor_of_both_is_refuted() -> None:
    # proofs/line-edits-sample9.json: canonical's deltas without their output_index
    # passed the relay's refinement (the reducer places a delta by its item_id: the
    # same answer) and its tests; a field the published types require, which the
    # upstream sent, may not go missing behind the relay (its rule 5).
    from responses_oracle.proxy.relay_refinement import check as relay_check

    events = _call_with_deltas()
    assert relay_check(events, [40, 200], sentinel=True) == []
    with _proxy_edit("Canonicalizer._scoped", "dropped: fields['output_index']").applied():
        assert relay_check(events, [40, 200], sentinel=True) == [
            "rule 5: response.function_call_arguments.delta: output_index missing, "
            "where no upstream event lacks it"
        ]


def test_only_a_stream_the_unedited_relay_refines_refutes_an_edit() -> None:
    # Until sample 9 a refutation counted on any corpus stream, and two of them fail the
    # relay's refinement on the unedited relay: every behaviour-changing proxy edit
    # was "refuted" by them.
    from responses_oracle.proofs.line_edits import Refinable, _relay_out, judge
    from responses_oracle.proofs.mutation import Stream, build_corpus

    corpus = build_corpus([Stream("a call", _call_with_deltas())], 1)
    expected = {0: _relay_out(corpus.streams[0].events)}
    refinable = Refinable.of(corpus, expected)
    assert refinable == Refinable(frozenset({0}), frozenset({0}))
    edit = _proxy_edit("Canonicalizer._scoped", "dropped: fields['output_index']")
    assert judge(edit, corpus, expected, refinable).refined is True
    unrefined = Refinable(frozenset({0}), frozenset())
    assert judge(edit, corpus, expected, unrefined).refined is False
    assert unrefined.failed(corpus, expected) == {"reducer": [], "proxy": ["a call"]}


def test_a_payload_announced_with_its_item_and_streamed_again_is_refuted() -> None:
    # proofs/line-edits-sample9.json: canonical's added item keeping its payload (the
    # arguments then streamed again by their deltas) passed the relay's refinement (the
    # done item and the answer are the same; the tests killed it).  A client that adds
    # the deltas to the added item sees the arguments twice (its rule 6).
    from responses_oracle.proofs.line_edits import _cuts
    from responses_oracle.proofs.mutation import recorded_streams
    from responses_oracle.proxy.relay_refinement import body
    from responses_oracle.proxy.relay_refinement import check as relay_check

    name = "fixtures/peers/axonhub/tool-2.stream.jsonl"  # AxonHub's recorded SSE
    events = next(list(s.events) for s in recorded_streams() if s.name == name)
    cuts = _cuts(body(events, sentinel=True))  # as line_edits cuts it
    assert relay_check(events, cuts, sentinel=True) == []
    # (The line now empties only a payload field some event can carry: a null, or a
    # number no delta carries, stays, #39; negating it keeps the arguments.)
    edit = _proxy_edit(
        "Canonicalizer._added_item", "condition negated (isinstance(container, dict) and _stream"
    )
    with edit.applied():
        violation, announced = relay_check(events, cuts, sentinel=True)
    assert violation.startswith("rule 6: fc_020592949fb9ce090069355e9ef2308196ae83c4ec1c19243b ")
    assert violation.endswith(
        """adds up to '{"location":"Tokyo"}{"location":"Tokyo"}' behind the relay, """
        """done as '{"location":"Tokyo"}'"""
    )
    # ... and the item announced with the arguments the upstream announced empty (rule 16)
    assert announced == (
        "rule 16: fc_020592949fb9ce090069355e9ef2308196ae83c4ec1c19243b announced with its "
        "arguments, which the upstream announced empty"
    )


def _message_stream() -> list[dict[str, Any]]:
    """A completed message whose text comes in two deltas, every event as OpenAI sends it."""
    message = {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress"}
    part = {"type": "output_text", "text": "", "annotations": []}
    done_part = {**part, "text": "Hi there"}
    done = {**message, "status": "completed", "content": [done_part]}
    placed = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "content": []},
        },
        {"type": "response.content_part.added", **placed, "part": part},
        {"type": "response.output_text.delta", **placed, "delta": "Hi"},
        {"type": "response.output_text.delta", **placed, "delta": " there"},
        {"type": "response.output_text.done", **placed, "text": "Hi there"},
        {"type": "response.content_part.done", **placed, "part": done_part},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {
            "type": "response.completed",
            "response": {"id": "r", "status": "completed", "output": [done]},
        },
    ]


def test_a_done_sent_again_is_refuted() -> None:
    # Samples 3 and 4's relay survivors (proofs/line-edits-sample3.json, -sample4.json):
    # a part's track never marked finished sends its text and part done again at each
    # later step, the answer unchanged; a client that appends each done, or counts
    # them, reads the text twice.  Nothing goes out more often than it came (rule 9).
    from responses_oracle.proxy.relay_refinement import check as relay_check

    events = [*_message_stream()]
    events[-1:-1] = [  # a second item after the message: its events release the first's again
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": _call_with_deltas()[1]["item"],
        },
        {
            "type": "response.output_item.done",
            "output_index": 1,
            "item": _call_with_deltas()[-2]["item"],
        },
    ]
    assert relay_check(events, [], sentinel=True) == []
    with _proxy_edit("Canonicalizer._close_track", "dropped: track.finished").applied():
        problems = relay_check(events, [], sentinel=True)
    assert problems == [
        "rule 9: response.content_part.done sent 4 times, the upstream sent it 1",
        "rule 9: response.output_text.done sent 4 times, the upstream sent it 1",
    ]


def test_a_table_sample_draws_no_mutant_an_earlier_sample_drew() -> None:
    # mutation --exclude RECORD (table sample 3): the seed draws from the mutants no
    # earlier record names, and only from those.
    from responses_oracle.proofs.mutation import independent, table_mutants

    mutants = table_mutants()
    first = independent(mutants, 30, 4141)
    drawn = frozenset(m.tables.name for m in first)
    again = independent(mutants, 30, 4141, drawn)
    assert len(again) == 30
    assert not drawn & {m.tables.name for m in again}
    everything = independent(mutants, len(mutants), 1)
    assert len(independent(mutants, len(mutants), 1, drawn)) == len(everything) - 30


def _message_with_dones() -> list[dict[str, Any]]:
    """A completed message with every ``done`` event, its text ``done`` without
    ``logprobs`` (as xAI sends it)."""
    msg = {"type": "message", "id": "msg_1", "role": "assistant"}
    part = {"type": "output_text", "text": "Hi", "annotations": []}
    placed = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    done = {**msg, "status": "completed", "content": [part]}
    return [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**msg, "status": "in_progress", "content": []},
        },
        {"type": "response.content_part.added", **placed, "part": {**part, "text": ""}},
        {"type": "response.output_text.delta", **placed, "delta": "Hi"},
        {"type": "response.output_text.done", **placed, "text": "Hi"},
        {"type": "response.content_part.done", **placed, "part": part},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed", "response": {"id": "r", "output": [done]}},
    ]


def test_a_field_added_to_an_event_passed_on_is_refuted() -> None:
    # proofs/line-edits-sample9.json: canonical's re-spelled output_text.done kept the
    # logprobs: [] it makes up for an event of its own (xAI's stream sends none); the
    # published types require it, so rule 5 let it pass.  An item's event passed on
    # keeps its fields unless the log names the one added (rule 7).
    from responses_oracle.proxy.relay_refinement import check as relay_check

    events = _message_with_dones()
    assert relay_check(events, [90], sentinel=True) == []
    with _proxy_edit("Canonicalizer._emit", "dropped: event.pop(name, None)").applied():
        assert relay_check(events, [90], sentinel=True) == [
            "rule 7: upstream event 4 (response.output_text.done) passed on with logprobs "
            "added, unnamed"
        ]


def test_a_part_done_withheld_though_the_log_names_it_is_refuted() -> None:
    # proofs/line-edits-sample9.json: a message's content_part.done not sent; the
    # end-of-response comparison logs "the upstream's response.content_part.done not
    # sent", which rule 2 accepted.  A finished item's done is withheld only where the
    # log names that upstream event by its place, with why (rule 8).
    from responses_oracle.proxy.relay_refinement import check as relay_check

    events = _message_with_dones()
    with _proxy_edit("Canonicalizer._release_part", "dropped: self._part_event").applied():
        assert relay_check(events, [90], sentinel=True) == [
            "rule 8: msg_1's response.content_part.done withheld (1 of 1), its item "
            "finished on both sides"
        ]


def test_the_settle_edit_no_stream_could_judge_is_refuted() -> None:
    # proofs/line-edits-sample9.json: the negated opening condition of _settle changed
    # only "responses cut at every opening and frame", which the unedited relay failed
    # (openings dropped in silence; an in_progress opening read as an event after a
    # terminal).  Both fixed, the stream refines and refutes the edit.
    from responses_oracle.proofs.line_edits import _cuts
    from responses_oracle.proofs.mutation import edge_streams
    from responses_oracle.proxy.relay_refinement import body
    from responses_oracle.proxy.relay_refinement import check as relay_check

    name = "edge: responses cut at every opening and frame"
    events = next(list(s.events) for s in edge_streams() if s.name == name)
    cuts = _cuts(body(events, sentinel=True))
    assert relay_check(events, cuts, sentinel=True) == []
    edit = _proxy_edit("Canonicalizer._settle", "condition negated (not response.opened")
    with edit.applied():
        assert "rule 1: the answer behind the relay differs from the upstream's" in relay_check(
            events, cuts, sentinel=True
        )


def test_a_recorded_edit_is_found_by_its_source_line() -> None:
    # _added_item held two `in -> not in` edits; once the lines above them moved, the
    # rejudge found sample 9's by its name without its line number, and judged the
    # other one (the record's `source` tells them apart).  Two such edits of one
    # function, both moved from the record's line:
    from dataclasses import replace

    from responses_oracle.proofs.line_edits import _finder, every_edit

    edit = _proxy_edit("Canonicalizer._added_item", "and -> or", 'if "status" in item')
    first = replace(edit, line=edit.line + 40, source="if a in b:")
    second = replace(edit, line=edit.line + 41, source="if c in d:")
    recorded = replace(edit, line=edit.line, source="if c in d:")
    assert _finder([first, second])(recorded.name, recorded.source) is second
    assert _finder([first, second])(recorded.name, "if e in f:") is None  # which one?
    assert _finder(every_edit())(edit.name, edit.source) is not None


def test_a_retest_runs_the_tests_on_the_survivors_of_the_latest_judgement(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --retest on a record judged again (proofs/line-edits-relay-survivors.json): the
    # tests run on the edits its `rejudged` verdicts leave passing the refinement, not
    # on every edit that passed it when measured.
    from responses_oracle.proofs import line_edits as module

    first, second = module.line_edits("responses_oracle.proxy.relay")[:2]
    measured = {"changes_behaviour": True, "refined": False}
    record = {
        "verdicts": [
            {"edit": first.name, "source": first.source, **measured},
            {"edit": second.name, "source": second.source, **measured},
        ],
        "rejudged": {
            "verdicts": [
                {"edit": first.name, "source": first.source, **measured, "refined": True},
                {"edit": second.name, "source": second.source, **measured},
            ]
        },
    }
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    ran: list[str] = []

    def run_tests(edit: Any, repo: Any) -> str:  # records which edits the tests ran on
        ran.append(edit.name)
        return "killed"

    monkeypatch.setattr(module, "run_tests", run_tests)
    assert module.retest(path, [first, second], ["--retest", "record.json"]) == 0
    assert ran == [second.name]
    assert json.loads(path.read_text(encoding="utf-8"))["retest"]["verdicts"] == {
        second.name: "killed"
    }
