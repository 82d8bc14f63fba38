"""Throughput and memory of the reducer against the JSON-decode floor and openai-python.

Run from the repository root (the ``bench`` extra installs openai-python)::

    pip install -e '.[bench]' --config-settings editable_mode=strict
    python benchmarks/run.py                       # 1k, 10k, 100k, 1M events
    python benchmarks/run.py --quick               # 1k and 10k, fewer repetitions

For each stream length (``streams.generate``: parallel interleaved function calls with
long argument deltas, long message text, reasoning) it measures, in this process and
on the same events:

- ``json floor``: ``json.loads`` over the JSON text of every event — the least any
  reducer of these bytes must do;
- ``reduce sse``: ``reduce(raw SSE bytes)`` — format detection, SSE framing, JSON
  decoding, validation, reduction, the ``Result`` objects (``max_event_bytes`` raised:
  see ``WIRE_LIMITS``);
- ``reduce events``: ``reduce(list of decoded event dicts)``;
- ``front end``: ``read_wire_events(raw SSE bytes)`` alone — SSE framing and JSON
  decoding into ``WireEvent``s, no reduction: where ``reduce sse`` spends its time;
- ``openai accum``: ``ResponseStreamState.handle_event`` of openai-python (its stream
  accumulator, the state behind ``client.responses.stream``) fed the same events as
  its typed models.  The conversion dict → model (``construct_type``, what its
  ``Stream`` does per event) is timed apart as ``openai convert`` and excluded;
  openai's SSE decoding is not measured at all.  The accumulator appends each delta
  to a pydantic attribute (``arguments += delta``), which copies the whole string:
  quadratic in the channel length, so long streams get a time budget
  (``--openai-budget``); a run that exceeds it is reported as a bound.

Timing is ``time.perf_counter`` around whole runs, best and median of up to
``--repeat`` runs (fewer when a run is long, see ``--max-seconds``), garbage collected
before each run and enabled during it (as in real use).  Peak memory is measured in
separate runs under ``tracemalloc`` (which slows them; not timed), and counts only
what the reduction allocates on top of its input.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from responses_oracle import reduce
from responses_oracle.model.vocabulary import SEVERITY, Severity
from responses_oracle.wire.formats import read_wire_events
from responses_oracle.wire.records import Limits, MiB
from streams import BenchStream, generate

OPENAI_BATCH = 10_000
"""Events converted to openai models at a time (their memory, not their time, matters)."""

WIRE_LIMITS = Limits(max_event_bytes=256 * MiB)
"""The front-end limits of every run.  The default ``max_event_bytes`` (16 MiB) is far
above any real event, but the ``response.completed`` of a 1M-event stream repeats
~30 MB of payloads; it would be skipped as ``limit_exceeded``.  Used for every size,
so the sizes stay comparable."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Wall and CPU times of the runs of one measurement, in seconds.

    ``bound`` marks a run cut short by a time budget: ``events`` then counts the events
    it reached.
    """

    runs: tuple[float, ...]
    cpu: tuple[float, ...]
    events: int
    bound: bool = False

    @property
    def best(self) -> float:
        """The fastest run."""
        return min(self.runs)

    @property
    def median(self) -> float:
        """The median run."""
        return statistics.median(self.runs)

    @property
    def rate(self) -> float:
        """Events per second of the best run (an upper bound when ``bound``)."""
        return self.events / self.best

    @property
    def cpu_rate(self) -> float:
        """Events per CPU second of the run with least CPU time."""
        return self.events / min(self.cpu)


def timed(run: Callable[[], object], repeat: int, max_seconds: float, events: int) -> Timing:
    """Time ``run`` up to ``repeat`` times; after two runs, stop once ``max_seconds`` are spent."""
    runs: list[float] = []
    cpu: list[float] = []
    while len(runs) < repeat and (len(runs) < 2 or sum(runs) < max_seconds):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        runs.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return Timing(tuple(runs), tuple(cpu), events)


def json_floor(stream: BenchStream) -> None:
    """Decode every event's JSON text and nothing else."""
    loads = json.loads
    for text in stream.texts:
        loads(text)


