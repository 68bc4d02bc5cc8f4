#!/usr/bin/env bash
# create refuses a frontmatter name that differs from NAME (spec §5.1 item 7),
# so a skill's folder and its advertised name never diverge.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
printf -- '---\nname: deployer\ndescription: d\n---\nBody\n' >"$E2E_TMP/s.md"
run_skillrt --home "$home" --json create deploy --content "$E2E_TMP/s.md"
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "Frontmatter name 'deployer' does not match the skill name 'deploy'"
assert_eq "" "$(ls -A "$home/skills")" "skills dir stays empty"

run_skillrt --home "$home" create deploy --content "$E2E_TMP/s.md"
assert_exit 1
assert_contains "$RUN_ERR" "does not match"
