"""Why a failed client's cell broke: the error's own line, read from its real output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from responses_oracle.agents.report import (
    BROKEN,
    NOT_COUNTED,
    NOT_JUDGED,
    PROXY_REGRESSION,
    UNKNOWN_CAUSE,
    Bug,
    broken,
    bugs,
    by_cause,
    by_verdict,
    causes,
    cell_from_json,
    counted_scenario,
    evidence,
    headline,
    outcome,
    regressions,
    why,
)
from responses_oracle.agents.runner import Cell, error_line
from responses_oracle.agents.scenario_list import builtin, same_stream
from responses_oracle.agents.served_verdicts import CallVerdict

CAPTURED = Path(__file__).resolve().parent / "stderr"


@pytest.mark.parametrize(("log", "line"), [
    ("openai-agents-js-q01.txt",
     "UserError: Runner.run() and Runner.runStreamed() only auto-execute built-in client "
     "tool_search calls with { paths: string[] }. Custom client tool_search schemas require "
     'toolSearchTool({ execution: "client", execute }) or a custom model loop before '
     "re-processing call call_B."),
    ("openai-agents-q01.txt",
     "agents.exceptions.ModelBehaviorError: Client-executed tool_search calls are not "
     "supported by the standard agent runner. Handle the tool_search_call yourself and "
     "return a matching tool_search_output item with the same call_id."),
    ("vercel-ai-s05.txt", "StreamProviderError [AI_StreamProviderError]: The model failed."),
])
def test_the_error_line_is_the_thrown_errors_not_the_last_line(log: str, line: str) -> None:
    output = (CAPTURED / log).read_text(encoding="utf-8")
    assert error_line(output) == line
    if "js" in log or "vercel" in log:
        # What the cell said before: the last line, Node's version banner.
        assert output.rstrip().splitlines()[-1].startswith("Node.js v")


def test_without_a_traceback_or_a_caret_the_last_named_error_then_the_last_line() -> None:
    assert error_line("starting\nError: connection refused\n    at x (y.js:1:1)\n}\n") == (
        "Error: connection refused")
    assert error_line("booting\nno provider configured\n\nNode.js v22.23.5\n") == (
        "no provider configured")
    assert error_line("") == ""


def test_a_python_chained_exception_gives_the_last_one() -> None:
    output = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n  File \"a.py\", line 3\n    raise X\n"
        "    ^^^^^^^\nRuntimeError: the model sent no arguments\n"
    )
    assert error_line(output) == "RuntimeError: the model sent no arguments"


def test_a_dropped_call_of_a_failed_client_shows_its_error_line() -> None:
    output = (CAPTURED / "openai-agents-js-q01.txt").read_text(encoding="utf-8")
    dropped = CallVerdict.from_json({
        "call_id": "call_B", "name": "echo", "executable": True,
        "executed": False, "history_faithful": None, "api_valid": None,
        "reasons": {"executed": "dropped: no later request carries an output for this call",
                    "history_faithful": "no next request", "api_valid": "no next request"},
    })
    held = CallVerdict.from_json({"call_id": "call_B", "executed": True,
                                  "history_faithful": True, "api_valid": True})
    cell = Cell("openai-agents-js", "q01", ran=True, exit_status=1, calls=[dropped],
                output=output[-1200:], error=error_line(output),
                twin=Cell("openai-agents-js", "q01", ran=True, calls=[held]))
    shown = why(cell_from_json(cell.to_json()))  # as the page shows it, from the record
    assert shown == (
        "call_B: executed: dropped: no later request carries an output for this call; "
        "the client exited 1: " + error_line(output)[:200])
    assert "Node.js" not in shown


def _cell(client: str, scenario: str, executed: bool | None, **more: Any) -> Cell:
    """A recorded cell of one call whose executed verdict is ``executed``."""
    call = CallVerdict("call_1", "echo", {"executed": executed},
                       {"executed": "dropped" if executed is False else "ran"})
    return Cell(client, scenario, ran=True, calls=[call], **more)


def test_a_verdict_held_directly_and_lost_behind_the_proxy_is_a_proxy_regression() -> None:
    """#39 part 2: behind the proxy, a cell is compared with the same client direct,
    never with the twin behind the proxy (which the proxy also serves)."""
    held_twin = _cell("pydantic-ai via proxy", "s06", False)
    behind = _cell("pydantic-ai via proxy", "s06", False, twin=held_twin)
    direct = _cell("pydantic-ai", "s06", True)
    assert outcome(behind, direct) == PROXY_REGRESSION
    assert why(behind, direct) == (
        "proxy regression: executed held directly, lost behind the proxy: call_1: "
        "executed: dropped")
    assert regressions([direct, behind]) == [behind]
    assert by_verdict([direct, behind]) == {"executed": 1}
    # Broken directly too: the proxy did not cause it.
    assert outcome(behind, _cell("pydantic-ai", "s06", False)) == NOT_JUDGED
    assert why(behind, _cell("pydantic-ai", "s06", False)).startswith(
        "not judged: broken directly too (call_1: executed: dropped)")
    assert outcome(behind) == NOT_JUDGED  # no direct cell recorded
    # s06 declares no deviation: its twin is the same stream.  A client that held the
    # verdict on the cell but broke it on the twin is not shown to hold it directly.
    flaky = _cell("pydantic-ai", "s06", True, twin=_cell("pydantic-ai", "s06", False))
    assert outcome(behind, flaky) == NOT_JUDGED
    assert why(behind, flaky).startswith(
        "not judged: directly, held on one run and broken on another of the same stream "
        "(its clean twin, which has no deviation: call_1: executed: dropped)")
    # On a scenario with a deviation the twin is another stream: only the cell counts.
    q07 = _cell("pydantic-ai via proxy", "q07", False)
    assert outcome(q07, _cell("pydantic-ai", "q07", True,
                              twin=_cell("pydantic-ai", "q07", False))) == PROXY_REGRESSION
    assert headline([direct, behind]).startswith(
        "FAIL: 1 proxy regression (held directly, lost behind the proxy) "
        "(by verdict: executed 1; 1 bug: a client and a root cause)")


def test_a_broken_verdict_on_a_robustness_row_is_never_counted() -> None:
    # s02 is a robustness row: no provider is shown to send done-only calls.
    assert not counted_scenario("s02") and counted_scenario("s01")
    cell = _cell("llm", "s02", False, twin=_cell("llm", "s02", True))
    assert outcome(cell) == NOT_COUNTED and not broken(cell)
    assert why(cell).startswith("not counted: no provider is shown to send done-only")
    assert headline([cell]).startswith("PASS") and "not counted" in headline([cell])


def test_the_cause_of_a_broken_cell_is_the_deviation_that_breaks_it_alone() -> None:
    twin = _cell("llm", "q10", True)
    cell = _cell("llm", "q10", False, twin=twin,
                 causes={"no-argument-deltas": ["executed"], "no-arguments-done": []})
    assert outcome(cell) == BROKEN
    assert causes(cell) == ("no-argument-deltas",)
    assert by_cause([cell]) == {"no-argument-deltas": 1}
    # One deviation, no replay needed: it is the cause.
    assert causes(_cell("llm", "q07", False, twin=twin)) == ("arguments-only-in-snapshot",)
    # A cell recorded without its replays, of several deviations: not known.
    assert by_cause([_cell("llm", "q10", False, twin=twin)]) == {UNKNOWN_CAUSE: 1}
    assert evidence("q07")  # the catalogue's evidence for its deviation


def test_a_driver_s_own_reading_of_an_sdk_without_a_tool_loop_is_never_counted() -> None:
    """#42's re-judgement: openai-go hands over the events as sent; whether its calls
    come from response.completed (openai-go) or output_item.done (openai-go-items) is
    the driver's choice, and each ✗ of those rows holds in the other reading.  The same
    for openai-java's ResponseAccumulator, whose response() is response.completed's as
    sent (the second draw: openai-java on r4)."""
    for client in ("openai-go", "openai-go-items", "openai-java", "openai-java-items",
                   "openai-python-events"):
        cell = _cell(client, "r7_snapshot_fills_an_empty_done", False,
                     twin=_cell(client, "r7_snapshot_fills_an_empty_done", True))
        assert outcome(cell) == NOT_COUNTED and not broken(cell)
        assert why(cell).startswith(
            "not counted: the SDK has no tool loop and hands over the stream's response as "
            "the server sent it: the driver's own loop read the calls from ")
        assert headline([cell]).startswith("PASS")
    # An SDK whose own code reads the stream (adk-go's loop) is counted as before...
    adk = _cell("adk-go", "r7_snapshot_fills_an_empty_done", False,
                twin=_cell("adk-go", "r7_snapshot_fills_an_empty_done", True))
    assert outcome(adk) == BROKEN
    # ...and a ✗ the twin shares stays not judged, for either.
    shared = _cell("openai-go", "q07", False, twin=_cell("openai-go", "q07", False))
    assert outcome(shared) == NOT_JUDGED
    # Behind the proxy the driver is the same on both sides: a loss is the proxy's.
    behind = _cell("openai-go via proxy", "q07", False)
    assert outcome(behind, _cell("openai-go", "q07", True)) == PROXY_REGRESSION


def test_a_call_left_unconfirmed_beside_a_complete_one_is_a_robustness_row() -> None:
    """#42's re-judgement: the SGLang router (sglang#12652) keeps each call's
    arguments.done and leaves every call unconfirmed; no provider is shown to send
    r9's stream, one call without any done beside a complete one."""
    for name in ("r9_unconfirmed_items_are_kept_but_not_executable", "peers-unconfirmed-call"):
        assert not counted_scenario(name), name
    cell = _cell("openai-python", "r9_unconfirmed_items_are_kept_but_not_executable", False,
                 twin=_cell("openai-python", "r9_unconfirmed_items_are_kept_but_not_executable",
                            True))
    assert outcome(cell) == NOT_COUNTED
    assert why(cell).startswith("not counted: no provider is shown to send unconfirmed-call")


