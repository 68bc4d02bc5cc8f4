#!/usr/bin/env bash
# tools/call skill_view over MCP Streamable HTTP against a 10k-skill home
# (bench/README.md "MCP over HTTP"): throughput and latency with keep-alive
# clients, then the server's memory per idle session.
#
#   bench/mcp_http.sh [SKILLS]        default 10000
# Environment:
#   SKILLRT_BENCH_CACHE        generated trees (default .cache/bench, shared with run.sh)
#   SKILLRT_BENCH_BUILD        release build directory (default build/release)
#   SKILLRT_BENCH_CONNECTIONS  client connections (default 4)
#   SKILLRT_BENCH_SECONDS      measured seconds per run (default 10)
#   SKILLRT_BENCH_THREADS      server I/O threads (default 2)
#   SKILLRT_BENCH_IDLE_USERS   token users holding 60 idle sessions each for the
#                              memory figure (default 20)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bench/common.sh"
n=${1:-10000}
connections=${SKILLRT_BENCH_CONNECTIONS:-4}
seconds=${SKILLRT_BENCH_SECONDS:-10}
threads=${SKILLRT_BENCH_THREADS:-2}
idle_users=${SKILLRT_BENCH_IDLE_USERS:-20}

command -v jq >/dev/null || "$root/scripts/bootstrap" --test
bench_build gen_tree skillrt mcp_http_bench
skillrt="$build/apps/skillrt/skillrt"
client="$build/bench/mcp_http_bench"
tree=$(bench_tree "$n")
home="$tree/home"

names="$cache/mcp-names-$n.txt"
bench_unique_names "$home" "$tree" "$names"

bench_serve "$cache/mcp-serve-$n.out" "$cache/mcp-serve-$n.err" \
  --home "$home" serve --allow-anonymous --listen 127.0.0.1:0 --threads "$threads"
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$server/status"; }

# Memory per idle session first, on a fresh heap (after a load run, freed
# memory would absorb new sessions and hide their cost). One caller may hold
# 64 sessions (the oldest are evicted past that), so the sessions belong to
# several token users; a first batch pays the one-time costs unmeasured.
"$client" --port "$port" --idle-sessions 60 --hold 0 >/dev/null
before=$(rss_kib)
for u in $(seq 1 "$idle_users"); do
  token=$("$skillrt" --home "$home" --user "bench$u" --org 1 --json token create --label bench | jq -r .bearer)
  "$client" --port "$port" --idle-sessions 60 --token "$token" --hold 0 >/dev/null
done
after=$(rss_kib)
awk -v b="$before" -v a="$after" -v n="$((idle_users * 60))" \
  'BEGIN { printf "{\"idle_sessions\": %d, \"rss_before_kib\": %d, \"rss_after_kib\": %d, \"bytes_per_session\": %.0f}\n", n, b, a, (a - b) * 1024 / n }'

echo "bench: $n skills, $connections connections, $threads server threads" >&2
# The server's own CPU per request, next to the wall-clock figures: on a
# busy machine throughput says little, CPU per request still says a lot.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
before_ticks=$(cpu_ticks)
"$client" --port "$port" --names "$names" --connections "$connections" --seconds "$seconds" --warmup 0 ||
  echo "bench: some calls answered with an error (see \"errors\")" >&2
after_ticks=$(cpu_ticks)
echo "{\"server_cpu_ticks\": $((after_ticks - before_ticks)), \"ticks_per_second\": $(getconf CLK_TCK)}"

