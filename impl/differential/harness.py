"""The differential harness: run a candidate and the reference on many streams, report why.

Theory of operation
-------------------
``find`` runs cases through a candidate in batches (one process serves them all),
reduces each stream with the reference, classifies every difference by the harm it
does (``taxonomy``) and names what went wrong by its signature (``cause``); each
diverging case is a ``Finding``, which also records the client policies that explain
its most harmful cause (``hypotheses``).  Findings are clustered by their most harmful
cause (the lesser ones are listed with the case, ``cause``).  One
representative per cluster (a case of its most harmful class, one with a real
provider's shape first, then the shortest: ``provenance``) is shrunk (``shrink.py``: ddmin with
batched candidate calls, the response frame kept) under the one condition that the
variant still shows the cluster's cause, then explained:
the rule and decision that decide it, both answers, the reference's trace with the
events involved marked.

A cause every case of which one client policy explains (``hypotheses.explained``: the
candidate answers as the terminal snapshot verbatim does wherever the cause differs
from the reference, say) is that policy's: the causes one policy explains are one
cluster (``cluster``), whose representative is shrunk keeping the policy's explanation
(``explain_cluster``), and each cause it gathers is explained as before, as its parts.

A candidate that gave no answer is placed by its *trip*: the first event whose prefix,
closed by a terminal, fails with the same message (``trip_points``: every prefix of
every failing case in one batched run, after ``find``).  The rule and the reference's
decision there are reported per case; for a runtime lookup error they are its cause
(``cause.Causes``).  The representative is shrunk keeping its own message (cheap), and
only if the minimal stream then shows another cause is it shrunk again keeping the
trip itself.

A body holding several responses is handed to the candidate as one request, as a
real client receives it; ``split=True`` sends each response as its own request and
joins the answers (a candidate that answers one response per call needs it to be
compared response by response).

``run_diff`` is the command-line driver: cases ``0..count-1`` of a seed (from the
generators and profiles chosen) plus a corpus, split over ``jobs`` processes that each
run their own candidate process (cases are generated where they run:
``generated_case`` is a pure function), then clustered and shrunk in the parent.
Results do not depend on ``jobs``.  A candidate that cannot run raises
``CandidateError`` (its stderr, once).

``assert_conforms`` is the same for a pytest user with an in-process parse function.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

from responses_oracle.model.divergence import HARM, HYPOTHESES, Divergence, Hypothesis
from responses_oracle.reducer import response_parts
from responses_oracle.streamgen.cases import MIX, Case, generated_case, generated_cases
from responses_oracle.streamgen.provider_profiles import PROFILES
from responses_oracle.streamgen.streams import Event, GeneratedStream
from responses_oracle.workers import end_quietly_on_interrupt

from .candidate import Answer, Candidate, Failure, FunctionCandidate, ParseFn, ProcessCandidate
from .cause import (
    BUG_RAISES,
    RUNTIME_KIND,
    Cause,
    Causes,
    Signature,
    TracedResponse,
    failure_kind,
    involved,
    judged,
    mask_failure,
    policy,
    traced,
    trip_rule,
)
from .compare import Aspect
from .findings import Cluster, DiffReport, Finding, class_counts, cluster_order, source_counts
from .hypotheses import explained
from .oracle_trace import completed, trace_line
from .shrink import FRAME_EVENTS, shrink

BATCH = 64
"""Streams per candidate round trip: large enough to amortise, small enough to show
progress."""

NO_BUGS = Causes()
"""The keying of a run where no failure was seen on a valid stream."""

Progress = Callable[[int, int], None]
"""Told (cases done, cases in all) after every batch."""


def _batches(cases: Iterable[Case], size: int) -> Iterator[list[Case]]:
    batch: list[Case] = []
    for case in cases:
        batch.append(case)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def answers_of(
    candidate: Candidate, streams: Sequence[GeneratedStream], split: bool = False
) -> list[Answer]:
    """The candidate's answer to each stream: one request each, or one per response."""
    if not split:
        return candidate.answer(streams)
    parts = [response_parts(s.events) for s in streams]
    flat = [
        GeneratedStream(tuple(p), s.labels, s.data_only)
        for s, ps in zip(streams, parts, strict=True)
        for p in ps
    ]
    flat_answers = iter(candidate.answer(flat))
    out: list[Answer] = []
    for ps in parts:
        mine = [next(flat_answers) for _ in ps]
        results = [r for a in mine if not isinstance(a, Failure) for r in a]
        failure = next((a for a in mine if isinstance(a, Failure)), None)
        out.append(failure if failure is not None else results)
    return out


