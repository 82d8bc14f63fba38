"""serve and audit as a user gets them: from the wheel, in a folder that is no checkout.

The session's wheel (``conftest.py``) is installed with the extras the docs name
(``serve``, ``audit``, ``dask``) into a fresh virtual environment, beside openai-python
(the client driving serve) and pytest (for the docs' pytest example); the pip cache is
reused.  Every command runs in an empty folder, so a stream the package does not ship
cannot be found:

- the README's serve command (with ``--once``), driven by an openai-python application
  (``serve.test_clients.two_turns``), plays the quirk and the example it names;
- every name ``agents --list`` shows is a scenario serve loads;
- the pytest example of ``docs/usage/serve.md``, copied verbatim, passes;
- the audit command of ``docs/usage/audit.md`` on the example streams the package
  ships, and its Python example run as a plain script (on Dask).

It takes about a minute (mostly the install): ``-m 'not slow'`` leaves it out.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import REPO, installed_outside_checkout, pip

TESTS = REPO / "tests"
LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+/v1)")


@dataclass(frozen=True)
class Installed:
    """The fresh environment's python and the empty folder commands run in."""

    python: Path
    work: Path

    def run(self, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` (``responses-oracle`` is the installed command) in the folder."""
        if argv[0] == "responses-oracle":
            argv = (str(self.python.parent / "responses-oracle"), *argv[1:])
        return subprocess.run(
            argv, cwd=self.work, env=self.env(**env), capture_output=True, text=True,
            timeout=300,
        )

    def env(self, **extra: str) -> dict[str, str]:
        """No variable of this checkout's environment: only a PATH, and ``extra``."""
        return {"PATH": f"{self.python.parent}:/usr/bin:/bin", "HOME": str(self.work), **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Installed:
    """The wheel with the docs' extras, in a fresh virtual environment."""
    root = tmp_path_factory.mktemp("installed")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    python = root / "venv" / "bin" / "python"
    pip(str(python), "install", f"{wheel}[serve,audit,dask]", "openai==3.57.0", "pytest")
    work = root / "work"
    work.mkdir()
    return Installed(python, work)


def _block(page: str, language: str, containing: str) -> str:
    text = (REPO / page).read_text(encoding="utf-8")
    blocks: list[str] = re.findall(rf"```{language}\n(.*?)```", text, re.S)
    [block] = [b for b in blocks if containing in b]
    return block


def _drive(installed: Installed, base_url: str) -> None:
    """One conversation of the openai-python application of ``serve/test_clients.py``."""
    script = f"import sys; sys.path.insert(0, {str(TESTS)!r}); "
    script += f"from serve.test_clients import two_turns; two_turns({base_url!r})"
    done = installed.run(str(installed.python), "-c", script)
    assert done.returncode == 0, done.stderr


def test_the_package_is_used_not_the_checkout(installed: Installed) -> None:
    where = "import responses_oracle; print(responses_oracle.__file__)"
    done = installed.run(str(installed.python), "-c", where)
    assert installed_outside_checkout(done.stdout), done.stdout


def test_the_readme_serve_command_plays_a_quirk_and_an_example(installed: Installed) -> None:
    [command] = [
        line.split("#")[0].split()
        for line in _block("README.md", "sh", "serve q05").splitlines()
        if "serve q05" in line
    ]
    assert command[:4] == ["responses-oracle", "serve", "q05", "examples/parallel-calls.sse"]
    process = subprocess.Popen(
        [str(installed.python.parent / "responses-oracle"), *command[1:], "--once"],
        cwd=installed.work, env=installed.env(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    listening = LISTENING.search(first)
    assert listening, first + (process.stderr.read() if process.stderr else "")
    for _ in range(2):  # each scenario a conversation
        _drive(installed, listening.group(1))
    out, errors = process.communicate(timeout=120)
    assert process.returncode in (0, 1), errors
    written = json.loads((installed.work / "run" / "verdicts.json").read_text())
    served = {s["scenario"]: s for s in written["scenarios"]}
    assert set(served) == {"q05", "examples/parallel-calls.sse"}, out
    for scenario in served.values():
        assert scenario["calls"] and all(c["executed"] is not None for c in scenario["calls"])
    assert "served" in out.splitlines()[0]


def test_serve_loads_every_name_agents_lists(installed: Installed) -> None:
    listed = installed.run("responses-oracle", "agents", "--list")
    assert listed.returncode == 0, listed.stderr
    # A scenario's line starts with its name; its deviations follow, indented.
    names = [line.split()[0] for line in listed.stdout.split("\n\n", 1)[1].splitlines()
             if line.strip() and not line[0].isspace()]
    assert {"q05", "s01", "peers-unconfirmed-call"} <= set(names)
    script = (
        "import sys; from responses_oracle.serve import load_scenario\n"
        "for name in sys.argv[1:]:\n"
        "    assert load_scenario(name).events, name\n"
        "print(len(sys.argv) - 1)"
    )
    done = installed.run(str(installed.python), "-c", script, *names)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(names))


def test_the_docs_pytest_example_passes(installed: Installed) -> None:
    docs_pytest_example_passes(installed)


def docs_pytest_example_passes(installed: Installed) -> None:
    """The pytest example of ``docs/usage/serve.md``, copied verbatim, passes in the
    folder, its ``my_agent`` the openai-python application of ``serve/test_clients.py``."""
    example = _block("docs/usage/serve.md", "python", "import pytest")
    (installed.work / "test_example.py").write_text(example)
    (installed.work / "my_agent.py").write_text(
        f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
        "from serve.test_clients import two_turns\n\n"
        "def run_agent(prompt, base_url):\n    two_turns(base_url)\n"
    )
    done = installed.run(
        str(installed.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
        "test_example.py", PYTHONPATH=str(installed.work),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout


def _in_folder(installed: Installed, name: str) -> Installed:
    """The same environment, commands run in a new empty folder ``name``."""
    (installed.work / name).mkdir()
    return Installed(installed.python, installed.work / name)


def test_the_docs_audit_command_audits_the_shipped_example_streams(
    installed: Installed,
) -> None:
    [line] = [
        line.split("#")[0]
        for line in _block("docs/usage/audit.md", "sh", "audit examples/").splitlines()
        if "audit examples/" in line
    ]
    argv = shlex.split(line)
    here = _in_folder(installed, "audit-command")
    done = here.run(*argv)
    assert done.returncode == 0, done.stdout + done.stderr
    out = here.work / argv[argv.index("--out") + 1]
    run = json.loads((out / "run.json").read_text())
    sources = argv[2:argv.index("--out")]
    assert (run["sources"], run["inputs"], run["failed_inputs"]) == (sources, len(sources), 0)
    assert run["responses"] == len(sources) and run["reconciles"]
    assert (out / "summary.md").read_text().startswith("# Exit status 0")


def test_the_docs_audit_python_example_runs_as_a_script(installed: Installed) -> None:
    here = _in_folder(installed, "audit-script")
    (here.work / "audit_example.py").write_text(
        _block("docs/usage/audit.md", "python", "run_audit")
    )
    done = here.run(str(here.python), "audit_example.py")
    assert done.returncode == 0, done.stdout + done.stderr
    status, totals = done.stdout.splitlines()[-2:]
    assert status.startswith("0 every input was reduced"), done.stdout
    assert totals == "2 0 True", done.stdout
