"""Where the peers differ: the scenarios of ``peer-implementations.md`` section D.

Each ``Scenario`` is one row of that table: a stream that exercises the disagreement
and what each peer does with it, as documented there (read from the peers' source
and tests at the commits listed in that file, never run).  The reference answer is
not written here: the page generator reduces the stream and summarises the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from responses_oracle.model.vocabulary import Code

from .examples import Example
from .wire_builders import added, args_delta, args_done, call, completed, created, done, ended

PEERS: tuple[str, ...] = ("opencode", "codex", "AxonHub")
"""The peer implementations, in the order of their columns."""

AXONHUB_NOT_RUN: Final = (
    "the Go module proxy refuses AxonHub (HTTP 403, \"This module version is not "
    "available\") for `github.com/looplj/axonhub` at its tags v0.1.0 and v0.1.1 and for "
    "`github.com/looplj/axonhub/llm`, the module of its Responses stream transformer, at "
    "the two pseudo-versions other projects pin (v0.0.0-20260504030509-3a5f34936974 and "
    "v0.0.0-20260917094421-19a3c27d8b94), so a Go driver cannot import its transformer "
    "and `go install` cannot fetch the gateway; the gateway's own `go.mod` also has "
    "`replace` directives (gqlgen, go-sse), which `go install module@version` refuses"
)
"""Why no AxonHub cell is measured (checked 2026-12-04): what each way to fetch its
code from the registries answers."""


@dataclass(frozen=True)
class Scenario:
    """One input on which the peers disagree, and what each of them does with it."""

    key: str
    title: str
    example: Example
    peers: tuple[str, str, str]
    """What opencode, codex and AxonHub do, in the order of ``PEERS`` (Markdown)."""
    source: str
    """Where in the peer notes the behaviour is documented."""


_A = '{"a":1}'
_Q = '{"q":"x"}'

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "empty-done-arguments",
        "Deltas, then a done item with empty arguments",
        Example(
            "added `fc_1`, Δ `{\"a\":1}`, done with `arguments: \"\"`, completed",
            events=(
                created("resp_p1"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _A),
                done(0, call("fc_1", "call_1", arguments="", status="completed")),
                completed("resp_p1", []),
            ),
            shows=(Code.EMPTY_PAYLOAD_IGNORED,),
        ),
        (
            "call with `{}` (the done value wins; `\"\"` parses as `{}`)",
            "executes with `\"\"`",
            "streamed `{\"a\":1}` kept",
        ),
        "section D row 1; A.2, B.2, C.2",
    ),
    Scenario(
        "arguments-only-in-snapshot",
        "Empty done item, real arguments only in the snapshot",
        Example(
            "added `fc_1` (no arguments), done with `arguments: \"\"`, completed whose "
            "output carries `{\"a\":1}`",
            events=(
                created("resp_p2"),
                added(0, call("fc_1", "call_1")),
                done(0, call("fc_1", "call_1", arguments="", status="completed")),
                completed("resp_p2", [call("fc_1", "call_1", arguments=_A, status="completed")]),
            ),
        ),
        (
            "`{}`; the snapshot is ignored (the tool already finished)",
            "`\"\"`; the snapshot is ignored",
            "`\"\"` — the reported bug: the snapshot is skipped after a done",
        ),
        "section D row 2; C.2",
    ),
    Scenario(
        "snapshot-corrects-deltas",
        "No done item; the snapshot corrects the deltas",
        Example(
            "added `fc_1`, Δ `{}`, completed whose output carries `{\"q\":\"x\"}`, no done",
            events=(
                created("resp_p3"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", "{}"),
                completed("resp_p3", [call("fc_1", "call_1", arguments=_Q, status="completed")]),
            ),
            shows=(Code.DIVERGENT_PAYLOAD,),
        ),
        (
            "`{\"q\":\"x\"}` (the pending tool is reconciled)",
            "**no call** (there was no done)",
            "`{\"q\":\"x\"}`",
        ),
        "section D row 3",
    ),
    Scenario(
        "unconfirmed-call",
        "Deltas only, completed without output",
        Example(
            "added `fc_1`, Δ `{}`, completed with no `output`",
            events=(
                created("resp_p4"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", "{}"),
                completed("resp_p4"),
            ),
            shows=(Code.UNCONFIRMED_ITEM,),
        ),
        (
            "call with `{}` (`finishAll` flushes pending tools)",
            "no call",
            "**no call** (provisional calls are dropped)",
        ),
        "section D row 4; A.2, C.2",
    ),
    Scenario(
        "mantle-missing-id",
        "Bedrock Mantle: done and snapshot items without `id`",
        Example(
            "added `fc_1`, Δ, done and snapshot items with no `id` but an inner "
            "`item_id` and `output_index`",
            events=(
                created("resp_p5"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _A),
                done(
                    0,
                    call(
                        None, "call_1", arguments=_A, status="completed", item_id="fc_1",
                        output_index=0,
                    ),
                ),
                completed(
                    "resp_p5",
                    [
                        call(
                            None, "call_1", arguments=_A, status="completed", item_id="fc_1",
                            output_index=0,
                        )
                    ],
                ),
            ),
        ),
        (
            "adopts the slot's id `fc_1` from the added item",
            "a new `fc_<uuidv7>` on done (tool calls are never the active item)",
            "matched by `call_id`; the item id is frozen from the added item",
        ),
        "section D row 5; A.1, B.1, C.1",
    ),
    Scenario(
        "done-only-without-id",
        "A done-only call without id and without slot",
        Example(
            "done with no `id` and no `output_index`, completed",
            events=(
                created("resp_p6"),
                done(None, call(None, "call_1", arguments=_A, status="completed")),
                completed("resp_p6", []),
            ),
            shows=(Code.ID_MINTED,),
        ),
        (
            "mints `fc_<32 hex>` (random)",
            "mints `fc_<uuidv7>` (random)",
            "generates an `fc_…` id on the client side",
        ),
        "section D row 6",
    ),
    Scenario(
        "arguments-done-diverges",
        "`function_call_arguments.done` diverges from the deltas",
        Example(
            "added `fc_1`, Δ `{\"a\":1}`, arguments done `{\"a\":2}`, done, completed",
            events=(
                created("resp_p7"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _A),
                args_done(0, "fc_1", '{"a":2}'),
                done(0, call("fc_1", "call_1", arguments='{"a":2}', status="completed")),
                completed("resp_p7", []),
            ),
            shows=(Code.DIVERGENT_PAYLOAD,),
        ),
        (
            "the buffer is silently replaced",
            "ignored (only the done item counts)",
            "the full final value is re-emitted as one chunk",
        ),
        "section D row 7; A.2, B.2, C.2",
    ),
    Scenario(
        "duplicate-done",
        "The same done item twice",
        Example(
            "added `fc_1`, Δ, done, the same done again, completed",
            events=(
                created("resp_p8"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _A),
                done(0, call("fc_1", "call_1", arguments=_A, status="completed")),
                done(0, call("fc_1", "call_1", arguments=_A, status="completed")),
                completed("resp_p8", []),
            ),
            shows=(Code.DUPLICATE_ITEM,),
        ),
        (
            "**two tool calls**",
            "dispatched twice (a later history repair dedups by `call_id`)",
            "one",
        ),
        "section D row 8; A.6, B.2",
    ),
    Scenario(
        "same-call-id-two-ids",
        "Two items with the same `call_id` and different item ids",
        Example(
            "added and done `fc_1`/`call_1` at slot 0, then added and done `fc_2`/`call_1` "
            "at slot 1",
            events=(
                created("resp_p9"),
                added(0, call("fc_1", "call_1")),
                done(0, call("fc_1", "call_1", arguments=_A, status="completed")),
                added(1, call("fc_2", "call_1")),
                done(1, call("fc_2", "call_1", arguments=_A, status="completed")),
                completed("resp_p9", []),
            ),
            shows=(Code.DUPLICATE_ITEM,),
        ),
        (
            "two calls with the same public id",
            "two calls",
            "one call (state keyed by `call_id`)",
        ),
        "section D row 9; A.1",
    ),
    Scenario(
        "reused-slot-id-less-event",
        "A slot reused by two calls, then an id-less event on it",
        Example(
            "added `fc_1` and `fc_2` both at slot 0, then Δ at slot 0 without `item_id`",
            events=(
                created("resp_p10"),
                added(0, call("fc_1", "call_1")),
                added(0, call("fc_2", "call_2")),
                args_delta(0, None, _A),
                done(0, call("fc_1", "call_1", arguments="{}", status="completed")),
                done(0, call("fc_2", "call_2", arguments="{}", status="completed")),
                completed("resp_p10", []),
            ),
            shows=(Code.SLOT_REUSED, Code.AMBIGUOUS_ROUTE),
        ),
        (
            "routed to the latest added item (the slot is overwritten)",
            "n/a (no routing by index)",
            "**error** \"ambiguous tool call output_index\"",
        ),
        "section D row 10; A.1, C.1",
    ),
    Scenario(
        "incomplete-response",
        "`response.incomplete` with a done and a pending call",
        Example(
            "done `fc_1`, added `fc_2` with a partial Δ, `response.incomplete`",
            events=(
                created("resp_p11"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _A),
                done(0, call("fc_1", "call_1", arguments=_A, status="completed")),
                added(1, call("fc_2", "call_2")),
                args_delta(1, "fc_2", '{"q":'),
                ended("incomplete", "resp_p11"),
            ),
        ),
        (
            "no calls",
            "calls already dispatched at their done; at `0a7fb0d7` `response.incomplete` is "
            "not parsed, so the turn ends with \"stream closed before response.completed\"",
            "no calls",
        ),
        "section D row 11; B.2",
    ),
    Scenario(
        "missing-call-output",
        "A call without an output, at the next request",
        Example(
            "done `fc_1`, completed; the client replays the turn without running the call",
            events=(
                created("resp_p12"),
                done(0, call("fc_1", "call_1", arguments=_A, status="completed")),
                completed("resp_p12", []),
            ),
            replay=True,
        ),
        (
            "n/a",
            "a synthetic `\"aborted\"` output, id a UUIDv5 of the call's item id",
            "n/a",
        ),
        "section D row 12; B.2",
    ),
)
"""The disagreements of ``peer-implementations.md`` section D, in its order."""
