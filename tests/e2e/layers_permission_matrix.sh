#!/usr/bin/env bash
# The file-layer permission matrix through the CLI (issue 3/5): shared writes
# need --org 0 and --source shared, refused with the bilingual text otherwise;
# a user's writes land in HOME/users/<uid>/skills; another user can neither
# see, edit nor delete them; single-user mode writes shared skills as before.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/deploy" deploy "Shared deploy"
content="$E2E_TMP/skill.md"
write_content() {  # NAME DESCRIPTION
  printf -- '---\nname: %s\ndescription: %s\n---\nBody of %s.\n' "$1" "$2" "$1" >"$content"
}
refusal="共享技能仅允许所有者机构用户修改 (shared skills can only be modified by users of the owner organisation)"

# --- shared layer, other org: every write is refused, nothing changes ----------
write_content deploy "Hacked"
for args in "create deploy --content $content --source shared" \
            "create newone --content $content --source shared" \
            "edit deploy --content $content --source shared" \
            "patch deploy --old Shared --new Hacked --source shared" \
            "write-file deploy references/x.md --content $content --source shared" \
            "remove-file deploy references/x.md --source shared" \
            "delete deploy --source shared"; do
  # shellcheck disable=SC2086
  run_skillrt --home "$home" --user bob --org acme --json $args
  assert_exit 1
  assert_json_object
  assert_eq false "$(json_get "$RUN_OUT" '.success')" "success of: $args"
  assert_eq "$refusal" "$(json_get "$RUN_OUT" '.error')" "error of: $args"
done
# Without --org the same (not the owner org); in text mode both languages show.
run_skillrt --home "$home" --user bob delete deploy --source shared
assert_exit 1
assert_contains "$RUN_ERR" "共享技能仅允许所有者机构用户修改"
assert_contains "$RUN_ERR" "owner organisation"
assert_contains "$(cat "$home/skills/deploy/SKILL.md")" "Shared deploy" "shared skill after refused writes"
[[ ! -e "$home/skills/newone" ]] || fail "a refused shared create left a folder"

# --- shared layer, owner org with --source shared: allowed ----------------------
write_content deploy "Owner edit"
run_skillrt --home "$home" --user root --org 0 --json edit deploy --content "$content" --source shared
assert_exit 0
assert_contains "$(cat "$home/skills/deploy/SKILL.md")" "Owner edit"
write_content common "Created by the owner org"
run_skillrt --home "$home" --user root --org 0 --json create common --content "$content" --source shared
assert_exit 0
[[ -f "$home/skills/common/SKILL.md" ]] || fail "owner-org shared create did not land in HOME/skills"
[[ ! -e "$home/users/root/skills/common" ]] || fail "a shared create landed in the user layer"
# Owner org without --source shared writes its own layer, not the shared one.
write_content deploy "Root private"
run_skillrt --home "$home" --user root --org 0 --json edit deploy --content "$content"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "not found"
assert_contains "$(cat "$home/skills/deploy/SKILL.md")" "Owner edit"

# --- user layer: writes land in the user's own folder ---------------------------
write_content notes "Alice notes"
run_skillrt --home "$home" --user alice --org acme --json create notes --content "$content" --category personal
assert_exit 0
assert_json_object
assert_eq "$home/users/alice/skills/personal/notes/SKILL.md" "$(json_get "$RUN_OUT" '.skill_md')" "skill_md"
[[ ! -e "$home/skills/personal" ]] || fail "a user create touched the shared layer"
mode=$(stat -c %a "$home/users/alice")
assert_eq 700 "$mode" "mode of the user folder"
run_skillrt --home "$home" --user alice --org acme --json patch notes --old "Alice notes" --new "Alice notes v2"
assert_exit 0
write_content notes "x"
run_skillrt --home "$home" --user alice --json write-file notes references/a.md --content "$content"
assert_exit 0
[[ -f "$home/users/alice/skills/personal/notes/references/a.md" ]] || fail "write-file missed the user layer"
run_skillrt --home "$home" --user alice --json remove-file notes references/a.md
assert_exit 0
# --source user is the explicit spelling of the default.
run_skillrt --home "$home" --user alice --json patch notes --old v2 --new v3 --source user
assert_exit 0

# --- another user: cannot see, edit or delete alice's skill ----------------------
for org in acme 0; do
  run_skillrt --home "$home" --user bob --org "$org" --json list
  assert_exit 0
  assert_not_contains "$RUN_OUT" "notes" "bob's list (org $org)"
  run_skillrt --home "$home" --user bob --org "$org" --json view notes
  assert_exit 1
  run_skillrt --home "$home" --user bob --org "$org" --json view personal/notes
  assert_exit 1
  run_skillrt --home "$home" --user bob --org "$org" --json edit notes --content "$content"
  assert_exit 1
  run_skillrt --home "$home" --user bob --org "$org" --json patch notes --old v3 --new hacked
  assert_exit 1
  run_skillrt --home "$home" --user bob --org "$org" --json delete notes
  assert_exit 1
  run_skillrt --home "$home" --user bob --org "$org" --json delete notes --source shared
  assert_exit 1
done
# Single-user mode does not see per-user skills either.
run_skillrt --home "$home" --json view notes
assert_exit 1
assert_contains "$(cat "$home/users/alice/skills/personal/notes/SKILL.md")" "Alice notes v3"

# --- --source user without a user is refused; single-user writes stay shared ----
run_skillrt --home "$home" --json delete common --source user
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "need a user"
write_content solo "Single-user"
run_skillrt --home "$home" --json create solo --content "$content"
assert_exit 0
[[ -f "$home/skills/solo/SKILL.md" ]] || fail "single-user create did not land in HOME/skills"
run_skillrt --home "$home" --json create other --content "$content" --source bogus
assert_exit 2

# --- alice deletes her own skill --------------------------------------------------
run_skillrt --home "$home" --user alice --json delete notes
assert_exit 0
[[ ! -e "$home/users/alice/skills/personal" ]] || fail "delete left the category folder"
[[ -d "$home/users/alice/skills" ]] || fail "delete removed the user's skills root"

# --- trust/untrust edit global config: with a user, owner org only ---------------
project="$E2E_TMP/project"
mkdir -p "$project/.git"
for verb in trust untrust; do
  run_skillrt --home "$home" --user bob --org acme --json "$verb" "$project"
  assert_exit 1
  assert_json_object
  assert_eq false "$(json_get "$RUN_OUT" '.success')" "success of $verb by another org"
  assert_eq "$refusal" "$(json_get "$RUN_OUT" '.error')" "error of $verb by another org"
done
assert_not_contains "$(cat "$home/config.yaml" 2>/dev/null)" "$project" "config after refused trust"
run_skillrt --home "$home" --user root --org 0 --json trust "$project"
assert_exit 0
assert_eq true "$(json_get "$RUN_OUT" '.trusted')" "owner-org trust"
run_skillrt --home "$home" --json untrust "$project"
assert_exit 0
assert_eq true "$(json_get "$RUN_OUT" '.changed')" "single-user untrust"
