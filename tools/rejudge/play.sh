#!/bin/sh
# Play STREAM.sse to one client run: start the mock, run CMD with BASE_URL set, stop it.
#   tools/rejudge/play.sh STREAM.sse OUTDIR CMD [ARGS...]
# OUTDIR gets requests.jsonl (every request body) and client.txt (stdout+stderr, exit).
set -u
stream=$1; out=$2; shift 2
here=$(dirname "$0")
mkdir -p "$out"; : > "$out/requests.jsonl"
python3 "$here/mock.py" "$stream" "$out/requests.jsonl" > "$out/mock.txt" &
mock=$!
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  grep -q listening "$out/mock.txt" 2>/dev/null && break; sleep 0.2
done
BASE_URL=$(sed -n 's/^listening on //p' "$out/mock.txt")
export BASE_URL OPENAI_BASE_URL="$BASE_URL" OPENAI_API_KEY=sk-rejudge
timeout 120 "$@" > "$out/client.txt" 2>&1
echo "exit $?" >> "$out/client.txt"
kill "$mock"
echo "== $out: $(wc -l < "$out/requests.jsonl") request(s)"; tail -5 "$out/client.txt"
