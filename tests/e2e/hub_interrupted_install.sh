#!/usr/bin/env bash
# An interrupted install leaves nothing half-installed (the fault shim makes
# rename(2) fail or hang; tests run as root, where chmod cannot):
#  1. the move out of quarantine fails → nothing in the root, no lock entry;
#  2. kill -9 while that move hangs → nothing in the root; the next hub
#     command undoes the pending record and empties the quarantine;
#  3. kill -9 after the move, while lock.json is being replaced → the next
#     hub command finishes the install (lock entry + audit line).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

src="$E2E_TMP/src/demo"
make_skill "$src" demo "Crash target"
other="$E2E_TMP/src/other"
make_skill "$other" other "Another skill"

# 1. The rename fails.
home=$(make_home)
RUN_CMD="SKILLRT_FAULT=rename:EIO:match=/ready/demo skillrt install"
RUN_CODE=0
SKILLRT_FAULT="rename:EIO:match=/ready/demo" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  "$SKILLRT_BIN" --home "$home" --json install --category . "$src" >"$E2E_TMP/out1" 2>/dev/null </dev/null || RUN_CODE=$?
RUN_OUT=$(cat "$E2E_TMP/out1")
assert_exit 1
assert_eq failed "$(json_get "$RUN_OUT" '.skills[0].outcome')"
[[ ! -e "$home/skills/demo" ]] || fail "half-installed after a failed rename"
assert_eq '{}' "$(jq -c '.installed' "$home/skills/.hub/lock.json" 2>/dev/null || echo '{}')" "lock entries"
[[ -z "$(ls -A "$home/skills/.hub/pending")" ]] || fail "pending record left after a handled failure"
[[ -z "$(ls -A "$home/skills/.hub/quarantine")" ]] || fail "quarantine not emptied"

# 2. kill -9 while the move out of quarantine hangs.
home=$(make_home)
SKILLRT_FAULT="rename:sleep=120:match=/ready/demo" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  "$SKILLRT_BIN" --home "$home" --json install --category . "$src" >/dev/null 2>&1 </dev/null &
installer=$!
for _ in $(seq 1 200); do
  [[ -n "$(ls -A "$home/skills/.hub/pending" 2>/dev/null)" ]] && break
  sleep 0.05
done
[[ -n "$(ls -A "$home/skills/.hub/pending" 2>/dev/null)" ]] || { kill -9 "$installer"; fail "no pending record appeared"; }
sleep 0.2
kill -9 "$installer"
wait "$installer" 2>/dev/null || true
[[ ! -e "$home/skills/demo" ]] || fail "visible in the root before the rename"
[[ -n "$(ls -A "$home/skills/.hub/quarantine")" ]] || fail "expected the killed install's quarantine to remain"
run_skillrt --home "$home" --json install --category . "$other"
assert_exit 0
assert_eq false "$(json_get "$RUN_OUT" '.recovered[0].completed')" "recovery undid the install"
[[ ! -e "$home/skills/demo" ]] || fail "recovery installed an unfinished skill"
[[ -z "$(ls -A "$home/skills/.hub/pending")" ]] || fail "pending record not cleared"
[[ -z "$(ls -A "$home/skills/.hub/quarantine")" ]] || fail "stale quarantine not removed"
assert_eq '["other"]' "$(jq -c '.installed | keys' "$home/skills/.hub/lock.json")" "lock entries"

# 3. kill -9 after the move, while lock.json is being replaced.
home=$(make_home)
SKILLRT_FAULT="rename:sleep=120:match=lock.json" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  "$SKILLRT_BIN" --home "$home" --json install --category . "$src" >/dev/null 2>&1 </dev/null &
installer=$!
for _ in $(seq 1 200); do
  [[ -f "$home/skills/demo/SKILL.md" ]] && break
  sleep 0.05
done
[[ -f "$home/skills/demo/SKILL.md" ]] || { kill -9 "$installer"; fail "the skill was never moved into place"; }
sleep 0.2
kill -9 "$installer"
wait "$installer" 2>/dev/null || true
run_skillrt --home "$home" --json check
assert_exit 0
assert_eq true "$(json_get "$RUN_OUT" '.recovered[0].completed')" "recovery finished the install"
assert_eq up_to_date "$(json_get "$RUN_OUT" '.skills[0].status')"
grep -q ' INSTALL demo .* recovered$' "$home/skills/.hub/audit.log" || fail "no audit line for the recovered install"
assert_eq "" "$(find "$home/skills" -name '*.tmp*')" "temp files after recovery"
