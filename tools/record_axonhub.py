"""Record AxonHub's run: its two candidates on every stream, per checkout.

    python tools/record_axonhub.py --src /path/to/axonhub [--src /path/to/other] \
        [--not-built COMMIT=WHY ...]

Rules
-----
1. Only what ran is recorded.  Each ``--src`` is a checkout of AxonHub at one commit;
   both Go candidates (``axonhub-stream``, ``axonhub-stored``: adapters/go/axonhub,
   built against that checkout by ``differential.go_candidates``) answer every stream,
   and the record holds their answers as the app would read them, next to the oracle's.
2. The streams: ``diff``'s default generation (seed 0, 300 streams) for the overall
   verdict, and every named stream a user can look up -- the agents' scenarios
   (``impl/agents/scenarios.json``), the bundled vectors (``corpus.json``), the peers
   page's scenarios, the quirk, scenario, peer and capture fixtures.
3. "Agrees on its calls" means the calls an app would run from the candidate's answer
   (call id, name, arguments or input, in order: ``upstream.gateway_view``'s
   ``tool_calls``) and the status that tells it whether to run them are a correct
   client's (``upstream.expected_items`` of the oracle's answer), and the candidate did
   not fail; counted over the named streams with a call on either side and one response.
4. A commit that does not build is recorded with why (``--not-built``), not measured.

The record is ``docs/axonhub-runs.json``; ``python -m responses_oracle.docsite`` renders
it into the peers page (AxonHub's column and the seed PR's behaviours).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from responses_oracle.agents.scenario_list import builtin, scenario_events
from responses_oracle.differential.candidate import Failure, ProcessCandidate
from responses_oracle.differential.conformance_vectors import corpus_vectors
from responses_oracle.differential.go_candidates import axonhub_module, go_command
from responses_oracle.differential.harness import Generation, run_diff
from responses_oracle.differential.oracle_trace import oracle_json
from responses_oracle.differential.upstream import answer_items, expected_items, gateway_view
from responses_oracle.docsite.peers import SCENARIOS
from responses_oracle.streamgen.cases import Case, corpus_cases
from responses_oracle.streamgen.streams import GeneratedStream

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "docs" / "axonhub-runs.json"
CANDIDATES = ("axonhub-stream", "axonhub-stored")
FIXTURES = ("fixtures/quirks", "fixtures/scenarios", "fixtures/peers", "fixtures/captures")


def named_streams() -> list[tuple[str, list[dict[str, Any]]]]:
    """Every named stream, ``(label, events)``: peers page, scenarios, vectors, fixtures."""
    streams = [(f"peers/{s.key}", [dict(e) for e in s.example.events]) for s in SCENARIOS]
    for scenario in builtin():
        events = scenario_events(scenario)
        if events is not None:
            streams.append((f"scenario/{scenario.name}", events))
    streams += [(f"vector/{v.name}", [dict(e) for e in v.events]) for v in corpus_vectors()]
    for folder in FIXTURES:
        for case in corpus_cases([ROOT / folder]):
            name = Path(case.name).relative_to(ROOT).as_posix()
            streams.append((name, [dict(e) for e in case.stream.events]))
    return streams


def calls(view: Mapping[str, Any]) -> dict[str, Any]:
    """The calls an app runs from a view, and the status that tells it whether to."""
    return {"status": view.get("status"), "tool_calls": list(view.get("tool_calls") or [])}


def shown(seen: Mapping[str, Any] | None, failure: str | None) -> str:
    """A short text of what the app gets: its calls (after the status when the response
    did not complete), no call, or the error."""
    if failure is not None or seen is None:
        return "error: " + (failure or "no answer").splitlines()[0][:160]
    status = {"completed": "", None: "no status: "}.get(seen["status"], f"{seen['status']}: ")
    if not seen["tool_calls"]:
        return status + "no call"
    return status + "; ".join(f"{c.get('call_id')} {json.dumps(c.get('arguments'))}"
                              for c in seen["tool_calls"])


def judge(command: list[str], streams: Sequence[tuple[str, list[dict[str, Any]]]]
          ) -> dict[str, Any]:
    """Each named stream's calls, the candidate's against the oracle's (rule 3)."""
    candidate = ProcessCandidate(command, timeout=60)
    try:
        answers = candidate.answer([GeneratedStream(tuple(events)) for _, events in streams])
    finally:
        candidate.close()
    judged: dict[str, Any] = {}
    for (label, events), answer in zip(streams, answers, strict=True):
        reference = oracle_json(events)
        if len(reference) != 1:
            continue
        want = calls(gateway_view(reference[0], expected_items(reference[0]), False))
        failure = answer.message if isinstance(answer, Failure) else None
        got: dict[str, Any] | None = None
        if failure is None and not isinstance(answer, Failure) and len(answer) == 1:
            result, items = answer_items(answer)
            got = calls(gateway_view(result, items, False))
        if not want["tool_calls"] and not (got or {}).get("tool_calls"):
            continue
        judged[label] = {"agrees": failure is None and got == want,
                         "got": shown(got, failure), "expected": shown(want, None)}
    return judged


def commit_of(src: str) -> dict[str, str]:
    """The checkout's commit: its hash, date and subject (git log)."""
    out = subprocess.run(["git", "-C", src, "log", "-1", "--format=%H%n%cs%n%s"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return {"commit": out[0][:8], "full": out[0], "date": out[1], "subject": out[2]}


def record_checkout(src: str, streams: Sequence[tuple[str, list[dict[str, Any]]]],
                    corpus: Sequence[Case]) -> dict[str, Any]:
    """One checkout's run of both candidates."""
    axonhub_module(src)  # a clear error before any build when src is no checkout
    run: dict[str, Any] = {**commit_of(src), "candidates": {}}
    for name in CANDIDATES:
        command = go_command(name, src)
        report = run_diff(command, generation=Generation(), corpus=corpus, split=True)
        judged = judge(command, streams)
        run["candidates"][name] = {
            "cases": report.cases,
            "diverging": len(report.findings),
            "by_class": {d.value: n for d, n in report.by_class().items()},
            "clusters": [{"id": c.id, "class": c.divergence.value, "streams": len(c.cases),
                          "message": c.message or ""} for c in report.clusters],
            "calls": {"streams": len(judged),
                      "agree": sum(1 for j in judged.values() if j["agrees"]),
                      "by_stream": judged},
        }
        sys.stderr.write(f"{run['commit']} {name}: {len(report.findings)} of {report.cases} "
                         f"streams diverge; calls agree on "
                         f"{run['candidates'][name]['calls']['agree']} of {len(judged)}\n")
    return run


def main(argv: Sequence[str] | None = None) -> int:
    """Run every checkout given and write the record."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, metavar="DIR")
    parser.add_argument("--not-built", action="append", default=[], metavar="COMMIT=WHY")
    args = parser.parse_args(argv)
    streams = named_streams()
    corpus = corpus_cases([ROOT / folder for folder in FIXTURES])
    go = subprocess.run(["go", "version"], capture_output=True, text=True, check=True)
    record: dict[str, Any] = {
        "generated_by": "tools/record_axonhub.py",
        "go": go.stdout.split()[2],
        "python": platform.python_version(),
        "named_streams": len(streams),
        "runs": [record_checkout(src, streams, corpus) for src in args.src],
        "not_built": [dict(zip(("commit", "why"), item.split("=", 1), strict=True))
                      for item in args.not_built],
    }
    RECORD.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.stderr.write(f"{RECORD.relative_to(ROOT)}: {len(record['runs'])} run(s)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
