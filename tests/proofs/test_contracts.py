"""The diagnostic contracts: proved on the reference, and each one able to fail.

``proofs.contracts`` states what the payload, identity and admission cells must report,
over the values a decision step sees, and Z3 proves it through the model's own
classifiers.  A contract that cannot fail proves nothing: each has a mutant in
``proofs.mutants`` (a code changed or dropped in one cell, ``system="contract"``) that
it refutes while the other contracts still hold, and a witness stream on which that
mutant's reducer reports another code than the reference and keeps the same items.
Every one-cell mutant of the four tables and of the matching table is refuted by its
table's contract, except the cells no input of the classifier selects — which no stream
can reach.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import QUIRKS, same_runner
from responses_oracle.model.codegen import load_kernels
from responses_oracle.model.tables import REFERENCE, KernelSet
from responses_oracle.model.vocabulary import Code, OfferRelation, PayloadHeld
from responses_oracle.proofs.contracts import CONTRACTS, SELECTING, check_contract, selectable
from responses_oracle.proofs.inventory import Status, prove
from responses_oracle.proofs.mutants import MUTANT_LIST, Mutant
from responses_oracle.proofs.mutation import table_mutants
from responses_oracle.reducer import Reducer

CONTRACT_MUTANTS = [mutant for mutant in MUTANT_LIST if mutant.system == "contract"]
IDS = [mutant.tables.name for mutant in CONTRACT_MUTANTS]
CONTRACTS_OF_TABLE = dict(SELECTING)
"""The tables with a contract: the four of the codes, and the matching table, whose fits
``done_reported`` states as R6 words them."""


def _quirk(name: str) -> list[dict[str, Any]]:
    text = (QUIRKS / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _numbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _call(item_type: str, key: str, call_id: str) -> dict[str, Any]:
    item = {"type": item_type, "id": key, "call_id": call_id, "status": "in_progress"}
    item |= {"name": "f", "arguments": ""} if item_type == "function_call" else {"input": ""}
    return item


def _extended_arguments() -> list[dict[str, Any]]:
    """A call whose streamed arguments the ``*.done`` value extends (a gateway that
    streams a prefix)."""
    scope = {"output_index": 0, "item_id": "fc_1"}
    return _numbered(
        [
            {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": _call("function_call", "fc_1", "call_1"),
            },
            {"type": "response.function_call_arguments.delta", **scope, "delta": '{"a":'},
            {"type": "response.function_call_arguments.done", **scope, "arguments": '{"a":1}'},
            {"type": "response.completed", "response": {"id": "r", "status": "completed"}},
        ]
    )


def _call_id_of_another_type() -> list[dict[str, Any]]:
    """A custom tool call announced with the call_id a function call already holds."""
    return _numbered(
        [
            {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": _call("function_call", "fc_1", "call_1"),
            },
            {
                "type": "response.output_item.added",
                "output_index": 1,
                "item": _call("custom_tool_call", "ctc_1", "call_1"),
            },
            {"type": "response.completed", "response": {"id": "r", "status": "completed"}},
        ]
    )


WITNESSES: dict[str, tuple[list[dict[str, Any]], Code, Code | None]] = {
    "extension-reported-divergent": (
        _extended_arguments(),
        Code.PAYLOAD_EXTENDED,
        Code.DIVERGENT_PAYLOAD,
    ),
    "rename-reported-as-conflict": (
        _quirk("q01-openai-tool-search-call-id-rotates.jsonl"),
        Code.CALL_ID_RENAMED,
        Code.METADATA_CONFLICT,
    ),
    "duplicate-call-id-reported-ambiguous": (
        _call_id_of_another_type(),
        Code.DUPLICATE_CALL_ID,
        Code.AMBIGUOUS_ROUTE,
    ),
    "snapshot-rekey-silent": (
        _quirk("q05-vllm-snapshot-rekeys-call.jsonl"),
        Code.SNAPSHOT_REKEYED,
        None,
    ),
}
"""Per contract mutant: a stream, the code the reference raises on it, the mutant's."""


def _result(events: list[dict[str, Any]], kernels: KernelSet) -> tuple[Any, list[Code]]:
    reducer = Reducer(kernels=kernels)
    reducer.feed_all(events)
    (result,) = reducer.finish()
    items = [(item.item, item.state, item.executable) for item in result.items]
    return items, [diagnostic.code for diagnostic in result.diagnostics]


