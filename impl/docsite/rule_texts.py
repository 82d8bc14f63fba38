"""The rules R1 to R15 as documentation data: what each says, why, and a worked example.

One ``Rule`` per rule of DESIGN section 2.  ``statement`` says what the rule is, in
Markdown; ``evidence`` says why, one bullet per fact, each citing where it was seen —
the wire captures, provider deviations and peer implementations collected in the
project's research notes (``shared/reference/protocol-notes.md``, cited as "protocol
notes §N", and ``peer-implementations.md``, "peer notes §X"), with their issue and PR
numbers (``owner/repo#N``).  The example is only a stream:
the page generator reduces it and shows the trace and the result, so no outcome is
written here.  ``Example.shows`` names the diagnostics the stream exists to raise, and
a test holds the reducer to them.

``model_pages`` links a rule to the generated model pages whose tables decide it.
"""

from __future__ import annotations

from dataclasses import dataclass

from responses_oracle.model.vocabulary import Code

from .examples import Example
from .wire_builders import (
    added,
    args_delta,
    args_done,
    call,
    completed,
    created,
    done,
    message,
    reasoning,
    sse_frame,
    text_delta,
    text_part_added,
)


@dataclass(frozen=True)
class Rule:
    """One rule of the reference semantics, for its documentation page."""

    number: int
    title: str
    statement: str
    evidence: tuple[str, ...]
    example: Example
    model_pages: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``R1`` … ``R15``: the page name and the name used everywhere in the docs."""
        return f"R{self.number}"


_ARGS = '{"city":"Paris"}'

_R1_CALL = call("fc_1", "call_1", arguments=_ARGS, status="completed")

_R1_SSE = "".join(
    (
        sse_frame({"type": "response.created", "sequence_number": 0, **created("resp_r1")}),
        ": an SSE comment line; ignored by the framing\n\n",
        sse_frame({"type": "keepalive", "sequence_number": 1}, named=False),
        sse_frame({**added(0, call("fc_1", "call_1")), "sequence_number": 2}),
        sse_frame(
            {**args_delta(0, "fc_1", _ARGS), "sequence_number": 3},
            name="response.output_text.delta",
        ),
        sse_frame({"type": "acme:trace_event", "sequence_number": 4}, named=False),
        'data: {"type":"response.function_call_arguments.done","sequence_number":5,\n\n',
        sse_frame({**done(0, _R1_CALL), "sequence_number": 6}),
        sse_frame({**completed("resp_r1", [_R1_CALL]), "sequence_number": 7}),
        "data: [DONE]\n\n",
    )
)
"""R1's example as raw SSE: the framing and the decoding are what the rule is about."""

