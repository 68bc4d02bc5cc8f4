#!/usr/bin/env bash
# Replicas over one PostgreSQL (bench/README.md "Replicas"): the aggregate
# tools/call skill_view throughput of 1, 2 and 3 `skillrt serve` replicas on
# one shared 10k-skill home, how long a write on one replica takes to reach a
# WebSocket on another (p50/p99, next to the writer's own replica), and the
# PostgreSQL connections each replica holds.
#
#   bench/replicas.sh [SKILLS]        default 10000
# Environment: SKILLRT_BENCH_CACHE, SKILLRT_BENCH_BUILD (default build/release),
#   SKILLRT_BENCH_CONNECTIONS (client connections in all, default 4),
#   SKILLRT_BENCH_SECONDS (default 10), SKILLRT_BENCH_WRITES (default 200).
# The database is scripts/pg-test-cluster's (fsync off): the figures are the
# servers', not a durable disk's.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bench/common.sh"
n=${1:-10000}
connections=${SKILLRT_BENCH_CONNECTIONS:-4}
seconds=${SKILLRT_BENCH_SECONDS:-10}
writes=${SKILLRT_BENCH_WRITES:-200}

command -v jq >/dev/null || "$root/scripts/bootstrap" --test
node=$("$root/scripts/npm-tools" --node)
bench_build gen_tree skillrt mcp_http_bench
skillrt="$build/apps/skillrt/skillrt"
client="$build/bench/mcp_http_bench"
tree=$(bench_tree "$n")

# A copy of the home: the bench writes skills and tokens into it.
work=$(mktemp -d "$cache/replicas.XXXXXX")
cp -a "$tree/home" "$work/home"
ln -s "$tree/ext" "$work/ext"
home="$work/home"
export SKILLRT_PG_STATE="$work/pg.state"
url=$("$root/scripts/pg-test-cluster" start)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$root/scripts/pg-test-cluster" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

names="$work/names.txt"
bench_unique_names "$home" "$tree" "$names"
owner=$("$skillrt" --home "$home" --db "$url" --user root --org 0 --json token create --label bench | jq -r .bearer)

ports=()
start_replica() {
  local i=${#ports[@]}
  bench_serve "$work/serve$i.out" "$work/serve$i.err" --home "$home" --db "$url" serve --allow-anonymous \
    --listen 127.0.0.1:0 --threads 2 --drain-seconds 0
  pids+=("$server")
  ports+=("$port")
  for _ in $(seq 100); do
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" == 200 ]] && return 0
    sleep 0.1
  done
  echo "bench: replica $i never became ready" >&2
  return 1
}

echo "bench: $n skills, $connections client connections in all, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for replicas in 1 2 3; do
  while ((${#ports[@]} < replicas)); do start_replica; done
  per=$(((connections + replicas - 1) / replicas))
  outs=()
  for i in $(seq 0 $((replicas - 1))); do
    "$client" --port "${ports[$i]}" --names "$names" --connections "$per" --seconds "$seconds" --warmup 1 \
      >"$work/client$i.json" &
    outs+=($!)
  done
  for pid in "${outs[@]}"; do wait "$pid" || echo "bench: some calls answered with an error" >&2; done
  files=()
  for i in $(seq 0 $((replicas - 1))); do files+=("$work/client$i.json"); done
  jq -s -c --argjson replicas "$replicas" \
    '{replicas: $replicas, requests_per_second: (map(.rps) | add), errors: (map(.errors) | add),
      p50_us: (map(.p50_us) | max), p99_us: (map(.p99_us) | max)}' "${files[@]}"
done

# What a replica costs while nobody calls it: the stat sweep of the 10k-skill
# tree every 2 s (the default) and the change listener.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
idle_before=$(cpu_ticks "${pids[0]}")
sleep 10
idle_after=$(cpu_ticks "${pids[0]}")
awk -v t=$((idle_after - idle_before)) -v hz="$(getconf CLK_TCK)" \
  'BEGIN { printf "{\"idle_replica_cpu_percent\": %.1f, \"over_seconds\": 10}\n", 100 * t / hz / 10 }'

connections_per_replica=$(psql "$url" -XAtc \
  "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'skillrt' AND backend_type = 'client backend'")
echo "{\"replicas\": ${#ports[@]}, \"postgres_connections\": $connections_per_replica}"

BASE_A="http://127.0.0.1:${ports[0]}" BASE_B="http://127.0.0.1:${ports[1]}" OWNER="$owner" WRITES="$writes" \
  "$node" "$root/bench/replicas.mjs"
