#!/usr/bin/env bash
# First use with $SKILLRT_BUNDLED_DIR (what scripts/run sets): a home without
# skills/ is seeded through the real sync, so the manifest exists and a later
# `skillrt sync` updates pristine copies; the build's bundled-skills copy next
# to the binary is what `sync` uses without --bundled; every shipped skill is valid.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
unset SKILLRT_NO_BUNDLED_SEED

bundled="$E2E_TMP/bundled"
cp -r "$SKILLRT_SOURCE_DIR/skills" "$bundled"
expected=$(find "$bundled" -name SKILL.md | wc -l)
(( expected >= 3 )) || fail "fewer than three bundled skills in the repository"

home="$E2E_TMP/fresh"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$home" --json list
assert_exit 0
assert_eq "$expected" "$(json_get "$RUN_OUT" '.count')" "seeded skills listed"
[[ -f "$home/skills/.bundled_manifest" ]] || fail "seeding wrote no manifest"
assert_eq "$expected" "$(grep -c . "$home/skills/.bundled_manifest")" "manifest entries"
[[ -z "$(find "$home" -maxdepth 1 -name '.skills.seed-*')" ]] || fail "staging home left behind"
[[ -f "$home/skills/skillrt/DESCRIPTION.md" ]] || fail "category DESCRIPTION.md not seeded"

# An upstream change reaches the pristine copy through sync.
target=$(find "$bundled" -path '*/using-skillrt/SKILL.md')
echo "Upstream addition." >>"$target"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$home" --json sync
assert_exit 0
assert_eq '["using-skillrt"]' "$(json_get "$RUN_OUT" '.updated')" "updated after seeding"

# Without the variable, sync finds the copy the build put next to the binary
# (first-use seeding switched off, so the sync itself does the copying).
other=$(make_home)
SKILLRT_NO_BUNDLED_SEED=1 run_skillrt --home "$other" --json sync
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.bundled_dir')" "bundled-skills"
assert_eq "$expected" "$(json_get "$RUN_OUT" '.copied | length')" "default bundled dir"

# The shipped skills pass strict validation.
run_skillrt validate --strict "$SKILLRT_SOURCE_DIR"/skills/*/*/
assert_exit 0

# Opted out: first use seeds nothing; an explicit sync installs only the essential skill.
optout="$E2E_TMP/optout"
mkdir -p "$optout"
touch "$optout/.no-bundled-skills"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$optout" --json list
assert_eq 0 "$(json_get "$RUN_OUT" '.skills | length')" "opted-out home stays empty"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$optout" --json sync
assert_eq true "$(json_get "$RUN_OUT" '.skipped_opt_out')" "opt-out reported"
assert_eq '["using-skillrt"]' "$(json_get "$RUN_OUT" '.copied')" "only the essential skill"
