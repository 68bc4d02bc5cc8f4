#!/usr/bin/env bash
# install from a git repository made here (file://), then check / update /
# audit against new commits: revision recorded, update_available after a
# commit, update shows a unified diff, a locally modified skill is skipped
# unless --force, #ref pins a tag.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v git >/dev/null 2>&1 || skip "git is not installed"

home=$(make_home)
repo="$E2E_TMP/repo"
mkdir -p "$repo/skills"
make_skill "$repo/skills/gitskill" gitskill "Skill from git"
git_in() { git -C "$repo" -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
git_in init -q
git_in add -A
git_in commit -qm v1
git_in tag v1
first=$(git -C "$repo" rev-parse HEAD)

run_skillrt --home "$home" --json install --category . "file://$repo//skills"
assert_exit 0
assert_json_object
assert_eq git "$(jq -r '.installed.gitskill.source' "$home/skills/.hub/lock.json")"
assert_eq "$first" "$(jq -r '.installed.gitskill.revision' "$home/skills/.hub/lock.json")"
[[ ! -e "$home/skills/gitskill/.git" ]] || fail ".git must not be installed"

run_skillrt --home "$home" --json check
assert_exit 0
assert_eq up_to_date "$(json_get "$RUN_OUT" '.skills[0].status')"

echo "A new step." >>"$repo/skills/gitskill/SKILL.md"
git_in commit -qam v2
run_skillrt --home "$home" --json check gitskill
assert_eq update_available "$(json_get "$RUN_OUT" '.skills[0].status')"

run_skillrt --home "$home" update --dry-run
assert_exit 0
assert_contains "$RUN_OUT" "would_update"
assert_contains "$RUN_OUT" "+A new step."
assert_not_contains "$(cat "$home/skills/gitskill/SKILL.md")" "A new step."

# Local edit: skipped, then forced.
echo "my local line" >>"$home/skills/gitskill/SKILL.md"
run_skillrt --home "$home" --json update
assert_exit 0
assert_eq skipped_modified "$(json_get "$RUN_OUT" '.skills[0].status')"
assert_contains "$(cat "$home/skills/gitskill/SKILL.md")" "my local line"
run_skillrt --home "$home" --json check
assert_eq true "$(json_get "$RUN_OUT" '.skills[0].locally_modified')"
assert_eq update_available "$(json_get "$RUN_OUT" '.skills[0].upstream')"
run_skillrt --home "$home" --json audit
assert_exit 1
assert_eq true "$(json_get "$RUN_OUT" '.skills[0].drift')"

run_skillrt --home "$home" --json update --force
assert_exit 0
assert_eq updated "$(json_get "$RUN_OUT" '.skills[0].status')"
assert_contains "$(json_get "$RUN_OUT" '.skills[0].diff')" "-my local line"
assert_contains "$(cat "$home/skills/gitskill/SKILL.md")" "A new step."
assert_eq "$(git -C "$repo" rev-parse HEAD)" "$(jq -r '.installed.gitskill.revision' "$home/skills/.hub/lock.json")"
grep -q ' UPDATE gitskill ' "$home/skills/.hub/audit.log" || fail "update audit line"
run_skillrt --home "$home" --json audit
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.issues')"

# A pinned tag installs the old content.
home2=$(make_home)
run_skillrt --home "$home2" --json install --category . "file://$repo//skills#v1"
assert_exit 0
assert_eq v1 "$(jq -r '.installed.gitskill.ref' "$home2/skills/.hub/lock.json")"
assert_not_contains "$(cat "$home2/skills/gitskill/SKILL.md")" "A new step."
