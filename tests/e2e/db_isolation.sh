#!/usr/bin/env bash
# Two users of one database: neither sees, changes nor deletes the other's
# rows, whatever their organisation; the same name can exist for both.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
md=$'---\nname: private\ndescription: Alice only\n---\nAlice body\n'
run_skillrt --home "$home" --user alice --org 1 --json db create private --content "$md"
assert_exit 0

for who in "bob --org 1" "carol --org 0" "dave --org 2"; do
  # shellcheck disable=SC2086
  set -- --home "$home" --user $who --json
  run_skillrt "$@" db list
  assert_exit 0
  assert_eq 0 "$(json_get "$RUN_OUT" '.count')" "list of $who"
  run_skillrt "$@" db get private
  assert_exit 1
  assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "get by $who"
  run_skillrt "$@" db update private --description hijacked
  assert_exit 1
  run_skillrt "$@" db delete private
  assert_exit 1
done

# Bob's own skill of the same name is his.
run_skillrt --home "$home" --user bob --json db create private --content "${md/Alice only/Bob only}"
assert_exit 0
run_skillrt --home "$home" --user bob --json db get private
assert_eq "Bob only" "$(json_get "$RUN_OUT" '.skill.description')" "bob's row"
run_skillrt --home "$home" --user alice --json db get private
assert_exit 0
assert_eq "Alice only" "$(json_get "$RUN_OUT" '.skill.description')" "alice's row untouched"
assert_eq 1 "$(json_get "$RUN_OUT" '.skill.version')" "alice's version untouched"

# Two users writing at once lose nothing.
for user in wa wb; do
  (
    for i in $(seq 1 15); do
      "$SKILLRT_BIN" --home "$home" --user "$user" --json db create "s$i" --content "body $i" >/dev/null ||
        echo "write $user/s$i failed" >>"$E2E_TMP/errors"
    done
  ) &
done
wait
[[ ! -s "$E2E_TMP/errors" ]] || fail "$(cat "$E2E_TMP/errors")"
for user in wa wb; do
  run_skillrt --home "$home" --user "$user" --json db list
  assert_eq 15 "$(json_get "$RUN_OUT" '.count')" "rows of $user"
done

# Path tricks in the user id never reach the database.
run_skillrt --home "$home" --user ../alice --json db list
assert_exit 2
