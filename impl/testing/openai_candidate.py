"""openai-python's stream accumulator as a protocol candidate: ``--candidate openai-python``.

Run as ``python -m responses_oracle.testing.openai_candidate`` (needs ``pip install
openai``, the ``bench`` extra).  Each stream goes the way ``client.responses.stream()``
takes it: its SSE bytes become an ``httpx2.Response`` body, openai-python's own
``Stream`` decodes and types the events (raising on an ``error`` payload, as the SDK
does), and ``ResponseStream`` — the public accumulator — folds them.  No network is
involved.

The answer is what a user of the SDK holds afterwards:

- ``response.completed`` seen: ``get_final_response().output``, status ``completed``;
- ``response.incomplete`` / ``response.failed``: the ``output`` the SDK attaches to
  that event, and its status;
- anything the SDK raises (an identity check, a missing ``response.completed``, an API
  error event) is the ``error`` answer: the SDK user gets an exception and no items.

A stream holding several responses is split at each ``response.created`` after the
first, as the oracle does, and each part is fed to a fresh accumulator.  The SDK has no
notion of executability or diagnostics, so the answer leaves those fields out and the
harness does not compare them.
"""

from __future__ import annotations

import json
from typing import Any, cast

from .candidate import serve

_ENDINGS = ("response.completed", "response.incomplete", "response.failed")


def split_responses(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The stream cut before every ``response.created`` that follows other events."""
    parts: list[list[dict[str, Any]]] = [[]]
    for event in events:
        if event.get("type") == "response.created" and parts[-1]:
            parts.append([])
        parts[-1].append(event)
    return [part for part in parts if part]


def _sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(
        f"event: {event.get('type')}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
        for event in events
    ).encode("utf-8", "surrogatepass")


def accumulate(events: list[dict[str, Any]]) -> dict[str, Any]:
    """One response through openai-python's ``ResponseStream``: a result object."""
    # openai is an optional extra (bench); without it mypy sees these as missing.
    import httpx2  # type: ignore[import-not-found,unused-ignore]
    from openai import omit  # type: ignore[import-not-found,unused-ignore]
    from openai._streaming import Stream  # type: ignore[import-not-found,unused-ignore]
    from openai.lib.streaming.responses import (  # type: ignore[import-not-found,unused-ignore]
        ResponseStream,
    )
    from openai.types.responses import (  # type: ignore[import-not-found,unused-ignore]
        ResponseStreamEvent,
    )

    request = httpx2.Request("POST", "https://api.openai.com/v1/responses")
    response = httpx2.Response(
        200, content=_sse(events), headers={"content-type": "text/event-stream"}, request=request
    )
    raw: Stream[Any] = Stream(
        cast_to=cast(Any, ResponseStreamEvent), response=response, client=_client()
    )
    stream: ResponseStream[Any] = ResponseStream(
        raw_stream=raw, text_format=omit, input_tools=omit, starting_after=None
    )
    ending: Any = None
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


_CLIENT: list[Any] = []


def _client() -> Any:
    """One offline client for the whole run (it only supplies the SSE decoder)."""
    if not _CLIENT:
        from openai import OpenAI  # type: ignore[import-not-found,unused-ignore]

        _CLIENT.append(OpenAI(api_key="sk-offline", base_url="http://127.0.0.1:9/v1"))
    return _CLIENT[0]


def parse(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every response of the stream through openai-python."""
    return [accumulate(part) for part in split_responses(events)]


if __name__ == "__main__":
    serve(parse)
