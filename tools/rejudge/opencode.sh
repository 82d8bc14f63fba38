#!/bin/sh
# opencode as its docs show headless use: `opencode run "PROMPT"` with the built-in
# openai provider pointed at the mock (provider.openai.options.baseURL) in the config
# given by OPENCODE_CONFIG_CONTENT; permission rules deny every shell command but
# `echo`, and edits and web fetches; a fresh HOME and working folder, updates, sharing,
# model lists and plugins off, so nothing reaches past the mock.
#   tools/rejudge/play.sh S.sse OUT tools/rejudge/opencode.sh ~/.cache/responses-oracle/agents/opencode-1.18.33
set -eu
home="${TMPDIR:-/tmp}/rejudge-opencode"; rm -rf "$home"; mkdir -p "$home/work"
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share"
export XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state"
export OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_MODELS_FETCH=1
export OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1
export OPENCODE_CONFIG_CONTENT="{\"model\":\"openai/gpt-5.1\",\"small_model\":\"openai/gpt-5.1\",\
\"autoupdate\":false,\"share\":\"disabled\",\"provider\":{\"openai\":{\"options\":\
{\"baseURL\":\"$OPENAI_BASE_URL\",\"apiKey\":\"$OPENAI_API_KEY\"}}},\"permission\":\
{\"edit\":\"deny\",\"webfetch\":\"deny\",\"bash\":{\"*\":\"deny\",\"echo *\":\"allow\"}}}"
cd "$home/work"
exec "$1/node_modules/.bin/opencode" run --model openai/gpt-5.1 "Use a tool."
