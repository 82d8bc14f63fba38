"""The "Real clients" page: what each client answers where it differs, from recorded runs.

``python -m responses_oracle.docsite.clients --record`` runs ``responses-oracle diff``
with default options (300 generated streams of seed 0) against every built-in client
adapter — openai-python, openai-agents, openai-node, the AI SDK's provider and its
``streamText`` — and writes what it
found to ``docs/real-clients.json``: per client its package and version, the counts, and
every cluster with its class, rule, decision, count and minimal representative stream
with both answers.  Without ``--record`` it renders ``docs/real-clients.md`` from that
record; ``--check`` says whether the page is what the record renders (exit 1 if not).

The page is the table no client publishes: per client and version, the divergence
classes found, most harmful first, each with a representative stream; then which of
the known classes of these clients (``KNOWN``) the run found.  A test replays every
recorded representative through the installed adapter, so the record cannot outlive
the client versions the repository pins.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from responses_oracle.model.divergence import HARM, HYPOTHESES, SEVERE, Divergence
from responses_oracle.testing.candidate import candidate_command
from responses_oracle.testing.harness import Generation, run_diff
from responses_oracle.testing.report import Cluster, answer_json, answer_lines, policy_json
from responses_oracle.testing.upstream import package_version

from . import docs_dir
from .compliance import measure, summary_lines

RECORD_NAME = "real-clients.json"
PAGE_NAME = "real-clients.md"
COMMAND = "python -m responses_oracle.docsite.clients"


@dataclass(frozen=True)
class Client:
    """A client with a built-in adapter: its candidate name, package and registry."""

    candidate: str
    package: str
    registry: str
    api: str

    def version(self) -> str:
        """The installed version of the client's package."""
        return package_version(self.package, self.registry)


CLIENTS: tuple[Client, ...] = (
    Client("openai-python", "openai", "PyPI", "client.responses.stream(), get_final_response()"),
    Client("openai-agents", "openai-agents", "PyPI",
           "Runner.run_streamed(); the ModelResponse of RunHooks.on_llm_end"),
    Client("openai-node", "openai", "npm", "client.responses.stream(), finalResponse()"),
    Client("ai-sdk", "@ai-sdk/openai", "npm", "createOpenAI().responses(model).doStream()"),
    Client("ai-streamtext", "ai", "npm",
           "streamText({ model: createOpenAI().responses(model), tools }); content, response"),
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
        "variants": [{"what": what, "cases": count} for what, count in cluster.variants],
        "count": len(cluster.cases),
        "representative": cluster.cases[0],
        "events": list(cluster.events),
        "reference": list(cluster.reference),
        "candidate": answer_json(cluster.answer),
        "differences": [
            {"class": c.divergence.value, "path": c.difference.path,
             "reference": c.difference.oracle, "candidate": c.difference.candidate}
            for c in cluster.classified
        ],
        "hypothesis": policy_json(cluster.hypothesis),
        "parts": [_cluster_record(part) for part in cluster.parts],
    }


def record_client(client: Client, generation: Generation) -> dict[str, Any]:
    """One client's default run, as recorded data."""
    report = run_diff(candidate_command(client.candidate), generation=generation)
    return {
        "client": client.candidate,
        "package": client.package,
        "registry": client.registry,
        "version": client.version(),
        "api": client.api,
        "cases": report.cases,
        "diverging": len(report.findings),
        "by_class": {d.value: n for d, n in report.by_class().items()},
        "compliance": measure(client.candidate),
        "clusters": [_cluster_record(c) for c in report.clusters],
    }


DEFAULT = Generation()
"""What ``diff`` runs with default options."""


def record(generation: Generation = DEFAULT) -> dict[str, Any]:
    """Every client's default run."""
    return {
        "generated_by": f"{COMMAND} --record",
        "seed": generation.seed,
        "count": generation.count,
        "clients": [record_client(client, generation) for client in CLIENTS],
    }


@dataclass(frozen=True)
class Known:
    """A divergence class known from these clients, and how a cluster shows it."""

    what: str
    rule: str
    shows: Callable[[Mapping[str, Any]], bool]


def _candidate_values(cluster: Mapping[str, Any]) -> list[Any]:
    return [d.get("candidate") for d in cluster.get("differences") or []]


def _responses(cluster: Mapping[str, Any]) -> int:
    return sum(1 for e in cluster.get("events") or [] if e.get("type") == "response.created")


_ENTRY = re.compile(r"^\[(\d+)\]\.items\[(\d+)\]")


def _payload_sources(cluster: Mapping[str, Any]) -> set[str]:
    """Where the reference took the payloads that differ (``payload_source``)."""
    found = set()
    for difference in cluster.get("differences") or []:
        at = _ENTRY.match(str(difference.get("path")))
        if at is None:
            continue
        response, entry = int(at.group(1)), int(at.group(2))
        results = cluster.get("reference") or []
        if response < len(results) and entry < len(results[response]["items"]):
            found.add(str(results[response]["items"][entry]["payload_source"]))
    return found


def _renamed(cluster: Mapping[str, Any]) -> bool:
    """True when the representative has an item whose id came as ``item_id`` (Bedrock)."""
    for event in cluster.get("events") or []:
        response = event.get("response")
        items = [event.get("item")]
        items += response.get("output") or [] if isinstance(response, dict) else []
        if any(isinstance(i, dict) and "item_id" in i and "id" not in i for i in items):
            return True
    return False


