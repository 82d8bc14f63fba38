"""The answers a client policy gives (``Hypothesis``), and which of them a client gave.

Theory of operation
-------------------
A cluster keyed by what differs and by the reference's decision splits one bug of a
client over as many clusters as there are decisions its streams happen to meet: a
client that answers the terminal snapshot verbatim loses a done-only call
(``snapshot_missing_item``), persists the snapshot's empty arguments
(``empty_payload_ignored``) and keeps the snapshot's renamed id (``id_changed``), three
signatures of one policy.  A hypothesis (``responses_oracle.model.divergence``) names
such a policy; ``answer`` computes the answer it gives for a stream, in the shape the
comparison reads (one result per response, wire items under ``item``), from the
stream and the reference alone, never from what any particular client is known to do.

``explained`` is the test, made where the case's cause is: the hypotheses whose
answer agrees with the candidate's at every difference of the case's most harmful
cause (``cause.Judgement.first_cause``) while the reference's differs from the hypothesis's
there.  Differences are matched by what they are about, not by position
(``compare.subject``: a policy that drops an item places the others differently).  Not
the whole answer: a client follows several policies at once (it ignores the snapshot
*and* keeps events after the terminal), so a case's lesser differences have causes of
their own, each tested where it is.  A policy that explains a lost or an invented item
must also hold the items the candidate holds and no other (``PRESENCE``): a policy that
answers nothing (the snapshot verbatim, when the terminal carries none) would else
explain every lost item by coincidence.  The harness names a hypothesis as a cluster's
cause only when it explains every case of it (one coincidence is not a policy), and
shrinking keeps that; of several that do, the one that explains more cases of the run
(a client follows few policies).

The policies:

- ``SNAPSHOT_VERBATIM``: per response, its first terminal event's ``response`` as it
  came (status, id, ``output``); no answer for a response without one (or ended by an
  ``error`` event, which carries no response).
- ``SNAPSHOT_IGNORED``: the reference's answer for the stream with every terminal's
  ``response.output`` removed.
- ``COMPLETION_ORDER``: the reference's answer with each response's items ordered by
  the first ``output_item.done`` that carried their id or ``call_id`` (stable; items
  never confirmed so keep their place after the confirmed ones).
- ``ANNOUNCEMENT_ORDER``: the same, by the first event that named the item (its
  ``output_item.added``, a payload event's ``item_id``, its done).
- ``DONE_ITEMS_VERBATIM``: per response (the events from its ``response.created`` to
  the next), the items of its ``output_item.done`` events as they came, in arrival
  order, under the reference's response; no answer when the reference counts the
  responses otherwise.
- ``TEXT_STREAMED_CALLS_DONE``: the reference's answer for the stream as a streaming
  client reads it: the snapshot's ``output`` left out; a text item (every payload of
  its type is parts of text: a message, a reasoning) read only from its
  ``output_item.added`` on, without the text its added and done items carry and
  without its ``*.done`` payload events, a message's text deltas all in its first part;
  every other item read only from its ``output_item.done`` (its added and payload
  events left out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from responses_oracle import reduce
from responses_oracle.model.catalogue import (
    ITEM_TYPES,
    PART_CHANNELS,
    PART_VALUE_FIELDS,
    UNKNOWN_ITEM_TYPE,
    WIRE_EVENTS,
    ChannelKind,
    EventClass,
    WireEventSpec,
)
from responses_oracle.model.divergence import HYPOTHESES, Hypothesis
from responses_oracle.model.vocabulary import Trigger
from responses_oracle.reducer import response_parts
from responses_oracle.streamgen.streams import Event

from .candidate import Answer, Failure
from .cause import judged
from .compare import Aspect, Difference, carried_ids, compare, subject
from .shrink import FRAME_EVENTS
from .taxonomy import results_json

PRESENCE = frozenset({Aspect.MISSING_ITEM, Aspect.EXTRA_ITEM})
"""The aspects of which items an answer holds: a policy explains a difference of them
only when it holds the same items as the candidate."""

Results = list[dict[str, Any]]
"""An answer with results: one result object per response."""

TERMINALS: frozenset[str] = FRAME_EVENTS - {"response.created", "error"}
"""The terminal events that carry the response object."""


def _snapshot_verbatim(events: Sequence[Event], reference: Results) -> Results | None:
    out: Results = []
    for part in response_parts(events):
        ending = next((e for e in part if e.get("type") in TERMINALS | {"error"}), None)
        if ending is None or not isinstance(response := ending.get("response"), Mapping):
            return None
        output = response.get("output")
        status = response.get("status") or str(ending.get("type")).removeprefix("response.")
        out.append({
            "response": {"id": response.get("id"), "status": status},
            "items": [{"item": item} for item in output if isinstance(item, Mapping)]
            if isinstance(output, list) else [],
        })
    return out


def _unsnapshotted(event: Event) -> Event:
    """The event without its snapshot: a terminal's ``response`` without ``output``."""
    response = event.get("response")
    if event.get("type") in TERMINALS and isinstance(response, Mapping):
        return {**event, "response": {k: v for k, v in response.items() if k != "output"}}
    return event


