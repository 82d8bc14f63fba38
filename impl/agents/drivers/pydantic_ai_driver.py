"""Driver: pydantic-ai as an application uses it, pointed at ``serve``.

``python pydantic_ai_driver.py BASE_URL PROMPT``: an ``Agent`` on
``OpenAIResponsesModel`` with an ``OpenAIProvider(base_url=BASE_URL)`` and one
``@agent.tool_plain`` (``echo``), run with ``run_sync``.  The library runs the tool and
sends its output back itself; the driver only prints the final answer.
"""

from __future__ import annotations

import os
import sys

from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIResponsesModel
from pydantic_ai.providers.openai import OpenAIProvider


def main(base_url: str, prompt: str) -> None:
    """Run the agent once and print its final output."""
    provider = OpenAIProvider(base_url=base_url, api_key=os.environ["OPENAI_API_KEY"])
    agent = Agent(
        OpenAIResponsesModel("gpt-5.1", provider=provider),
        instructions="Use the echo tool when asked to.",
    )

    @agent.tool_plain
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    print(agent.run_sync(prompt).output)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
