"""AxonHub, run: the peers page's measured AxonHub cells and the seed PR's behaviours.

The record is ``docs/axonhub-runs.json``, written by ``tools/record_axonhub.py`` from
checkouts of AxonHub (its code is never part of this repository; the Go module proxy
refuses it, so a page build cannot fetch it): per commit, what the two Go candidates
(``axonhub-stream``: the chunks ``TransformStream`` gives the gateway's client;
``axonhub-stored``: the response ``AggregateStreamChunks`` stores) answered on every
named stream, and ``diff``'s verdict on the default generation plus the fixtures.  This
module only renders it; a cell names the commit it was measured at.  Without the record
the page says AxonHub was not run, and why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .docs_folder import docs_dir
from .markdown import table

RECORD_NAME = "axonhub-runs.json"
"""The record's file name under ``docs/``."""

CANDIDATE_WORDS: dict[str, str] = {
    "axonhub-stream": "streamed",
    "axonhub-stored": "stored",
}
"""How a cell names each candidate: what the gateway's client receives, what it stores."""

SEED_BEHAVIOURS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Bedrock Mantle `item_id`", "done and snapshot items name the call by `item_id` only",
     ("peers/mantle-missing-id", "scenario/c04",
      "scenario/r6_mantle_renamed_id_field_on_a_done_only_item")),
    ("done-only call", "a call whose only event is its `output_item.done`",
     ("scenario/s02", "scenario/r6_done_only_item_is_recovered", "peers/done-only-without-id")),
    ("empty done arguments, full terminal arguments",
     "the done events blank the arguments the snapshot holds",
     ("peers/arguments-only-in-snapshot", "scenario/q07",
      "scenario/r7_snapshot_fills_an_empty_done")),
    ("calls of responses that do not complete",
     "a response that ends incomplete, failed or cut holds calls no app should run",
     ("peers/incomplete-response", "scenario/s03", "scenario/s05", "scenario/s06",
      "scenario/r9_a_response_that_ends_otherwise_executes_nothing-failed",
      "scenario/r9_a_response_that_ends_otherwise_executes_nothing-incomplete",
      "scenario/r9_missing_terminal_is_interrupted")),
)
"""The seed PR's behaviours (AxonHub PR "preserve streamed tool call history"): a name,
what the stream does, and the named streams that show it (those the record has)."""


def axonhub_record() -> dict[str, Any] | None:
    """The recorded run, or None when there is none."""
    path = docs_dir() / RECORD_NAME
    if not path.is_file():
        return None
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def _verdict(judged: Mapping[str, Any] | None) -> str:
    if judged is None:
        return "no call on either side"
    mark = "✓" if judged["agrees"] else "✗"
    return f"{mark} {judged['got']}"


def run_cell(record: Mapping[str, Any], label: str) -> str:
    """What each run's candidates gave on the named stream ``label``: one line per
    commit, each candidate's calls marked ✓ when they are the oracle's."""
    lines = []
    for run in record["runs"]:
        parts = [
            f"{CANDIDATE_WORDS[name]} {_verdict(candidate['calls']['by_stream'].get(label))}"
            for name, candidate in run["candidates"].items()
        ]
        lines.append(f"**run** (`{run['commit']}`): " + "; ".join(parts))
    return "\n".join(lines)


def intro(record: Mapping[str, Any] | None, not_run: str) -> str:
    """The page's sentence on the AxonHub column: measured at which commits, or why not."""
    if record is None:
        return f"; no AxonHub cell is measured, none was run: {not_run}"
    commits = ", ".join(f"`{run['commit']}` ({run['date']})" for run in record["runs"])
    return (
        "; under **run**, the AxonHub cells say what its Go code did at "
        f"{commits}, built from a checkout against the Go module proxy's third-party "
        f"modules ({record['go']}) and run by the `axonhub-stream` and `axonhub-stored` "
        "candidates of `diff`: *streamed*, the calls the chunks of "
        "`OutboundTransformer.TransformStream` hand the gateway's client; *stored*, the "
        "calls of the response `AggregateStreamChunks` stores; ✓ where they, and the status "
        "that tells the app whether to run them, are a correct client's (see "
        "[AxonHub, run](#axonhub-run))"
    )


def _summary_rows(record: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for run in record["runs"]:
        for name, candidate in run["candidates"].items():
            calls = candidate["calls"]
            rows.append([
                f"`{run['commit']}` ({run['date']})", f"`{name}`",
                f"{candidate['diverging']} of {candidate['cases']}",
                f"{calls['agree']} of {calls['streams']}",
                ", ".join(f"`{cls}` x{n}" for cls, n in candidate["by_class"].items()) or "—",
            ])
    return rows


def _seed_rows(record: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for name, what, labels in SEED_BEHAVIOURS:
        for label in labels:
            judged = [run["candidates"][c]["calls"]["by_stream"].get(label)
                      for run in record["runs"] for c in run["candidates"]]
            if all(j is None for j in judged):
                continue
            expected = next(j["expected"] for j in judged if j is not None)
            rows.append([name, what, f"`{label}`", expected,
                         *(_verdict(j) for j in judged)])
    return rows


def section(record: Mapping[str, Any] | None) -> list[str]:
    """The page's section on AxonHub's run: per commit and candidate the verdict, the
    seed PR's behaviours, how to re-run; nothing without a record."""
    if record is None:
        return []
    columns = [f"`{run['commit']}` {CANDIDATE_WORDS[c]}"
               for run in record["runs"] for c in run["candidates"]]
    lines = [
        "## AxonHub, run {#axonhub-run}",
        "",
        "AxonHub's `llm` module, built from a checkout (never part of this repository) and "
        "run by `diff` on the default generation (seed 0, 300 streams) and the quirk, "
        "scenario, peer and capture fixtures; *calls agree* counts the named streams with "
        f"a call on either side ({record['named_streams']} named streams: the agents' "
        "scenarios, the bundled vectors, this page's scenarios and the fixtures) where "
        "the calls an app gets, and the status, are a correct client's. "
        "`axonhub-stream` differs on every stream with an item in `id_differs`: the "
        "chunks carry no item id.",
        "",
        *table(["commit", "candidate", "streams that diverge", "calls agree", "classes"],
               _summary_rows(record)),
        "",
        "### The seed PR's behaviours",
        "",
        "What AxonHub's PR \"preserve streamed tool call history\" is about, on the "
        "streams that show it: the calls a correct client runs (after the status when "
        "the response did not complete: the app is told not to run them), and what each "
        "commit gave (✓: the same).",
        "",
        *table(["behaviour", "the stream", "stream", "expected", *columns],
               _seed_rows(record)),
        "",
    ]
    for missing in record.get("not_built") or []:
        lines += [f"Not measured: `{missing['commit']}`: {missing['why']}", ""]
    lines += [
        "Re-run it from a checkout of responses-oracle with a checkout of AxonHub "
        "(`git clone` of a fork that carries its `llm` module, then `git checkout` the "
        "commit):",
        "",
        "```sh",
        "responses-oracle diff --candidate axonhub-stream --src ../axonhub",
        "responses-oracle diff --candidate axonhub-stored --src ../axonhub "
        "--report-dir reports/",
        "python tools/record_axonhub.py --src ../axonhub   # this record",
        "```",
        "",
    ]
    return lines
