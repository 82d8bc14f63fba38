"""openai-python's ``client.responses.stream()`` as a candidate: ``--candidate openai-python``.

Run as ``python -m responses_oracle.differential.openai_candidate`` (needs ``pip install
'responses-oracle[clients]'``: openai 3.x, the line whose transport is ``httpx2``).
Each request body goes the way a user's call takes it, through the SDK's public API
only: an ``OpenAI`` client whose ``http_client`` has an ``httpx2.MockTransport``
answering every request with the stream's SSE bytes, then ``client.responses.stream()``
iterated to the end and ``get_final_response()``.  No network is involved.  The request
declares a tool for every call the stream carries, as an application whose model
calls them does (``candidate.declared_tools``): a function tool with a permissive
schema (``{"type": "object"}``, not strict, so the SDK hands the arguments over as
text, unparsed), or a custom tool.

The answer is what a user of the SDK holds afterwards:

- ``response.completed`` seen: ``get_final_response().output``, status ``completed``;
- ``response.incomplete`` / ``response.failed``: the ``output`` the SDK attaches to
  that event, and its status;
- anything the SDK raises (an identity check, a missing ``response.completed``, an API
  error event) is the ``error`` answer: the SDK user gets an exception and no items.

The body is the whole request, as the server sent it: a body holding several
responses is handed over as one, which is what a real client gets (``diff
--split-responses`` sends each response as its own request instead).  The SDK returns
one response per call, so the answer has one result.  It has no notion of
executability or diagnostics, so the answer leaves those out and the harness does not
compare them.

Without openai installed the adapter says how to install it on stderr and exits 2
before answering anything, which stops ``diff`` with that message (exit 2).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from responses_oracle.differential.candidate import declared_tools, serve_client

INSTALL_HINT = (
    "the openai-python candidate needs openai 3.x (its transport is httpx2): "
    "pip install 'responses-oracle[clients]'"
)
"""What to do when the SDK is missing."""

_ENDINGS = ("response.completed", "response.incomplete", "response.failed")


def sse_body(events: list[dict[str, Any]]) -> bytes:
    """The events as the SSE body a server sends (``event:`` and ``data:`` lines)."""
    return "".join(
        f"event: {event.get('type')}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
        for event in events
    ).encode("utf-8", "surrogatepass")


PERMISSIVE: dict[str, Any] = {"type": "object", "additionalProperties": True}
"""The parameters of every declared function tool: any JSON object."""


def app_tools(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Responses ``tools`` an application declares for ``events``' calls: function
    tools with a permissive, non-strict schema, custom tools as custom tools."""
    return [
        {"type": "function", "name": tool["name"], "parameters": PERMISSIVE, "strict": False}
        if tool["type"] == "function" else {"type": "custom", "name": tool["name"]}
        for tool in declared_tools(events)
    ]


class _Offline:
    """One offline client for the whole run; each call answers with the current body."""

    def __init__(self) -> None:
        # openai is an optional extra (clients); without it mypy sees these as missing.
        import httpx2  # type: ignore[import-not-found,unused-ignore]
        from openai import OpenAI  # type: ignore[import-not-found,unused-ignore]

        self.body = b""

        def answer(request: Any) -> Any:
            return httpx2.Response(
                200, content=self.body, headers={"content-type": "text/event-stream"}
            )

        self.client = OpenAI(
            api_key="sk-offline",
            base_url="http://oracle.invalid/v1",
            max_retries=0,
            http_client=httpx2.Client(transport=httpx2.MockTransport(answer)),
        )

    def parse(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """One request body through ``client.responses.stream()``: a result object."""
        self.body = sse_body(events)
        ending: Any = None
        tools: Any = app_tools(events)  # the SDK types each tool shape separately
        with self.client.responses.stream(
            model="oracle-candidate", input="", tools=tools
        ) as stream:
            for event in stream:
                if event.type in _ENDINGS:
                    ending = event
            if ending is not None and ending.type != "response.completed":
                final = ending.response
            else:
                final = stream.get_final_response()
        return {
            "response": {"id": final.id, "status": final.status or "completed"},
            "items": [{"item": item.to_dict()} for item in final.output or []],
        }


_CLIENT: list[_Offline] = []


def parse(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One request body through openai-python: its one result (raises ``ImportError``
    without openai)."""
    if not _CLIENT:
        _CLIENT.append(_Offline())
    return [_CLIENT[0].parse(events)]


if __name__ == "__main__":
    sys.exit(serve_client(lambda: _Offline().parse, INSTALL_HINT))
