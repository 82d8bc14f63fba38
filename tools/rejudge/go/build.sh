#!/bin/sh
# Build the Go re-run programs against the pinned module cache the agents runner filled
# (no network: GOPROXY=off).  Binaries go to $TMPDIR/rejudge-go/.
set -eu
cache=$HOME/.cache/responses-oracle/agents/go
out="${TMPDIR:-/tmp}/rejudge-go"; mkdir -p "$out"
cd "$(dirname "$0")"
for program in openai_go fantasy adk_go; do
  (cd "$program" && GOMODCACHE=$cache/mod GOCACHE=$cache/build GOPROXY=off GOFLAGS=-mod=mod \
     nice -n 10 go build -o "$out/$program" .)
  echo "built $out/$program"
done
