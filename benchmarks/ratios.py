"""The four speed ratios of issue 25, in one run: each against its floor.

Run from the repository root, with the package installed and valgrind on the path::

    python benchmarks/ratios.py                      # the default sizes (~6 minutes)
    python benchmarks/ratios.py --events 8000 --streams 20 --repeat 3   # a quick look
    python benchmarks/ratios.py --cpu-only --events 16000 --repeat 9    # ratio 2 alone

It prints one table, the verdict first:

1. **reduce / json.loads, instructions per event** (target 2x): callgrind counts the
   instructions of ``reduce`` of a JSON Lines file of the benchmark stream
   (``streams.generate``) and of a ``json.loads`` loop over the same lines, each at two
   sizes (``--events`` and a quarter of it); the difference over the difference in
   events is the steady state per event, start-up cancelled out.  The floor is
   ``json.loads`` of each line as read (bytes), as in ``run.py``; ``json.loads`` of
   lines decoded beforehand is printed too.  With msgspec installed (the ``fast``
   extra) ``reduce`` is also counted decoding with it, and msgspec's own loop.
2. **reduce / json.loads, CPU time and wall time** (target 2x): the same in this
   process, on the larger stream, alternated ``--repeat`` times, least CPU time and
   least wall time of each (``reduce`` with the json module alone, and with msgspec
   when installed); on a quiet machine the two agree.
3. **start-up** (target 5x, issue 35): instructions of ``responses-oracle reduce`` of
   ``examples/parallel-calls.sse`` (20 events) over those of ``python -c pass``, both
   in a clean virtual environment made for the run, where this tree is installed as a
   user installs it (``pip install .``: not editable, no extras), the command run as
   its console script, both with their bytecode cached (one uncounted call writes it).
   ``--startup-only`` measures this ratio alone (a minute: the install is most of it).
4. **audit worker / reducer, instructions per event** (target 1.5x): ``run_partition``
   (what an engine ships to a worker: the manifest read, the reduction, the rows, the
   Arrow table) on a Parquet manifest of the audit benchmark's corpus
   (``audit.corpus``, up to 56 items a stream) against ``Reducer`` alone fed the same
   bodies, each at two corpus sizes (``--streams`` and a quarter), per event.

Below the table it prints where one event's instructions go, each counted the same way:
the floor, the front end alone (``read_wire_events``: framing, decoding, the
``WireEvent``), the core alone (``reduce`` of the decoded events, less the decoding),
and the whole ``reduce``.

Instruction counts are those of the whole process, which is why every figure is a
difference or a ratio of two counts from the same run.  ``--cpu-only`` measures ratio 2
alone (no valgrind, seconds): on a loaded machine, run it as A/B pairs of processes
(one tree, then the other, several times) and compare the ratios.  Nothing here is
asserted by a test.  Exit status: 0 after printing, 2 without valgrind.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from streams import generate  # noqa: E402

TINY = REPO / "examples" / "parallel-calls.sse"

ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode is cached, as in a normal install."""

WORKLOADS: dict[str, str] = {
    "pass": "pass",
    "json": (
        "import json, sys\n"
        "loads = json.loads\n"
        "for line in open(sys.argv[1], 'rb').read().split(b'\\n'):\n"
        "    if line: loads(line)\n"
    ),
    "json-text": (
        "import json, sys\n"
        "loads = json.loads\n"
        "lines = open(sys.argv[1], 'rb').read().decode().split('\\n')\n"
        "for line in lines:\n"
        "    if line: loads(line)\n"
    ),
    "msgspec": (
        "import msgspec, sys\n"
        "loads = msgspec.json.Decoder().decode\n"
        "for line in open(sys.argv[1], 'rb').read().split(b'\\n'):\n"
        "    if line: loads(line)\n"
    ),
    "front": (
        "import collections, sys\n"
        "from responses_oracle.wire import read_wire_events\n"
        "collections.deque(read_wire_events(open(sys.argv[1], 'rb').read()), maxlen=0)\n"
    ),
    "events": (
        "import json, sys\n"
        "from responses_oracle import reduce\n"
        "lines = open(sys.argv[1], 'rb').read().split(b'\\n')\n"
        "reduce([json.loads(line) for line in lines if line])\n"
    ),
    "reduce": (
        "import sys\nfrom responses_oracle import reduce\nreduce(open(sys.argv[1], 'rb').read())\n"
    ),
    "audit": (
        "import sys\n"
        "from responses_oracle.audit.sources import ManifestKind, ManifestSlice, Partition\n"
        "from responses_oracle.audit.work import Settings, run_partition\n"
        "rows = int(sys.argv[2])\n"
        "piece = ManifestSlice(sys.argv[1], ManifestKind.PARQUET, 0, rows, 0)\n"
        "run_partition(Partition('p', manifest=piece), Settings())\n"
    ),
    "audit-reducer": (
        "import pickle, sys\n"
        "from responses_oracle.reducer import reduce\n"
        "for body in pickle.load(open(sys.argv[1], 'rb')): reduce(body)\n"
    ),
}
"""What each measured child process runs (``sys.argv[1:]``: its input)."""