def front_end(stream: BenchStream) -> None:
    """Decode the raw SSE into ``WireEvent``s and drop them: the front end alone."""
    deque(read_wire_events(stream.sse, limits=WIRE_LIMITS), maxlen=0)


def check_reduction(stream: BenchStream) -> None:
    """The benchmark must measure a clean reduction, not an error path."""
    (result,) = reduce(stream.sse, wire_limits=WIRE_LIMITS)
    calls = [item for item in result.items if item.item["type"] == "function_call"]
    bad = [d for d in result.diagnostics if SEVERITY[d.code] is not Severity.INFO]
    assert result.status.value == "completed" and not bad, bad[:3]
    assert len(calls) == stream.calls and all(item.executable for item in calls)


# -- openai-python --------------------------------------------------------------------


def openai_version() -> str | None:
    """The installed openai-python version, or None."""
    try:
        import openai
    except ImportError:
        return None
    return str(openai.__version__)


def openai_runs(
    stream: BenchStream, repeat: int, max_seconds: float, budget: float
) -> tuple[Timing, Timing]:
    """Time openai's conversion and its accumulator (conversion excluded from the latter)."""
    from openai._models import construct_type_unchecked
    from openai._types import omit
    from openai.lib.streaming.responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    # [wall, cpu] of conversion and of accumulation, one list entry per run
    convert: list[list[float]] = []
    accumulate: list[list[float]] = []
    while len(accumulate) < repeat and (
        not accumulate or sum(a[0] for a in accumulate) < max_seconds
    ):
        state: Any = ResponseStreamState(input_tools=omit, text_format=omit)
        converting, accumulating = [0.0, 0.0], [0.0, 0.0]
        done = 0
        for start in range(0, len(stream.events), OPENAI_BATCH):
            gc.collect()
            began, began_cpu = time.perf_counter(), time.process_time()
            batch: list[Any] = [
                construct_type_unchecked(value=event, type_=cast(Any, ResponseStreamEvent))
                for event in stream.events[start : start + OPENAI_BATCH]
            ]
            middle, middle_cpu = time.perf_counter(), time.process_time()
            for event in batch:
                state.handle_event(event)
            converting[0] += middle - began
            converting[1] += middle_cpu - began_cpu
            accumulating[0] += time.perf_counter() - middle
            accumulating[1] += time.process_time() - middle_cpu
            done += len(batch)
            if accumulating[0] > budget and done < len(stream.events):
                # One run past the budget says enough: report the prefix it reached.
                return (
                    Timing((converting[0],), (converting[1],), done, bound=True),
                    Timing((accumulating[0],), (accumulating[1],), done, bound=True),
                )
        assert state._completed_response is not None
        convert.append(converting)
        accumulate.append(accumulating)
    events = len(stream.events)
    return (
        Timing(tuple(c[0] for c in convert), tuple(c[1] for c in convert), events),
        Timing(tuple(a[0] for a in accumulate), tuple(a[1] for a in accumulate), events),
    )


# -- memory -------------------------------------------------------------------------------


