#!/usr/bin/env bash
# Several processes patching one skill at once run one after the other (the
# per-skill lock): every patch succeeds and no update is lost. The fault shim
# slows each write down so that, without the lock, the writers would overlap.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export SKILLRT_NO_CACHE=1
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
mkdir -p "$home/skills/s"
{
  printf -- '---\nname: s\ndescription: Shared\n---\n# Counters\n\n'
  for i in 1 2 3 4; do printf 'writer-%s: pending\n' "$i"; done
} >"$home/skills/s/SKILL.md"

pids=()
for i in 1 2 3 4; do
  SKILLRT_FAULT="write:sleep=1:match=SKILL.md.tmp" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
    "$SKILLRT_BIN" --home "$home" --json patch s --old "writer-$i: pending" --new "writer-$i: done" \
    >"$E2E_TMP/out.$i" 2>"$E2E_TMP/err.$i" </dev/null &
  pids+=("$!")
done
for i in 1 2 3 4; do
  code=0
  wait "${pids[$((i - 1))]}" || code=$?
  [[ $code == 0 ]] || fail "writer $i failed ($code): $(cat "$E2E_TMP/out.$i" "$E2E_TMP/err.$i")"
done

content=$(cat "$home/skills/s/SKILL.md")
for i in 1 2 3 4; do
  assert_contains "$content" "writer-$i: done" "SKILL.md after four concurrent patches"
done
assert_not_contains "$content" "pending" "SKILL.md after four concurrent patches"
assert_eq "" "$(find "$home/skills" -name '*.tmp.*')" "temp files"
# The lock files live in HOME/cache/locks, never inside the skill.
assert_eq "SKILL.md" "$(ls -A "$home/skills/s")" "skill folder entries"
[[ -n "$(ls -A "$home/cache/locks")" ]] || fail "no lock file under HOME/cache/locks"
