"""The cause of a divergence: the events it depends on, the rule that decides it, its key.

Theory of operation
-------------------
A case can diverge in several ways at once (an order difference *and* lost arguments).
Each difference has a ``Signature``:

- its class (``Divergence``, ranked by harm) and what differs (``ASPECT_KINDS``);
- the rule that decides it;
- the reference's decision on the events involved: the diagnostic code the reference
  raised on them that decides that kind of difference (``id_renamed_field``,
  ``empty_payload_ignored``, ``after_terminal`` …), or none on a plain stream;
- for a candidate that gave no answer, its message with ids of any shape, numbers and
  embedded JSON masked, so that one error is one cause whatever stream it met.

A cluster gathers the cases of one ``Cause`` — what a maintainer would call "the same
bug": what differs, the rule and the code, *not* the class (the same lost payload runs
the wrong tool on a call and garbles a message; each case keeps its own class, the
cluster counts them per class and reads as its representative's, one of the most
harmful).  A case is clustered by its most harmful difference (its first
signature, keyed by ``Causes``): the report leads with what would run the wrong tool,
and a case's lesser differences are listed with it rather than spread over clusters of
their own.  The classes a client may choose on purpose are one cluster each.

Several such causes can be one policy of the client's: answering the terminal
snapshot verbatim loses a done-only call, persists empty arguments and keeps a renamed
id.  A cause every case of which a ``Hypothesis`` explains (the client answers as the
policy does wherever the cause differs: ``hypotheses.explained``) is that policy's
(``policy``, kind ``POLICY_KIND``), and the causes it gathers are listed as its parts
(the harness's ``cluster``).

A candidate that gave up is placed at its *trip* event (the first event whose prefix,
closed by a terminal, fails with the same message: ``trip_rule`` names the rule and the
reference's decision there).  What the failure is keyed by depends on its kind
(``failure_kind``).  An error the client raises by a check of its own (``RuntimeError:
Duplicate response output index N.``) is keyed by its masked message: one check is one
cause wherever it trips — the same check refuses a replayed item, a reused slot and a
second response alike, and the reference's decision at the trip differs with the
stream, not with the bug.  A runtime lookup error (``IndexError``, ``TypeError`` …) names
the access that failed, not a check, and one unguarded access raises one or another
by stream (a part index out of range, ``None`` as an index): it is keyed by where it
trips, the rule and the reference's decision there.  Each case's message and trip are
listed as the cluster's variants.  A failure whose key was seen on a valid stream is a
bug whether the stream was valid or not.

The events involved are read from the reference's own trace (``Reducer(trace=True)``):
the steps on the entry the difference is about (the item's admission, its payload
events, its confirmation, the terminal that settled it, and another item's admission
at its slot, R3), or, for an item only the candidate has, the events that carried its
ids.  The rule is then the rule of the
most telling code on those events that can decide a difference of that kind
(``DECISIVE_CODES``), else the rule ``compare`` names for the aspect.  It never
depends on where a stream happens to end.

For a candidate that gave up, the event involved is the one it gives up at: the first
event whose prefix, closed with a terminal, still fails with the same message (computed
by the harness, one batch of prefixes per run); ``trip_rule`` names the rule of its
most telling code (``TRIP_CODES``) and that code, else the rule and the words of the
reference's decision at that event (``added: new -> admit``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from responses_oracle import Reducer, reduce
from responses_oracle.core.step import StepTrace
from responses_oracle.model.divergence import (
    HYPOTHESES,
    RAISES,
    TOLERABLE,
    Divergence,
    Hypothesis,
)
from responses_oracle.model.rules import CODE_RULES
from responses_oracle.model.vocabulary import CODES, LATE_CODES, Code
from responses_oracle.result import Result, item_positions
from responses_oracle.streamgen.streams import Event

from .candidate import Answer
from .compare import NO_ARGUMENTS, Aspect, Difference
from .oracle_trace import DECISION_RULES
from .taxonomy import Classified, classify, no_payload

DECISIVE_CODES: dict[Aspect, tuple[Code, ...]] = {
    Aspect.ID: (
        Code.ID_RENAMED_FIELD,
        Code.ID_ONLY_AS_ITEM_ID,
        Code.ID_ADOPTED_FROM_SLOT,
        Code.ID_MINTED,
        Code.ID_CHANGED,
        Code.DUPLICATE_ITEM,
    ),
    Aspect.RESPONSE_ID: (Code.RESPONSE_ID_CHANGED,),
    Aspect.PAYLOAD: (
        Code.AFTER_TERMINAL,
        Code.EMPTY_PAYLOAD_IGNORED,
        Code.EMPTY_PAYLOAD_FILLED,
        Code.DIVERGENT_PAYLOAD,
        Code.PAYLOAD_EXTENDED,
        Code.INVALID_JSON_ARGUMENTS,
        Code.PART_REALIGNED,
    ),
    Aspect.MISSING_ITEM: (
        Code.SNAPSHOT_MISSING_ITEM,
        Code.SLOT_REUSED,
        Code.DUPLICATE_ITEM,
        Code.ID_RENAMED_FIELD,
        Code.ID_ONLY_AS_ITEM_ID,
        Code.ID_ADOPTED_FROM_SLOT,
        Code.SNAPSHOT_ABSENT,
        Code.RESPONSE_ERROR,
        Code.MISSING_TERMINAL,
    ),
    Aspect.EXTRA_ITEM: (
        Code.AFTER_TERMINAL,
        Code.DUPLICATE_ITEM,
        Code.SLOT_REUSED,
        Code.ID_CHANGED,
    ),
    Aspect.ORDER: (Code.AFTER_TERMINAL, Code.SLOT_REUSED),
    Aspect.STATUS: (Code.AFTER_TERMINAL, Code.MISSING_TERMINAL, Code.RESPONSE_ERROR),
    Aspect.EXECUTABLE: (Code.UNCONFIRMED_ITEM, Code.MISSING_TERMINAL, Code.RESPONSE_ERROR),
    Aspect.TYPE: (Code.METADATA_CONFLICT, Code.SLOT_REUSED),
    Aspect.CALL_ID: (Code.DUPLICATE_CALL_ID, Code.METADATA_CONFLICT),
    Aspect.NAME: (Code.METADATA_CONFLICT,),
    Aspect.NAMESPACE: (Code.METADATA_CONFLICT,),
    Aspect.OUTPUT_INDEX: (Code.SLOT_REUSED,),
}
"""For each aspect, the codes that can decide a difference of it, most telling first:
a code about the item itself (its slot taken by another item, its id under another
name) before one about the whole response (no snapshot, an error), which every item
of the response shares.  A code on the events involved that is not listed (a sequence
gap left by shrinking, a response-level code on the terminal that settled an item)
says nothing about the difference and does not split a cluster."""

TRIP_CODES: tuple[Code, ...] = (
    *dict.fromkeys(code for codes in DECISIVE_CODES.values() for code in codes),
    Code.ORPHAN_EVENT,
    Code.AMBIGUOUS_ROUTE,
    Code.CHANNEL_MISMATCH,
    Code.UNKNOWN_EVENT,
    Code.INVALID_FIELD,
    *(code for code in CODES if code in LATE_CODES),
)
"""The codes that can name why a candidate gave up at an event, most telling first."""

@dataclass(frozen=True)
class Signature:
    """What went wrong in one case: the class of harm, what differs, the rule and code
    that decide it, or the candidate's masked message."""

    divergence: Divergence
    rule: str
    decision: str
    failure: str = ""
    kind: str = ""
    """What differs (``ASPECT_KINDS``): the same difference on a call and on a message
    is one kind, of two classes."""


