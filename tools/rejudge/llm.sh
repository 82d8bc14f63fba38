#!/bin/sh
# llm (Simon Willison's CLI) with llm-openai-plugin, as its docs show tools: --functions
# with Python source, the plugin's openai/gpt-5 (Responses API) model, which reads
# OPENAI_BASE_URL; a fresh LLM_USER_PATH so no user config or log is touched.
#   tools/rejudge/play.sh S.sse OUT tools/rejudge/llm.sh ~/.cache/responses-oracle/agents/llm-0.36
set -eu
export LLM_USER_PATH="${TMPDIR:-/tmp}/rejudge-llm"; mkdir -p "$LLM_USER_PATH"
exec "$1/bin/llm" -m openai/gpt-5 --key "$OPENAI_API_KEY" --td --functions '
def echo(text: str) -> str:
    "Return the text unchanged."
    print("RAN echo", repr(text))
    return text

def ping() -> str:
    "Answer that it ran."
    print("RAN ping")
    return "pong"
' "Use a tool."
