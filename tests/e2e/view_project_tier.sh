#!/usr/bin/env bash
# A trusted project's skill overrides a same-named local one (spec §2.7 rule 7);
# an untrusted project's skills are never loaded.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/deploy" deploy "Local deploy"
proj="$E2E_TMP/proj"
mkdir -p "$proj/.git"
make_skill "$proj/.hermes/skills/deploy" deploy "Project deploy"
cd "$proj"

run_skillrt --home "$home" --json view deploy
assert_exit 0
assert_eq "Local deploy" "$(json_get "$RUN_OUT" '.description')" "untrusted project ignored"

printf 'skills:\n  trusted_project_dirs:\n    - %s\n' "$proj" >"$home/config.yaml"
run_skillrt --home "$home" --json view deploy
assert_exit 0
assert_eq "Project deploy" "$(json_get "$RUN_OUT" '.description')" "project wins"
assert_eq project "$(json_get "$RUN_OUT" '.source')" "source"
assert_eq "deploy/SKILL.md" "$(json_get "$RUN_OUT" '.path')" "path relative to the grandparent"
