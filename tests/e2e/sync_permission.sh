#!/usr/bin/env bash
# sync and reset write the shared layer: a --user outside the owner org is
# refused before anything is written; the owner org may sync.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home="$E2E_TMP/home"
bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"

run_skillrt --home "$home" --user bob --org 5 --json sync --bundled "$bundled"
assert_exit 1
assert_json_object
assert_eq refused "$(json_get "$RUN_OUT" '.code')" "error code"
[[ ! -e "$home/skills" ]] || fail "a refused sync created HOME/skills"

run_skillrt --home "$home" --user bob --org 5 --json reset alpha --restore --bundled "$bundled"
assert_exit 1
assert_eq refused "$(json_get "$RUN_OUT" '.code')" "reset error code"

run_skillrt --home "$home" --user admin --org 0 --json sync --bundled "$bundled"
assert_exit 0
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '.copied')" "owner org sync"
[[ -f "$home/skills/tools/alpha/SKILL.md" ]] || fail "owner-org sync did not write the shared layer"
[[ ! -e "$home/users/admin/skills/tools" ]] || fail "sync wrote into the user's own layer"