@pytest.mark.parametrize("name", list(CONTRACTS))
def test_every_contract_is_proved_on_the_reference(name: str) -> None:
    (row,) = prove(name)
    expected = Status.PROVED_BOUNDED if CONTRACTS[name].entries else Status.PROVED_UNBOUNDED
    assert (row.status, row.system, row.counterexample) == (expected, "contract", None)


def test_every_contract_has_a_mutant() -> None:
    assert {mutant.breaks for mutant in CONTRACT_MUTANTS} == set(CONTRACTS)


@pytest.mark.parametrize("mutant", CONTRACT_MUTANTS, ids=IDS)
def test_the_mutant_is_refuted_by_its_contract_only(mutant: Mutant) -> None:
    verdicts = {name: check_contract(name, mutant.tables).verdict for name in CONTRACTS}
    assert verdicts == {
        name: "counterexample" if name == mutant.breaks else "proved" for name in CONTRACTS
    }
    (row,) = prove(mutant.breaks, mutant.tables)
    assert row.status is Status.COUNTEREXAMPLE and " broken" in row.detail


DIAGNOSTIC_ONLY = [mutant for mutant in CONTRACT_MUTANTS if mutant.tables.name in WITNESSES]
"""The contract mutants that change a diagnostic only (those of the R14 and slot fill
tables change results: tests/proofs/test_response_tables.py keeps their streams)."""


@pytest.mark.parametrize("mutant", DIAGNOSTIC_ONLY, ids=lambda m: m.tables.name)
def test_the_witness_stream_changes_the_diagnostic_only(mutant: Mutant) -> None:
    events, reference_code, mutant_code = WITNESSES[mutant.tables.name]
    items, codes = _result(events, load_kernels(REFERENCE))
    mutant_items, mutant_codes = _result(events, load_kernels(mutant.tables))
    assert mutant_items == items
    assert reference_code in codes and reference_code not in mutant_codes
    replaced = [mutant_code if code is reference_code else code for code in codes]
    assert mutant_codes == [code for code in replaced if code is not None]


def test_a_cell_no_input_selects_is_reported_unselectable() -> None:
    assert not selectable("payload", (PayloadHeld.NOTHING, OfferRelation.EQUAL), REFERENCE)
    assert not selectable("payload", (PayloadHeld.VALUE, OfferRelation.FIRST), REFERENCE)
    assert selectable("payload", (PayloadHeld.VALUE, OfferRelation.EXTENDS), REFERENCE)


def test_every_selectable_cell_change_is_refuted_by_its_table_contract() -> None:
    survivors = []
    # But the equivalent ones: another environment of the same runner changes no result
    # (tests/proofs/test_runner_tables.py).
    mutants = [
        m for m in table_mutants() if m.table in CONTRACTS_OF_TABLE and not same_runner(m)
    ]
    # Every mutant of the small tables; every 9th of the 360 of the matching table.
    matching = [m for m in mutants if m.table == "matching"][::9]
    for mutant in [*(m for m in mutants if m.table != "matching"), *matching]:
        verdict = check_contract(CONTRACTS_OF_TABLE[mutant.table], mutant.tables).verdict
        if verdict != "counterexample" and selectable(mutant.table, mutant.cell, REFERENCE):
            survivors.append(mutant.tables.name)
    assert survivors == []


def test_a_contract_counterexample_is_the_least_one_whatever_was_asked_before() -> None:
    # Z3's model depends on the queries the process made before; the record must not
    # (docs/proofs.json is rewritten only when the code the proofs read changes).
    name = "duplicate-call-id-reported-ambiguous"
    mutant = next(m for m in CONTRACT_MUTANTS if m.tables.name == name)
    first = check_contract("added_reported", mutant.tables)
    for other in CONTRACTS:
        check_contract(other, REFERENCE)
    again = check_contract("added_reported", mutant.tables)
    assert first == again
    # Least: the first abstract call_id (``Payload.A``) and the first entry holding it.
    assert first.detail == (
        "R6 broken at 2 entries: call=Payload.A, holder_0=False, holder_1=True: "
        "the cell raises ['ambiguous_route']"
    )


def test_every_names_one_entry_change_is_refuted_by_the_identity_contract() -> None:
    # The table says which identity field names one entry (R6): a change to any of its
    # cells (a call_id shared, a tool name taken) is refuted by the contract, which is
    # stated over "another entry holds the value", not over the table's answer.
    mutants = [m for m in table_mutants() if m.table == "names_one_entry"]
    assert len(mutants) == len(REFERENCE.names_one_entry) == 3
    verdicts = {
        m.tables.name: check_contract("identity_reported", m.tables).verdict for m in mutants
    }
    assert set(verdicts.values()) == {"counterexample"}, verdicts
