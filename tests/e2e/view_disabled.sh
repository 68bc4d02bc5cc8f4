#!/usr/bin/env bash
# skills.disabled (and platform_disabled for --platform) refuse a skill by its
# resolved name (spec §2.7 rule 14).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/dir-a" fancy "Named differently from its dir"
make_skill "$home/skills/chatty" chatty "Off on telegram"
printf 'skills:\n  disabled: [fancy]\n  platform_disabled:\n    telegram: [chatty]\n' >"$home/config.yaml"

run_skillrt --home "$home" --json view dir-a
assert_exit 1
assert_eq "Skill 'fancy' is disabled. Enable it with \`hermes skills\` or inspect the files directly on disk." \
  "$(json_get "$RUN_OUT" '.error')" "error"

run_skillrt --home "$home" --json view chatty
assert_exit 0
run_skillrt --home "$home" --platform telegram --json view chatty
assert_exit 1
