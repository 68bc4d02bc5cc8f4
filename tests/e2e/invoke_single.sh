#!/usr/bin/env bash
# `invoke "/skill instruction"` prints the invocation message of spec §2.15
# rule 5: header, the skill content, its directory, config, supporting files,
# the instruction and the runtime note. Telegram spellings resolve too.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
dir="$home/skills/ops/deploy-app"
make_skill "$dir" deploy-app "Ships the app" "metadata:" "  hermes:" "    config:" \
  "      - key: deploy.region" "        description: Where to ship" "      - key: deploy.owner"
mkdir -p "$dir/scripts"
echo 'echo hi' >"$dir/scripts/ship.sh"
printf 'skills:\n  config:\n    deploy:\n      region: eu-west\n' >"$home/config.yaml"

expected=$(cat <<TEXT
[IMPORTANT: The user has invoked the "deploy-app" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]

$(cat "$dir/SKILL.md")

[Skill directory: $dir]
Relative paths in this skill are relative to that directory; run its scripts with the terminal tool by their absolute paths.

[Skill config (from $home/config.yaml):
  deploy.region = eu-west
  deploy.owner = (not set)
]

[This skill has supporting files (paths relative to the skill directory above):]
- scripts/ship.sh
Read one with skill_view(name="deploy-app", file_path="<path>"), or run a script by its absolute path.

The user has provided the following instruction alongside the skill invocation: ship build 7

[Runtime note: dry run only]
TEXT
)

run_skillrt --home "$home" invoke "/deploy_app ship build 7" --runtime-note "dry run only"
assert_exit 0
assert_eq "$expected" "$RUN_OUT" "message"

run_skillrt --home "$home" --json invoke /deploy-app ship build 7 --runtime-note "dry run only"
assert_exit 0
assert_json_object
assert_eq '["success","message","skills","missing"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq "$expected" "$(json_get "$RUN_OUT" '.message')" "JSON message"
assert_eq '["deploy-app"]' "$(json_get "$RUN_OUT" '.skills')" "skills"

run_skillrt --home "$home" --json invoke "/nothing here"
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "No skill command matches /nothing"

run_skillrt --home "$home" invoke "no slash"
assert_exit 2