_R13_TOOLS = [
    {"type": "function", "name": "get_weather"},
    {"type": "x_search"},
    {"type": "shell", "environment": {"type": "container_reference", "container_id": "cntr_1"}},
]
_R13_SEARCH = {
    "type": "custom_tool_call",
    "id": "ctc_1",
    "call_id": "xs_call_1",
    "name": "x_keyword_search",
    "input": '{"query":"from:xai"}',
    "status": "completed",
}
_R13_SHELL = {
    "type": "shell_call",
    "id": "sh_1",
    "call_id": "call_sh_1",
    "action": {"commands": ["ls"]},
    "status": "completed",
}
_R13_SHELL_OUTPUT = {
    "type": "shell_call_output",
    "id": "sho_1",
    "call_id": "call_sh_1",
    "output": [{"stdout": "a\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}],
    "status": "completed",
}
_R13_OUTPUT = [_R1_CALL, _R13_SEARCH, _R13_SHELL, _R13_SHELL_OUTPUT]

_R14_ERROR = {"code": "insufficient_quota", "message": "quota exceeded"}
_R14_HELLO = message("msg_1", "Hello.", "completed")

_R15_CITATION = {
    "type": "url_citation",
    "url": "https://example.com/source",
    "title": "The source",
    "start_index": 4,
    "end_index": 14,
}

_R6_MANTLE_DONE = call(
    None,
    "call_bc1eb4b42e70ee53",
    arguments=_ARGS,
    status="completed",
    item_id="fc_828bee50dee1d029",
    output_index=1,
)
"""Bedrock Mantle's done item: no ``id``, an inner ``item_id`` and a stray ``output_index``."""

_R10_TIME = call("fc_2", "call_2", name="get_time", arguments="{}", status="completed")

RULES: tuple[Rule, ...] = (
    Rule(
        1,
        "Dispatch",
        """\
Each event's JSON is decoded and dispatched on its `type` field. The SSE `event:` line
is only cross-checked: a different name is reported as `event_name_mismatch` and the
JSON `type` is used. `keepalive` is a no-op. An unknown type is ignored
(`unknown_event`), never fatal. A payload that cannot be decoded is skipped
(`malformed_event`) and the rest of the stream is still reduced.""",
        (
            "Several third-party servers send data-only SSE frames with no `event:` line "
            "(noted in the review of `ding113/claude-code-hub#1348`), and a Bedrock Mantle "
            "capture puts `data:` before `event:` in each block (peer notes §E, opencode recording "
            "`continues-gpt-5-5-with-the-shared-responses-protocol.json`): the JSON `type` is "
            "the only name every stream carries (protocol notes §1.1).",
            "`keepalive` is undocumented but sent on long streams; it consumes a sequence "
            "number and carries no state (`openai/openai-node#1964`, fixed by `#1965`; "
            "`openai/openai-java#767`/`#776`; `tjardoo/openai-client#170`; "
            "`Effect-TS/effect-smol#1679`; protocol notes §1.4).",
            "Open Responses requires clients to ignore unknown (slug-prefixed) extension "
            "events without losing the canonical response; codex ignores every type it "
            "does not handle, while openai-node's accumulator throws on them (protocol notes "
            "§1.5). "
            "xAI sends unprefixed provider-specific events such as "
            "`response.x_search_call.*` (protocol notes §8).",
            "Event types were renamed across SDK versions "
            "(`response.mcp_call.arguments_delta` → `response.mcp_call_arguments.delta`, "
            "…; protocol notes §1.7) and the wire has events no schema lists "
            "(`response.apply_patch_call_operation_diff.*`, protocol notes §2.5): a parser that "
            "fails "
            "on an unknown name fails on real traffic.",
            "`sequence_number` is missing from some gateways (`BerriAI/litellm#28899`) "
            "and fixed at 1 on others (`BerriAI/litellm#32607`); it is checked "
            "(`sequence_gap`, `sequence_regression`), never used to reorder (protocol notes §1.2).",
        ),
        Example(
            "A raw SSE body: a comment line, a `keepalive`, an `event:` name that "
            "disagrees with the JSON `type`, an unknown extension event and a truncated "
            "`data:` line. Only the truncated event is lost (the next sequence number "
            "shows the gap); the call is still reduced.",
            sse=_R1_SSE,
            shows=(
                Code.EVENT_NAME_MISMATCH,
                Code.UNKNOWN_EVENT,
                Code.MALFORMED_EVENT,
            ),
        ),
    ),
    Rule(
        2,
        "Keys",
        """\
`output_index` (the *slot*) is the primary routing key of item-scoped events; `item_id`
is secondary; `call_id` identifies a call for admission and de-duplication, and never
routes a payload event. A call's `name` comes from its item, never from
`function_call_arguments.done`.""",
        (
            "`output_index` is the only key present on every item-scoped event: shell "
            "command events carry no `item_id` at all (protocol notes §2.6, WIRE "
            "`openai-shell-tool.1`), GitHub Copilot rotates `item_id` on every event "
            "(`vercel/ai#18548`), and Bedrock Mantle drops `item.id` from done items "
            "(`anomalyco/opencode#46885`) (protocol notes §6 item 1).",
            "OpenAI's function-calling guide accumulates streamed calls keyed by "
            "`output_index` (protocol notes §5.3).",
            "`call_id` and `id` are different strings on OpenAI; bugs come from confusing "
            "them — buffers keyed by `call_id` never matched the events' `item_id` "
            "(`mcp-use/mcp-use#2550`; `Alishahryar1/free-claude-code#1189`; "
            "`Oaklight/llm-rosetta#401`; protocol notes §5.2).",
            "Real streams do not send `name` on `function_call_arguments.done` although "
            "the OpenAPI document requires it (`openai/openai-python#2723`, "
            "`openai/openai-go#573`, `openai/openai-java#682`); openai-python dropped the "
            "field in PR `openai/openai-python#3801`, telling users to take the name from "
            "the item (protocol notes §2.4). Bedrock Mantle does send it (peer notes §E): it is "
            "never needed.",
        ),
        Example(
            "The `function_call_arguments.done` event carries a `name` that differs from "
            "the item's: the result keeps the item's name. The delta is routed by its "
            "slot, not by any `call_id`.",
            events=(
                created("resp_r2"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _ARGS),
                args_done(0, "fc_1", _ARGS, name="lookup_weather"),
                done(0, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                completed("resp_r2", [call("fc_1", "call_1", arguments=_ARGS, status="completed")]),
            ),
        ),
        ("model/routing.md",),
    ),
    Rule(
        3,
        "Slots are first-write-only, with tombstones",
        """\
The first entry admitted at a slot binds it for the whole response. When that entry's
item is done the binding stays as a **tombstone**: later payload events on the slot
are `late_event`s and change nothing (the `response.completed` snapshot is
reconciliation, not a late event); a tombstone is never re-bound to a newer entry. A
second, different item admitted at an already-bound slot is kept — nothing is lost —
and the slot becomes **shared** (`slot_reused`): an event that can only be routed by
that slot is then rejected as `ambiguous_route`.""",
        (
            "opencode's parser (post `anomalyco/opencode#46885`/`#46965`) overwrites "
            "`outputItems[output_index]` on every `added`, so a second item on a reused "
            "slot re-points later deltas even when their own `item_id` names the first "
            "item; with no tombstones since `#46965`, a replayed `added` after `done` "
            "reopens the call (peer notes §A.1, §A.6).",
            "AxonHub binds a slot first-write-only and marks it ambiguous when a second "
            "key binds it; an event that must use the slot then fails with "
            "\"ambiguous tool call output_index N\" (PR `looplj/axonhub#2038`, test "
            "`RejectsAmbiguousLateItemIDAfterOutputIndexReuse`; peer notes §C.1, §C.4).",
            "Floway switched terminal matching from ids to positions "
            "(`Menci/Floway#119`; protocol notes §6 item 5); opencode's lifecycle tests require "
            "late events "
            "for a completed item to be ignored (peer notes §A.4, test 1).",
        ),
        Example(
            "A call finishes at slot 0; a late delta for it changes nothing. A second, "
            "different call is then admitted at the same slot (kept, slot shared), and a "
            "delta carrying only `output_index: 0` cannot be routed.",
            events=(
                created("resp_r3"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _ARGS),
                done(0, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                args_delta(0, "fc_1", '{"city":"Lyon"}'),
                added(0, call("fc_2", "call_2", name="get_time")),
                args_delta(0, None, '{"tz":"CET"}'),
                done(0, call("fc_2", "call_2", name="get_time", arguments='{"tz":"UTC"}')),
                completed("resp_r3"),
            ),
            shows=(Code.LATE_EVENT, Code.SLOT_REUSED, Code.AMBIGUOUS_ROUTE),
        ),
        ("model/slots.md",),
    ),
    Rule(
        4,
        "Item ids are aliases",
        """\
Every id an entry was seen with is recorded for the whole response. An id that names
exactly one entry resolves to it; an id that names several is ambiguous. An entry's
own `id` is the first one it was admitted with (R6); the others are aliases.""",
        (
            "GitHub Copilot's `/responses` gives every event of one item a different "
            "opaque `item_id`: added, deltas, done and the completed snapshot all differ; "
            "only `output_index` and `call_id` are stable (`vercel/ai#18548` and its "
            "fixture `github-copilot-id-rotation.1`; `BerriAI/litellm#30072` fixing "
            "`#30071`; `lidge-jun/opencodex#995`, `#996`; `Menci/Floway#119`, `#248`; "
            "`olimorris/codecompanion.nvim#3369`; protocol notes §8).",
            "OpenRouter's argument deltas use `fc_tmp_*` ids while the completed response "
            "uses other ids (`rbb-dev/Open-WebUI-OpenRouter-pipe#54`); vLLM's streamed "
            "function-call ids differ from its `response.completed` ids "
            "(`vllm-project/vllm#45742`); smg's MCP item ids differ between events "
            "(`smg-project/smg#160`) (protocol notes §8).",
            "Ids are also reused: a private gateway reuses `rs_0`-style ids across "
            "responses (`lidge-jun/opencodex#263`), and opencode's tests replay an item id "
            "for a new call (peer notes §A.4, test 15), so an id can never be a unique key.",
        ),
        Example(
            "Copilot-style rotation: each event names the call by a new id. Deltas are "
            "routed by their slot and their ids become aliases; the last delta has no "
            "`output_index` and is routed by an alias alone; the done item's new id is "
            "tolerated because its `call_id` matches.",
            events=(
                created("resp_r4"),
                added(0, call("capture-id-1", "call_1")),
                args_delta(0, "capture-id-2", '{"city":'),
                args_delta(None, "capture-id-2", '"Paris"}'),
                done(0, call("capture-id-3", "call_1", arguments=_ARGS, status="completed")),
                completed(
                    "resp_r4",
                    [call("capture-id-4", "call_1", arguments=_ARGS, status="completed")],
                ),
            ),
            shows=(Code.ITEM_ID_UNRECOGNIZED, Code.ID_CHANGED),
        ),
    ),
    Rule(
        5,
        "Routing a payload event",
        """\
A payload event with slot *s* and/or item id *d* is routed by the routing table:

| slot *s* | item id *d* | route |
|---|---|---|
| bound to one entry X | absent, or never seen | X (ids can rotate: `item_id_unrecognized`, info) |
| bound to one entry X | names X | X |
| bound to one entry X | names only Y ≠ X | reject: `ambiguous_route` |
| shared | names exactly one entry of the slot | that entry |
| shared | anything else | reject: `ambiguous_route` |
| unbound / absent | names exactly one entry | that entry |
| unbound / absent | names several | reject: `ambiguous_route` |
| unbound / absent | absent or never seen | drop: `orphan_event` |

A routed payload event whose entry is already done is a `late_event`. A rejected or
dropped event changes no state, and its diagnostic carries the event's index and the
event itself: it is **never guessed** onto some call.""",
        (
            "The two keys can disagree on real streams: opencode lets the slot silently "
            "win over the event's own `item_id` (peer notes §A.6), AxonHub's older aggregator fell "
            "back to \"the last item at that output_index\" (peer notes §C.4), and both guesses "
            "attach arguments to the wrong call. AxonHub's current rule rejects the "
            "ambiguous case instead (`looplj/axonhub#2038`).",
            "Events arrive interleaved: xAI's server-side search opened items 1 to 5 before "
            "closing them in the order 4, 5, 2, 3, 1 (WIRE `xai-x-search-tool`), so routing "
            "must be by key, never by \"the current item\" (protocol notes §5.3).",
            "An event for an item nobody admitted is dropped without error by opencode "
            "and AxonHub (peer notes §A.1, §C.3); here it is dropped too, but reported "
            "(`orphan_event`) with the event attached.",
        ),
        Example(
            "Two calls at slots 0 and 1. A delta at slot 0 whose `item_id` names the call "
            "at slot 1 is rejected; a delta with no slot is routed by its id; a delta "
            "for a slot and id nobody knows is dropped.",
            events=(
                created("resp_r5"),
                added(0, call("fc_a", "call_a")),
                added(1, call("fc_b", "call_b", name="get_time")),
                args_delta(0, "fc_b", '{"tz":"UTC"}'),
                args_delta(None, "fc_b", '{"tz":"CET"}'),
                args_delta(0, None, _ARGS),
                args_delta(7, "fc_x", "{}"),
                done(0, call("fc_a", "call_a", arguments=_ARGS, status="completed")),
                done(1, call("fc_b", "call_b", name="get_time", status="completed")),
                completed("resp_r5"),
            ),
            shows=(Code.AMBIGUOUS_ROUTE, Code.ORPHAN_EVENT),
        ),
        ("model/routing.md",),
    ),
    Rule(
        6,
        "Admitting items",
        """\
`output_item.added`, `output_item.done` and each item of `response.completed.output`
(whose slot is its array position) either match an admitted entry or admit a new one.
Which one is decided by the tables of `model/admission.py` (page: the admission model),
whose cells are picked by classifiers written once and run by both the reducer and Z3.

- **A call and its output are two items.** A `call_id` names one entry *per item kind*
  (calls, outputs, others — the `call_id` namespaces table): a `shell_call_output`
  with its `shell_call`'s `call_id` is an item of its own, never a duplicate call.
- An `added` is a **replay** if an entry of the same type already holds its `call_id`
  in its namespace (or, without `call_id`, its id): `duplicate_item`, ignored — a done
  call is never reopened. A `call_id` held by an entry of another type of the same
  kind is `duplicate_call_id`, not admitted. Otherwise a new entry is admitted.
- A `done` or snapshot item is **matched**: three keys propose entries — the entry
  bound alone at its slot (on a shared slot, the one its `call_id` or id picks there),
  the entry holding its `call_id`, the entry its id names uniquely — and the *matching
  table* says whether the item fits each proposed entry, from its type, `call_id`, id and
  slot views. One fitting entry: the item is its; several: `ambiguous_route`,
  rejected; none: a new entry is admitted (done-only and snapshot-only items are
  recovered, and reported: `done_only_item`, `snapshot_only_item`, info; not in a
  resumed response, whose items were announced before it resumed). An item of another
  type never fits. Equal `call_id`s fit whatever the ids (rotated ids, `id_changed`);
  without two `call_id`s the ids decide, and through its own slot an open entry — or
  the snapshot — also takes a never-seen id (GitHub Copilot, vLLM). A `done` matched
  to an entry already done is `duplicate_item`, ignored: **every entry completes at
  most once**.
- **Identity is fixed at confirmation.** `call_id`, `name` and `namespace` are set by the
  first non-empty value an item brings and never overwritten (`metadata_conflict`),
  with one exception: the entry's **own done** — its id, at its own slot, while the
  entry is open — may rename the `call_id` `added` announced (`call_id_renamed`); the
  old `call_id` still names the entry. After confirmation nothing re-keys an entry: a
  snapshot item reaching a done entry at its own slot with a new id and a new
  `call_id` is that entry's (`snapshot_rekeyed`, naming both identities), its
  confirmed identity kept. The snapshot never renames an open entry. A `call_id`, once
  bound, is never taken by a different entry.
- The entry's id is: its first non-empty wire `id`; else the first `item_id` field
  found *inside* an item (`id_renamed_field`); else, for an item matched through its
  slot, the id an event gave that slot (`id_adopted_from_slot`); else a minted id
  (R11).""",
        (
            "Bedrock Mantle's `output_item.done` and `response.completed` items have no "
            "`id`; they carry it as `item_id` inside the item, plus a stray "
            "`output_index` (`anomalyco/opencode#46885`, earlier `#45081`, `#46084`; the "
            "real gpt-oss recordings in peer notes §E). No popular client keeps that id (DESIGN).",
            "A duplicate `output_item.done`, or a replayed `added` + delta after `done`, "
            "makes opencode after `anomalyco/opencode#46965` emit a second tool call for "
            "the same `call_id` (its own older tests, peer notes §A.4 tests 18 and 19, fail on "
            "it); "
            "codex dispatches a duplicate done twice (peer notes §B.2); AxonHub keeps one (peer "
            "notes §C.2).",
            "Done-only calls are real: LM Studio sends no deltas "
            "(WIRE `lmstudio-tool-call.1`), gpt-5.3-codex-spark sends arguments only in "
            "`.done` (`tailcallhq/forgecode#2558`), and some gateways send only the "
            "done item or the snapshot (`anomalyco/opencode#46084`; "
            "`onyx-dot-app/onyx#7727`; protocol notes §6 item 2).",
            "openai-python's `ResponseStreamState` identifies a call by `(type, call_id)` "
            "and treats an `added` item without `id` as compatible with a later one "
            "that has it (protocol notes §5.3); AxonHub keys a call by `call_id` first, then its "
            "item "
            "id, and falls back to the slot only when compatible (peer notes §C.1).",
            "Bedrock Mantle's `call_id`s are response-scoped (`call_0` reused across "
            "responses: `pydantic/pydantic-ai#6536`, `#6538`): identity is per response.",
            "OpenAI's hosted container shell streams a `shell_call` and its "
            "`shell_call_output` in one response with the same `call_id` (the "
            "`openai-shell-skills` capture recorded by vercel/ai): the output is an item.",
            "OpenAI and Azure change a client `tool_search_call`'s `call_id` between "
            "`added` and `done`, keeping its `tsc_…` id and slot; the snapshot agrees with "
            "the done (the client tool-search captures recorded by vercel/ai and "
            "pydantic-ai): the done renames the call, and `replay` sends it once.",
            "A LiteLLM gateway in front of vLLM re-keys a done call in "
            "`response.completed` — new id, `call_id` `functions.get_weather:0`, "
            "whitespace-trimmed arguments — and accepts the streamed `call_id` back: one "
            "call, with its streamed identity (`snapshot_rekeyed`).",
            "opencode's test 14: a snapshot item colliding with an open call's id but "
            "carrying another `call_id` is not that call (the snapshot never renames).",
        ),
        Example(
            "The Bedrock Mantle shape: the done and snapshot items have no `id` but an "
            "inner `item_id` and a stray `output_index`; the `added` item's id is kept "
            "and the stray fields are removed. The done item then arrives twice and the "
            "`added` is replayed: each is a `duplicate_item`, and the call completes once.",
            events=(
                created("resp_r6"),
                added(1, call("fc_828bee50dee1d029", "call_bc1eb4b42e70ee53")),
                args_delta(1, "fc_828bee50dee1d029", _ARGS),
                done(1, _R6_MANTLE_DONE),
                done(1, _R6_MANTLE_DONE),
                added(1, call("fc_828bee50dee1d029", "call_bc1eb4b42e70ee53")),
                completed("resp_r6", [_R6_MANTLE_DONE]),
            ),
            shows=(Code.DUPLICATE_ITEM,),
        ),
        ("model/admission.md",),
    ),
    Rule(
        7,
        "Payload: the latest non-empty value wins; empty never erases",
        """\
Per channel (a call's `arguments`, a custom tool's `input`, a text part, …) the
offers in arrival order are: the concatenated deltas, the `*.done` value, the
`output_item.done` item's value, the `response.completed` item's value. The final value
is the **last non-empty** offer; an empty or missing value never replaces a
non-empty one. When two non-empty offers differ: `divergent_payload` (warning) —
unless the earlier one is a prefix of the later (`payload_extended`, info). Payloads
are opaque strings: never parsed, trimmed or re-serialized. `invalid_json_arguments`
(warning) flags function-call arguments that do not parse as JSON. A delta that arrives
after its channel's `*.done` is a `late_event`. A delta that opens a part its item never
announced (a text, refusal, summary or reasoning part with no part-added event before
it, a shell command with no `shell_call_command.added`) is kept, and reported
(`part_not_added`, info): openai-node's accumulator throws on it.""",
        (
            "AxonHub's reported bug: an `output_item.done` with `arguments: \"\"` marks the "
            "call finished, and the real arguments in `response.completed` are then "
            "skipped, so the call runs with empty arguments (PR `looplj/axonhub#2038` era; "
            "related `#2486`, `#2312`; peer notes §C.2).",
            "opencode takes the done item's `arguments` even when it is `\"\"`, which it "
            "parses as `{}`, erasing good streamed arguments (peer notes §A.2, §A.6); gateways do "
            "put `arguments: \"\"` in terminal items (`Wei-Shaw/sub2api#6629`), and opencode "
            "made completed-item values authoritative over streamed text in "
            "`anomalyco/opencode#45854` (protocol notes §6 item 2).",
            "GitHub Copilot streams argument deltas as ciphertext and sends the plaintext "
            "only in `.done` (`lidge-jun/opencodex#995`): a later non-empty value must win "
            "over the deltas.",
            "Bedrock Mantle's gpt-oss-20b arguments end with a newline on every source "
            "(`{\"data\":{}}\\n`, peer notes §E); opencode replays them re-serialized, which "
            "changes the bytes — here they are kept as they came.",
            "On OpenAI the four offers agree (protocol notes §5.1, §6 item 2); a disagreement "
            "is "
            "recorded, never silently merged.",
        ),
        Example(
            "Arguments stream in, the `.done` repeats them, the done item blanks them, and "
            "the snapshot carries a different, longer value.",
            events=(
                created("resp_r7"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", '{"city":'),
                args_delta(0, "fc_1", '"Paris"}'),
                args_done(0, "fc_1", _ARGS),
                done(0, call("fc_1", "call_1", arguments="", status="completed")),
                completed(
                    "resp_r7",
                    [
                        call(
                            "fc_1",
                            "call_1",
                            arguments='{"city":"Paris","unit":"C"}',
                            status="completed",
                        )
                    ],
                ),
            ),
            shows=(Code.EMPTY_PAYLOAD_IGNORED, Code.DIVERGENT_PAYLOAD),
        ),
        ("model/payload.md",),
    ),
    Rule(
        8,
        "Lifecycle of an entry",
        """\
`added` → `streaming` (first delta) → `payload_done` (a `*.done` payload event) →
`done` (`output_item.done`; the slot is tombstoned) → `completed` (the response
completed). Done-only and snapshot-only admissions enter at `done` and `completed`.
Any non-terminal state → `incomplete` when the response ends otherwise. The lifecycle
table of the model is the authority; this paragraph is its summary.""",
        (
            "The OpenAI sequence for one call, seen in a gpt-5.1 capture "
            "(WIRE `issue-19493-gpt-5.1-tool-call`) and identically on Azure "
            "(`azure-tool-call.1`): `output_item.added` (`arguments: \"\"`), argument "
            "deltas, `function_call_arguments.done`, `output_item.done`, "
            "`response.completed` (protocol notes §5.1).",
            "Open Responses states the same per-item order as normative: `added` first, "
            "content through deltas and `.done`, `output_item.done` last; nothing changes "
            "after `completed` (protocol notes §7).",
            "The item `status` is not a lifecycle signal: program-invoked calls stay "
            "`in_progress` in their done item, Azure closes hosted tools with `searching` "
            "or `generating`, and vLLM marks every item `completed` in an incomplete "
            "response (`vllm-project/vllm#57998`; protocol notes §5.4). `output_item.done` itself "
            "closes the item.",
        ),
        Example(
            "The OpenAI shape: every event moves the call one step along its lifecycle.",
            events=(
                created("resp_r8"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", '{"city":'),
                args_delta(0, "fc_1", '"Paris"}'),
                args_done(0, "fc_1", _ARGS),
                done(0, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                completed("resp_r8", [call("fc_1", "call_1", arguments=_ARGS, status="completed")]),
            ),
        ),
        ("model/lifecycle.md",),
    ),
    Rule(
        9,
        "Response end",
        """\
- `response.completed`: entries in the snapshot are reconciled (R6, R7); done entries
  missing from a non-empty snapshot are kept (`snapshot_missing_item`); an empty or
  absent `output` is tolerated (`snapshot_absent`, info). Entries that never reached
  `payload_done`/`done` and are not in the snapshot are kept but **unconfirmed**
  (`unconfirmed_item`). A field of a snapshot item that differs from its
  `output_item.done` where no rule decides it (not identity, R6; not a payload, R7;
  a reasoning item's `encrypted_content`, say) takes the snapshot's value, the
  response as stored, and says so (`divergent_item_field`, naming the field).
- `response.incomplete` / `response.failed` / `response.cancelled`: the response
  status says so, and their `output` is reconciled like that of `completed` (items
  found only there are kept) but nothing in it is run (R13 `not_completed`). Entries
  the snapshot does not list end `incomplete`.
- An `error` event ends the response as failed; `error` then `response.failed` is
  **one** failure, described by the failed response's own error (R14).
- End of input without a terminal event: status `interrupted` (`missing_terminal`); no
  call is executable.
- After the first terminal event every event is `after_terminal` and changes nothing.
- Whether a confirmed call of a completed response is **executable**, that is who runs
  it, is R13. Parseable arguments alone never make a call executable.""",
        (
            "The ChatGPT Codex backend sends `response.completed` with an empty or absent "
            "`output`; the items come only through `output_item.done` "
            "(`NousResearch/hermes-agent#5689`, `#5730`; `sipeed/picoclaw#2674`, `#2437`, "
            "`#2581`; `BerriAI/litellm#26075`; `PwnKit-Labs/pwnkit#331`), and so do other "
            "gateways (`decolua/9router#705`) (protocol notes §8).",
            "A call with deltas but no confirmation is handled three ways: opencode "
            "flushes it as an executable call at `response.completed`, codex never runs "
            "it, AxonHub drops it as provisional (peer notes §D; AxonHub test "
            "`DoesNotEmitProvisionalToolCallOnCompletedResponse`). A later opencode test "
            "keeps parseable arguments non-executable until the response confirms the "
            "call (peer notes §A.4, test 20).",
            "A stream that ends without a terminal event is a failure: codex reports "
            "\"stream closed before response.completed\" (peer notes §B.3; "
            "`openclaw/openclaw#108989`). Some upstreams keep the body open after the "
            "terminal event (`caidaoli/ccLoad#81`): the terminal event ends the response, "
            "not EOF (protocol notes §1.1).",
            "SGLang's router sends no `output_item.done` and a snapshot with a generic "
            "empty message, losing the call (`sgl-project/sglang#12652`); the snapshot "
            "must never erase what was streamed.",
            "`response.incomplete` (and `failed`, `cancelled`) may carry `response.output`; "
            "openai-python's accumulator keeps those items, and a reducer that reads only "
            "the snapshot of `completed` drops them (issue #11; the vercel/ai fixtures "
            "`issue-18872-*` end with `response.incomplete`).",
            "OpenAI and Azure (gpt-5, gpt-5-mini, o4-mini) send a reasoning item's "
            "`encrypted_content` anew in `response.completed`, different from "
            "`output_item.done`'s (pydantic-ai cassette "
            "`test_openai_responses_streaming_usage`; issue #35): a client replays one or "
            "the other, so the oracle says which it keeps.",
        ),
        Example(
            "Two responses back to back. The first completes with an absent snapshot: "
            "the confirmed call is executable, the call that only streamed deltas is "
            "kept but not executable, and an event after the terminal changes nothing. "
            "The second ends without a terminal event.",
            events=(
                created("resp_r9a"),
                done(0, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                added(1, call("fc_2", "call_2", name="get_time")),
                args_delta(1, "fc_2", '{"tz":"UTC"}'),
                completed("resp_r9a"),
                args_delta(1, "fc_2", "!"),
                created("resp_r9b"),
                added(0, call("fc_3", "call_3")),
                args_delta(0, "fc_3", _ARGS),
            ),
            shows=(
                Code.SNAPSHOT_ABSENT,
                Code.UNCONFIRMED_ITEM,
                Code.AFTER_TERMINAL,
                Code.MISSING_TERMINAL,
            ),
        ),
    ),
    Rule(
        10,
        "Order",
        """\
Output items are ordered by slot, then admission order; snapshot-only items take their
array position. Completion order never reorders the output.""",
        (
            "xAI interleaves items: five hosted-search items opened in order and closed "
            "in the order 4, 5, 2, 3, 1 (WIRE `xai-x-search-tool`; protocol notes §5.3).",
            "codex's attempt to support interleaved items (`openai/codex#30876`) was "
            "reverted (`#31261`), so it tracks a single active item (peer notes §B); opencode "
            "preserves pending order when ids are reused (peer notes §A.4, test 15); AxonHub "
            "emits calls in first-seen order (peer notes §C.2).",
            "On OpenAI and Azure the snapshot lists every item in `output_index` order "
            "(protocol notes §5.5).",
        ),
        Example(
            "A message at slot 0 and calls at slots 1 and 2 are added out of order and "
            "finish in the reverse order; a reasoning item appears only in the snapshot, "
            "at position 3.",
            events=(
                created("resp_r10"),
                added(2, call("fc_2", "call_2", name="get_time")),
                added(1, call("fc_1", "call_1")),
                added(0, message("msg_1")),
                text_part_added(0, "msg_1"),
                text_delta(0, "msg_1", "Checking both."),
                done(2, _R10_TIME),
                done(1, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                done(0, message("msg_1", "Checking both.", status="completed")),
                completed(
                    "resp_r10",
                    [
                        message("msg_1", "Checking both.", status="completed"),
                        call("fc_1", "call_1", arguments=_ARGS, status="completed"),
                        _R10_TIME,
                        reasoning("rs_1"),
                    ],
                ),
            ),
        ),
    ),
    Rule(
        11,
        "Minted ids are deterministic",
        """\
An entry that never carried an id gets `<prefix>_` + a UUIDv5 over (response id, slot,
admission ordinal, type) under one fixed, documented namespace
(`responses_oracle.core.ids.MINT_NAMESPACE`). Prefixes per type follow the wire
conventions (`fc`, `ctc`, `msg`, `rs`, `cmp`, `ws`, …). An id is minted once, at the
end, only if no wire id ever appeared. The same stream always yields the same ids.""",
        (
            "Peers mint random ids for id-less done calls: opencode `fc_<32 hex>` from a "
            "UUIDv4, codex `fc_<UUIDv7>`, AxonHub a generated `fc_…` (peer notes §D); the same "
            "stream reduced twice gives two answers, and a replayed id changes between "
            "retries (the prompt cache misses; codex PR `openai/codex#30327` fixed that "
            "for its synthetic outputs).",
            "OpenAI rejects a replayed item id with the wrong prefix "
            "(`400 invalid_id_prefix … Expected an ID that begins with 'fc'`: "
            "`nodetool-ai/nodetool#4252`, `BigPizzaV3/CodexPlusPlus#1796`, "
            "`continuedev/continue#11647`; protocol notes §3.1), so a minted id must carry the "
            "type's "
            "prefix (table in protocol notes §4).",
            "Ollama's random `fc_<0-999999>_<i>` ids collide (precedent "
            "`ogx-ai/ogx#2315`; protocol notes §4).",
        ),
        Example(
            "A done-only call with no id and no `output_index`, then the same call in the "
            "snapshot: one entry, with a minted `fc_` id.",
            events=(
                created("resp_r11"),
                done(None, call(None, "call_1", arguments=_ARGS, status="completed")),
                completed(
                    "resp_r11", [call(None, "call_1", arguments=_ARGS, status="completed")]
                ),
            ),
            shows=(Code.ID_MINTED,),
        ),
    ),
    Rule(
        12,
        "Replay",
        """\
The result converts to the `input` items of the next request (`replay_input`):
wire-shaped items with their ids, stray fields such as an item-level `item_id` or
`output_index` removed. A call without an output gets a synthetic `"aborted"` output
right after it, as codex does, with id `<out-prefix>_` + UUIDv5 under namespace
`90d38d3e-6a5b-4d52-bfe2-2f1e634bfac4` of the name `"<out-prefix>:<source call item
id>"` (`fco` for function and local shell calls, `ctco` custom tool, `tso` tool
search); a call without an id gets an output without an id. Orphan outputs are
dropped.""",
        (
            "codex's prompt normalization inserts an `\"aborted\"` output right after every "
            "call that lacks one (`ensure_call_outputs_present`) and drops orphan "
            "outputs (`remove_orphan_outputs`) (peer notes §B.2).",
            "codex PR `openai/codex#30327` (\"stabilize synthesized call output IDs\") "
            "made the synthetic id a UUIDv5 of the source call's item id, so that two "
            "projections of the same history are byte-identical and the prompt cache "
            "keeps hitting; `openai/codex#28814` assigns ids when recording history "
            "(peer notes §B.0).",
            "opencode drops invalid ids on replay (`anomalyco/opencode#44587`), and "
            "OpenAI validates the prefix of replayed ids (protocol notes §3.1). Bedrock Mantle's "
            "stray "
            "item fields must not be sent back (protocol notes §8).",
        ),
        Example(
            "Two calls complete; the client runs neither. Replaying the result gives "
            "each call an `\"aborted\"` output right after it (shown below the result).",
            events=(
                created("resp_r12"),
                added(0, call("fc_1", "call_1")),
                args_delta(0, "fc_1", _ARGS),
                done(0, call("fc_1", "call_1", arguments=_ARGS, status="completed")),
                done(
                    1,
                    call(
                        None,
                        "call_2",
                        name="get_time",
                        arguments="{}",
                        status="completed",
                        item_id="fc_2",
                        output_index=1,
                    ),
                ),
                completed("resp_r12"),
            ),
            shows=(Code.ID_RENAMED_FIELD,),
            replay=True,
        ),
    ),
    Rule(
        13,
        "Who runs a call",
        """\
An item is **executable**, that is the client should run it now, only when every gate
holds, in this order; the first that fails is the item's `execution` verdict in the
result:

1. its type is a client-run call (`function_call`, `custom_tool_call`, `shell_call`,
   `local_shell_call`, `computer_call`, `apply_patch_call`, `tool_search_call`), else
   `not_a_call`;
2. the response completed, else `not_completed`;
3. its `done` or the snapshot confirmed it, else `unconfirmed`;
4. it has a non-empty `call_id`, else `no_call_id`;
5. no `*_output` item answering its `call_id` is in the same response, else
   `answered` (the server ran it);
6. the declared tools (`response.tools` as `response.created`, `in_progress` and
   `completed` echo it, plus the tools a `tool_search_output` loaded) say the client
   runs it: function and custom tools **by name** (a namespace's tools by namespace),
   a shell **by its environment** (`local` or none: client; `container_auto`,
   `container_reference`: server), local shell, computer and apply_patch **by the
   tool type**, a tool search **by its `execution`**. A declared tool that is hosted
   gives `server`; no declared tool of the call gives `undeclared`; a client one gives
   `client`. A declared tool's type is read by meaning: the forms the API echoes
   (`computer-use-preview-2025-03-11`, `web_search_preview_2025_03_11`: hyphens,
   dates, versions, `_preview`) name the tool they are a form of (`TOOL_TYPES` in
   `model/catalogue.py`). A declared type the catalogue does not know is reported
   (`unknown_tool_type`, naming it), and a call no known tool declares is then
   `unknown_tool_type`, never a silent `undeclared`.

When the stream declares no tools (no `tools`, or an empty list), gate 6 cannot be
read: the call is executable by its type and its verdict says so, `tools_unknown`.

No call of a completed response is withheld in silence. A call that is not executable
there is reported once: `unconfirmed_item` when nothing confirmed it, else
`call_withheld` (info), whose detail names the call and its verdict, for example
`entry 0 (function_call 'mcp__agentic_fixture.add_numbers' call_id 'call_1') is not
executable: undeclared` — a gateway that echoes a namespace's tools under flattened
names (`agentic_ns__mcp__agentic_fixture__add_numbers`) and sends the call with its
namespace restored. Which verdicts `call_withheld` reports is a model table
(`WITHHELD` in `model/execution.py`), and `prove` shows the obligation
`withheld_reported`: exactly the calls not run in a completed response are reported.
Each call type's facts (the tool types that declare it, how, the output that answers
it) are its record in `model/catalogue.py` (`ITEM_TYPES`, `ClientCall`); who runs a
declared tool is in `model/execution.py` (`ENVIRONMENT_RUNNER`, `EXECUTION_RUNNER`).
Where the gates stop picks a cell of the execution table (`EXECUTION`), whose value is
the verdict, the declared tools' answer its stop through `DECLARED`; `prove` shows,
over the lifecycle with each call's `call_id` and evidence (the declared tools' answer
among it), that an executable call is confirmed, in a completed response, has a
non-empty `call_id` and is client-run by the evidence, and that a call the evidence says the
client runs is executable; and, one step at a time, that a shell with no environment
or a local one is the client's, a hosted or unknown one the server's (`shell_runners`),
and that a tool search is the client's exactly when its `execution` is `client`
(`search_runners`).""",
        (
            "xAI's server-run `x_search` streams `custom_tool_call` items (`xs_call_…`, "
            "names `x_keyword_search`, `view_x_video`) that the request never declared: "
            '`response.tools` is `[{"type":"x_search"}]` (vercel/ai fixture '
            "`xai-x-search-tool`; protocol notes §8 xAI row, `vercel/ai#12456`). A client "
            "that runs them would call a tool it does not have (issue #11).",
            "A request declaring `computer_use_preview` gets it echoed as "
            "`computer-use-preview-2025-03-11`; read as the exact string, the only "
            "declared tool's completed `computer_call` was withheld as `undeclared` "
            "without a word (issue #35).",
            "OpenAI's hosted container shell streams `shell_call` items the server has "
            'already run: the declared tool is `{"type":"shell","environment":'
            '{"type":"container_reference",…}}` and each call\'s `shell_call_output` is '
            "in the same response with the same `call_id` (vercel/ai fixtures "
            "`openai-shell-skills.1`, `openai-shell-container.1`). Running them again "
            "would repeat a command.",
            'A local shell (`{"type":"shell"}` with no environment, or `environment: '
            '{"type":"local"}`) is answered by the client in the next request (vercel/ai '
            "`openai-shell-tool.1`, `openai-shell-local-multiturn.1`); a tool search says "
            "who runs it in its own `execution` (`openai-tool-search.1`: `server`, no "
            "`call_id`; `openai-client-tool-search.1`: `client`), as openai-python's "
            "`ResponseToolSearchCall.execution` does.",
            "OpenAI echoes `tools: []` for a response whose request declared a "
            "`local_shell` tool (vercel/ai `openai-local-shell-tool.1`), so an empty list "
            'cannot mean "nothing declared": it counts as no declaration, and the verdict '
            "says `tools_unknown` rather than guessing silently.",
            "A call OpenAI loads through tool search carries a `namespace` equal to its "
            "name although the function was declared at top level with `defer_loading` "
            "(vercel/ai `openai-tool-search.1`): a top-level tool answers any namespace.",
        ),
        Example(
            "One completed response with its tools declared: a declared function call, a "
            "custom call the request never declared (the shape of xAI's `x_search`), and "
            "a hosted shell call whose output is in the same response. Only the first "
            "is executable; each item's `execution` says why.",
            events=(
                {
                    "type": "response.created",
                    "response": {
                        "id": "resp_r13",
                        "status": "in_progress",
                        "output": [],
                        "tools": _R13_TOOLS,
                    },
                },
                done(0, _R1_CALL),
                done(1, _R13_SEARCH),
                done(2, _R13_SHELL),
                done(3, _R13_SHELL_OUTPUT),
                {
                    "type": "response.completed",
                    "response": {
                        "id": "resp_r13",
                        "status": "completed",
                        "output": _R13_OUTPUT,
                        "tools": _R13_TOOLS,
                    },
                },
            ),
        ),
    ),
    Rule(
        14,
        "Where a response starts and ends",
        """\
An input may hold several responses: a tool loop in one file, a WebSocket-mode
connection, a background response and its resume stream. Where one ends is the
`BOUNDARY` table of `model/responses.py`, read for every event that opens a response:

- `response.created` opens a response, and ends the one held unless that one is still
  open with the same response id (an `in_progress` may come first);
- `response.queued` and `response.in_progress` open a response when none is held and
  otherwise continue the held one; after its end, only another response's id starts
  a new one;
- a response whose first event has a `sequence_number` above 0 is a resume
  (`GET /responses/{id}?stream=true&starting_after=N` starts at N+1, with `queued`,
  `in_progress` or in the middle of an item): one `response_resumed` (info) says so,
  and its first number is no gap. An event of an item opened before the resume point
  reaches no entry when it comes; it is held, and attached to its item when that
  item's `output_item.done` or the terminal snapshot admits it, without a warning
  (the snapshot supplies what the resume did not repeat). Only a held event whose
  item never comes is an `orphan_event`;
- in a WebSocket transcript the client's frames (`response.create`,
  `response.steer`) are skipped, and a `response.create` ends the response before it;
- an `error` ends the response as failed, like any terminal; the terminal that
  follows it at once is the same failure (`AMENDABLE_TERMINALS`): no
  `after_terminal`, and its response's own `error` describes the failure (one
  `response_error`). Its `output` is not read: nothing after a terminal changes the
  items (invariant `terminal_is_final`).

A stream without `sequence_number` (OpenAI recordings from March 2025) is read the
same way.""",
        (
            "Background-mode resume streams start with `response.queued` at sequence "
            "N+1, never `response.created` (pydantic-ai cassette "
            "`test_background_mode_streaming_starting_after_vcr`; fixtures/quirks q03).",
            "OpenAI's normal failure is `error` then `response.failed` for the same "
            "response (vercel/ai fixture `openai-error.1`): one failure, described by the "
            "failed response; reporting the second event as `after_terminal` loses that "
            "description.",
            "WebSocket mode sends the same event payloads as SSE on one connection, one "
            "JSON message per frame, with the client's `response.create` frames between "
            "responses, and answers a bad request with an `error` frame alone "
            "(protocol notes §1.8; openai-python `ResponsesClientEvent`; Open Responses "
            "WebSocket mode, 2026-04-24).",
            "A real `starting_after` resume begins at sequence N+1 with a text delta in "
            "the middle of a message (issue #35): the items are whole from "
            "`output_item.done` and the snapshot, and warning about the head the client "
            "chose to skip blames a correct stream.",
            "GitHub Copilot rotates the response id inside one response "
            "(`vercel/ai#18548`, fixture `github-copilot-id-rotation.1`): an "
            "`in_progress` with another id continues the open response "
            "(`response_id_changed`).",
        ),
        Example(
            "A WebSocket connection: the client asks; the response is a resume that "
            "begins inside its message, at sequence 4 (`response_resumed`: the delta is "
            "attached to the message its `output_item.done` admits) and completes; the "
            "client asks again and the server answers `error` then `response.failed`. "
            "Two results, no warning.",
            events=(
                {"type": "response.create", "model": "gpt-5.1", "input": "hi"},
                {
                    "type": "response.output_text.delta",
                    "sequence_number": 4,
                    "item_id": "msg_1",
                    "output_index": 0,
                    "content_index": 0,
                    "delta": "lo.",
                },
                {**done(0, _R14_HELLO), "sequence_number": 5},
                {**completed("resp_r14a", [_R14_HELLO]), "sequence_number": 6},
                {"type": "response.create", "model": "gpt-5.1", "input": "again"},
                {**created("resp_r14b"), "sequence_number": 0},
                {"type": "error", "sequence_number": 1, "error": _R14_ERROR},
                {
                    "type": "response.failed",
                    "sequence_number": 2,
                    "response": {
                        "id": "resp_r14b",
                        "status": "failed",
                        "output": [],
                        "error": _R14_ERROR,
                    },
                },
            ),
            shows=(Code.RESPONSE_RESUMED, Code.RESPONSE_ERROR),
        ),
    ),
    Rule(
        15,
        "Annotations",
        """\
`response.output_text.annotation.added` (and the Open Responses spelling
`response.output_text_annotation.added`) adds its `annotation` to the `annotations`
of the `output_text` part its `content_index` names, at `annotation_index` (one sent
again replaces its place; none, or one past the end, appends), while the item is open.
So a message whose `output_item.done` never comes keeps its citations; a `done` item
or a snapshot that carries the part in full still gives the whole part (R7). The data
is in `model/annotations.py`.""",
        (
            "OpenAI streams citations as `annotation.added` events before "
            "`content_part.done` lists them (pydantic-ai cassettes "
            "`test_openai_include_raw_annotations_streaming`; the vercel/ai web and file "
            "search fixtures); a reducer that reads them only off the finished item "
            "loses them when the item never finishes (issue #11).",
            "openai-python's accumulator adds each annotation to its part as it arrives "
            "(`ResponseOutputTextAnnotationAddedEvent`: `annotation`, "
            "`annotation_index`, `content_index`).",
        ),
        Example(
            "A message streams its text and one citation, then the input stops: no "
            "`done`, no terminal. The part keeps the citation.",
            events=(
                created("resp_r15"),
                added(0, message("msg_1")),
                text_part_added(0, "msg_1"),
                text_delta(0, "msg_1", "See the source."),
                {
                    "type": "response.output_text.annotation.added",
                    "output_index": 0,
                    "item_id": "msg_1",
                    "content_index": 0,
                    "annotation_index": 0,
                    "annotation": _R15_CITATION,
                },
            ),
            shows=(Code.MISSING_TERMINAL,),
        ),
    ),
)
"""R1 to R15, in order."""
