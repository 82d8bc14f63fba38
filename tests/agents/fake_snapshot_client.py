"""A small client for the runner's twin tests: one streamed turn, its tool, one more turn.

``python fake_snapshot_client.py BASE_URL snapshot|blank|mixed`` offers one tool,
``echo(text)``, streams one answer and reads its calls from the terminal
``response.completed``'s ``output``: ``snapshot`` replays and answers them as they are
(a snapshot that re-keys a call, q05, makes it answer under the snapshot's
``call_id``: one the provider gave the call), ``blank`` the same but replaying every
call with ``{}`` as its arguments (wrong on any stream), ``mixed`` replays the
snapshot's call but answers it under the ``call_id`` of its ``output_item.done`` (a
client that mixes the two views: on q05 the output pairs with no replayed call; on a
valid stream both views agree).  It runs ``echo`` and sends the calls
and their outputs back, as an application would.

``python fake_snapshot_client.py BASE_URL MODE RUNS HOLD_AFTER``: each run adds a line
to the file ``RUNS``; a run after the first ``HOLD_AFTER`` ones waits a minute before it
starts, so that a test's Ctrl-C finds it running (the runner ends it).
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ECHO = {
    "type": "function",
    "name": "echo",
    "description": "Return the text.",
    "parameters": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
        "additionalProperties": False,
    },
}


def turn(base_url: str, items: list[Any]) -> list[dict[str, Any]]:
    """POST one streamed request; the decoded events of its answer."""
    body = {"model": "gpt-test", "input": items, "tools": [ECHO], "stream": True}
    request = urllib.request.Request(
        f"{base_url}/responses", json.dumps(body).encode(),
        {"Content-Type": "application/json", "Authorization": "Bearer sk-test"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def main(base_url: str, mode: str) -> int:
    """The two turns; exit status 0."""
    prompt = [{"role": "user", "content": "Call echo once."}]
    events = turn(base_url, prompt)
    snapshot = next(e["response"] for e in reversed(events) if e["type"] == "response.completed")
    calls = [item for item in snapshot["output"] if item.get("type") == "function_call"]
    done = [e["item"] for e in events if e["type"] == "response.output_item.done"
            and e["item"].get("type") == "function_call"]
    replayed: list[Any] = []
    for position, call in enumerate(calls):
        arguments = "{}" if mode == "blank" else call["arguments"]
        text = json.loads(arguments).get("text", "")
        answered = done[position]["call_id"] if mode == "mixed" else call["call_id"]
        replayed.append({**call, "arguments": arguments})
        replayed.append({"type": "function_call_output", "call_id": answered,
                         "output": text})
    turn(base_url, prompt + replayed)
    return 0


def hold(runs: Path, after: int) -> None:
    """Count this run in ``runs``; past the first ``after`` runs, wait a minute."""
    with runs.open("a") as counted:
        counted.write("run\n")
    if len(runs.read_text().splitlines()) > after:
        time.sleep(60)


if __name__ == "__main__":
    if len(sys.argv) == 5:
        hold(Path(sys.argv[3]), int(sys.argv[4]))
    sys.exit(main(sys.argv[1], sys.argv[2]))
