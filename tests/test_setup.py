"""The set-up a newcomer follows is the one CI runs, and it asks for what it needs.

- ``.ci/run`` runs the README's two set-up commands verbatim, with the pip a fresh
  virtual environment brings: below its marker line are exactly the README's first
  block, and nothing before the marker installs anything with pip or npm (no silent
  ``pip install --upgrade pip``, no ``npm ci`` the README does not show);
- ``adapters/node/package.json`` asks for the Node the README names (20): ``npm ci`` on
  that Node prints no ``EBADENGINE`` warning for the project's own package.  The
  warnings of the pinned packages that declare 22 are theirs; the README names them.

How long the test install takes with that pip is measured, not tested:
``benchmarks/install.py``.
"""

from __future__ import annotations

import json
import re

from helpers import REPO
from test_readme import blocks

MARKER = "# The README's commands:"


def _ci_lines() -> list[str]:
    return (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_ci_runs_the_readme_set_up_commands_verbatim() -> None:
    lines = _ci_lines()
    after = [line for line in lines[lines.index(MARKER) + 1 :] if line.strip()]
    readme = [line for line in blocks()[0].text.splitlines() if line.strip()]
    assert after == readme
    # The whole suite, on every core (the README says why a file stays on one worker).
    assert len(readme) == 2 and "npm ci" in readme[1]
    assert readme[1].endswith("python -m pytest -n auto --dist loadfile")


def test_ci_installs_nothing_else_with_pip_or_npm() -> None:
    lines = _ci_lines()
    before = [line for line in lines[: lines.index(MARKER)] if not line.lstrip().startswith("#")]
    assert not [line for line in before if re.search(r"\b(pip|npm)\b", line)]


def _minimum_major(requirement: str) -> int:
    match = re.fullmatch(r">=\s*(\d+)(?:\.\d+)*", requirement.strip())
    assert match is not None, f"unexpected engines.node {requirement!r}"
    return int(match.group(1))


def test_the_node_adapters_ask_for_the_node_the_readme_names() -> None:
    folder = REPO / "adapters" / "node"
    ours = json.loads((folder / "package.json").read_text(encoding="utf-8"))["engines"]["node"]
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    named = re.search(r"and Node (\d+) or later", (REPO / "README.md").read_text("utf-8"))
    assert named is not None, "the README names no Node version"
    assert _minimum_major(ours) == int(named[1])
    assert lock[""]["engines"]["node"] == ours
    # The pinned packages that ask for more are the ones the README says warn.
    asking = {
        name.rsplit("node_modules/", 1)[1]
        for name, entry in lock.items()
        if name and _minimum_major(entry.get("engines", {}).get("node", ">=0")) > int(named[1])
    }
    assert {"openai", "ai", "@ai-sdk/openai"} <= asking