def find(
    cases: Iterable[Case],
    candidate: Candidate,
    *,
    codes: bool = False,
    split: bool = False,
    batch: int = BATCH,
    progress: Progress | None = None,
    total: int = 0,
) -> list[Finding]:
    """Run every case through the candidate and the reference; the cases that disagree.
    Ctrl-C raises ``Interrupted`` with the findings of the cases compared before it."""
    findings = []
    done = 0
    try:
        for chunk in _batches(cases, batch):
            answers = answers_of(candidate, [case.stream for case in chunk], split)
            for case, answer in zip(chunk, answers, strict=True):
                events = case.stream.events
                judgement = judged(events, answer, codes)
                if judgement.classified:
                    findings.append(
                        Finding(
                            case.name,
                            case.stream.labels,
                            events,
                            case.stream.data_only,
                            answer,
                            judgement.classified,
                            judgement.signatures,
                            explained(events, answer, codes=codes,
                                      differences=judgement.first_cause),
                        )
                    )
                done += 1
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        raise Interrupted(findings, done, total) from None
    return findings


class Interrupted(Exception):
    """Ctrl-C during a run: the findings of the streams compared before it (neither
    clustered nor shrunk: that would run the candidate again)."""

    def __init__(self, findings: list[Finding], compared: int, total: int) -> None:
        super().__init__(f"interrupted after {compared} of {total} streams")
        self.findings = findings
        self.compared = compared
        self.total = total


def cluster(findings: Sequence[Finding]) -> tuple[Causes, dict[Cause, list[Finding]]]:
    """Findings by their most harmful cause, causes in order of first appearance, and
    the keying used (failures placed by their trip: ``with_trips``).  A cause whose
    every case one hypothesis explains joins that policy's cluster (``policy``).  Of
    several that explain them all, the one that so explains the most cases of the run
    (the cases of the causes it explains wholly) wins, then the first in
    ``HYPOTHESES``: a client follows few policies, so the one that accounts for more of
    what it did is the likelier cause."""
    causes = Causes.of(s for finding in findings for s in finding.signatures[:1])
    by_cause: dict[Cause, list[Finding]] = {}
    for finding in findings:
        by_cause.setdefault(causes.key(finding.signatures[0]), []).append(finding)
    common = {cause: set.intersection(*(set(f.explained) for f in members))
              for cause, members in by_cause.items()}
    reach: Counter[Hypothesis] = Counter()
    for cause, members in by_cause.items():
        reach.update(dict.fromkeys(common[cause], len(members)))
    clusters: dict[Cause, list[Finding]] = {}
    for cause, members in by_cause.items():
        # ``min`` keeps the first of equals: HYPOTHESES order breaks ties.
        best = min((h for h in HYPOTHESES if h in common[cause]), key=lambda h: -reach[h],
                   default=None)
        clusters.setdefault(cause if best is None else policy(best), []).extend(members)
    return causes, clusters


TRIP_BATCH = 8 * BATCH
"""Prefixes per candidate round trip when finding trips."""


def _prefixes(events: Sequence[Event]) -> list[list[Event]]:
    """Every prefix of ``events``, closed by a ``response.completed`` when it has no
    terminal of its own."""
    out = []
    for end in range(1, len(events) + 1):
        prefix = list(events[:end])
        ended = any(e.get("type") in FRAME_EVENTS - {"response.created"} for e in prefix)
        out.append(prefix if ended else completed(prefix))
    return out