ASPECT_KINDS: dict[Aspect, str] = {
    Aspect.RESPONSES: "responses",
    Aspect.STATUS: "status",
    Aspect.RESPONSE_ID: "id",
    Aspect.ID: "id",
    Aspect.MISSING_ITEM: "missing",
    Aspect.EXTRA_ITEM: "extra",
    Aspect.ORDER: "order",
    Aspect.TYPE: "identity",
    Aspect.CALL_ID: "identity",
    Aspect.NAME: "identity",
    Aspect.NAMESPACE: "identity",
    Aspect.PAYLOAD: "payload",
    Aspect.OUTPUT_INDEX: "field",
    Aspect.EXECUTABLE: "executable",
    Aspect.CODES: "codes",
    Aspect.FAILURE: "raised",
}
"""What differs, for a cluster key: the aspects a maintainer reads as one kind of bug."""


@dataclass(frozen=True)
class Cause:
    """A cluster key: what differs, the rule and code deciding it, or a failure's text.

    The class is not part of it: whether a lost payload runs the wrong tool or garbles a
    message depends on the item, not on the bug, so one cause holds both; the cluster
    counts its cases per class (``report.Cluster.classes``)."""

    kind: str
    rule: str
    decision: str
    failure: str = ""

    @property
    def key(self) -> str:
        """A short stable id for the cluster (JSON reports, the Real clients page)."""
        text = "|".join((self.kind, self.rule, self.decision, self.failure))
        return hashlib.sha1(text.encode()).hexdigest()[:10]

    @property
    def hypothesis(self) -> Hypothesis | None:
        """The client policy this cause is, for a cause that is one (``policy``)."""
        return Hypothesis(self.decision) if self.kind == POLICY_KIND else None


