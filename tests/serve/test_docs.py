"""The pytest example of docs/usage/serve.md runs as written, and can fail.

The example imports ``run_agent`` from the user's own ``my_agent``; here that module is
an openai-python application (``test_clients.two_turns``, the SDK's tool loop).  The
example's block is copied verbatim into a test file and run by pytest in a
subprocess, as a user would run it: with that agent every case passes, and with an
agent that runs only the first call of a turn the parallel-calls case fails, saying
which call and why.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from helpers import REPO

PAGE = REPO / "docs" / "usage" / "serve.md"

AGENT = '''
import sys
sys.path.insert(0, {tests!r})
from serve.test_clients import two_turns

def run_agent(prompt, base_url):
    {body}
'''

GOOD = "two_turns(base_url)"
FIRST_CALL_ONLY = (
    "first = []\n"
    "    two_turns(base_url, run=lambda call: not first and not first.append(call))"
)


def _example() -> str:
    [block] = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.DOTALL)
    return block


def _run(tmp_path: Path, body: str, *select: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "my_agent.py").write_text(AGENT.format(tests=str(REPO / "tests"), body=body))
    (tmp_path / "test_example.py").write_text(_example())
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *select, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )


def test_the_example_is_ten_lines_of_pytest() -> None:
    assert len([line for line in _example().splitlines() if line.strip()]) <= 10


def test_the_example_passes_for_an_agent_that_runs_and_replays_every_call(
    tmp_path: Path,
) -> None:
    done = _run(tmp_path, GOOD)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout


def test_the_example_fails_for_an_agent_that_runs_one_call_of_two(tmp_path: Path) -> None:
    done = _run(tmp_path, FIRST_CALL_ONLY, "-k", "parallel")
    assert done.returncode == 1
    assert "1 failed, 3 deselected" in done.stdout
    assert "the next request carries no output for this call" in done.stdout
