"""Driver: openai-python's tool loop, the gateways' downstream client.

``python openai_python.py BASE_URL PROMPT [final|events]``: ``client.responses.stream(...)``
with ``echo(text)``, ``ping()`` (no parameter) and ``note`` (a custom freeform tool),
``get_final_response()``, then, as the openai-python README
shows, the response's output items appended to the input as they are (the SDK
serializes them to request input itself), an output item for each call,
and the next request sent, until a response has no call.  ``events`` reads each turn
the other way the README shows ("Streaming responses"): the raw events of
``client.responses.create(..., stream=True)``, the output items those of its
``response.output_item.done`` events, in stream order; the same loop otherwise.  Extra headers for a
gateway come from ``ORACLE_GATEWAY_CONFIG`` (the Portkey config header) and
``ORACLE_GATEWAY_KEY`` (a gateway's own key).

With ``ORACLE_DOWNSTREAM`` (a file path), the first answer the gateway sends is kept
there exactly, for serve's gateway mode (``answer_kept``): a response hook of the
HTTP client openai-python is given reads the whole body first (the SDK then parses
the same bytes) and writes ``{"status", "content_type", "body_base64"}``, so the bytes
are kept even when the SDK then fails on them.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from openai import DefaultHttpxClient, OpenAI

TOOLS: list[Any] = [
    {
        "type": "function",
        "name": "echo",
        "description": "Return the text unchanged.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
            "additionalProperties": False,
        },
        "strict": True,
    },
    {
        "type": "function",
        "name": "ping",
        "description": "Answer that it ran.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
        "strict": True,
    },
    {"type": "custom", "name": "note", "description": "Keep a note (free text)."},
]
"""A tool with a parameter, one of none (for zero-argument calls) and a custom freeform
tool (for custom tool calls): the kinds of call a model makes."""

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def run(call: Any) -> dict[str, Any]:
    """Run one call with its tool; the output item that answers it."""
    if call.type == "custom_tool_call":
        return {"type": "custom_tool_call_output", "call_id": call.call_id,
                "output": call.input}
    output = PONG if call.name == "ping" else echo(**json.loads(call.arguments or "{}"))
    return {"type": "function_call_output", "call_id": call.call_id, "output": output}


def keep_first_answer(path: str) -> Callable[[Any], None]:
    """A response hook writing the first ``/responses`` answer's status and exact bytes
    to ``path`` (module docstring)."""
    kept: list[bool] = []

    def hook(response: Any) -> None:
        if kept or not response.request.url.path.endswith("/responses"):
            return
        kept.append(True)
        body = response.read()
        record = {
            "status": response.status_code,
            "content_type": response.headers.get("content-type", ""),
            "body_base64": base64.b64encode(body).decode("ascii"),
        }
        with open(path, "w", encoding="utf-8") as out:
            json.dump(record, out)

    return hook


def final_items(client: OpenAI, history: list[Any]) -> list[Any]:
    """One turn read by the streaming helper: the output of ``get_final_response()``."""
    with client.responses.stream(model="gpt-5.1", input=history, tools=TOOLS) as stream:
        return list(stream.get_final_response().output)


def event_items(client: OpenAI, history: list[Any]) -> list[Any]:
    """One turn read from its raw events: the item of each ``response.output_item.done``."""
    stream = client.responses.create(model="gpt-5.1", input=history, tools=TOOLS,
                                     stream=True)
    return [event.item for event in stream if event.type == "response.output_item.done"]


READINGS: dict[str, Callable[[OpenAI, list[Any]], list[Any]]] = {
    "final": final_items, "events": event_items}
"""The two ways the README shows of reading a streamed turn, by the name a run gives."""


def main(base_url: str, prompt: str, reading: str = "final") -> None:
    """Run the tool loop (at most four requests) and print the last text."""
    headers = {}
    if os.environ.get("ORACLE_GATEWAY_CONFIG"):
        headers["x-portkey-config"] = os.environ["ORACLE_GATEWAY_CONFIG"]
    key = os.environ.get("ORACLE_GATEWAY_KEY") or os.environ["OPENAI_API_KEY"]
    hooks = [keep_first_answer(os.environ["ORACLE_DOWNSTREAM"])] if os.environ.get(
        "ORACLE_DOWNSTREAM") else []
    client = OpenAI(base_url=base_url, api_key=key, max_retries=0, default_headers=headers,
                    http_client=DefaultHttpxClient(event_hooks={"response": hooks}))
    history: list[Any] = [{"role": "user", "content": prompt}]
    items: list[Any] = []
    for _ in range(4):
        items = READINGS[reading](client, history)
        history += items
        calls = [item for item in items if item.type in ("function_call", "custom_tool_call")]
        if not calls:
            break
        for call in calls:
            history.append(run(call))
    print("".join(part.text for item in items if item.type == "message"
                  for part in item.content if part.type == "output_text"))


if __name__ == "__main__":
    main(*sys.argv[1:4])