def instructions(workload: str, *args: str, env: dict[str, str] | None = None) -> int:
    """Instructions callgrind counts for one run of ``workload`` (a fresh process)."""
    return counted([sys.executable, "-c", WORKLOADS[workload], *args], env)


def counted(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> int:
    """Instructions callgrind counts for one run of ``command`` (after one uncounted run,
    which writes the bytecode caches)."""
    with tempfile.NamedTemporaryFile(suffix=".cg", delete=False) as out:
        path = out.name
    try:
        subprocess.run(command, env=env or ENV, check=True, capture_output=True, cwd=cwd)
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={path}", *command],
            env=env or ENV,
            check=True,
            capture_output=True,
            cwd=cwd,
        )
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    finally:
        os.unlink(path)
    raise RuntimeError("callgrind wrote no summary")


def per_unit(
    workload: str,
    small: tuple[int, list[str]],
    big: tuple[int, list[str]],
    env: dict[str, str] | None = None,
) -> float:
    """Steady-state instructions per unit: (count at big - at small) / (units apart)."""
    (n_small, args_small), (n_big, args_big) = small, big
    return (
        instructions(workload, *args_big, env=env) - instructions(workload, *args_small, env=env)
    ) / (n_big - n_small)


def best_times(
    runs: dict[str, Callable[[], object]], repeat: int
) -> dict[str, tuple[float, float]]:
    """Least CPU seconds and least wall seconds of each run, alternated ``repeat`` times."""
    best = {name: (float("inf"), float("inf")) for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            gc.collect()
            cpu, wall = time.process_time(), time.perf_counter()
            run()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
    return best


def clean_startup(folder: Path) -> tuple[int, int]:
    """Ratio 3: instructions of ``python -c pass`` and of ``responses-oracle reduce`` of
    the 20-event example, in a fresh venv holding ``pip install .`` of this tree."""
    venv = folder / "clean-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python, script = venv / "bin" / "python", venv / "bin" / "responses-oracle"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(REPO)],
        check=True,
        capture_output=True,
    )
    # Run in the temporary folder: nothing of the checkout is on the path.
    bare = counted([str(python), "-c", "pass"], cwd=folder)
    return bare, counted([str(script), "reduce", str(TINY)], cwd=folder)


def startup_row(folder: Path) -> tuple[tuple[str, float, float], str]:
    """Ratio 3's row and its line of counts."""
    bare, cli = clean_startup(folder)
    row = ("start-up (clean venv): reduce of 20 events / python -c pass", cli / bare, 5.0)
    return row, f"start-up (clean venv, pip install .): python -c pass {bare:,}, reduce {cli:,}"


def jsonl_stream(folder: Path, events: int) -> tuple[int, list[str]]:
    """The benchmark stream of ``events`` events as a JSON Lines file."""
    path = folder / f"stream-{events}.jsonl"
    path.write_bytes(b"".join(text + b"\n" for text in generate(events).texts))
    return events, [str(path)]


def audit_corpus(folder: Path, streams: int) -> tuple[tuple[int, list[str]], tuple[int, list[str]]]:
    """A manifest and the same bodies pickled, of the first ``streams`` corpus streams."""
    from responses_oracle.audit.corpus import corpus_row, write_manifest

    rows = [corpus_row(0, index, 56) for index in range(streams)]
    manifest, bodies = folder / f"corpus-{streams}.parquet", folder / f"bodies-{streams}.pickle"
    write_manifest(str(manifest), iter(rows), row_group=max(streams, 1))
    bodies.write_bytes(pickle.dumps([row["body"] for row in rows]))
    events = sum(row["events"] for row in rows)
    return (events, [str(manifest), str(streams)]), (events, [str(bodies)])


def time_ratios(path: str, fast: bool, repeat: int) -> tuple[list[tuple[str, float, float]], str]:
    """Ratio 2: ``reduce`` of the JSON Lines file at ``path`` against the ``json.loads``
    loop over its lines, in this process (the rows, and a line of µs per event)."""
    from responses_oracle import reduce
    from responses_oracle.wire import decode

    data = Path(path).read_bytes()
    texts = [line for line in data.split(b"\n") if line]

    def floor_run() -> None:
        loads = json.loads
        for text in texts:
            loads(text)

    def stdlib_run() -> None:
        held = getattr(decode, "_fast", [None])
        decode._fast = [None]
        try:
            reduce(data)
        finally:
            decode._fast = held

    runs: dict[str, Callable[[], object]] = {"json": floor_run, "reduce": stdlib_run}
    if fast:
        runs["msgspec"] = lambda: reduce(data)
    best = best_times(runs, repeat)
    rows = []
    for clock, kind in ((0, "CPU time"), (1, "wall time")):
        ratio = best["reduce"][clock] / best["json"][clock]
        rows.append((f"reduce / json.loads, {kind}", ratio, 2.0))
        if fast:
            ratio = best["msgspec"][clock] / best["json"][clock]
            rows.append((f"reduce (msgspec) / json.loads, {kind}", ratio, 2.0))
    line = "CPU time per event:                 " + ", ".join(
        f"{name} {times[0] / len(texts) * 1e6:.2f} µs" for name, times in best.items()
    )
    return rows, line


