"""The "Real agents" page: what real agents and gateways did with each scenario of serve.

``python -m responses_oracle.docsite.real_agents --record [CLIENT...]`` runs each client of
``responses_oracle.agents.profiles`` on every scenario of the built-in list (``serve``
plays it, the client runs in a temporary HOME, serve judges its next request) and
writes what happened to ``docs/real-agents.json``, saving after every client, so a
partial run keeps what it recorded (a client recorded again replaces its entry).
``tools/record_agents.py`` installs the pinned clients first and then calls this.
Without ``--record`` it renders ``docs/real-agents.md`` and the scenarios' timeline
pages (``docs/agents/timelines/``) from that record; ``--check`` says whether they are
what the record renders (exit 1 if not).  ``python -m responses_oracle.docsite``
renders them too (``pages.render_pages``), so one generator keeps every page current.

The page is honest by construction: a cell is what the client did when it was run —
its three verdicts from serve (executed, history-faithful, API-valid), beside those of
the scenario's clean twin, or ``not run`` with the reason (not installed, did not
start, sent no request).  A broken verdict counts only where the client gets the twin
right (``report.outcome``); otherwise the cell is *not judged*.  No cell is filled by
hand.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from responses_oracle.agents.profiles import BY_NAME, PROFILES, Profile
from responses_oracle.agents.report import (
    BROKEN,
    COUNTED,
    HELD,
    NO_VERDICT,
    NOT_APPLICABLE,
    NOT_COUNTED,
    NOT_JUDGED,
    NOT_RUN,
    OUTCOMES,
    PROXY_REGRESSION,
    answer_kept,
    behind_proxy,
    bugs,
    by_cause,
    by_verdict,
    causes,
    cell_from_json,
    evidence,
    marks,
    outcome,
    why,
)
from responses_oracle.agents.runner import Cell, scenario_slug
from responses_oracle.agents.scenario_list import (
    Scenario,
    builtin,
    proxied_stream,
    same_stream,
    scenario_events,
)
from responses_oracle.agents.served_verdicts import LABELS, VERDICTS
from responses_oracle.model.deviations import DEVIATIONS
from responses_oracle.serve.verdicts import ANSWER_KEPT
from responses_oracle.words import counted

from .agent_matrix import SITE_UP, Column, Row, Shown, legend, matrix, title
from .docs_folder import docs_dir
from .markdown import cell, table

RECORD_NAME = "real-agents.json"
PAGE_NAME = "real-agents.md"
TIMELINES = "agents/timelines"
COMMAND = "python -m responses_oracle.docsite.real_agents"
SCRIPT = "python tools/record_agents.py"

PROXY_CELLS = "proxy_cells"
"""A client entry's cells recorded with the proxy between serve and the client
(``--via-proxy``), beside its direct ``cells``."""

PROXY_PAGE = "usage/proxy.md"
"""The proxy's page, which the column of a client behind it links to."""

NOT_STREAMED = "ᴶ"
"""After a cell's marks: the client did not stream (``stream: false``), so it was
answered with the scenario's terminal response object, not the stream."""

TWIN_MARK = " ¦ "
"""Between a cell's marks and its clean twin's."""

MEANING = {
    HELD: "every verdict that applies held",
    BROKEN: "a verdict broke that the clean twin holds: the deviation broke it",
    NOT_JUDGED: "a verdict broke, but the clean twin breaks it too (or none was "
                "recorded): not counted",
    NOT_APPLICABLE: "no tool the client offered takes the scenario's calls",
    NOT_RUN: "not installed, did not start, or sent no request",
    PROXY_REGRESSION: "behind the proxy, a verdict broke that the client holds directly",
    NOT_COUNTED: "a verdict broke on a robustness row (a deviation no provider is shown "
                 "to send, or one the oracle calls an error), on a row that judges the "
                 "driver's own reading of an SDK without a tool loop (the rows of two "
                 "readings: openai-go, openai-java, openai-python), or the "
                 "client refused the stream by a check of its own: shown, never counted",
    NO_VERDICT: "the client ran, but serve had no call to judge",
}
"""What each outcome means, as the legend says it."""

SYMBOL = {"ok": "✓", "FAIL": "✗", "n/a": "-", "no verdict": "?", "not run": "·",
          "not applicable": "∅"}
"""A verdict mark as the grid shows it."""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


SCENARIO_LIST = "scenario_list"
"""A recorded cell's stamp: the digest of the scenario list it was recorded on
(``list_digest``), so the page says which clients were recorded on the current list
and which are older records, never mixing them silently."""


