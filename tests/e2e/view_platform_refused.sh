#!/usr/bin/env bash
# A skill whose `platforms:` excludes this OS is refused as unsupported
# (spec §2.7 rule 13); --os selects the OS.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/winonly" winonly "Windows only" "platforms: [windows]"

run_skillrt --home "$home" --os linux --json view winonly
assert_exit 1
assert_eq "Skill 'winonly' is not supported on this platform." "$(json_get "$RUN_OUT" '.error')" "error"
assert_eq unsupported "$(json_get "$RUN_OUT" '.readiness_status')" "readiness_status"

run_skillrt --home "$home" --os win32 --json view winonly
assert_exit 0
