#!/usr/bin/env bash
# Resolution with a user (issue 3/5): list shows the user's skills as
# source "user" before shared ones ("shared"), skipping shadowed names; view
# finds the user's own skill first; without a user `source` stays a tier name.
# A user never sees another user's skill in list, view, prompt, commands or
# invoke.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/deploy" deploy "Shared deploy"
make_skill "$home/skills/lint" lint "Shared lint"
make_skill "$home/users/alice/skills/deploy" deploy "Alice deploy"
make_skill "$home/users/alice/skills/tools/alice-tool" alice-tool "Alice private tool"
make_skill "$home/users/bob/skills/bob-tool" bob-tool "Bob private tool"

run_skillrt --home "$home" --user alice --org acme --json list
assert_exit 0
assert_json_object
assert_eq '["alice-tool@user","deploy@user","lint@shared"]' \
  "$(json_get "$RUN_OUT" '[.skills[] | .name + "@" + .source] | sort')" "alice's listing"
assert_eq "Alice deploy" "$(json_get "$RUN_OUT" '.skills[] | select(.name=="deploy") | .description')"
assert_eq "$home/users/alice/skills/deploy/SKILL.md" \
  "$(json_get "$RUN_OUT" '.skills[] | select(.name=="deploy") | .path')" "deploy path"

run_skillrt --home "$home" --json list
assert_exit 0
assert_eq '["deploy@local","lint@local"]' "$(json_get "$RUN_OUT" '[.skills[] | .name + "@" + .source] | sort')" \
  "single-user listing"

run_skillrt --home "$home" --user alice --json view deploy
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" "Alice deploy"
run_skillrt --home "$home" --user bob --json view deploy
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" "Shared deploy"

# Bob never meets alice's skills, by any door.
run_skillrt --home "$home" --user bob --json list
assert_eq '["bob-tool@user","deploy@shared","lint@shared"]' \
  "$(json_get "$RUN_OUT" '[.skills[] | .name + "@" + .source] | sort')" "bob's listing"
for name in alice-tool tools/alice-tool ../users/alice/skills/deploy; do
  run_skillrt --home "$home" --user bob --json view "$name"
  assert_exit 1
  assert_not_contains "$RUN_OUT" "Alice" "bob's view of $name"
done
run_skillrt --home "$home" --user bob prompt
assert_exit 0
assert_contains "$RUN_OUT" "bob-tool"
assert_not_contains "$RUN_OUT" "alice-tool" "bob's prompt"
run_skillrt --home "$home" --user alice prompt
assert_contains "$RUN_OUT" "alice-tool"
assert_not_contains "$RUN_OUT" "bob-tool" "alice's prompt"
run_skillrt --home "$home" --user bob --json commands
assert_exit 0
assert_contains "$RUN_OUT" "bob-tool"
assert_not_contains "$RUN_OUT" "alice-tool" "bob's commands"
run_skillrt --home "$home" --user bob --json invoke "/alice-tool do it"
assert_not_contains "$RUN_OUT" "Alice private tool" "bob's invoke"
run_skillrt --home "$home" --user alice --json invoke "/alice-tool do it"
assert_exit 0
assert_contains "$RUN_OUT" "Alice private tool"

# The prompt snapshot and listing cache are per user (files changed within the
# last 2 s are never cached: wait them out first).
sleep 2.5
run_skillrt --home "$home" --json list
run_skillrt --home "$home" --user alice prompt --tools terminal
[[ -f "$home/users/alice/.skills_prompt_snapshot.json" ]] || fail "alice's prompt snapshot is not in her folder"
if [[ -f "$home/.skills_prompt_snapshot.json" ]]; then
  assert_not_contains "$(cat "$home/.skills_prompt_snapshot.json")" "alice" "the shared prompt snapshot"
fi
[[ -f "$home/users/alice/cache/skillrt-listing.bin" ]] || fail "alice's listing cache is not in her folder"
if [[ -f "$home/cache/skillrt-listing.bin" ]]; then
  if grep -q "users/alice" "$home/cache/skillrt-listing.bin"; then fail "the shared listing cache names alice's skills"; fi
fi

# An external dir pointing into HOME/users is never a root.
printf 'skills:\n  external_dirs: ["%s"]\n' "$home/users/alice/skills" >"$home/config.yaml"
run_skillrt --home "$home" --user bob --json list
assert_not_contains "$RUN_OUT" "alice-tool" "bob's listing with a hostile external_dirs"
run_skillrt --home "$home" --json list
assert_not_contains "$RUN_OUT" "alice-tool" "single-user listing with a hostile external_dirs"

# Nor is one that contains HOME/users (HOME itself), nor a symlink into it:
# the walk of every shared root prunes HOME/users.
for external in "$home" "$home/."; do
  printf 'skills:\n  external_dirs: ["%s"]\n' "$external" >"$home/config.yaml"
  run_skillrt --home "$home" --user bob --json list
  assert_exit 0
  assert_eq '["bob-tool@user","deploy@shared","lint@shared"]' \
    "$(json_get "$RUN_OUT" '[.skills[] | .name + "@" + .source] | sort')" "bob's listing with external_dirs [$external]"
  for name in alice-tool users/alice/skills/tools/alice-tool; do
    run_skillrt --home "$home" --user bob --json view "$name"
    assert_exit 1
    assert_not_contains "$RUN_OUT" "Alice" "bob's view of $name with external_dirs [$external]"
  done
done
rm -f "$home/config.yaml"
ln -s "$home/users/alice/skills" "$home/skills/link"
run_skillrt --home "$home" --user bob --json list
assert_not_contains "$RUN_OUT" "alice-tool" "bob's listing with a symlink into HOME/users"
run_skillrt --home "$home" --user bob --json view link/tools/alice-tool
assert_exit 1
assert_not_contains "$RUN_OUT" "Alice" "bob's view through a symlink into HOME/users"
run_skillrt --home "$home" --user bob --json doctor
assert_contains "$RUN_OUT" "per_user_dir" "doctor reports the pruned symlink"
rm "$home/skills/link"
