"""Upstream-ready reports: one bug report and one failing test per cluster (``diff --report-dir``).

Rules
-----
1. A report speaks the client's language: its title names the client's own API
   (``get_final_response()``, ``streamText()``'s ``toolCalls``) and what the app gets
   there, and its test is written in the client's own test style (pytest with a mocked
   SSE transport given as ``http_client=``; ``node:test`` with a ``fetch`` that answers
   with the stream; for AxonHub a ``_test.go`` file of the package it tests,
   ``llm/transformer/openai/responses``, that feeds the stream through its own SSE
   decoder, written for the checkout the candidate was built against).  A generated
   test never imports responses-oracle: a maintainer pastes it into their repository,
   so every expected value is a literal.
2. A report states only what was run: the stream is the cluster's representative made
   readable (short ids, realistic arguments, no fields the case does not need), and it
   is kept only where the candidate, run on it again, still shows the cluster's cause;
   else a less tidied form is tried, down to the representative as it was.  The actual
   value is the candidate's answer to that stream, seen through the same view as the
   test's (``STYLES``), so that ``tests/testing/test_upstream.py`` can check, by running
   each test against the pinned client, that it fails and fails with that value.
3. No test is written where none can state the fix: a cause the candidate no longer
   shows (a run recorded with another version or set-up), a class a client may choose
   on purpose (``TOLERABLE``), a body of several responses (the SDKs answer one response
   per call), a candidate that is not a built-in client, or a difference the client's
   API does not show (the view agrees with the expectation).  The report says which.

Theory of operation
-------------------
``write_reports`` takes a run's clusters as JSON (``Cluster.to_json()``, or a cluster
of the Real clients record: the same fields) and, per cluster, ``report_for`` tidies
the representative (``tidied``: ``_TIDYINGS`` in order, each checked by running the
candidate), computes the oracle's answer and the candidate's, both seen through the
client's ``Style``, and renders ``<id>.md`` and ``<id>/<test file>`` from the
templates in ``upstream_templates/``.  The expectation is what a correct client hands
its app: every item the oracle keeps, except a call it keeps unconfirmed in a completed
response (no app should run it), in a response that did not complete only the
confirmed calls; for the AI SDK the messages' text, the tool calls it would run and
whether the response completed.  ``_item_view`` and the ``_*_view`` functions restate
the templates' ``view`` in Python on purpose: the expectation and the actual value are
computed from the oracle's and the adapter's wire-shaped answers, independently of the
test that reads the client's own objects, and the suite checks that the two agree.
"""

from __future__ import annotations

import json
import pprint
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.metadata import version
from pathlib import Path
from typing import Any

from responses_oracle.model.divergence import (
    HYPOTHESES,
    RAISED_ON_INVALID_SAYS,
    TOLERABLE,
    Divergence,
    Hypothesis,
)
from responses_oracle.model.rules import RULES
from responses_oracle.model.vocabulary import ResponseStatus
from responses_oracle.streamgen.provenance import source_of
from responses_oracle.streamgen.streams import Event, GeneratedStream
from responses_oracle.words import counted

from .candidate import NODE_ADAPTERS, Answer, Candidate, Failure, declared_tools
from .cause import judged
from .compare import as_parsed
from .harness import answers_of
from .hypotheses import explained
from .openai_candidate import app_tools
from .oracle_trace import oracle_json

MAX_EVENTS = 8
"""The longest stream a report shows as readable; a longer representative is shown as
it is, with its length said."""

# -- how each client's app sees an answer --------------------------------------------

View = dict[str, Any]
"""What an app reads from one response, in the client's terms (a test's ``got``)."""


def _texts(parts: Any, kind: str) -> str:
    return "".join(str(part.get("text", "")) for part in parts or []
                   if isinstance(part, Mapping) and part.get("type") == kind)


def _item_view(item: Mapping[str, Any], ids: bool) -> dict[str, Any]:
    """An output item as an app of the OpenAI SDKs reads it (the templates' ``view``):
    its id only in a report about ids."""
    seen: dict[str, Any] = {"type": item.get("type")}
    if ids:
        seen["id"] = item.get("id")
    if item.get("type") == "function_call":
        seen.update(call_id=item.get("call_id"), name=item.get("name"),
                    arguments=item.get("arguments"))
    elif item.get("type") == "custom_tool_call":
        seen.update(call_id=item.get("call_id"), name=item.get("name"), input=item.get("input"))
    elif item.get("type") == "message":
        seen["text"] = _texts(item.get("content"), "output_text")
    elif item.get("type") == "reasoning":
        seen["text"] = _texts(item.get("summary"), "summary_text")
    return seen


def _openai_view(result: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
                 ids: bool) -> View:
    status = (result.get("response") or {}).get("status")
    return {"status": status, "output": [_item_view(item, ids) for item in items]}


def _agents_view(result: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
                 ids: bool) -> View:
    return {"output": [_item_view(item, ids) for item in items]}


