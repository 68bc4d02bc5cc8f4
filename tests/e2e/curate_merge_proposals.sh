#!/usr/bin/env bash
# The curator's merge pass end to end (issue 2/6 item 5): with a review model
# configured, `skillrt curate` finds agent-made skills whose names and
# descriptions overlap, asks the model (the scripted upstream, speaking the
# real wire format) to merge them, and every change the model makes becomes
# a proposal in the inbox — nothing goes live until a person approves. Skills
# a person wrote are never offered for merging, even when they overlap;
# --dry-run shows the groups without calling the model.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
source "$here/review/upstream.sh"
require_node_tools

home=$(make_home)
echo "REVIEW_TEST_KEY=sk-curator" >"$home/.env"
make_skill "$home/skills/generated/ops/docker-image-cleanup" docker-image-cleanup \
  "Clean up old Docker images and dangling volumes to free disk space on build hosts"
printf '%s\n' '' '1. `docker image prune -a --filter until=168h`' '2. `docker volume prune`' \
  >>"$home/skills/generated/ops/docker-image-cleanup/SKILL.md"
make_skill "$home/skills/generated/ops/docker-disk-cleanup" docker-disk-cleanup \
  "Free disk space on build hosts by removing old Docker images, volumes and build cache"
printf '%s\n' '' '1. `docker builder prune --keep-storage 20GB`' \
  >>"$home/skills/generated/ops/docker-disk-cleanup/SKILL.md"
make_skill "$home/skills/generated/writing/release-notes-draft" release-notes-draft \
  "Draft release notes from merged pull requests grouped by area"
# A person's skill that overlaps just as much: never a merge candidate.
make_skill "$home/skills/ops/docker-host-cleanup" docker-host-cleanup \
  "Free disk space on build hosts by removing old Docker images and volumes"
for name in docker-image-cleanup docker-disk-cleanup release-notes-draft; do
  run_skillrt --home "$home" adopt "$name"
  assert_exit 0
done
before_image=$(cat "$home/skills/generated/ops/docker-image-cleanup/SKILL.md")

umbrella=$(printf '%s\n' '---' 'name: docker-image-cleanup' \
  'description: Free disk space on build hosts by removing old Docker images, volumes and build cache' '---' \
  '# Docker disk cleanup' '' '1. `docker image prune -a --filter until=168h`' '2. `docker volume prune`' \
  '3. `docker builder prune --keep-storage 20GB`')
edit_args=$(jq -cn --arg content "$umbrella" '{action: "edit", name: "docker-image-cleanup", content: $content} | tojson')
jq -n --argjson edit "$edit_args" '{model: "review-model", steps: [
  {type: "completion", content: null,
   tool_calls: [{id: "v1", name: "skill_view", arguments: "{\"name\":\"docker-image-cleanup\"}"},
                {id: "v2", name: "skill_view", arguments: "{\"name\":\"docker-disk-cleanup\"}"}],
   usage: {prompt_tokens: 1500, completion_tokens: 30}},
  {type: "completion", content: null,
   tool_calls: [{id: "m1", name: "skill_manage", arguments: $edit},
                {id: "m2", name: "skill_manage", arguments: "{\"action\":\"delete\",\"name\":\"docker-disk-cleanup\"}"},
                {id: "m3", name: "skill_manage", arguments: "{\"action\":\"delete\",\"name\":\"docker-host-cleanup\"}"}],
   usage: {prompt_tokens: 2300, completion_tokens: 210}},
  {type: "completion", content: "Merged docker-disk-cleanup into docker-image-cleanup.",
   usage: {prompt_tokens: 2700, completion_tokens: 14}}]}' >"$E2E_TMP/script.json"
start_upstream "$E2E_TMP/script.json"
trap 'stop_upstream; e2e_cleanup' EXIT
configure_review "$home"

# --dry-run: the group, and no model call.
run_skillrt --home "$home" --json curate --dry-run
assert_exit 0
assert_eq 1 "$(json_get "$RUN_OUT" '.merges | length')" "one overlapping group"
assert_eq '["docker-disk-cleanup","docker-image-cleanup"]' \
  "$(json_get "$RUN_OUT" '[.merges[0].skills[].name] | sort')" "only the agent's overlapping skills"
assert_eq 0 "$(wc -l <"$UPSTREAM_LOG" | tr -d ' ')" "a dry run asks no model"

run_skillrt --home "$home" --json curate
assert_exit 0
assert_eq finished "$(json_get "$RUN_OUT" '.merges[0].ending')"
assert_eq 2 "$(json_get "$RUN_OUT" '.merges[0].proposals | length')" "the edit and the delete are proposals"
assert_eq 6500 "$(json_get "$RUN_OUT" '.merges[0].usage.prompt_tokens')" "tokens summed"
# Nothing is live: both skills are as they were, and the person's skill was refused.
assert_eq "$before_image" "$(cat "$home/skills/generated/ops/docker-image-cleanup/SKILL.md")" "unchanged before approval"
[[ -f "$home/skills/generated/ops/docker-disk-cleanup/SKILL.md" ]] || fail "deleted before approval"
[[ -f "$home/skills/ops/docker-host-cleanup/SKILL.md" ]] || fail "a person's skill was touched"
assert_eq false "$(json_get "$RUN_OUT" '.merges[0].actions[4].success')" "the person's skill is refused"

run_skillrt --home "$home" --json pending list
assert_eq 2 "$(json_get "$RUN_OUT" .count)"
assert_eq '["curator","curator"]' "$(json_get "$RUN_OUT" '[.proposals[].origin]')"

# What the model was asked.
first=$(head -n 1 "$UPSTREAM_LOG")
assert_eq "Bearer sk-curator" "$(json_get "$first" .headers.authorization)"
prompt=$(json_get "$first" '[.body.messages[] | select(.role == "user")] | last | .content')
assert_contains "$prompt" "docker-image-cleanup"
assert_contains "$prompt" "docker-disk-cleanup"
assert_not_contains "$prompt" "docker-host-cleanup" "a person's skill is not offered"
assert_not_contains "$prompt" "release-notes-draft" "an unrelated skill is not offered"

# A person approves both: one umbrella skill remains.
for id in $(json_get "$RUN_OUT" '.proposals[].id'); do
  run_skillrt --home "$home" --json pending approve "$id"
  assert_exit 0
done
assert_contains "$(cat "$home/skills/generated/ops/docker-image-cleanup/SKILL.md")" "docker builder prune"
[[ ! -e "$home/skills/generated/ops/docker-disk-cleanup" ]] || fail "the merged skill is still there"
run_skillrt --home "$home" ledger verify
assert_exit 0
