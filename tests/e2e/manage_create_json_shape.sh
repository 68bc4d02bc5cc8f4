#!/usr/bin/env bash
# `--json create NAME --category C --content FILE` prints Hermes' create result
# (spec §2.10 rule 11) in Hermes' key order; the skill is listed and viewable.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
cat >"$E2E_TMP/skill.md" <<'MD'
---
name: shaper
description: Shapes JSON documents for the team
---
# Shaper

Run jq on the input.
MD

run_skillrt --home "$home" --json create shaper --category tools --content "$E2E_TMP/skill.md"
assert_exit 0
assert_json_object
assert_eq '["success","message","path","skill_md","_change","category","hint"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq "Skill 'shaper' created." "$(json_get "$RUN_OUT" '.message')" "message"
assert_eq "tools/shaper" "$(json_get "$RUN_OUT" '.path')" "path"
assert_eq "$home/skills/tools/shaper/SKILL.md" "$(json_get "$RUN_OUT" '.skill_md')" "skill_md"
assert_eq "Shapes JSON documents for the team" "$(json_get "$RUN_OUT" '._change.description')" "_change"
assert_eq tools "$(json_get "$RUN_OUT" '.category')" "category"
cmp -s "$E2E_TMP/skill.md" "$home/skills/tools/shaper/SKILL.md" || fail "SKILL.md differs from the content given"
# Only the skill folder: no staging folder left beside it.
assert_eq "shaper" "$(ls -A "$home/skills/tools")" "category folder entries"

run_skillrt --home "$home" --json view shaper
assert_exit 0
assert_eq "tools/shaper/SKILL.md" "$(json_get "$RUN_OUT" '.path')" "view finds the new skill"

# Content from stdin, human output = the message.
sed 's/shaper/stdin-skill/' "$E2E_TMP/skill.md" >"$E2E_TMP/stdin.md"
RUN_CODE=0
out=$("$SKILLRT_BIN" --home "$home" create stdin-skill --content - <"$E2E_TMP/stdin.md") || RUN_CODE=$?
assert_eq 0 "$RUN_CODE" "exit code of create from stdin"
assert_eq "Skill 'stdin-skill' created." "$out" "human output"

# Usage errors exit 2: no --content, unreadable content file.
run_skillrt --home "$home" --json create x
assert_exit 2
run_skillrt --home "$home" --json create x --content "$E2E_TMP/missing.md"
assert_exit 2
assert_json_object
