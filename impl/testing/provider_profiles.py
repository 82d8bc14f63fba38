"""Provider profiles: stream transformers that add one provider's deviations.

Theory of operation
-------------------
A profile takes a protocol-valid stream (``streams.openai_stream``) and rewrites it the
way one provider or gateway is documented to deviate from OpenAI, each deviation taken
from ``reference/protocol-notes.md`` §8 (and the sections it points to), with the
evidence cited in the profile's ``evidence``.  A profile never invents behaviour that
is not recorded there; where a deviation is inferred rather than captured it says so.

Profiles are pure functions of the stream and a ``Chooser`` (some deviations vary:
which terminal field a gateway blanks, whether an ``output`` is empty or absent), and
they compose: ``apply_profiles`` runs several in order.  A profile that adds or
removes events renumbers ``sequence_number`` from 0, as the provider itself would.

Every rewrite goes through a few helpers that know where an item id lives: ``item.id``
of ``output_item.*`` events, ``item_id`` of item-scoped events, and the ids of the
``response.completed`` output items (``Place`` names which of those a rewrite sees).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum

from .choices import Chooser
from .streams import Event, GeneratedStream, Item, alnum, clone, digest, numbered

ProfileFn = Callable[[GeneratedStream, Chooser], GeneratedStream]


@dataclass(frozen=True)
class Profile:
    """One provider's deviations as a stream transformer."""

    name: str
    deviations: str
    evidence: str
    transform: ProfileFn
    fixture: str = ""
    """A recorded (or hand-reproduced) stream of this provider in ``fixtures/`` that
    shows the deviation; empty where the evidence is tracker threads only."""


class Place(Enum):
    """Where an item id sits in a stream."""

    ADDED = "added"
    SCOPED = "scoped"
    DONE = "done"
    SNAPSHOT = "snapshot"


_TERMINALS = ("response.completed", "response.incomplete", "response.failed")


def _copy(stream: GeneratedStream) -> list[Event]:
    # One copy per event: no object is shared between two events afterwards, so an
    # in-place rewrite never reaches an item twice.
    return [clone(event) for event in stream.events]


def snapshot_items(event: Event) -> list[Item]:
    """The ``response.output`` items of a terminal event (empty when there are none)."""
    response = event.get("response")
    output = response.get("output") if isinstance(response, dict) else None
    return [item for item in output if isinstance(item, dict)] if isinstance(output, list) else []


def items_in(events: list[Event]) -> Iterator[tuple[Place, int, Event, Item]]:
    """Every wire item of the stream: (place, event number, event, item)."""
    for number, event in enumerate(events):
        kind = event.get("type")
        item = event.get("item")
        if kind == "response.output_item.added" and isinstance(item, dict):
            yield Place.ADDED, number, event, item
        elif kind == "response.output_item.done" and isinstance(item, dict):
            yield Place.DONE, number, event, item
        elif kind in _TERMINALS:
            for snap in snapshot_items(event):
                yield Place.SNAPSHOT, number, event, snap


def item_types(events: list[Event]) -> dict[str, str]:
    """Each item id of the stream → its item type."""
    return {
        item["id"]: item["type"]
        for _, _, _, item in items_in(events)
        if isinstance(item.get("id"), str)
    }


Rename = Callable[[str, Place, int], str]
"""A new id for (old id, where it sits, event number)."""


def rename_ids(events: list[Event], rename: Rename) -> None:
    """Rewrite every item id in place: items' ``id`` and events' ``item_id``."""
    for place, number, _, item in list(items_in(events)):
        if isinstance(item.get("id"), str):
            item["id"] = rename(item["id"], place, number)
    for number, event in enumerate(events):
        if isinstance(event.get("item_id"), str):
            event["item_id"] = rename(event["item_id"], Place.SCOPED, number)


def rename_call_ids(events: list[Event], rename: Callable[[str, int], str]) -> None:
    """Rewrite every ``call_id``; ``rename`` gets the old id and its first-seen rank."""
    rank: dict[str, int] = {}
    for _, _, _, item in items_in(events):
        call_id = item.get("call_id")
        if isinstance(call_id, str):
            item["call_id"] = rename(call_id, rank.setdefault(call_id, len(rank)))


def _tail(item_id: str) -> str:
    return item_id.split("_", 1)[-1]


# -- Amazon Bedrock "Mantle" ----------------------------------------------------------


