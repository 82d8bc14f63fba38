#!/bin/sh
# Build the rig re-run program offline, against the crates the agents runner compiled at
# install (its target folder and Cargo.lock: only this program is compiled anew; a
# fresh target folder would rebuild rig's whole tree).  The binary goes to
# $TMPDIR/rejudge-rig/rig_agent.
set -eu
install=$HOME/.cache/responses-oracle/agents/rig-0.44.0
out="${TMPDIR:-/tmp}/rejudge-rig"; mkdir -p "$out"
cd "$(dirname "$0")"
nice -n 10 cargo build --release --offline --quiet --target-dir "$install/target"
cp "$install/target/release/rig_agent" "$out/"
echo "built $out/rig_agent"
