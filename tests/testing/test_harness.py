"""The differential harness end to end: candidates, findings, shrinking, explanations."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from responses_oracle import reduce
from responses_oracle.testing import assert_conforms
from responses_oracle.testing.candidate import Failure, FunctionCandidate, ProcessCandidate
from responses_oracle.testing.cases import Case, generated_case
from responses_oracle.testing.compare import Aspect
from responses_oracle.testing.harness import find, report, run_diff
from responses_oracle.testing.profiles import apply_profiles
from responses_oracle.testing.strategies import data_chooser
from responses_oracle.testing.streams import GeneratedStream, openai_stream

from .naive_candidate import parse as naive

NAIVE = [sys.executable, str(Path(__file__).with_name("naive_candidate.py"))]
ORACLE = [sys.executable, "-m", "responses_oracle.testing.oracle_candidate"]


def _oracle(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [result.to_json() for result in reduce(events)]


def test_the_oracle_conforms_to_itself() -> None:
    assert_conforms(_oracle, count=60)


def _mantle(choose_seed: int) -> GeneratedStream:
    case = generated_case(choose_seed, 0, mix=("openai",))
    from responses_oracle.testing.choices import case_chooser

    return apply_profiles(case.stream, ("bedrock-mantle",), case_chooser(choose_seed, 1))


def test_a_naive_parser_fails_with_an_explained_minimal_stream() -> None:
    streams = [_mantle(seed) for seed in range(6)]
    with pytest.raises(AssertionError) as failure:
        assert_conforms(naive, streams)
    message = str(failure.value)
    assert "[R6]" in message and ".item.id: oracle 'fc_" in message
    assert "id_renamed_field" not in message or "item_id" in message
    assert "minimal stream" in message and "oracle trace (explain)" in message


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_shrunk_divergences_keep_their_signature(data: st.DataObject) -> None:
    choose = data_chooser(data)
    stream = apply_profiles(
        openai_stream(choose, kinds=("function_call",)), ("blank-terminal-arguments",), choose
    )
    candidate = FunctionCandidate(naive)
    findings = find([Case("blank", stream)], candidate)
    if not findings:
        return
    result = report(1, findings, candidate, started=0.0, checked=0.0)
    [divergence] = result.divergences
    assert divergence.signature == findings[0].signature
    assert len(divergence.events) <= len(stream.events)
    assert divergence.differences[0].rule == findings[0].differences[0].rule


def test_process_candidates_are_batched_and_agree_with_the_oracle() -> None:
    result = run_diff(ORACLE, seed=5, count=30)
    assert result.ok and result.cases == 30
    assert "30 streams, 0 diverge" in result.summary()


def test_jobs_do_not_change_the_findings() -> None:
    one = run_diff(NAIVE, seed=2, count=24, jobs=1, shrink_groups=False)
    two = run_diff(NAIVE, seed=2, count=24, jobs=2, shrink_groups=False)
    assert not one.ok
    assert [(f.case, f.signature) for f in one.findings] == [
        (f.case, f.signature) for f in two.findings
    ]
    assert {rule for rule in one.by_rule()} <= {"R1", "R3", "R5", "R6", "R7", "R9", "R10"}


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; sys.exit(3)", "candidate exited"),
        ("import sys\nfor line in sys.stdin: print('not json', flush=True)", "not JSON"),
        ("import time; time.sleep(30)", "no answer within"),
        ("import sys\nfor line in sys.stdin: print('{\"id\": \"other\"}', flush=True)",
         "where 'c0' was expected"),
    ],
)
def test_a_misbehaving_candidate_is_a_failure_not_a_crash(script: str, message: str) -> None:
    candidate = ProcessCandidate([sys.executable, "-c", script], timeout=2)
    try:
        answers = candidate.answer([generated_case(0, 0).stream, generated_case(0, 1).stream])
    finally:
        candidate.close()
    assert len(answers) == 2
    assert isinstance(answers[0], Failure) and message in answers[0].message


def test_openai_python_adapter_is_explained_by_rule() -> None:
    # openai is in the test extra: without it this fails rather than skips.
    from responses_oracle.testing.choices import case_chooser
    from responses_oracle.testing.openai_candidate import parse

    candidate = FunctionCandidate(parse)
    plain = openai_stream(case_chooser(11, 0), kinds=("function_call", "message"))
    assert find([Case("plain", plain)], candidate) == []
    mantle = apply_profiles(
        openai_stream(case_chooser(11, 1), kinds=("function_call",)),
        ("bedrock-mantle",),
        case_chooser(11, 2),
    )
    [finding] = find([Case("mantle", mantle)], candidate)
    assert finding.differences[0].aspect is Aspect.FAILURE
    result = report(1, [finding], candidate, started=0.0, checked=0.0)
    [divergence] = result.divergences
    first = divergence.differences[0]
    assert first.rule == "R6" and "identity changed" in str(first.candidate)
    assert divergence.events[-1]["type"] == "response.output_item.done"