def _mantle_item(item: Item, output_index: int) -> None:
    if item.get("type") == "function_call" and "id" in item:
        item["item_id"] = item.pop("id")
        item["output_index"] = output_index


def bedrock_mantle(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """Amazon Bedrock's gateway: terminal function_call items carry ``item_id``, not ``id``."""
    events = _copy(stream)
    types = item_types(events)
    rename_ids(
        events,
        lambda old, place, number: f"msg_{_tail(old)}" if types.get(old) == "reasoning" else old,
    )
    rename_call_ids(events, lambda old, rank: f"call_{rank}")
    for place, _, event, item in list(items_in(events)):
        if place is Place.DONE:
            _mantle_item(item, event.get("output_index", 0))
    for event in events:
        for position, item in enumerate(snapshot_items(event)):
            _mantle_item(item, position)
    return stream.relabel(events, "profile:bedrock-mantle", data_only=True)


# -- GitHub Copilot -------------------------------------------------------------------


def _opaque(*parts: object) -> str:
    """An opaque ~400-character id like Copilot's encrypted ones."""
    return alnum(400, *parts)


def github_copilot(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """GitHub Copilot: every event of an item carries a new opaque id; ciphertext deltas."""
    events = _copy(stream)
    salt = choose.integer(0, 2**32 - 1)
    rename_ids(events, lambda old, place, number: _opaque(salt, old, place.value, number))
    for number, event in enumerate(events):
        kind = event.get("type", "")
        response = event.get("response")
        if isinstance(response, dict) and isinstance(response.get("id"), str):
            response["id"] = f"resp_{_opaque(salt, 'resp', number)[:48]}"
        if kind == "response.function_call_arguments.delta":
            # Ciphertext of the same length class; the plaintext comes only in `.done`.
            event["delta"] = alnum(max(4, len(event.get("delta", ""))), salt, "ct", number)
    return stream.relabel(events, "profile:github-copilot")


# -- LM Studio ------------------------------------------------------------------------

_RAW_REASONING: dict[str, str] = {
    "response.reasoning_summary_part.added": "response.content_part.added",
    "response.reasoning_summary_part.done": "response.content_part.done",
    "response.reasoning_summary_text.delta": "response.reasoning_text.delta",
    "response.reasoning_summary_text.done": "response.reasoning_text.done",
}


def _raw_reasoning(event: Event) -> Event:
    """A reasoning-summary event recast as LM Studio's raw ``reasoning_text`` event."""
    kind = _RAW_REASONING[event["type"]]
    moved = {k: v for k, v in event.items() if k not in ("type", "summary_index")}
    moved["content_index"] = event.get("summary_index", 0)
    if "part" in moved:
        moved["part"] = {"type": "reasoning_text", "text": moved["part"].get("text", "")}
    return {"type": kind, **moved}


def _raw_reasoning_items(events: list[Event]) -> None:
    """Reasoning items hold their text as raw ``reasoning_text`` content, not a summary."""
    for _, _, _, item in items_in(events):
        if item.get("type") == "reasoning":
            texts = [part.get("text", "") for part in item.get("summary", [])]
            item["summary"] = []
            item["content"] = [{"type": "reasoning_text", "text": text} for text in texts]


def lm_studio(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """LM Studio: no argument deltas at all, raw reasoning text, numeric call ids."""
    events = [
        _raw_reasoning(event) if event.get("type") in _RAW_REASONING else event
        for event in _copy(stream)
        if event.get("type") != "response.function_call_arguments.delta"
    ]
    types = item_types(events)
    rename_ids(
        events,
        lambda old, place, number: (
            f"fc_{alnum(20, old)}" if types.get(old) == "function_call" else old
        ),
    )
    rename_call_ids(events, lambda old, rank: f"call_{int(digest(old)[:8], 16) % 10**9}")
    _raw_reasoning_items(events)
    return stream.relabel(numbered(events), "profile:lm-studio")


# -- ChatGPT Codex backend ------------------------------------------------------------


def codex_backend(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """ChatGPT's Codex backend: ``response.completed`` without output items."""
    args_only_in_done = choose.boolean()
    events = [
        event
        for event in _copy(stream)
        if not (args_only_in_done and event.get("type") == "response.function_call_arguments.delta")
    ]
    absent = choose.boolean()
    for event in events:
        response = event.get("response")
        if event.get("type") == "response.completed" and isinstance(response, dict):
            if absent:
                response.pop("output", None)
            else:
                response["output"] = []
    label = "profile:codex-backend" + ("+spark" if args_only_in_done else "")
    return stream.relabel(numbered(events), label)


# -- gateways that blank terminal arguments -------------------------------------------


def blank_terminal_arguments(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """A gateway blanks ``arguments`` in the terminal items (done, completed, or both)."""
    events = _copy(stream)
    where = choose.choice(((Place.DONE,), (Place.SNAPSHOT,), (Place.DONE, Place.SNAPSHOT)))
    for place, _, _, item in items_in(events):
        if place in where and item.get("type") == "function_call":
            item["arguments"] = ""
    return stream.relabel(events, "profile:blank-terminal-arguments")


# -- SGLang router --------------------------------------------------------------------


def sglang(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """SGLang's router: no ``output_item.done`` for calls; a generic empty snapshot."""
    events = [
        event
        for event in _copy(stream)
        if not (
            event.get("type") == "response.output_item.done"
            and event.get("item", {}).get("type") == "function_call"
        )
    ]
    for event in events:
        response = event.get("response")
        if event.get("type") == "response.completed" and isinstance(response, dict):
            stem = digest(response.get("id"))[:24]
            response["output"] = [
                {
                    "id": f"msg_{stem}",
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "content": [],
                }
            ]
    return stream.relabel(numbered(events), "profile:sglang")


# -- vLLM -----------------------------------------------------------------------------


def _bare(*parts: object) -> str:
    return str(uuid.UUID(digest(*parts)[:32]))


def vllm(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """vLLM: bare UUID ids that differ between the stream and ``response.completed``."""
    events = _copy(stream)
    types = item_types(events)
    per_delta_index = choose.boolean()

    def rename(old: str, place: Place, number: int) -> str:
        if types.get(old) == "reasoning":
            return f"msg_{_tail(old)}" if place is not Place.SNAPSHOT else _bare(old, "final")
        return _bare(old, "final" if place is Place.SNAPSHOT else "stream")

    rename_ids(events, rename)
    if per_delta_index:
        # content_index not reset per item and incremented per delta (§8 vLLM row).
        for number, event in enumerate(
            e for e in events if e.get("type") == "response.output_text.delta"
        ):
            event["content_index"] = number
    label = "profile:vllm" + ("+content-index-per-delta" if per_delta_index else "")
    return stream.relabel(events, label)


# -- DeepSeek -------------------------------------------------------------------------


def deepseek(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """DeepSeek's ``/responses``: bare UUID ids, ``call_00_…`` call ids, raw reasoning text."""
    events = [
        _raw_reasoning(event) if event.get("type") in _RAW_REASONING else event
        for event in _copy(stream)
    ]
    salt = choose.integer(0, 2**32 - 1)
    # Unlike vLLM's, DeepSeek's ids are the same in the stream and the snapshot.
    rename_ids(events, lambda old, place, number: _bare(salt, old))
    rename_call_ids(events, lambda old, rank: f"call_{rank:02d}_{alnum(24, salt, old)}")
    _raw_reasoning_items(events)
    response_id = _bare(salt, "response")
    for event in events:
        response = event.get("response")
        if isinstance(response, dict) and "id" in response:
            response["id"] = response_id
    return stream.relabel(events, "profile:deepseek")


# -- LiteLLM in front of vLLM ---------------------------------------------------------


def _pad_arguments(events: list[Event], call_ids: set[str]) -> None:
    """A space before and after each listed call's streamed arguments, as kimi-k2 sends."""
    deltas: dict[str, list[Event]] = {}
    for event in events:
        item_id = event.get("item_id")
        if event.get("type") == "response.function_call_arguments.delta" and item_id in call_ids:
            deltas.setdefault(item_id, []).append(event)
    for run in deltas.values():
        run[0]["delta"] = " " + run[0]["delta"]
        run[-1]["delta"] += " "
    for place, _, _, item in items_in(events):
        if place is Place.DONE and item.get("id") in deltas:
            item["arguments"] = f" {item.get('arguments', '')} "
    for event in events:
        if (
            event.get("type") == "response.function_call_arguments.done"
            and event.get("item_id") in deltas
        ):
            event["arguments"] = f" {event.get('arguments', '')} "


def litellm_vllm_rekey(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """LiteLLM → vLLM: the terminal snapshot re-keys every call (id, call_id, trimmed args)."""
    events = _copy(stream)
    types = item_types(events)
    streamed = {old for old, kind in types.items() if kind == "function_call"}
    if choose.boolean():
        _pad_arguments(events, set(streamed))
    rename_ids(
        events,
        lambda old, place, number: (
            f"fc_{digest(old, 'final')[:8]}"
            if place is Place.SNAPSHOT and old in streamed
            else digest(old, "stream")[:8]
        ),
    )
    for event in events:
        calls = [i for i in snapshot_items(event) if i.get("type") == "function_call"]
        for rank, item in enumerate(calls):
            item["call_id"] = f"functions.{item.get('name')}:{rank}"
            if isinstance(item.get("arguments"), str):
                item["arguments"] = item["arguments"].strip()
    return stream.relabel(events, "profile:litellm-vllm-rekey")


def litellm_done_order(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """LiteLLM: the ``output_item.done`` events arrive last and out of ``output_index`` order."""
    events = _copy(stream)
    done = [e for e in events if e.get("type") == "response.output_item.done"]
    rest = [e for e in events if e.get("type") != "response.output_item.done"]
    # Highest slot first: each done still follows every other event of its item.
    done.sort(key=lambda event: -int(event.get("output_index", 0)))
    end = len(rest) - 1
    return stream.relabel(
        numbered([*rest[:end], *done, *rest[end:]]), "profile:litellm-done-order"
    )


# -- OpenRouter -----------------------------------------------------------------------


def openrouter(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """OpenRouter: ``*_tmp_`` ids, a new reasoning id in the snapshot, arguments only there."""
    events = [
        event
        for event in _copy(stream)
        if event.get("type") != "response.function_call_arguments.delta"
    ]
    types = item_types(events)

    def rename(old: str, place: Place, number: int) -> str:
        if types.get(old) == "reasoning":
            return f"rs_tmp_{alnum(11, old, place is Place.SNAPSHOT)}"
        return f"fc_tmp_{alnum(11, old)}" if types.get(old) == "function_call" else old

    rename_ids(events, rename)
    for place, _, _, item in items_in(events):
        if place is not Place.SNAPSHOT and item.get("type") == "function_call":
            item["arguments"] = ""
    for event in events:
        if event.get("type") == "response.function_call_arguments.done":
            event["arguments"] = ""
    return stream.relabel(numbered(events), "profile:openrouter")


# -- Chat Completions → Responses gateways --------------------------------------------


def chat_gateway_slot_collision(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """A gateway gives a function call the ``output_index`` of the text item before it."""
    events = _copy(stream)
    # Such gateways translate one chat chunk at a time: items run one after another.
    positions = [n for n, event in enumerate(events) if "output_index" in event]
    ordered = sorted((events[n] for n in positions), key=lambda e: int(e["output_index"]))
    for n, event in zip(positions, ordered, strict=True):
        events[n] = event
    kinds = {
        int(e["output_index"]): e["item"].get("type")
        for e in events
        if e.get("type") == "response.output_item.added" and isinstance(e.get("item"), dict)
    }
    collide = next(
        (
            slot
            for slot, kind in sorted(kinds.items())
            if kind == "function_call" and kinds.get(slot - 1) in ("message", "reasoning")
        ),
        None,
    )
    if collide is not None:
        for n in positions:
            if events[n]["output_index"] >= collide:
                events[n]["output_index"] -= 1
    return stream.relabel(numbered(events), "profile:chat-gateway-slot-collision")


# -- vLLM, zero-argument calls --------------------------------------------------------


def vllm_zero_argument_calls(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """vLLM (non-Harmony): a call without arguments has no delta and no ``arguments.done``."""
    events = _copy(stream)
    calls = [
        item["id"]
        for place, _, _, item in items_in(events)
        if place is Place.ADDED and item.get("type") == "function_call"
    ]
    empty = {call for call in calls if choose.boolean()} or set(calls[:1])
    events = [
        event
        for event in events
        if not (
            event.get("type", "").startswith("response.function_call_arguments.")
            and event.get("item_id") in empty
        )
    ]
    for place, _, _, item in items_in(events):
        if place is not Place.ADDED and item.get("id") in empty:
            item["arguments"] = "{}"
    return stream.relabel(numbered(events), "profile:vllm-zero-argument-calls")


# -- Onyx -----------------------------------------------------------------------------


def onyx(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """Onyx's gateway: the terminal snapshot rebuilds each call with a fresh item id."""
    events = _copy(stream)
    types = item_types(events)
    rename_ids(
        events,
        lambda old, place, number: (
            f"fc_{alnum(24, old, 'rebuilt')}"
            if place is Place.SNAPSHOT and types.get(old) == "function_call"
            else old
        ),
    )
    return stream.relabel(events, "profile:onyx")


# -- keepalives and unknown events ----------------------------------------------------


def _unknown(choose: Chooser, stream_events: list[Event]) -> Event:
    scoped = [e for e in stream_events if isinstance(e.get("item_id"), str)]
    if scoped and choose.boolean():
        target = choose.choice(scoped)
        return {
            "type": "response.x_search_call.in_progress",
            "item_id": target["item_id"],
            "output_index": target.get("output_index", 0),
        }
    return {"type": "acme:trace_event", "trace": {"span": alnum(8, len(stream_events))}}


def keepalive_unknown(stream: GeneratedStream, choose: Chooser) -> GeneratedStream:
    """``keepalive`` events and unknown (extension or provider) events mid-stream."""
    events = _copy(stream)
    for _ in range(choose.integer(1, 3)):
        extra: Event = (
            {"type": "keepalive"} if choose.boolean() else _unknown(choose, events)
        )
        events.insert(choose.integer(1, len(events) - 1), extra)
    return stream.relabel(numbered(events), "profile:keepalive-unknown")


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "bedrock-mantle",
            "output_item.done and response.completed function_call items lose `id`, carry "
            "it as `item_id` plus a stray `output_index`; call_ids numbered call_0, call_1; "
            "reasoning ids msg_…; data-only SSE frames",
            "protocol-notes §8 Bedrock Mantle rows (anomalyco/opencode#46885, #45081, "
            "#46084; pydantic/pydantic-ai#6536); data-only frames §1.1. msg_ reasoning ids "
            "are recorded in §8 for vLLM (vllm#24788), the stack Mantle's gpt-oss models "
            "share: inferred, not captured from Mantle",
            bedrock_mantle,
        ),
        Profile(
            "github-copilot",
            "every event of an item carries a different opaque ~400-char item id; output_index "
            "and call_id stable; argument deltas are ciphertext, plaintext only in .done; "
            "the response id rotates",
            "protocol-notes §8 GitHub Copilot row (vercel/ai#18548, BerriAI/litellm#30072, "
            "lidge-jun/opencodex#995, #996; Menci/Floway#119)",
            github_copilot,
            "fixtures/captures/vercel-ai/openai__github-copilot-id-rotation.1.jsonl",
        ),
        Profile(
            "lm-studio",
            "no function_call_arguments.delta, only .done; call_id call_<digits>; item ids "
            "fc_<20 alnum>; raw reasoning via content_part.added(reasoning_text) and "
            "reasoning_text.delta",
            "protocol-notes §8 LM Studio row and §4 (WIRE lmstudio-tool-call.1/.2)",
            lm_studio,
            "fixtures/peers/ai-sdk/open-responses__lmstudio-tool-call.1.jsonl",
        ),
        Profile(
            "codex-backend",
            "response.completed.output is [] or absent; items only via output_item.done; "
            "sometimes (gpt-5.3-codex-spark) arguments only in .done",
            "protocol-notes §8 ChatGPT Codex backend row (NousResearch/hermes-agent#5689, "
            "sipeed/picoclaw#2674, BerriAI/litellm#26075, tailcallhq/forgecode#2558)",
            codex_backend,
        ),
        Profile(
            "blank-terminal-arguments",
            "a gateway sends arguments \"\" in output_item.done and/or response.completed",
            "protocol-notes §6 item 2 (Wei-Shaw/sub2api#6629) and DESIGN (AxonHub's bug)",
            blank_terminal_arguments,
        ),
        Profile(
            "sglang",
            "no output_item.done after arguments.done; response.completed.output is one "
            "generic empty message",
            "protocol-notes §8 SGLang router row (sgl-project/sglang#12652)",
            sglang,
        ),
        Profile(
            "vllm",
            "bare UUID ids; reasoning ids msg_…; completed ids differ from streamed ids; "
            "sometimes content_index incremented per delta",
            "protocol-notes §8 vLLM row (vllm-project/vllm#44608, #47916, #45742, #35184, "
            "#29947, #36445, #24788)",
            vllm,
        ),
        Profile(
            "deepseek",
            "bare UUID response and item ids (the same in the stream and the snapshot); "
            "call_ids call_00_<24 alnum>, numbered per response; reasoning as raw "
            "reasoning_text content parts, empty summary",
            "fixtures/quirks/README.md ('also seen in the captures'), captured in "
            "fixtures/captures/pydantic-ai/test_deepseek_responses_*; not in protocol-notes "
            "§8, which predates the captures",
            deepseek,
            "fixtures/captures/pydantic-ai/test_deepseek_responses_function_tool_stream.i0.jsonl",
        ),
        Profile(
            "litellm-vllm-rekey",
            "the terminal snapshot re-keys every function call: a new id, call_id "
            "functions.<name>:<n> instead of the streamed one, whitespace-trimmed arguments "
            "(the streamed arguments sometimes carry a space either side)",
            "fixtures/quirks q05 (an opencode recording of DigitalOcean's LiteLLM → vLLM "
            "gateway, kimi-k2.6); vllm-project/vllm#47916 (call_id half); protocol-notes §8 "
            "vLLM row (snapshot ids differ)",
            litellm_vllm_rekey,
            "fixtures/quirks/q05-vllm-snapshot-rekeys-call.jsonl",
        ),
        Profile(
            "litellm-done-order",
            "output_item.done events held back and sent last, highest output_index first",
            "fixtures/quirks q08 (BerriAI/litellm#36356); protocol-notes §8 LiteLLM row",
            litellm_done_order,
            "fixtures/quirks/q08-litellm-done-out-of-order.jsonl",
        ),
        Profile(
            "openrouter",
            "fc_tmp_/rs_tmp_ item ids; the snapshot gives the reasoning item a new rs_tmp_ "
            "id; no argument deltas, an empty function_call_arguments.done and empty done "
            "arguments: the arguments only in the terminal snapshot",
            "protocol-notes §8 OpenRouter row (rbb-dev/Open-WebUI-OpenRouter-pipe#54); "
            "fixtures/quirks q06 (pydantic-ai cassette "
            "test_openai_responses_raw_cot_stream_openrouter) and q07 "
            "(OpenRouterTeam/ai-sdk-provider#336)",
            openrouter,
            "fixtures/quirks/q07-openrouter-args-only-in-completed.jsonl",
        ),
        Profile(
            "chat-gateway-slot-collision",
            "items streamed one after another; the first function call that follows a "
            "reasoning or message item gets that item's output_index (and every later slot "
            "moves down one); the snapshot still lists every item",
            "fixtures/quirks q09 (decolua/9router#2611, diegosouzapw/OmniRoute#10025 and "
            "#9822, Helicone/helicone#5325, router-for-me/CLIProxyAPI#4430); protocol-notes "
            "§8 misc gateways row",
            chat_gateway_slot_collision,
            "fixtures/quirks/q09-gateway-output-index-collision.jsonl",
        ),
        Profile(
            "vllm-zero-argument-calls",
            "a call without arguments gets no function_call_arguments.delta and no .done; "
            "its done and snapshot items carry arguments \"{}\"",
            "fixtures/quirks q10 (vllm-project/vllm#54236); protocol-notes §8 vLLM row",
            vllm_zero_argument_calls,
            "fixtures/quirks/q10-vllm-zero-arg-no-args-done.jsonl",
        ),
        Profile(
            "onyx",
            "the terminal snapshot rebuilds each function call with a fresh item id and "
            "the same call_id",
            "fixtures/quirks q11 (onyx-dot-app/onyx#13624); protocol-notes §8 misc gateways "
            "row",
            onyx,
            "fixtures/quirks/q11-onyx-completed-new-item-id.jsonl",
        ),
        Profile(
            "keepalive-unknown",
            "keepalive events and unknown events (slug-prefixed extensions, xAI's "
            "response.x_search_call.*) mid-stream, each consuming a sequence number",
            "protocol-notes §1.4 (openai/openai-node#1964), §1.5 and §8 xAI row",
            keepalive_unknown,
        ),
    )
}
"""Every profile, by name."""


def apply_profiles(
    stream: GeneratedStream, names: tuple[str, ...], choose: Chooser
) -> GeneratedStream:
    """``stream`` transformed by the named profiles, in order."""
    for name in names:
        stream = PROFILES[name].transform(stream, choose)
    return stream
