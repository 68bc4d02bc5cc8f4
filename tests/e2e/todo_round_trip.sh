#!/usr/bin/env bash
# `todo list` / `todo write (--items | --file) [--merge]`: replace and merge
# semantics, the whole list plus summary on every call, validation failures
# (exit 1), usage errors (exit 2), the 0600 file.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
todo() { run_skillrt --home "$home" --user alice --json todo "$@"; }

todo list
assert_exit 0
assert_json_object
assert_eq '[]' "$(json_get "$RUN_OUT" '.todos')" "empty list"
assert_eq '{"total":0,"pending":0,"in_progress":0,"completed":0,"cancelled":0}' "$(json_get "$RUN_OUT" '.summary')" "empty summary"

todo write --items '[{"id":"1","content":"plan","status":"completed"},{"id":"2","content":"build","status":"in_progress"},{"id":"3","content":"ship"}]'
assert_exit 0
assert_eq '["success","todos","summary"]' "$(json_get "$RUN_OUT" 'keys_unsorted')" "key order"
assert_eq pending "$(json_get "$RUN_OUT" '.todos[2].status')" "default status"
assert_eq '{"total":3,"pending":1,"in_progress":1,"completed":1,"cancelled":0}' "$(json_get "$RUN_OUT" '.summary')" "summary"

# Merge: update fields given for existing ids, append new ids.
todo write --merge --items '[{"id":"2","status":"completed"},{"id":"4","content":"announce","status":"cancelled"}]'
assert_exit 0
assert_eq '["1","2","3","4"]' "$(json_get "$RUN_OUT" '[.todos[].id]')" "merged ids"
assert_eq build "$(json_get "$RUN_OUT" '.todos[1].content')" "content kept"
assert_eq completed "$(json_get "$RUN_OUT" '.todos[1].status')" "status merged"

# Replace from a file (and stdin): the whole list is swapped.
printf '{"todos":[{"id":"only","content":"from a file"}]}' >"$E2E_TMP/items.json"
todo write --file "$E2E_TMP/items.json"
assert_exit 0
assert_eq '["only"]' "$(json_get "$RUN_OUT" '[.todos[].id]')" "replaced from file"
RUN_CMD="todo write --file -"
RUN_OUT=$(printf '[{"id":"s","content":"from stdin"}]' | "$SKILLRT_BIN" --home "$home" --user alice --json todo write --file -)
assert_eq '["s"]' "$(json_get "$RUN_OUT" '[.todos[].id]')" "replaced from stdin"

# Validation failures: exit 1, list unchanged.
before=$(cat "$home/users/alice/todo.json")
todo write --items '[{"id":"a","content":"x"},{"id":"a","content":"y"}]'
assert_exit 1
assert_json_object
assert_contains "$(json_get "$RUN_OUT" '.error')" "'a'"
todo write --items '[{"id":"","content":"x"}]'
assert_exit 1
todo write --merge --items '[{"id":"new-without-content","status":"pending"}]'
assert_exit 1
assert_eq "$before" "$(cat "$home/users/alice/todo.json")" "file untouched by failures"

# Usage errors: exit 2.
todo write --items 'not json'
assert_exit 2
assert_json_object
todo write --items '[{"id":"1","content":"x","status":"done"}]'
assert_exit 2
todo write
assert_exit 2
todo write --items '[]' --file "$E2E_TMP/items.json"
assert_exit 2

# Text mode.
run_skillrt --home "$home" --user alice todo list
assert_exit 0
assert_contains "$RUN_OUT" "[ ] s: from stdin"
assert_contains "$RUN_OUT" "1 item: 1 pending"

assert_eq 600 "$(stat -c %a "$home/users/alice/todo.json")" "file mode"
assert_eq 1 "$(jq -r .version "$home/users/alice/todo.json")" "version"