def _tool_calls(items: Sequence[Mapping[str, Any]], parsed: bool) -> list[dict[str, Any]]:
    """The AI SDK's tool calls: a function call's input is its arguments (parsed, for
    ``streamText``); a custom tool's, its input (JSON-encoded by the provider)."""
    calls = []
    for item in items:
        kind = item.get("type")
        if kind == "function_call":
            arguments = item.get("arguments")
            given = as_parsed(arguments) if parsed else arguments
        elif kind == "custom_tool_call":
            text = item.get("input")
            given = text if parsed else json.dumps(text, ensure_ascii=False)
        else:
            continue
        calls.append({"toolCallId": item.get("call_id"), "toolName": item.get("name"),
                      "input": given})
    return calls


def _completed(result: Mapping[str, Any]) -> bool:
    return (result.get("response") or {}).get("status") == ResponseStatus.COMPLETED.value


def _text(items: Sequence[Mapping[str, Any]]) -> str:
    """The messages' text, as the AI SDK's text parts hand it over: one string."""
    return "".join(_texts(item.get("content"), "output_text") for item in items
                   if item.get("type") == "message")


def _ai_sdk_view(result: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
                 ids: bool) -> View:
    return {"completed": _completed(result), "text": _text(items),
            "toolCalls": _tool_calls(items, parsed=False)}


def _streamtext_view(result: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
                     ids: bool) -> View:
    return {"completed": _completed(result), "text": _text(items),
            "toolCalls": _tool_calls(items, parsed=True)}


def gateway_view(result: Mapping[str, Any], items: Sequence[Mapping[str, Any]],
                  ids: bool) -> View:
    """AxonHub's streamed chunks as its client adds them up: the status its finish
    reason says, the text, and the tool calls (a custom tool's input as its
    arguments; the chunks carry no item id)."""
    calls = [{"call_id": item.get("call_id"), "name": item.get("name"),
              "arguments": item.get("arguments" if item.get("type") == "function_call"
                                    else "input")}
             for item in items if item.get("type") in ("function_call", "custom_tool_call")]
    status = (result.get("response") or {}).get("status")
    return {"status": status, "text": _text(items), "tool_calls": calls}


@dataclass(frozen=True)
class Style:
    """How one client's reports and tests are written."""

    package: str
    registry: str
    api: str
    """The client's API an app reads the answer from, as the title names it."""
    template: str
    """The test's template in ``upstream_templates/``."""
    file: str
    """The test's file name, ``{name}`` the test's name."""
    view: Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], bool], View]
    """A result (the oracle's or the candidate's wire-shaped one) and its items as the
    test's ``got``, with item ids or not (the AI SDK's tool calls have none)."""
    command: str
    """How a maintainer runs the test."""
    calls: str = "call"
    """What the client calls a call its app runs (the AI SDK: a tool call)."""
    items: frozenset[str] | None = None
    """The item types the view shows (None: every type); a difference on another type,
    or on an item id where ``ids`` is False, cannot be stated by a test of this view."""
    ids: bool = True
    """Whether the client's API carries item ids at all."""
    fields: frozenset[str] | None = None
    """The item fields the view shows (None: not checked); a difference in another field
    (a call's ``namespace``) cannot be stated by a test of this view."""

    def version(self, src: str | None = None) -> str:
        """The installed version of the client's package (a Go candidate's: its pinned
        module, or the commit of the checkout ``src`` it was built against)."""
        if self.registry == GO_CHECKOUT:
            return checkout_version(src)
        return package_version(self.package, self.registry)


GO_CHECKOUT = "a checkout"
"""The registry of a Go module built from a checkout (AxonHub's, not on the proxy)."""


