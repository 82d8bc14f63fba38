"""Every cell runs twice, the scenario and its clean twin; a broken verdict counts only
where the client gets that verdict right on the twin.

The client is ``fake_snapshot_client.py``: one streamed turn, its ``echo`` tool run,
the calls sent back.  Reading its calls from the terminal snapshot, it answers q05
under the snapshot's re-keyed ``call_id`` (history-faithful breaks) and handles the
twin, whose snapshot is the oracle's answer: the cell is broken.  Replaying ``{}`` as
every call's arguments, it breaks the twin too: the cell is not judged.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from responses_oracle.agents.profiles import Install, Profile
from responses_oracle.agents.report import (
    BROKEN,
    NOT_JUDGED,
    cell_from_json,
    headline,
    outcome,
    terminal,
    why,
)
from responses_oracle.agents.runner import Cell, run_client
from responses_oracle.agents.scenario_list import resolve
from responses_oracle.agents.served_verdicts import CallVerdict, summary

CLIENT = Path(__file__).resolve().parent / "fake_snapshot_client.py"


def _client(mode: str) -> Profile:
    return Profile(
        name=f"fake-{mode}", kind="library", package="", version="",
        install=Install("project", "", ()),
        command=(sys.executable, str(CLIENT), "{base_url}", mode), driven="", sandbox="",
        tools=(("echo", '{"text": "{marker}"}'),), timeout=60.0,
    )


def test_a_client_that_fails_a_scenario_but_handles_its_twin_is_broken(
    tmp_path: Path,
) -> None:
    [cell] = run_client(_client("mixed"), ["q05"], tmp_path)
    assert cell.ran and cell.twin is not None and cell.twin.ran, cell.reason
    assert summary(cell.calls) == {"executed": "ok", "history_faithful": "FAIL",
                                   "api_valid": "ok"}
    assert summary(cell.twin.calls) == dict.fromkeys(summary(cell.calls), "ok")
    assert outcome(cell) == BROKEN and headline([cell]).startswith("FAIL: 1 of 1 cell")
    assert "replays the call under 'functions.get_weather:0' but answers it under " \
        "'call_baa6'" in why(cell)
    # Folders by scenario, the twin's inside; serve was told to play the twin.
    scenario = tmp_path / "fake-mixed" / "q05"
    twin = scenario / "twin"
    assert json.loads((scenario / "verdicts.json").read_text())["scenarios"][0]["twin"] is False
    assert json.loads((twin / "verdicts.json").read_text())["scenarios"][0]["twin"] is True
    # The record keeps both, and reads back to the same outcome.
    assert outcome(cell_from_json(json.loads(json.dumps(cell.to_json())))) == BROKEN


def test_a_client_that_fails_the_twin_too_is_not_judged(tmp_path: Path) -> None:
    [cell] = run_client(_client("blank"), [resolve(["s01"])[0].argument()], tmp_path)
    assert cell.ran and cell.twin is not None and cell.twin.ran, cell.reason
    assert summary(cell.calls)["history_faithful"] == "FAIL"
    assert summary(cell.twin.calls)["history_faithful"] == "FAIL"
    assert outcome(cell) == NOT_JUDGED
    assert why(cell).startswith("not judged: fails the clean twin too (call_s01: ")
    assert headline([cell]).startswith("NOT JUDGED: 1 cell not judged")
    assert "FAIL/FAIL/ok" in terminal([cell])  # the twin's marks, beside the scenario's


def _call(executed: bool | None, history: bool | None) -> CallVerdict:
    return CallVerdict(
        "call_1", "echo", {"executed": executed, "history_faithful": history, "api_valid": True},
        {"executed": "dropped: no later request carries an output for this call",
         "history_faithful": "id 'fc_x', the oracle's is 'fc_1'"},
    )


def test_a_verdict_counts_where_the_twin_holds_it_whatever_else_the_twin_breaks() -> None:
    # Bedrock Mantle as vercel-ai met it: the call is dropped on the scenario and run on
    # the twin, whose replay leaves out the item id (a verdict the scenario never reached).
    twin = Cell("c", "mantle", True, calls=[_call(True, False)])
    cell = Cell("c", "mantle", True, calls=[_call(False, None)], twin=twin)
    assert outcome(cell) == BROKEN
    said = why(cell)
    assert said.startswith("call_1: executed: dropped")
    assert "not counted" not in said  # history does not apply on the scenario: nothing else
    # The same verdict broken on both is not counted, and the reason says why.
    both = Cell("c", "mantle", True, calls=[_call(False, False)], twin=twin)
    assert outcome(both) == BROKEN
    assert "not counted (history-faithful): the clean twin does not hold it either" in why(both)
    # Only verdicts the twin breaks too: not judged.
    only = Cell("c", "s01", True, calls=[_call(True, False)], twin=twin)
    assert outcome(only) == NOT_JUDGED
    assert why(only).startswith("not judged: fails the clean twin too (call_1: history")
    # A verdict that does not apply on the twin (the twin dropped the call) counts nothing.
    dropped = Cell("c", "s01", True, calls=[_call(True, False)],
                   twin=Cell("c", "s01", True, calls=[_call(False, None)]))
    assert outcome(dropped) == NOT_JUDGED


def test_a_cell_with_two_deviations_names_the_one_that_breaks_the_client(
    tmp_path: Path,
) -> None:
    """r6's done-only call carries two deviations: no added and no argument event, and
    an empty terminal output.  The snapshot reader drops the call (no call in the
    snapshot) and runs it on the twin; replayed alone, only the empty terminal output
    drops it."""
    scenario = "r6_done_only_item_is_recovered"
    [cell] = run_client(_client("snapshot"), [scenario], tmp_path)
    assert cell.ran and cell.twin is not None and cell.twin.ran, cell.reason
    assert summary(cell.calls)["executed"] == "FAIL"
    assert summary(cell.twin.calls)["executed"] == "ok"
    assert cell.causes is not None
    assert cell.causes["empty-terminal-output"] == ["executed"]
    assert cell.causes["done-only"] == []
    alone = tmp_path / "fake-snapshot" / scenario / "alone"
    assert sorted(p.name for p in alone.iterdir()) == ["done-only", "empty-terminal-output"]
    assert json.loads(json.dumps(cell.to_json()))["causes"] == cell.causes


def test_one_deviation_or_a_held_cell_is_not_replayed(tmp_path: Path) -> None:
    [cell] = run_client(_client("snapshot"), ["q05"], tmp_path)  # one deviation
    assert cell.causes is None and "causes" not in cell.to_json()
    assert not (tmp_path / "fake-snapshot" / "q05" / "alone").exists()
