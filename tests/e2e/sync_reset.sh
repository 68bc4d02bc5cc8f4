#!/usr/bin/env bash
# `skillrt reset NAME [--restore]`: the action words of spec §2.13 rule 11,
# their exit codes and JSON shape.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"
run_skillrt --home "$home" sync --bundled "$bundled"
assert_exit 0

run_skillrt --home "$home" --json reset nobody --bundled "$bundled"
assert_exit 1
assert_json_object
assert_eq '["success","error","name","action","message","synced"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "reset keys"
assert_eq not_in_manifest "$(json_get "$RUN_OUT" '.action')" "unknown name"

echo "mine" >>"$home/skills/tools/alpha/SKILL.md"
cp "$home/skills/tools/alpha/SKILL.md" "$E2E_TMP/mine.md"
run_skillrt --home "$home" --json reset alpha --bundled "$bundled"
assert_exit 1
assert_eq refused_copy_diverges "$(json_get "$RUN_OUT" '.action')" "diverging copy"
cmp -s "$E2E_TMP/mine.md" "$home/skills/tools/alpha/SKILL.md" || fail "a refused reset changed the copy"

run_skillrt --home "$home" --json reset alpha --restore --bundled "$bundled"
assert_exit 0
assert_eq restored "$(json_get "$RUN_OUT" '.action')" "restore"
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '.synced.updated')" "swapped in"
cmp -s "$bundled/tools/alpha/SKILL.md" "$home/skills/tools/alpha/SKILL.md" || fail "restore did not bring the bundled version"

# A user-deleted skill comes back through a plain reset.
rm -rf "$home/skills/tools/alpha"
run_skillrt --home "$home" sync --bundled "$bundled"
[[ ! -e "$home/skills/tools/alpha" ]] || fail "sync re-added a deleted skill"
run_skillrt --home "$home" reset alpha --bundled "$bundled"
assert_exit 0
assert_contains "$RUN_OUT" "manifest_cleared"
[[ -f "$home/skills/tools/alpha/SKILL.md" ]] || fail "reset did not copy the skill again"

# No longer bundled: nothing to restore from.
rm -rf "$bundled/tools/alpha"
run_skillrt --home "$home" --json reset alpha --restore --bundled "$bundled"
assert_exit 1
assert_eq bundled_missing "$(json_get "$RUN_OUT" '.action')" "restore of a removed skill"

run_skillrt --home "$home" reset --bundled "$bundled"
assert_exit 2
