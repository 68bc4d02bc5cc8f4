#!/usr/bin/env bash
# `--json scan DIR` (and `scan DIR --format json`) print one object with the
# guard's keys in order, every finding with its position, and the decision.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

skill="$E2E_TMP/shaper"
make_skill "$skill" shaper "Shapes things"
printf 'fine\nzero\xe2\x80\x8bwidth here\n' >"$skill/notes.md"

run_skillrt --json scan "$skill"
assert_json_object
assert_eq '["success","verdict","trust_level","decision","reason","summary","content_hash","scanned_at","scanner_version","findings","dismissed","skill_name","source","files_scanned","bytes_scanned","rules"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq caution "$(json_get "$RUN_OUT" '.verdict')" "verdict"
assert_eq community "$(json_get "$RUN_OUT" '.trust_level')" "trust_level"
assert_eq block "$(json_get "$RUN_OUT" '.decision')" "decision"
assert_exit 1
assert_eq '["pattern_id","severity","category","file","line","column","match","description"]' \
  "$(json_get "$RUN_OUT" '.findings[0] | keys_unsorted')" "finding keys"
assert_eq '{"pattern_id":"invisible_unicode","severity":"high","category":"injection","file":"notes.md","line":2,"column":5,"match":"U+200B (zero width space)"}' \
  "$(json_get "$RUN_OUT" '.findings[0] | del(.description)')" "finding"
[[ "$(json_get "$RUN_OUT" '.content_hash')" =~ ^sha256:[0-9a-f]{16}$ ]] || fail "content_hash format"
[[ "$(json_get "$RUN_OUT" '.scanned_at')" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]] || fail "scanned_at format"
assert_eq "shaper: caution — 1 finding(s) in injection" "$(json_get "$RUN_OUT" '.summary')" "summary"

# --format json is the same document.
first=$(json_get "$RUN_OUT" 'del(.scanned_at)')
run_skillrt scan "$skill" --format json
assert_json_object
assert_eq "$first" "$(json_get "$RUN_OUT" 'del(.scanned_at)')" "--format json equals --json"

# The text report: header, one row, decision.
run_skillrt scan "$skill"
assert_exit 1
assert_contains "$RUN_OUT" "Scan: shaper (community/community)  Verdict: CAUTION"
assert_contains "$RUN_OUT" '  HIGH     injection      notes.md:2                     "U+200B (zero width space)"'
assert_contains "$RUN_OUT" "Decision: BLOCKED — Blocked (community source + caution verdict, 1 findings). Use --force to override."

# The content hash is the same for a byte-identical copy elsewhere.
cp -r "$skill" "$E2E_TMP/copy"
run_skillrt --json scan "$E2E_TMP/copy"
assert_eq "$(json_get "$first" '.content_hash')" "$(json_get "$RUN_OUT" '.content_hash')" "content hash of a copy"
