#!/usr/bin/env bash
# An update that fails after the old copy was moved aside (rename of the new
# copy into place fails, injected with the fault shim) puts the old copy back:
# byte-identical, no work folders left, the manifest unchanged; the next sync
# updates it. Two syncs at once never corrupt anything.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"
run_skillrt --home "$home" sync --bundled "$bundled"
assert_exit 0
cp -r "$home/skills/tools/alpha" "$E2E_TMP/before"
cp "$home/skills/.bundled_manifest" "$E2E_TMP/manifest-before"
echo "upstream v2" >>"$bundled/tools/alpha/SKILL.md"

RUN_CMD="SKILLRT_FAULT=rename:EIO:match=.skillrt-sync-new- skillrt sync"
RUN_CODE=0
SKILLRT_FAULT="rename:EIO:match=.skillrt-sync-new-" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  timeout 60 "$SKILLRT_BIN" --home "$home" --json sync --bundled "$bundled" \
  >"$E2E_TMP/.f.out" 2>"$E2E_TMP/.f.err" </dev/null || RUN_CODE=$?
RUN_OUT=$(cat "$E2E_TMP/.f.out")
RUN_ERR=$(cat "$E2E_TMP/.f.err")
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.errors[0]')" "your copy is unchanged"
diff -r "$E2E_TMP/before" "$home/skills/tools/alpha" >/dev/null || fail "the old copy was not restored byte for byte"
cmp -s "$E2E_TMP/manifest-before" "$home/skills/.bundled_manifest" || fail "the manifest changed on a failed update"
[[ -z "$(find "$home/skills" -name '.skillrt-sync-*')" ]] || fail "work folders left behind"
[[ -z "$(find "$home/skills/.skillrt-bundled-pending" -type f 2>/dev/null)" ]] || fail "a swap record left behind"

run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '.updated')" "retried update"

# Concurrent syncs: one runs after the other under the lock.
for i in $(seq 1 8); do
  make_skill "$bundled/many/skill-$i" "skill-$i" "Skill $i"
done
pids=()
for i in 1 2 3; do
  "$SKILLRT_BIN" --home "$home" --json sync --bundled "$bundled" >"$E2E_TMP/c$i.out" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid" || fail "a concurrent sync failed: $(cat "$E2E_TMP"/c*.out)"
done
copied=$(cat "$E2E_TMP"/c1.out "$E2E_TMP"/c2.out "$E2E_TMP"/c3.out | jq -s '[.[].copied | length] | add')
assert_eq 8 "$copied" "each new skill copied exactly once"
assert_eq 9 "$(grep -c . "$home/skills/.bundled_manifest")" "manifest entries after concurrent syncs"

# The manifest cannot be written: sync reports it (the copies stay, and the
# next sync re-baselines them); reset says manifest_write_failed and changes nothing.
make_skill "$bundled/late/omega" omega "Late skill"
RUN_CMD="SKILLRT_FAULT=rename:EIO:match=.bundled_manifest.tmp skillrt sync"
RUN_CODE=0
SKILLRT_FAULT="rename:EIO:match=.bundled_manifest.tmp" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  timeout 60 "$SKILLRT_BIN" --home "$home" --json sync --bundled "$bundled" \
  >"$E2E_TMP/.f.out" 2>"$E2E_TMP/.f.err" </dev/null || RUN_CODE=$?
RUN_OUT=$(cat "$E2E_TMP/.f.out")
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.errors[0]')" "cannot write the bundled manifest"
assert_not_contains "$(cat "$home/skills/.bundled_manifest")" "omega"
run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_contains "$(cat "$home/skills/.bundled_manifest")" "omega:"
cp "$home/skills/.bundled_manifest" "$E2E_TMP/manifest-2"
RUN_CODE=0
SKILLRT_FAULT="rename:EIO:match=.bundled_manifest.tmp" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
  timeout 60 "$SKILLRT_BIN" --home "$home" --json reset omega --bundled "$bundled" \
  >"$E2E_TMP/.f.out" 2>"$E2E_TMP/.f.err" </dev/null || RUN_CODE=$?
RUN_OUT=$(cat "$E2E_TMP/.f.out")
assert_exit 1
assert_eq manifest_write_failed "$(json_get "$RUN_OUT" '.action')" "reset action"
cmp -s "$E2E_TMP/manifest-2" "$home/skills/.bundled_manifest" || fail "a failed reset changed the manifest"
