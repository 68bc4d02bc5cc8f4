#!/usr/bin/env bash
# A SKILL.md over the 16 MiB load limit is a clear error, quickly, not a crash.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/huge" huge "Too big"
truncate -s 17M "$home/skills/huge/SKILL.md"

run_skillrt --home "$home" --json view huge
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "Failed to read skill 'huge'"
assert_contains "$(json_get "$RUN_OUT" '.error')" "limit"

