"""Driver: LlamaIndex's ``FunctionAgent`` on ``OpenAIResponses``, pointed at ``serve``.

``python llamaindex_driver.py BASE_URL PROMPT``: an agent workflow
(``llama_index.core.agent.workflow.FunctionAgent``) with two tools,
``FunctionTool.from_defaults(echo)`` and ``ping`` (no parameter, for zero-argument
calls), on ``OpenAIResponses(model="gpt-5.1", api_base=BASE_URL)``
(``llama-index-llms-openai``), run with ``await agent.run(prompt)``.
The agent streams each model turn (``astream_chat_with_tools``), runs the tool and
sends its output back itself; the driver prints the final response.
"""

from __future__ import annotations

import asyncio
import os
import sys

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.tools import FunctionTool
from llama_index.llms.openai import OpenAIResponses

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def ping() -> str:
    """Answer that it ran."""
    return PONG


async def main(base_url: str, prompt: str) -> None:
    """Run the agent once and print its final response."""
    llm = OpenAIResponses(
        model="gpt-5.1", api_base=base_url, api_key=os.environ["OPENAI_API_KEY"],
        max_retries=0,
    )
    agent = FunctionAgent(
        tools=[FunctionTool.from_defaults(echo), FunctionTool.from_defaults(ping)],
        llm=llm,
        system_prompt="Use the echo tool when asked to.",
        timeout=60,
    )
    print(await agent.run(prompt, max_iterations=4))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
