#!/usr/bin/env bash
# Dismissals: a skill's own .skillrt-guard.yaml sets aside findings below
# critical (never its own critical ones); an operator file given with
# --dismissals may dismiss anything for the sources it names; a malformed
# file is a finding and dismisses nothing.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

skill="$E2E_TMP/dismiss-me"
make_skill "$skill" dismiss-me "Dismissal test"
mkdir -p "$skill/lib"
printf 'x\n' >"$skill/lib/helper.so"
printf 'a\xe2\x80\x8bb\n' >"$skill/notes.md"
cat >"$skill/.skillrt-guard.yaml" <<'YAML'
dismiss:
  - id: invisible_unicode
    file: notes.md
    line: 1
    reason: a test fixture for zero-width characters
  - id: binary_file
    reason: trust me
YAML

run_skillrt --json scan "$skill"
assert_exit 1
assert_eq dangerous "$(json_get "$RUN_OUT" '.verdict')" "own file cannot clear a critical finding"
assert_eq '["invisible_unicode"]' "$(json_get "$RUN_OUT" '[.dismissed[].pattern_id]')" "dismissed ids"
assert_eq ".skillrt-guard.yaml" "$(json_get "$RUN_OUT" '.dismissed[0].dismissed_by')" "dismissed_by"
assert_eq "a test fixture for zero-width characters" "$(json_get "$RUN_OUT" '.dismissed[0].reason')" "reason"
assert_contains "$(json_get "$RUN_OUT" '.findings[] | select(.pattern_id == "binary_file") | .description')" "dismissal refused"

# The text report shows the dismissed finding under its own heading.
run_skillrt scan "$skill"
assert_contains "$RUN_OUT" "Dismissed:"
assert_contains "$RUN_OUT" "reason: a test fixture for zero-width characters (.skillrt-guard.yaml)"

# An operator file for this source clears the critical finding.
cat >"$E2E_TMP/acme.yaml" <<'YAML'
source: acme/skills
dismiss:
  - id: binary_file
    file: lib/*.so
    reason: vendored library, reviewed 2026-11
YAML
run_skillrt --json scan "$skill" --source acme/skills/dismiss-me --dismissals "$E2E_TMP/acme.yaml"
assert_exit 0
assert_eq safe "$(json_get "$RUN_OUT" '.verdict')" "verdict with the operator file"
assert_eq allow "$(json_get "$RUN_OUT" '.decision')" "decision"
assert_eq "$E2E_TMP/acme.yaml" "$(json_get "$RUN_OUT" '.dismissed[] | select(.pattern_id == "binary_file") | .dismissed_by')" "operator dismissed_by"

# ... but not for another source.
run_skillrt --json scan "$skill" --source someone/else --dismissals "$E2E_TMP/acme.yaml"
assert_exit 1
assert_eq dangerous "$(json_get "$RUN_OUT" '.verdict')" "operator file scoped to its source"

# A malformed own file is a medium finding and dismisses nothing.
printf 'dismiss:\n  - id: invisible_unicode\n' >"$skill/.skillrt-guard.yaml"
rm "$skill/lib/helper.so"
run_skillrt --json scan "$skill"
assert_eq '[]' "$(json_get "$RUN_OUT" '.dismissed')" "nothing dismissed"
assert_eq medium "$(json_get "$RUN_OUT" '.findings[] | select(.pattern_id == "malformed_dismissals") | .severity')" "malformed file finding"
assert_eq caution "$(json_get "$RUN_OUT" '.verdict')" "verdict"