def _print_cpu(measured: tuple[list[tuple[str, float, float]], str]) -> int:
    rows, line = measured
    for label, ratio, target in rows:
        print(f"  {label:<40}  {ratio:5.2f}x  (target {target:g}x)")
    print(f"{line}  (load average {os.getloadavg()[0]:.2f})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Measure and print the four ratios."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=40_000, help="larger stream (events)")
    parser.add_argument("--streams", type=int, default=60, help="larger audit corpus (streams)")
    parser.add_argument("--repeat", type=int, default=5, help="CPU-time runs of each")
    parser.add_argument("--cpu-only", action="store_true", help="ratio 2 alone (no valgrind)")
    parser.add_argument("--startup-only", action="store_true", help="ratio 3 alone")
    args = parser.parse_args(argv)
    if not args.cpu_only and shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    from responses_oracle.wire import decode

    # getattr: the script also measures trees from before the fast decoder.
    fast = getattr(decode, "fast_decoder", lambda: None)() is not None
    stdlib_env = {**ENV, "RESPONSES_ORACLE_JSON": "stdlib"}
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if args.startup_only:
            (label, ratio, target), line = startup_row(folder)
            print(f"  {label}  {ratio:5.2f}x  (target {target:g}x)\n{line}")
            return 0
        small, big = jsonl_stream(folder, args.events // 4), jsonl_stream(folder, args.events)
        if args.cpu_only:
            return _print_cpu(time_ratios(big[1][0], fast, args.repeat))
        floor = per_unit("json", small, big)
        text_floor = per_unit("json-text", small, big)
        front = per_unit("front", small, big, stdlib_env)
        core = per_unit("events", small, big, stdlib_env) - floor
        reduced = per_unit("reduce", small, big, stdlib_env)
        lines = [
            f"json.loads floor (lines as bytes):  {floor:7,.0f} instructions/event",
            f"json.loads floor (lines as text):   {text_floor:7,.0f} instructions/event "
            "(the lines decoded first, in the same process)",
            f"front end (json module):            {front:7,.0f} instructions/event "
            "(framing, decoding, the WireEvent)",
            f"core on decoded events:             {core:7,.0f} instructions/event "
            "(Reducer.feed, parse_event, the kernels, the effects, the result)",
            f"reduce (json module):               {reduced:7,.0f} instructions/event "
            f"({reduced / text_floor:.2f}x the text floor)",
        ]
        rows.append(("reduce / json.loads, instructions per event", reduced / floor, 2.0))
        if fast:
            fast_floor = per_unit("msgspec", small, big)
            fast_reduced = per_unit("reduce", small, big)
            lines += [
                f"msgspec floor (lines as bytes):     {fast_floor:7,.0f} instructions/event",
                f"reduce (msgspec):                   {fast_reduced:7,.0f} instructions/event "
                f"({fast_reduced / text_floor:.2f}x the json text floor, "
                f"{fast_reduced / fast_floor:.2f}x msgspec's)",
            ]
            rows.append(("reduce (msgspec) / json.loads, instructions", fast_reduced / floor, 2.0))
        cpu_rows, cpu_line = time_ratios(big[1][0], fast, args.repeat)
        rows += cpu_rows
        lines.append(cpu_line)
        startup, startup_line = startup_row(folder)
        rows.append(startup)
        lines.append(startup_line)
        audit_small, reducer_small = audit_corpus(folder, max(args.streams // 4, 1))
        audit_big, reducer_big = audit_corpus(folder, args.streams)
        audit = per_unit("audit", audit_small, audit_big, stdlib_env)
        alone = per_unit("audit-reducer", reducer_small, reducer_big, stdlib_env)
        rows.append(("audit worker / reducer, instructions per event", audit / alone, 1.5))
        lines.append(
            f"audit corpus ({audit_big[0]:,} events): worker {audit:,.0f}, "
            f"reducer {alone:,.0f} instructions/event"
        )
    width = max(len(label) for label, _, _ in rows)
    met = sum(ratio <= target for _, ratio, target in rows)
    print(f"{met} of {len(rows)} ratios within their targets")
    for label, ratio, target in rows:
        verdict = "met" if ratio <= target else "NOT met"
        print(f"  {label:<{width}}  {ratio:5.2f}x  (target {target:g}x: {verdict})")
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
