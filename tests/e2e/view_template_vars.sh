#!/usr/bin/env bash
# ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID} are substituted; tokens without a
# value stay verbatim (spec §2.9 rule 2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/tmpl" tmpl "Uses template vars"
printf 'dir=${HERMES_SKILL_DIR}\nsid=${HERMES_SESSION_ID}\nkey=${HERMES_SESSION_KEY}\n' >>"$home/skills/tmpl/SKILL.md"

run_skillrt --home "$home" --json view tmpl
content=$(json_get "$RUN_OUT" '.content')
assert_contains "$content" "dir=$home/skills/tmpl" "skill dir"
assert_contains "$content" 'sid=${HERMES_SESSION_ID}' "session id without --session"
assert_contains "$content" 'key=${HERMES_SESSION_KEY}' "session key"

run_skillrt --home "$home" --session s-123 --json view tmpl
assert_contains "$(json_get "$RUN_OUT" '.content')" "sid=s-123" "session id"
