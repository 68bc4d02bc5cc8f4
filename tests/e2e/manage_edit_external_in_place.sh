#!/usr/bin/env bash
# edit rewrites a skill that lives in an external dir in place: no local copy
# appears (spec §2.10 rules 12, 20); bad content leaves the file untouched.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
ext="$E2E_TMP/ext"
make_skill "$ext/ops/runner" runner "Runs"
printf 'skills:\n  external_dirs: ["%s"]\n' "$ext" >"$home/config.yaml"

printf -- '---\nname: runner\ndescription: Runs, better\n---\nNew body\n' >"$E2E_TMP/new.md"
run_skillrt --home "$home" --json edit runner --content "$E2E_TMP/new.md"
assert_exit 0
assert_json_object
assert_eq "Skill 'runner' updated (full rewrite)." "$(json_get "$RUN_OUT" '.message')" "message"
assert_eq "$ext/ops/runner" "$(json_get "$RUN_OUT" '.path')" "path"
cmp -s "$E2E_TMP/new.md" "$ext/ops/runner/SKILL.md" || fail "external SKILL.md was not rewritten"
[[ ! -e "$home/skills/runner" ]] || fail "a local copy was created"

cp "$ext/ops/runner/SKILL.md" "$E2E_TMP/before.md"
printf -- '---\nname: runner\n---\nNo description\n' >"$E2E_TMP/bad.md"
run_skillrt --home "$home" --json edit runner --content "$E2E_TMP/bad.md"
assert_exit 1
assert_eq "Frontmatter must include 'description' field." "$(json_get "$RUN_OUT" '.error')" "error"
cmp -s "$E2E_TMP/before.md" "$ext/ops/runner/SKILL.md" || fail "a refused edit changed the file"

run_skillrt --home "$home" --json edit ghost --content "$E2E_TMP/new.md"
assert_exit 1
assert_eq "Skill 'ghost' not found in active profile 'default'. Use skills_list() to see available skills." \
  "$(json_get "$RUN_OUT" '.error')" "not-found error"
