# Sourced by the bench scripts: the release build and the generated trees
# they share. Expects $root (the checkout) to be set.
#
#   bench_build TARGET...   configure build/release (or $SKILLRT_BENCH_BUILD) when
#                           needed and build TARGETs; the log is build/bench-build.log
#   bench_tree N [SEED]     generate (once) and print the folder of an N-skill tree
#                           in $SKILLRT_BENCH_CACHE (default .cache/bench)
#   bench_unique_names HOME TREE OUT  write to OUT the skill names of HOME that
#                           resolve to exactly one skill (for tools/call skill_view)
#   bench_serve OUT ERR ARGS...  start `$skillrt ARGS` (a serve command) in the
#                           background with stdout in OUT and stderr in ERR; sets
#                           $server (its pid) and $port once it listens
build=${SKILLRT_BENCH_BUILD:-$root/build/release}
cache=${SKILLRT_BENCH_CACHE:-$root/.cache/bench}
bench_log="$root/build/bench-build.log"

bench_build() {
  mkdir -p "$root/build"
  (
    cd "$root"
    if [[ ! -f "$build/build.ninja" || CMakePresets.json -nt "$build/CMakeCache.txt" ]]; then
      cmake --preset release -B "$build" >"$bench_log" 2>&1
    fi
    cmake --build "$build" --target "$@" >>"$bench_log" 2>&1
  ) || { tail -n 100 "$bench_log" >&2; echo "bench: building $* failed" >&2; return 1; }
}

# Trees are keyed by the generator's source, so a changed generator regenerates.
bench_tree() {
  local n=$1 seed=${2:-42}
  local key
  key=$(sha256sum "$root/bench/gen_tree.cpp" | cut -c1-12)
  local dir="$cache/tree-$n-seed$seed-$key"
  if [[ ! -f "$dir/manifest.txt" ]]; then
    mkdir -p "$cache"
    rm -rf "$dir.tmp"
    echo "bench: generating $n skills into $dir" >&2
    "$build/bench/gen_tree" "$dir.tmp" "$n" "$seed" >/dev/null
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

bench_serve() {
  local out=$1 err=$2
  shift 2
  "$skillrt" "$@" >"$out" 2>"$err" &
  server=$!
  for _ in $(seq 100); do
    grep -q '^listening ' "$out" && break
    sleep 0.1
  done
  port=$(sed -n 's#^listening http://[^:]*:\([0-9]*\)/mcp$#\1#p' "$out")
  [[ -n "$port" ]] || { cat "$err" >&2; echo "bench: server did not start" >&2; return 1; }
}

# Names that resolve to exactly one skill: listed once, and not the name or
# directory of a shadowed twin (the generator plants duplicates on purpose;
# those names answer "ambiguous", which is not what the benches measure).
bench_unique_names() {
  local home=$1 tree=$2 out=$3
  local shadowed="$out.shadowed"
  "$skillrt" --home "$home" --json doctor |
    jq -r '.shadowed[] | .name, (.losers[] | split("/") | .[-2])' | sort -u >"$shadowed"
  # A folder name used by two skills anywhere (home or external dir) makes the
  # bare name ambiguous for the resolver even when `list` shows only one of them.
  find "$tree" -name SKILL.md -printf '%h\n' | awk -F/ '{ print $NF }' | sort | uniq -d >>"$shadowed"
  # So is a name that is another skill's folder name.
  "$skillrt" --home "$home" --json list |
    jq -r '.skills[] | select((.path | split("/") | .[-2]) != .name) | .name' >>"$shadowed"
  "$skillrt" --home "$home" --json list |
    jq -r '.skills | group_by(.name) | map(select(length == 1) | .[0].name) | .[]' |
    grep -vxF -f "$shadowed" >"$out"
  rm -f "$shadowed"
  echo "bench: $(wc -l <"$out") unique skill names" >&2
}
