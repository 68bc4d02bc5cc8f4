#!/usr/bin/env bash
# Skills that use $ARGUMENTS / $N get the typed instruction substituted
# (whole text, or 0-based shell-style words) and the instruction is not
# appended again; skills without them get it appended as usual.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
mkdir -p "$home/skills/fix-issue"
cat >"$home/skills/fix-issue/SKILL.md" <<'MD'
---
name: fix-issue
description: Fixes an issue
---
Fix issue $0 in "$1". The full request was: $ARGUMENTS
A third word would be $2.
MD
make_skill "$home/skills/plain" plain "No placeholders"

run_skillrt --home "$home" invoke '/fix-issue 42 "the parser"'
assert_exit 0
assert_contains "$RUN_OUT" 'Fix issue 42 in "the parser". The full request was: 42 "the parser"'
assert_contains "$RUN_OUT" 'A third word would be $2.'
assert_not_contains "$RUN_OUT" "The user has provided the following instruction"

run_skillrt --home "$home" invoke '/plain do $0 things'
assert_exit 0
assert_contains "$RUN_OUT" 'The user has provided the following instruction alongside the skill invocation: do $0 things'
