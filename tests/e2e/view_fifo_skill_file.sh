#!/usr/bin/env bash
# A FIFO named SKILL.md (or served with --file) never hangs the view: it is not
# a regular file, so it is simply not a skill / not a file.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
mkdir -p "$home/skills/pipe"
mkfifo "$home/skills/pipe/SKILL.md"
run_skillrt --home "$home" --json view pipe
assert_exit 1
assert_json_object

make_skill "$home/skills/ok" ok "Has a FIFO beside it"
mkfifo "$home/skills/ok/stream.md"
run_skillrt --home "$home" --json view ok --file stream.md
assert_exit 1
assert_eq "File 'stream.md' not found in skill 'ok'." "$(json_get "$RUN_OUT" '.error')" "error"
