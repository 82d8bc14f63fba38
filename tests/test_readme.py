"""The README, as a newcomer follows it: in a fresh virtual environment, from the wheel.

Theory of operation
-------------------
The session's ``wheel`` fixture (``conftest.py``) builds the wheel from a copy of the
checkout (``pip wheel``, the isolated build a user's ``pip install .`` makes); a module
fixture creates a fresh virtual environment and installs the wheel into it -- not an
editable install, and no extra: only what the README's first command installs.  Then
every block of the README is held to what it shows:

- the first set-up command (its ``pip install .`` is the wheel) and every ``sh`` block
  directly followed by a ``text`` block run in a folder holding a copy of
  ``examples/``, under a pseudo-terminal 80 columns wide (so ``--pretty`` renders as on
  a terminal, colours off); their output must be the ``text`` block, line by line;
- the ``python`` block runs and must print its ``text`` block, and it then runs on
  every bundled example and every recorded capture in the checkout (``examples/``,
  ``fixtures/``), where it must not fail and must print one line per response, item
  and diagnostic, naming each executable call by its ``call_id``;
- the commands the README lists answer ``--help``, and the ones it says need the
  proofs extra say so and exit 2 without it.

The second set-up command is the one running this test (CI runs it verbatim), so it is
not run again.  The pip cache is reused; nothing but PyPI is reached.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import REPO, installed_outside_checkout, pip
from responses_oracle import reduce
from responses_oracle.streamgen.cases import STREAM_SUFFIXES

README = (REPO / "README.md").read_text(encoding="utf-8")

COLUMNS = 80
"""Width of the pseudo-terminal the commands run on."""

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class Block:
    """A fenced block of the README: its language, its text, the output shown after it."""

    language: str
    text: str
    output: str | None


def blocks(text: str = README) -> list[Block]:
    """The README's fenced blocks in order, each with the ``text`` block right after it."""
    fences = re.finditer(r"```(\w+)\n(.*?)```", text, re.S)
    found = [(m.group(1), m.group(2), m.end()) for m in fences]
    result = []
    for number, (language, body, end) in enumerate(found):
        following = found[number + 1] if number + 1 < len(found) else None
        output = None
        if following is not None and following[0] == "text" and language != "text":
            start = text.index("```text", end)
            if not text[end:start].strip():
                output = following[1]
        result.append(Block(language, body, output))
    return result


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


@dataclass(frozen=True)
class Installed:
    """The fresh environment: its ``bin`` folder and the folder commands run in."""

    bin: Path
    work: Path

    @property
    def python(self) -> str:
        return str(self.bin / "python")

    def env(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "VIRTUAL_ENV", "COV_"))
        }
        env.update(
            PATH=f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            VIRTUAL_ENV=str(self.bin.parent),
            COLUMNS=str(COLUMNS),
            LINES="50",
            NO_COLOR="1",
            TERM="dumb",
        )
        return env

    def on_terminal(self, command: str) -> str:
        """Run ``command`` with ``sh``, stdout on an 80-column pseudo-terminal; what it
        printed, without escape sequences.  It must exit 0."""
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
        process = subprocess.Popen(
            ["sh", "-c", command],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=self.work,
            env=self.env(),
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # the pseudo-terminal closed with the last writer
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        _, errors = process.communicate(timeout=120)
        text = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
        assert process.returncode == 0, f"{command}: {errors.decode()}"
        return _ANSI.sub("", text)

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the work folder, output captured."""
        return subprocess.run(
            argv, cwd=self.work, env=self.env(), capture_output=True, text=True, timeout=120
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Iterator[Installed]:
    """The wheel of this checkout, installed into a fresh virtual environment."""
    root = tmp_path_factory.mktemp("readme")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    bin_dir = root / "venv" / "bin"
    pip(str(bin_dir / "python"), "install", str(wheel))
    work = root / "work"
    work.mkdir()
    shutil.copytree(REPO / "examples", work / "examples")
    yield Installed(bin_dir, work)


def test_the_wheel_holds_the_library_and_cli_not_the_tooling(installed: Installed) -> None:
    script = (
        "import importlib.util as u; "
        "print([u.find_spec(m) is not None for m in ('responses_oracle.cli', "
        "'responses_oracle.differential.conformance_vectors', 'responses_oracle.model.codegen', "
        "'responses_oracle.docsite', 'responses_oracle.model.diagrams', 'rule_tests')])"
    )
    done = installed.run(installed.python, "-c", script)
    assert done.stdout.strip() == "[True, True, True, False, False, False]", done.stderr
    where = "import responses_oracle; print(responses_oracle.__file__)"
    found = installed.run(installed.python, "-c", where)
    assert installed_outside_checkout(found.stdout), found.stdout


def test_the_first_set_up_command(installed: Installed) -> None:
    first, second = [line for line in blocks()[0].text.splitlines() if line.strip()]
    install, command = first.split(" && ")
    assert install == "pip install ."  # what the fixture did, from the wheel
    out = installed.on_terminal(command)
    assert "response 1  completed  ok" in out
    assert "call_qN4vT8xKb2WmL7sRz0YdHj3E" in out and "call_Fp6cA1nUe9ZtQ5gVy2MkXo8B" in out
    assert out.count("executable: yes") == 2
    # This suite on every core, which CI runs verbatim (tests/test_setup.py).
    assert second.endswith("python -m pytest -n auto --dist loadfile")


def _tour() -> list[Block]:
    return [b for b in blocks()[1:] if b.language == "sh" and b.output is not None]


def test_the_tour_shows_real_output() -> None:
    assert len(_tour()) >= 4


@pytest.mark.parametrize("block", _tour(), ids=lambda b: b.text.split("\n")[0][:60])
def test_each_tour_command_prints_what_the_readme_shows(
    block: Block, installed: Installed
) -> None:
    assert block.output is not None
    out = installed.on_terminal(block.text)
    assert _lines(out) == _lines(block.output)


def _snippet() -> Block:
    [snippet] = [b for b in blocks() if b.language == "python"]
    assert snippet.output is not None, "the README shows the snippet's output"
    return snippet


def test_the_snippet_prints_what_the_readme_shows(installed: Installed) -> None:
    snippet = _snippet()
    done = installed.run(installed.python, "-c", snippet.text)
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout) == _lines(snippet.output or "")


def _streams() -> list[Path]:
    """Every bundled example and every recorded capture the checkout holds."""
    found = sorted(p for p in (REPO / "examples").iterdir() if p.suffix in STREAM_SUFFIXES)
    fixtures = REPO / "fixtures"
    if fixtures.is_dir():
        found += sorted(
            p for p in fixtures.rglob("*") if p.is_file() and p.suffix in STREAM_SUFFIXES
        )
    return found


_DRIVER = """
import contextlib, io, json, sys, traceback
snippet, example, paths = sys.argv[1], sys.argv[2], json.loads(sys.stdin.read())
answers = {}
for path in paths:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(snippet.replace(repr(example)[1:-1], path), path, "exec"), {})
        answers[path] = {"out": out.getvalue()}
    except Exception:
        answers[path] = {"error": traceback.format_exc()}
