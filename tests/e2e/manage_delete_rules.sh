#!/usr/bin/env bash
# delete (spec §2.10 rule 14): symlinked skill folders and roots are refused,
# absorbed_into must name another existing skill, an emptied category folder
# goes (never the root), and no trash folder is left behind.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/cat/one" one "One"
make_skill "$home/skills/two" two "Two"
make_skill "$E2E_TMP/real/linked" linked "Linked"
# A link into another configured root: discovery follows it, delete does not.
ln -s "$E2E_TMP/real/linked" "$home/skills/linked"
# An external root that is itself a skill folder.
make_skill "$E2E_TMP/rootskill" rootskill "Root"
printf 'skills:\n  external_dirs: ["%s", "%s"]\n' "$E2E_TMP/rootskill" "$E2E_TMP/real" >"$home/config.yaml"

run_skillrt --home "$home" --json delete linked
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "is a symlink"
[[ -f "$E2E_TMP/real/linked/SKILL.md" ]] || fail "the symlink target was touched"

run_skillrt --home "$home" --json delete rootskill
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "skills root"
[[ -f "$E2E_TMP/rootskill/SKILL.md" ]] || fail "a root was deleted"

run_skillrt --home "$home" --json delete one --absorbed-into one
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "cannot equal the skill being deleted"
run_skillrt --home "$home" --json delete one --absorbed-into nowhere
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "absorbed_into='nowhere' does not exist"
[[ -f "$home/skills/cat/one/SKILL.md" ]] || fail "a refused delete removed the skill"

run_skillrt --home "$home" --json delete one --absorbed-into two
assert_exit 0
assert_json_object
assert_eq "Skill 'one' deleted. Content absorbed into 'two'." "$(json_get "$RUN_OUT" '.message')" "message"
[[ ! -e "$home/skills/cat" ]] || fail "the emptied category folder was kept"

run_skillrt --home "$home" --json delete two --absorbed-into ""
assert_exit 0
assert_eq "Skill 'two' deleted." "$(json_get "$RUN_OUT" '.message')" "prune message"
[[ -d "$home/skills" ]] || fail "the skills root was removed"
assert_eq "linked" "$(ls -A "$home/skills")" "only the refused symlink remains (no trash folders)"

run_skillrt --home "$home" --json delete two
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "not found"
