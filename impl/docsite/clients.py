"""The "Real clients" page: what each client answers where it differs, from recorded runs.

``python -m responses_oracle.docsite.clients --record`` runs ``responses-oracle diff``
on the streams of its default options (300 generated streams of seed 0; a body of several
responses sent one request per response, as ``diff`` does for a built-in client), each
completed as the conformance vectors complete it (``complete_cases``: every field and
event a provider sends but for the gaps its making declares) and only those that count
(``Vector.counted``: the others are robustness rows, left out), against every built-in
client adapter — openai-python, openai-agents, openai-node, the AI SDK's provider and
its ``streamText`` — and writes what it found to ``docs/real-clients.json``: per client
its package and version, the counts, and every cluster with its class, rule, decision,
count and minimal representative stream with both answers.  Without ``--record`` it
renders ``docs/real-clients.md`` from that record; ``--check`` says whether the page is
what the record renders (exit 1 if not).

The page opens with the compliance summary (``compliance``: per client the
conformance vectors it answers right, by rule, measured with the ``vectors check``
machinery and recorded with the runs; ``--compliance`` measures only it again).  Then
the table no client publishes: per client and version, the divergence
classes found, most harmful first, each with a representative stream; then which of
the known classes of these clients (``KNOWN``) the run found.  A test replays every
recorded representative through the installed adapter, so the record cannot outlive
the client versions the repository pins.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from responses_oracle.differential.candidate import (
    Answer,
    Failure,
    ProcessCandidate,
    candidate_command,
)
from responses_oracle.differential.conformance_vectors import generated_vectors
from responses_oracle.differential.findings import (
    Cluster,
    answer_json,
    answer_lines,
    cause_json,
    classes_json,
    policy_json,
    sources_json,
)
from responses_oracle.differential.harness import Generation, run_diff
from responses_oracle.differential.upstream import package_version
from responses_oracle.model.divergence import (
    HARM,
    HYPOTHESES,
    RAISED_ON_INVALID_SAYS,
    SEVERE,
    Divergence,
)
from responses_oracle.streamgen.cases import Case
from responses_oracle.streamgen.streams import Event, GeneratedStream

from .compliance import measure, summary_lines
from .docs_folder import docs_dir
from .peers import AXONHUB_NOT_RUN

RECORD_NAME = "real-clients.json"
PAGE_NAME = "real-clients.md"
COMMAND = "python -m responses_oracle.docsite.clients"

SPLIT = True
"""A body of several responses goes to each client one request per response, as
``diff`` sends it to a built-in client: each answers one response per call."""


@dataclass(frozen=True)
class Client:
    """A client with a built-in adapter: its candidate name, package and registry."""

    candidate: str
    package: str
    registry: str
    api: str
    setup: str
    """How the adapter sets the client up and what it reads, as an application does."""

    def version(self) -> str:
        """The installed version of the client's package."""
        return package_version(self.package, self.registry)


TOOLS = (
    "a tool declared for every call the stream carries (candidate.declared_tools): a "
    "function tool with a permissive, non-strict schema (`{\"type\": \"object\"}`) per "
    "function name, a custom tool per custom tool name"
)
"""What every client is given, as an application whose model calls those tools."""

CLIENTS: tuple[Client, ...] = (
    Client("openai-python", "openai", "PyPI", "client.responses.stream(), get_final_response()",
           f"An `OpenAI` client over an offline `httpx2` transport; `client.responses."
           f"stream(model, input, tools)` with {TOOLS}; the stream iterated to the end, then "
           "`get_final_response()` (or the `response` of an incomplete or failed terminal)."),
    Client("openai-agents", "openai-agents", "PyPI",
           "Runner.run_streamed(); the ModelResponse of RunHooks.on_llm_end",
           f"An `Agent` on an `OpenAIResponsesModel` over an offline `AsyncOpenAI`, with "
           f"{TOOLS} (`FunctionTool`, `CustomTool`; each answers `ok`); "
           "`Runner.run_streamed(agent, max_turns=1)` consumed to the end; the answer is the "
           "`ModelResponse` that `RunHooks.on_llm_end` receives, the one the runner runs "
           "tools from."),
    Client("openai-node", "openai", "npm", "client.responses.stream(), finalResponse()",
           f"An `OpenAI` client over an offline `fetch`; `client.responses.stream({{ model, "
           f"input, tools }})` with {TOOLS}; the stream iterated to the end, then "
           "`finalResponse()` (or the `response` of an incomplete or failed terminal)."),
    Client("ai-sdk", "@ai-sdk/openai", "npm", "createOpenAI().responses(model).doStream()",
           f"`createOpenAI({{ fetch }}).responses(model).doStream({{ prompt, tools }})` with "
           f"{TOOLS} (the provider's `openai.custom`), as `streamText` hands them to the "
           "provider; every stream part read and written back as the wire items it stands "
           "for."),
    Client("ai-streamtext", "ai", "npm",
           "streamText({ model: createOpenAI().responses(model), tools }); content, response",
           f"`streamText({{ model: createOpenAI({{ fetch }}).responses(model), prompt, tools "
           f"}})` with {TOOLS} (`tool()` without `execute`, `openai.tools.customTool()`); "
           "the stream consumed, then `await result.content`, `result.response` and "
           "`result.finishReason`, as an app reads them."),
)
"""The clients the page covers, in the order shown."""


