#!/usr/bin/env bash
# Inline shell snippets run only when skills.inline_shell is on, in the skill
# dir, and a slow one times out (spec §2.9 rule 3).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/shell" shell "Runs snippets"
printf 'Here: !`basename "$PWD"`\nSlow: !`sleep 20`\n' >>"$home/skills/shell/SKILL.md"

run_skillrt --home "$home" --json view shell
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" 'Here: !`basename "$PWD"`' "content with inline shell off"

printf 'skills:\n  inline_shell: true\n  inline_shell_timeout: 1\n' >"$home/config.yaml"
start=$(date +%s)
run_skillrt --home "$home" --json view shell
elapsed=$(( $(date +%s) - start ))
assert_exit 0
content=$(json_get "$RUN_OUT" '.content')
assert_contains "$content" "Here: shell" "snippet output"
assert_contains "$content" "Slow: [inline-shell timeout after 1s: sleep 20]" "timeout marker"
(( elapsed < 10 )) || fail "view took ${elapsed}s; the timeout did not stop the snippet"