PROXIED = "proxied"
"""A cell behind the proxy's second stamp: the digest of what the proxy passed on for its
scenario (``scenario_list.proxied_stream``) when it was recorded.  A change to the proxy
that changes what a client behind it gets makes the cell *recorded with an earlier proxy*:
the page counts such cells apart (``with_todays_proxy``) until they are re-recorded."""


def with_todays_proxy(cell: Mapping[str, Any]) -> bool:
    """Whether a cell behind the proxy was recorded with a proxy that passes on today's
    stream for its scenario (its ``PROXIED`` stamp is today's ``proxied_stream``)."""
    return cell.get(PROXIED) == proxied_stream(cell["scenario"])


def list_digest() -> str:
    """The current scenario list's digest: the first 12 hex digits of the SHA-256 of
    what decides each served stream -- every scenario's name, base and deviations, and
    its base file's bytes (a changed description is not a new list)."""
    import hashlib

    digest = hashlib.sha256()
    for scenario in builtin():
        shown = [scenario.name, scenario.base, [d.to_json() for d in scenario.deviations]]
        digest.update(json.dumps(shown, sort_keys=True).encode())
        if scenario.base:
            digest.update(scenario.base_path().read_bytes())
    return digest.hexdigest()[:12]


def recorded_on(client: Mapping[str, Any], key: str = "cells") -> str:
    """Whether a client's cells (``key``) were recorded on the current scenario list:
    ``current scenarios`` (with how many of them, when not all), ``older record``
    (every cell from an earlier list) or ``mixed: some cells older``."""
    cells = client.get(key, [])
    stamps = {x.get(SCENARIO_LIST) for x in cells}
    if not stamps:
        return ""
    if stamps == {list_digest()}:
        total = len(builtin())
        return "current scenarios" + (f" ({len(cells)} of {total})" if len(cells) < total
                                      else "")
    return "older record" if list_digest() not in stamps else "mixed: some cells older"


def client_entry(profile: Profile) -> dict[str, Any]:
    """A client's entry before its cells: what it is, how it is driven, pinned where."""
    return {
        "client": profile.name,
        "kind": profile.kind,
        "package": profile.package,
        "version": profile.version,
        "registry": profile.install.registry,
        "driven": profile.driven,
        "sandbox": profile.sandbox,
        "note": profile.install.note,
    }


def record_client(
    profile: Profile,
    scenarios: Sequence[Scenario],
    out: Path,
    directory: Path,
    via_proxy: bool = False,
) -> None:
    """Run one client on every scenario, saving its entry into the record after each
    cell (a partial run keeps what it recorded); ``via_proxy``: with the proxy between
    serve and the client, into the entry's ``PROXY_CELLS``."""
    from responses_oracle.agents.runner import PROXY, run_client

    key = PROXY_CELLS if via_proxy else "cells"
    entry = client_entry(profile)
    entry["started_at"] = _now()
    entry[key] = []
    by_argument = {s.argument(): s.name for s in scenarios}
    digest = list_digest()

    def save_cell(done: Cell) -> None:
        data = done.to_json()
        data["scenario"] = by_argument.get(done.scenario, done.scenario)
        data[SCENARIO_LIST] = digest
        if via_proxy:
            data[PROXIED] = proxied_stream(data["scenario"])
        data["output"] = data["output"][-400:]
        if "twin" in data:
            data["twin"]["output"] = data["twin"]["output"][-400:]
        entry[key].append(data)
        entry["finished_at"] = _now()
        with _locked(directory):
            _merge(directory, {**entry, key: list(entry[key])}, key)
            client: Mapping[str, Any] = next(
                (c for c in load(directory).get("clients", []) if c["client"] == entry["client"]),
                {},
            )
        print(f"  {done.client} {data['scenario']}: {'ran' if done.ran else 'not run'} "
              f"{progress(done, data, client)[:100]}", flush=True)

    proxy = PROXY if via_proxy else None
    run_client(profile, list(by_argument), out, proxy=proxy, done=save_cell)


def progress(done: Cell, recorded: Mapping[str, Any], client: Mapping[str, Any]) -> str:
    """What ``record_client`` prints for the cell ``done`` it just saved (``recorded``, as
    the record holds it): the reason the page shows beside it -- behind the proxy,
    against the same client's direct cell in its record entry ``client`` (``_direct``),
    as the page compares them."""
    direct = _direct(client, recorded) if behind_proxy(done) else None
    return why(done, _cell(direct))


