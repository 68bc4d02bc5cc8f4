#!/usr/bin/env bash
# `--json view NAME` prints one object with Hermes' skill_view keys in Hermes'
# order (spec §2.7 rule 16), then our `source`; exit 0.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/tools/shaper" shaper "Shapes things" "compatibility: Needs jq" \
  "metadata:" "  hermes:" "    tags: [json, test]"
mkdir -p "$home/skills/tools/shaper/references"
echo "# API" >"$home/skills/tools/shaper/references/api.md"

run_skillrt --home "$home" --json view shaper
assert_exit 0
assert_json_object
assert_eq '["success","name","description","tags","related_skills","content","path","skill_dir","org_provenance","linked_files","usage_hint","required_environment_variables","required_commands","missing_required_environment_variables","missing_credential_files","missing_required_commands","setup_needed","setup_skipped","readiness_status","_source_path","compatibility","metadata","source","provenance"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order (Hermes' keys, then the CLI's provenance)"
assert_eq shaper "$(json_get "$RUN_OUT" '.name')" "name"
assert_eq "tools/shaper/SKILL.md" "$(json_get "$RUN_OUT" '.path')" "path"
assert_eq "$home/skills/tools/shaper" "$(json_get "$RUN_OUT" '.skill_dir')" "skill_dir"
assert_eq '["json","test"]' "$(json_get "$RUN_OUT" '.tags')" "tags"
assert_eq '{"references":["references/api.md"]}' "$(json_get "$RUN_OUT" '.linked_files')" "linked_files"
assert_eq available "$(json_get "$RUN_OUT" '.readiness_status')" "readiness_status"
assert_eq local "$(json_get "$RUN_OUT" '.source')" "source"
content=$(json_get "$RUN_OUT" '.content')
assert_eq "---" "${content:0:3}" "content starts with the frontmatter"

# Without --json the content itself is printed.
run_skillrt --home "$home" view tools/shaper
assert_exit 0
assert_contains "$RUN_OUT" "Steps for the end-to-end test skill."
