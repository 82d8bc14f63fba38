"""How long the README's test set-up takes with the pip a fresh Python 3.11 venv brings.

Run from the repository root (it needs the network: PyPI and the npm registry)::

    python benchmarks/install.py                    # as a user: no machine pip config
    python benchmarks/install.py --machine-config   # with this machine's pip config

The README's second command is taken from the README itself (its first ``sh`` block),
so the benchmark times what a newcomer types.  The checkout's tracked files are copied
(``git archive HEAD`` plus uncommitted changes of tracked files) to a temporary folder,
a fresh virtual environment is made with ``python3 -m venv`` -- its stock pip, never
upgraded -- and the two set-up steps of the command are run and timed apart: the pip
install of the test extras, then ``npm ci`` in ``adapters/node``.  The suite itself
(the ``pytest`` at the end of the command) is not run: it is no set-up.

*As a user* (the default): pip reads no configuration file and no ``PIP_*`` variable of
this machine (no constraints file, no local wheel folder, no extra index) and keeps no
cache, so every package is resolved and downloaded from PyPI as on a fresh machine.
``--machine-config`` keeps the machine's pip configuration and environment (what CI
sees on this machine), still without the pip cache.

Wall time and CPU time (of the step and its children) are printed apart: on a machine
shared with other work the wall time measures the neighbours too, and the CPU time is
what a machine of one's own pays on top of the downloads.

The target (issue 23): the test install under 5 minutes with the stock pip.  Results
with the command that produced them: ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

TARGET_SECONDS = 300
"""The test install's budget (issue 23)."""

TIMEOUT_SECONDS = 1800
"""A step still running after this long is stopped and reported as such."""


def readme_steps() -> tuple[str, str]:
    """The pip install and the npm step of the README's second set-up command."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None, "README.md has no sh block"
    second = [line for line in block.group(1).splitlines() if line.strip()][1]
    install = second.split(" && ", 1)[0]
    npm = re.search(r"\((cd [^)]*)\)", second)
    assert npm is not None, f"no (cd ... && npm ci) step in {second!r}"
    return install, npm.group(1)


def copy_checkout(target: Path) -> None:
    """The tracked files of the checkout as they are now, into ``target``."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, check=True, capture_output=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            destination = target / os.fsdecode(name)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


def user_env(venv: Path, machine_config: bool) -> dict[str, str]:
    """The environment of the steps: the venv first on PATH, pip's cache off, and (as a
    user) none of this machine's pip configuration."""
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    if not machine_config:
        env = {key: value for key, value in env.items() if not key.startswith("PIP_")}
        env["PIP_CONFIG_FILE"] = os.devnull
        # The certificate bundle is how this machine reaches PyPI at all, not a choice
        # of packages: kept.
        if "PIP_CERT" in os.environ:
            env["PIP_CERT"] = os.environ["PIP_CERT"]
    env["PIP_NO_CACHE_DIR"] = "1"
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return env


def timed(command: str, cwd: Path, env: dict[str, str], log: Path) -> tuple[float, float, int]:
    """Run ``command`` with ``sh``; (wall seconds, CPU seconds of it and its children,
    exit status; -1 when stopped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with log.open("wb") as out:
        try:
            done = subprocess.run(
                ["sh", "-c", command],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT_SECONDS,
            )
            status = done.returncode
        except subprocess.TimeoutExpired:
            status = -1
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, status


def main() -> int:
    """Time the README's test set-up once and print a block for RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--machine-config",
        action="store_true",
        help="keep this machine's pip configuration (constraints, wheel folder, indexes)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    install, npm = readme_steps()
    root = Path(tempfile.mkdtemp(prefix="install-bench-"))
    checkout, venv = root / "checkout", root / "venv"
    copy_checkout(checkout)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = user_env(venv, args.machine_config)
    pip_version = subprocess.run(
        [str(venv / "bin" / "pip"), "--version"], capture_output=True, text=True, env=env
    ).stdout.split(" from ")[0]
    load_before = os.getloadavg()
    pip_seconds, pip_cpu, pip_status = timed(install, checkout, env, root / "pip.log")
    npm_seconds, npm_cpu, npm_status = timed(npm, checkout, env, root / "npm.log")
    load_after = os.getloadavg()
    log = (root / "pip.log").read_text(encoding="utf-8", errors="replace")
    downloads = log.count("Downloading ")
    view = "this machine's pip config" if args.machine_config else "a user's (no pip config)"
    verdict = "met" if pip_status == 0 and pip_seconds < TARGET_SECONDS else "NOT met"
    flag = " --machine-config" if args.machine_config else ""
    print(f"command: python benchmarks/install.py{flag}")
    print(f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, {pip_version}")
    print(f"view:    {view}, no pip cache")
    print(f"date:    {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in load_before)}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in load_after)}")
    print(
        f"{install}: {pip_seconds:.0f} s wall, {pip_cpu:.0f} s CPU, exit status "
        f"{pip_status}, {downloads} downloads"
    )
    print(f"{npm}: {npm_seconds:.0f} s wall, {npm_cpu:.0f} s CPU, exit status {npm_status}")
    print(f"target (test install under {TARGET_SECONDS} s with the stock pip): {verdict}")
    if args.keep:
        print(f"kept: {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if verdict == "met" and npm_status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
