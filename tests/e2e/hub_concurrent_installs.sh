#!/usr/bin/env bash
# Hub commands on one root run one after the other (flock on .hub/lock):
# eight installs started at once all land, and lock.json records every one.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
pids=()
for i in 1 2 3 4 5 6 7 8; do
  make_skill "$E2E_TMP/src/s$i" "skill-$i" "Skill number $i"
  "$SKILLRT_BIN" --home "$home" --json install --category . "$E2E_TMP/src/s$i" >"$E2E_TMP/out$i" 2>&1 </dev/null &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || fail "install $((i + 1)) failed: $(cat "$E2E_TMP/out$((i + 1))")"
done
assert_eq 8 "$(jq '.installed | length' "$home/skills/.hub/lock.json")" "lock entries"
for i in 1 2 3 4 5 6 7 8; do
  [[ -f "$home/skills/skill-$i/SKILL.md" ]] || fail "skill-$i missing"
done
assert_eq 8 "$(grep -c ' INSTALL ' "$home/skills/.hub/audit.log")" "audit lines"
run_skillrt --home "$home" --json audit
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.issues')"
