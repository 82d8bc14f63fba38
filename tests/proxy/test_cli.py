"""``responses-oracle proxy`` as a process: its first line, its refusals, its drain."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from typing import Any

from responses_oracle.serve import load_scenario

from .test_proxy import S01, first_turn, post
from .upstreams import frames, sse_body, upstream

LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)/v1")
MAIN = "import sys; from responses_oracle.cli import main; sys.exit(main())"


def _proxy(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", MAIN, "proxy", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def test_ctrl_c_lets_the_request_in_flight_finish_then_exits_130() -> None:
    slow = sse_body(frames(list(load_scenario(S01).events)), delay=0.15)
    with upstream(slow) as url:
        process = _proxy("--upstream", url)
        assert process.stdout is not None
        first = process.stdout.readline().rstrip("\n")
        assert LISTENING.fullmatch(first), first
        answer: list[Any] = []
        asking = threading.Thread(target=lambda: answer.append(post(first.split()[-1],
                                                                    first_turn())))
        asking.start()
        threading.Event().wait(0.5)  # the stream is under way
        process.send_signal(signal.SIGINT)
        asking.join(30)
        process.communicate(timeout=30)
    assert process.returncode == 130
    status, _, body = answer[0]
    assert status == 200 and b"response.completed" in body


def test_refuses_another_host_and_a_bad_upstream_with_status_2() -> None:
    for args, said in (
        (("--upstream", "http://127.0.0.1:9/v1", "--host", "0.0.0.0"), "binds 127.0.0.1 only"),
        (("--upstream", "api.openai.com/v1"), "--upstream must be an http(s) base URL"),
        (("--upstream", "http://127.0.0.1:9/v1", "--port", "70000"), "--port must be"),
    ):
        process = _proxy(*args)
        out, err = process.communicate(timeout=60)
        assert (process.returncode, out) == (2, ""), err
        assert said in err


def test_the_documented_upstream_timeout_is_the_one_the_proxy_uses() -> None:
    """The command's default (its ``--help``, which needs no serve extra) and the
    endpoint's are one value."""
    from responses_oracle.cli import proxy as command
    from responses_oracle.proxy import endpoint

    assert command.UPSTREAM_TIMEOUT == endpoint.UPSTREAM_TIMEOUT == 300.0
