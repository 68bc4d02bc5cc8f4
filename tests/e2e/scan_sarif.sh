#!/usr/bin/env bash
# `scan --format sarif` prints a SARIF 2.1.0 log whose required fields a
# code-scanning upload needs; dismissed findings are suppressed results.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

skill="$E2E_TMP/sarif-skill"
make_skill "$skill" sarif-skill "SARIF test"
mkdir -p "$skill/lib" "$skill/references"
printf 'MZ not really\n' >"$skill/lib/tool.dll"
printf 'a\xe2\x80\x8bb\n' >"$skill/references/my notes.md"
printf 'doc\n' >"$skill/references/run.md"
chmod +x "$skill/references/run.md"
cat >"$skill/.skillrt-guard.yaml" <<'YAML'
dismiss:
  - id: unexpected_executable
    file: references/run.md
    reason: the bit comes from the archive; harmless
YAML

run_skillrt scan "$skill" --format sarif
assert_exit 1
assert_json_object
sarif=$RUN_OUT
assert_eq "2.1.0" "$(json_get "$sarif" '.version')" "version"
assert_eq "https://json.schemastore.org/sarif-2.1.0.json" "$(json_get "$sarif" '."$schema"')" "schema"
assert_eq 1 "$(json_get "$sarif" '.runs | length')" "runs"
assert_eq skillrt-guard "$(json_get "$sarif" '.runs[0].tool.driver.name')" "driver name"
[[ -n "$(json_get "$sarif" '.runs[0].tool.driver.version')" ]] || fail "driver version"
# No informationUri: the project has no public address yet, and SARIF does not require one.
assert_eq null "$(json_get "$sarif" '.runs[0].tool.driver.informationUri')" "informationUri"

# Every rule: id, shortDescription.text, a valid default level, a category.
assert_eq true "$(json_get "$sarif" '[.runs[0].tool.driver.rules[] |
  (.id | type == "string") and (.shortDescription.text | type == "string") and
  (.defaultConfiguration.level | IN("error","warning","note")) and (.properties.category | type == "string")] | all')" "rule fields"
# Every result: a known ruleId with a matching ruleIndex, level, message, a relative location.
assert_eq true "$(json_get "$sarif" '.runs[0] as $run | [$run.results[] |
  (.ruleId == $run.tool.driver.rules[.ruleIndex].id) and (.level | IN("error","warning","note")) and
  (.message.text | length > 0) and
  (.locations[0].physicalLocation.artifactLocation.uri | startswith("/") | not) and
  (.partialFingerprints | length > 0)] | all')" "result fields"

assert_eq error "$(json_get "$sarif" '.runs[0].results[] | select(.ruleId == "binary_file") | .level')" "critical → error"
assert_eq "lib/tool.dll" "$(json_get "$sarif" '.runs[0].results[] | select(.ruleId == "binary_file") | .locations[0].physicalLocation.artifactLocation.uri')" "uri"
note=$(json_get "$sarif" '.runs[0].results[] | select(.ruleId == "invisible_unicode")')
assert_eq "references/my%20notes.md" "$(json_get "$note" '.locations[0].physicalLocation.artifactLocation.uri')" "encoded uri"
assert_eq 1 "$(json_get "$note" '.locations[0].physicalLocation.region.startLine')" "startLine"
assert_eq 2 "$(json_get "$note" '.locations[0].physicalLocation.region.startColumn')" "startColumn"
assert_eq null "$(json_get "$note" '.suppressions')" "an active result has no suppressions"

suppressed=$(json_get "$sarif" '.runs[0].results[] | select(.ruleId == "unexpected_executable")')
assert_eq warning "$(json_get "$suppressed" '.level')" "medium → warning"
assert_eq external "$(json_get "$suppressed" '.suppressions[0].kind')" "suppression kind"
assert_contains "$(json_get "$suppressed" '.suppressions[0].justification')" "harmless"
