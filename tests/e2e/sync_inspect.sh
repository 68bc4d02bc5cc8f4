#!/usr/bin/env bash
# The other operations of spec §2.13 rule 12 through the binary: `sync --diff
# NAME`, `--modified`, `--opt-out on|off`, `--prune [--dry-run]`; their JSON
# shapes, exit codes, that they exclude one another, and that a pruned copy
# stays gone after a sync.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
bundled="$E2E_TMP/bundled"
make_skill "$bundled/tools/alpha" alpha "The alpha skill"
make_skill "$bundled/tools/beta" beta "The beta skill"
run_skillrt --home "$home" sync --bundled "$bundled"
assert_exit 0

# --modified: nothing changed yet.
run_skillrt --home "$home" --json sync --modified --bundled "$bundled"
assert_exit 0
assert_json_object
assert_eq '["success","modified","symlinked","total_bundled","bundled_dir","errors"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "modified keys"
assert_eq '[]' "$(json_get "$RUN_OUT" '.modified')" "nothing modified"

echo "my step" >>"$home/skills/tools/alpha/SKILL.md"
run_skillrt --home "$home" --json sync --modified --bundled "$bundled"
assert_exit 0
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '[.modified[].name]')" "alpha modified"
assert_eq true "$(json_get "$RUN_OUT" '.modified[0].origin_known')" "origin known"
run_skillrt --home "$home" sync --modified --bundled "$bundled"
assert_exit 0
assert_contains "$RUN_OUT" "alpha"

# --diff: from the bundled version to the user's copy.
run_skillrt --home "$home" --json sync --diff alpha --bundled "$bundled"
assert_exit 0
assert_json_object
assert_eq '["success","name","path","bundled_path","tracked","origin_known","state","identical","files","diff","diff_truncated"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "diff keys"
assert_eq user_modified "$(json_get "$RUN_OUT" '.state')" "state"
assert_eq '[{"path":"SKILL.md","change":"modified","added":1,"removed":0}]' "$(json_get "$RUN_OUT" '.files')" "files"
assert_contains "$(json_get "$RUN_OUT" '.diff')" "+my step"
run_skillrt --home "$home" sync --diff alpha --bundled "$bundled"
assert_exit 0
assert_contains "$RUN_OUT" "+my step"

run_skillrt --home "$home" --json sync --diff nobody --bundled "$bundled"
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "not a bundled skill"
assert_eq not_found "$(json_get "$RUN_OUT" '.code')" "error code"

# --prune: the dry run removes nothing; the real run only the pristine beta.
run_skillrt --home "$home" --json sync --prune --dry-run --bundled "$bundled"
assert_exit 0
assert_eq '["success","dry_run","removed","kept_differing","symlinked","bundled_dir","errors"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "prune keys"
assert_eq true "$(json_get "$RUN_OUT" '.dry_run')" "dry run flag"
assert_eq '["beta"]' "$(json_get "$RUN_OUT" '[.removed[].name]')" "would remove beta"
assert_eq '["alpha"]' "$(json_get "$RUN_OUT" '.kept_differing')" "alpha kept"
[[ -f "$home/skills/tools/beta/SKILL.md" ]] || fail "a dry run removed a copy"

run_skillrt --home "$home" --json sync --prune --bundled "$bundled"
assert_exit 0
assert_eq '["beta"]' "$(json_get "$RUN_OUT" '[.removed[].name]')" "removed beta"
[[ ! -e "$home/skills/tools/beta" ]] || fail "prune left beta"
grep -q '^beta:' "$home/skills/.bundled_manifest" || fail "prune dropped the manifest entry"
grep -q 'my step' "$home/skills/tools/alpha/SKILL.md" || fail "prune touched the user's edit"

run_skillrt --home "$home" --json sync --bundled "$bundled"
assert_exit 0
assert_eq '[]' "$(json_get "$RUN_OUT" '.copied')" "sync after prune"
[[ ! -e "$home/skills/tools/beta" ]] || fail "sync brought a pruned copy back"

run_skillrt --home "$home" --json sync --diff beta --bundled "$bundled"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "no copy"

# --opt-out on|off: fixed messages, the marker, refused for a non-owner user.
run_skillrt --home "$home" --json sync --opt-out on
assert_exit 0
assert_eq '["success","action","message","opted_out","changed","marker"]' \
  "$(json_get "$RUN_OUT" 'keys_unsorted')" "opt-out keys"
assert_eq opted_out "$(json_get "$RUN_OUT" '.action')" "opt out"
[[ -f "$home/.no-bundled-skills" ]] || fail "no marker written"
run_skillrt --home "$home" sync --opt-out on
assert_exit 0
assert_contains "$RUN_OUT" "already opted out"
run_skillrt --home "$home" --user alice --org 7 --json sync --opt-out off
assert_exit 1
[[ -f "$home/.no-bundled-skills" ]] || fail "a refused opt-in removed the marker"
run_skillrt --home "$home" --json sync --opt-out off
assert_exit 0
assert_eq opted_in "$(json_get "$RUN_OUT" '.action')" "opt back in"
[[ ! -e "$home/.no-bundled-skills" ]] || fail "marker still there"
run_skillrt --home "$home" --json sync --opt-out off
assert_exit 0
assert_eq not_opted_out "$(json_get "$RUN_OUT" '.action')" "not opted out"

# Usage errors: modes exclude one another; --dry-run needs --prune; on|off only.
run_skillrt --home "$home" sync --modified --prune --bundled "$bundled"
assert_exit 2
run_skillrt --home "$home" sync --dry-run --bundled "$bundled"
assert_exit 2
run_skillrt --home "$home" sync --opt-out maybe
assert_exit 2
run_skillrt --home "$home" --json sync --diff alpha --opt-out on
assert_exit 2
assert_json_object
