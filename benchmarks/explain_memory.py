"""What ``explain`` holds on a long stream, beside ``reduce``: peak memory, time to the
first response printed, and the whole run.

The stream is a tool loop: ``--responses`` copies of the benchmark response
(``streams.generate``: 16 parallel calls, a long message and a reasoning summary),
each with its own response id, as SSE in one file of ``--mb`` megabytes or so, written
to ``--folder`` (a scratch folder: the file is not kept in the repository).  Each command
runs as a user runs it, its stdout a pipe this script reads: ``explain FILE`` (the text
tables), ``explain FILE --json`` and ``reduce FILE``.  Reported per command: the peak
resident memory of its process (``getrusage``), the seconds until its first output
line, until its end (or ``--cap``, when it is ended there), and how much of the input it
had read by then (``/proc/PID/io``: Linux).

    python benchmarks/explain_memory.py --folder /tmp/bench [--mb 200] [--responses 40] [--cap 600]

Numbers, not assertions: the test suite has no timed tests (the bound on what
``explain`` holds is tested in ``tests/cli/test_explain_memory.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from streams import RESPONSE_ID, generate


def write_stream(path: Path, megabytes: int, responses: int) -> int:
    """Write the tool loop to ``path``; its size in bytes."""
    per_response = megabytes * 1_000_000 // responses
    # The SSE of one event of the benchmark stream averages ~350 bytes.
    stream = generate(max(1000, per_response // 350))
    with open(path, "wb") as out:
        for number in range(responses):
            ours = f"{RESPONSE_ID}_{number}"
            for text in stream.texts:
                data = text.replace(RESPONSE_ID.encode(), ours.encode())
                out.write(b"event: " + json.loads(data)["type"].encode() + b"\ndata: ")
                out.write(data + b"\n\n")
    return path.stat().st_size


PROBE = """
import os, resource, subprocess, sys, threading, time
cap, argv = float(sys.argv[1]), sys.argv[2:]
start = time.perf_counter()
child = subprocess.Popen(argv, stdout=subprocess.PIPE)
first = []
read = [0]

def watch():
    # What the command has read of its input so far (/proc/PID/io), until it ends.
    while child.poll() is None:
        try:
            with open(f"/proc/{child.pid}/io") as io:
                read[0] = int(io.readline().split()[1])
        except OSError:
            pass
        time.sleep(0.5)

threading.Thread(target=watch, daemon=True).start()
timer = threading.Timer(cap, child.terminate) if cap else None
if timer is not None:
    timer.start()
for line in child.stdout:
    if not first:
        first.append(time.perf_counter() - start)
status = child.wait()
if timer is not None:
    timer.cancel()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(peak, first[0] if first else -1, time.perf_counter() - start, status, read[0])
"""
"""Runs one command as a child of its own (so its peak is its own), reads its stdout,
and ends it after ``cap`` seconds when ``cap`` is not 0."""


def measure(argv: list[str], cap: float) -> tuple[float, float, float, int, int]:
    """Run ``argv``: peak MB, seconds to the first line (-1: none), seconds in all, exit
    status (negative: ended at the cap), and bytes of input read by then."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(cap), *argv], capture_output=True, text=True,
        check=True,
    )
    peak, first, total, status, read = done.stdout.split()
    return float(peak), float(first), float(total), int(status), int(read)


def main() -> None:
    """Write the stream, run each command on it, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, required=True, help="where the stream is written")
    parser.add_argument("--mb", type=int, default=200, help="the stream's size (default: 200)")
    parser.add_argument("--responses", type=int, default=40, help="responses in the loop")
    parser.add_argument("--cap", type=float, default=0,
                        help="end each command after this many seconds (default 0: none)")
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    path = args.folder / "tool-loop.sse"
    size = write_stream(path, args.mb, args.responses)
    command = shutil.which("responses-oracle") or "responses-oracle"
    print(f"stream: {path} ({size / 1e6:.0f} MB, {args.responses} responses)")
    print(f"machine: nproc={os.cpu_count()}, load {os.getloadavg()[0]:.1f}, "
          f"Python {sys.version.split()[0]}")
    print()
    print("| command | peak MB | first line s | s in all | input read MB | exit |")
    print("|---|---|---|---|---|---|")
    for extra in (["explain"], ["explain", "--json"], ["reduce"]):
        argv = [command, extra[0], str(path), *extra[1:]]
        peak, first, total, status, read = measure(argv, args.cap)
        shown = " ".join(["responses-oracle", extra[0], "FILE", *extra[1:]])
        ended = f"ended at {args.cap:g} s" if status < 0 else str(status)
        print(f"| `{shown}` | {peak:.0f} | {first:.1f} | {total:.1f} | {read / 1e6:.0f} "
              f"| {ended} |", flush=True)


if __name__ == "__main__":
    main()