def record(
    names: Sequence[str],
    scenario_names: Sequence[str],
    directory: Path,
    resume: bool = False,
    via_proxy: bool = False,
) -> None:
    """Record the clients ``names`` into the record, one at a time; with ``resume``, only
    the scenarios a client has no cell for yet; ``via_proxy``: behind the proxy."""
    import tempfile

    scenarios = builtin()
    if scenario_names:
        scenarios = [s for s in scenarios if s.name in scenario_names or s.spec in scenario_names]
    with tempfile.TemporaryDirectory(prefix="ro-agents-") as out:
        for name in names:
            todo = scenarios
            if resume and (directory / RECORD_NAME).is_file():
                entry: dict[str, Any] = next(
                    (c for c in load(directory).get("clients", []) if c["client"] == name), {}
                )
                done = {
                    cell["scenario"]
                    for cell in entry.get(PROXY_CELLS if via_proxy else "cells", [])
                }
                todo = [s for s in scenarios if s.name not in done]
            print(f"recording {name}: {len(todo)} scenarios", flush=True)
            if todo:
                record_client(BY_NAME[name], todo, Path(out), directory, via_proxy)


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold the record's lock: several recordings (one per client) may run at once."""
    import fcntl

    with open(directory / f".{RECORD_NAME}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _merge(directory: Path, entry: dict[str, Any], key: str = "cells") -> None:
    """Put one client's entry into the record (its ``key`` cells replace those of the
    same scenarios; cells recorded the other way, direct or behind the proxy, stay), and
    save."""
    path = directory / RECORD_NAME
    data = load(directory) if path.is_file() else {}
    data["generated_by"] = SCRIPT
    data["scenarios"] = [
        {"name": s.name, "spec": s.spec, "kind": s.kind, "what": s.what} for s in builtin()
    ]
    clients = {c["client"]: c for c in data.get("clients", [])}
    old = clients.get(entry["client"], {"cells": []})
    previous = {c["scenario"]: c for c in old.get(key, [])}
    previous.update({c["scenario"]: c for c in entry[key]})
    order = [s["name"] for s in data["scenarios"]]
    cells = sorted(previous.values(), key=lambda c: order.index(c["scenario"])
                   if c["scenario"] in order else len(order))
    # The entry's description comes from the direct recording when there is one.
    base = {**old} if key == PROXY_CELLS and old.get("cells") else {**old, **entry}
    clients[entry["client"]] = {**base, key: cells}
    data["clients"] = [clients[p.name] for p in PROFILES if p.name in clients]
    save(directory, data)


def save(directory: Path, data: Mapping[str, Any]) -> None:
    """Write the record."""
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    (directory / RECORD_NAME).write_text(text, encoding="utf-8")


def load(directory: Path) -> dict[str, Any]:
    """The committed record."""
    return dict(json.loads((directory / RECORD_NAME).read_text(encoding="utf-8")))


def _mark(recorded: Mapping[str, Any]) -> str:
    """A cell's three marks; a gateway's ``answer_kept`` after a slash (gateway mode)."""
    run = cell_from_json(dict(recorded))
    found = marks(run)
    kept = answer_kept(run)
    gateway = "" if kept is None else "/" + SYMBOL["ok" if kept else "FAIL"]
    json_only = NOT_STREAMED if run.stream is False else ""
    return "".join(SYMBOL[found[key]] for key in VERDICTS) + gateway + json_only


def _cell(recorded: Mapping[str, Any] | None) -> Any:
    return cell_from_json(dict(recorded)) if recorded is not None else None


def _outcome(recorded: Mapping[str, Any], direct: Mapping[str, Any] | None = None) -> str:
    """A recorded cell's outcome; ``direct``: for a cell behind the proxy, the same
    client's direct cell on the same scenario (``report.outcome``)."""
    return outcome(cell_from_json(dict(recorded)), _cell(direct))


def _why(recorded: Mapping[str, Any], direct: Mapping[str, Any] | None = None) -> str:
    return why(cell_from_json(dict(recorded)), _cell(direct))


ISSUE = re.compile(r"^([\w.-]+/[\w.-]+)#(\d+)$")
"""A public issue or pull request as the catalogue cites it (``owner/repo#N``)."""


def _cause(recorded: Mapping[str, Any], direct: Mapping[str, Any] | None = None) -> str:
    """For a counted cell: its root cause(s) and the scenario's evidence, linked
    (every counted ✗ links what shows a provider sends it); ``""`` for any other."""
    run = cell_from_json(dict(recorded))
    if outcome(run, _cell(direct)) not in COUNTED:
        return ""
    shown = _evidence(evidence(run.scenario))
    return (f" — cause: {', '.join(causes(run)) or 'not replayed'}"
            + (f"; evidence: {shown}" if shown else ""))


def _evidence(found: Sequence[str]) -> str:
    """Evidence as the page links it: a public issue to its thread, a capture path as
    code."""
    return ", ".join(
        f"[`{each}`](https://github.com/{m.group(1)}/issues/{m.group(2)})"
        if (m := ISSUE.match(each)) else f"`{each}`"
        for each in found
    )


def _direct(client: Mapping[str, Any], behind: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A client's direct cell on the scenario of its cell ``behind`` the proxy, recorded
    on the same scenario list (what the proxy cell is compared with), or None."""
    return next((x for x in client.get("cells", []) if x["scenario"] == behind["scenario"]
                 and x.get(SCENARIO_LIST) == behind.get(SCENARIO_LIST)), None)


def _grid(recorded: Mapping[str, Any], direct: Mapping[str, Any] | None = None) -> str:
    """A cell of the grid: the scenario's marks, then the clean twin's after
    ``TWIN_MARK`` (none recorded: ``?``); a cell that is not judged in italics."""
    twin = recorded.get("twin")
    shown = _mark(recorded)
    if recorded["ran"] and not recorded.get("not_applicable"):
        shown += f"{TWIN_MARK}{_mark(twin) if isinstance(twin, Mapping) else '?'}"
    return f"*{shown}*" if _outcome(recorded, direct) == NOT_JUDGED else shown


def timeline_link(name: str) -> str:
    """A scenario's timeline page, relative to the page."""
    return f"{TIMELINES}/{scenario_slug(name)}.html"


def columns(
    clients: Sequence[Mapping[str, Any]],
) -> list[tuple[Column, list[Any], Mapping[str, Any] | None]]:
    """The matrix's columns in the Clients table's order, each client's column behind
    the proxy after its direct one, with their recorded cells and, for a column behind
    the proxy, the client's entry (its direct cells are what a proxy cell is compared
    with)."""
    return [
        column
        for c in clients
        for column in [(Column(c["client"], False), c["cells"], None)]
        + ([(Column(c["client"], True), c[PROXY_CELLS], c)] if c.get(PROXY_CELLS) else [])
    ]


def _shown(
    column: Column, recorded: Mapping[str, Any], direct: Mapping[str, Any] | None = None
) -> Shown:
    """A recorded cell as the matrix draws it (``direct``: for a cell behind the proxy,
    the client's direct cell it is compared with)."""
    twin = recorded.get("twin")
    twin_marks = ""
    if recorded["ran"] and not recorded.get("not_applicable"):
        twin_marks = _mark(twin) if isinstance(twin, Mapping) else "?"
    run = cell_from_json(dict(recorded))
    found = _outcome(recorded, direct)
    shown = _mark(recorded)
    failed = {key for key, mark in marks(run).items() if mark == "FAIL"}
    failed |= {ANSWER_KEPT} if answer_kept(run) is False else set()
    return Shown(
        outcome=found,
        marks=shown,
        title=title(column, recorded["scenario"], found, shown, twin_marks, _why(recorded, direct)),
        no_verdict=found == NO_VERDICT,
        broke=tuple(label for label, key in BROKEN_LABELS if key in failed),
    )


def _rows(data: Mapping[str, Any]) -> tuple[list[Column], list[Row]]:
    """The matrix: its columns, and a row per scenario of the record."""
    found = columns(data.get("clients", []))
    rows = []
    for scenario in data.get("scenarios", []):
        name = scenario["name"]
        cells = []
        for column, recorded, client in found:
            cell_ = next((x for x in recorded if x["scenario"] == name), None)
            direct = _direct(client, cell_) if client is not None and cell_ else None
            cells.append(_shown(column, cell_, direct) if cell_ is not None else None)
        rows.append(Row(name, scenario["what"], SITE_UP + timeline_link(name), cells))
    return [column for column, _, _ in found], rows


BROKEN_LABELS = (*((LABELS[key], key) for key in VERDICTS), ("answer kept", ANSWER_KEPT))
"""Each verdict a cell can break, as the verdict filter names it, and its key."""


MARKS = (
    ("✓ ✗ -", "the verdict holds, is broken, does not apply (in order: executed, "
     "history-faithful, API-valid)"),
    ("?", "serve gave no verdict: no call to judge"),
    ("·", "not run"),
    ("∅", "not applicable"),
    ("/✓ /✗", "a gateway's fourth verdict, answer kept"),
    (NOT_STREAMED, "the client did not stream: it got the terminal response object"),
)
"""The marks in a cell, as the legend explains them."""


def render(data: Mapping[str, Any]) -> str:
    """The Real agents page for a record."""
    clients = data.get("clients", [])
    scenarios = data.get("scenarios", [])
    matrix_columns, matrix_rows = _rows(data)
    lines = [
        # The matrix is as wide as the page: no navigation or contents beside it.
        "---",
        "hide:",
        "  - navigation",
        "  - toc",
        "---",
        "",
        f"<!-- Generated by `{COMMAND}` from docs/{RECORD_NAME}; do not edit. "
        f"Re-record with `{SCRIPT}`. -->",
        "",
        "# Real agents",
        "",
        headline(data),
        "",
        "Each cell below is one client run on one scenario, coloured by its outcome. "
        "Its marks are serve's three verdicts on the client's next request: **executed**, "
        "**history-faithful**, **API-valid** (the legend is under the matrix). Point at "
        "a cell for serve's reason and the clean twin's marks; click it for the timeline "
        "of the stream serve played. The filters narrow the matrix by client, scenario, "
        "outcome, a verdict that broke and proxy; a click on an outcome above the matrix "
        "shows its cells only.",
        "",
        matrix(matrix_columns, matrix_rows, OUTCOMES, [label for label, _ in BROKEN_LABELS]),
        "",
        *legend(OUTCOMES, MEANING, matrix_columns, matrix_rows, HELD),
        "",
        *table(("mark", "means"), ((f"`{m}`", text) for m, text in MARKS)),
        "",
        *_bugs(data),
        "## How a cell is judged",
        "",
        "What real agents, agent libraries and gateways *did* when pointed at "
        "`responses-oracle serve`: for each client and scenario, serve played the stream "
        "(its calls mapped onto a tool the client offered, with harmless arguments), the "
        "client ran unmodified in a fresh temporary HOME, and serve judged the client's "
        "next request. **executed**: the tool ran with the oracle's arguments, and a call "
        "the oracle says must not run did not. **history-faithful**: the replayed call "
        "pairs with its output under a call id the provider gave it, with its name and "
        "arguments JSON-equal to what ran, and an id the provider gave it where it carries "
        "one or follows a replayed reasoning item; another of the provider's ids, or other "
        "bytes of the same JSON, is a note, never a ✗. **API-valid**: the replayed items "
        "would be accepted as request input. A gateway's cell adds **answer kept**: what "
        "the gateway sent its own client reduces to the answer of the stream serve sent it "
        "(each difference names its rule); a gateway is judged on that alone, and its "
        "downstream client's verdicts belong to that client's own row (openai-python). "
        "Not applicable: no tool the client offered takes the scenario's calls as a model "
        "would make them (a zero-argument call needs a tool of no parameter, a custom tool "
        "call a custom tool, a client tool search a declared one).",
        "",
        "Every scenario is a complete base stream, as the API sends it, plus its declared "
        "deviations, each with its evidence (`agents --list`). Its **clean twin** is the "
        "base itself, with the same calls mapped onto the same tool with the same harmless "
        "arguments, played to the same client (`serve --twin`). A broken verdict counts "
        "only where the twin holds that verdict (a client that drops a call on the "
        "scenario and runs it on the twin broke on the deviation, whatever else the twin "
        "breaks); a cell whose every broken verdict the twin does not hold either (or has "
        "no twin recorded) is *not judged*, with the twin's "
        "reason under [Why](#why). A cell is only what the client did when it was run: a "
        "client that could not be installed or started, or that sent no request, is "
        "*not run*, with the reason, never a verdict. How to run one yourself: "
        "[Agents against serve](usage/agents.md).",
        "",
        f"Recorded with `{SCRIPT}` (it installs the pinned versions below, outside the "
        "repository, then records one client at a time). Each cell is stamped with the "
        "scenario list it ran on: *recorded on* says whether a client's cells are on the "
        "current scenarios (each a base stream plus declared deviations) or an older "
        "record, made on an earlier list.",
        "",
        "## Clients",
        "",
        *table(
            ("client", "kind", "package", "version", "driven", "sandbox", "recorded",
             "recorded on", "cells " + " / ".join(OUTCOMES)),
            (
                (
                    c["client"], c["kind"], f"`{c['package']}` ({c['registry']})",
                    c["version"], c["driven"], c["sandbox"],
                    c.get("finished_at", ""), recorded_on(c), _counts(c),
                )
                for c in clients
            ),
        ),
        "",
    ]
    notes = [c for c in clients if c.get("note")]
    lines += [f"- **{c['client']}**: {c['note']}." for c in notes]
    lines += _behind_proxy(clients)
    lines += ["", "## Scenarios", "",
              "Scenario names link to the timeline of the stream serve played.", ""]
    lines += table(("scenario", "kind", "serve is given", "what it checks"), (
        (f"[{s['name']}]({timeline_link(s['name'])})", s["kind"], f"`{s['spec']}`", s["what"])
        for s in scenarios
    ))
    lines += ["", "## Why", "",
              "Every cell that broke a verdict, was not judged, was not run or is not "
              "applicable, with serve's reason; after the marks, the clean twin's.", ""]
    for client in clients:
        reasons = [
            (x["scenario"], _grid(x), why(cell_from_json(x)) + _cause(x))
            for x in client["cells"]
            if _outcome(x) not in (HELD, NO_VERDICT)
        ]
        if not reasons:
            continue
        lines += [f"### {client['client']}", ""]
        if len(reasons) == len(client["cells"]) and len({r for _, _, r in reasons}) == 1:
            lines += [f"Not run on any of its {len(reasons)} scenarios: {reasons[0][2]}.", ""]
            continue
        lines += table(("scenario", "verdicts", "why"),
                       ((s, m, cell(r)) for s, m, r in reasons))
        lines.append("")
    lines += _without_verdict(clients)
    return "\n".join(lines).rstrip() + "\n"


def headline(data: Mapping[str, Any]) -> str:
    """The page's verdict first: how many clients ran, on how many scenarios, how many of
    their cells held every verdict or broke one (per verdict and per root cause), the
    proxy regressions, and which clients were not run.  The figures count only cells
    recorded on the current scenario list; the clients whose cells are older records are
    named, never mixed in."""
    clients = data.get("clients", [])
    ran = [c for c in clients if any(x["ran"] for x in c["cells"])]
    idle = [c["client"] for c in clients if c not in ran]
    digest = list_digest()
    cells = [x for c in ran for x in c["cells"] if x["ran"] and x.get(SCENARIO_LIST) == digest]
    older = [c["client"] for c in ran
             if any(x.get(SCENARIO_LIST) != digest for x in c["cells"] if x["ran"])]
    found = [_outcome(x) for x in cells]
    broke = found.count(BROKEN)
    direct = [cell_from_json(x) for x in cells]
    gateways = sum(c["kind"] == "gateway" for c in ran)
    text = (
        f"**{len(ran)} of {counted(len(clients), 'client')} ran** "
        f"({len(ran) - gateways} agents and agent libraries, "
        f"{counted(gateways, 'gateway')}) on "
        f"{counted(len(data.get('scenarios', [])), 'scenario')}: "
        f"of their {counted(len(cells), 'cell')} recorded on the current scenarios, "
        f"{found.count(HELD)} held every verdict that "
        f"applies, {broke} broke one the clean twin keeps"
        + (f" (**{counted(len(bugs(direct)), 'bug')}**: a client and a root cause, each "
           "counted once however many scenarios show it: [Bugs](#bugs))" if broke else "")
        + f", {found.count(NOT_JUDGED)} were "
        f"not judged (the twin did not hold, or none was recorded), "
        f"{found.count(NOT_APPLICABLE)} were not applicable and "
        f"{found.count(NO_VERDICT)} got none (no call to judge: "
        "[Without a verdict](#without-a-verdict))."
    )
    if broke:
        text += f" Broken cells, by verdict: {_listed(by_verdict(direct))}; bugs, by root " \
                f"cause: {_listed(by_cause(direct))}."
    uncounted = found.count(NOT_COUNTED)
    if uncounted:
        text += (f" {counted(uncounted, 'cell')} broke a verdict on a robustness row (a "
                 "scenario no provider is shown to send, or one the oracle calls an "
                 "error), in the driver's own reading of an SDK without a tool loop "
                 f"({', '.join(p.name for p in PROFILES if p.driver_loop)}), or refused by "
                 "a check of the client's own (openai-python's "
                 "identity checks): shown, not counted.")
    behind = [(c, x) for c in ran for x in c.get(PROXY_CELLS, [])
              if x["ran"] and x.get(SCENARIO_LIST) == digest]
    if behind:
        lost = sum(_outcome(x, _direct(c, x)) == PROXY_REGRESSION
                   for c, x in behind)
        text += (f" Behind the proxy, {counted(lost, 'proxy regression')} (a verdict held "
                 f"directly, lost behind the proxy) in {counted(len(behind), 'cell')}")
        earlier = sum(not with_todays_proxy(x) for _, x in behind)
        text += (f"; {counted(earlier, 'cell')} of them recorded with an earlier proxy, "
                 "which passed on another stream than today's for its scenario (re-record: "
                 "`python tools/record_agents.py --via-proxy`)." if earlier else ".")
    if older:
        text += (f" Older records, on an earlier scenario list and not in these figures "
                 f"(their cells are shown below, marked under *recorded on*): "
                 f"{', '.join(older)}.")
    if idle:
        text += f" Not run: {', '.join(idle)} (the reason is under [Why](#why))."
    return text


def _bugs(data: Mapping[str, Any]) -> list[str]:
    """The Bugs section: each bug of the direct cells recorded on the current list (a
    client and a root cause, ``report.bugs``), its cause's evidence and the cells that
    show it, the causes with most bugs first."""
    digest = list_digest()
    cells = [cell_from_json(x) for c in data.get("clients", []) for x in c["cells"]
             if x["ran"] and x.get(SCENARIO_LIST) == digest]
    found = bugs(cells)
    if not found:
        return []
    order = list(by_cause(cells))
    found.sort(key=lambda bug: (min(order.index(c) for c in bug.causes), bug.client))
    streams: dict[str, list[str]] = {}
    for scenario in data.get("scenarios", []):
        streams.setdefault(same_stream(scenario["name"]), []).append(f"`{scenario['name']}`")
    shared = [" = ".join(names) for names in streams.values() if len(names) > 1]
    return [
        "## Bugs", "",
        f"**{counted(len(found), 'bug')} in {counted(sum(len(b.cells) for b in found), 'cell')}.** "
        "A bug is one client and one root cause: the deviation that breaks the client "
        "alone, replayed by itself. Every counted ✗ is listed under its bug. Cells of one "
        "client whose scenarios serve the same stream up to ids are one bug, whatever "
        "cause was recorded"
        + (f"; the list serves {counted(len(shared), 'stream')} under more than one name: "
           f"{'; '.join(shared)}." if shared else "."),
        "",
        *table(("root cause", "client", "cells", "evidence"), (
            (", ".join(bug.causes), bug.client,
             ", ".join(f"[{x.scenario}]({timeline_link(x.scenario)})" for x in bug.cells),
             _evidence([shown for cause in bug.causes if cause in DEVIATIONS
                        for shown in DEVIATIONS[cause].evidence]))
            for bug in found
        )),
        "",
    ]


def _listed(tally: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in tally.items()) or "none"


def _behind_proxy(clients: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a *CLIENT via proxy* column is, and how its cells went."""
    behind = [(c, x) for c in clients for x in c.get(PROXY_CELLS, [])]
    if not behind:
        return []
    found = [(c["client"], x, _outcome(x, _direct(c, x)), _direct(c, x))
             for c, x in behind]
    held = sum(said == HELD for _, _, said, _ in found)
    lost = [(name, x, direct) for name, x, said, direct in found if said == PROXY_REGRESSION]
    lines = [
        "",
        f"A column *CLIENT via proxy* is the same client, run the same way, with "
        f"`responses-oracle proxy` between serve and it ([Repairing a provider's "
        f"stream]({PROXY_PAGE})): the client gets the oracle's canonical stream of what "
        f"serve played, and serve judges its next request as before. Each is compared "
        f"with the same client *direct* on the same scenario: a verdict held directly "
        f"and lost behind the proxy is a **proxy regression**. Only the cells "
        f"recorded so are filled: of {counted(len(behind), 'cell')} behind the proxy, "
        f"{held} held every verdict that applies, and "
        f"{counted(len(lost), 'proxy regression')}"
        + (" (" + ", ".join(f"{name} on {x['scenario']}" for name, x, _ in lost) + ")"
           if lost else "") + ".",
        "",
        *table(
            ("client", "scenarios behind the proxy", "recorded on",
             "held / proxy regressions / not judged / not counted / not applicable / not run",
             "direct, on the same"),
            (
                (f"{c['client']} via proxy", str(len(c[PROXY_CELLS])),
                 recorded_on(c, PROXY_CELLS) + _earlier_proxy(c), _counts(c, PROXY_CELLS),
                 _counts(_direct_twins(c)))
                for c in clients if c.get(PROXY_CELLS)
            ),
        ),
    ]
    broke = [(name, x, direct) for name, x, said, direct in found
             if said not in (HELD, NOT_APPLICABLE, NO_VERDICT)]
    if broke:
        lines += ["", *table(("client", "scenario", "verdicts", "why"), (
            (f"{name} via proxy", x["scenario"], _grid(x, direct),
             cell(_why(x, direct) + _cause(x, direct)))
            for name, x, direct in broke
        ))]
    return lines


def _earlier_proxy(client: Mapping[str, Any]) -> str:
    """How many of a client's cells behind the proxy an earlier proxy recorded, said after
    *recorded on* (nothing when none)."""
    earlier = sum(not with_todays_proxy(x) for x in client.get(PROXY_CELLS, []))
    return f"; {earlier} with an earlier proxy" if earlier else ""


def _direct_twins(client: Mapping[str, Any]) -> dict[str, Any]:
    """The client's direct cells on the scenarios it was recorded on behind the proxy,
    as a client entry (``_counts`` compares the two on the same scenarios)."""
    behind = {x["scenario"] for x in client.get(PROXY_CELLS, [])}
    return {"cells": [x for x in client.get("cells", []) if x["scenario"] in behind]}


def _without_verdict(clients: Sequence[Mapping[str, Any]]) -> list[str]:
    """The cells that ran but got no verdict (``?``), by scenario, with serve's reasons."""
    found: dict[str, dict[str, list[str]]] = {}
    for client in clients:
        for x in client["cells"]:
            if x["ran"] and not x["calls"] and not x.get("not_applicable"):
                found.setdefault(x["scenario"], {}).setdefault(x["reason"], []).append(
                    client["client"])
    if not found:
        return []
    lines = ["## Without a verdict", "",
             "Cells that ran but where serve had no call to judge (`?`), with its reason.", ""]
    rows = [
        (scenario, ", ".join(names), cell(reason))
        for scenario, by_reason in found.items()
        for reason, names in by_reason.items()
    ]
    return [*lines, *table(("scenario", "clients", "serve's reason"), rows), ""]


PEER_CLIENTS = ("opencode", "codex")
"""The peers of the peers page (``peers.PEERS``) that are agents this page runs."""


def measured(data: Mapping[str, Any], client: str, scenario: str) -> str | None:
    """What the recorded run of ``client`` did with ``scenario``, for the peers page: each
    verdict's mark, a broken one with serve's reason; None if it was not recorded."""
    entry = next((c for c in data.get("clients", []) if c["client"] == client), None)
    found = next((x for x in (entry or {}).get("cells", []) if x["scenario"] == scenario), None)
    if entry is None or found is None:
        return None
    head = f"**run** ({entry['version']}, [Real agents](real-agents.md)):"
    recorded = cell_from_json(dict(found))
    if not recorded.ran or not recorded.calls:
        return f"{head} {why(recorded) or 'no verdict'}"
    shown = marks(recorded)
    parts = []
    for key in VERDICTS:
        text = f"{LABELS[key]} {SYMBOL[shown[key]]}"
        if shown[key] == "FAIL":
            reason = next(c.reasons.get(key, "") for c in recorded.calls
                          if c.values.get(key) is False)
            text += f" ({reason[:140]})"
        parts.append(text)
    return f"{head} {', '.join(parts)}"


def _counts(client: Mapping[str, Any], key: str = "cells") -> str:
    """How a client's cells went (``key``: its direct ones, or ``PROXY_CELLS``), in the
    order of the Clients table's last column."""
    found = [_outcome(c, _direct(client, c) if key == PROXY_CELLS else None)
             for c in client.get(key, [])]
    return " / ".join(str(found.count(kind)) for kind in OUTCOMES)


def render_timelines(data: Mapping[str, Any]) -> dict[str, str]:
    """The timeline page of every scenario of the record, and the one copy of the script
    and style they share (beside them): path under ``docs/`` → text."""
    from responses_oracle.timeline import render_html

    from .timelines import asset_pages

    header = f"Generated by {COMMAND} from docs/{RECORD_NAME}; do not edit."
    pages = asset_pages(TIMELINES, f"Generated by {COMMAND}; do not edit.")
    for scenario in data.get("scenarios", []):
        events = scenario_events(Scenario(**scenario))
        if events is not None:
            pages[timeline_link(scenario["name"])] = render_html(
                events, title=f"scenario {scenario['name']}: {scenario['what']}",
                rule_url="../../rules/{rule}/", generated_by=header, assets="",
            )
    return pages


def main(argv: Sequence[str] | None = None) -> int:
    """Record clients, render the page, or check it."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", nargs="*", metavar="CLIENT",
                        help="run these clients (default: all) and record them")
    parser.add_argument("--scenario", action="append", default=[],
                        help="record only this scenario (repeatable)")
    parser.add_argument("--resume", action="store_true",
                        help="with --record: only the scenarios a client has no cell for")
    parser.add_argument("--via-proxy", action="store_true",
                        help="with --record: with the proxy between serve and each client, "
                        "into the clients' proxy columns")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    directory = docs_dir()
    if args.record is not None:
        # Behind the proxy, every agent by default: the proxy goes before agents only.
        default = [p.name for p in PROFILES if not (args.via_proxy and p.gateway)]
        record(args.record or default, args.scenario, directory, args.resume, args.via_proxy)
    data = load(directory)
    wanted = {PAGE_NAME: render(data), **render_timelines(data)}
    folder = directory / TIMELINES
    extra = [path for path in folder.glob("*.html")
             if path.relative_to(directory).as_posix() not in wanted] if folder.is_dir() else []
    if args.check:
        stale = [name for name, text in wanted.items()
                 if not (directory / name).is_file()
                 or (directory / name).read_text(encoding="utf-8") != text]
        stale += [path.relative_to(directory).as_posix() for path in extra]
        for name in stale:
            sys.stderr.write(f"docs/{name} is stale: run {COMMAND}\n")
        return 1 if stale else 0
    for name, text in wanted.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text, encoding="utf-8")
    for path in extra:
        path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
