#!/usr/bin/env bash
# kill -9 while skill_manage appends its ledger entry (the fault shim makes the
# line's write hang after 60 bytes): the write to the skill stands, the
# ledger verifies (the torn line is a note, never committed), and the next
# write cuts the torn line off and appends after the last whole entry.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
printf -- '---\nname: s\ndescription: Crash target\n---\nold text\n' >"$E2E_TMP/skill.md"
run_skillrt --home "$home" --json create s --content "$E2E_TMP/skill.md"
assert_exit 0
entries="$home/ledger/entries.jsonl"
committed=$(stat -c %s "$entries")

SKILLRT_FAULT="write:sleep=120:after=60:match=entries.jsonl" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  "$SKILLRT_BIN" --home "$home" --json patch s --old "old text" --new "new text" >/dev/null 2>&1 </dev/null &
writer=$!
for _ in $(seq 1 400); do
  [[ $(stat -c %s "$entries") -gt $committed ]] && break
  sleep 0.05
done
[[ $(stat -c %s "$entries") -gt $committed ]] || { kill -9 "$writer" 2>/dev/null; fail "the writer never started its ledger line"; }
kill -9 "$writer"
wait "$writer" 2>/dev/null || true

assert_contains "$(cat "$home/skills/s/SKILL.md")" "new text" "the patch itself"
run_skillrt --home "$home" --json ledger verify
assert_exit 0
assert_eq torn_tail "$(json_get "$RUN_OUT" '.notes[0].kind')"
assert_eq 1 "$(json_get "$RUN_OUT" '.entries')"

run_skillrt --home "$home" --json patch s --old "new text" --new "newer text"
assert_exit 0
run_skillrt --home "$home" --json ledger verify
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.notes | length')"
run_skillrt --home "$home" --json ledger list
assert_eq "1 2" "$(json_get "$RUN_OUT" '[.entries[].seq] | map(tostring) | join(" ")')"
assert_eq patch "$(json_get "$RUN_OUT" '.entries[1].action')"
