"""Driver: openai-agents (Python) as an application uses it, pointed at ``serve``.

``python openai_agents_py.py BASE_URL PROMPT``: an ``Agent`` on ``OpenAIResponsesModel``
over ``AsyncOpenAI(base_url=BASE_URL)`` with three tools, the kinds a model can call:
``echo(text)`` (a ``@function_tool``), ``ping()`` (a ``@function_tool`` of no
parameter, for zero-argument calls) and ``note`` (a ``CustomTool``: freeform text, for
custom tool calls).  It runs with ``Runner.run_streamed`` and reads the stream to its
end, so every turn streams (the subject is stream reconciliation).  The library runs
the tools and sends their output back itself; the driver only prints the final answer.
Tracing is off (it would reach past serve).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from agents import (
    Agent,
    CustomTool,
    OpenAIResponsesModel,
    Runner,
    function_tool,
    set_tracing_disabled,
)
from openai import AsyncOpenAI

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


@function_tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@function_tool
def ping() -> str:
    """Answer that it ran."""
    return PONG


def keep_note(_context: Any, text: str) -> str:
    """Return the note unchanged."""
    return text


note = CustomTool(name="note", description="Keep a note (free text).", on_invoke_tool=keep_note)


async def main(base_url: str, prompt: str) -> None:
    """Run the agent once, streamed, and print its final output."""
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=base_url, api_key=os.environ["OPENAI_API_KEY"], max_retries=0)
    agent = Agent(
        name="responses-oracle driver",
        instructions="Use the echo tool when asked to.",
        tools=[echo, ping, note],
        model=OpenAIResponsesModel(model="gpt-5.1", openai_client=client),
    )
    result = Runner.run_streamed(agent, prompt, max_turns=4)
    async for _ in result.stream_events():
        pass
    print(result.final_output)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
