"""The differential harness: run a candidate and the oracle on many streams, report why.

Theory of operation
-------------------
``find`` runs cases through a candidate in batches (one process serves them all),
reduces each stream with the oracle, and compares (``compare.py``); each diverging
case is a ``Finding`` (``report.py``).  Findings are grouped by signature, because
one bug shows up in many cases; one representative per group (the shortest stream) is
shrunk to a minimal stream (``shrink.py``, ddmin with batched candidate calls) and
explained with the oracle's trace, the rule each difference breaks and why
(``explain.py``).

``run_diff`` is the command-line driver: cases ``0..count-1`` of a seed plus a
corpus, split over ``jobs`` processes that each run their own candidate process
(cases are generated where they run: ``generated_case`` is a pure function), then
grouped and shrunk in the parent.  Results do not depend on ``jobs``.

``assert_conforms`` is the same for a pytest user with an in-process parse function.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from .candidate import (
    Candidate,
    Failure,
    FunctionCandidate,
    ParseFn,
    ProcessCandidate,
)
from .cases import Case, generated_case, generated_cases
from .compare import Aspect, compare
from .explain import blame, completed, explain_lines, oracle_json
from .report import DiffReport, Divergence, Finding, signature
from .shrink import shrink
from .streams import Event, GeneratedStream

BATCH = 256
"""Streams per candidate round trip: large enough to amortise, small enough to stream."""


def _batches(cases: Iterable[Case], size: int) -> Iterator[list[Case]]:
    batch: list[Case] = []
    for case in cases:
        batch.append(case)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def find(
    cases: Iterable[Case], candidate: Candidate, *, codes: bool = False, batch: int = BATCH
) -> list[Finding]:
    """Run every case through the candidate and the oracle; the cases that disagree."""
    findings = []
    for chunk in _batches(cases, batch):
        answers = candidate.answer([case.stream for case in chunk])
        for case, answer in zip(chunk, answers, strict=True):
            events = case.stream.events
            differences = compare(events, oracle_json(events), answer, codes=codes)
            if differences:
                findings.append(
                    Finding(
                        case.name,
                        case.stream.labels,
                        events,
                        case.stream.data_only,
                        tuple(differences),
                    )
                )
    return findings


def explain_finding(
    finding: Finding,
    group: Sequence[Finding],
    candidate: Candidate,
    *,
    codes: bool = False,
    minimize: bool = True,
) -> Divergence:
    """Shrink ``finding`` (keeping its signature) and explain the minimal stream."""
    wanted = finding.signature

    def fails(variants: Sequence[list[Event]]) -> list[bool]:
        streams = [GeneratedStream(tuple(v), finding.labels, finding.data_only) for v in variants]
        answers = candidate.answer(streams)
        verdicts = []
        for events, answer in zip(variants, answers, strict=True):
            differences = compare(events, oracle_json(events), answer, codes=codes)
            verdicts.append(bool(differences) and signature(differences) == wanted[1:])
        return verdicts

    events = shrink(finding.events, fails) if minimize else list(finding.events)
    minimal = GeneratedStream(tuple(events), finding.labels, finding.data_only)
    answer = candidate.answer([minimal])[0]
    oracle = oracle_json(events)
    differences = compare(events, oracle, answer, codes=codes) or list(finding.differences)
    if differences[0].aspect is Aspect.FAILURE:
        ended = candidate.answer([GeneratedStream(tuple(completed(events)), finding.labels)])
        same = isinstance(ended[0], Failure) and ended[0] == answer
        rule, where = blame(events, ends_matter=not same)
        first = differences[0]
        differences[0] = replace(first, rule=rule, why=f"the candidate fails {where}; {first.why}")
    return Divergence(
        signature=wanted,
        cases=tuple(f.case for f in group),
        labels=finding.labels,
        original_events=len(finding.events),
        events=tuple(events),
        differences=tuple(differences),
        oracle=tuple(oracle),
        answer=answer,
        trace=tuple(explain_lines(events)),
    )


def group(findings: Sequence[Finding]) -> list[list[Finding]]:
    """Findings grouped by signature, groups in order of first appearance."""
    groups: dict[tuple[str, ...], list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.signature, []).append(finding)
    return list(groups.values())


def report(
    cases: int,
    findings: list[Finding],
    candidate: Candidate,
    *,
    codes: bool = False,
    started: float,
    checked: float,
    shrink_groups: bool = True,
) -> DiffReport:
    """Group the findings, shrink one representative each, and build the report."""
    divergences = []
    for members in group(findings):
        representative = min(members, key=lambda f: len(f.events))
        divergences.append(
            explain_finding(
                representative, members, candidate, codes=codes, minimize=shrink_groups
            )
        )
    return DiffReport(
        cases, findings, divergences, time.perf_counter() - started, checked - started
    )


# -- the command-line driver ----------------------------------------------------------


@dataclass(frozen=True)
class _Shard:
    command: tuple[str, ...]
    sse: bool
    timeout: float
    codes: bool
    seed: int
    indexes: tuple[int, ...]
    corpus: tuple[Case, ...]


def _run_shard(shard: _Shard) -> list[Finding]:
    candidate = ProcessCandidate(shard.command, timeout=shard.timeout, sse=shard.sse)
    try:
        cases = [generated_case(shard.seed, index) for index in shard.indexes]
        return find([*shard.corpus, *cases], candidate, codes=shard.codes)
    finally:
        candidate.close()


def run_diff(
    command: Sequence[str],
    *,
    seed: int = 0,
    count: int = 300,
    corpus: Sequence[Case] = (),
    jobs: int = 1,
    codes: bool = False,
    sse: bool = False,
    timeout: float = 60.0,
    shrink_groups: bool = True,
) -> DiffReport:
    """Diff the candidate program ``command`` against the oracle (``responses-oracle diff``)."""
    started = time.perf_counter()
    jobs = max(1, jobs)
    shards = [
        _Shard(
            tuple(command),
            sse,
            timeout,
            codes,
            seed,
            tuple(range(job, count, jobs)),
            tuple(corpus[job::jobs]),
        )
        for job in range(jobs)
    ]
    candidate = ProcessCandidate(command, timeout=timeout, sse=sse)
    try:
        if jobs == 1:
            cases = [*corpus, *generated_cases(seed, count)]
            parts = [find(cases, candidate, codes=codes)]
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                parts = list(pool.map(_run_shard, shards))
        order = {case.name: n for n, case in enumerate(corpus)}
        order.update({f"seed{seed}/{index}": len(corpus) + index for index in range(count)})
        findings = sorted((f for part in parts for f in part), key=lambda f: order[f.case])
        checked = time.perf_counter()
        return report(
            len(corpus) + count,
            findings,
            candidate,
            codes=codes,
            started=started,
            checked=checked,
            shrink_groups=shrink_groups,
        )
    finally:
        candidate.close()


# -- pytest ---------------------------------------------------------------------------


def _as_case(number: int, stream: GeneratedStream | Sequence[Event]) -> Case:
    if isinstance(stream, GeneratedStream):
        return Case(f"stream{number}", stream)
    return Case(f"stream{number}", GeneratedStream(tuple(stream), ("given",)))


def assert_conforms(
    parse: ParseFn,
    streams: Iterable[GeneratedStream | Sequence[Event]] | None = None,
    *,
    seed: int = 0,
    count: int = 100,
    codes: bool = False,
    shown: int = 3,
) -> None:
    """Assert that ``parse`` answers like the oracle; fail with an explained report.

    ``parse`` takes the decoded events of one stream and returns a result object (or a
    list of them, one per response) in the shape of DESIGN §3; it may leave out fields
    it does not compute.  ``streams`` defaults to ``count`` generated cases of ``seed``.
    Each divergence is shrunk to a minimal stream and explained by the rule it breaks.
    """
    started = time.perf_counter()
    cases: list[Case] = (
        list(generated_cases(seed, count))
        if streams is None
        else [_as_case(n, s) for n, s in enumerate(streams)]
    )
    candidate = FunctionCandidate(parse)
    findings = find(cases, candidate, codes=codes)
    if not findings:
        return
    result = report(
        len(cases),
        findings,
        candidate,
        codes=codes,
        started=started,
        checked=time.perf_counter(),
    )
    raise AssertionError("candidate diverges from the oracle\n\n" + result.render(shown))

