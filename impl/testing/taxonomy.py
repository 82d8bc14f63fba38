"""Classifying differences by harm: which ``Divergence`` each difference is.

Theory of operation
-------------------
``compare`` says *where* a candidate's answer differs from the reference's (an aspect
and a path); ``classify`` says *what that does to the candidate's user*, in the classes
of ``responses_oracle.model.divergence``.  The class of a difference depends on the
reference entry it is about: the same ``payload`` difference is ``wrong_tool_run`` on
an executable call (the tool runs with other arguments) and ``payload_differs`` on a
message; a missing call is ``confirmed_call_lost`` when the reference marks it
executable and ``unconfirmed_call_dropped`` (the safe choice) when it does not.

One fact is not a single difference: a call the reference marks *not* executable that
the candidate hands over as runnable.  A candidate that gives ``executable`` says so
itself; one that does not (an SDK) hands over every call of a response it reports
``completed``, so a non-executable call present in such a response is
``unconfirmed_call_kept``, reported at the call's path with what the candidate did
(``HANDED_OVER``), never as an ``executable`` value it did not send.

When the number of responses differs (several responses merged into one, or one
split), that is the only difference reported: the responses cannot be paired, and
comparing them by position would blame the items of one response on another.

Two differences about an executable call do not run a wrong tool.  A ``call_id`` that
differs while the candidate's call has the reference's type, name, namespace and
arguments equal as JSON is ``call_rekeyed`` (the right tool runs with the right input;
its output is paired with another id), and a payload equal as JSON (whitespace aside)
is ``payload_differs``.  A payload difference the reference decides by
``divergent_payload`` (the stream sent two non-empty payloads that disagree) is
``two_defensible_answers`` when the candidate kept a non-empty one: which code decides
a difference is read off the reference's trace, which the caller gives (``decided``).

A candidate's ``Failure`` on a stream with an event the API's published event types do
not allow (a required field missing: ``serve.shapes.type_problems``) is
``candidate_raised_on_invalid``, whatever the reference made of the stream: the
reference is lenient on purpose, and a client that trips over an ``output_text.done``
without its ``content_index`` gave up on a stream no provider sends.  Else it is classed
by the worst severity the reference raised on the stream (``RAISED``): on invalid input
(an error-severity diagnostic, or a response that did not complete)
``candidate_raised_on_invalid``, on a stream flagged by a warning
``candidate_raised_on_flagged``, else ``candidate_raised_on_valid``.

Minted ids are compared modulo renaming (``compare``), which needs the ids the stream
carried.  Given the events, they are read from the events; given only the reference's
results (``classify_items``: an audit of what another parser persisted), every id of
the reference that was not minted (``id_source``) was carried, and so was every
``call_id`` (the model never mints one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from responses_oracle.model.catalogue import ITEM_TYPES, UNKNOWN_ITEM_TYPE
from responses_oracle.model.divergence import HARM, NOT_FLAGGING, RAISED, Divergence
from responses_oracle.model.vocabulary import Code, IdSource, ResponseStatus, Severity
from responses_oracle.result import Result
from responses_oracle.serve.shapes import ShapeProblem, type_problems

from .candidate import Answer, Failure
from .compare import Aspect, Difference, compare, payloads

Reference = Result | Mapping[str, Any] | Sequence[Result | Mapping[str, Any]]
"""The reference's side: one ``Result``, its JSON, or a sequence of either (one per
response of the stream)."""


@dataclass(frozen=True)
class Classified:
    """One difference and the class of harm it does."""

    divergence: Divergence
    difference: Difference
    response: int | None
    """The response the difference is about (``None``: the answer as a whole)."""
    entry: int | None
    """The reference item (position in ``items``) it is about, if any."""


_AT = re.compile(r"^\[(\d+)\](?:\.items\[(\+?)(\d+)\])?")

_IDENTITY = frozenset({Aspect.TYPE, Aspect.CALL_ID, Aspect.NAME, Aspect.NAMESPACE})


def results_json(reference: Reference) -> list[dict[str, Any]]:
    """The reference's results as JSON objects, one per response."""
    several: Sequence[Result | Mapping[str, Any]] = (
        [reference] if isinstance(reference, (Result, Mapping)) else reference
    )
    return [r.to_dict() if isinstance(r, Result) else dict(r) for r in several]


