#!/bin/sh
# Re-run one recorded cell outside the project: save serve's stream for SCENARIO (and
# its clean twin, and, for a scenario of several deviations, the base with each one
# alone), play each to CLIENT through the standalone mock, print what the client did.
#   tools/rejudge/rerun.sh CLIENT SCENARIO          (run from the repository root)
# Needs: the project's venv active (for `responses-oracle serve` and openai-python),
# the clients installed by the agents runner under ~/.cache/responses-oracle/agents/,
# and the Go and Rust programs built (tools/rejudge/go/build.sh, tools/rejudge/rig/build.sh).  Output under $TMPDIR/rejudge.
set -eu
client=$1; scenario=$2; own_tools=
here=$(dirname "$0")
agents=$HOME/.cache/responses-oracle/agents
bin="${TMPDIR:-/tmp}/rejudge-go"
out="${TMPDIR:-/tmp}/rejudge"; mkdir -p "$out/streams"
case $client in
  openai-python) set -- python "$here/openai_python.py" ;;
  openai-agents) set -- python "$here/openai_agents_py.py" ;;
  pydantic-ai) set -- "$agents/pydantic-ai-2.68.0/bin/python" "$here/pydantic_ai_agent.py" ;;
  langchain) set -- "$agents/langchain-1.7.4/bin/python" "$here/langchain_loop.py" ;;
  llamaindex) set -- "$agents/llamaindex-0.8.3/bin/python" "$here/llamaindex_agent.py" ;;
  openai-agents-js) set -- "$here/node.sh" "$agents/openai-agents-js-0.20.0-node22.23.5" "$here/openai_agents_js.mjs" ;;
  vercel-ai) set -- "$here/node.sh" "$agents/vercel-ai-7.0.173" "$here/vercel_ai.mjs" ;;
  llm) set -- "$here/llm.sh" "$agents/llm-0.36" ;;
  openai-go) set -- "$bin/openai_go" completed ;;
  openai-go-items) set -- "$bin/openai_go" items ;;
  fantasy) set -- "$bin/fantasy" ;;
  adk-go) set -- "$bin/adk_go" ;;
  codex) set -- "$here/codex.sh" "$agents/codex-0.171.0"; own_tools=1 ;;
  opencode) set -- "$here/opencode.sh" "$agents/opencode-1.18.33"; own_tools=1 ;;
  rig) set -- "${TMPDIR:-/tmp}/rejudge-rig/rig_agent" ;;
  langchain4j) set -- "$here/langchain4j.sh" "$agents/langchain4j-1.19.0" ;;
  *) echo "unknown client: $client" >&2; exit 2 ;;
esac
deviations=$(python -c "
import json, sys
for s in json.load(open('impl/agents/scenarios.json'))['scenarios']:
    if s['name'] == sys.argv[1]:
        names = [d if isinstance(d, str) else d['name'] for d in s['deviations']]
        print(' '.join(dict.fromkeys(names)) if len(set(names)) > 1 else '')
" "$scenario")
s="$out/streams/$scenario"
tools=''
if [ -n "$own_tools" ]; then
  # An agent with its own tools: a probe run (answered with nothing; once per client)
  # logs the tools its first request declares, and every stream is captured for those.
  s="$out/streams/$client/$scenario"; mkdir -p "$out/streams/$client"
  grep -q '"tools": \[{' "$out/runs/$client/probe/requests.jsonl" 2>/dev/null ||
    "$here/play.sh" /dev/null "$out/runs/$client/probe" "$@" > /dev/null
  tools="--tools-from $out/runs/$client/probe/requests.jsonl"
fi
python "$here/capture.py" "$scenario" "$s.sse" $tools
python "$here/capture.py" "$scenario" "$s.twin.sse" --twin $tools
variants=". .twin"
for d in $deviations; do
  python "$here/capture.py" "$scenario" "$s.only-$d.sse" --deviation "$d" $tools
  variants="$variants .only-$d"
done
for v in $variants; do
  v=${v#.}; file="$s${v:+.$v}.sse"
  "$here/play.sh" "$file" "$out/runs/$client/$scenario${v:+.$v}" "$@"
done