def _without_snapshots(events: Sequence[Event], reference: Results) -> Results:
    return results_json(reduce([_unsnapshotted(event) for event in events]))


def _done_items(events: Sequence[Event], reference: Results) -> Results | None:
    parts = response_parts(events)
    if len(parts) != len(reference):
        return None
    return [
        {
            "response": result.get("response"),
            "items": [
                {"item": event["item"]}
                for event in part
                if event.get("type") == "response.output_item.done"
                and isinstance(event.get("item"), Mapping)
            ],
        }
        for part, result in zip(parts, reference, strict=True)
    ]


def _is_text(item: Mapping[str, Any]) -> bool:
    """Whether every payload of the item's type is parts of text (a message, a
    reasoning), read from the catalogue."""
    channels = ITEM_TYPES.get(str(item.get("type")), UNKNOWN_ITEM_TYPE).channels
    return bool(channels) and all(c.channel in PART_VALUE_FIELDS for c in channels)


def _without_text(item: Mapping[str, Any]) -> dict[str, Any]:
    """A text item without the arrays that hold its text: its text is its deltas'."""
    arrays = {c.array for c in ITEM_TYPES[str(item.get("type"))].channels}
    return {k: v for k, v in item.items() if k not in arrays}


def _one_text_part(event: Event, spec: WireEventSpec) -> Event | None:
    """An item-scoped event of a text item as a client that keeps one string per
    message reads it: a text delta goes to the first part whatever its index, and a
    text part after the first opens nothing (``None``: not read)."""
    if spec.channel is ChannelKind.TEXT:
        return {**event, "content_index": 0}
    part = event.get("part")
    opens_text = (spec.trigger is Trigger.PART_ADDED and isinstance(part, Mapping)
                  and PART_CHANNELS.get(str(part.get("type"))) is ChannelKind.TEXT)
    return None if opens_text and event.get("content_index", 0) != 0 else event


def _named(item: Mapping[str, Any], event: Event) -> object:
    """What a client knows an item by: its id, else the id a gateway put in its
    ``item_id`` (Bedrock), else its slot."""
    for field in ("id", "item_id"):
        if isinstance(name := item.get(field), str) and name:
            return name
    return ("slot", event.get("output_index"))


def _text_streamed_calls_done(events: Sequence[Event], reference: Results) -> Results:
    # The stream as a streaming client reads it, then the rules on what is left: the
    # client reads no snapshot, no text but deltas (one string per message), no other
    # item but its done event, and no text item it was not shown by its added event.
    shown: set[object] = set()
    text: dict[object, bool] = {}  # every item named so far → whether it is text
    at_slot: dict[object, object] = {}  # output_index → the item last named there
    read: list[Event] = []
    for event in events:
        spec = WIRE_EVENTS.get(str(event.get("type")))
        item = event.get("item")
        if spec is not None and spec.event_class in (EventClass.ITEM_ADDED, EventClass.ITEM_DONE):
            if not isinstance(item, Mapping):
                continue
            key = _named(item, event)
            text[key] = _is_text(item)
            at_slot[event.get("output_index")] = key
            if spec.event_class is EventClass.ITEM_ADDED and text[key]:
                shown.add(key)
            if not text[key]:
                if spec.event_class is EventClass.ITEM_DONE:
                    read.append(event)
            elif key in shown:
                read.append({**event, "item": _without_text(item)})
            continue
        if spec is not None and spec.event_class is EventClass.ITEM_SCOPED:
            owner = event.get("item_id")
            owner = owner if isinstance(owner, str) else at_slot.get(event.get("output_index"))
            if (owner in text and not text[owner]) or spec.trigger is Trigger.PAYLOAD_DONE:
                continue
            kept = _one_text_part(event, spec)
            if kept is not None:
                read.append(kept)
            continue
        read.append(_unsnapshotted(event))
    return results_json(reduce(read))


