#!/usr/bin/env bash
# Required environment variables: HOME/.env decides when it has the key (even
# empty), else the process environment (spec §2.8 rule 2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/api" api "Needs a key" "required_environment_variables:" "  - name: E2E_API_KEY" \
  "    help: Create one in the dashboard."

run_skillrt --home "$home" --json view api
assert_exit 0
assert_eq setup_needed "$(json_get "$RUN_OUT" '.readiness_status')" "status without the key"
assert_eq '["E2E_API_KEY"]' "$(json_get "$RUN_OUT" '.missing_required_environment_variables')" "missing"
assert_eq "Setup needed before using this skill: missing env \$E2E_API_KEY. Create one in the dashboard." \
  "$(json_get "$RUN_OUT" '.setup_note')" "setup_note"

E2E_API_KEY=from-env run_skillrt --home "$home" --json view api
assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "status with the process variable"

echo 'E2E_API_KEY=' >"$home/.env"
E2E_API_KEY=from-env run_skillrt --home "$home" --json view api
assert_eq setup_needed "$(json_get "$RUN_OUT" '.readiness_status')" "empty .env value wins"

echo 'export E2E_API_KEY="set"' >"$home/.env"
run_skillrt --home "$home" --json view api
assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "status with .env"