def trip_points(
    wanted: Sequence[tuple[GeneratedStream, str]], candidate: Candidate, split: bool = False
) -> list[int | None]:
    """For each stream and the (masked) message its candidate failed with: the index of
    the first event whose prefix fails with that message (``None``: no prefix does, the
    candidate gives up only at the end of input).  One batched run for all of them."""
    variants = [_prefixes(stream.events) for stream, _ in wanted]
    flat = [
        GeneratedStream(tuple(v), stream.labels, stream.data_only)
        for (stream, _), vs in zip(wanted, variants, strict=True)
        for v in vs
    ]
    answers: list[Answer] = []
    for start in range(0, len(flat), TRIP_BATCH):
        answers.extend(answers_of(candidate, flat[start : start + TRIP_BATCH], split))
    at = iter(answers)
    out: list[int | None] = []
    for (_, failure), vs in zip(wanted, variants, strict=True):
        mine = [next(at) for _ in vs]
        out.append(next(
            (n for n, a in enumerate(mine)
             if isinstance(a, Failure) and mask_failure(a.message) == failure),
            None,
        ))
    return out


def _tripped(mine: Signature, events: Sequence[Event], at: int | None) -> Signature:
    rule, decision = trip_rule(traced(events), at)
    return replace(mine, rule=rule, decision=decision)


def with_trips(
    findings: Sequence[Finding], candidate: Candidate, split: bool = False
) -> list[Finding]:
    """The findings with each failure placed by its trip (its signature's rule and
    decision).  Failures on valid streams first; a failure on an invalid stream only
    when it is a runtime lookup error and a valid one raised one (else its trip is not
    part of its key, and it cannot join a bug by it)."""
    def trip(chosen: list[Finding]) -> dict[str, Signature]:
        streams = [(GeneratedStream(f.events, f.labels, f.data_only), f.signatures[0].failure)
                   for f in chosen]
        points = trip_points(streams, candidate, split)
        return {
            f.case: _tripped(f.signatures[0], f.events, at)
            for f, at in zip(chosen, points, strict=True)
        }

    failing = [f for f in findings if f.signatures[0].failure]
    valid = [f for f in failing if f.signatures[0].divergence in BUG_RAISES]
    placed = trip(valid)
    if Causes.of(placed.values()).placed():
        placed |= trip([f for f in failing if f.case not in placed
                        and failure_kind(f.signatures[0].failure) == RUNTIME_KIND])
    return [
        replace(f, signatures=(placed[f.case], *f.signatures[1:])) if f.case in placed else f
        for f in findings
    ]


