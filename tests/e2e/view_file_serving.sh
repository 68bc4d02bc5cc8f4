#!/usr/bin/env bash
# `view NAME --file PATH` serves a file inside the skill; a missing file lists
# what is available (spec §2.7 rule 19).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/docs" docs "Has files"
mkdir -p "$home/skills/docs/references" "$home/skills/docs/scripts"
printf '# API\nline two\n' >"$home/skills/docs/references/api.md"
echo 'print(1)' >"$home/skills/docs/scripts/run.py"

run_skillrt --home "$home" --json view docs --file references/api.md
assert_exit 0
assert_eq '["success","name","file","content","file_type","_source_path"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "keys"
assert_eq $'# API\nline two\n' "$(json_get "$RUN_OUT" '.content')"$'\n' "content"
assert_eq .md "$(json_get "$RUN_OUT" '.file_type')" "file_type"

run_skillrt --home "$home" --json view docs --file references/missing.md
assert_exit 1
assert_eq "File 'references/missing.md' not found in skill 'docs'." "$(json_get "$RUN_OUT" '.error')" "error"
assert_eq '{"references":["references/api.md"],"scripts":["scripts/run.py"]}' \
  "$(json_get "$RUN_OUT" '.available_files')" "available_files"
assert_eq "Use one of the available file paths listed above" "$(json_get "$RUN_OUT" '.hint')" "hint"
