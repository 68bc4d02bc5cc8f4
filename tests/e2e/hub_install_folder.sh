#!/usr/bin/env bash
# install from a local folder, end to end: JSON shape, the skill placed under
# its frontmatter name (and --category), lock.json and audit.log written,
# .hub never listed as a skill, a second install refused without --force,
# uninstall of hub-installed skills only.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
src="$E2E_TMP/src/repo-main"
make_skill "$src" deploy "Deploy the app"
mkdir -p "$src/references" && echo "Notes." >"$src/references/notes.md"

run_skillrt --home "$home" --json install "$src" --category devops
assert_exit 0
assert_json_object
assert_eq success "$(json_get "$RUN_OUT" 'keys_unsorted[0]')" "first key"
assert_eq true "$(json_get "$RUN_OUT" '.success')"
assert_eq installed "$(json_get "$RUN_OUT" '.skills[0].outcome')"
assert_eq deploy "$(json_get "$RUN_OUT" '.skills[0].name')"
assert_eq safe "$(json_get "$RUN_OUT" '.skills[0].scan.verdict')"
assert_eq unsigned "$(json_get "$RUN_OUT" '.skills[0].signature.status')"
assert_eq devops/deploy "$(json_get "$RUN_OUT" '.skills[0].lock_entry.install_path')"
[[ -f "$home/skills/devops/deploy/SKILL.md" ]] || fail "skill not placed"
[[ -f "$home/skills/devops/deploy/references/notes.md" ]] || fail "support file not placed"

lock="$home/skills/.hub/lock.json"
[[ "$(stat -c %a "$home/skills/.hub")" == 700 ]] || fail ".hub is not 0700"
assert_eq 1 "$(jq '.version' "$lock")" "lock version"
assert_eq folder "$(jq -r '.installed.deploy.source' "$lock")"
assert_eq "$src" "$(jq -r '.installed.deploy.source_spec' "$lock")"
assert_eq community "$(jq -r '.installed.deploy.trust_level' "$lock")"
[[ "$(jq -r '.installed.deploy.content_hash' "$lock")" =~ ^sha256:[0-9a-f]{64}$ ]] || fail "content_hash shape"
[[ "$(jq -r '.installed.deploy.installed_at' "$lock")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]] || fail "time shape"
assert_eq '["SKILL.md","references/notes.md"]' "$(jq -c '.installed.deploy.files' "$lock")"
[[ "$(tail -c 1 "$lock" | od -An -c | tr -d ' ')" == '\n' ]] || fail "lock.json lacks its trailing newline"
grep -qE '^[0-9TZ:-]+ INSTALL deploy .+:community safe sha256:' "$home/skills/.hub/audit.log" || fail "audit line"
[[ -z "$(ls -A "$home/skills/.hub/quarantine")" ]] || fail "quarantine not emptied"

# The hub's folder is not a skill, and the installed skill is listed.
run_skillrt --home "$home" --json list
assert_eq '["deploy"]' "$(json_get "$RUN_OUT" '[.skills[].name]')" "listing"

# Again: refused without --force (exit 1), allowed with it.
run_skillrt --home "$home" install "$src" --category devops
assert_exit 1
assert_contains "$RUN_OUT" "--force"
run_skillrt --home "$home" --json install "$src" --category devops --force
assert_exit 0
assert_eq reinstalled "$(json_get "$RUN_OUT" '.skills[0].outcome')"

# Usage errors.
run_skillrt --home "$home" install
assert_exit 2
run_skillrt --home "$home" install "$src" --trust root
assert_exit 2
run_skillrt --home "$home" --json install "$src" --category ../up
assert_exit 1
assert_json_object

# Uninstall: only what the hub installed.
make_skill "$home/skills/mine" mine "My own skill"
run_skillrt --home "$home" --json uninstall mine
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "not a hub-installed skill"
[[ -f "$home/skills/mine/SKILL.md" ]] || fail "uninstall touched a hand-made skill"
run_skillrt --home "$home" --json uninstall deploy
assert_exit 0
assert_json_object
[[ ! -e "$home/skills/devops/deploy" ]] || fail "uninstall left the folder"
assert_eq '{}' "$(jq -c '.installed' "$lock")" "lock after uninstall"
grep -qE ' UNINSTALL deploy .+ n/a user_request$' "$home/skills/.hub/audit.log" || fail "uninstall audit line"
