#!/usr/bin/env bash
# write-file creates parent folders and the file; remove-file lists
# available_files for a missing file, then removes the file and its emptied folder.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/s" s "Support files"
printf '# API\n' >"$E2E_TMP/api.md"

run_skillrt --home "$home" --json write-file s references/deep/api.md --content "$E2E_TMP/api.md"
assert_exit 0
assert_json_object
assert_eq "File 'references/deep/api.md' written to skill 's'." "$(json_get "$RUN_OUT" '.message')" "message"
assert_eq "$home/skills/s/references/deep/api.md" "$(json_get "$RUN_OUT" '.path')" "path"
cmp -s "$E2E_TMP/api.md" "$home/skills/s/references/deep/api.md" || fail "file content differs"

run_skillrt --home "$home" --json view s --file references/deep/api.md
assert_exit 0

run_skillrt --home "$home" --json write-file ghost references/a.md --content "$E2E_TMP/api.md"
assert_exit 1
assert_eq "Skill 'ghost' not found in active profile 'default'. Use skills_list() to see available skills. Create it first with action='create'." \
  "$(json_get "$RUN_OUT" '.error')" "missing skill"

run_skillrt --home "$home" --json remove-file s references/deep/none.md
assert_exit 1
assert_eq '["references/deep/api.md"]' "$(json_get "$RUN_OUT" '.available_files')" "available_files"

run_skillrt --home "$home" --json remove-file s references/deep/api.md
assert_exit 0
assert_eq "File 'references/deep/api.md' removed from skill 's'." "$(json_get "$RUN_OUT" '.message')" "message"
[[ ! -e "$home/skills/s/references/deep" ]] || fail "the emptied folder was kept"

run_skillrt --home "$home" --json remove-file s references/deep/api.md
assert_exit 1
assert_eq null "$(json_get "$RUN_OUT" '.available_files')" "no files left: null"

run_skillrt --home "$home" --json remove-file s SKILL.md
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "action='delete'"
