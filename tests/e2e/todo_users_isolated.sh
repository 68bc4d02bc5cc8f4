#!/usr/bin/env bash
# A todo list belongs to one user: B never sees A's items, no user is
# refused, path tricks in --user are refused, and two writers at once lose nothing.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
run_skillrt --home "$home" --user alice --json todo write --items '[{"id":"1","content":"alice private task"}]'
assert_exit 0

run_skillrt --home "$home" --user bob --json todo list
assert_exit 0
assert_eq 0 "$(json_get "$RUN_OUT" '.summary.total')" "bob sees nothing"
assert_not_contains "$RUN_OUT" "alice private task"
run_skillrt --home "$home" --user bob --json todo write --items '[{"id":"1","content":"bob task"}]'
run_skillrt --home "$home" --user alice --json todo list
assert_eq "alice private task" "$(json_get "$RUN_OUT" '.todos[0].content')" "alice unaffected by bob"

run_skillrt --home "$home" --json todo list
assert_exit 1
assert_eq "todo needs a user (--user)" "$(json_get "$RUN_OUT" '.error')" "no user"
run_skillrt --home "$home" --json todo write --items '[{"id":"1","content":"x"}]'
assert_exit 1

for id in "../alice" "alice/.." "/etc" ".." "a%2Fb/c"; do
  run_skillrt --home "$home" --user "$id" --json todo list
  assert_exit 2
  assert_json_object
done

# Two processes merging at once: every item survives.
for writer in p q; do
  (
    for i in $(seq 1 15); do
      "$SKILLRT_BIN" --home "$home" --user carol --json todo write --merge \
        --items "[{\"id\":\"$writer$i\",\"content\":\"task $writer$i\"}]" >/dev/null
    done
  ) &
done
wait
run_skillrt --home "$home" --user carol --json todo list
assert_eq 30 "$(json_get "$RUN_OUT" '.summary.total')" "concurrent merges kept"
