#!/usr/bin/env bash
# A name matching a local and an external skill is refused with every match
# listed (spec §2.7 rule 8); the categorized path picks one.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
ext="$E2E_TMP/external"
make_skill "$home/skills/cat/dup" dup "Local copy"
make_skill "$ext/dup" dup "External copy"
printf 'skills:\n  external_dirs:\n    - %s\n' "$ext" >"$home/config.yaml"

run_skillrt --home "$home" --json view dup
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"
assert_contains "$(json_get "$RUN_OUT" '.error')" "Ambiguous skill name 'dup': 2 skills match"
assert_eq "[\"$home/skills/cat/dup/SKILL.md\",\"$ext/dup/SKILL.md\"]" "$(json_get "$RUN_OUT" '.matches')" "matches"
assert_contains "$(json_get "$RUN_OUT" '.hint')" "category/skill-name"

run_skillrt --home "$home" --json view cat/dup
assert_exit 0
assert_eq "Local copy" "$(json_get "$RUN_OUT" '.description')" "description"

run_skillrt --home "$home" --json view cat:dup
assert_exit 0
assert_eq "cat/dup/SKILL.md" "$(json_get "$RUN_OUT" '.path')" "path through the ns:skill alias"