KNOWN: tuple[Known, ...] = (
    Known("item id lost when Bedrock renames it to `item_id`", "R4/R6",
          lambda c: c["decision"] == "id_renamed_field"
          or (c["class"] == Divergence.ID_DIFFERS.value and _renamed(c))),
    Known("`completed.output: []` returns nothing", "R9",
          lambda c: c["decision"] == "snapshot_missing_item"),
    Known("empty done arguments persisted as `\"\"` or `\"{}\"`", "R7",
          lambda c: c["decision"] == "empty_payload_ignored"
          and bool(_payload_sources(c) & {"payload_done", "item_done", "snapshot"})
          and any(v in ("", "{}") for v in _candidate_values(c))),
    Known("arguments lost when done is empty and the snapshot has none", "R7",
          lambda c: c["decision"] == "empty_payload_ignored"
          and "deltas" in _payload_sources(c)),
    Known("events after `response.completed` appended", "R9",
          lambda c: c["decision"] == "after_terminal"),
    Known("output ordered by completion instead of slot", "R10",
          lambda c: c["class"] == Divergence.ORDER_DIFFERS.value),
    Known("several responses in one body merged or raising", "R1",
          lambda c: c["class"] == Divergence.RESPONSES_DIFFER.value
          or (bool(c["failure"]) and _responses(c) > 1)),
)
"""The classes the issue that asked for this page lists, each with the rule deciding it."""


def causes(client: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A client's clusters and, inside a policy's cluster, the causes it gathers (each
    with its own representative): where a known class can show."""
    return [
        shown
        for cluster in client["clusters"]
        for shown in (cluster, *(cluster.get("parts") or []))
    ]


def known_found(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each known class → the clients whose run found it (empty: none did), in a cluster
    or in a cause a policy's cluster gathers."""
    return {
        known.what: [
            client["client"]
            for client in data["clients"]
            if any(known.shows(cluster) for cluster in causes(client))
        ]
        for known in KNOWN
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _client_section(client: Mapping[str, Any]) -> list[str]:
    clusters = client["clusters"]
    # A policy's cluster is filed under its most harmful class; its parts say which of
    # its streams are of that class.
    severe = sum(
        c["count"]
        for c in causes(client)
        if not c.get("parts") and Divergence(c["class"]) in SEVERE
    )
    lines = [
        f"## {client['client']}: {client['package']} {client['version']} ({client['registry']})",
        "",
        f"Driven through `{client['api']}`. {client['diverging']} of {client['cases']} "
        f"streams diverge, in {len(clusters)} clusters; {severe} streams in the severe "
        "classes (a wrong tool run, a call invented or run twice, a confirmed call lost).",
        "",
        "| class | rule | decided by | streams | representative |",
        "|---|---|---|---:|---|",
    ]
    for cluster in clusters:
        decided = cluster["decision"] or "no code"
        policy = cluster.get("hypothesis")
        if policy:
            parts = ", ".join(
                f"`{p['class']}` {p['rule']} {p['decision'] or 'no code'} x{p['count']}"
                for p in cluster["parts"]
            )
            decided = f"policy `{policy['name']}`: {_cell(policy['says'])}; it meets {parts}"
        if cluster["failure"]:
            messages = ", ".join(
                f"`{_cell(v['what'])}` x{v['cases']}" for v in cluster["variants"]
            )
            decided = f"raises (gives up at `{_cell(decided)}`): {messages}"
        lines.append(
            f"| `{cluster['class']}` | [{cluster['rule']}](rules/{cluster['rule']}.md) | "
            f"{decided} | {cluster['count']} | "
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
        f'{cluster["count"]} streams (representative {cluster["representative"]}){of}"',
        *([f'    <a id="{at}"></a>'] if at else []),
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
        f"is `responses-oracle diff --candidate NAME` with default options ({data['count']} "
        f"generated streams of seed {data['seed']}, no corpus), recorded with `{COMMAND} "
        "--record`. Classes are listed most harmful first (ranking in "
        "`responses_oracle.model.divergence`); a cluster is one cause — what differs, the "
        "rule that decides it and the oracle's code on the events involved, or, for a "
        "client that raises, its check (the masked message; a runtime lookup error such "
        "as `IndexError` by where it gives up), shown at the event it gives up at (the "
        "first whose prefix fails the same way) with the oracle's decision there and "
        "every message and trip listed — filed under the most harmful class among its "
        "streams, with a minimal well-formed representative stream. Where, on every case "
        "of a cause, the client answers as one client policy does wherever the cause differs "
        "(`responses_oracle.model.divergence.HYPOTHESES`: "
        f"{', '.join(f'`{h.value}`' for h in HYPOTHESES)}; a "
        "policy that explains a lost or invented item must also hold exactly the items "
        "the client holds; of two that explain a cause, the one that explains more of the "
        "run), that cause is the policy's: a policy's cluster names the "
        "rule the policy breaks and what to fix, its representative still shows the "
        "policy's explanation, and each cause it gathers is listed with a representative "
        "of its own.",
        "",
        "## Known classes",
        "",
        "| class | rule | found in |",
        "|---|---|---|",
        *(
            f"| {known.what} | {known.rule} | "
            f"{', '.join(found[known.what]) or 'not found'} |"
            for known in KNOWN
        ),
        "",
        "| client | version | streams diverging | clusters | classes |",
        "|---|---|---:|---:|---|",
    ]
    for client in data["clients"]:
        classes = ", ".join(
            f"`{d.value}` x{client['by_class'][d.value]}"
            for d in HARM
            if d.value in client["by_class"]
        )
        lines.append(
            f"| {client['client']} | {client['package']} {client['version']} | "
            f"{client['diverging']} of {client['cases']} | {len(client['clusters'])} | "
            f"{classes} |"
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
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="run every client and record")
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
