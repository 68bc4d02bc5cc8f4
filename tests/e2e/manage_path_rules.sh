#!/usr/bin/env bash
# The file path rules of write-file / remove-file / patch --file (spec §2.10
# rule 9): traversal, absolute paths, folders outside the four allowed ones,
# bare folders and symlink escapes are refused and nothing is written.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/s" s "Paths"
mkdir -p "$E2E_TMP/outside"
ln -s "$E2E_TMP/outside" "$home/skills/s/assets"
printf 'x\n' >"$E2E_TMP/x.txt"

check() {
  local path=$1 needle=$2
  run_skillrt --home "$home" --json write-file s "$path" --content "$E2E_TMP/x.txt"
  assert_exit 1
  assert_json_object
  assert_contains "$(json_get "$RUN_OUT" '.error')" "$needle" "error for [$path]"
}
check "../../etc/passwd" "Path traversal ('..') is not allowed."
check "references/../../x" "Path traversal"
check "/etc/passwd" "must be relative"
check "notes/x.md" "File must be under one of: references, templates, scripts, assets."
check "references" "Provide a file path, not just a directory."
check "assets/x.txt" "escapes"
check "a/b/SKILL.md" "File must be under one of"
assert_eq "" "$(ls -A "$E2E_TMP/outside")" "nothing written through the symlink"

run_skillrt --home "$home" --json remove-file s assets/x.txt
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "escapes"
run_skillrt --home "$home" --json patch s --file ../SKILL.md --old a --new b
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "Path traversal"

# SKILL.md through write-file gets edit's checks.
run_skillrt --home "$home" --json write-file s SKILL.md --content "$E2E_TMP/x.txt"
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "must start with YAML frontmatter"

# Hostile skill names.
run_skillrt --home "$home" --json write-file ../s references/a.md --content "$E2E_TMP/x.txt"
assert_exit 1
run_skillrt --home "$home" --json write-file "$home/skills/s" references/a.md --content "$E2E_TMP/x.txt"
assert_exit 1
