#!/usr/bin/env bash
# `memory add|replace|remove|list` round trip for one user: the Hermes memory
# tool's result shape, both targets and their budgets, refusals with exit 1,
# usage errors with exit 2, and the file on disk (0600, versioned JSON).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
mem() { run_skillrt --home "$home" --user alice --json memory "$@"; }

mem add --target memory --content "repo builds with ninja"
assert_exit 0
assert_json_object
assert_eq true "$(json_get "$RUN_OUT" '.success')" "add success"
assert_eq memory "$(json_get "$RUN_OUT" '.target')" "target"
assert_eq '["repo builds with ninja"]' "$(json_get "$RUN_OUT" '.entries')" "entries"
assert_eq "22/2200" "$(json_get "$RUN_OUT" '.usage')" "usage"
assert_eq '["success","target","entries","usage","message"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"

mem add --target user --content "Ålice prefers tea ☕"
assert_exit 0
assert_eq "19/1375" "$(json_get "$RUN_OUT" '.usage')" "usage counts code points"

mem add --target memory --content "deploys go to prod-eu"
mem replace --target memory --old "prod-eu" --content "deploys go to prod-us"
assert_exit 0
assert_eq '["repo builds with ninja","deploys go to prod-us"]' "$(json_get "$RUN_OUT" '.entries')" "after replace"

# Ambiguous, missing and duplicate: operation failures (exit 1), file unchanged.
before=$(cat "$home/users/alice/memory.json")
mem remove --target memory --old "o"
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "ambiguous"
assert_contains "$(json_get "$RUN_OUT" '.error')" "more specific"
mem remove --target memory --old "staging"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "staging"
mem add --target memory --content "repo builds with ninja"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "identical"
long=$(printf 'x%.0s' $(seq 1 1400))
mem add --target user --content "$long"
assert_exit 1
assert_eq limit_exceeded "$(json_get "$RUN_OUT" '.code')" "limit code"
assert_eq "$before" "$(cat "$home/users/alice/memory.json")" "file untouched by failures"

mem remove --target memory --old "prod-us"
assert_exit 0
assert_eq '["repo builds with ninja"]' "$(json_get "$RUN_OUT" '.entries')" "after remove"

mem list
assert_exit 0
assert_eq '["repo builds with ninja"]' "$(json_get "$RUN_OUT" '.targets.memory.entries')" "list memory"
assert_eq "19/1375" "$(json_get "$RUN_OUT" '.targets.user.usage')" "list user usage"
mem list --target user
assert_eq user "$(json_get "$RUN_OUT" '.target')" "list one target"

# Text mode is readable and says where things stand.
run_skillrt --home "$home" --user alice memory list
assert_exit 0
assert_contains "$RUN_OUT" "memory (22/2200 characters)"
assert_contains "$RUN_OUT" "1. repo builds with ninja"

# Usage errors: exit 2, one JSON object.
mem add --target elsewhere --content x
assert_exit 2
assert_json_object
mem add --content x
assert_exit 2
mem replace --target memory --content x
assert_exit 2

# The file: owner-only, versioned JSON, both stores.
assert_eq 600 "$(stat -c %a "$home/users/alice/memory.json")" "file mode"
assert_eq 700 "$(stat -c %a "$home/users/alice")" "user dir mode"
assert_eq 1 "$(jq -r .version "$home/users/alice/memory.json")" "version"
assert_eq '["Ålice prefers tea ☕"]' "$(jq -c .user "$home/users/alice/memory.json")" "stored user entries"

# A corrupt file is reported, never overwritten.
printf '{"version": 1, "memory": [' >"$home/users/alice/memory.json"
mem add --target memory --content "new"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "memory.json"
assert_eq '{"version": 1, "memory": [' "$(cat "$home/users/alice/memory.json")" "corrupt file kept"
