"""LlamaIndex as its agent docs show: a FunctionAgent with FunctionTools on
OpenAIResponses (llama-index-llms-openai), run with ``await agent.run(...)``: the agent
streams each turn, runs the tools and sends their output back.  BASE_URL from env.

    tools/rejudge/rerun.sh llamaindex SCENARIO
"""

import asyncio
import os

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.tools import FunctionTool
from llama_index.llms.openai import OpenAIResponses


def echo(text: str) -> str:
    """Return the text unchanged."""
    print("RAN echo", repr(text))
    return text


def ping() -> str:
    """Answer that it ran."""
    print("RAN ping")
    return "pong"


async def main() -> None:
    llm = OpenAIResponses(model="gpt-5.1", api_base=os.environ["BASE_URL"],
                          api_key="sk-rejudge", max_retries=0)
    agent = FunctionAgent(tools=[FunctionTool.from_defaults(echo),
                                 FunctionTool.from_defaults(ping)], llm=llm)
    print("FINAL", repr(str(await agent.run("Use a tool."))))


asyncio.run(main())
