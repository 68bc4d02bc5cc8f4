#!/usr/bin/env bash
# patch uses the fuzzy matcher (spec §2.11): whitespace drift still matches;
# no match returns the matcher error, the did-you-mean hint and file_preview;
# a patch that would break SKILL.md is refused.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
mkdir -p "$home/skills/s"
cat >"$home/skills/s/SKILL.md" <<'MD'
---
name: s
description: Fuzzy target
---
# Steps

    run   the build
    ship the result
MD

run_skillrt --home "$home" --json patch s --old "run the build" --new "run the tests"
assert_exit 0
assert_json_object
assert_eq "Patched SKILL.md in skill 's' (1 replacement)." "$(json_get "$RUN_OUT" '.message')" "message"
assert_eq '{"old":"run the build","new":"run the tests"}' "$(json_get "$RUN_OUT" '._change')" "_change"
assert_contains "$(cat "$home/skills/s/SKILL.md")" "run the tests"

run_skillrt --home "$home" --json patch s --old "ship the container image" --new "x"
assert_exit 1
error=$(json_get "$RUN_OUT" '.error')
assert_contains "$error" "Could not find a match for old_string in the file"
assert_contains "$error" $'\n\nDid you mean one of these sections?\n'
assert_contains "$error" "ship the result"
assert_eq "$(head -c 500 "$home/skills/s/SKILL.md")" "$(json_get "$RUN_OUT" '.file_preview')" "file_preview"

cp "$home/skills/s/SKILL.md" "$E2E_TMP/before.md"
run_skillrt --home "$home" --json patch s --old "description: Fuzzy target" --new ""
assert_exit 1
assert_eq "Patch would break SKILL.md structure: Frontmatter must include 'description' field." \
  "$(json_get "$RUN_OUT" '.error')" "structure error"
cmp -s "$E2E_TMP/before.md" "$home/skills/s/SKILL.md" || fail "a refused patch changed SKILL.md"

# Multi-line strings from files, --replace-all.
printf 'ship the result\n' >"$E2E_TMP/old.txt"
printf 'ship it\n' >"$E2E_TMP/new.txt"
run_skillrt --home "$home" --json patch s --old-file "$E2E_TMP/old.txt" --new-file "$E2E_TMP/new.txt"
assert_exit 0
assert_contains "$(cat "$home/skills/s/SKILL.md")" "ship it"

# A 10 MB old_string fails fast with a clear limit error.
head -c 10485760 /dev/zero | tr '\0' 'x' >"$E2E_TMP/huge.txt"
start=$(date +%s)
run_skillrt --home "$home" --json patch s --old-file "$E2E_TMP/huge.txt" --new y
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "old_string is 10,485,760 characters (limit: 100,000)"
(( $(date +%s) - start < 10 )) || fail "the huge old_string took too long"

run_skillrt --home "$home" --json patch s --new y
assert_exit 2
