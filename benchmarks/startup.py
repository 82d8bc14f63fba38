"""Start-up cost of the command line: CPU seconds per call of short commands.

Run from the repository root, with the package installed (any install: editable or
from the wheel)::

    python benchmarks/startup.py                 # 20 calls of each command
    python benchmarks/startup.py --repeat 50

Each command is started ``--repeat`` times as a fresh process, one after the other,
and its CPU time (user + system, of the process and its children) is read from
``resource.getrusage(RUSAGE_CHILDREN)`` around the call: wall time on a shared machine
measures the neighbours as much as the command.  The commands run with bytecode
caching on, as after ``pip install`` (which compiles every module): the environment's
``PYTHONDONTWRITEBYTECODE`` is dropped for them and one uncounted call of each writes
the ``.pyc`` files first, so that the figures are start-up, not compilation.  The best
and the median of the calls are printed, beside the same for a bare ``python -c pass``
(the interpreter's own start-up, which no change to the package can remove).  The
target (issue 13) is ``responses-oracle --help`` and a small ``reduce`` within 0.15 s
of CPU.

It also lists, per command, the modules of the package and of ``rich`` that were
imported (``python -X importtime``), so that a regression names its culprit.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

EXAMPLE = str(REPO / "examples" / "parallel-calls.sse")

TARGET = 0.15
"""CPU seconds a short command may take (issue 13)."""


def commands(script: str) -> dict[str, list[str]]:
    """The measured command lines, by label."""
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "responses-oracle --help": [script, "--help"],
        "responses-oracle --version": [script, "--version"],
        "responses-oracle reduce --help": [script, "reduce", "--help"],
        "responses-oracle reduce (small file)": [script, "reduce", EXAMPLE],
        "responses-oracle replay (small file)": [script, "replay", EXAMPLE],
        "responses-oracle explain (small file)": [script, "explain", EXAMPLE],
    }


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""The commands' environment: bytecode is cached, as in a normal install."""


def cpu_seconds(argv: list[str]) -> float:
    """CPU time (user + system) of one run of ``argv``, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imported(argv: list[str]) -> list[str]:
    """The package's and rich's top-level modules ``argv`` imports (``-X importtime``)."""
    python = [sys.executable, "-X", "importtime", "-c",
              "import sys; from responses_oracle.cli import main; sys.exit(main(sys.argv[1:]))",
              *argv[1:]]
    done = subprocess.run(python, capture_output=True, text=True, env=ENV, check=False)
    names = set()
    for line in done.stderr.splitlines():
        name = line.rsplit("|", 1)[-1].strip()
        if name.startswith("responses_oracle.") and name.count(".") <= 2:
            names.add(".".join(name.split(".")[:2]))
        elif name.startswith("rich"):
            names.add("rich")
    return sorted(names)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="calls of each command")
    args = parser.parse_args()
    script = shutil.which("responses-oracle")
    if script is None:
        print("install the package first (see the README)", file=sys.stderr)
        return 2
    print(f"command: python benchmarks/startup.py --repeat {args.repeat}")
    print(f"machine: {platform.machine()}, nproc={os.cpu_count()}, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.2f}")
    print()
    print(f"| command | best CPU s | median CPU s | within {TARGET} s |")
    print("|---|---:|---:|---|")
    found: dict[str, list[str]] = {}
    for label, argv in commands(script).items():
        cpu_seconds(argv)  # writes the bytecode caches; not counted
        runs = [cpu_seconds(argv) for _ in range(args.repeat)]
        best, median = min(runs), statistics.median(runs)
        verdict = "" if label.startswith("python") else ("yes" if median <= TARGET else "NO")
        print(f"| `{label}` | {best:.3f} | {median:.3f} | {verdict} |")
        if argv[0] == script:
            found[label] = imported(argv)
    print()
    print("modules imported (package subpackages, rich):")
    for label, names in found.items():
        print(f"- `{label}`: {', '.join(names) or '(none)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
