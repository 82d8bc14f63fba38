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


NAIVE = f"{sys.executable} {Path(__file__).with_name('naive_candidate.py')}"

# A candidate that answers each terminal snapshot as it came (openai-python's policy).
SNAPSHOT = """
from responses_oracle.testing.candidate import serve

def parse(events):
    ending = [e for e in events if e.get("type") in
              ("response.completed", "response.incomplete", "response.failed")]
    if not ending:
        raise RuntimeError("no terminal event")
    response = ending[0]["response"]
    return {"response": {"id": response.get("id"), "status": response.get("status")},
            "items": [{"item": item} for item in response.get("output") or []]}

serve(parse)
"""


def test_diff_leads_with_the_verdict_and_the_streams_per_class(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["diff", "--candidate", NAIVE, "--count", "12", "--no-shrink"]
    assert main([*args, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert main(args) == 1
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].startswith(f"FAIL: {report['diverging_cases']} of 12 streams diverge")
    by_class = text.index("streams by class")
    causes = text.index("causes (in the order detailed below):")
    assert by_class < causes < text.index("cluster 1 [")
    # Each diverging stream is counted once, by its own most harmful class.
    counted = [line.split() for line in text[by_class:causes].splitlines()[1:] if line.strip()]
    assert sum(int(words[1]) for words in counted) == report["diverging_cases"]
    # One line per cause, by cluster id, in the order the clusters follow.
    ids = [c["id"] for c in report["clusters"]]
    listed = [line.split("[")[1].split("]")[0] for line in text[causes:].splitlines()[1:]
              if line.startswith("  ") and "[" in line][: len(ids)]
    assert listed == ids


def test_a_policy_cluster_is_named_by_the_candidates_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from responses_oracle.model.divergence import HYPOTHESES, Hypothesis

    script = tmp_path / "snapshot.py"
    script.write_text(SNAPSHOT)
    status = main(["diff", "--candidate", f"{sys.executable} {script}", "--count", "40",
                   "--generator", "profile", "--profile", "blank-terminal-arguments"])
    text = capsys.readouterr().out
    mistake = HYPOTHESES[Hypothesis.SNAPSHOT_VERBATIM].mistake
    assert status == 1
    assert f"the candidate {mistake} (R9)" in text  # the cause line
    assert f"-- the client {mistake}, R9," in text  # the cluster's heading


def test_ids_are_shown_whole_where_they_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Long and alike at the start, as GitHub Copilot's ~400-character ids are.
    stem = "rs_" + "0123456789abcdef" * 16
    first, second = f"{stem}_first", f"{stem}_second"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "renamed.jsonl").write_text(
        '{"type":"response.created","response":{"id":"resp_1"}}\n'
        f'{{"type":"response.output_item.added","output_index":0,"item":{{"type":"reasoning",'
        f'"id":"{first}","summary":[]}}}}\n'
        f'{{"type":"response.output_item.done","output_index":0,"item":{{"type":"reasoning",'
        f'"id":"{second}","summary":[]}}}}\n'
        '{"type":"response.completed","response":{"id":"resp_1","status":"completed"}}\n'
    )
    assert main(["diff", "--candidate", NAIVE, "--count", "0", "--corpus", str(corpus)]) == 1
    text = capsys.readouterr().out
    [line] = [line for line in text.splitlines() if "[id_differs]" in line]
    assert f"reference '{first}', candidate '{second}'" in line


def test_vectors_check_leads_with_the_verdict_and_groups_by_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from responses_oracle.testing.candidate import ProcessCandidate
    from responses_oracle.testing.conformance_vectors import by_rule, check, load

    out = tmp_path / "vectors"
    assert main(["vectors", "export", str(out), "--generated", "12"]) == 0
    capsys.readouterr()
    assert main(["vectors", "check", str(out), "--candidate", NAIVE]) == 1
    text = capsys.readouterr().out
    _, vectors = load(out)
    candidate = ProcessCandidate(NAIVE.split())
    try:
        outcomes = check(vectors, candidate)
    finally:
        candidate.close()
    passed = sum(o.passed for o in outcomes)
    assert text.splitlines()[0].startswith(f"FAIL: {passed} of {len(outcomes)} vectors pass")
    rows = text[text.index("by rule exercised"):text.index("\nbreaks ")]
    for tally in by_rule(outcomes):
        assert f"  {tally.rule:<4} {tally.passed:>4} / {tally.vectors:<4}" in rows
    # The failures follow, grouped by the rule each difference breaks, with counts.
    groups = [line for line in text.splitlines() if line.startswith("breaks R")]
    broken = {d.rule for o in outcomes for d in o.differences}
    assert [g.split(":")[0].removeprefix("breaks ") for g in groups] == sorted(
        broken, key=lambda rule: int(rule[1:]))
    assert all(" difference(s) in " in g for g in groups)
