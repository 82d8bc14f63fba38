"""Identity decisions on real-traffic shapes (R6, issue "Identity in the model").

Three streams recorded by other projects were answered wrongly by an earlier matcher;
each is written here from the shape of the recording, with the answer R6 now gives:

1. OpenAI's hosted container shell: a ``shell_call`` and its ``shell_call_output`` in
   one response with the same ``call_id`` — the output is an item of its own (the
   ``call_id`` namespaces are per item kind), not a duplicate call.
2. A LiteLLM gateway in front of vLLM re-keys a done call in ``response.completed``
   (new id, new ``call_id``, re-serialised arguments) — one call, its streamed identity
   kept, the re-key reported naming both identities.
3. OpenAI / Azure rename a client ``tool_search_call``'s ``call_id`` between added and
   done, the snapshot agreeing with the done — one item, with the confirmed ``call_id``.
"""

from __future__ import annotations

import json

from differential.invariant_check import check_invariants
from responses_oracle import replay_input
from responses_oracle.model.codegen import load_kernels
from responses_oracle.proofs.counterexample import fixture_path
from responses_oracle.proofs.mutants import MUTANTS
from responses_oracle.reducer import Reducer

from .streams import (
    added,
    args_done,
    codes,
    completed,
    created,
    delta,
    done,
    fc,
    numbered,
    reduce1,
)

_SHELL_ACTION = {"commands": ["ls -la"], "timeout_ms": None, "max_output_length": None}


def _shell_call(status: str = "completed") -> dict[str, object]:
    return {
        "type": "shell_call",
        "id": "sh_1",
        "call_id": "call_sh",
        "action": _SHELL_ACTION,
        "status": status,
    }


def _shell_output() -> dict[str, object]:
    return {
        "type": "shell_call_output",
        "id": "sho_1",
        "call_id": "call_sh",
        "output": [
            {"stdout": "total 0\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
        ],
        "status": "completed",
    }


def test_a_hosted_shell_output_is_an_item_of_its_own_not_a_second_call() -> None:
    call, output = _shell_call(), _shell_output()
    result = reduce1(
        created(),
        added(0, _shell_call("in_progress")),
        done(0, call),
        added(1, output),
        done(1, output),
        completed([call, output]),
    )
    assert [entry.item["type"] for entry in result.items] == ["shell_call", "shell_call_output"]
    assert [entry.item["call_id"] for entry in result.items] == ["call_sh", "call_sh"]
    assert [entry.item["id"] for entry in result.items] == ["sh_1", "sho_1"]
    assert result.items[1].item["output"] == output["output"]
    # The server ran the call: not run again, and said so (R13, issue #41).
    assert [(entry.executable, entry.execution.value) for entry in result.items] == [
        (False, "answered"),
        (False, "not_a_call"),
    ]
    assert codes(result) == ["call_withheld"]


def test_a_function_call_output_with_its_calls_call_id_is_kept_too() -> None:
    call = fc("fc_1", "call_1", "get_weather", '{"city":"Oslo"}')
    output = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
    result = reduce1(created(), added(0, call), done(0, call), completed([call, output]))
    types = [entry.item["type"] for entry in result.items]
    assert types == ["function_call", "function_call_output"]
    assert "duplicate_call_id" not in codes(result)


def test_a_gateway_re_key_in_the_snapshot_is_one_call_with_the_streamed_identity() -> None:
    streamed = fc("fc_A", "call_A", "get_weather", '{"city": "Paris"}')
    rekeyed = fc("fc_B", "functions.get_weather:0", "get_weather", '{"city":"Paris"}')
    message = {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
    result = reduce1(
        created(),
        added(0, message),
        done(0, message),
        added(1, fc("fc_A", "call_A", "get_weather")),
        delta(1, "fc_A", '{"city": '),
        delta(1, "fc_A", '"Paris"}'),
        args_done(1, "fc_A", '{"city": "Paris"}'),
        done(1, streamed),
        completed([message, rekeyed]),
    )
    calls = [entry for entry in result.items if entry.item["type"] == "function_call"]
    assert len(calls) == 1
    (call,) = calls
    assert call.executable
    assert (call.item["id"], call.item["call_id"]) == ("fc_A", "call_A")
    rekeys = [d.detail for d in result.diagnostics if d.code.value == "snapshot_rekeyed"]
    assert len(rekeys) == 1
    for identity in ("fc_A", "call_A", "fc_B", "functions.get_weather:0"):
        assert identity in rekeys[0]
    assert "slot_reused" not in codes(result)
    # The re-serialised arguments are the same JSON: the latest non-empty value (R7).
    assert call.item["arguments"] == '{"city":"Paris"}'


def test_a_tool_search_call_renamed_by_its_done_is_one_item_with_the_confirmed_call_id() -> None:
    def tsc(call_id: str, status: str) -> dict[str, object]:
        return {
            "type": "tool_search_call",
            "id": "tsc_X",
            "call_id": call_id,
            "execution": "client",
            "arguments": {"query": "weather"},
            "status": status,
        }

    result = reduce1(
        created(),
        added(0, tsc("call_1", "in_progress")),
        done(0, tsc("call_2", "completed")),
        completed([tsc("call_2", "completed")]),
    )
    (entry,) = result.items
    assert entry.item["call_id"] == "call_2"
    assert entry.item["id"] == "tsc_X"
    assert entry.executable
    assert codes(result) == ["call_id_renamed"]
    replayed = replay_input(entry.item for entry in result.items)
    assert [item["type"] for item in replayed].count("tool_search_call") == 1


def test_the_rename_is_the_one_identity_change_the_python_invariant_allows() -> None:
    # model.invariants.first_admission_wins, checked on every step of the real reducer.
    def tsc(call_id: str) -> dict[str, object]:
        return {"type": "tool_search_call", "id": "tsc_X", "call_id": call_id}

    renamed = [created(), added(0, tsc("call_1")), done(0, tsc("call_2")), completed()]
    assert check_invariants(numbered(renamed)) == []
    # The same change from a snapshot (not the entry's own done) is not allowed: it is
    # a new item, and the done entry keeps call_1.
    snapshot = [created(), added(0, tsc("call_1")), completed([tsc("call_2")])]
    assert check_invariants(numbered(snapshot)) == []
    streamed = fc("fc_A", "call_A", "f", "{}")
    rekeyed = [
        created(),
        added(0, streamed),
        done(0, streamed),
        completed([fc("fc_B", "call_B", "f", "{}")]),
    ]
    assert check_invariants(numbered(rekeyed)) == []


def test_an_identity_value_the_table_refuses_never_reaches_the_output() -> None:
    # The identity table alone decides a non-empty call_id or name: under a model that
    # refuses the first name, the output has no name (not the raw item's), and the key
    # keeps its wire position.
    mutant = MUTANTS["first-name-not-taken"]
    events = [
        json.loads(line) for line in fixture_path(mutant).read_text(encoding="utf-8").splitlines()
    ]
    answers = []
    for kernels in (load_kernels(mutant.tables), None):
        reducer = Reducer(kernels=kernels) if kernels is not None else Reducer()
        reducer.feed_all(events)
        (result,) = reducer.finish()
        answers.append([(list(i.item), i.item.get("name")) for i in result.items])
    (mutant_keys, mutant_name), (reference_keys, reference_name) = answers[0][0], answers[1][0]
    assert (mutant_name, reference_name) == (None, "tool_0")
    assert mutant_keys == reference_keys