def test_a_client_s_own_named_refusal_of_a_stream_is_never_counted() -> None:
    """#42's re-judgement: openai-python's accumulator refuses, by checks its
    maintainers wrote, an item whose id changes (r4, q11, r5) or an output index used
    twice (q09, r10); a crash of another kind still counts."""
    scenario = "r4_an_alias_from_a_done_item_routes_later_events"
    twin = _cell("openai-python", scenario, True)
    refused = _cell("openai-python", scenario, False, twin=twin, exit_status=1,
                    error="RuntimeError: Completed output item identity changed.")
    assert outcome(refused) == NOT_COUNTED and not broken(refused)
    assert why(refused).startswith(
        'not counted: the client refuses this stream by a check of its own ("Completed '
        'output item identity changed"): a rejection its maintainers chose')
    crashed = _cell("openai-python", "r7_a_zero_argument_call_keeps_its_empty_string", False,
                    twin=_cell("openai-python", "r7_a_zero_argument_call_keeps_its_empty_string",
                               True),
                    exit_status=1, error="json.decoder.JSONDecodeError: Expecting value: "
                    "line 1 column 1 (char 0)")
    assert outcome(crashed) == BROKEN
    # The same words from a client whose profile lists no such check count as before...
    other = _cell("llm", scenario, False, twin=_cell("llm", scenario, True), exit_status=1,
                  error="RuntimeError: Completed output item identity changed.")
    assert outcome(other) == BROKEN
    # ...and so do they on a deviation the check was not written for: Bedrock Mantle's
    # done item leaves its id out (the check lets an added item do so).
    mantle = _cell("openai-python", "peers-mantle-missing-id", False, exit_status=1,
                   twin=_cell("openai-python", "peers-mantle-missing-id", True),
                   error="RuntimeError: Completed output item identity changed.")
    assert outcome(mantle) == BROKEN


