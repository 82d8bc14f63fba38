"""How many streams per second ``responses-oracle diff`` compares, and where the time goes.

Runs the harness against a *trivial* candidate (a subprocess that answers every
request with no results, without parsing it), so the candidate costs almost nothing
and what is measured is the harness: case generation, the JSON Lines protocol, the
oracle's reduction and the comparison.  Each stage is then timed on its own over the
same cases, so a slow stage shows up by name.  No shrinking (the trivial candidate
diverges on everything; shrinking is per distinct divergence, not per stream).

    python benchmarks/diff_throughput.py [--count 2000] [--jobs 4]

Numbers, not assertions: the test suite has no timed tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from responses_oracle.testing.candidate import ProcessCandidate
from responses_oracle.testing.cases import generated_case
from responses_oracle.testing.compare import compare
from responses_oracle.testing.harness import Generation, run_diff
from responses_oracle.testing.oracle_trace import oracle_json

TRIVIAL = (
    "import sys\n"
    "out = sys.stdout\n"
    "for line in sys.stdin:\n"
    "    start = line.index('\"id\":\"') + 6\n"
    "    out.write('{\"id\":\"' + line[start:line.index('\"', start)] + '\",\"results\":[]}\\n')\n"
    "    out.flush()\n"
)
"""A candidate that answers without decoding the request: the cheapest possible peer."""


def _rate(label: str, count: int, work: Callable[[], Any]) -> float:
    started = time.perf_counter()
    work()
    seconds = time.perf_counter() - started
    print(f"{label:<44} {count / seconds:>10.0f} streams/s  ({seconds:.2f} s)")
    return seconds


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    command = [sys.executable, "-c", TRIVIAL]
    count = args.count

    cases = [generated_case(0, index) for index in range(count)]
    events = sum(len(case.stream.events) for case in cases)
    print(f"{count} generated streams, {events / count:.1f} events each on average\n")

    _rate("generation (seed 0)", count, lambda: [generated_case(0, i) for i in range(count)])
    results = [oracle_json(case.stream.events) for case in cases]
    _rate("oracle reduce + to_json", count, lambda: [oracle_json(c.stream.events) for c in cases])
    candidate = ProcessCandidate(command)
    answers = candidate.answer([case.stream for case in cases[:10]])  # start the process
    _rate(
        "protocol round trip (batched, 1 process)",
        count,
        lambda: candidate.answer([case.stream for case in cases]),
    )
    answers = candidate.answer([case.stream for case in cases])
    candidate.close()
    _rate(
        "compare",
        count,
        lambda: [
            compare(case.stream.events, result, answer)
            for case, result, answer in zip(cases, results, answers, strict=True)
        ],
    )
    print()
    for jobs in sorted({1, args.jobs}):
        _rate(
            f"diff end to end, --jobs {jobs}",
            count,
            lambda jobs=jobs: run_diff(  # type: ignore[misc]
                command, generation=Generation(0, count), jobs=jobs, shrink_clusters=False
            ),
        )


if __name__ == "__main__":
    main()
