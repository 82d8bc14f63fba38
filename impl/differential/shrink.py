"""Shrinking a diverging stream to a minimal one, with batched candidate calls.

Theory of operation
-------------------
``shrink(events, fails)`` is delta debugging (Zeller's *ddmin*): cut the stream into
*n* chunks, keep any one chunk, or the stream without any one chunk, that still fails;
otherwise cut finer, until single events cannot be removed.  The result is
1-minimal: removing any one event makes the failure go away.  Then noise keys
(``sequence_number``, ``obfuscation``, ``logprobs``, the bulk of ``response`` objects)
are stripped where the failure survives it, so the report shows the events that
matter and only the fields that matter.

Then each terminal snapshot (``response.output``) is cut the same way, item by item,
so a minimal stream carries only the snapshot items the failure needs.

Shrunk streams keep their calls' payloads usable: a variant in which the reference's
answer gives a call whose arguments were JSON in the original stream arguments that are
not (a cut delta leaves ``{"``) is never tried (``parseable_payloads``): a tool never
receives such arguments from a real model, so a representative like that shows a
stream, not a bug a maintainer would accept.

Shrunk streams stay well-formed: the *frame* of a stream — each ``response.created``
and each terminal event (``FRAME_EVENTS``) — is never cut, so a minimal stream still
starts a response and still ends it, as every real body does.  A stream that arrived
without a terminal stays without one; a cluster about the frame (several responses, an
event after the terminal) keeps it because the frame is all there.

``fails`` takes a *batch* of candidate streams and says which still fail: every
variant of one round goes to the candidate process in one batch, so shrinking costs a
few round trips instead of one per variant.  The harness's ``fails`` accepts a variant
only if it still shows the cluster's signature, so the cause is never traded for
another failure on the way down.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from responses_oracle.streamgen.streams import Event

Fails = Callable[[Sequence[list[Event]]], list[bool]]
"""Which of a batch of streams still show the failure."""

NOISE_KEYS: tuple[str, ...] = ("sequence_number", "obfuscation", "logprobs")
"""Event keys that rarely matter; stripped when the failure survives it."""

_RESPONSE_KEEP = frozenset({"id", "status", "output", "error", "incomplete_details"})
"""Fields of a ``response`` object worth keeping in a minimal stream."""


def _chunks(events: list[Event], parts: int) -> list[tuple[int, int]]:
    size, extra = divmod(len(events), parts)
    bounds, start = [], 0
    for number in range(parts):
        end = start + size + (1 if number < extra else 0)
        bounds.append((start, end))
        start = end
    return [b for b in bounds if b[0] < b[1]]


def ddmin(events: list[Event], fails: Fails) -> list[Event]:
    """A 1-minimal sub-sequence of ``events`` that still fails."""
    parts = 2
    while len(events) >= 2:
        bounds = _chunks(events, min(parts, len(events)))
        subsets = [events[a:b] for a, b in bounds]
        complements = [events[:a] + events[b:] for a, b in bounds]
        verdicts = fails(subsets + complements)
        subset = next((s for s, bad in zip(subsets, verdicts, strict=False) if bad), None)
        if subset is not None:
            events, parts = subset, 2
            continue
        complement = next(
            (c for c, bad in zip(complements, verdicts[len(subsets) :], strict=False) if bad),
            None,
        )
        if complement is not None:
            events, parts = complement, max(parts - 1, 2)
            continue
        if parts >= len(events):
            break
        parts = min(parts * 2, len(events))
    return events


def _quiet(event: Event) -> Event:
    quiet: dict[str, Any] = {k: v for k, v in event.items() if k not in NOISE_KEYS}
    response = quiet.get("response")
    if isinstance(response, dict):
        quiet["response"] = {k: v for k, v in response.items() if k in _RESPONSE_KEEP}
    return quiet


def denoise(events: list[Event], fails: Fails) -> list[Event]:
    """``events`` with noise keys stripped wherever the failure survives it."""
    quiet = [_quiet(event) for event in events]
    if quiet == events:
        return events
    if fails([quiet])[0]:
        return quiet
    variants = [[*events[:n], quiet[n], *events[n + 1:]] for n in range(len(events))]
    verdicts = fails(variants)
    return [q if ok else e for e, q, ok in zip(events, quiet, verdicts, strict=True)]


FRAME_EVENTS: frozenset[str] = frozenset(
    {
        "response.created",
        "response.completed",
        "response.incomplete",
        "response.failed",
        "response.cancelled",
        "error",
    }
)
"""Event types a shrunk stream keeps: the start and end of each response."""


def _framed(events: list[Event], fails: Fails) -> list[Event]:
    """ddmin over the events between the frame, the frame kept in place."""
    frame = [n for n, e in enumerate(events) if e.get("type") in FRAME_EVENTS]
    free = [n for n in range(len(events)) if n not in set(frame)]

    def whole(kept: Sequence[Event]) -> list[Event]:
        chosen = set(frame) | {int(e["index"]) for e in kept}
        return [events[n] for n in sorted(chosen)]

    def fails_free(variants: Sequence[list[Event]]) -> list[bool]:
        return fails([whole(v) for v in variants])

    if free and fails([whole([])])[0]:
        return whole([])
    kept = ddmin([{"index": n} for n in free], fails_free)
    return whole(kept)


def _snapshot_of(event: Event) -> list[Any] | None:
    response = event.get("response")
    output = response.get("output") if isinstance(response, dict) else None
    return output if isinstance(output, list) and output else None


def _with_output(events: list[Event], at: int, output: list[Any]) -> list[Event]:
    event = events[at]
    return [*events[:at], {**event, "response": {**event["response"], "output": output}},
            *events[at + 1:]]


def snapshots(events: list[Event], fails: Fails) -> list[Event]:
    """``events`` with each terminal snapshot (``response.output``) cut to the items the
    failure needs: ddmin over the items, the list itself kept (an empty snapshot and
    an absent one are different streams, R9)."""
    for at in range(len(events)):
        output = _snapshot_of(events[at])
        if output is None:
            continue
        if fails([_with_output(events, at, [])])[0]:
            events = _with_output(events, at, [])
            continue
        boxed = [{"item": item} for item in output]
        kept = ddmin(
            boxed,
            lambda variants, at=at, events=events: fails(  # type: ignore[misc]
                [_with_output(events, at, [b["item"] for b in v]) for v in variants]
            ),
        )
        events = _with_output(events, at, [b["item"] for b in kept])
    return events


def _json_payloads(events: Sequence[Event]) -> dict[str, bool]:
    """Per call (by ``call_id``) of the reference's answer to ``events``: whether its
    ``arguments`` parse as JSON."""
    from responses_oracle.reducer import reduce

    parsed: dict[str, bool] = {}
    for result in reduce(list(events)):
        for entry in result.items:
            arguments = entry.item.get("arguments")
            if isinstance(arguments, str) and isinstance(entry.item.get("call_id"), str):
                try:
                    json.loads(arguments)
                except ValueError:
                    parsed[entry.item["call_id"]] = False
                else:
                    parsed[entry.item["call_id"]] = True
    return parsed


def parseable_payloads(original: Sequence[Event], fails: Fails) -> Fails:
    """``fails`` restricted to variants that keep every call's arguments that were JSON
    in ``original`` JSON (a variant that breaks one counts as not failing)."""
    parsing = {call for call, ok in _json_payloads(original).items() if ok}
    if not parsing:
        return fails

    def keeps(events: list[Event]) -> bool:
        return all(ok for call, ok in _json_payloads(events).items() if call in parsing)

    def guarded(variants: Sequence[list[Event]]) -> list[bool]:
        usable = [keeps(v) for v in variants]
        verdicts = iter(fails([v for v, ok in zip(variants, usable, strict=True) if ok]))
        return [ok and next(verdicts) for ok in usable]

    return guarded


def shrink(events: Sequence[Event], fails: Fails) -> list[Event]:
    """A minimal well-formed stream that still fails, its calls' JSON arguments kept
    JSON: ddmin inside the frame, then over the items of each snapshot, then noise
    stripped."""
    fails = parseable_payloads(events, fails)
    return denoise(snapshots(_framed(list(events), fails), fails), fails)
