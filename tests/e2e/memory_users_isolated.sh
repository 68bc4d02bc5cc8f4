#!/usr/bin/env bash
# Memory belongs to one user: B never sees or edits A's entries, no user is
# refused, and path tricks in --user never reach the disk.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
run_skillrt --home "$home" --user alice --json memory add --target user --content "alice's secret"
assert_exit 0

run_skillrt --home "$home" --user bob --json memory list
assert_exit 0
assert_eq '[]' "$(json_get "$RUN_OUT" '.targets.user.entries')" "bob sees nothing"
assert_not_contains "$RUN_OUT" "secret"
run_skillrt --home "$home" --user bob --json memory remove --target user --old "secret"
assert_exit 1
run_skillrt --home "$home" --user alice --json memory list --target user
assert_eq "[\"alice's secret\"]" "$(json_get "$RUN_OUT" '.entries')" "alice keeps hers"

# No user: refused with the documented text, nothing written.
for action in "list" "add --target memory --content x"; do
  # shellcheck disable=SC2086
  run_skillrt --home "$home" --json memory $action
  assert_exit 1
  assert_json_object
  assert_eq "memory needs a user (--user)" "$(json_get "$RUN_OUT" '.error')" "no user ($action)"
done

# Path tricks in the user id: usage errors before anything touches the disk.
for id in "../alice" "alice/../bob" ".." "." "a/b" "-x" ".hidden" "a b"; do
  run_skillrt --home "$home" --user "$id" --json memory add --target memory --content x
  assert_exit 2
  assert_json_object
done
assert_eq "alice bob" "$(ls "$home/users" | tr '\n' ' ' | sed 's/ $//')" "only real users have folders"
[[ ! -e "$home/memory.json" && ! -e "$E2E_TMP/memory.json" ]] || fail "a memory file escaped users/"

# A symlinked user folder is refused, never followed.
mkdir -p "$E2E_TMP/elsewhere"
ln -s "$E2E_TMP/elsewhere" "$home/users/mallory"
run_skillrt --home "$home" --user mallory --json memory add --target memory --content x
assert_exit 1
[[ ! -e "$E2E_TMP/elsewhere/memory.json" ]] || fail "wrote through a symlinked user folder"