def peak_bytes(run: Callable[[], object]) -> int:
    """Peak bytes allocated by ``run`` beyond what existed before it (``tracemalloc``)."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# -- reporting ------------------------------------------------------------------------------

COLUMNS = (
    "json floor",
    "front end",
    "reduce sse",
    "reduce events",
    "openai convert",
    "openai accum",
)


@dataclass(slots=True)
class Row:
    """Everything measured on one stream length."""

    events: int
    sse_bytes: int
    timings: dict[str, Timing]
    peaks: dict[str, int]


def _rate(timing: Timing | None) -> str:
    if timing is None:
        return "-"
    text = f"{timing.rate / 1000:,.0f}k"
    return f"<{text} (cut at {timing.events:,})" if timing.bound else text


def _ratio(a: Timing | None, b: Timing | None, cpu: bool = False) -> float | None:
    """How many times slower ``a`` is than ``b`` per event (best runs)."""
    if a is None or b is None:
        return None
    return (b.cpu_rate / a.cpu_rate) if cpu else (b.rate / a.rate)


def _ratio_table(rows: list[Row], cpu: bool) -> list[str]:
    out = [
        "| events | reduce sse / json floor | reduce events / json floor "
        "| openai accum / reduce events | openai accum / reduce sse |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        t = row.timings
        cells = [
            _ratio(t.get("reduce sse"), t.get("json floor"), cpu),
            _ratio(t.get("reduce events"), t.get("json floor"), cpu),
            _ratio(t.get("openai accum"), t.get("reduce events"), cpu),
            _ratio(t.get("openai accum"), t.get("reduce sse"), cpu),
        ]
        bound = "openai accum" in t and t["openai accum"].bound
        text = [
            "-" if c is None else (f">{c:.2f}x" if bound and i >= 2 else f"{c:.2f}x")
            for i, c in enumerate(cells)
        ]
        out.append(f"| {row.events:,} | " + " | ".join(text) + " |")
    return out


def render(rows: list[Row]) -> str:
    """A Markdown report of the rows: rates, timings, ratios, memory, linearity."""
    out = ["### Throughput (events/second, best run; k = 1000)", ""]
    out.append("| events | SSE MB | " + " | ".join(COLUMNS) + " |")
    out.append("|---:|---:|" + "---:|" * len(COLUMNS))
    for row in rows:
        rates = " | ".join(_rate(row.timings.get(c)) for c in COLUMNS)
        out.append(f"| {row.events:,} | {row.sse_bytes / 1e6:,.1f} | {rates} |")
    out += ["", "### Run times (seconds: best / median of n runs)", ""]
    out.append("| events | " + " | ".join(COLUMNS) + " |")
    out.append("|---:|" + "---:|" * len(COLUMNS))
    for row in rows:
        cells = []
        for column in COLUMNS:
            t = row.timings.get(column)
            if t is None:
                cells.append("-")
            elif t.bound:
                cells.append(f">{t.best:.2f} (budget; {t.events:,} events done)")
            else:
                cells.append(f"{t.best:.3f} / {t.median:.3f} (n={len(t.runs)})")
        out.append(f"| {row.events:,} | " + " | ".join(cells) + " |")
    for cpu in (False, True):
        out += ["", f"### Ratios (per event, best runs, {'CPU' if cpu else 'wall'} time)", ""]
        out += _ratio_table(rows, cpu)
    out += ["", "### Linearity (µs per event, best runs: wall / CPU)", ""]
    out.append("| events | " + " | ".join(COLUMNS) + " |")
    out.append("|---:|" + "---:|" * len(COLUMNS))
    for row in rows:
        cells = [
            "-" if (t := row.timings.get(c)) is None else f"{1e6 / t.rate:.1f} / {1e6 / t.cpu_rate:.1f}"  # noqa: E501
            for c in COLUMNS
        ]
        out.append(f"| {row.events:,} | " + " | ".join(cells) + " |")
    if any(row.peaks for row in rows):
        out += ["", "### Peak memory (tracemalloc, on top of the input)", ""]
        out.append(
            "| events | SSE MB | reduce sse MB | bytes/event | reduce events MB | bytes/event |"
        )
        out.append("|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            sse, events = row.peaks.get("reduce sse"), row.peaks.get("reduce events")
            if sse is None or events is None:
                continue
            out.append(
                f"| {row.events:,} | {row.sse_bytes / 1e6:,.1f} | {sse / 1e6:,.1f} | "
                f"{sse / row.events:,.0f} | {events / 1e6:,.1f} | {events / row.events:,.0f} |"
            )
    return "\n".join(out)


def machine() -> str:
    """One line naming the machine and the software measured."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as file:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in file if line.startswith("model name")),
                cpu,
            )
    except OSError:
        pass
    return (
        f"{cpu}, nproc={os.cpu_count()}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}, "
        f"openai-python {openai_version() or 'not installed'}"
    )


