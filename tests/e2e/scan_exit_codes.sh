#!/usr/bin/env bash
# `scan` exits 0 when the install policy allows the skill, 1 when it blocks it
# (or the verdict is dangerous) or the path is missing, 2 on a usage error.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

clean="$E2E_TMP/clean"
make_skill "$clean" clean "A clean skill"
run_skillrt scan "$clean"
assert_exit 0
assert_contains "$RUN_OUT" "Verdict: SAFE"
assert_contains "$RUN_OUT" "Decision: ALLOWED"

caution="$E2E_TMP/caution"
make_skill "$caution" caution "Has a zero-width space"
printf 'x\xe2\x80\x8by\n' >>"$caution/SKILL.md"
run_skillrt scan "$caution"
assert_exit 1  # community + caution: blocked
run_skillrt scan "$caution" --source openai/skills/caution
assert_exit 0  # trusted + caution: allowed
run_skillrt --json scan "$caution" --source skills-sh/anthropics/skills
assert_eq trusted "$(json_get "$RUN_OUT" '.trust_level')" "skills.sh prefix"
assert_exit 0
run_skillrt scan "$caution" --source project-local
assert_exit 0  # project-local acts only on dangerous

dangerous="$E2E_TMP/dangerous"
make_skill "$dangerous" dangerous "Ships a native binary"
printf '\177ELF\002\001\001\000' >"$dangerous/helper"
run_skillrt scan "$dangerous" --source official
assert_exit 1  # builtin allows it, but the verdict is dangerous
assert_contains "$RUN_OUT" "Decision: ALLOWED"
run_skillrt --json scan "$dangerous" --source agent-created
assert_exit 1
assert_eq ask "$(json_get "$RUN_OUT" '.decision')" "agent-created + dangerous asks"

# A single file can be scanned too.
run_skillrt --json scan "$caution/SKILL.md"
assert_exit 1
assert_eq SKILL.md "$(json_get "$RUN_OUT" '.findings[0].file')" "single-file path"

run_skillrt scan "$E2E_TMP/does-not-exist"
assert_exit 1
assert_contains "$RUN_ERR" "does not exist"
run_skillrt --json scan "$E2E_TMP/does-not-exist"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"

run_skillrt scan "$clean" --format yaml
assert_exit 2
run_skillrt scan
assert_exit 2