def _cluster_record(cluster: Cluster) -> dict[str, Any]:
    return {
        "id": cluster.id,
        "class": cluster.divergence.value,
        "rule": cluster.rule,
        "decision": cluster.decision,
        "kind": cluster.cause.kind,
        "failure": cluster.message or None,
        "failure_key": cluster.cause.failure or None,
        "representative_cause": cause_json(cluster.representative_cause),
        "classes": classes_json(cluster.classes),
        "severe_streams": cluster.severe,
        "sources": sources_json(cluster.sources),
        "variants": [{"what": what, "cases": count} for what, count in cluster.variants],
        "count": len(cluster.cases),
        "representative": cluster.cases[0],
        "events": list(cluster.events),
        "reference": list(cluster.reference),
        "candidate": answer_json(cluster.answer),
        "differences": [
            {"class": c.divergence.value, "path": c.difference.path,
             "reference": c.difference.oracle, "candidate": c.difference.answer}
            for c in cluster.classified
        ],
        "hypothesis": policy_json(cluster.hypothesis),
        "parts": [_cluster_record(part) for part in cluster.parts],
    }


def complete_cases(generation: Generation) -> tuple[list[Case], int]:
    """The generation's streams completed as ``vectors export`` completes its generated
    vectors, those that count, each named as ``diff`` names the generated case; and how
    many robustness rows were left out."""
    vectors = generated_vectors(generation.seed, generation.count)
    cases = [Case(f"seed{generation.seed}/{index}", GeneratedStream(v.events, v.labels))
             for index, v in enumerate(vectors) if v.counted]
    return cases, len(vectors) - len(cases)


def record_client(
    client: Client, generation: Generation, cases: Sequence[Case], left_out: int
) -> dict[str, Any]:
    """One client's run on ``cases`` (``complete_cases``), as recorded data."""
    report = run_diff(candidate_command(client.candidate), generation=replace(generation, count=0),
                      corpus=cases, split=SPLIT)
    return {
        "client": client.candidate,
        "package": client.package,
        "registry": client.registry,
        "version": client.version(),
        "api": client.api,
        "setup": client.setup,
        "cases": report.cases,
        "robustness": left_out,
        "diverging": len(report.findings),
        "severe_streams": report.severe,
        "by_class": {d.value: n for d, n in report.by_class().items()},
        "clusters": [_cluster_record(c) for c in report.clusters],
        "known": record_known(client),
        "compliance": measure(client.candidate),
    }


DEFAULT = Generation()
"""What ``diff`` runs with default options."""


def record(generation: Generation = DEFAULT) -> dict[str, Any]:
    """Every client's run on the default streams, completed."""
    cases, left_out = complete_cases(generation)
    return {
        "generated_by": f"{COMMAND} --record",
        "seed": generation.seed,
        "count": generation.count,
        "clients": [record_client(client, generation, cases, left_out) for client in CLIENTS],
    }


# -- the known classes, each defined by a stream of its own -----------------------------


def _call(key: str, arguments: str, **extra: Any) -> Event:
    """A done ``get_weather`` call ``fc_KEY`` / ``call_KEY``."""
    return {"type": "function_call", "id": f"fc_{key}", "call_id": f"call_{key}",
            "name": "get_weather", "arguments": arguments, "status": "completed", **extra}


def _renamed(item: Event) -> Event:
    """``item`` as Bedrock Mantle sends it done: its ``id`` as ``item_id``."""
    return {("item_id" if k == "id" else k): v for k, v in item.items()}