def _first_at(events: Sequence[Event], done_only: bool) -> dict[str, int]:
    """Each id and call_id → the index of the first event naming it: of the first
    ``output_item.done`` carrying it (``done_only``), else of any event whose item
    carries it or whose ``item_id`` is it."""
    at: dict[str, int] = {}
    for index, event in enumerate(events):
        item = event.get("item")
        item = item if isinstance(item, Mapping) else {}
        if done_only and event.get("type") != "response.output_item.done":
            continue
        names = [item.get("id"), item.get("call_id")]
        if not done_only:
            names.append(event.get("item_id"))
        for name in names:
            if isinstance(name, str):
                at.setdefault(name, index)
    return at


def _reordered(events: Sequence[Event], reference: Results, done_only: bool) -> Results:
    """The reference's answer, each response's items sorted (stably) by ``_first_at``;
    an item never named so keeps its place after the others."""
    at = _first_at(events, done_only)
    never = len(events)

    def first(entry: Mapping[str, Any]) -> int:
        item = entry.get("item")
        item = item if isinstance(item, Mapping) else {}
        return min(at.get(str(item.get(key)), never) for key in ("id", "call_id"))

    return [
        {**result, "items": sorted(result.get("items") or [], key=first)}
        for result in reference
    ]


def _completion_order(events: Sequence[Event], reference: Results) -> Results:
    return _reordered(events, reference, done_only=True)


def _announcement_order(events: Sequence[Event], reference: Results) -> Results:
    return _reordered(events, reference, done_only=False)


ANSWERS: dict[Hypothesis, Callable[[Sequence[Event], Results], Results | None]] = {
    Hypothesis.SNAPSHOT_VERBATIM: _snapshot_verbatim,
    Hypothesis.SNAPSHOT_IGNORED: _without_snapshots,
    Hypothesis.COMPLETION_ORDER: _completion_order,
    Hypothesis.ANNOUNCEMENT_ORDER: _announcement_order,
    Hypothesis.DONE_ITEMS_VERBATIM: _done_items,
    Hypothesis.TEXT_STREAMED_CALLS_DONE: _text_streamed_calls_done,
}
"""How each hypothesis's answer is computed from the stream and the reference's answer
for it (one function per ``Hypothesis``)."""


def answer(
    hypothesis: Hypothesis, events: Sequence[Event], reference: Results | None = None
) -> Results | None:
    """The answer a client following ``hypothesis`` gives for ``events`` (``None``: the
    policy gives none, e.g. a snapshot verbatim without a terminal snapshot);
    ``reference`` is the reference's answer for them, when already computed."""
    if reference is None:
        reference = results_json(reduce(events))
    return ANSWERS[hypothesis](events, reference)


def explained(
    events: Sequence[Event],
    candidate: Answer,
    *,
    codes: bool = False,
    differences: Sequence[Difference] | None = None,
) -> tuple[Hypothesis, ...]:
    """The hypotheses, in ``HYPOTHESES`` order, whose answer agrees with the candidate's
    at every difference of its most harmful cause while the reference's differs from
    the hypothesis's there (a candidate that gave up matches none); ``differences`` are
    those of the cause, when already judged."""
    if isinstance(candidate, Failure):
        return ()
    if differences is None:
        differences = judged(events, candidate, codes).first_cause
    if not differences:
        return ()
    reference = results_json(reduce(events))
    carried = carried_ids(events)
    wanted = [subject(d, reference, candidate, carried) for d in differences]
    about_items = any(w[0] in PRESENCE for w in wanted)
    found = []
    for hypothesis in HYPOTHESES:
        theirs = answer(hypothesis, events, reference)
        if theirs is None:
            continue
        left = {subject(d, theirs, candidate, carried)
                for d in compare(events, theirs, candidate, codes=codes)}
        if about_items and any(w[0] in PRESENCE for w in left):
            continue
        # What the hypothesis changes, by what it is about whatever the aspect: an item
        # it drops is a missing item of its answer and a payload difference of the case.
        changed = {subject(d, reference, theirs, carried)[1:]
                   for d in compare(events, reference, theirs, codes=codes)}
        if all(w not in left and w[1:] in changed for w in wanted):
            found.append(hypothesis)
    return tuple(found)
