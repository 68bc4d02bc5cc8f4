#!/usr/bin/env bash
# Without --user every db operation is refused (exit 1, one JSON object) and no
# database file is created.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
md="$E2E_TMP/x.md"
printf -- '---\nname: x\ndescription: X\n---\nBody\n' >"$md"
for args in "db list" "db get x" "db create x --content $md" "db update x --content $md" "db delete x"; do
  # shellcheck disable=SC2086
  run_skillrt --home "$home" --json $args
  assert_exit 1
  assert_json_object
  assert_eq false "$(json_get "$RUN_OUT" '.success')" "success of $args"
  assert_eq "database skills need a user (--user)" "$(json_get "$RUN_OUT" '.error')" "error of $args"
  # shellcheck disable=SC2086
  run_skillrt --home "$home" --org 0 $args
  assert_exit 1
  assert_contains "$RUN_ERR" "database skills need a user (--user)"
done
[[ ! -e "$home/skillrt.db" ]] || fail "a refused command created the database"