def _response(*between: Event, output: list[Event] | None, rid: str = "resp_k1") -> list[Event]:
    """One response as OpenAI sends it: ``response.created``, ``between``, then
    ``response.completed`` with ``output`` as its snapshot (``None``: ``[]``)."""
    def response(status: str, items: list[Event]) -> Event:
        return {"id": rid, "object": "response", "created_at": 1763038908, "status": status,
                "model": "gpt-5.1-2025-11-13", "error": None, "incomplete_details": None,
                "output": items}

    return [
        {"type": "response.created", "response": response("in_progress", [])},
        *between,
        {"type": "response.completed", "response": response("completed", output or [])},
    ]


def _body(*events: Event) -> tuple[Event, ...]:
    """A body: every response's events numbered from 0 (``sequence_number``), as OpenAI
    numbers them; events after a terminal go on counting."""
    numbered, number = [], 0
    for event in events:
        number = 0 if event["type"] == "response.created" else number + 1
        numbered.append({**event, "sequence_number": number})
    return tuple(numbered)


def _streamed(slot: int, item: Event, deltas: Sequence[str], done: str | None = None,
              last: Event | None = None) -> list[Event]:
    """A call's ``output_item.added``, its argument deltas, its ``arguments.done``
    (``done``, when given) and its ``output_item.done`` (carrying ``last``, default
    ``item``)."""
    scoped = {"output_index": slot, "item_id": item["id"]}
    return [
        {"type": "response.output_item.added", "output_index": slot,
         "item": {**item, "arguments": "", "status": "in_progress"}},
        *({"type": "response.function_call_arguments.delta", **scoped, "delta": d}
          for d in deltas),
        *([{"type": "response.function_call_arguments.done", **scoped, "arguments": done}]
          if done is not None else []),
        {"type": "response.output_item.done", "output_index": slot,
         "item": item if last is None else last},
    ]


PARIS = '{"city":"Paris"}'
"""The arguments of the defining streams' calls."""

_A, _B = _call("a", PARIS), _call("b", '{"city":"Oslo"}')


def _items(answer: Answer) -> list[Mapping[str, Any]]:
    """The wire items of a client's answer, every response's (none for a failure)."""
    if isinstance(answer, Failure):
        return []
    return [e.get("item", e) for result in answer for e in result.get("items") or []]


def _calls(answer: Answer) -> list[Mapping[str, Any]]:
    return [i for i in _items(answer) if i.get("type") == "function_call"]


_BLANK: tuple[Any, ...] = ("", "{}", {})
"""Arguments that hold nothing: blank text, an empty object, or (parsed) ``{}``."""


def _blank_arguments(answer: Answer) -> bool:
    """True when the answer holds the call with arguments that hold nothing."""
    calls = _calls(answer)
    return bool(calls) and all(c.get("arguments") in _BLANK for c in calls)


@dataclass(frozen=True)
class Known:
    """A divergence class known from these clients, defined by one stream and by what
    a client's answer to that stream holds when it is of the class."""

    what: str
    rule: str
    stream: tuple[Event, ...]
    shows: Callable[[Answer], bool]
    """True when a client's answer to ``stream`` is of this class (the reference's
    answer never is: a test checks it)."""


KNOWN: tuple[Known, ...] = (
    Known(
        "item id lost when Bedrock renames it to `item_id`", "R4/R6",
        _body(*_response(*_streamed(0, _A, [PARIS], last=_renamed(_A)), output=[_renamed(_A)])),
        lambda answer: bool(_calls(answer)) and all(
            c.get("id") != _A["id"] for c in _calls(answer)),
    ),
    Known(
        "`completed.output: []` returns nothing", "R9",
        _body(*_response(*_streamed(0, _A, [PARIS], PARIS), output=None)),
        lambda answer: not isinstance(answer, Failure) and not _items(answer),
    ),
    Known(
        "empty done arguments persisted as `\"\"` or `\"{}\"`", "R7",
        _body(*_response(*_streamed(0, _A, [PARIS], PARIS, last=_call("a", "")),
                         output=[_call("a", "")])),
        _blank_arguments,
    ),
    Known(
        "arguments lost when done is empty and the snapshot has none", "R7",
        _body(*_response(*_streamed(0, _A, [PARIS], "", last=_call("a", "")),
                         output=[_call("a", "")])),
        lambda answer: not isinstance(answer, Failure) and (
            not _calls(answer) or _blank_arguments(answer)),
    ),
    Known(
        "events after `response.completed` appended", "R9",
        _body(*_response(*_streamed(0, _A, [PARIS], PARIS), output=[_A]),
              *_streamed(1, _B, [str(_B["arguments"])], str(_B["arguments"]))),
        lambda answer: any(c.get("call_id") == _B["call_id"] for c in _calls(answer)),
    ),
    Known(
        "output ordered by completion instead of slot", "R10",
        _body(*_response(
            *_streamed(0, _A, [PARIS], PARIS)[:-1], *_streamed(1, _B, ['{"city":"Oslo"}'])[:-1],
            *_streamed(1, _B, [])[-1:], *_streamed(0, _A, [])[-1:], output=[_A, _B])),
        lambda answer: [c.get("call_id") for c in _calls(answer)] == [
            _B["call_id"], _A["call_id"]],
    ),
    Known(
        "several responses in one body merged or raising", "R1",
        _body(*_response(*_streamed(0, _A, [PARIS], PARIS), output=[_A]),
              *_response(*_streamed(0, _B, ['{"city":"Oslo"}']), output=[_B], rid="resp_k2")),
        lambda answer: isinstance(answer, Failure) or len(answer) != 2,
    ),
)
"""The classes the issue that asked for this page lists, each with the rule deciding it
and the stream that defines it: a client is listed for a class when its answer to that
stream is of the class (``record_known``), never by matching its clusters."""