def code_version() -> str:
    """The git commit measured, marked when ``impl/`` or ``model/`` differ from it."""
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "impl", "model"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{commit or 'unknown'}{' + uncommitted changes in impl/ or model/' if dirty else ''}"


def _load() -> str:
    """The 1, 5 and 15 minute load averages (other work on the machine skews wall time)."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def profile(stream: BenchStream, top: int) -> str:
    """cProfile of ``reduce(raw SSE)``: the ``top`` functions by own time."""
    profiler = cProfile.Profile()
    profiler.runcall(reduce, stream.sse, wire_limits=WIRE_LIMITS)
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats("tottime").print_stats(top)
    return buffer.getvalue()


def measure(
    size: int, args: argparse.Namespace, repeat: int, memory: bool, use_openai: bool
) -> Row:
    """Every measurement on one generated stream of ``size`` events."""
    stream = generate(size, args.calls)
    check_reduction(stream)
    budget = args.max_seconds
    timings = {
        "json floor": timed(lambda: json_floor(stream), repeat, budget, size),
        "reduce sse": timed(
            lambda: reduce(stream.sse, wire_limits=WIRE_LIMITS), repeat, budget, size
        ),
        "reduce events": timed(lambda: reduce(stream.events), repeat, budget, size),
        "front end": timed(lambda: front_end(stream), repeat, budget, size),
    }
    if use_openai:
        timings["openai convert"], timings["openai accum"] = openai_runs(
            stream, repeat, budget, args.openai_budget
        )
    peaks = {}
    if memory:
        peaks["reduce sse"] = peak_bytes(lambda: reduce(stream.sse, wire_limits=WIRE_LIMITS))
        peaks["reduce events"] = peak_bytes(lambda: reduce(stream.events))
    return Row(size, len(stream.sse), timings, peaks)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    option = parser.add_argument
    option("--sizes", default="1000,10000,100000,1000000", help="stream lengths, comma-separated")
    option("--quick", action="store_true", help="sizes 1000,10000; 3 runs; no memory runs")
    option("--repeat", type=int, default=5, help="runs per measurement (at most)")
    option("--max-seconds", type=float, default=20.0, help="stop repeating after this long")
    option("--openai-budget", type=float, default=120.0, help="accumulator seconds per run")
    option("--calls", type=int, default=16, help="parallel function calls per stream")
    option("--no-openai", action="store_true", help="skip openai-python")
    option("--no-memory", action="store_true", help="skip the tracemalloc runs")
    option("--profile", type=int, default=0, metavar="N", help="cProfile reduce(sse), N events")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the report."""
    parser = _parser()
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    repeat = args.repeat
    memory = not args.no_memory
    if args.quick:
        sizes, repeat, memory = [1000, 10000], min(repeat, 3), False
    use_openai = not args.no_openai and openai_version() is not None

    given = sys.argv[1:] if argv is None else argv
    command = " ".join(["python", "benchmarks/run.py", *given])
    print(f"command: {command}")
    print(f"machine: {machine()}")
    print(f"code:    {code_version()}")
    print(f"date:    {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}")
    print(f"load average at start: {_load()}")
    if not use_openai:
        why = "--no-openai" if args.no_openai else "not installed: pip install '.[bench]'"
        print(f"openai-python: skipped ({why})")
    rows: list[Row] = []
    for size in sizes:
        row = measure(size, args, repeat, memory, use_openai)
        rows.append(row)
        rates = ", ".join(f"{name} {_rate(t)}" for name, t in row.timings.items())
        print(f"  {size:,} events: {rates} ev/s", file=sys.stderr, flush=True)
    print(f"load average at end: {_load()}")
    print()
    print(render(rows))
    if args.profile:
        print()
        print(f"### cProfile of reduce(raw SSE), {args.profile:,} events (top by own time)")
        print()
        print("```")
        print(profile(generate(args.profile, args.calls), 25).rstrip())
        print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
