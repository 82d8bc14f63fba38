"""The timeline page of an ``agents --html`` cell: serve's verdict above the stream.

Real runs of ``fake_snapshot_client.py`` against the real ``serve`` (as in
``test_twins.py``): on q05 it replays the snapshot's re-keyed call but answers it under
the ``call_id`` of its ``output_item.done`` (``mixed``: two views, no pair), so
history-faithful breaks where the twin holds it (a *broken* cell); replaying ``{}`` as
the arguments of s01's call it breaks the twin too (*not judged*).  Each page must say
the outcome, mark the failed verdict (red only where it counts), show the oracle's replay
item beside what the client replayed, and mark the served events that carry the call.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from responses_oracle.agents.profiles import Install, Profile
from responses_oracle.agents.report import BROKEN, NOT_JUDGED, outcome, page, write_timelines
from responses_oracle.agents.runner import Cell, run_client
from responses_oracle.agents.scenario_list import resolve

CLIENT = Path(__file__).resolve().parent / "fake_snapshot_client.py"


def _cell(mode: str, scenario: str, out: Path) -> Cell:
    client = Profile(
        name=f"fake-{mode}", kind="library", package="", version="",
        install=Install("project", "", ()),
        command=(sys.executable, str(CLIENT), "{base_url}", mode), driven="", sandbox="",
        tools=(("echo", '{"text": "{marker}"}'),), timeout=60.0,
    )
    [cell] = run_client(client, [scenario], out)
    assert cell.ran and cell.twin is not None and cell.twin.ran, cell.reason
    return cell


def _timeline(cell: Cell, out: Path) -> str:
    written = write_timelines([cell], out / "timelines")
    return (out / "timelines" / written[0]).read_text(encoding="utf-8")


def _verdict(text: str) -> str:
    found = re.search(r'<section class="verdict [^"]*".*?</section>', text, re.DOTALL)
    assert found is not None, "the page has no verdict section"
    return found.group(0)


def test_a_broken_cell_marks_its_failed_verdict_the_replay_and_the_calls_events(
    tmp_path: Path,
) -> None:
    cell = _cell("mixed", "q05", tmp_path)
    assert outcome(cell) == BROKEN
    text = _timeline(cell, tmp_path)
    section = _verdict(text)
    assert section.startswith('<section class="verdict v-fail"')
    assert '<span class="outcome">broken</span>' in section
    # The failed verdict, red, with serve's reason; the two that held, green.
    [failed] = re.findall(r'<td class="v-fail"><b>✗ broken</b><div class="why">([^<]*)',
                          section)
    assert html.unescape(failed) == cell.calls[0].reasons["history_faithful"]
    assert section.count('<td class="v-ok">') == 2
    # What the client replayed (from serve's requests.jsonl) beside the oracle's item.
    served = json.loads((Path(cell.folder) / "verdicts.json").read_text())["scenarios"][0]
    requests = [json.loads(line) for line in
                (Path(cell.folder) / "requests.jsonl").read_text().splitlines()]
    judged = next(r for r in requests if r["index"] == served["next_request"])
    replayed = [item for item in judged["body"]["input"] if "call_id" in item]
    assert f"what fake-mixed replayed (request #{served['next_request']})" in section
    oracle_id = served["calls"][0]["expected"]["call_id"]
    shown = html.unescape(section)
    assert "the oracle's replay" in shown
    assert f'"call_id": "{oracle_id}"' in shown
    assert replayed and all(json.dumps(item, ensure_ascii=False, indent=1) in shown
                            for item in replayed)
    # The call it replayed is the snapshot's; its output, under the done item's call_id.
    calls = [item for item in replayed if item.get("type") == "function_call"]
    assert {item["call_id"] for item in calls} == {"functions.get_weather:0"}
    # The served events that carry the call: a column each on the lanes.
    marked = {int(x) for x in re.findall(r'<title>#(\d+) carries a judged call</title>', text)}
    assert marked == set(served["calls"][0]["events"]) and marked


def test_a_cell_not_judged_shows_no_red_fail(tmp_path: Path) -> None:
    cell = _cell("blank", resolve(["s01"])[0].argument(), tmp_path)
    assert outcome(cell) == NOT_JUDGED
    section = _verdict(_timeline(cell, tmp_path))
    assert section.startswith('<section class="verdict v-uncounted"')
    assert '<span class="outcome">not judged</span>' in section
    assert "v-fail" not in section
    assert '<td class="v-uncounted"><b>✗ broken, not counted</b>' in section
    # The report's own table: the broken verdict amber, never a red FAIL.
    report = page([cell], lambda n: None)
    assert 'class="FAIL"' not in report
    assert '<td class="uncounted"' in report and "FAIL, not judged" in report
