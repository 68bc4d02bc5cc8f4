#!/usr/bin/env bash
# `skillrt sync --bundled DIR`: new skills copied with their category path and
# DESCRIPTION.md, the v2 manifest written sorted, a second run changes nothing,
# pristine copies are updated, a user's edit is kept, a user-deleted skill
# stays deleted; --json is one object with success first and the §2.13 keys.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"
make_skill "$bundled/tools/beta" beta "The beta skill"
make_skill "$bundled/ops/gamma" gamma "The gamma skill"
printf -- '---\ndescription: Tools.\n---\n' >"$bundled/tools/DESCRIPTION.md"

run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_json_object
assert_eq '["success","copied","updated","skipped","user_modified","cleaned","relocated","symlinked","total_bundled","shadowed_by_external","skipped_opt_out","bundled_dir","descriptions_copied","warnings","errors"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "sync keys"
assert_eq '["gamma","alpha","beta"]' "$(json_get "$RUN_OUT" '.copied')" "copied in bundled path order"
assert_eq 3 "$(json_get "$RUN_OUT" '.total_bundled')" "total_bundled"
assert_eq '["tools/DESCRIPTION.md"]' "$(json_get "$RUN_OUT" '.descriptions_copied')" "descriptions"
cmp -s "$bundled/tools/alpha/SKILL.md" "$home/skills/tools/alpha/SKILL.md" || fail "alpha not copied verbatim"
[[ -f "$home/skills/ops/gamma/SKILL.md" ]] || fail "category path not kept"
manifest=$(cat "$home/skills/.bundled_manifest")
assert_eq "alpha beta gamma" "$(cut -d: -f1 <<<"$manifest" | tr '\n' ' ' | sed 's/ $//')" "manifest names, sorted"
grep -Eq '^alpha:[0-9a-f]{64}$' <<<"$manifest" || fail "manifest line is not name:sha256"

run_skillrt --home "$home" --json list
assert_eq 3 "$(json_get "$RUN_OUT" '.count')" "skills listed after sync"

# Nothing to do the second time.
run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_eq '[]' "$(json_get "$RUN_OUT" '.copied')" "second copied"
assert_eq 3 "$(json_get "$RUN_OUT" '.skipped')" "second skipped"

# Upstream changes all three; the user edited alpha and deleted gamma.
echo "my own note" >>"$home/skills/tools/alpha/SKILL.md"
cp "$home/skills/tools/alpha/SKILL.md" "$E2E_TMP/alpha-edited.md"
rm -rf "$home/skills/ops/gamma"
for s in alpha beta gamma; do
  echo "upstream v2" >>"$(find "$bundled" -path "*/$s/SKILL.md")"
done
run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_eq '["beta"]' "$(json_get "$RUN_OUT" '.updated')" "updated"
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '.user_modified')" "user_modified"
cmp -s "$E2E_TMP/alpha-edited.md" "$home/skills/tools/alpha/SKILL.md" || fail "the user's edit was overwritten"
cmp -s "$bundled/tools/beta/SKILL.md" "$home/skills/tools/beta/SKILL.md" || fail "beta not updated"
[[ ! -e "$home/skills/ops/gamma" ]] || fail "a user-deleted skill came back"
[[ -z "$(find "$home/skills" -name '.skillrt-sync-*')" ]] || fail "work folders left behind"

# Removed upstream and gone locally: dropped from the manifest.
rm -rf "$bundled/ops"
run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_eq '["gamma"]' "$(json_get "$RUN_OUT" '.cleaned')" "cleaned"
assert_not_contains "$(cat "$home/skills/.bundled_manifest")" "gamma"

# Human text.
run_skillrt --home "$home" sync --bundled "$bundled"
assert_exit 0
assert_contains "$RUN_OUT" "2 bundled, 0 copied, 0 updated, 1 kept with your changes"
assert_contains "$RUN_OUT" "kept with your changes"

# A missing bundled folder is an error, not an empty sync.
run_skillrt --home "$home" --json sync --bundled "$E2E_TMP/nope"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"
assert_contains "$(json_get "$RUN_OUT" '.error')" "bundled skills folder not found"
