#!/usr/bin/env bash
# Usage errors exit 2; with --json they still print exactly one JSON object.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
run_skillrt --home "$home" --json no-such-command
assert_exit 2
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"

run_skillrt --home "$home" --json view
assert_exit 2
assert_json_object

run_skillrt --home "$home" --os plan9 list
assert_exit 2
assert_contains "$RUN_ERR" "plan9"

run_skillrt
assert_exit 2

# --json may also follow the subcommand.
run_skillrt --home "$home" list --json
assert_exit 0
assert_json_object
