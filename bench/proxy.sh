#!/usr/bin/env bash
# The latency `skillrt serve --upstream` adds to a small non-streamed chat
# completion at a fixed 1,000 requests/s against a local upstream
# (bench/README.md "OpenAI-compatible proxy"). proxy_bench runs the upstream
# and the load; this script builds, makes a home and a token, and runs it.
#
#   bench/proxy.sh
# Environment:
#   SKILLRT_BENCH_BUILD        release build directory (default build/release)
#   SKILLRT_BENCH_RATE         requests per second (default 1000)
#   SKILLRT_BENCH_SECONDS      measured seconds per leg (default 5)
#   SKILLRT_BENCH_ROUNDS       rounds of (direct, proxy) legs, order alternating (default 4)
#   SKILLRT_BENCH_CONNECTIONS  client connections (default 4)
#   SKILLRT_BENCH_THREADS      server I/O threads (default 2)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/bench/common.sh"
bench_build skillrt proxy_bench
skillrt="$build/apps/skillrt/skillrt"

home=$(mktemp -d "${TMPDIR:-/tmp}/skillrt-proxy-bench.XXXXXX")
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/skills"
token=$(SKILLRT_NO_BUNDLED_SEED=1 "$skillrt" --home "$home" --user bench --org 1 --json token create --label bench |
  sed -n 's/.*"bearer": *"\([^"]*\)".*/\1/p')
[[ -n "$token" ]] || { echo "bench: no token" >&2; exit 1; }

SKILLRT_NO_BUNDLED_SEED=1 "$build/bench/proxy_bench" --skillrt "$skillrt" --home "$home" --token "$token" \
  --rate "${SKILLRT_BENCH_RATE:-1000}" --seconds "${SKILLRT_BENCH_SECONDS:-5}" \
  --rounds "${SKILLRT_BENCH_ROUNDS:-4}" --connections "${SKILLRT_BENCH_CONNECTIONS:-4}" \
  --threads "${SKILLRT_BENCH_THREADS:-2}"
