#!/usr/bin/env bash
# Two users of one database: neither sees, changes nor deletes the other's
# rows, whatever their organisation; the same name can exist for both. On
# SQLite, and on PostgreSQL when the test cluster runs (SKILLRT_TEST_PG_URL).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
md="$E2E_TMP/alice.md"
printf -- '---\nname: private\ndescription: Alice only\n---\nAlice body\n' >"$md"
sed 's/Alice only/Bob only/' "$md" >"$E2E_TMP/bob.md"
for i in $(seq 1 15); do
  printf 'body %s\n' "$i" >"$E2E_TMP/body-$i.md"
done

# check_backend NAME PREFIX [DB ARGS...]: the whole scenario on one database;
# PREFIX keeps user ids apart on the cluster every test shares.
check_backend() {
  local backend=$1 p=$2
  shift 2
  local db=("$@")
  run_skillrt --home "$home" "${db[@]}" --user "${p}alice" --org 1 --json db create private --content "$md"
  assert_exit 0

  for who in "bob --org 1" "carol --org 0" "dave --org 2"; do
    # shellcheck disable=SC2086
    set -- --home "$home" "${db[@]}" --user $p$who --json
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
  run_skillrt --home "$home" "${db[@]}" --user "${p}bob" --json db create private --content "$E2E_TMP/bob.md"
  assert_exit 0
  run_skillrt --home "$home" "${db[@]}" --user "${p}bob" --json db get private
  assert_eq "Bob only" "$(json_get "$RUN_OUT" '.skill.description')" "bob's row"
  run_skillrt --home "$home" "${db[@]}" --user "${p}alice" --json db get private
  assert_exit 0
  assert_eq "Alice only" "$(json_get "$RUN_OUT" '.skill.description')" "alice's row untouched"
  assert_eq 1 "$(json_get "$RUN_OUT" '.skill.version')" "alice's version untouched"

  # Two users writing at once lose nothing.
  for user in wa wb; do
    (
      for i in $(seq 1 15); do
        "$SKILLRT_BIN" --home "$home" "${db[@]}" --user "$p$user" --json db create "s$i" --content "$E2E_TMP/body-$i.md" >/dev/null ||
          echo "write $user/s$i failed" >>"$E2E_TMP/errors-$backend"
      done
    ) &
  done
  wait
  [[ ! -s "$E2E_TMP/errors-$backend" ]] || fail "$(cat "$E2E_TMP/errors-$backend")"
  for user in wa wb; do
    run_skillrt --home "$home" "${db[@]}" --user "$p$user" --json db list
    assert_eq 15 "$(json_get "$RUN_OUT" '.count')" "rows of $user"
  done

  # Path tricks in the user id never reach the database.
  run_skillrt --home "$home" "${db[@]}" --user ../alice --json db list
  assert_exit 2
}

check_backend sqlite ""
if [[ -n "${SKILLRT_TEST_PG_URL:-}" ]]; then
  check_backend postgres "e2e-$$-$RANDOM-" --db "$SKILLRT_TEST_PG_URL"
elif [[ "${SKILLRT_REQUIRE_PG:-0}" == 1 ]]; then
  fail "SKILLRT_REQUIRE_PG=1 but SKILLRT_TEST_PG_URL is unset"
fi
