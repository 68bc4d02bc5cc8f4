#!/usr/bin/env bash
# Runs every built *_fuzz binary (or only TARGET) for SECONDS each, starting
# from its seed corpus.
# Usage: tests/fuzz/run-short.sh BUILD_DIR SECONDS [TARGET]
# Exits non-zero when any fuzzer finds a crash, leak, timeout or sanitizer report;
# the reproducer is kept under BUILD_DIR/fuzz-artifacts/.
set -u
if [ $# -ne 2 ] && [ $# -ne 3 ]; then
  echo "usage: $0 BUILD_DIR SECONDS [TARGET]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd) || exit 2
seconds=$2
source_dir=$(cd "$(dirname "$0")" && pwd)

only=${3:-*_fuzz}
mapfile -t fuzzers < <(find "$build_dir" -type f -name "$only" -perm -u+x | sort)
if [ ${#fuzzers[@]} -eq 0 ]; then
  echo "no $only binaries under $build_dir (configure with --preset fuzz and build)" >&2
  exit 2
fi

status=0
for fuzzer in "${fuzzers[@]}"; do
  name=$(basename "$fuzzer")
  # libFuzzer writes new inputs into the first corpus dir: keep the seeds
  # (second dir, read only) out of it.
  work="$build_dir/fuzz-corpus/$name"
  artifacts="$build_dir/fuzz-artifacts"
  mkdir -p "$work" "$artifacts"
  seeds=()
  if [ -d "$source_dir/corpus/$name" ]; then
    seeds=("$source_dir/corpus/$name")
  fi
  echo "== $name for ${seconds}s"
  if ! "$fuzzer" "$work" "${seeds[@]}" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
      -artifact_prefix="$artifacts/$name-" -print_final_stats=1 >"$build_dir/fuzz-$name.log" 2>&1; then
    echo "!! $name failed; log: $build_dir/fuzz-$name.log" >&2
    tail -n 40 "$build_dir/fuzz-$name.log" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build_dir/fuzz-$name.log" || true
  fi
done
exit $status