print(json.dumps(answers))
"""


def test_the_snippet_works_on_every_example_and_capture(installed: Installed) -> None:
    snippet = _snippet().text
    [example] = re.findall(r'reduce\("([^"]+)"\)', snippet)
    paths = [str(p) for p in _streams()]
    assert len(paths) >= 4
    done = subprocess.run(
        [installed.python, "-c", _DRIVER, snippet, example],
        input=json.dumps(paths),
        capture_output=True,
        text=True,
        cwd=installed.work,
        env=installed.env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    failed = {path: a["error"] for path, a in answers.items() if "error" in a}
    assert not failed, failed
    for path in paths:
        results = reduce(Path(path))
        printed = answers[path]["out"].splitlines()
        # One line per result, item and diagnostic, plus the line breaks a printed
        # payload or detail holds (gpt-oss-20b's arguments end in a newline).
        breaks = sum(
            str(e.item.get("arguments", e.item.get("input"))).count("\n")
            for r in results
            for e in r.items
            if e.executable
        ) + sum(d.detail.count("\n") for r in results for d in r.diagnostics)
        expected = sum(1 + len(r.items) + len(r.diagnostics) for r in results) + breaks
        assert len(printed) == expected, path
        calls = [line.split()[2] for line in printed if line.startswith("  call ")]
        assert calls == [e.item["call_id"] for r in results for e in r.items if e.executable]


def test_the_commands_listed_answer_help_and_the_extras_are_as_said(
    installed: Installed,
) -> None:
    [listing] = [b for b in blocks() if b.language == "text" and "responses-oracle prove" in b.text]
    commands = sorted({line.split()[1] for line in listing.text.splitlines() if line.strip()})
    assert commands == [
        "agents", "audit", "diff", "diff-policies", "explain", "prove", "proxy", "reduce",
        "replay", "serve", "vectors",
    ]
    for command in commands:
        done = installed.run("responses-oracle", command, "--help")
        assert done.returncode == 0 and "exit status:" in done.stdout, command
    # What the README says the base install is enough for, run in it.
    done = installed.run("responses-oracle", "diff", "--candidate", "oracle", "--count", "12")
    assert done.returncode == 0, done.stdout + done.stderr
    exported = installed.run("responses-oracle", "vectors", "export", "base", "--generated", "3")
    assert exported.returncode == 0, exported.stderr
    checked = installed.run("responses-oracle", "vectors", "check", "base", "--candidate", "oracle")
    assert checked.returncode == 0 and checked.stdout.endswith(" vectors pass\n"), checked.stdout
    for argv in (["prove"], ["diff-policies", "reference", "axonhub"]):
        done = installed.run("responses-oracle", *argv)
        assert done.returncode == 2
        assert "pip install 'responses-oracle[proofs]'" in done.stderr
    assert "`prove` and `diff-policies` need the proofs extra" in " ".join(README.split())
