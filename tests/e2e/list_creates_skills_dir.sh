#!/usr/bin/env bash
# Like Hermes' skills_list (spec §2.6 rule 1), `list` creates a missing
# HOME/skills directory, so a first listing leaves a usable home behind.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home="$E2E_TMP/fresh-home"
mkdir -p "$home"
run_skillrt --home "$home" --json list
assert_exit 0
assert_json_object
[[ -d "$home/skills" ]] || fail "list did not create $home/skills"
