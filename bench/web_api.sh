#!/usr/bin/env bash
# The web UI's server side at 10k skills, and the live push at 1,000 users
# (bench/README.md "Web UI, REST pages and live events"):
#   - GET /api/v1/skills pages (plain, a category, deep offsets) and a search,
#     as the skills browser asks for them: latency percentiles;
#   - 1,000 users, one WebSocket each on /api/v1/events: the server's RSS per
#     idle socket; a write in one user's layer until that user's socket has
#     the event (p50/p99), and that no other socket got it; a shared-layer
#     write until every socket has it (per-delivery p99 and the last one).
#
#   bench/web_api.sh [SKILLS] [USERS]     default 10000 1000
# Environment: SKILLRT_BENCH_CACHE, SKILLRT_BENCH_BUILD (default build/release).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bench/common.sh"
n=${1:-10000}
users=${2:-1000}

command -v jq >/dev/null || "$root/scripts/bootstrap" --test
node=$("$root/scripts/npm-tools" --node)
bench_build gen_tree skillrt
skillrt="$build/apps/skillrt/skillrt"
tree=$(bench_tree "$n")
# A copy of the home: the bench writes skills and tokens into it.
work=$(mktemp -d "$cache/web-api.XXXXXX")
cp -a "$tree/home" "$work/home"
ln -s "$tree/ext" "$work/ext"
home="$work/home"
owner=$("$skillrt" --home "$home" --user root --org 0 --json token create --label bench | jq -r .bearer)

trap 'rm -rf "$work"' EXIT
bench_serve "$work/serve.out" "$work/serve.err" --home "$home" serve --listen 127.0.0.1:0 --threads 2 \
  --max-connections $((users + 256)) --max-connections-per-ip $((users + 256))
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

echo "bench: $n skills, $users users, server pid $server, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
BASE_URL="http://127.0.0.1:$port" OWNER="$owner" USERS="$users" SERVER_PID="$server" \
  "$node" "$root/bench/web_api.mjs"
