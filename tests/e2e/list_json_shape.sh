#!/usr/bin/env bash
# `--json list` prints exactly one JSON object with Hermes' skills_list fields
# (spec §2.6 rule 4) plus our path and source for each skill.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/tools/json-shaper" json-shaper "Shapes JSON \"nicely\": with quotes and colons" \
  "version: 1.0.0" "metadata:" "  hermes:" "    tags: [json, test]"
make_skill "$home/skills/plain" plain "A skill without a category"

run_skillrt --home "$home" --json list
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.success')" "success"
assert_eq 2 "$(json_get "$RUN_OUT" '.count')" "count"
assert_eq '["tools"]' "$(json_get "$RUN_OUT" '.categories')" "categories"
assert_eq "Use skill_view(name) to see full content, tags, and linked files" \
  "$(json_get "$RUN_OUT" '.hint')" "hint"
for key in success skills categories count hint; do
  assert_eq true "$(json_get "$RUN_OUT" "has(\"$key\")")" "top-level key $key"
done
assert_eq number "$(json_get "$RUN_OUT" '.count | type')" "type of count"

# Every entry carries name, description, category, path and source, typed.
assert_eq '[]' "$(json_get "$RUN_OUT" '[.skills[] | select(
    (.name | type) != "string" or (.description | type) != "string" or
    ((.category | type) != "string" and .category != null) or
    (.path | type) != "string" or (.source | type) != "string" or .source == "")]')" \
  "entries with a missing or mistyped field"

entry=$(json_get "$RUN_OUT" '.skills[] | select(.name == "json-shaper")')
assert_eq 'Shapes JSON "nicely": with quotes and colons' "$(json_get "$entry" '.description')" "description"
assert_eq tools "$(json_get "$entry" '.category')" "category"
path=$(json_get "$entry" '.path')
assert_contains "$path" "$home/skills/tools/json-shaper" "path"
[[ -e "$path" ]] || fail "path does not exist: $path"
assert_eq null "$(json_get "$RUN_OUT" '.skills[] | select(.name == "plain") | .category')" "category of plain"

# Listing never reports readiness (spec §2.6 rule 5).
assert_eq '[]' "$(json_get "$RUN_OUT" '[.skills[] | select(has("readiness_status"))]')" "readiness fields"
