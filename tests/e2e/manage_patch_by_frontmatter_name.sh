#!/usr/bin/env bash
# A skill whose folder name differs from its frontmatter name is patched by the
# name list shows (Hermes' manage only knew folder names: spec §5.1 item 1).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/misc/folder-name" advertised "Listed under its frontmatter name"

run_skillrt --home "$home" --json list
assert_eq '["advertised"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "list shows the frontmatter name"

run_skillrt --home "$home" --json patch advertised --old "Steps for" --new "Stages for"
assert_exit 0
assert_eq "Patched SKILL.md in skill 'advertised' (1 replacement)." "$(json_get "$RUN_OUT" '.message')" "message"
assert_contains "$(cat "$home/skills/misc/folder-name/SKILL.md")" "Stages for"

# The folder name and the categorized path work too.
run_skillrt --home "$home" --json patch folder-name --old "Stages for" --new "Phases for"
assert_exit 0
run_skillrt --home "$home" --json patch misc/folder-name --old "Phases for" --new "Steps for"
assert_exit 0
