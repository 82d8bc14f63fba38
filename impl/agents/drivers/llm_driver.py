"""Driver: Simon Willison's ``llm`` with ``llm-openai-plugin``, pointed at ``serve``.

``python llm_driver.py BASE_URL PROMPT``: the plugin's ``openai/gpt-5`` model (a
Responses API model; its client takes the endpoint from ``OPENAI_BASE_URL``, as the
``openai`` package documents) with ``model.chain(prompt, tools=[echo, ping])``
(``ping()`` takes no parameter, for zero-argument calls), which streams each response
and runs the tool and sends its result back until the model answers without a call.
"""

from __future__ import annotations

import os
import sys

import llm

PONG = "responses-oracle-0"
"""What ``ping()`` returns: serve's ``RAN_WITHOUT_ARGUMENTS``, which tells the judge a
zero-argument call ran (a driver runs in its client's environment: no import)."""


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def ping() -> str:
    """Answer that it ran."""
    return PONG


def main(base_url: str, prompt: str) -> None:
    """Run the chain and print its text."""
    os.environ["OPENAI_BASE_URL"] = base_url
    model = llm.get_model("openai/gpt-5")
    chain = model.chain(prompt, tools=[echo, ping], key=os.environ["OPENAI_API_KEY"])
    print(chain.text())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
