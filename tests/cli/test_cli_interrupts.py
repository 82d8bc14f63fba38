"""Ctrl-C as a terminal sends it: to the command's whole process group.

Every command ends with 130, prints what it had done, and no traceback -- not the
command's, not its workers' (``diff --jobs 2``: each worker ends quietly,
``responses_oracle.workers``).  And a server that cannot start leaves nothing open
behind it (``proxy`` on a port in use: no "Unclosed client session").
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

CLI = "import sys; from responses_oracle.cli import main; sys.exit(main())"


def _started(*argv: str) -> subprocess.Popen[str]:
    """The command in a process group of its own, with the SIGINT a terminal gives."""
    return subprocess.Popen(
        # faulthandler: a command still running long after Ctrl-C is sent SIGABRT and
        # prints where every thread of it was (a rare hang seen once in CI, not here).
        [sys.executable, "-X", "faulthandler", "-c", CLI, *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, process_group=0,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _ctrl_c(process: subprocess.Popen[str], after: float) -> tuple[str, str]:
    time.sleep(after)
    os.killpg(process.pid, signal.SIGINT)
    try:
        return process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        exited = process.poll()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGABRT)
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        raise AssertionError(
            f"still running 120 s after Ctrl-C (exit status then: {exited}); where it was:\n"
            + out[-3000:] + err[-20000:]
        ) from None


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_diff_prints_the_streams_compared_so_far(jobs: str) -> None:
    process = _started("diff", "--candidate", "oracle", "--count", "1000000", "--jobs", jobs)
    out, err = _ctrl_c(process, 8.0)
    assert process.returncode == 130, out + err
    said = re.match(r"INTERRUPTED: (\d+) of 1000000 streams compared before Ctrl-C; "
                    r"(\d+) disagree with the oracle", out)
    assert said, out + err
    compared, disagree = int(said[1]), int(said[2])
    assert disagree <= compared
    if disagree:
        listed = out.split("the streams:\n", 1)[1].splitlines()
        assert len(listed) == disagree and all(line.startswith("  seed0/") for line in listed)
    assert "Traceback" not in err, err


def test_a_proxy_on_a_port_in_use_exits_2_and_leaves_nothing_open() -> None:
    pytest.importorskip("aiohttp")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-c", CLI, "proxy", "--upstream", "http://127.0.0.1:9/v1",
             "--port", str(port)],
            capture_output=True, text=True, timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Unclosed" not in done.stderr


def test_ctrl_c_while_the_command_is_imported_ends_with_130_and_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Ctrl-C in the first few hundred milliseconds lands in the imports that building
    # the parser makes; it was an import traceback.
    import responses_oracle.cli as cli

    def imports(arguments: list[str]) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_plain", imports)
    assert cli.main(["reduce", "examples/parallel-calls.sse"]) == 130
    assert capsys.readouterr().err == "responses-oracle: interrupted\n"