def _entries(result: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = result.get("items")
    return [e for e in items if isinstance(e, Mapping)] if isinstance(items, list) else []


def _wire(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    item = entry.get("item")
    return item if isinstance(item, Mapping) else entry


def is_call(item: Mapping[str, Any]) -> bool:
    """True for an item of a type the client executes (``client_call``)."""
    return ITEM_TYPES.get(str(item.get("type")), UNKNOWN_ITEM_TYPE).client_call


_WORST_FIRST = (Severity.ERROR, Severity.WARNING, Severity.INFO)
_NOT_FLAGGING = frozenset(code.value for code in NOT_FLAGGING)


def flag(reference: Sequence[Mapping[str, Any]]) -> Severity | None:
    """The worst severity the reference raised on the stream (``ERROR`` for a stream
    with no response or one that did not complete; ``NOT_FLAGGING`` codes left out)."""
    if not reference:
        return Severity.ERROR
    raised = set()
    for result in reference:
        status = (result.get("response") or {}).get("status")
        if status != ResponseStatus.COMPLETED.value:
            return Severity.ERROR
        raised |= {
            d.get("severity") for d in result.get("diagnostics") or []
            if isinstance(d, Mapping) and d.get("code") not in _NOT_FLAGGING
        }
    return next((s for s in _WORST_FIRST if s.value in raised), None)


def invalid(reference: Sequence[Mapping[str, Any]]) -> bool:
    """True when the reference flags the stream: an error diagnostic, or no completion."""
    return flag(reference) is Severity.ERROR


def api_problems(events: Iterable[Any]) -> list[ShapeProblem]:
    """What the stream's events lack that the API's published event types require (less
    the fields the API itself omits): a stream with any is invalid per the API."""
    return [p for event in events if isinstance(event, Mapping) for p in type_problems(event)]


def reference_carried(reference: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Stand-in events for ``carried_ids`` when only the reference's results are known:
    each item with its minted id (never carried) left out."""
    carried = []
    for result in reference:
        for entry in _entries(result):
            item = dict(_wire(entry))
            if entry.get("id_source") == IdSource.MINTED.value:
                item.pop("id", None)
            carried.append(item)
    return carried


def _class_of(
    difference: Difference,
    reference: Sequence[Mapping[str, Any]],
    answer: Sequence[Mapping[str, Any]],
    invalid_for_api: bool = False,
) -> tuple[Divergence, int | None, int | None]:
    """The class of one difference, and the response and reference entry it is about
    (``invalid_for_api``: the stream has an event the API's types do not allow)."""
    aspect = difference.aspect
    if aspect is Aspect.FAILURE:
        if invalid_for_api:
            return Divergence.CANDIDATE_RAISED_ON_INVALID, None, None
        return RAISED[flag(reference)], None, None
    if aspect is Aspect.RESPONSES:
        return Divergence.RESPONSES_DIFFER, None, None
    at = _AT.match(difference.path)
    response = int(at.group(1)) if at else None
    if aspect is Aspect.STATUS:
        return Divergence.STATUS_DIFFERS, response, None
    if aspect is Aspect.RESPONSE_ID:
        return Divergence.ID_DIFFERS, response, None
    if aspect is Aspect.CODES:
        return Divergence.CODES_DIFFER, response, None
    if at is None or at.group(3) is None or response is None:
        return Divergence.FIELD_DIFFERS, response, None
    if aspect is Aspect.EXTRA_ITEM:
        return _extra(difference.answer, reference[response]), response, None
    entry_at = int(at.group(3))
    entry = _entries(reference[response])[entry_at]
    call, executable = is_call(_wire(entry)), entry.get("executable") is True
    divergence = _entry_class(aspect, difference, call, executable)
    if divergence is Divergence.WRONG_TOOL_RUN and _same_tool_run(
        aspect, difference, _wire(entry), answer[response] if response < len(answer) else {}
    ):
        divergence = Divergence.CALL_REKEYED if aspect is Aspect.CALL_ID else (
            Divergence.PAYLOAD_DIFFERS)
    return divergence, response, entry_at


def _same_tool_run(
    aspect: Aspect, difference: Difference, ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> bool:
    """True when a difference about an executable call leaves the tool run as it is:
    arguments equal as JSON, or a ``call_id`` that differs on a call whose type, name,
    namespace and payloads agree (as JSON) with the reference's."""
    if aspect is Aspect.PAYLOAD:
        return _json_equal(difference.oracle, difference.answer)
    if aspect is not Aspect.CALL_ID:
        return False
    call = next((_wire(e) for e in _entries(theirs)
                 if _wire(e).get("call_id") == difference.answer), None)
    if call is None or any(call.get(k) != ours.get(k) for k in ("type", "name", "namespace")):
        return False
    mine, other = payloads(ours), payloads(call)
    return all(_json_equal(value, other.get(where)) for where, value in mine.items())


def _json_equal(oracle: Any, answer: Any) -> bool:
    """True when two payloads are equal, or JSON text of one value (a candidate that
    hands over parsed arguments gives the value itself: ``compare`` parses the
    reference's side for it)."""
    if oracle == answer:
        return True
    try:
        mine = json.loads(oracle) if isinstance(oracle, str) else None
        theirs = json.loads(answer) if isinstance(answer, str) else answer
    except ValueError:
        return False
    return mine is not None and mine == theirs


def no_payload(value: Any) -> bool:
    """True when a payload holds nothing: absent, ``""``, or parts all empty."""
    if isinstance(value, list):
        return all(part in (None, "") for part in value)
    return value is None or value == ""


def _extra(summary: Any, result: Mapping[str, Any]) -> Divergence:
    """An item only the candidate has: a second copy of a call, a call, or another item."""
    item = summary if isinstance(summary, Mapping) else {}
    if not is_call(item):
        return Divergence.ITEM_EXTRA
    call_ids = {_wire(e).get("call_id") for e in _entries(result)}
    twice = item.get("call_id") is not None and item.get("call_id") in call_ids
    return Divergence.CALL_RUN_TWICE if twice else Divergence.CALL_INVENTED


def _entry_class(
    aspect: Aspect, difference: Difference, call: bool, executable: bool
) -> Divergence:
    """The class of a difference about one reference entry."""
    if aspect is Aspect.MISSING_ITEM:
        if not call:
            return Divergence.ITEM_LOST
        return Divergence.CONFIRMED_CALL_LOST if executable else Divergence.UNCONFIRMED_CALL_DROPPED
    if aspect is Aspect.ORDER:
        return Divergence.ORDER_DIFFERS
    if aspect is Aspect.ID:
        return Divergence.ID_DIFFERS
    if aspect is Aspect.EXECUTABLE:
        if difference.answer is True:
            return Divergence.UNCONFIRMED_CALL_KEPT
        return Divergence.CONFIRMED_CALL_LOST if executable else Divergence.FIELD_DIFFERS
    if call and executable and (aspect in _IDENTITY or aspect is Aspect.PAYLOAD):
        return Divergence.WRONG_TOOL_RUN
    return Divergence.PAYLOAD_DIFFERS if aspect is Aspect.PAYLOAD else Divergence.FIELD_DIFFERS


HANDED_OVER = "handed over in a response reported completed"
"""The candidate's side of an ``unconfirmed_call_kept`` found for a candidate that gives
no ``executable``: what it did, not a value it never sent (docs/conformance-vectors.md:
fields a candidate leaves out are not compared)."""


def _kept_unconfirmed(
    reference: Sequence[Mapping[str, Any]],
    answer: Sequence[Mapping[str, Any]],
    found: Sequence[Classified],
) -> list[Classified]:
    """Non-executable calls the candidate hands over in a response it says completed."""
    out = []
    elsewhere = {(c.response, c.entry) for c in found}
    for number, (ours, theirs) in enumerate(zip(reference, answer, strict=False)):
        status = (theirs.get("response") or {}).get("status")
        theirs_entries = _entries(theirs)
        if status != ResponseStatus.COMPLETED.value or any(
            "executable" in e for e in theirs_entries
        ):
            continue
        for position, entry in enumerate(_entries(ours)):
            item = _wire(entry)
            if not is_call(item) or entry.get("executable") is True:
                continue
            if (number, position) in elsewhere or not _present(item, theirs_entries):
                continue
            # The candidate gave no ``executable``: the difference is about the call it
            # hands over (the item's path), and its side says what it did give.
            out.append(
                Classified(
                    Divergence.UNCONFIRMED_CALL_KEPT,
                    Difference(
                        Aspect.EXECUTABLE,
                        f"[{number}].items[{position}]",
                        False,
                        HANDED_OVER,
                        "R9",
                        "a call is executable iff the response completed and the call was "
                        f"confirmed; this one is not (state {entry.get('state')}), yet the "
                        "candidate, which gives no `executable`, hands it over in a "
                        "response it reports completed: its user runs it",
                    ),
                    number,
                    position,
                )
            )
    return out


def _present(item: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> bool:
    """True when an answer's entry is the same call (its ``call_id``, else its type)."""
    call_id = item.get("call_id")
    for entry in entries:
        theirs = _wire(entry)
        if theirs.get("type") == item.get("type") and (
            call_id is None or theirs.get("call_id") == call_id
        ):
            return True
    return False


Decided = Callable[[Classified], Code | None]
"""The code that decides a classified difference on the reference's trace (``None``:
the stream is plain for it): ``cause.decided_by``."""


def _defensible(found: Classified, decided: Decided) -> Classified:
    """``found`` as ``two_defensible_answers`` when it is a payload difference the
    reference decides by ``divergent_payload`` and the candidate kept a payload."""
    difference = found.difference
    if difference.aspect is Aspect.PAYLOAD and not no_payload(difference.answer) and (
        decided(found) is Code.DIVERGENT_PAYLOAD
    ):
        return Classified(Divergence.TWO_DEFENSIBLE_ANSWERS, difference, found.response,
                          found.entry)
    return found


def classify(
    reference: Reference,
    answer: Answer,
    *,
    events: Sequence[Any] | None = None,
    codes: bool = False,
    decided: Decided | None = None,
) -> list[Classified]:
    """Every difference between ``answer`` and the reference, with its class.

    ``reference`` is the reference's result (or results, one per response) for a
    stream, ``answer`` the candidate's results or its ``Failure``; ``events``,
    when given, are the stream's events (for the ids it carried, and whether the API's
    event types allow them: ``api_problems``); ``decided``, when
    given, names the code deciding a difference on the reference's trace (for
    ``two_defensible_answers``).  Most harmful first.
    """
    ours = results_json(reference)
    carried = list(events) if events is not None else reference_carried(ours)
    differences = compare(carried, ours, answer, codes=codes)
    theirs: Sequence[Mapping[str, Any]] = [] if isinstance(answer, Failure) else answer
    if any(d.aspect is Aspect.RESPONSES for d in differences):
        # Responses merged or split: pairing them by position would file the second
        # response's items as the first one's differences.  The one cause is R1's.
        differences = [d for d in differences if d.aspect is Aspect.RESPONSES]
    problems = api_problems(events) if events is not None else []
    found = []
    for difference in differences:
        if difference.aspect is Aspect.FAILURE and problems:
            # Say why the stream is invalid: the reference may reduce it cleanly.
            difference = replace(difference, why=f"{difference.why}; the stream is invalid "
                                 f"per the API's event types ({_listed(problems)})")
        divergence, response, entry = _class_of(difference, ours, theirs, bool(problems))
        classified = Classified(divergence, difference, response, entry)
        found.append(classified if decided is None else _defensible(classified, decided))
    found.extend(_kept_unconfirmed(ours, theirs, found))
    return sorted(found, key=lambda c: HARM.index(c.divergence))


def _listed(problems: Sequence[ShapeProblem], shown: int = 3) -> str:
    """The first ``shown`` problems, and how many more."""
    more = len(problems) - shown
    return "; ".join(map(str, problems[:shown])) + (f"; {more} more" if more > 0 else "")


def classify_items(
    reference_result: Result | Mapping[str, Any], items: Sequence[Mapping[str, Any]]
) -> frozenset[Divergence]:
    """The classes by which ``items`` — the output items another parser persisted for
    one response — differ from the reference's result for it (empty: they agree).

    ``items`` are wire items (``{"type": "function_call", ...}``) or result entries
    (``{"item": {...}, ...}``); a status is not compared, since persisted items carry
    none.
    """
    entries = [dict(item) if "item" in item else {"item": dict(item)} for item in items]
    return frozenset(c.divergence for c in classify(reference_result, [{"items": entries}]))


def most_harmful(found: Iterable[Classified]) -> Divergence | None:
    """The most harmful class among ``found`` (``None`` when there is none)."""
    return min((c.divergence for c in found), key=HARM.index, default=None)
