#!/usr/bin/env bash
# Benchmarks skillrt against the floor probe on generated trees (bench/README.md).
#
#   bench/run.sh                     sizes 1000 10000 50000
#   bench/run.sh 10000               only the named sizes
# Environment:
#   SKILLRT_BENCH_CACHE   where generated trees live (default .cache/bench; made once)
#   SKILLRT_BENCH_SEED    generator seed (default 42)
#   SKILLRT_BENCH_ROUNDS  alternating hyperfine rounds (default 2)
#   SKILLRT_BENCH_RUNS    timed runs per command per round (default: 10 up to 1k
#                         skills, 5 up to 10k, 3 above)
#   SKILLRT_BENCH_BUILD   release build directory (default build/release)
# Prints a markdown table (also saved to $SKILLRT_BENCH_CACHE/results.md).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${SKILLRT_BENCH_CACHE:-$root/.cache/bench}
seed=${SKILLRT_BENCH_SEED:-42}
rounds=${SKILLRT_BENCH_ROUNDS:-2}
runs_override=${SKILLRT_BENCH_RUNS:-}
sizes=("$@")
(( ${#sizes[@]} > 0 )) || sizes=(1000 10000 50000)

if ! command -v hyperfine >/dev/null || [[ ! -x /usr/bin/time ]] || ! command -v jq >/dev/null; then
  "$root/scripts/bootstrap" --test
fi

build=${SKILLRT_BENCH_BUILD:-$root/build/release}
log="$root/build/bench-build.log"
mkdir -p "$root/build" "$cache"
(
  cd "$root"
  if [[ ! -f "$build/build.ninja" || CMakePresets.json -nt "$build/CMakeCache.txt" ]]; then
    cmake --preset release -B "$build" >"$log" 2>&1
  fi
  cmake --build "$build" --target gen_tree floor_probe >>"$log" 2>&1
) || { tail -n 100 "$log" >&2; echo "bench: building gen_tree/floor_probe failed" >&2; exit 1; }
gen="$build/bench/gen_tree"
probe="$build/bench/floor_probe"
skillrt="$build/apps/skillrt/skillrt"
# skillrt may not build yet while it is under construction: then only the probe runs.
have_skillrt=1
(cd "$root" && cmake --build "$build" --target skillrt >>"$log" 2>&1) || have_skillrt=0

# Trees are keyed by the generator's source so a changed generator regenerates.
gen_key=$(sha256sum "$root/bench/gen_tree.cpp" | cut -c1-12)
tree_for() {
  local n=$1 dir="$cache/tree-$1-seed$seed-$gen_key"
  if [[ ! -f "$dir/manifest.txt" ]]; then
    rm -rf "$dir.tmp"
    echo "bench: generating $n skills into $dir" >&2
    "$gen" "$dir.tmp" "$n" "$seed" >/dev/null
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

# hyperfine runs all of one command's runs back to back; alternating short
# rounds (and reversing the order each round) spreads drift from other load
# on the machine over every command alike.
# bench_cmds OUT_JSON NAME1 CMD1 NAME2 CMD2 ...
bench_cmds() {
  local out=$1
  shift
  local -a names=() cmds=()
  while (( $# > 0 )); do
    names+=("$1")
    cmds+=("$2")
    shift 2
  done
  local r i
  local -a parts=()
  for ((r = 0; r < rounds; r++)); do
    local -a args=()
    local count=${#names[@]}
    for ((i = 0; i < count; i++)); do
      local k=$(( r % 2 == 0 ? i : count - 1 - i ))
      args+=(-n "${names[$k]}" "${cmds[$k]}")
    done
    hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$out.$r" "${args[@]}" \
      >/dev/null 2>>"$cache/hyperfine.log"
    parts+=("$out.$r")
  done
  # Merge the rounds: per command, every run's wall time and the mean CPU time
  # (user + system; rounds have equal run counts), all in seconds.
  jq -s '[.[].results[]] | group_by(.command)
         | map({command: .[0].command, times: (map(.times) | add), cpu: (map(.user + .system) | add / length)})' \
    "${parts[@]}" >"$out"
  rm -f "${parts[@]}"
}

stat_ms() {  # stat_ms JSON NAME median|min|cpu
  jq -r --arg n "$2" --arg s "$3" '
    .[] | select(.command == $n) |
    (if $s == "cpu" then .cpu else (.times | sort | if $s == "min" then .[0] else .[(length / 2 | floor)] end) end)
    | . * 1000 | . * 100 | round / 100' "$1"
}

peak_rss_mib() {  # peak RSS of one run, MiB
  /usr/bin/time -f '%M' -o "$cache/rss.txt" "$@" >/dev/null 2>&1
  awk '{ kb = $1 } END { printf "%.1f", kb / 1024 }' "$cache/rss.txt"
}

table="$cache/results.md"
runs_note=""
{
  echo "| skills | command | wall median ms | wall min ms | × probe (wall median) | CPU ms (user+sys) | × probe (CPU) | peak RSS MiB |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|"
} >"$table"

for n in "${sizes[@]}"; do
  tree=$(tree_for "$n")
  home="$tree/home"
  roots=("$home/skills" "$tree/ext")
  view_name=$(sed -n 's/^view_name=//p' "$tree/manifest.txt")
  probe_count=$("$probe" "${roots[@]}")
  echo "bench: $n skills: probe reads $probe_count SKILL.md files" >&2

  pairs=(probe "$probe ${roots[*]}")
  list_ok=0 view_ok=0 prompt_ok=0 commands_ok=0
  if (( have_skillrt )); then
    if "$skillrt" --home "$home" --json list >"$cache/list-$n.json" 2>"$cache/list-$n.err"; then
      list_ok=1
      echo "bench: $n skills: skillrt lists $(jq -r '.count' "$cache/list-$n.json") skills" >&2
      pairs+=(list "$skillrt --home $home --json list")
    else
      echo "bench: skillrt list failed on $n skills; see $cache/list-$n.err" >&2
    fi
    if "$skillrt" --home "$home" view "$view_name" >/dev/null 2>"$cache/view-$n.err"; then
      view_ok=1
      pairs+=(view "$skillrt --home $home view $view_name")
    else
      echo "bench: skillrt view $view_name failed on $n skills; see $cache/view-$n.err" >&2
    fi
    # The skills index: without tool info (no conditions read), and with tool
    # info through the prompt snapshot and without it (--no-snapshot).
    if "$skillrt" --home "$home" prompt >/dev/null 2>"$cache/prompt-$n.err" &&
       "$skillrt" --home "$home" prompt --tools terminal >/dev/null 2>>"$cache/prompt-$n.err"; then
      prompt_ok=1
      pairs+=(prompt "$skillrt --home $home prompt")
      pairs+=(prompt_tools "$skillrt --home $home prompt --tools terminal")
      pairs+=(prompt_nosnap "$skillrt --home $home prompt --tools terminal --no-snapshot")
    else
      echo "bench: skillrt prompt failed on $n skills; see $cache/prompt-$n.err" >&2
    fi
    if "$skillrt" --home "$home" --json commands >/dev/null 2>"$cache/commands-$n.err"; then
      commands_ok=1
      pairs+=(commands "$skillrt --home $home --json commands")
    else
      echo "bench: skillrt commands failed on $n skills; see $cache/commands-$n.err" >&2
    fi
  fi
  if [[ -n $runs_override ]]; then
    runs=$runs_override
  elif (( n <= 1000 )); then
    runs=10
  elif (( n <= 10000 )); then
    runs=5
  else
    runs=3
  fi
  warmup=$(( n > 10000 ? 1 : 3 ))
  runs_note+="${n}: ${rounds}×${runs} runs, ${warmup} warm-up; "
  json="$cache/times-$n.json"
  bench_cmds "$json" "${pairs[@]}"

  probe_med=$(stat_ms "$json" probe median)
  probe_cpu=$(stat_ms "$json" probe cpu)
  rss() { if [[ $n == "${sizes[-1]}" ]]; then peak_rss_mib "$@"; else echo "—"; fi; }
  row() {  # row NAME LABEL CMD...
    local name=$1 label=$2
    shift 2
    local med min cpu ratio cpu_ratio
    med=$(stat_ms "$json" "$name" median)
    min=$(stat_ms "$json" "$name" min)
    cpu=$(stat_ms "$json" "$name" cpu)
    ratio=$(awk -v a="$med" -v b="$probe_med" 'BEGIN { printf "%.2f", a / b }')
    cpu_ratio=$(awk -v a="$cpu" -v b="$probe_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    echo "| $n | $label | $med | $min | $ratio | $cpu | $cpu_ratio | $(rss "$@") |" >>"$table"
  }
  row probe "floor_probe" "$probe" "${roots[@]}"
  if (( list_ok )); then
    row list "skillrt --json list" "$skillrt" --home "$home" --json list
  fi
  if (( view_ok )); then
    row view "skillrt view NAME" "$skillrt" --home "$home" view "$view_name"
  fi
  if (( prompt_ok )); then
    row prompt "skillrt prompt" "$skillrt" --home "$home" prompt
    row prompt_tools "skillrt prompt --tools terminal" "$skillrt" --home "$home" prompt --tools terminal
    row prompt_nosnap "skillrt prompt --tools terminal --no-snapshot" \
      "$skillrt" --home "$home" prompt --tools terminal --no-snapshot
  fi
  if (( commands_ok )); then
    row commands "skillrt --json commands" "$skillrt" --home "$home" --json commands
  fi
done

{
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%d); seed $seed;" \
    "per command ${runs_note}warm page cache."
} >>"$table"
cat "$table"
