#!/usr/bin/env bash
# Running an installed skill's Python script leaves scripts/__pycache__/ behind;
# that must never make the skill "locally modified": check says up_to_date,
# audit sees no drift, update replaces it without --force. And an install never
# places runtime caches a source ships (bytecode no manifest or scan covered).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

home=$(make_home)
src="$E2E_TMP/src/pytool"
make_skill "$src" pytool "Run a small Python tool"
mkdir -p "$src/scripts/__pycache__"
printf 'def greet():\n    return "hello"\n' >"$src/scripts/helper.py"
printf 'import helper\nprint(helper.greet())\n' >"$src/scripts/run.py"
# What a source may ship by accident (or on purpose): none of it is placed.
printf 'not really bytecode' >"$src/scripts/__pycache__/helper.cpython-311.pyc"
printf 'finder' >"$src/.DS_Store"
printf 'stray' >"$src/scripts/old.pyc"

run_skillrt --home "$home" --json install --category . "$src"
assert_exit 0
assert_eq installed "$(json_get "$RUN_OUT" '.skills[0].outcome')"
installed="$home/skills/pytool"
[[ -f "$installed/scripts/helper.py" ]] || fail "the script was not placed"
[[ ! -e "$installed/scripts/__pycache__" ]] || fail "a shipped __pycache__ was placed"
[[ ! -e "$installed/.DS_Store" ]] || fail "a shipped .DS_Store was placed"
[[ ! -e "$installed/scripts/old.pyc" ]] || fail "a shipped .pyc was placed"
assert_eq '["SKILL.md","scripts/helper.py","scripts/run.py"]' \
  "$(jq -c '.installed.pytool.files' "$home/skills/.hub/lock.json")" "recorded files"

# Run the skill's script as an agent would: Python writes its bytecode cache.
# PYTHONDONTWRITEBYTECODE (set on some machines) would keep Python from writing the cache.
(cd "$installed/scripts" && env -u PYTHONDONTWRITEBYTECODE python3 run.py) >/dev/null || fail "the script did not run"
[[ -d "$installed/scripts/__pycache__" ]] || fail "python wrote no __pycache__ (the test proves nothing)"
: >"$installed/.DS_Store"

run_skillrt --home "$home" --json check
assert_exit 0
assert_eq up_to_date "$(json_get "$RUN_OUT" '.skills[0].status')" "check after running the script"
assert_eq false "$(json_get "$RUN_OUT" '.skills[0].locally_modified')"

run_skillrt --home "$home" --json audit
assert_exit 0
assert_eq false "$(json_get "$RUN_OUT" '.skills[0].drift')" "audit drift after running the script"

# Upstream moves on: update replaces the skill without --force, and its diff
# does not mention the caches.
printf 'def greet():\n    return "hello again"\n' >"$src/scripts/helper.py"
run_skillrt --home "$home" --json update
assert_exit 0
assert_eq updated "$(json_get "$RUN_OUT" '.skills[0].status')" "update after running the script"
assert_not_contains "$(json_get "$RUN_OUT" '.skills[0].diff')" "__pycache__"
grep -q "hello again" "$installed/scripts/helper.py" || fail "update did not place the new version"

# A real local edit is still caught.
echo "# my note" >>"$installed/scripts/helper.py"
run_skillrt --home "$home" --json check
assert_eq locally_modified "$(json_get "$RUN_OUT" '.skills[0].status')" "check after a real edit"
