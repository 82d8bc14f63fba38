#!/bin/sh
# codex as its docs show non-interactive use with a custom provider: `codex exec` in a
# read-only sandbox with approval_policy=never, a fresh CODEX_HOME whose config.toml
# makes the mock the only provider (model_providers, wire_api = "responses"), no
# retries (a retried request would hide a dropped call), no update check or analytics.
#   tools/rejudge/play.sh S.sse OUT tools/rejudge/codex.sh ~/.cache/responses-oracle/agents/codex-0.171.0
set -eu
home="${TMPDIR:-/tmp}/rejudge-codex"; rm -rf "$home"; mkdir -p "$home/.codex" "$home/work"
cat > "$home/.codex/config.toml" <<TOML
model = "gpt-5.1-codex"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "re-judgement mock"
base_url = "$OPENAI_BASE_URL"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
TOML
export CODEX_HOME="$home/.codex" HOME="$home"
exec "$1/node_modules/.bin/codex" exec --skip-git-repo-check -s read-only \
  -c approval_policy=never -C "$home/work" "Use a tool."
