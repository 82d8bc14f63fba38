"""Driver: pydantic-ai as an application uses it, pointed at ``serve``.

``python pydantic_ai_driver.py BASE_URL PROMPT``: an ``Agent`` on
``OpenAIResponsesModel`` with an ``OpenAIProvider(base_url=BASE_URL)`` and two
``@agent.tool_plain`` tools: ``echo(text)``, and ``ping()`` of no parameter (for
zero-argument calls; pydantic-ai has no custom freeform tool).  It runs with
``agent.run_stream_events``, which streams every model request of the run and runs the
tools in between (the subject is stream reconciliation).  The library runs the tools
and sends their output back itself; the driver only prints the final answer.
"""

from __future__ import annotations

import asyncio
import os
import sys

from pydantic_ai import Agent, AgentRunResultEvent
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


async def main(base_url: str, prompt: str) -> None:
    """Run the agent once, streamed, and print its final output."""
    provider = OpenAIProvider(base_url=base_url, api_key=os.environ["OPENAI_API_KEY"])
    agent = Agent(
        OpenAIResponsesModel("gpt-5.1", provider=provider),
        instructions="Use the echo tool when asked to.",
    )

    @agent.tool_plain
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @agent.tool_plain
    def ping() -> str:
        """Answer that it ran."""
        return PONG

    async with agent.run_stream_events(prompt) as events:
        async for event in events:
            if isinstance(event, AgentRunResultEvent):
                print(event.result.output)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
