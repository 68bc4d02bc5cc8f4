#!/usr/bin/env bash
# The text output of `check`, `audit` and `update` reads like `list`'s: one
# header row, every column starting where its header does on every row, each
# skill's name once (the category in its own column), details below the table.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$E2E_TMP/src/deploy" deploy "Deploy the app"
make_skill "$E2E_TMP/src/a-much-longer-skill-name" a-much-longer-skill-name "Long name"
make_skill "$E2E_TMP/src/top" top "No category"
run_skillrt --home "$home" --json install "$E2E_TMP/src/deploy" --category devops
assert_exit 0
run_skillrt --home "$home" --json install "$E2E_TMP/src/a-much-longer-skill-name" --category tools
assert_exit 0
run_skillrt --home "$home" --json install --category . "$E2E_TMP/src/top"
assert_exit 0
echo "local edit" >>"$home/skills/devops/deploy/SKILL.md"

# assert_aligned TEXT HEADER...: the first line is the header with these
# column titles; on each row below it (up to the first blank line or footer)
# every column after the first starts exactly at its title, after two spaces.
assert_aligned() {
  local text=$1
  shift
  local header row col title start
  header=$(printf '%s\n' "$text" | head -n 1)
  local rows
  rows=$(printf '%s\n' "$text" | sed -n '2,$p' | sed '/^$/,$d' | grep -v '^[0-9]* ')
  [[ -n "$rows" ]] || fail "no table rows under [$header]"
  [[ "$header" == "$1"* ]] || fail "header [$header] does not start with $1"
  for title in "${@:2}"; do
    local prefix=${header%%"$title"*}
    [[ "$prefix" != "$header" ]] || fail "header [$header] has no column $title"
    start=${#prefix}
    while IFS= read -r row; do
      [[ "${row:start-2:2}" == "  " && "${row:start:1}" != " " ]] ||
        fail "column $title does not start at $start in row [$row] (header [$header])"
    done <<<"$rows"
  done
}

# assert_name_once TEXT NAME: NAME appears on exactly one line, exactly once.
assert_name_once() {
  local lines
  lines=$(printf '%s\n' "$1" | grep -c -- "$2")
  assert_eq 1 "$lines" "lines naming $2"
  [[ "$(printf '%s\n' "$1" | grep -o -- "$2" | wc -l)" == 1 ]] || fail "$2 printed more than once: $1"
}

run_skillrt --home "$home" check --offline
assert_exit 0
assert_aligned "$RUN_OUT" NAME CATEGORY STATUS MESSAGE
assert_name_once "$RUN_OUT" "a-much-longer-skill-name"
assert_contains "$RUN_OUT" "3 skills checked"
deploy_row=$(printf '%s\n' "$RUN_OUT" | grep '^deploy ')
[[ "$deploy_row" =~ ^deploy\ +devops\ +locally_modified ]] || fail "deploy row: [$deploy_row]"
top_row=$(printf '%s\n' "$RUN_OUT" | grep '^top ')
[[ "$top_row" =~ ^top\ +-\ +[a-z_]+ ]] || fail "top row (no category): [$top_row]"

# list has the same layout: the renderer is shared.
run_skillrt --home "$home" list
assert_exit 0
assert_aligned "$RUN_OUT" NAME CATEGORY SOURCE DESCRIPTION

run_skillrt --home "$home" audit
assert_aligned "$RUN_OUT" NAME CATEGORY RESULT TRUST VERDICT
assert_name_once "$RUN_OUT" "a-much-longer-skill-name"
assert_contains "$RUN_OUT" "3 installed skills audited"
# The drifted skill's issues are listed below the table, under its name.
assert_contains "$RUN_OUT" $'\ndeploy:\n  - '

# update: the table, then each diff under its skill's name.
echo "Upstream step." >>"$E2E_TMP/src/top/SKILL.md"
run_skillrt --home "$home" update --dry-run
assert_exit 0
assert_aligned "$RUN_OUT" NAME STATUS REASON
top_row=$(printf '%s\n' "$RUN_OUT" | grep '^top ')
[[ "$top_row" =~ ^top\ +would_update ]] || fail "top update row: [$top_row]"
assert_contains "$RUN_OUT" $'\ntop:\n'
assert_contains "$RUN_OUT" "+Upstream step."