POLICY_KIND = "policy"
"""The kind of a cause that is a client policy (a ``Hypothesis``)."""


def policy(hypothesis: Hypothesis) -> Cause:
    """The cause that is ``hypothesis``: its kind, the rule it breaks, its name."""
    return Cause(POLICY_KIND, HYPOTHESES[hypothesis].rule, hypothesis.value)


RUNTIME_ERRORS: frozenset[str] = frozenset(
    {"IndexError", "KeyError", "TypeError", "AttributeError", "RangeError", "ReferenceError"}
)
"""Python's and JavaScript's errors for a lookup or an operation on a missing value:
their text names the index or the value an unguarded access met, not a check of the
client's, so one unguarded access raises one or another by stream."""

BUG_RAISES: frozenset[Divergence] = RAISES - TOLERABLE
"""The classes of a failure on valid input, clean or flagged: a bug, not a choice."""

RUNTIME_KIND = "runtime error"
"""The kind of every error of ``RUNTIME_ERRORS``."""

_ERROR_NAME = re.compile(r"^([A-Za-z_$][\w$.]*): ")


def failure_kind(failure: str) -> str:
    """The kind of a (masked) failure: the error's class (``RuntimeError``,
    ``AI_TypeValidationError``), ``RUNTIME_KIND`` for the runtime's lookup errors, or
    the whole text when it names no class (``no answer within 60 s``)."""
    named = _ERROR_NAME.match(failure)
    if named is None:
        return failure
    return RUNTIME_KIND if named.group(1) in RUNTIME_ERRORS else named.group(1)


def _raised(mine: Signature) -> tuple[str, str, str]:
    """A failure's key: its masked message for a check of the client's own; the rule and
    decision at its trip for a runtime lookup error (``RUNTIME_KIND``)."""
    if failure_kind(mine.failure) == RUNTIME_KIND:
        return mine.rule, mine.decision, RUNTIME_KIND
    return "", "", mine.failure


