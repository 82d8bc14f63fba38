"""How big the timeline page of a long stream is, and how long it takes to make.

For each size, the benchmark stream (``streams.generate``: 16 parallel calls, a long
message and a reasoning summary, every item closed and the snapshot repeating them all)
is drawn with ``responses_oracle.timeline``: ``build`` is the traced reduction and the
layout (``build_timeline``), ``render`` the HTML (``render_timeline``).  Reported: the
best of ``--repeat`` runs of each, the page's size, and how many marks and SVG elements
it holds, which is what a browser has to lay out.  Opening the page in Chromium is
checked by ``tests/timeline/test_timeline_browser.py`` (a 20,000-event page), not timed.

    python benchmarks/timeline.py [--sizes 1000,10000,100000] [--repeat 3]

Numbers, not assertions: the test suite has no timed tests.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import TypeVar

from responses_oracle.timeline import build_timeline, render_timeline
from streams import generate

T = TypeVar("T")


def best(run: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The shortest wall time of ``repeat`` runs, and the last run's value."""
    times: list[float] = []
    value: T | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    assert value is not None
    return min(times), value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| events | build s | render s | page KiB | marks | runs | SVG elements |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (int(text) for text in args.sizes.split(",")):
        stream = generate(size)
        built, timeline = best(functools.partial(build_timeline, stream.events), args.repeat)
        draw = functools.partial(render_timeline, timeline, title="bench")
        rendered, page = best(draw, args.repeat)
        marks = sum(len(r.marks) for r in timeline.responses)
        runs = sum(m.count > 1 for r in timeline.responses for m in r.marks)
        elements = page.count("<rect") + page.count("<line") + page.count("<g ")
        print(
            f"| {size:,} | {built:.2f} | {rendered:.3f} | {len(page.encode()) / 1024:,.0f} "
            f"| {marks:,} | {runs:,} | {elements:,} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
