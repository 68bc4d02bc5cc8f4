#!/usr/bin/env bash
# Every command prints exactly one JSON object with --json, on success and on
# failure, and the exit code follows `success` (0 / 1).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/one" one "The only skill"

check() {
  local expected_code=$1
  shift
  run_skillrt --home "$home" --json "$@"
  assert_exit "$expected_code"
  assert_json_object
  if [[ $expected_code == 0 ]]; then
    assert_eq true "$(json_get "$RUN_OUT" '.success')" "success of $*"
  else
    assert_eq false "$(json_get "$RUN_OUT" '.success')" "success of $*"
  fi
}

check 0 list
check 0 view one
check 1 view missing-skill
check 1 view one --file references/nope.md
check 0 doctor
check 0 validate "$home/skills/one"
check 1 validate "$E2E_TMP/not-there"