@dataclass(frozen=True)
class Causes:
    """How the signatures of one run become causes (cluster keys).

    A difference's cause is what differs, the rule and the deciding code (``Cause``).
    A failure's is its masked message, or for a runtime lookup error the rule and the
    reference's decision at its trip (``_raised``), whatever the stream's validity, once
    that key was seen on a valid stream (``bugs``): then it is a bug, and its cases on
    invalid streams are the same bug.  A failure only ever seen on invalid streams, and
    any other class a client may choose on purpose (``TOLERABLE``), is one cause per
    class: a client that refuses invalid input or drops unconfirmed calls does so by
    design, and its reasons are listed in the cluster, not spread over clusters.
    """

    bugs: frozenset[tuple[str, str, str]] = frozenset()

    @classmethod
    def of(cls, signatures: Iterable[Signature]) -> Causes:
        """The keying for a run whose cases show ``signatures`` (runtime errors placed
        by their trip's rule and decision)."""
        return cls(
            frozenset(
                _raised(s)
                for s in signatures
                if s.failure and s.divergence in BUG_RAISES
            )
        )

    def is_bug(self, mine: Signature) -> bool:
        """True when ``mine`` is a failure whose key was seen on a valid stream."""
        return bool(mine.failure) and _raised(mine) in self.bugs

    def placed(self) -> bool:
        """True when a runtime lookup error was seen on a valid stream: then a failure's
        trip is part of its key."""
        return any(kind == RUNTIME_KIND for _, _, kind in self.bugs)

    def key(self, mine: Signature) -> Cause:
        """The cause ``mine`` is a case of."""
        if self.is_bug(mine):
            rule, decision, kind = _raised(mine)
            return Cause("raised", rule, decision, kind)
        if mine.divergence in TOLERABLE:
            return Cause(mine.divergence.value, "", "")
        return Cause(mine.kind, mine.rule, mine.decision, mine.failure)

    def shows(
        self,
        wanted: Cause,
        signatures: Iterable[Signature],
        divergence: Divergence | None = None,
    ) -> bool:
        """True when ``signatures`` hold the cause ``wanted`` (the most harmful or not:
        shrinking may shed a more harmful difference, never the one it keeps), of class
        ``divergence`` when one is given (shrinking must not trade a lost call for a
        lost message)."""
        return any(
            self.key(mine) == wanted and divergence in (None, mine.divergence)
            for mine in signatures
        )


@dataclass(frozen=True)
class TracedResponse:
    """One response of the reference: its result, its steps, entry ordinal → item position."""

    result: Result
    steps: tuple[StepTrace, ...]
    positions: dict[int, int]


def traced(events: Sequence[Event]) -> list[TracedResponse]:
    """The reference's responses for ``events``, each with the steps of its events."""
    reducer = Reducer(trace=True)
    traces = reducer.traces
    assert traces is not None
    out: list[TracedResponse] = []
    start = 0
    snapshot = reducer.snapshot()
    for event in events:
        if event.get("type") == "response.created":
            snapshot = reducer.snapshot()
        closed = len(reducer.results)
        reducer.feed(event)
        if len(reducer.results) > closed:
            # The event that closed the response belongs to the next one.
            steps = tuple(traces[start:-1])
            start = len(traces) - 1
            out.append(TracedResponse(reducer.results[-1], steps, item_positions(snapshot.entries)))
    snapshot = reducer.snapshot()
    closed = len(reducer.results)
    if len(reducer.finish()) > closed:
        steps = tuple(traces[start:])
        out.append(TracedResponse(reducer.results[-1], steps, item_positions(snapshot.entries)))
    return out


def _ids(value: Any) -> set[str]:
    if not isinstance(value, dict):
        return set()
    return {str(value[k]) for k in ("id", "call_id") if isinstance(value.get(k), str)}


def involved(
    classified: Classified, responses: Sequence[TracedResponse], events: Sequence[Event]
) -> list[StepTrace]:
    """The reference's steps on the events a difference depends on."""
    if classified.response is None or classified.response >= len(responses):
        return [step for response in responses for step in response.steps]
    response = responses[classified.response]
    if classified.entry is not None:
        # The entry's own steps; the terminal, which settles every entry (its snapshot
        # offers each item's payloads; the trace names one entry for it); and another
        # item admitted at the entry's slot, which a client keyed by slot mistakes for
        # this one (the reference keeps both, R3).
        ordinals = {o for o, p in response.positions.items() if p == classified.entry}
        items = response.result.items
        slot = items[classified.entry].output_index if classified.entry < len(items) else None
        return [
            s for s in response.steps
            if s.entry in ordinals
            or s.decision.startswith("terminal")
            or (slot is not None and Code.SLOT_REUSED in s.codes and s.index < len(events)
                and events[s.index].get("output_index") == slot)
        ]
    if classified.difference.aspect is Aspect.EXTRA_ITEM:
        ids = _ids(classified.difference.answer)
        return [
            s
            for s in response.steps
            if s.index < len(events) and ids & _carried(events[s.index])
        ] or list(response.steps)
    return list(response.steps)


