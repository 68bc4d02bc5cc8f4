#!/usr/bin/env bash
# The ledger end to end: create and patch a skill, list the two entries,
# verify the chain, roll the patch back (the skill's bytes are the create's
# again and the rollback is an entry of its own), refuse a stale rollback,
# and catch an edited entry.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
printf -- '---\nname: deploy\ndescription: Deploys the app\n---\n# Steps\n\nDo the thing.\n' >"$E2E_TMP/skill.md"

run_skillrt --home "$home" --json create deploy --category devops --content "$E2E_TMP/skill.md"
assert_exit 0
cp "$home/skills/devops/deploy/SKILL.md" "$E2E_TMP/original.md"
run_skillrt --home "$home" --json patch deploy --old "Do the thing." --new "Do another thing."
assert_exit 0

run_skillrt --home "$home" --json ledger list
assert_exit 0
assert_json_object
assert_eq 2 "$(json_get "$RUN_OUT" '.entries | length')" "entries after create + patch"
assert_eq create "$(json_get "$RUN_OUT" '.entries[0].action')"
assert_eq patch "$(json_get "$RUN_OUT" '.entries[1].action')"
assert_eq user "$(json_get "$RUN_OUT" '.entries[1].actor')"
assert_eq devops/deploy "$(json_get "$RUN_OUT" '.entries[1].path')"
assert_eq null "$(json_get "$RUN_OUT" '.entries[0].before')"
assert_eq "$(json_get "$RUN_OUT" '.entries[0].hash')" "$(json_get "$RUN_OUT" '.entries[1].prev')" "the chain"
patch_id=$(json_get "$RUN_OUT" '.entries[1].id')

run_skillrt --home "$home" --json ledger verify
assert_exit 0
assert_eq true "$(json_get "$RUN_OUT" '.success')"
assert_eq 2 "$(json_get "$RUN_OUT" '.entries')"

run_skillrt --home "$home" ledger rollback "$patch_id"
assert_exit 0
assert_contains "$RUN_OUT" "Rolled back patch $patch_id"
cmp -s "$E2E_TMP/original.md" "$home/skills/devops/deploy/SKILL.md" || fail "SKILL.md is not the created content again"
assert_eq "" "$(find "$home/skills" -name '.skillrt-*')" "staging or backup folders left"

run_skillrt --home "$home" --json ledger list --skill deploy
assert_exit 0
assert_eq 3 "$(json_get "$RUN_OUT" '.entries | length')"
assert_eq rollback "$(json_get "$RUN_OUT" '.entries[2].action')"
assert_eq "$patch_id" "$(json_get "$RUN_OUT" '.entries[2].rolls_back')"
run_skillrt --home "$home" ledger list
assert_exit 0
assert_contains "$RUN_OUT" "rollback of $patch_id"
run_skillrt --home "$home" ledger verify
assert_exit 0
assert_contains "$RUN_OUT" "ledger intact: 3 entries"

# The patch is no longer what is on disk: rolling it back again is refused.
run_skillrt --home "$home" --json ledger rollback "$patch_id"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "changed since ledger entry $patch_id"

# A user's database skill: its writes go to the user's own ledger, and a
# rollback writes the row back through the store.
printf -- '---\nname: notes\ndescription: Notes\n---\nfirst version\n' >"$E2E_TMP/db1.md"
printf -- '---\nname: notes\ndescription: Notes\n---\nsecond version\n' >"$E2E_TMP/db2.md"
run_skillrt --home "$home" --user alice --json db create notes --content "$E2E_TMP/db1.md"
assert_exit 0
run_skillrt --home "$home" --user alice --json db update notes --content "$E2E_TMP/db2.md"
assert_exit 0
run_skillrt --home "$home" --user alice --json ledger list
assert_exit 0
assert_eq 2 "$(json_get "$RUN_OUT" '.entries | length')" "alice's ledger holds her entries only"
assert_eq database "$(json_get "$RUN_OUT" '.entries[1].layer')"
assert_eq db:notes "$(json_get "$RUN_OUT" '.entries[1].path')"
assert_eq alice "$(json_get "$RUN_OUT" '.entries[1].actor_id')"
db_id=$(json_get "$RUN_OUT" '.entries[1].id')
run_skillrt --home "$home" --user alice --json ledger rollback "$db_id"
assert_exit 0
run_skillrt --home "$home" --user alice --json db get notes
assert_eq "$(cat "$E2E_TMP/db1.md")" "$(json_get "$RUN_OUT" '.skill.content')" "the row's content after the rollback"
run_skillrt --home "$home" --user alice --json ledger verify
assert_exit 0
run_skillrt --home "$home" --json ledger list
assert_eq 3 "$(json_get "$RUN_OUT" '.entries | length')" "the shared ledger is untouched"

# An entry edited by hand is found, and verify fails.
sed -i '2s/"note":"SKILL.md"/"note":"README.md"/' "$home/ledger/entries.jsonl"
run_skillrt --home "$home" --json ledger verify
assert_exit 1
assert_eq edited "$(json_get "$RUN_OUT" '.problems[0].kind')"
assert_eq 2 "$(json_get "$RUN_OUT" '.problems[0].seq')"