def explain_cluster(
    wanted: Cause,
    members: Sequence[Finding],
    candidate: Candidate,
    *,
    codes: bool = False,
    split: bool = False,
    minimize: bool = True,
    allowed: frozenset[Divergence] = frozenset(),
    causes: Causes = NO_BUGS,
) -> Cluster:
    """Shrink the cluster's representative (``_representative``), keeping its cause and
    its class, and explain it; a client policy's cluster keeps the policy's answer instead."""
    if wanted.hypothesis is not None:
        return _explain_policy(wanted.hypothesis, members, candidate, codes, split, minimize,
                               allowed, causes)
    divergence, finding = _representative(members)

    message = finding.signatures[0].failure

    def stream(events: Sequence[Event]) -> GeneratedStream:
        return GeneratedStream(tuple(events), finding.labels, finding.data_only)

    def signatures_of(
        variants: Sequence[list[Event]], exact: bool
    ) -> list[tuple[Signature, ...]]:
        """Each variant's signatures; a failure with the representative's message is
        placed by its trip when ``exact`` (else it counts as the cluster's)."""
        answers = answers_of(candidate, [stream(v) for v in variants], split)
        out = [judged(v, a, codes).signatures for v, a in zip(variants, answers, strict=True)]
        if not message:
            return out
        failing = [n for n, sigs in enumerate(out) if sigs and sigs[0].failure]
        if not exact:
            return [
                (replace(sigs[0], rule=wanted.rule, decision=wanted.decision),)
                if n in failing and sigs[0].failure == message else sigs
                for n, sigs in enumerate(out)
            ]
        points = trip_points(
            [(stream(variants[n]), out[n][0].failure) for n in failing], candidate, split
        )
        for n, at in zip(failing, points, strict=True):
            out[n] = (_tripped(out[n][0], variants[n], at),)
        return out

    def fails(exact: bool) -> Callable[[Sequence[list[Event]]], list[bool]]:
        def check(variants: Sequence[list[Event]]) -> list[bool]:
            return [causes.shows(wanted, sigs, divergence)
                    for sigs in signatures_of(variants, exact)]
        return check

    events = list(finding.events)
    if minimize:
        events = shrink(finding.events, fails(exact=False))
        if message and not fails(exact=True)([events])[0]:
            events = shrink(finding.events, fails(exact=True))
    answer = answers_of(candidate, [stream(events)], split)[0]
    [signatures] = signatures_of([events], exact=True)
    if not causes.shows(wanted, signatures, divergence):  # a candidate not deterministic
        events, answer = list(finding.events), finding.answer
        signatures = finding.signatures
    judgement = judged(events, answer, codes)
    responses = judgement.responses
    shown = tuple(
        c for c, each in zip(judgement.classified, judgement.each, strict=True)
        if c.difference.aspect is Aspect.FAILURE or causes.key(each) == wanted
    )
    mine = next(
        s for s in signatures if causes.key(s) == wanted and s.divergence is divergence
    )
    if mine.failure:
        [at] = trip_points([(stream(events), mine.failure)], candidate, split)
        rule, decision = trip_rule(responses, at)
        marked = {at} if at is not None else set()
    else:
        rule, decision = mine.rule, mine.decision
        marked = {s.index for c in shown for s in involved(c, responses, events)}
    return _built(
        members, finding, events, answer, responses, allowed,
        cause=wanted,
        representative_cause=wanted,
        rule=rule,
        decision=decision,
        classified=shown,
        trace=_trace(responses, marked),
        divergence=divergence,
        message=mine.failure,
        others=tuple(
            Counter(
                c.divergence.value for c in judgement.classified if c not in shown
            ).most_common()
        ),
    )


def _built(
    members: Sequence[Finding], finding: Finding, events: Sequence[Event], answer: Answer,
    responses: Sequence[TracedResponse], allowed: frozenset[Divergence], **fields: Any,
) -> Cluster:
    """A cluster of ``members`` represented by ``finding`` shrunk to ``events``: the
    fields every cluster fills alike, and ``fields``."""
    return Cluster(
        cases=tuple(f.case for f in members),
        labels=finding.labels,
        original_events=len(finding.events),
        events=tuple(events),
        reference=tuple(r.result.to_dict() for r in responses),
        answer=answer,
        variants=_variants(members),
        allowed=all(f.divergence in allowed for f in members),
        classes=class_counts(members),
        sources=source_counts(members),
        representative_source=finding.source,
        **fields,
    )


def _trace(responses: Sequence[TracedResponse], marked: set[int]) -> tuple[str, ...]:
    """The reference's trace, the events involved marked ``*``."""
    return tuple(
        ("* " if step.index in marked else "  ") + trace_line(step)
        for response in responses
        for step in response.steps
    )


def _variants(members: Sequence[Finding]) -> tuple[tuple[str, int], ...]:
    return tuple(Counter(_reads(f.signatures[0]) for f in members).most_common())


def _representative(members: Sequence[Finding]) -> tuple[Divergence, Finding]:
    """A cluster's most harmful class, and its case of that class to shrink: one with a
    real provider's shape if there is one, then the shortest."""
    divergence = min((f.divergence for f in members), key=HARM.index)
    return divergence, min(
        (f for f in members if f.divergence is divergence),
        key=lambda f: (f.source is None, len(f.events)),
    )


