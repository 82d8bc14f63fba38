"""The OpenAI Agents SDK as a protocol candidate: ``--candidate openai-agents``.

Run as ``python -m responses_oracle.differential.agents_candidate`` (needs ``pip install
'responses-oracle[clients]'``: openai-agents and openai 3.x).  Each request body goes
the way an agent run takes it, through public API only: an ``Agent`` on an
``OpenAIResponsesModel`` whose ``AsyncOpenAI`` client has an ``httpx2.MockTransport``
answering with the stream's SSE bytes, run by ``Runner.run_streamed`` with its events
consumed to the end.  No network is involved.  The agent has a tool for every call the
stream carries, as an application whose model calls them does
(``candidate.declared_tools``): a ``FunctionTool`` with a permissive, non-strict schema
for a function call, a ``CustomTool`` for a custom tool call (so a custom call named
``apply_patch`` is that custom tool's, not the SDK's built-in apply-patch path); each
tool answers ``"ok"`` and does nothing else.

The answer is the model response the runner acts on: the ``ModelResponse`` that
``RunHooks.on_llm_end`` receives (its ``output`` is what the runner executes tools
from and stores in the conversation).  The runner accepts only a completed response,
so the status is ``completed``; when it raises before a model response exists (an
``incomplete`` or ``failed`` terminal, an ``error`` event, no terminal at all), that
is the ``error`` answer.  The runner then runs the tools (each answers ``"ok"``) and
stops at ``max_turns=1`` before a second model call: what it raises then, after the
model response, is not an answer; what it raises while reading the response's calls,
before ``on_llm_end``, is.

Without the SDK the adapter says how to install it on stderr and exits 2.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from responses_oracle.differential.candidate import declared_tools, serve_client
from responses_oracle.differential.openai_candidate import PERMISSIVE, sse_body

INSTALL_HINT = (
    "the openai-agents candidate needs openai-agents and openai 3.x: "
    "pip install 'responses-oracle[clients]'"
)
"""What to do when the SDK is missing."""


class _Offline:
    """One offline agent for the whole run; each model call answers with the current body."""

    def __init__(self) -> None:
        # openai-agents is an optional extra (clients); mypy may not see it.
        import httpx2  # type: ignore[import-not-found,unused-ignore]
        from agents import (  # type: ignore[import-not-found,unused-ignore]
            Agent,
            CustomTool,
            FunctionTool,
            OpenAIResponsesModel,
            RunHooks,
            Runner,
            set_tracing_disabled,
        )
        from openai import AsyncOpenAI  # type: ignore[import-not-found,unused-ignore]

        set_tracing_disabled(True)
        self.body = b""
        self.responses: list[Any] = []
        responses = self.responses

        async def answer(request: Any) -> Any:
            return httpx2.Response(
                200, content=self.body, headers={"content-type": "text/event-stream"}
            )

        class Record(RunHooks):  # type: ignore[misc,unused-ignore]
            async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
                responses.append(response)

        client = AsyncOpenAI(
            api_key="sk-offline",
            base_url="http://oracle.invalid/v1",
            max_retries=0,
            http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(answer)),
        )
        self.agent = Agent(
            name="candidate", model=OpenAIResponsesModel(model="oracle", openai_client=client)
        )
        self.hooks = Record()
        self.runner = Runner

        async def ok(context: Any, given: str) -> str:
            return "ok"

        def tool(kind: str, name: str) -> Any:
            if kind == "custom":
                return CustomTool(name=name, description=name, on_invoke_tool=ok)
            return FunctionTool(name=name, description=name, params_json_schema=PERMISSIVE,
                                on_invoke_tool=ok, strict_json_schema=False)

        self.tool = tool

    async def _run(self, tools: list[Any]) -> None:
        agent = self.agent.clone(tools=tools)
        result = self.runner.run_streamed(agent, "", max_turns=1, hooks=self.hooks)
        async for _ in result.stream_events():
            pass

    def parse(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """One request body through an agent run: the model response it acts on."""
        self.body = sse_body(events)
        self.responses.clear()
        tools = [self.tool(t["type"], t["name"]) for t in declared_tools(events)]
        try:
            asyncio.run(self._run(tools))
        except Exception:
            if not self.responses:
                raise
        response = self.responses[0]
        return {
            "response": {"id": response.response_id, "status": "completed"},
            "items": [{"item": item.to_dict()} for item in response.output],
        }


if __name__ == "__main__":
    sys.exit(serve_client(lambda: _Offline().parse, INSTALL_HINT))
