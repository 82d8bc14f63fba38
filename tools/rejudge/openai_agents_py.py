"""openai-agents (Python) as its README shows: an Agent with @function_tool tools,
Runner.run_streamed, the stream read to its end; the default OpenAI client reads
OPENAI_BASE_URL and OPENAI_API_KEY from the environment.

    tools/rejudge/play.sh S.sse OUT python tools/rejudge/openai_agents_py.py
"""

import asyncio

from agents import Agent, Runner, function_tool, set_tracing_disabled


@function_tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    print("RAN echo", repr(text))
    return text


@function_tool
def ping() -> str:
    """Answer that it ran."""
    print("RAN ping")
    return "pong"


async def main() -> None:
    set_tracing_disabled(True)
    agent = Agent(name="rejudge", model="gpt-5.1", tools=[echo, ping])
    result = Runner.run_streamed(agent, "Use a tool.", max_turns=3)
    async for event in result.stream_events():
        if event.type == "run_item_stream_event":
            print("ITEM", event.name)
    print("FINAL", repr(result.final_output))


asyncio.run(main())
