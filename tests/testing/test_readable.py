"""What ``diff`` and ``vectors check`` print for a candidate's author (issue 22, item 9):
the verdict and the counts by class first, then the causes; a candidate judged only on
the fields it gives."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from responses_oracle.cli import main

# A done call, then the body ends: the reference's response is interrupted and the call
# not executable.
INTERRUPTED = (
    '{"type":"response.created","response":{"id":"resp_1"}}\n'
    '{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call",'
    '"id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}\n'
)

# A candidate that hands over every done item in a response it says completed, and never
# says whether a call is executable (as an SDK does).
ALWAYS_COMPLETED = """
import sys
sys.path.insert(0, {tests!r})
from naive_candidate import parse
from responses_oracle.testing.candidate import serve

def completed(events):
    result = parse(events)
    result["response"]["status"] = "completed"
    return result

serve(completed)
"""


def _candidate(tmp_path: Path) -> str:
    script = tmp_path / "always_completed.py"
    script.write_text(ALWAYS_COMPLETED.format(tests=str(Path(__file__).parent)))
    return f"{sys.executable} {script}"


def test_executable_is_never_reported_for_a_candidate_that_does_not_send_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "interrupted.jsonl").write_text(INTERRUPTED)
    args = ["diff", "--candidate", _candidate(tmp_path), "--count", "0", "--corpus", str(corpus)]
    assert main([*args, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    differences = [d for c in report["clusters"] for d in c["differences"]]
    # The harm is real (its user runs a call of a response that never completed) ...
    assert "unconfirmed_call_kept" in {d["class"] for d in differences}
    # ... but the candidate never said `executable`, so no difference claims it did.
    assert not [d for d in differences if d["path"].endswith(".executable")]
    assert True not in [d["candidate"] for d in differences]
    assert main(args) == 1
    text = capsys.readouterr().out
    assert "candidate true" not in text
    assert "handed over in a response reported completed" in text