def test_scenarios_that_serve_the_same_stream_up_to_ids_share_their_same_stream() -> None:
    """#42: the list names one stream three times (bases that differ only in ids, tool
    names and argument values, all of which serve replaces) and another twice."""
    snapshot = ("q07", "r7_snapshot_fills_an_empty_done", "peers-arguments-only-in-snapshot")
    mantle = ("r6_mantle_renamed_id_field_on_a_done_only_item", "peers-mantle-missing-id")
    assert len({same_stream(name) for name in snapshot}) == 1
    assert len({same_stream(name) for name in mantle}) == 1
    # Not one stream: another deviation of the same call (q10), the clean baseline
    # (s01), the other group, and a scenario no request of the three tools is served.
    others = {same_stream(name) for name in ("q10", "s01", mantle[0], "q01")}
    assert same_stream("q07") not in others and len(others) == 4
    # Every other scenario of the list is a stream of its own, but one robustness pair.
    shared: dict[str, set[str]] = {}
    for scenario in builtin():
        shared.setdefault(same_stream(scenario.name), set()).add(scenario.name)
    assert sorted(sorted(names) for names in shared.values() if len(names) > 1) == sorted([
        sorted(snapshot), sorted(mantle),
        ["peers-missing-call-output", "r6_done_only_item_is_recovered"]])


def _broken(client: str, scenario: str, **more: Any) -> Cell:
    """A counted cell: its executed verdict broken, its twin's held."""
    return _cell(client, scenario, False, twin=_cell(client, scenario, True), **more)


def test_a_client_s_counted_cells_on_one_stream_or_one_cause_are_one_bug() -> None:
    """#42: the headline counts bugs (a client and a root cause), not cells."""
    snapshot = [_broken("codex", name) for name in (
        "q07", "r7_snapshot_fills_an_empty_done", "peers-arguments-only-in-snapshot")]
    other_cause = _broken("codex", "q11")  # snapshot-new-id: a bug of its own
    other_client = _broken("rig", "q07")
    held = _cell("codex", "s01", True)
    found = bugs([*snapshot, other_cause, held, other_client])
    assert found == [
        Bug("codex", ("arguments-only-in-snapshot",), tuple(snapshot)),
        Bug("codex", ("snapshot-new-id",), (other_cause,)),
        Bug("rig", ("arguments-only-in-snapshot",), (other_client,)),
    ]
    assert by_cause([*snapshot, other_cause, other_client]) == {
        "arguments-only-in-snapshot": 2, "snapshot-new-id": 1}
    # The same stream under another name is the same bug, whatever cause it recorded
    # (a cell replayed to another deviation, or recorded without its replays).
    mantle = _broken("vercel-ai", "r6_mantle_renamed_id_field_on_a_done_only_item")
    twin_name = _broken("vercel-ai", "peers-mantle-missing-id",
                        causes={"unreplayed-elsewhere": ["executed"]})
    [one] = bugs([mantle, twin_name])
    assert one.cells == (mantle, twin_name)
    assert one.causes == ("id-as-item-id", "unreplayed-elsewhere")
    assert headline([*snapshot, other_cause, other_client]).startswith(
        "FAIL: 5 of 5 cells break a verdict its clean twin keeps (by verdict: executed 5; "
        "3 bugs: a client and a root cause)")
    # A cell that is not counted is in no bug.
    assert bugs([_cell("codex", "q07", False, twin=_cell("codex", "q07", False))]) == []