def checkout_version(src: str | None) -> str:
    """The commit of the AxonHub checkout ``src`` (or ``AXONHUB_SRC``), as git names it,
    else the folder's name."""
    from .go_candidates import checkout_of

    given = checkout_of(src)
    if given is None:
        return "(no checkout given)"
    done = subprocess.run(["git", "-C", given, "log", "-1", "--format=%h"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else Path(
        given).name


def package_version(package: str, registry: str) -> str:
    """The installed version of a client: a Python distribution, a package of the
    checkout's Node adapters, or a Go module its adapter's go.mod pins."""
    if registry == "PyPI":
        return version(package)
    if registry == "the Go module proxy":
        from .go_candidates import GO_ADAPTERS

        pinned = re.search(rf"^\s*(?:require\s+)?{re.escape(package)}\s+(\S+)",
                           (GO_ADAPTERS / "openai-go" / "go.mod").read_text("utf-8"),
                           re.MULTILINE)
        return pinned.group(1) if pinned else "(not pinned)"
    manifest = NODE_ADAPTERS / "node_modules" / package / "package.json"
    return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


AXONHUB_LLM = "github.com/looplj/axonhub/llm"
"""AxonHub's module that holds its Responses transformer."""

GO_TEST = ("cp {path} llm/transformer/openai/responses/ && "
           "(cd llm && go test ./transformer/openai/responses/ -run '^{test}$')")
"""How an AxonHub maintainer runs a report's test: dropped into the package it tests."""

ITEM_FIELDS = frozenset({"type", "id", "call_id", "name", "arguments", "input", "content",
                         "summary"})
"""The item fields ``_item_view`` shows (the id only in a report about ids)."""

GATEWAY_FIELDS = frozenset({"call_id", "name", "arguments", "input", "content"})
"""The item fields ``gateway_view`` shows."""

STYLES: dict[str, Style] = {
    "openai-python": Style("openai", "PyPI", "`get_final_response()`", "openai_python.py.tmpl",
                           "test_{name}.py", _openai_view, "pytest {path}"),
    "openai-agents": Style("openai-agents", "PyPI", "`Runner.run_streamed()`",
                           "openai_agents.py.tmpl", "test_{name}.py", _agents_view,
                           "pytest {path}"),
    "openai-node": Style("openai", "npm", "`finalResponse()`", "openai_node.test.mjs.tmpl",
                         "{name}.test.mjs", _openai_view, "node --test {path}"),
    "ai-sdk": Style("@ai-sdk/openai", "npm", "`doStream()`", "ai_sdk.test.mjs.tmpl",
                    "{name}.test.mjs", _ai_sdk_view, "node --test {path}", "tool call"),
    "ai-streamtext": Style("ai", "npm", "`streamText()`", "ai_streamtext.test.mjs.tmpl",
                           "{name}.test.mjs", _streamtext_view, "node --test {path}",
                           "tool call"),
    "openai-go": Style("github.com/openai/openai-go/v3", "the Go module proxy",
                       "the terminal event's `Response`", "openai_go_test.go.tmpl",
                       "oracle_{name}_test.go", _openai_view,
                       "cp {path} responses/ && go test ./responses/ -run '^{test}$'",
                       fields=ITEM_FIELDS),
    "axonhub-stream": Style(AXONHUB_LLM, GO_CHECKOUT, "`TransformStream()`'s chunks",
                            "axonhub_stream_test.go.tmpl", "oracle_{name}_test.go",
                            gateway_view, GO_TEST,
                            items=frozenset({"message", "function_call", "custom_tool_call"}),
                            ids=False, fields=GATEWAY_FIELDS),
    "axonhub-stored": Style(AXONHUB_LLM, GO_CHECKOUT, "`AggregateStreamChunks()`",
                            "axonhub_stored_test.go.tmpl", "oracle_{name}_test.go",
                            _openai_view, GO_TEST, fields=ITEM_FIELDS),
}
"""The built-in clients' styles, by candidate name."""

_CONFIRMED = frozenset({"completed", "done", "payload_done"})
"""Entry states of an item confirmed by a done event or the snapshot (R9)."""


def expected_items(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The items a correct client hands its app for the oracle's ``result``: all it
    keeps, except a call it keeps unconfirmed (no app should run it); in a response
    that did not complete, the confirmed calls (the status tells the app)."""
    from .taxonomy import is_call

    completed = _completed(result)
    kept = []
    for entry in result.get("items") or []:
        item = entry["item"]
        if is_call(item) and not (
            entry.get("executable") is True
            or (not completed and entry.get("state") in _CONFIRMED)
        ):
            continue
        kept.append(item)
    return kept


def answer_items(answer: Sequence[Mapping[str, Any]]) -> tuple[Mapping[str, Any], list[Any]]:
    """A candidate's one result and its wire items."""
    [result] = answer
    entries = result.get("items") or []
    return result, [e.get("item", e) for e in entries if isinstance(e, Mapping)]


# -- making a representative readable ------------------------------------------------

_NOISE = ("object", "created_at", "model", "sequence_number")
"""Fields a case rarely needs: dropped where the candidate still shows the cause."""

_ARGUMENTS = (
    '{"city":"Paris"}',
    '{"city":"Tokyo","unit":"celsius"}',
    '{"query":"weather in Lisbon"}',
    '{"path":"src/app.py","line":12}',
    '{"city":"Oslo","days":3}',
    '{"ticker":"ACME"}',
)
"""Arguments a weather or coding app's tools take, for generated ones."""

_SHORT = 24
"""Ids at most this long are kept as they are (``functions.get_weather:0``)."""


def _walk(node: Any, visit: Callable[[str, Any], Any]) -> Any:
    """A copy of ``node`` with ``visit(key, value)`` applied to every keyed value."""
    if isinstance(node, Mapping):
        return {k: visit(k, _walk(v, visit)) for k, v in node.items()}
    if isinstance(node, list):
        return [_walk(v, visit) for v in node]
    return node


def short_ids(events: Sequence[Event]) -> list[Event]:
    """``events`` with every long id (``id``, ``item_id``, ``call_id``) renamed
    ``<prefix>_<n>``: equal ids stay equal, distinct ones distinct."""
    names: dict[str, str] = {}
    counts: dict[str, int] = {}

    def rename(key: str, value: Any) -> Any:
        if key not in ("id", "item_id", "call_id") or not isinstance(value, str):
            return value
        if len(value) <= _SHORT:
            return value
        if value not in names:
            prefix = value.split("_", 1)[0] if "_" in value[:8] else "id"
            counts[prefix] = counts.get(prefix, 0) + 1
            names[value] = f"{prefix}_{counts[prefix]}"
        return names[value]

    return [_walk(event, rename) for event in events]


def quiet(events: Sequence[Event]) -> list[Event]:
    """``events`` without the fields a case rarely needs and without ``null`` fields of
    a response object."""
    def drop(node: Any, top: bool) -> Any:
        if isinstance(node, Mapping):
            return {k: drop(v, False) for k, v in node.items()
                    if k not in _NOISE and not (k == "response" and v is None)
                    and not (not top and v is None and k in ("error", "incomplete_details"))}
        if isinstance(node, list):
            return [drop(v, False) for v in node]
        return node

    return [drop(event, True) for event in events]


def realistic_arguments(events: Sequence[Event]) -> list[Event]:
    """``events`` with every function call's arguments replaced by realistic ones:
    each distinct text (whitespace around it kept) by one of ``_ARGUMENTS``, an item's
    deltas re-split from their whole text.  Empty stays empty."""
    mapping: dict[str, str] = {}

    def real(text: str) -> str:
        core = text.strip()
        if not core:
            return text
        if core not in mapping:
            mapping[core] = _ARGUMENTS[len(mapping) % len(_ARGUMENTS)]
        head = text[: len(text) - len(text.lstrip())]
        return head + mapping[core] + text[len(text.rstrip()):]

    def call(key: str, value: Any) -> Any:
        if isinstance(value, Mapping) and value.get("type") == "function_call" and isinstance(
            value.get("arguments"), str
        ):
            return {**value, "arguments": real(value["arguments"])}
        return value

    out: list[Event] = []
    deltas: dict[Any, list[int]] = {}
    for event in events:
        event = _walk(event, call)
        kind = event.get("type")
        if kind == "response.function_call_arguments.done" and isinstance(
            event.get("arguments"), str
        ):
            event = {**event, "arguments": real(event["arguments"])}
        elif kind == "response.function_call_arguments.delta":
            deltas.setdefault(event.get("item_id", event.get("output_index")), []).append(
                len(out))
        out.append(event)
    for numbers in deltas.values():
        whole = real("".join(str(out[n].get("delta", "")) for n in numbers))
        step = -(-len(whole) // len(numbers))
        for piece, n in enumerate(numbers):
            out[n] = {**out[n], "delta": whole[piece * step:(piece + 1) * step]}
    return out


_TIDYINGS: tuple[Callable[[Sequence[Event]], list[Event]], ...] = (
    lambda e: realistic_arguments(quiet(short_ids(e))),
    lambda e: quiet(short_ids(e)),
    short_ids,
    list,
)
"""The ways to make a representative readable, most readable first; the last keeps it."""


def shows(cluster: Mapping[str, Any], events: Sequence[Event], answer: Answer) -> bool:
    """True when ``answer`` to ``events`` still shows the cluster's cause: its policy's
    explanation, its failure, or its class, rule and decision."""
    signatures = judged(events, answer).signatures
    policy = cluster.get("hypothesis")
    if policy:
        return Hypothesis(policy["name"]) in explained(events, answer) and cluster["class"] in {
            s.divergence.value for s in signatures}
    if cluster.get("failure"):
        return cluster["failure"] in {s.failure for s in signatures}
    return (cluster["class"], cluster["rule"], cluster["decision"]) in {
        (s.divergence.value, s.rule, s.decision) for s in signatures}


def tidied(
    cluster: Mapping[str, Any], candidate: Candidate
) -> tuple[list[Event], Answer, bool]:
    """The most readable form of the representative on which the candidate still shows
    the cluster's cause, the candidate's answer to it, and whether it does show it (rule
    2; not: the representative as it is)."""
    events: list[Event] = list(cluster["events"])
    variants = [tidy(events) for tidy in _TIDYINGS]
    answers = answers_of(candidate, [GeneratedStream(tuple(v)) for v in variants])
    for variant, answer in zip(variants, answers, strict=True):
        if shows(cluster, variant, answer):
            return variant, answer, True
    return events, answers[-1], False


# -- the words of a title ------------------------------------------------------------

SITUATIONS: dict[str, str] = {
    "empty_payload_ignored": "when a later event blanks them",
    "empty_payload_filled": "when the done events blank them and a later event holds them",
    "snapshot_missing_item": "when `response.completed` leaves the item out",
    "snapshot_absent": "when `response.completed` carries no output",
    "after_terminal": "when events arrive after the terminal event",
    "id_renamed_field": "when the item's id arrives as `item_id`",
    "id_only_as_item_id": "when the done item names itself by `item_id` only",
    "id_adopted_from_slot": "when the item carries no id of its own",
    "id_changed": "when a later event gives the item another id",
    "id_minted": "when no event gives the item an id",
    "duplicate_item": "when the same item is sent twice",
    "slot_reused": "when two items share one `output_index`",
    "metadata_conflict": "when a later event renames the call",
    "snapshot_rekeyed": "when `response.completed` re-keys the call",
    "divergent_payload": "when the done event and the snapshot disagree",
    "payload_extended": "when the done event extends the streamed text",
    "invalid_json_arguments": "when the arguments are not JSON",
    "response_id_changed": "when the response id changes mid-stream",
    "missing_terminal": "when the stream ends without a terminal event",
    "response_error": "when the response ends incomplete or failed",
    "unconfirmed_item": "when the item is never confirmed",
    "orphan_event": "when an event names no known item",
}
"""What a reference decision's code says of the stream, as the end of a title."""

_BLANKERS = (
    ("response.completed", "`response.completed` blanks them"),
    ("response.output_item.done", "`response.output_item.done` blanks them"),
    ("response.function_call_arguments.done", "`function_call_arguments.done` is empty"),
)


def _blanked_by(events: Sequence[Event]) -> str | None:
    """Which event of ``events`` carries empty arguments (the last such), in words."""
    found = None
    for event in events:
        kind = event.get("type")
        items = [event.get("item")]
        response = event.get("response")
        if isinstance(response, Mapping):
            items += response.get("output") or []
        blank = event.get("arguments") == "" or any(
            isinstance(i, Mapping) and i.get("arguments") == "" for i in items)
        for name, words in _BLANKERS:
            if kind == name and blank:
                found = words
    return found


def _focus(cluster: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The difference a title is about: the first of the cluster's class."""
    differences = cluster.get("differences") or []
    return next((d for d in differences if d.get("class") == cluster["class"]),
                differences[0] if differences else None)


def _what(cluster: Mapping[str, Any], style: Style | None) -> str:
    """What the app gets wrong, in a few words."""
    if cluster.get("failure") and cluster["class"] == Divergence.CANDIDATE_RAISED_ON_INVALID.value:
        return f"{RAISED_ON_INVALID_SAYS} (`{cluster['failure']}`)"
    if cluster.get("failure"):
        return f"raises `{cluster['failure']}`"
    focus = _focus(cluster) or {}
    path = str(focus.get("path", ""))
    field_name = path.rsplit(".", 1)[-1]
    ours, theirs = focus.get("reference"), focus.get("candidate")
    aspect = cluster.get("kind")
    calls = style.calls if style is not None else "call"
    kind = cluster["class"]
    if field_name in ("arguments", "input"):
        said = "input" if calls == "tool call" else field_name
        if theirs in ("", {}, None) and ours:
            return f"returns empty `{said}`"
        return f"returns other `{said}` than the stream's"
    if kind == Divergence.PAYLOAD_DIFFERS.value:
        return "returns other text than the stream's"
    if kind == Divergence.CONFIRMED_CALL_LOST.value:
        return f"drops a confirmed {calls}"
    if kind == Divergence.ITEM_LOST.value:
        what = ours.get("type") if isinstance(ours, Mapping) else "item"
        return f"drops the `{what}`"
    if kind == Divergence.CALL_INVENTED.value:
        return f"returns a {calls} the stream never made"
    if kind == Divergence.UNCONFIRMED_CALL_KEPT.value:
        return f"hands over a {calls} of a response that did not complete"
    if field_name in ("call_id", "name", "id"):
        return f"returns another `{field_name}`"
    return {"order": "reorders the output", "status": "reports another status",
            "responses": "merges the responses of one body"}.get(str(aspect),
                                                                 f"differs ({kind})")


def title(cluster: Mapping[str, Any], client: str, events: Sequence[Event]) -> str:
    """The report's one-line title, in the client's terms."""
    style = STYLES.get(client)
    api = style.api if style is not None else f"`{client}`"
    what = _what(cluster, style)
    when = SITUATIONS.get(str(cluster.get("decision")), "")
    if cluster.get("decision") == "empty_payload_ignored":
        blanker = _blanked_by(events)
        when = f"when {blanker}" if blanker else when
    if cluster.get("hypothesis"):
        mistake = HYPOTHESES[Hypothesis(cluster["hypothesis"]["name"])].mistake
        return f"{api} {mistake}, so it {what}"
    return " ".join(part for part in (api, what, when) if part)


# -- provenance ----------------------------------------------------------------------


def provenance(cluster: Mapping[str, Any], labels: Sequence[str]) -> str:
    """The recorded streams of the cluster's cases (``sources`` that are recordings
    given as corpus): shapes this client was run on and got wrong.  A provider profile's
    shape is a generated stream, not a recording the client was run on, so it is named
    as that ("generated in the shape of ..."), never as "seen from"."""
    sources = [*(cluster.get("sources") or [])]
    if not sources:
        source = source_of(labels, str(cluster.get("representative", "")))
        if source is not None:
            sources = [{"source": source.name, "fixture": source.fixture, "cases": 1}]
    recorded = [s for s in sources if s.get("fixture") and s["source"] == s["fixture"]]
    if recorded:
        return "; ".join(
            f"the recorded stream `{Path(s['source']).name}`, {s['cases']} stream(s)"
            for s in recorded)
    shaped = sorted({str(s["source"]) for s in sources})
    if shaped:
        return ("no recorded stream; generated in the shape of "
                + ", ".join(f"`{name}`" for name in shaped)
                + " (a provider profile: how that provider is documented to stream)")
    return "synthetic (no real provider is known to send this shape)"


# -- one report ----------------------------------------------------------------------


@dataclass
class Report:
    """One cluster's report: its title, stream, both views, and its test (if any)."""

    id: str
    client: str
    title: str
    provider: str
    events: list[Event]
    expected: View | None
    actual: View | None
    failure: str | None
    """What the candidate raised on the stream (its whole message)."""
    differences: list[dict[str, Any]] = field(default_factory=list)
    """The stream's differences (class, path, both values, why), most harmful first."""
    no_test: str = ""
    """Why no test was written (rule 3); empty when there is one."""
    ids: bool = False
    """Whether the views show item ids (a report about ids)."""
    test_file: str = ""
    test_name: str = ""
    """The test's name as its runner reports it."""
    test_text: str = ""
    cluster: Mapping[str, Any] = field(default_factory=dict)
    merged: list[str] = field(default_factory=list)
    """The clusters whose report would be this one (the same stream and the same test
    or answer), written once as this report (one report per root cause)."""
    part_of: str = ""
    answer: Answer = field(default_factory=list)
    """The candidate's answer to ``events`` (what its policy is judged on)."""
    """The policy cluster this report's cluster is a part of (empty: a cluster of the
    run's screen)."""

    @property
    def root_cause(self) -> tuple[str, ...]:
        """What makes two reports one: the stream, and the test's body (what the app
        expects and what the client gives or raises), whatever the title or test name."""
        return ("\n".join(compact(e) for e in self.events), compact(self.expected),
                self.failure or compact(self.actual), str(bool(self.test_file)))

    @property
    def reason(self) -> str:
        """What the test's failure shows: the candidate's message, or its ``got``."""
        if self.failure is not None:
            return self.failure
        return "got " + compact(self.actual)


def compact(value: Any) -> str:
    """JSON as ``JSON.stringify`` and the templates' ``json.dumps`` write it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "case"


def report_for(
    cluster: Mapping[str, Any], client: str, candidate: Candidate,
    labels: Sequence[str] = (), src: str | None = None,
) -> Report:
    """The report of one cluster of ``client``'s run, the candidate run to check it
    (``src``: the checkout a Go candidate was built against)."""
    events, answer, still = tidied(cluster, candidate)
    style = STYLES.get(client)
    reference = oracle_json(events)
    differences = [
        {"class": c.divergence.value, "path": c.difference.path,
         "reference": c.difference.oracle, "candidate": c.difference.answer,
         "why": c.difference.why}
        for c in judged(events, answer).classified
    ]
    shown = {**cluster, "differences": differences}
    report = Report(cluster["id"], client, title(shown, client, events),
                    provenance(cluster, labels), events, None, None,
                    answer.message if isinstance(answer, Failure) else None,
                    differences, cluster=cluster, answer=answer)
    if not still:
        report.no_test = ("the client, run again on the representative, no longer shows "
                          "this cause: the run that found it is out of date")
    elif Divergence(cluster["class"]) in TOLERABLE:
        report.no_test = ("a choice a client may make on purpose "
                          f"(`{cluster['class']}`), not a bug")
    elif style is None:
        report.no_test = "the candidate is not a built-in client, so no test style is known"
    elif len(reference) != 1 or (not isinstance(answer, Failure) and len(answer) != 1):
        report.no_test = ("the body holds several responses, and the client answers one "
                          "response per call")
    ids = cluster.get("kind") == "id"
    if not report.no_test and style is not None:
        report.no_test = unseen(style, _focus(shown), reference[0], ids)
    if not report.no_test and ids and any(
        e.get("id_source") == "minted" for e in reference[0].get("items") or []
    ):
        report.no_test = "the oracle mints the item's id, so no literal states it"
    if report.no_test or style is None:
        return report
    report.ids = ids
    report.expected = style.view(reference[0], expected_items(reference[0]), ids)
    if not isinstance(answer, Failure):
        result, items = answer_items(answer)
        report.actual = style.view(result, items, ids)
        if report.actual == report.expected:
            report.no_test = f"the difference does not show through {style.api}"
            return report
    name = _slug(f"{cluster.get('decision') or cluster['kind']}_{cluster['id']}")
    report.test_file = style.file.format(name=name)
    report.test_name = (f"TestOracle_{name}" if style.template.endswith(".go.tmpl")
                        else style.file.format(name=name).split(".")[0])
    report.test_text = render_test(style, name, report, src)
    return report


_ITEM_PATH = re.compile(r"^\[\d+\]\.items\[(\d+)\]")
_ITEM_FIELD = re.compile(r"\]\.item\.(\w+)")


def unseen(style: Style, focus: Mapping[str, Any] | None, reference: Mapping[str, Any],
           ids: bool) -> str:
    """Why no test of ``style``'s view can state the cluster's difference (``focus``, on
    the oracle's ``reference`` result), or "" when one can: the client's API carries no
    item id, or does not show that field or items of that type."""
    if ids and not style.ids:
        return f"{style.api} carry no item id, so no test of them can state it"
    path = str((focus or {}).get("path", ""))
    field_of = _ITEM_FIELD.search(path)
    if style.fields is not None and field_of and field_of.group(1) not in style.fields:
        return f"an item's `{field_of.group(1)}` does not show through {style.api}"
    found = _ITEM_PATH.match(path)
    entries = reference.get("items") or []
    if style.items is None or found is None or int(found.group(1)) >= len(entries):
        return ""
    kind = entries[int(found.group(1))]["item"].get("type")
    if kind in style.items:
        return ""
    return f"a `{kind}` item does not show through {style.api}"


def _python_literal(value: Any) -> str:
    return pprint.pformat(value, width=88, sort_dicts=False)


def _events_literal(events: Sequence[Event], python: bool) -> str:
    lines = [json.dumps(e, ensure_ascii=True, separators=(",", ":")) for e in events]
    if python:
        body = "\n".join(lines)
        if "'''" not in body:
            return ("[json.loads(line) for line in r'''\n" + body + "\n'''.strip().splitlines()]")
        return _python_literal(list(events))
    return "[\n  " + ",\n  ".join(lines) + ",\n]"


def _go_string(text: str) -> str:
    """``text`` as a Go raw string literal (a backtick spliced in as its own string)."""
    return "`" + text.replace("`", '` + "`" + `') + "`"


def transform_arguments(src: str | None) -> str:
    """The arguments before the stream that the checkout's ``TransformStream`` takes:
    a context, and since 2026-05 also the request (``ctx, &httpclient.Request{}, ``)."""
    from .go_candidates import axonhub_module, checkout_of

    given = checkout_of(src)
    declared = ""
    if given is not None:
        source = (axonhub_module(given) / "transformer" / "openai" / "responses"
                  / "outbound_stream.go")
        found = re.search(r"\) TransformStream\(([^)]*)\)",
                          source.read_text("utf-8") if source.is_file() else "")
        declared = found.group(1) if found else "httpclient.Request"
    return "ctx, &httpclient.Request{}, " if "httpclient.Request" in declared or not given \
        else "ctx, "


def _go_literals(report: Report, src: str | None) -> dict[str, str]:
    """The Go templates' literals: events one raw string a line, the declared tools one
    ``{type, name}`` a line, the expectation as JSON."""
    return {
        "__EVENTS__": "\n".join(
            "\t\t" + _go_string(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
            + "," for e in report.events),
        "__GO_TOOLS__": "\n".join(
            f"\t\t{{{json.dumps(tool['type'])}, {json.dumps(tool['name'])}}},"
            for tool in declared_tools(report.events)),
        "__EXPECTED__": _go_string(compact(report.expected)),
        "__TRANSFORM_ARGUMENTS__": transform_arguments(src),
    }


def render_test(style: Style, name: str, report: Report, src: str | None = None) -> str:
    """The test file of ``report`` in ``style``: the template with its literals (a Go
    test's for the checkout ``src``)."""
    python = style.template.endswith(".py.tmpl")
    template = resources.files("responses_oracle.differential").joinpath(
        "upstream_templates", style.template).read_text("utf-8")
    literal = _python_literal if python else (lambda v: json.dumps(v, ensure_ascii=True,
                                                                   indent=2))
    filled = {
        "__TITLE__": report.title.replace("`", "'") if not python else report.title,
        "__PROVIDER__": report.provider,
        "__EXPECTED_PROSE__": expected_prose(report),
        "__EVENTS__": _events_literal(report.events, python),
        "__TOOLS__": literal(app_tools(list(report.events))),
        "__EXPECTED__": literal(report.expected),
        "__NAME__": name,
        "__WITH_IDS__": ("True" if report.ids else "False") if python else (
            "true" if report.ids else "false"),
    }
    if style.template.endswith(".go.tmpl"):
        filled.update(_go_literals(report, src))
    for token, value in filled.items():
        template = template.replace(token, value)
    return template


def expected_prose(report: Report) -> str:
    """One sentence: what a correct client hands the app, and what this one does."""
    got = (f"raises {report.failure.splitlines()[0]}" if report.failure
           else "gives another answer")
    return f"EXPECTED, the oracle's answer; the client {got}."


SHOWN = 400
"""Characters of a message or value a report shows (a schema validator's message can
run to pages; the test shows it whole)."""


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + " …"


def markdown(report: Report, style: Style | None, src: str | None = None) -> str:
    """The report as a Markdown page (``<id>.md``; ``src``: a Go candidate's checkout)."""
    cluster = report.cluster
    rule = deciding_rule(cluster)
    client = (f"{style.package} {style.version(src)} ({style.registry})"
              if style is not None else report.client)
    stream = "\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":"))
                       for e in report.events)
    lines = [
        f"# {report.title}",
        "",
        f"{client}; cluster `{report.id}`: `{cluster.get('class')}`; the rule that decides "
        f"it, {rule}: {RULES.get(rule, '')}; "
        f"{cluster.get('count', len(cluster.get('cases') or [])) or 1} stream(s) of the run"
        + (" (" + ", ".join(f"`{k}` x{n}" for k, n in cluster["classes"].items()) + ")"
           if cluster.get("classes") else "") + "."
        + (" The same stream and test as cluster(s) "
           + ", ".join(f"`{other}`" for other in report.merged) + "."
           if report.merged else ""),
        "",
        f"**Seen from:** {report.provider}.",
        "",
        f"## The stream ({len(report.events)} events"
        + (f"; the shortest that shows it is longer than {MAX_EVENTS}"
           if len(report.events) > MAX_EVENTS else "") + ")",
        "",
        "```jsonl",
        stream,
        "```",
        "",
        "## What the app gets",
        "",
    ]
    if report.expected is not None:
        lines += ["Expected (the oracle's answer, as the app reads it):", "", "```json",
                  compact(report.expected), "```", ""]
    if report.failure is not None:
        lines += ["Actual: the client raises", "", "```", _cut(report.failure), "```", ""]
    elif report.actual is not None:
        lines += ["Actual:", "", "```json", compact(report.actual), "```", ""]
    policy = cluster.get("hypothesis")
    if policy:
        lines += [f"Cause: the client's policy `{policy['name']}`: {policy['says']}.", ""]
    for d in report.differences:
        lines.append(f"- `{d.get('class')}` at `{d.get('path')}`: the oracle has "
                     f"`{_cut(compact(d.get('reference')))}`, the client "
                     f"`{_cut(compact(d.get('candidate')))}`"
                     + (f" — {d['why']}" if d.get("why") else ""))
    lines.append("")
    if report.test_file:
        path = f"{report.id}/{report.test_file}"
        command = (style.command.format(path=path, test=report.test_name)
                   if style is not None else "")
        lines += ["## Failing test", "",
                  f"`{path}` (beside this report), in the client's own test style and without "
                  f"responses-oracle: `{command}`. It fails with: "
                  f"`{report.reason.splitlines()[0]}`."]
    else:
        lines += ["## No test", "", f"No test is written: {report.no_test}."]
    return "\n".join(lines) + "\n"


def deciding_rule(cluster: Mapping[str, Any]) -> str:
    """The rule that decides the cluster's difference: its representative's own cause's
    (a policy's cluster names the rule its policy breaks, which need not be the one the
    representative's difference turns on), else the cluster's."""
    cause = cluster.get("representative_cause") or {}
    return str(cause.get("rule") or cluster.get("rule", ""))


INDEX = "README.md"
"""The index of a report folder: each report with its cluster, class and stream count."""


def index(reports: Sequence[Report]) -> str:
    """The report folder's ``README.md``: one row per report, in the run's order, with
    the cluster ids ``diff`` prints."""
    lines = [
        f"# {counted(len(reports), 'upstream report')}",
        "",
        "One report per root cause (one stream and one failing test), in the order `diff` "
        "lists the clusters; `cluster` is the id `diff` prints (`[id]`).",
        "",
        "| report | cluster | class | streams | rule | test | title |",
        "|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        cluster = report.cluster
        ids = ", ".join(f"`{i}`" for i in [report.id, *report.merged])
        where = f"{ids} (part of `{report.part_of}`)" if report.part_of else ids
        test = f"`{report.id}/{report.test_file}`" if report.test_file else "none"
        streams = cluster.get("count", len(cluster.get("cases") or [])) or 1
        title = report.title.replace("|", "\\|")
        lines.append(f"| `{report.id}.md` | {where} | `{cluster.get('class')}` | {streams} "
                     f"| {deciding_rule(cluster)} | {test} | {title} |")
    return "\n".join(lines) + "\n"


def gathered(reports: Sequence[Report]) -> list[Report]:
    """``reports`` with each report that is not a policy's merged into the report of a
    policy cluster of the same class whose policy explains its stream too: the policy is
    the one root cause of both (a cluster the harness kept apart, since the policy did
    not explain every case of its cause, would otherwise be a second report of it)."""
    policies = [r for r in reports if r.cluster.get("hypothesis") and r.test_file]
    kept = []
    for report in reports:
        owner = next((
            policy for policy in policies
            if report.test_file and not report.cluster.get("hypothesis")
            and policy.cluster.get("class") == report.cluster.get("class")
            and Hypothesis(policy.cluster["hypothesis"]["name"])
            in explained(report.events, report.answer)), None)
        if owner is None:
            kept.append(report)
        else:
            owner.merged.append(report.id)
    return kept


def write_reports(
    folder: str | Path, client: str, clusters: Sequence[Mapping[str, Any]],
    candidate: Candidate, labels: Callable[[Mapping[str, Any]], Sequence[str]] | None = None,
    src: str | None = None,
) -> list[Report]:
    """Write one ``<id>.md`` and ``<id>/<test>`` per root cause of ``clusters`` (and of
    the causes a policy's cluster gathers: a cluster whose stream and test are another's
    is merged into that one's report), and the index ``README.md``, into ``folder``;
    return the reports written."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    style = STYLES.get(client)
    reports: dict[tuple[str, ...], Report] = {}
    for cluster in clusters:
        for shown in (cluster, *(cluster.get("parts") or [])):
            found = labels(shown) if labels is not None else shown.get("labels") or ()
            report = report_for(shown, client, candidate, found, src)
            report.part_of = "" if shown is cluster else str(cluster["id"])
            first = reports.setdefault(report.root_cause, report)
            if first is not report:
                first.merged.append(report.id)
    written = gathered(list(reports.values()))
    for report in written:
        (root / f"{report.id}.md").write_text(markdown(report, style, src),
                                                    encoding="utf-8")
        if report.test_file:
            (root / report.id).mkdir(exist_ok=True)
            (root / report.id / report.test_file).write_text(report.test_text,
                                                              encoding="utf-8")
    (root / INDEX).write_text(index(written), encoding="utf-8")
    return written
