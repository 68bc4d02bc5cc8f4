#!/usr/bin/env bash
# `--file` can never read outside the skill: `..` is refused, and so is a
# symlink inside the skill that points outside it (spec §2.7 rule 19).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/docs" docs "Has files"
echo "TOP-SECRET" >"$E2E_TMP/secret.txt"
ln -s "$E2E_TMP/secret.txt" "$home/skills/docs/leak.md"

run_skillrt --home "$home" --json view docs --file ../../../secret.txt
assert_exit 1
assert_eq "Path traversal ('..') is not allowed." "$(json_get "$RUN_OUT" '.error')" "traversal error"
assert_not_contains "$RUN_OUT" "TOP-SECRET"

run_skillrt --home "$home" --json view docs --file leak.md
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "escapes"
assert_not_contains "$RUN_OUT" "TOP-SECRET"

run_skillrt --home "$home" --json view docs --file "$E2E_TMP/secret.txt"
assert_exit 1
assert_not_contains "$RUN_OUT" "TOP-SECRET"
