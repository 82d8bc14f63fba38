"""Driver: openai-agents (Python) as an application uses it, pointed at ``serve``.

``python openai_agents_py.py BASE_URL PROMPT``: an ``Agent`` with one ``@function_tool``
(``echo``) on ``OpenAIResponsesModel`` over ``AsyncOpenAI(base_url=BASE_URL)``, run with
``Runner.run`` (which does not stream: serve answers with the final response object).
The library runs the tool and sends its output back itself; the driver only prints the
final answer.  Tracing is off (it would reach past serve).
"""

from __future__ import annotations

import asyncio
import os
import sys

from agents import Agent, OpenAIResponsesModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI


@function_tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


async def main(base_url: str, prompt: str) -> None:
    """Run the agent once and print its final output."""
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=base_url, api_key=os.environ["OPENAI_API_KEY"], max_retries=0)
    agent = Agent(
        name="responses-oracle driver",
        instructions="Use the echo tool when asked to.",
        tools=[echo],
        model=OpenAIResponsesModel(model="gpt-5.1", openai_client=client),
    )
    result = await Runner.run(agent, prompt, max_turns=4)
    print(result.final_output)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
