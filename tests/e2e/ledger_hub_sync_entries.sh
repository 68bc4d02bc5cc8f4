#!/usr/bin/env bash
# The hub and bundled sync record their changes too: install, update (a
# reinstall), uninstall with actor hub, a bundled copy and a restore with
# actor sync; the ledger's content hash of an install is lock.json's.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
src="$E2E_TMP/src/repo-main"
make_skill "$src" deploy "Deploy the app"

run_skillrt --home "$home" --json install "$src" --category devops
assert_exit 0
run_skillrt --home "$home" --json ledger list --skill deploy
assert_exit 0
assert_eq hub "$(json_get "$RUN_OUT" '.entries[0].actor')"
assert_eq install "$(json_get "$RUN_OUT" '.entries[0].action')"
assert_eq devops/deploy "$(json_get "$RUN_OUT" '.entries[0].path')"
assert_eq "$(jq -r '.installed.deploy.content_hash' "$home/skills/.hub/lock.json")" \
  "$(json_get "$RUN_OUT" '.entries[0].after.hash')" "the ledger's hash is the hub's content hash"

run_skillrt --home "$home" --json uninstall deploy
assert_exit 0
run_skillrt --home "$home" --json ledger list --skill deploy
assert_eq uninstall "$(json_get "$RUN_OUT" '.entries[1].action')"
assert_eq null "$(json_get "$RUN_OUT" '.entries[1].after')"
# The uninstall is rolled back like any change: the folder comes back.
run_skillrt --home "$home" --json ledger rollback "$(json_get "$RUN_OUT" '.entries[1].id')"
assert_exit 0
[[ -f "$home/skills/devops/deploy/SKILL.md" ]] || fail "the uninstalled skill was not restored"

bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"
run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
printf '\nA local edit.\n' >>"$home/skills/tools/alpha/SKILL.md"
run_skillrt --home "$home" --json reset alpha --restore --bundled "$bundled"
assert_exit 0
run_skillrt --home "$home" --json ledger list --skill alpha
assert_exit 0
assert_eq "sync sync" "$(json_get "$RUN_OUT" '[.entries[].actor] | join(" ")')"
assert_eq "sync reset" "$(json_get "$RUN_OUT" '[.entries[].action] | join(" ")')"
run_skillrt --home "$home" --json ledger verify
assert_exit 0
