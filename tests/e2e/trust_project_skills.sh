#!/usr/bin/env bash
# Project skills (.hermes/skills, .agents/skills of the git root) load only once
# the project is trusted; `trust` and `untrust` edit skills.trusted_project_dirs
# and keep the rest of config.yaml.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/shared-thing" shared-thing "A local skill"
cat >"$home/config.yaml" <<'YAML'
skills:
  disabled: [nothing-here]
model: keep-me
YAML
project="$E2E_TMP/project"
mkdir -p "$project/.git" "$project/src/deep"
make_skill "$project/.hermes/skills/build-it" build-it "How this repo builds"
make_skill "$project/.agents/skills/test-it" test-it "How this repo tests"
cd "$project/src/deep"

run_skillrt --home "$home" --json list
assert_exit 0
assert_eq '["shared-thing"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "untrusted project is not listed"
run_skillrt --home "$home" list
assert_contains "$RUN_ERR" "skillrt trust" "untrusted notice"

run_skillrt --home "$home" --json trust
assert_exit 0
assert_eq true "$(json_get "$RUN_OUT" '.trusted')" "trusted"
assert_eq true "$(json_get "$RUN_OUT" '.changed')" "changed"
grep -q 'keep-me' "$home/config.yaml" || fail "trust lost an unrelated config key"
grep -q 'nothing-here' "$home/config.yaml" || fail "trust lost skills.disabled"

run_skillrt --home "$home" --json list
assert_eq '["build-it","shared-thing","test-it"]' "$(json_get "$RUN_OUT" '[.skills[].name] | sort')" "trusted project listed"
assert_eq project "$(json_get "$RUN_OUT" '.skills[] | select(.name == "build-it") | .source')" "project source"

# Trusting twice changes nothing.
run_skillrt --home "$home" --json trust
assert_eq false "$(json_get "$RUN_OUT" '.changed')" "second trust"

# project_discovery: false switches the tier off even when trusted.
run_skillrt --home "$home" --json untrust
assert_exit 0
assert_eq false "$(json_get "$RUN_OUT" '.trusted')" "untrusted"
run_skillrt --home "$home" --json list
assert_eq '["shared-thing"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "untrusted again"