def _explain_policy(
    hypothesis: Hypothesis, members: Sequence[Finding], candidate: Candidate, codes: bool,
    split: bool, minimize: bool, allowed: frozenset[Divergence], causes: Causes,
) -> Cluster:
    """Explain the cluster of a client policy: its representative (``_representative``)
    shrunk keeping the policy's explanation of it (the candidate answering as the
    policy does, not as the reference does, wherever its most harmful cause differs),
    that case's own cause and its class; then each cause it gathers, explained as a
    cluster of its own (its parts)."""
    divergence, finding = _representative(members)
    own = causes.key(finding.signatures[0])

    def stream(events: Sequence[Event]) -> GeneratedStream:
        return GeneratedStream(tuple(events), finding.labels, finding.data_only)

    def fails(variants: Sequence[list[Event]]) -> list[bool]:
        # The representative keeps its case: the policy's explanation, its own cause
        # and its class (a divergent payload is not shrunk into an empty one).
        answers = answers_of(candidate, [stream(v) for v in variants], split)
        judgements = [judged(v, a, codes) for v, a in zip(variants, answers, strict=True)]
        return [
            hypothesis in explained(v, a, codes=codes, differences=j.first_cause)
            and causes.shows(own, j.signatures, divergence)
            for v, a, j in zip(variants, answers, judgements, strict=True)
        ]

    events = shrink(finding.events, fails) if minimize else list(finding.events)
    answer = answers_of(candidate, [stream(events)], split)[0]
    if not fails([events])[0]:  # a candidate not deterministic
        events, answer = list(finding.events), finding.answer
    judgement = judged(events, answer, codes)
    found, responses = judgement.classified, judgement.responses
    parts: dict[Cause, list[Finding]] = {}
    for member in members:
        parts.setdefault(causes.key(member.signatures[0]), []).append(member)
    return _built(
        members, finding, events, answer, responses, allowed,
        cause=policy(hypothesis),
        representative_cause=own,
        rule=HYPOTHESES[hypothesis].rule,
        decision=hypothesis.value,
        classified=found,
        trace=_trace(responses, {s.index for c in found for s in involved(c, responses, events)}),
        divergence=divergence,
        hypothesis=hypothesis,
        parts=tuple(cluster_order([
            explain_cluster(cause, part, candidate, codes=codes, split=split,
                            minimize=minimize, allowed=allowed, causes=causes)
            for cause, part in parts.items()
        ])),
    )


def _reads(mine: Signature) -> str:
    """How a case's own signature reads in a cluster's list of variants: a failure's
    message and where it trips, else the class, rule and code."""
    if mine.failure and mine.rule:
        return f"{mine.failure} (at {mine.rule} {mine.decision})"
    if mine.failure:  # not placed: a check's message on a stream the reference flags
        return f"{mine.failure} (on an invalid stream)"
    return f"{mine.divergence.value}: {mine.rule} {mine.decision or 'no code'}"


def report(
    cases: int,
    findings: list[Finding],
    candidate: Candidate,
    *,
    codes: bool = False,
    split: bool = False,
    started: float,
    checked: float,
    shrink_clusters: bool = True,
    allowed: frozenset[Divergence] = frozenset(),
) -> DiffReport:
    """Place the failures by their trips, cluster the findings, shrink one
    representative each, and build the report."""
    findings = with_trips(findings, candidate, split)
    causes, clustered = cluster(findings)
    clusters = [
        explain_cluster(
            wanted,
            members,
            candidate,
            codes=codes,
            split=split,
            minimize=shrink_clusters,
            allowed=allowed,
            causes=causes,
        )
        for wanted, members in clustered.items()
    ]
    return DiffReport(
        cases,
        findings,
        cluster_order(clusters),
        time.perf_counter() - started,
        checked - started,
        allowed,
    )


# -- the command-line driver ----------------------------------------------------------


@dataclass(frozen=True)
class Generation:
    """Which streams a run generates: a seed, a count, the generators and profiles."""

    seed: int = 0
    count: int = 300
    mix: tuple[str, ...] = MIX
    profiles: tuple[str, ...] = tuple(PROFILES)

    def case(self, index: int) -> Case:
        """Case ``index`` of this generation."""
        return generated_case(self.seed, index, self.mix, self.profiles)


