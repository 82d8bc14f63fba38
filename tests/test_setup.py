"""The set-up a newcomer follows is the one CI runs, and it asks for what it needs.

- ``.ci/run`` runs the README's two set-up commands verbatim, with the pip a fresh
  virtual environment brings: below its marker line are exactly the README's first
  block, and nothing before the marker installs anything with pip or npm (no silent
  ``pip install --upgrade pip``, no ``npm ci`` the README does not show);
- ``adapters/node/package.json`` asks for the Node its locked packages declare: its
  ``engines.node`` is at least every package's in ``package-lock.json`` (so npm prints
  no ``EBADENGINE`` warning on a Node the project says is enough).

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


def test_the_node_adapters_ask_for_the_node_their_packages_need() -> None:
    folder = REPO / "adapters" / "node"
    ours = json.loads((folder / "package.json").read_text(encoding="utf-8"))["engines"]["node"]
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    needed = {
        name: _minimum_major(entry["engines"]["node"])
        for name, entry in lock.items()
        if name and "node" in entry.get("engines", {})
    }
    assert needed, "no locked package declares its Node"
    assert lock[""]["engines"]["node"] == ours
    assert _minimum_major(ours) == max(needed.values()), needed
