#!/usr/bin/env bash
# With SKILLRT_BUNDLED_DIR (what scripts/run sets), a new home is seeded with the
# bundled skills once; an existing skills folder is never touched, and
# HOME/.no-bundled-skills opts out.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
unset SKILLRT_NO_BUNDLED_SEED

bundled="$SKILLRT_SOURCE_DIR/skills"
[[ -d "$bundled" ]] || fail "no bundled skills at $bundled"
expected=$(find "$bundled" -name SKILL.md | wc -l)

home="$E2E_TMP/fresh-home"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$home" --json list
assert_exit 0
assert_eq "$expected" "$(json_get "$RUN_OUT" '.count')" "seeded skills listed"

# A user's edit survives later runs: the folder exists, so no reseeding.
victim=$(find "$home/skills" -name SKILL.md | head -n 1)
echo "user edit" >>"$victim"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$home" --json list
grep -q "user edit" "$victim" || fail "seeding clobbered a user edit"

optout="$E2E_TMP/optout-home"
mkdir -p "$optout"
touch "$optout/.no-bundled-skills"
SKILLRT_BUNDLED_DIR="$bundled" run_skillrt --home "$optout" --json list
assert_eq 0 "$(json_get "$RUN_OUT" '.skills | length')" "opted-out home stays empty"