@dataclass(frozen=True)
class _Shard:
    command: tuple[str, ...]
    sse: bool
    timeout: float
    codes: bool
    split: bool
    generation: Generation
    indexes: tuple[int, ...]
    corpus: tuple[Case, ...]


def _run_shard(shard: _Shard) -> list[Finding]:
    candidate = ProcessCandidate(shard.command, timeout=shard.timeout, sse=shard.sse)
    try:
        cases = [shard.generation.case(index) for index in shard.indexes]
        return find([*shard.corpus, *cases], candidate, codes=shard.codes, split=shard.split)
    finally:
        candidate.close()


def run_diff(
    command: Sequence[str],
    *,
    generation: Generation = Generation(),
    corpus: Sequence[Case] = (),
    jobs: int = 1,
    codes: bool = False,
    sse: bool = False,
    split: bool = False,
    timeout: float = 60.0,
    shrink_clusters: bool = True,
    allowed: frozenset[Divergence] = frozenset(),
    progress: Progress | None = None,
) -> DiffReport:
    """Diff the candidate program ``command`` against the reference (``responses-oracle
    diff``); raises ``CandidateError`` when the candidate cannot run."""
    started = time.perf_counter()
    jobs = max(1, jobs)
    count = generation.count
    total = len(corpus) + count
    candidate = ProcessCandidate(command, timeout=timeout, sse=sse)
    try:
        if jobs == 1:
            # Generated as they are compared, so that Ctrl-C finds some compared.
            cases = chain(corpus, generated_cases(generation.seed, count, generation.mix,
                                                  generation.profiles))
            parts = [find(cases, candidate, codes=codes, split=split, progress=progress,
                          total=total)]
        else:
            shards = [
                _Shard(tuple(command), sse, timeout, codes, split, generation,
                       tuple(range(job, count, jobs)), tuple(corpus[job::jobs]))
                for job in range(jobs)
            ]
            parts = []
            with ProcessPoolExecutor(
                max_workers=jobs, initializer=end_quietly_on_interrupt
            ) as pool:
                futures = {pool.submit(_run_shard, shard): shard for shard in shards}
                done = 0
                try:
                    for future in as_completed(futures):
                        parts.append(future.result())
                        done += len(futures[future].indexes) + len(futures[future].corpus)
                        if progress is not None:
                            progress(done, total)
                except KeyboardInterrupt:
                    # The workers ended on the same Ctrl-C; the shards finished are kept.
                    raise Interrupted([f for part in parts for f in part], done, total) from None
        order = {case.name: n for n, case in enumerate(corpus)}
        order.update(
            {f"seed{generation.seed}/{index}": len(corpus) + index for index in range(count)}
        )
        findings = sorted((f for part in parts for f in part), key=lambda f: order[f.case])
        checked = time.perf_counter()
        try:
            return report(
                total,
                findings,
                candidate,
                codes=codes,
                split=split,
                started=started,
                checked=checked,
                shrink_clusters=shrink_clusters,
                allowed=allowed,
            )
        except KeyboardInterrupt:
            # Every stream was compared; Ctrl-C came while their causes were shrunk.
            raise Interrupted(findings, total, total) from None
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
    allowed: Iterable[Divergence] = (),
    shown: int = 3,
) -> None:
    """Assert that ``parse`` answers like the reference; fail with an explained report.

    ``parse`` takes the decoded events of one stream and returns a result object (or a
    list of them, one per response) in the shape of the result contract; it may leave
    out fields it does not compute.  ``streams`` defaults to ``count`` generated cases of
    ``seed``.  Divergences of the ``allowed`` classes are tolerated.  Each cause is shown
    with a minimal stream, the rule that decides it and both answers.
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
        allowed=frozenset(allowed),
    )
    if result.ok:
        return
    raise AssertionError("candidate diverges from the reference\n\n" + result.render(shown))