def record_known(client: Client) -> dict[str, bool]:
    """Whether ``client``'s answer to each known class's stream is of that class."""
    candidate = ProcessCandidate(candidate_command(client.candidate), timeout=60)
    try:
        answers = candidate.answer([GeneratedStream(k.stream, ("known",)) for k in KNOWN])
    finally:
        candidate.close()
    return {k.what: k.shows(a) for k, a in zip(KNOWN, answers, strict=True)}


def causes(client: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A client's clusters and, inside a policy's cluster, the causes it gathers (each
    with its own representative)."""
    return [
        shown
        for cluster in client["clusters"]
        for shown in (cluster, *(cluster.get("parts") or []))
    ]


def known_found(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each known class → the clients whose answer to its stream is of it (empty: none)."""
    return {
        known.what: [c["client"] for c in data["clients"] if c["known"][known.what]]
        for known in KNOWN
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _classes(cluster: Mapping[str, Any]) -> str:
    """A cluster's cases per class, each case by its own class."""
    return ", ".join(f"`{d}` x{n}" for d, n in cluster["classes"].items())


def _shape(cluster: Mapping[str, Any]) -> str:
    """Where a cluster's shapes come from: the real sources, or synthetic only."""
    if not cluster["sources"]:
        return "synthetic only"
    return "; ".join(
        f"{s['source']} x{s['cases']}" + (f" (`{s['fixture']}`)" if s["fixture"] else "")
        for s in cluster["sources"]
    )


SEVERE_NAMES = ", ".join(f"`{d.value}`" for d in HARM if d in SEVERE)
"""The severe classes, in ``HARM`` order (the page says what its severe figure counts)."""


def _client_section(client: Mapping[str, Any]) -> list[str]:
    clusters = client["clusters"]
    lines = [
        f"## {client['client']}: {client['package']} {client['version']} ({client['registry']})",
        "",
        f"Set-up: {client['setup']}",
        "",
        f"{client['diverging']} of {client['cases']} streams diverge, in {len(clusters)} "
        f"clusters; {client['severe_streams']} streams are of a severe class "
        f"({SEVERE_NAMES}), each stream counted by its own class.",
        "",
        "| class | streams by class | rule | decided by | shape seen from | streams | "
        "representative |",
        "|---|---|---|---|---|---:|---|",
    ]
    for cluster in clusters:
        decided = cluster["decision"] or "no code"
        policy = cluster.get("hypothesis")
        if policy:
            parts = ", ".join(
                f"{p['rule']} {p['decision'] or 'no code'} ({_classes(p)})"
                for p in cluster["parts"]
            )
            decided = f"policy `{policy['name']}`: {_cell(policy['says'])}; it meets {parts}"
        if cluster["failure"]:
            messages = ", ".join(
                f"`{_cell(v['what'])}` x{v['cases']}" for v in cluster["variants"]
            )
            raises = (RAISED_ON_INVALID_SAYS
                      if cluster["class"] == Divergence.CANDIDATE_RAISED_ON_INVALID.value
                      else "raises")
            decided = f"{raises} (gives up at `{_cell(decided)}`): {messages}"
        lines.append(
            f"| `{cluster['class']}` | {_classes(cluster)} | "
            f"[{cluster['rule']}](rules/{cluster['rule']}.md) | {decided} | "
            f"{_cell(_shape(cluster))} | {cluster['count']} | "
            f"[{cluster['id']}](#{anchor(client, cluster)}) |"
        )
    lines.append("")
    for cluster in clusters:
        lines += _representative(cluster, anchor(client, cluster))
        for part in cluster.get("parts") or []:
            lines += _representative(part, "", f" (a cause of policy {cluster['decision']})")
    return lines


def anchor(client: Mapping[str, Any], cluster: Mapping[str, Any]) -> str:
    """The page anchor of a client's cluster: the cluster id alone repeats across clients
    (one cause of two clients has one id)."""
    return f"{client['client']}-{cluster['id']}"


def _representative(cluster: Mapping[str, Any], at: str, of: str = "") -> list[str]:
    stream = "\n".join(
        json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in cluster["events"]
    )
    candidate = cluster["candidate"]
    theirs = answer_lines(candidate) if isinstance(candidate, list) else [
        f"raised: {str(candidate.get('error', '')).splitlines()[0] if candidate else ''}"
    ]
    return [
        f'??? note "{cluster["id"]}: `{cluster["class"]}`, {cluster["rule"]}, '
        f'{cluster["count"]} streams (representative {cluster["representative"]}, of class '
        f'`{cluster["class"]}`){of}"',
        *([f'    <a id="{at}"></a>'] if at else []),
        "",
        f"    Streams by class: {_classes(cluster)}. Shape seen from: {_shape(cluster)}.",
        "",
        *_policy_lines(cluster.get("hypothesis")),
        "    Minimal stream:",
        "",
        "    ```json",
        *(f"    {line}" for line in stream.splitlines()),
        "    ```",
        "",
        "    | reference | client |",
        "    |---|---|",
        *(
            f"    | {_cell(a)} | {_cell(b)} |"
            for a, b in _pairs(answer_lines(cluster["reference"]), theirs)
        ),
        "",
    ]


def _policy_lines(policy: Mapping[str, str] | None) -> list[str]:
    """What a policy's cluster says of the client, above its representative."""
    if not policy:
        return []
    rule = policy["rule"]
    return [
        f"    Cause: the client's policy `{policy['name']}`, which breaks "
        f"[{rule}](rules/{rule}.md): {policy['says']}. On every stream of this cluster "
        "the client answers as this policy does, not as the oracle does, wherever the "
        "cause differs; the causes it meets follow.",
        "",
    ]


def _pairs(left: Sequence[str], right: Sequence[str]) -> list[tuple[str, str]]:
    rows = max(len(left), len(right))
    return [
        (left[n] if n < len(left) else "", right[n] if n < len(right) else "")
        for n in range(rows)
    ]


def render(data: Mapping[str, Any]) -> str:
    """The Real clients page for a record."""
    found = known_found(data)
    lines = [
        f"<!-- Generated by `{COMMAND}` from docs/{RECORD_NAME}; do not edit. -->",
        "",
        "# Real clients",
        "",
        *summary_lines(data["clients"]),
        "What the clients people use answer where they differ from the oracle: each run "
        "is `responses-oracle diff --candidate NAME` on the streams of its default options "
        f"({data['count']} generated streams of seed {data['seed']}), each completed as "
        "`vectors export` completes a generated vector — every field and event a provider "
        "sends but for the gaps its making declares — and only those that count "
        f"({data['clients'][0]['cases']}; the other {data['clients'][0]['robustness']} are "
        "robustness rows: a field every provider sends left out, a deviation no provider "
        "is shown to send, or a stream the oracle answers with an error), recorded with "
        f"`{COMMAND} --record`, each client set up as an application that declares a tool "
        "for every call the stream carries (its section says how). Each stream keeps its own class "
        "(ranking in `responses_oracle.model.divergence.HARM`: a call re-keyed with the "
        "same tool and arguments is `call_rekeyed`, not a wrong tool run; a payload where "
        "the stream itself sent two that disagree is `two_defensible_answers`; a raise on "
        "a stream the oracle flags with a warning is `candidate_raised_on_flagged`, below "
        "one on a clean stream; a raise on a stream with an event the API's event types do "
        "not allow, a required field missing, is `candidate_raised_on_invalid` whatever the "
        f"oracle made of it, ranked last: the client {RAISED_ON_INVALID_SAYS}). A cluster "
        "is one cause — what differs, the "
        "rule that decides it and the oracle's code on the events involved, or, for a "
        "client that raises, its check (the masked message; a runtime lookup error such "
        "as `IndexError` by where it gives up), shown at the event it gives up at (the "
        "first whose prefix fails the same way) with the oracle's decision there and "
        "every message and trip listed. A cluster counts its streams per class and reads "
        "as the class of its representative, a stream of its most harmful class shrunk to "
        "a minimal well-formed one that keeps that class and its own cause. Each cluster "
        "says where its shapes are seen: a real provider or gateway (the provider profile "
        "a stream was generated from, with the fixture that records it; OpenAI's own "
        "sequence) or synthetic only (a fault injected, a model-guided walk, several "
        "responses in one body, events after the terminal); real shapes are listed "
        "first, then by harm. Where, on every case "
        "of a cause, the client answers as one client policy does wherever the cause differs "
        "(`responses_oracle.model.divergence.HYPOTHESES`: "
        f"{', '.join(f'`{h.value}`' for h in HYPOTHESES)}; a "
        "policy that explains a lost or invented item must also hold exactly the items "
        "the client holds; of two that explain a cause, the one that explains more of the "
        "run), that cause is the policy's: a policy's cluster names the "
        "rule the policy breaks and what to fix, its representative still shows the "
        "policy's explanation and its own cause, and each cause it gathers is listed with "
        "a representative of its own.",
        "",
        "Not run: AxonHub's Responses stream transformer (`llm/transformer/openai/responses`), "
        f"as a candidate of a Go driver: {AXONHUB_NOT_RUN}.",
        "",
        "## Known classes",
        "",
        "Each class is defined by one stream of its own (`KNOWN` in `responses_oracle."
        "docsite.clients`); a client is listed when its answer to that stream is of the "
        "class.",
        "",
        "| class | rule | found in |",
        "|---|---|---|",
        *(
            f"| {known.what} | {known.rule} | "
            f"{', '.join(found[known.what]) or 'not found'} |"
            for known in KNOWN
        ),
        "",
        "| client | version | streams diverging | root causes | streams per root cause | "
        "classes |",
        "|---|---|---:|---:|---|---|",
    ]
    for client in data["clients"]:
        classes = ", ".join(
            f"`{d.value}` x{client['by_class'][d.value]}"
            for d in HARM
            if d.value in client["by_class"]
        )
        per_cause = ", ".join(str(n) for n in sorted(
            (int(c["count"]) for c in client["clusters"]), reverse=True))
        lines.append(
            f"| {client['client']} | {client['package']} {client['version']} | "
            f"{client['diverging']} of {client['cases']} | {len(client['clusters'])} | "
            f"{per_cause} | {classes} |"
        )
    lines.append("")
    for client in data["clients"]:
        lines += _client_section(client)
    return "\n".join(lines).rstrip() + "\n"


def load(directory: Path) -> dict[str, Any]:
    """The committed record."""
    return dict(json.loads((directory / RECORD_NAME).read_text(encoding="utf-8")))


def main(argv: Sequence[str] | None = None) -> int:
    """Record the runs, render the page, or check it."""
    parser = argparse.ArgumentParser(
        prog=COMMAND, description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"examples:\n  {COMMAND}                 # render docs/{PAGE_NAME} from the "
        f"record\n  {COMMAND} --check         # is the page what the record renders?\n"
        f"  {COMMAND} --compliance    # measure the compliance half again (~5 minutes)\n"
        f"  {COMMAND} --record        # run every client: both halves\n\n"
        "exit status: 0 the page was written (or is current), 1 it is stale (--check), "
        "2 bad arguments")
    parser.add_argument("--record", action="store_true",
                        help="run every client on the completed streams that count (the diff "
                        "half) and measure the compliance half, into the record")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    parser.add_argument("--compliance", action="store_true",
                        help="measure only the compliance summary again, into the record")
    args = parser.parse_args(argv)
    directory = docs_dir()
    if args.record or args.compliance:
        data = record() if args.record else load(directory)
        for client in CLIENTS if args.compliance and not args.record else ():
            [mine] = [c for c in data["clients"] if c["client"] == client.candidate]
            mine["compliance"] = measure(client.candidate)
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        (directory / RECORD_NAME).write_text(text, encoding="utf-8")
    page = render(load(directory))
    target = directory / PAGE_NAME
    if args.check:
        current = target.is_file() and target.read_text(encoding="utf-8") == page
        if not current:
            sys.stderr.write(f"docs/{PAGE_NAME} is stale: run {COMMAND}\n")
        return 0 if current else 1
    target.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
