"""openai-python as its README shows a streamed tool loop: stream, final response, run
each function call, send its output, repeat.  ``BASE_URL`` from the environment.

    tools/rejudge/play.sh STREAM.sse OUT python tools/rejudge/openai_python.py
"""

import json
import os

from openai import OpenAI

TOOLS = [
    {"type": "function", "name": "echo", "description": "Return the text unchanged.",
     "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                    "required": ["text"], "additionalProperties": False}, "strict": True},
    {"type": "function", "name": "ping", "description": "Answer that it ran.",
     "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
     "strict": True},
]


def call_tool(name: str, arguments: str) -> str:
    args = json.loads(arguments)
    print(f"RAN {name} {args!r}")
    return args["text"] if name == "echo" else "pong"


client = OpenAI(base_url=os.environ["BASE_URL"], max_retries=0)
history: list = [{"role": "user", "content": "Use a tool."}]
for _ in range(3):
    with client.responses.stream(model="gpt-5.1", input=history, tools=TOOLS) as stream:
        response = stream.get_final_response()
    history += response.output
    calls = [item for item in response.output if item.type == "function_call"]
    print("CALLS", [(c.call_id, c.name, c.arguments) for c in calls])
    if not calls:
        break
    for call in calls:
        history.append({"type": "function_call_output", "call_id": call.call_id,
                        "output": call_tool(call.name, call.arguments)})
print("TEXT", response.output_text)
