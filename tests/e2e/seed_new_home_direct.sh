#!/usr/bin/env bash
# The binary run directly (no scripts/run, no SKILLRT_BUNDLED_DIR) seeds a new
# home from the bundled-skills/ beside it, before any command: whether
# HOME/skills exists does not decide it (a failed install's leftover `.hub`
# keeps a home new); the bundled manifest, a user's skill or
# HOME/.no-bundled-skills does.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
unset SKILLRT_NO_BUNDLED_SEED

bundled="$(dirname "$SKILLRT_BIN")/bundled-skills"
[[ -d "$bundled" ]] || fail "no bundled-skills beside the binary at $bundled"
expected=$(find "$bundled" -name SKILL.md | wc -l)
(( expected >= 3 )) || fail "fewer than three bundled skills beside the binary"

# A home that does not exist yet: the first command seeds it.
home="$E2E_TMP/new-home"
run_skillrt --home "$home" --json list
assert_exit 0
assert_eq "$expected" "$(json_get "$RUN_OUT" '.count')" "skills seeded into a new home"
[[ -f "$home/skills/.bundled_manifest" ]] || fail "seeding wrote no manifest"
[[ -z "$(find "$home" -maxdepth 1 -name '.skills.seed-*')" ]] || fail "staging home left behind"

# An empty skills folder is new too, and text mode says what happened on stderr.
home=$(make_home)
run_skillrt --home "$home" list
assert_exit 0
assert_contains "$RUN_ERR" "seeded $expected bundled skills"
assert_contains "$RUN_OUT" "using-skillrt"

# Any command seeds, also one that then fails: a failed install of a missing
# folder runs on a seeded home.
home="$E2E_TMP/install-first"
run_skillrt --home "$home" --json install "$E2E_TMP/does-not-exist"
[[ "$RUN_CODE" != 0 ]] || fail "installing a missing folder succeeded"
run_skillrt --home "$home" --json list
assert_eq "$expected" "$(json_get "$RUN_OUT" '.count')" "seeded although the first command failed"

# A home a failed install already left HOME/skills/.hub in (an older binary,
# or seeding switched off) is still new: the next command seeds it.
home="$E2E_TMP/hub-leftover"
SKILLRT_NO_BUNDLED_SEED=1 run_skillrt --home "$home" --json install /nonexistent
[[ "$RUN_CODE" != 0 ]] || fail "installing a missing folder succeeded"
[[ -d "$home/skills/.hub" ]] || fail "the failed install left no .hub (the scenario needs one)"
[[ ! -e "$home/skills/.bundled_manifest" ]] || fail "seeded although switched off"
run_skillrt --home "$home" --json list
assert_exit 0
assert_eq "$expected" "$(json_get "$RUN_OUT" '.count')" "skills seeded beside a leftover .hub"
[[ -d "$home/skills/.hub" ]] || fail "seeding removed the hub's folder"
[[ -f "$home/skills/.bundled_manifest" ]] || fail "no manifest after seeding beside .hub"

# Seeded once: a user who deletes every bundled skill is not seeded again.
find "$home/skills" -mindepth 1 -maxdepth 1 ! -name '.*' -exec rm -rf {} +
run_skillrt --home "$home" --json list
assert_eq 0 "$(json_get "$RUN_OUT" '.skills | length')" "a home seeded before stays as the user left it"

# A home with a skill of the user's is never seeded, not even partly.
home=$(make_home)
make_skill "$home/skills/mine" mine "My own skill"
run_skillrt --home "$home" --json list
assert_exit 0
assert_eq '["mine"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "user's home untouched"
[[ ! -e "$home/skills/.bundled_manifest" ]] || fail "a user's home got a manifest"

# Opted out: nothing seeded, however the home looks.
home="$E2E_TMP/opted-out"
mkdir -p "$home"
touch "$home/.no-bundled-skills"
run_skillrt --home "$home" --json list
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.skills | length')" "opted-out home stays empty"
[[ ! -e "$home/skills/.bundled_manifest" ]] || fail "an opted-out home got a manifest"

# SKILLRT_NO_BUNDLED_SEED (what the tests use) keeps a new home empty.
home="$E2E_TMP/switched-off"
SKILLRT_NO_BUNDLED_SEED=1 run_skillrt --home "$home" --json list
assert_eq 0 "$(json_get "$RUN_OUT" '.skills | length')" "seeding switched off"

# A user without the right to write the shared layer seeds nothing.
home="$E2E_TMP/plain-user"
run_skillrt --home "$home" --user bob --org 1 --json list
assert_exit 0
[[ ! -e "$home/skills/.bundled_manifest" ]] || fail "a plain user seeded the shared layer"
