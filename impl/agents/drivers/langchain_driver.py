"""Driver: LangChain's ``ChatOpenAI`` on the Responses API, pointed at ``serve``.

``python langchain_driver.py BASE_URL PROMPT``: ``ChatOpenAI(use_responses_api=True,
streaming=True, base_url=BASE_URL).bind_tools([echo, ping])`` (``ping()`` takes no
parameter, for zero-argument calls; LangChain has no custom freeform tool); the tool
loop is the one
LangChain's docs show: invoke, run each of ``AIMessage.tool_calls`` with the tool
(which returns a ``ToolMessage``), append, invoke again, until a message has no call.
"""

from __future__ import annotations

import os
import sys

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


@tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@tool
def ping() -> str:
    """Answer that it ran."""
    return PONG


TOOLS = {"echo": echo, "ping": ping}


def main(base_url: str, prompt: str) -> None:
    """Run the tool loop (at most four model calls) and print the last answer."""
    model = ChatOpenAI(
        model="gpt-5.1",
        base_url=base_url,
        api_key=os.environ["OPENAI_API_KEY"],
        use_responses_api=True,
        streaming=True,
        max_retries=0,
    ).bind_tools(list(TOOLS.values()))
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    for _ in range(4):
        answer = model.invoke(messages)
        messages.append(answer)
        if not answer.tool_calls:
            break
        messages.extend(TOOLS[call["name"]].invoke(call) for call in answer.tool_calls)
    print(messages[-1].content)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
