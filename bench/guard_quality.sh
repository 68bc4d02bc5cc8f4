#!/usr/bin/env bash
# Measures the skills guard's detection quality on the corpus: recall on the
# labelled malicious folders, "dangerous" on labelled benign folders and on the
# real-world skills (docs/security.md, "Measured quality").
#
#   bench/guard_quality.sh [--misses] [--flagged] [--blocked] [--tsv FILE]
# Environment:
#   SKILLRT_BENCH_BUILD   release build directory (default build/release)
#   SKILLRT_CORPUS        corpus directory (default ../shared/corpus)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SKILLRT_BENCH_BUILD:-$root/build/release}
corpus=${SKILLRT_CORPUS:-$root/../shared/corpus}
log="$root/build/guard-quality-build.log"
mkdir -p "$root/build"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake --preset release -B "$build" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
fi
cmake --build "$build" --target guard_quality >>"$log" 2>&1 || { tail -50 "$log" >&2; exit 1; }
exec "$build/bench/guard_quality" "$corpus" --unseeable "$root/bench/guard_quality_unseeable.tsv" "$@"
