"""Project-level checks: the README's commands are what CI runs; lint and types are clean."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from helpers import REPO


def _readme_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None, "README must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    assert commands[0].startswith("pip install . && responses-oracle reduce examples/")
    assert (REPO / commands[0].split()[-2]).is_file()


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci.splitlines()


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_is_clean() -> None:
    run = subprocess.run(["ruff", "check", str(REPO)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "-p", "responses_oracle"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_readme_and_the_cli_page_document_every_exit_status() -> None:
    from responses_oracle.cli.common import Exit

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    cli_page = (REPO / "docs" / "usage" / "cli.md").read_text(encoding="utf-8")
    for status in Exit:
        assert f"`{status.value}`" in readme, status
        assert f"| `{status.value}` |" in cli_page, status
