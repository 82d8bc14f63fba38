"""Save the stream serve plays for a scenario, as a client offering our tools gets it.

    python tools/rejudge/capture.py SCENARIO OUT.sse [--twin | --deviation NAME ...]
        [--tools-from REQUESTS.jsonl]

Starts ``responses-oracle serve SCENARIO`` (the project's command, as a user runs it),
sends one streaming ``POST /v1/responses`` that offers the tools every re-run script
declares (``echo(text)``, ``ping()``, a custom ``note``), writes the answer's bytes to
OUT.sse as they came, and stops the server.  Stdlib only: nothing from the project is
imported, so what is saved is exactly what went over the wire.  An agent that brings its
own tools (opencode's ``bash``, codex's ``shell``) gets a stream for those: with
``--tools-from``, the tools are the ones the first request in a client's logged
requests declared (rerun.sh logs them from a probe run), so serve maps each call onto a
tool that client has, as it did for the recorded cell.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.request

TOOLS = [
    {"type": "function", "name": "echo", "description": "Return the text unchanged.",
     "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                    "required": ["text"], "additionalProperties": False},
     "strict": True},
    {"type": "function", "name": "ping", "description": "Answer that it ran.",
     "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
     "strict": True},
    {"type": "custom", "name": "note", "description": "Keep a note (free text)."},
]


def main(argv: list[str]) -> int:
    scenario, out, extra = argv[0], argv[1], argv[2:]
    tools = TOOLS
    if "--tools-from" in extra:
        at = extra.index("--tools-from")
        with open(extra[at + 1], encoding="utf-8") as log:
            tools = next(logged["body"]["tools"] for logged in map(json.loads, log)
                         if logged["body"].get("tools"))
        del extra[at:at + 2]
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            ["responses-oracle", "serve", scenario, *extra, "--out", folder,
             "--timeout", "20,30"],
            stdout=subprocess.PIPE, text=True, start_new_session=True)
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            url = re.search(r"http://127\.0\.0\.1:\d+/v1", line)
            if not url:
                print(f"serve said: {line!r}", file=sys.stderr)
                return 3
            body = json.dumps({"model": "gpt-5.1", "stream": True, "tools": tools,
                               "input": [{"role": "user", "content": "Use a tool."}]})
            request = urllib.request.Request(
                url.group(0) + "/responses", data=body.encode(),
                headers={"content-type": "application/json",
                         "authorization": "Bearer x"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                data = answer.read()
            with open(out, "wb") as saved:
                saved.write(data)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    print(f"{out}: {data.count(b'event:')} events")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
