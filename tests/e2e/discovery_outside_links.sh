#!/usr/bin/env bash
# Discovery follows a symlinked folder only while its target stays inside the
# configured skills roots (a deliberate deviation from Hermes, docs/compat.md):
# a link to a folder elsewhere is not followed and doctor reports it as
# outside_roots; a link into another configured root still works.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/local" local "A local skill"
# A folder of many skills outside every root, linked into HOME/skills.
make_skill "$E2E_TMP/elsewhere/stray-one" stray-one "Outside the roots"
make_skill "$E2E_TMP/elsewhere/stray-two" stray-two "Outside the roots"
ln -s "$E2E_TMP/elsewhere" "$home/skills/outside"
ln -s / "$home/skills/everything"
# An external root, and a link to one of its skills from HOME/skills.
make_skill "$E2E_TMP/external/shared-skill" shared-skill "In an external root"
make_skill "$E2E_TMP/external/cat/deep-skill" deep-skill "Deeper in an external root"
printf 'skills:\n  external_dirs: ["%s"]\n' "$E2E_TMP/external" >"$home/config.yaml"
ln -s "$E2E_TMP/external/cat" "$home/skills/linked-cat"

run_skillrt --home "$home" --json list
assert_exit 0
names=$(json_get "$RUN_OUT" '[.skills[].name] | unique')
assert_contains "$names" '"local"'
assert_contains "$names" '"shared-skill"'
assert_contains "$names" '"deep-skill"'
assert_not_contains "$names" "stray-one"
assert_not_contains "$names" "stray-two"

run_skillrt --home "$home" --json doctor
assert_exit 0
assert_eq outside_roots "$(json_get "$RUN_OUT" '.skipped[] | select(.path | endswith("/skills/outside")) | .reason')" \
  "the outside link's skip"
assert_eq outside_roots "$(json_get "$RUN_OUT" '.skipped[] | select(.path | endswith("/skills/everything")) | .reason')" \
  "the link to /"
assert_eq 0 "$(json_get "$RUN_OUT" '[.skipped[] | select(.path | endswith("linked-cat"))] | length')" \
  "a link into another root is not a skip"
run_skillrt --home "$home" doctor
assert_contains "$RUN_OUT" "outside_roots"
assert_contains "$RUN_OUT" "outside the configured skills roots"

# A skill reached through the link into the external root can be viewed.
run_skillrt --home "$home" --json view deep-skill
assert_exit 0
assert_eq "Deeper in an external root" "$(json_get "$RUN_OUT" '.description')" "deep-skill"
