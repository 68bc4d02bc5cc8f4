#!/usr/bin/env bash
# kill -9 in the middle of writing SKILL.md (the fault shim makes the write
# hang after 100 bytes): SKILL.md keeps its old content, never a partial one,
# and the stray temp file is removed by the next write to that skill.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export SKILLRT_NO_CACHE=1
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
make_skill "$home/skills/s" s "Crash target"
cp "$home/skills/s/SKILL.md" "$E2E_TMP/original.md"
{
  printf -- '---\nname: s\ndescription: New\n---\n'
  head -c 5000 /dev/zero | tr '\0' 'n'
  printf '\n'
} >"$E2E_TMP/new.md"

SKILLRT_FAULT="write:sleep=120:after=100:match=SKILL.md.tmp" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  "$SKILLRT_BIN" --home "$home" --json edit s --content "$E2E_TMP/new.md" >/dev/null 2>&1 </dev/null &
writer=$!

# Wait until the temp file holds the first 100 bytes.
temp=""
for _ in $(seq 1 200); do
  temp=$(find "$home/skills/s" -maxdepth 1 -name '.SKILL.md.tmp.*' | head -n 1)
  if [[ -n "$temp" && $(stat -c %s "$temp") -ge 100 ]]; then
    break
  fi
  sleep 0.05
done
[[ -n "$temp" ]] || { kill -9 "$writer" 2>/dev/null; fail "the writer never created its temp file"; }
kill -9 "$writer"
wait "$writer" 2>/dev/null || true

cmp -s "$E2E_TMP/original.md" "$home/skills/s/SKILL.md" || fail "SKILL.md is not the old content after kill -9"
[[ -f "$temp" ]] || fail "expected the killed writer's temp file to remain"
run_skillrt --home "$home" --json view s
assert_exit 0

# The next write to the skill removes the stray temp file and lands whole.
run_skillrt --home "$home" --json edit s --content "$E2E_TMP/new.md"
assert_exit 0
cmp -s "$E2E_TMP/new.md" "$home/skills/s/SKILL.md" || fail "SKILL.md is not the new content"
[[ ! -e "$temp" ]] || fail "the stray temp file $temp is still there"
assert_eq "" "$(find "$home/skills" -name '*.tmp.*')" "temp files after the next write"
