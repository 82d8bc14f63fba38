"""The bundled streams are found in every way the package is installed.

Four ways, each into a fresh virtual environment beside openai-python (the client driving
serve) and pytest (for the docs' pytest example), the pip cache reused:

- ``wheel``: the session's wheel (``conftest.py``), as ``pip install .`` makes it;
- ``strict``: ``pip install -e . --config-settings editable_mode=strict`` (the README's);
- ``plain``: ``pip install -e .``, whose import finder cannot import
  ``responses_oracle.data`` (``bundled``'s docstring says why);
- ``pythonpath``: no install: the checkout laid out as the package (``responses_oracle/``
  of links to ``impl/``'s files, ``model/`` and ``proofs/``) on ``PYTHONPATH``.

The editable installs and the layout are made from a copy of this checkout, so that they
write nothing into it.  In each, from an empty folder: ``serve q07 --once`` plays its
quirk to an openai-python application, ``reduce examples/parallel-calls.sse`` reduces
the example, and the pytest example of ``docs/usage/serve.md``, copied verbatim, passes.
A few minutes in all (four environments): ``-m 'not slow'`` leaves it out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import REPO, copied_checkout, pip
from test_installed import LISTENING, TESTS, Installed, docs_pytest_example_passes

MODES = ("wheel", "strict", "plain", "pythonpath")
"""The ways the package is installed (the module's docstring)."""


def _laid_out(checkout: Path, root: Path) -> Path:
    """A folder holding ``responses_oracle/``: links to the checkout's package code."""
    package = root / "responses_oracle"
    package.mkdir(parents=True)
    for entry in (checkout / "impl").iterdir():
        (package / entry.name).symlink_to(entry)
    for name in ("model", "proofs"):
        (package / name).symlink_to(checkout / name)
    return root


def _dependencies() -> list[str]:
    """What the package needs for serve (``pyproject.toml``): what no install brings."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["serve"]]


@pytest.fixture(scope="module", params=MODES)
def installed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, wheel: Path
) -> Installed:
    """The package installed the way the parameter names, with serve's extra."""
    mode: str = request.param
    root = tmp_path_factory.mktemp(mode)
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=900)
    python = root / "venv" / "bin" / "python"
    clients = ("openai==3.57.0", "pytest")
    work = root / "work"
    work.mkdir()
    if mode == "wheel":
        pip(str(python), "install", f"{wheel}[serve]", *clients)
        return Installed(python, work)
    checkout = copied_checkout(root / "checkout")
    if mode == "pythonpath":
        pip(str(python), "install", *_dependencies(), *clients)
        tree = _laid_out(checkout, root / "tree")
        return _OnPath(python, work, tree)
    strict = ("--config-settings", "editable_mode=strict") if mode == "strict" else ()
    pip(str(python), "install", "-e", f"{checkout}[serve]", *strict, *clients)
    return Installed(python, work)


@dataclass(frozen=True)
class _OnPath(Installed):
    """No install: the laid-out checkout ``tree`` on ``PYTHONPATH``."""

    tree: Path

    def env(self, **extra: str) -> dict[str, str]:
        """The environment, with the tree first on ``PYTHONPATH``."""
        paths = os.pathsep.join(filter(None, (str(self.tree), extra.pop("PYTHONPATH", ""))))
        return super().env(PYTHONPATH=paths, **extra)


_ANY_ARGUMENTS = (
    "import sys\n"
    "import openai\n"
    f"sys.path.insert(0, {str(TESTS)!r})\n"
    "from serve.test_clients import WEATHER, streamed_turn\n"
    "client = openai.OpenAI(base_url=sys.argv[1], api_key='sk-test', max_retries=0)\n"
    "history = [{'role': 'user', 'content': 'Weather in Paris?'}]\n"
    "output = streamed_turn(client, history)\n"
    "outputs = [{'type': 'function_call_output', 'call_id': item['call_id'], 'output': 'sunny'}\n"
    "           for item in output if item['type'] == 'function_call']\n"
    "client.responses.create(model='gpt-test', input=history + output + outputs, tools=[WEATHER])\n"
)
"""One conversation of an application that runs its calls whatever their arguments (q07's
call streams none), sending each back with its output."""


def _command(installed: Installed) -> list[str]:
    """How ``responses-oracle`` is started in this mode (on ``PYTHONPATH`` there is no
    console script: the same entry point, run by ``python -c``)."""
    if isinstance(installed, _OnPath):
        return [str(installed.python), "-c", "import sys; from responses_oracle.cli import "
                "console; sys.exit(console())"]
    return [str(installed.python.parent / "responses-oracle")]


def test_the_package_runs_from_where_the_mode_puts_it(installed: Installed) -> None:
    done = installed.run(str(installed.python), "-c",
                         "import responses_oracle; print(responses_oracle.__file__)")
    assert done.returncode == 0, done.stderr
    assert REPO not in Path(done.stdout.strip()).resolve().parents, done.stdout


def test_serve_plays_a_quirk_once(installed: Installed) -> None:
    process = subprocess.Popen(
        [*_command(installed), "serve", "q07", "--once", "--out", "run"],
        cwd=installed.work, env=installed.env(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    listening = LISTENING.search(first)
    if not listening:
        process.kill()
        pytest.fail(first + process.communicate(timeout=60)[1])
    driven = installed.run(str(installed.python), "-c", _ANY_ARGUMENTS, listening.group(1))
    assert driven.returncode == 0, driven.stderr
    out, errors = process.communicate(timeout=120)
    assert process.returncode in (0, 1), errors
    written = json.loads((installed.work / "run" / "verdicts.json").read_text())
    [served] = written["scenarios"]
    assert served["scenario"] == "q07" and served["calls"], out


def test_reduce_reads_the_bundled_example_from_an_empty_folder(installed: Installed) -> None:
    done = installed.run(*_command(installed), "reduce", "examples/parallel-calls.sse")
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    result = json.loads(line)
    assert result["response"]["status"] == "completed"
    calls = [e["item"]["call_id"] for e in result["items"] if e["item"]["type"] == "function_call"]
    assert calls == ["call_qN4vT8xKb2WmL7sRz0YdHj3E", "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B"]


def test_the_docs_pytest_example_passes(installed: Installed) -> None:
    docs_pytest_example_passes(installed)
