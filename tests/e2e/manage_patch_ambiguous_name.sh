#!/usr/bin/env bash
# patch resolves names with the resolver view uses (spec §5.1 item 1): two
# skills answering to one name are refused exactly as view refuses them.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/a/dup" dup "First"
make_skill "$home/skills/b/dup" dup "Second"

run_skillrt --home "$home" --json view dup
assert_exit 1
view_error=$(json_get "$RUN_OUT" '.error')
view_matches=$(json_get "$RUN_OUT" '.matches')
view_hint=$(json_get "$RUN_OUT" '.hint')

run_skillrt --home "$home" --json patch dup --old "Steps for" --new "Stages for"
assert_exit 1
assert_json_object
assert_eq "$view_error" "$(json_get "$RUN_OUT" '.error')" "error as view words it"
assert_eq "$view_matches" "$(json_get "$RUN_OUT" '.matches')" "matches"
assert_eq "$view_hint" "$(json_get "$RUN_OUT" '.hint')" "hint"

run_skillrt --home "$home" --json patch b/dup --old "Steps for" --new "Stages for"
assert_exit 0
assert_contains "$(cat "$home/skills/b/dup/SKILL.md")" "Stages for"
assert_contains "$(cat "$home/skills/a/dup/SKILL.md")" "Steps for"