def _carried(event: Event) -> set[str]:
    found = {str(event[k]) for k in ("item_id", "call_id") if isinstance(event.get(k), str)}
    found |= _ids(event.get("item"))
    response = event.get("response")
    output = response.get("output") if isinstance(response, dict) else None
    for item in output if isinstance(output, list) else []:
        found |= _ids(item)
    return found


def at_end(classified: Classified, responses: Sequence[TracedResponse]) -> frozenset[Code]:
    """The codes the reference raised at the end of input on the difference's response
    (``missing_terminal``: a body that stops before its terminal event)."""
    if classified.response is None or classified.response >= len(responses):
        return frozenset()
    diagnostics = responses[classified.response].result.diagnostics
    return frozenset(d.code for d in diagnostics if d.event_index is None)


def decide(
    aspect: Aspect,
    default_rule: str,
    steps: Sequence[StepTrace],
    end: Iterable[Code] = (),
) -> tuple[str, str]:
    """The rule deciding a difference of ``aspect`` on ``steps`` (and the end of input,
    ``end``) and the code that says so.

    The first of the aspect's ``DECISIVE_CODES`` that the steps raised names the rule
    (the rule that code reports on); without one the stream is plain for this
    difference, which is then the candidate's alone: the aspect's own rule, no code.
    """
    codes = {code for step in steps for code in step.codes} | set(end)
    for code in DECISIVE_CODES.get(aspect, ()):
        if code in codes:
            return CODE_RULES[code], code.value
    return default_rule, ""


_JSON_START = "{["
_PAIR = {"{": "}", "[": "]"}
_TYPE = re.compile(r'^\{"type":\s*"([a-z_.]+)"')
_QUOTED = re.compile(r"(['\"])[^'\"]*\1")
_ID = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])")
_NUMBER = re.compile(r"\b(\d+|undefined|null|None|NaN)\b")


def _mask_json(text: str) -> str:
    """Balanced ``{…}`` and ``[…]`` runs (a dumped event or item) replaced by ``{…}``, or
    by ``{type …}`` for an object that starts with its ``type``."""
    out: list[str] = []
    depth: list[str] = []
    start = 0
    for at, char in enumerate(text):
        if depth:
            if char in _PAIR:
                depth.append(_PAIR[char])
            elif char == depth[-1]:
                depth.pop()
                if not depth:
                    kind = _TYPE.match(text[start : at + 1])
                    out.append(f"{{{kind.group(1)} …}}" if kind else "{…}")
            continue
        if char in _JSON_START:
            depth.append(_PAIR[char])
            start = at
            continue
        out.append(char)
    if depth:
        out.append("{…")
    return "".join(out)


def mask_failure(message: str) -> str:
    """A candidate's message, first line, with embedded JSON, quoted values, ids of any
    shape and numbers masked: the same check failing on another stream reads the same."""
    first = next((line for line in message.splitlines() if line.strip()), "")
    masked = _mask_json(first)
    masked = _QUOTED.sub(r"\1…\1", masked)
    masked = _ID.sub("ID", masked)
    masked = _NUMBER.sub("N", masked)
    return masked[:240]


