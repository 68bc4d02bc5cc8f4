#!/usr/bin/env bash
# Names that could leave the skills roots are refused before any lookup
# (spec §2.7 rules 1-2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/ok" ok "Fine"
hint="Use a skill name or relative path within the skills directory."

for name in /etc/passwd 'C:\skills\ok' ../ok 'ok/../../x'; do
  run_skillrt --home "$home" --json view "$name"
  assert_exit 1
  assert_json_object
  assert_eq "$hint" "$(json_get "$RUN_OUT" '.hint')" "hint for $name"
done

run_skillrt --home "$home" --json view 'bad ns!:ok'
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "Invalid namespace 'bad ns!'"
