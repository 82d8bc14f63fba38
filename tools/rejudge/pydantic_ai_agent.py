"""pydantic-ai as its docs show: an Agent on OpenAIResponsesModel with an
OpenAIProvider(base_url=...), @agent.tool_plain tools, run with run_stream_events (every
model request streamed, the tools run in between).  BASE_URL from the environment.

    tools/rejudge/rerun.sh pydantic-ai SCENARIO
"""

import asyncio
import os

from pydantic_ai import Agent, AgentRunResultEvent
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider

model = OpenAIResponsesModel(
    "gpt-5.1", provider=OpenAIProvider(base_url=os.environ["BASE_URL"], api_key="sk-rejudge"))
agent = Agent(model)


@agent.tool_plain
def echo(text: str) -> str:
    """Return the text unchanged."""
    print("RAN echo", repr(text))
    return text


@agent.tool_plain
def ping() -> str:
    """Answer that it ran."""
    print("RAN ping")
    return "pong"


async def main() -> None:
    async with agent.run_stream_events("Use a tool.") as events:
        async for event in events:
            if isinstance(event, AgentRunResultEvent):
                print("FINAL", repr(event.result.output))


asyncio.run(main())