def signature(
    classified: Classified, responses: Sequence[TracedResponse], events: Sequence[Event]
) -> Signature:
    """The signature of one classified difference."""
    difference = classified.difference
    kind = ASPECT_KINDS[difference.aspect]
    if difference.aspect is Aspect.FAILURE:
        failure = mask_failure(str(difference.answer))
        return Signature(classified.divergence, "", "", failure, kind)
    steps = involved(classified, responses, events)
    end = at_end(classified, responses)
    rule, decision = decide(difference.aspect, difference.rule, steps, end)
    if difference.aspect is Aspect.PAYLOAD and not decision and _lost(
        difference.oracle, difference.answer
    ):
        # On a plain stream only the candidate's side tells two payload bugs apart: a
        # payload it never took is not one it took and rewrote (``""`` handed over as
        # ``{}``).  Where the reference raised a code, the code tells them apart.
        kind = LOST_PAYLOAD
    return Signature(classified.divergence, rule, decision, "", kind)


LOST_PAYLOAD = "payload lost"
"""The kind of a payload difference on a plain stream where the candidate has less."""


def _lost(oracle: Any, candidate: Any) -> bool:
    """True when the candidate holds less of a payload than the reference: nothing
    (absent, ``""``, parts all empty, parsed arguments of none), or only its leading
    parts."""
    if no_payload(candidate):
        return True
    if isinstance(candidate, list):
        return isinstance(oracle, list) and candidate == oracle[: len(candidate)]
    return isinstance(oracle, str) and candidate == NO_ARGUMENTS


def trip_rule(responses: Sequence[TracedResponse], index: int | None) -> tuple[str, str]:
    """The rule and decision at the event where a candidate gives up (``index``).

    The codes read are those of that event and of the earlier events of the same entry:
    a client that rejects an item's done event may be rejecting what its added event
    already did (an id under another name), which the reference reported there.  The
    decision is the most telling of those codes, else the words of the reference's
    decision at the event (``item_done: none -> admit``: a plain stream the client
    refuses where the reference admits).  No trip event: the client gives up only at
    the end of input (``missing_terminal``), or a prefix never fails (``end``).
    """
    for response in responses:
        at = next((s for s in response.steps if s.index == index), None)
        if at is None:
            continue
        same = [
            s for s in response.steps
            if s.index <= at.index and (s is at or (at.entry is not None and s.entry == at.entry))
        ]
        codes = {code for step in same for code in step.codes}
        code = next((c for c in TRIP_CODES if c in at.codes), None) or next(
            (c for c in TRIP_CODES if c in codes), None
        )
        if code is not None:
            return CODE_RULES[code], code.value
        rule = next((r for p, r in DECISION_RULES if at.decision.startswith(p)), "R1")
        return rule, at.decision
    return "R9", "missing_terminal" if index is None else "end"


@dataclass(frozen=True)
class Judgement:
    """A candidate's answer judged against the reference: each difference, classified,
    with its signature, and the reference's traced responses."""

    classified: tuple[Classified, ...]
    each: tuple[Signature, ...]
    """The signature of each classified difference, in the same order."""
    responses: list[TracedResponse]

    @property
    def signatures(self) -> tuple[Signature, ...]:
        """The distinct causes, most harmful first."""
        return tuple(dict.fromkeys(self.each))

    @property
    def first_cause(self) -> list[Difference]:
        """The differences that make the most harmful cause (every difference whose
        signature is the first): what a policy must explain to be that cause."""
        return [c.difference for c, mine in zip(self.classified, self.each, strict=True)
                if mine == self.each[0]]


def judged(events: Sequence[Event], answer: Answer, codes: bool = False) -> Judgement:
    """The judgement of ``answer`` (nothing in it when the answer agrees)."""
    responses: list[TracedResponse] = []

    def decided(classified: Classified) -> Code | None:
        # The reference's trace, taken once and only for a difference that needs it.
        responses[:] = responses or traced(events)
        difference = classified.difference
        _, code = decide(difference.aspect, difference.rule,
                         involved(classified, responses, events), at_end(classified, responses))
        return Code(code) if code else None

    found = classify(reduce(events), answer, events=events, codes=codes, decided=decided)
    if not found:
        return Judgement((), (), [])
    responses[:] = responses or traced(events)
    return Judgement(tuple(found), tuple(signature(c, responses, events) for c in found),
                     responses)

