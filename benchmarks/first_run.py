"""What the first run of the Go and Java examples costs, and the second.

Run from the repository root, with ``responses-oracle`` on PATH (the examples' tests
start ``serve``); it needs the network (the Go module proxy, Maven Central)::

    python benchmarks/first_run.py            # both
    python benchmarks/first_run.py go         # or java

``docs/usage/other-languages.md`` says what a newcomer's first ``go test`` and first
``mvn test`` cost; this measures it.  Each example (``examples/go``, ``examples/java``)
is copied to a temporary folder and run twice under ``nice -n 10``: first with empty
caches (Go: a new ``GOCACHE`` and ``GOMODCACHE``; Maven: a new local repository), as on
a fresh machine, then again with the caches the first run filled (Maven offline).
Go's download (``go mod download``) is timed apart from its compile and test.

Wall time and CPU time (of the command and its children, ``install.timed``) are printed
apart: on a shared machine the wall time measures the neighbours too, the CPU time does
not.  Results with the command that produced them: ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from install import REPO, timed

NICE = "nice -n 10 "
"""The runs are niced: the machine is shared."""


def _sizes(folder: Path) -> str:
    """How much a cache holds, in MB."""
    total = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    return f"{total / 1e6:.0f} MB"


def go(root: Path) -> list[str]:
    """The Go example: download, first compile and test, second run."""
    work = root / "go"
    shutil.copytree(REPO / "examples" / "go", work)
    env = {**os.environ, "GOCACHE": str(root / "gocache"), "GOMODCACHE": str(root / "gomod"),
           "GOPATH": str(root / "gopath"), "GOFLAGS": "-modcacherw"}
    lines = []
    for label, command in (
        ("go mod download (empty module cache)", "go mod download"),
        ("go test, first (empty build cache)", "go test -count=1 ./..."),
        ("go test, second", "go test -count=1 ./..."),
    ):
        wall, cpu, status = timed(NICE + command, work, env, root / "go.log")
        lines.append(f"{label}: {wall:.0f} s wall, {cpu:.0f} s CPU, exit status {status}")
    lines.append(f"caches: modules {_sizes(root / 'gomod')}, build {_sizes(root / 'gocache')}")
    return lines


def java(root: Path) -> list[str]:
    """The Java example: first ``mvn test`` with an empty local repository, then again
    offline."""
    work = root / "java"
    shutil.copytree(REPO / "examples" / "java", work)
    repository = root / "m2"
    lines = []
    for label, flags in (("mvn test, first (empty local repository)", ""),
                         ("mvn test, second (offline)", " -o")):
        command = f"{NICE}mvn -q -B{flags} -Dmaven.repo.local={repository} test"
        wall, cpu, status = timed(command, work, dict(os.environ), root / "java.log")
        lines.append(f"{label}: {wall:.0f} s wall, {cpu:.0f} s CPU, exit status {status}")
    jars = sum(1 for _ in repository.rglob("*.jar"))
    lines.append(f"local repository: {_sizes(repository)}, {jars} jars")
    return lines


def main() -> int:
    """Time the examples and print a block for RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("language", nargs="*", help="go, java or both (the default)")
    args = parser.parse_args()
    if not set(args.language) <= {"go", "java"}:
        parser.error(f"a language is go or java, not {' '.join(args.language)}")
    root = Path(tempfile.mkdtemp(prefix="first-run-"))
    print(f"command: python benchmarks/first_run.py {' '.join(args.language)}".rstrip())
    print(f"machine: nproc={os.cpu_count()}; date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    try:
        for language in args.language or ["go", "java"]:
            for line in (go if language == "go" else java)(root):
                print(line, flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
