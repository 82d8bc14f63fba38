"""A standalone mock Responses API for the re-judgement: plays one SSE file, logs requests.

    python tools/rejudge/mock.py STREAM.sse LOG.jsonl [--port N]

Binds 127.0.0.1 and prints ``listening on http://127.0.0.1:PORT/v1`` first.  Every
``POST .../responses`` body is appended to LOG.jsonl (one JSON object a line, as the
client sent it).  The first request whose body declares tools gets STREAM.sse byte for
byte; every later one gets a short complete text answer (``TEXT_ANSWER``), so a client
that ran the call and sent its output finishes its loop.  ``GET .../models`` answers a
one-model list.  Stdlib only: it imports nothing from ``responses_oracle``, so a verdict
read from its log owes nothing to the project's server.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RESPONSE = {"id": "resp_2", "object": "response", "created_at": 1764892801,
            "model": "gpt-5.1", "status": "in_progress", "output": [], "error": None,
            "incomplete_details": None, "instructions": None, "metadata": {},
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "temperature": 1.0, "top_p": 1.0, "usage": None}
MESSAGE = {"type": "message", "id": "msg_2", "status": "completed", "role": "assistant",
           "content": [{"type": "output_text", "text": "done", "annotations": []}]}


def text_answer() -> bytes:
    """A complete streamed text answer, with every event the API sends for one."""
    done = dict(RESPONSE, status="completed", output=[MESSAGE],
                usage={"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                       "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens_details": {"reasoning_tokens": 0}})
    added = dict(MESSAGE, status="in_progress", content=[])
    part = {"type": "output_text", "text": "", "annotations": []}
    events = [
        {"type": "response.created", "response": RESPONSE},
        {"type": "response.in_progress", "response": RESPONSE},
        {"type": "response.output_item.added", "output_index": 0, "item": added},
        {"type": "response.content_part.added", "item_id": "msg_2", "output_index": 0,
         "content_index": 0, "part": part},
        {"type": "response.output_text.delta", "item_id": "msg_2", "output_index": 0,
         "content_index": 0, "delta": "done", "logprobs": []},
        {"type": "response.output_text.done", "item_id": "msg_2", "output_index": 0,
         "content_index": 0, "text": "done", "logprobs": []},
        {"type": "response.content_part.done", "item_id": "msg_2", "output_index": 0,
         "content_index": 0, "part": dict(part, text="done")},
        {"type": "response.output_item.done", "output_index": 0, "item": MESSAGE},
        {"type": "response.completed", "response": done},
    ]
    return b"".join(
        f"event: {e['type']}\ndata: {json.dumps(dict(e, sequence_number=n))}\n\n".encode()
        for n, e in enumerate(events))


TEXT_ANSWER = text_answer()


def serve(stream: bytes, log: str, port: int = 0) -> ThreadingHTTPServer:
    """A server playing ``stream`` once (module docstring); call serve_forever."""
    played = threading.Event()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            self._send(200, "application/json", json.dumps(
                {"object": "list", "data": [{"id": "gpt-5.1", "object": "model",
                                             "created": 0, "owned_by": "x"}]}).encode())

        def do_POST(self) -> None:
            size = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(size)
            with lock, open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"path": self.path,
                                      "body": json.loads(raw or b"null")}) + "\n")
            if not self.path.rstrip("/").endswith("/responses"):
                self._send(404, "application/json", b'{"error":{"message":"no"}}')
                return
            body = json.loads(raw or b"{}")
            first = bool(body.get("tools")) and not played.is_set()
            if first:
                played.set()
            self._send(200, "text/event-stream", stream if first else TEXT_ANSWER)

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def main(argv: list[str]) -> int:
    port = int(argv[argv.index("--port") + 1]) if "--port" in argv else 0
    with open(argv[0], "rb") as source:
        server = serve(source.read(), argv[1], port)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
