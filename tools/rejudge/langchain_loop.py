"""langchain-openai as the LangChain tool-calling guide shows: ChatOpenAI on the
Responses API, streaming, bind_tools, then a loop that runs each tool call and sends a
ToolMessage back until the answer has none.  BASE_URL from the environment.

    tools/rejudge/rerun.sh langchain SCENARIO
"""

import os

from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI


@tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    print("RAN echo", repr(text))
    return text


@tool
def ping() -> str:
    """Answer that it ran."""
    print("RAN ping")
    return "pong"


tools = {"echo": echo, "ping": ping}
model = ChatOpenAI(model="gpt-5.1", base_url=os.environ["BASE_URL"], api_key="sk-rejudge",
                   use_responses_api=True, streaming=True, max_retries=0).bind_tools(
                       list(tools.values()))
messages: list = [HumanMessage("Use a tool.")]
for _ in range(3):
    answer = model.invoke(messages)
    messages.append(answer)
    print("CALLS", answer.tool_calls)
    if not answer.tool_calls:
        break
    messages.extend(tools[call["name"]].invoke(call) for call in answer.tool_calls)
print("FINAL", repr(messages[-1].content))
