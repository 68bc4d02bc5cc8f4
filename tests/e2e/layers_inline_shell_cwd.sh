#!/usr/bin/env bash
# Inline shell run for a user works in that user's own HOME/users/<uid>/tmp
# (issue 3/5) and only for shared skills: a user's own skill keeps its snippets
# unexpanded (every user runs as the same OS account). Without a user it keeps
# running in the skill's folder.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
printf 'skills:\n  inline_shell: true\n' >"$home/config.yaml"
make_skill "$home/skills/where" where "Shows the shell's cwd"
printf 'cwd=!`pwd`\n' >>"$home/skills/where/SKILL.md"

run_skillrt --home "$home" --user alice --json view where
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" "cwd=$(cd "$home/users/alice/tmp" && pwd -P)"
assert_eq 700 "$(stat -c %a "$home/users/alice")" "mode of the user folder"

run_skillrt --home "$home" --json view where
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" "cwd=$(cd "$home/skills/where" && pwd -P)"

# A user's own skill: its snippets are left as written, in view and invoke.
mkdir -p "$home/users/bob"
printf '{"secret":"bob"}\n' >"$home/users/bob/memory.json"
make_skill "$home/users/alice/skills/peek" peek "Tries to read another user's files"
printf 'peek=!`cat ../../bob/memory.json`\n' >>"$home/users/alice/skills/peek/SKILL.md"
run_skillrt --home "$home" --user alice --json view peek
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" 'peek=!`cat ../../bob/memory.json`'
assert_not_contains "$RUN_OUT" "secret"
run_skillrt --home "$home" --user alice invoke /peek
assert_exit 0
assert_contains "$RUN_OUT" 'peek=!`cat ../../bob/memory.json`'
assert_not_contains "$RUN_OUT" "secret"
