#!/usr/bin/env bash
# `list --json` on a home without skills prints Hermes' empty-catalog object
# (spec §2.6 rule 3), and reads the home from $HERMES_HOME as well as --home.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

check_empty_listing() {
  assert_exit 0
  assert_json_object
  assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
  assert_eq '[]' "$(json_get "$RUN_OUT" '.skills')" "skills"
  assert_eq '[]' "$(json_get "$RUN_OUT" '.categories')" "categories"
  assert_eq "No skills found in skills/ directory." "$(json_get "$RUN_OUT" '.message')" "message"
}

# A home that has never been used: not even skills/ exists.
home="$E2E_TMP/fresh-home"
mkdir -p "$home"
run_skillrt --home "$home" --json list
check_empty_listing

# An existing but empty skills/ dir, named through the environment.
home2=$(make_home)
HERMES_HOME="$home2" run_skillrt --json list
check_empty_listing

# Files that are not skills do not make the catalog non-empty.
mkdir -p "$home2/skills/notes/empty-dir"
echo "just a note" >"$home2/skills/notes/README.txt"
run_skillrt --home "$home2" --json list
check_empty_listing
