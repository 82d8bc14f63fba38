"""Driver: Simon Willison's ``llm`` with ``llm-openai-plugin``, pointed at ``serve``.

``python llm_driver.py BASE_URL PROMPT``: the plugin's ``openai/gpt-5`` model (a
Responses API model; its client takes the endpoint from ``OPENAI_BASE_URL``, as the
``openai`` package documents) with ``model.chain(prompt, tools=[echo])``, which runs the
tool and sends its result back until the model answers without a call.
"""

from __future__ import annotations

import os
import sys

import llm


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def main(base_url: str, prompt: str) -> None:
    """Run the chain and print its text."""
    os.environ["OPENAI_BASE_URL"] = base_url
    model = llm.get_model("openai/gpt-5")
    chain = model.chain(prompt, tools=[echo], key=os.environ["OPENAI_API_KEY"])
    print(chain.text())


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
