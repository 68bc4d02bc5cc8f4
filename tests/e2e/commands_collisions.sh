#!/usr/bin/env bash
# `commands` registers each skill as /<slug>: a slug equal to a built-in
# command is not registered, a slug already taken keeps its first skill, and
# both come with a warning (stderr in text mode, `warnings` in JSON).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/a/deploy-app" "Deploy App" "First deployer"
make_skill "$home/skills/b/deploy_app2" "deploy-app" "Second deployer"
make_skill "$home/skills/help" help "Wants to be /help"
make_skill "$home/skills/novel" "小说拆条" "Splits a novel"
make_skill "$home/skills/journal" journal ""

run_skillrt --home "$home" --json commands
assert_exit 0
assert_json_object
assert_eq '["success","commands","warnings"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq '["/deploy-app","/journal","/小说拆条"]' "$(json_get "$RUN_OUT" '[.commands[].command]')" "commands"
assert_eq "First deployer" "$(json_get "$RUN_OUT" '.commands[0].description')" "first wins"
assert_eq "Deploy App" "$(json_get "$RUN_OUT" '.commands[0].name')" "name"
assert_eq "$home/skills/a/deploy-app/SKILL.md" "$(json_get "$RUN_OUT" '.commands[0].skill_md')" "skill_md"
assert_eq "$home/skills/a/deploy-app" "$(json_get "$RUN_OUT" '.commands[0].skill_dir')" "skill_dir"
assert_eq "Steps for the end-to-end test skill." "$(json_get "$RUN_OUT" '.commands[1].description')" \
  "body-line description"
assert_eq 2 "$(json_get "$RUN_OUT" '.warnings | length')" "warnings"
assert_contains "$(json_get "$RUN_OUT" '.warnings[]')" "/help: that is a built-in command"
assert_contains "$(json_get "$RUN_OUT" '.warnings[]')" "already used by skill 'Deploy App'"

run_skillrt --home "$home" commands
assert_exit 0
assert_contains "$RUN_OUT" "/deploy-app  First deployer"
assert_contains "$RUN_ERR" "warning: skill 'help' is not registered as /help"
