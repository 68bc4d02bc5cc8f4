#!/usr/bin/env bash
# `skillrt mcp` watches the skills: a SKILL.md written by another program
# makes the server send notifications/resources/list_changed and
# prompts/list_changed on stdout (within seconds, no restart), and the next
# listing shows the new skill. A change in another user's folder sends
# nothing to this user. Closing stdin ends the server with exit 0.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/notes" notes "Keep notes"
mkdir -p "$home/users/bob/skills"
fifo="$E2E_TMP/in.fifo"
mkfifo "$fifo"
out="$E2E_TMP/out"
"$SKILLRT_BIN" --home "$home" --user alice --org 1 mcp <"$fifo" >"$out" 2>"$E2E_TMP/err" &
pid=$!
exec 3>"$fifo"
send() { printf '%s\n' "$1" >&3; }
# wait_for JQ_FILTER: until a stdout line matches (10 s).
wait_for() {
  local i
  for ((i = 0; i < 100; i++)); do
    if jq -e -s "any(.[]; $1)" "$out" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  RUN_OUT=$(cat "$out")
  RUN_ERR=$(cat "$E2E_TMP/err")
  fail "no message matching [$1]"
}

send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
send '{"jsonrpc":"2.0","method":"notifications/initialized"}'
send '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skills_list","arguments":{}}}'
wait_for '.id == 2'
# Reads cause no notifications (a client re-lists on each one); let the
# watcher settle before counting.
sleep 1
changes() { jq -s '[.[] | select(.method == "notifications/resources/list_changed")] | length' "$out"; }
before=$(changes)

# Another user's folder changes: nothing for alice.
make_skill "$home/users/bob/skills/bobs" bobs "Bob's"
sleep 1.5
assert_eq "$before" "$(changes)" "list_changed after bob's change"

make_skill "$home/skills/arrived" arrived "Written by an editor"
for ((i = 0; i < 100; i++)); do
  (($(changes) > before)) && break
  sleep 0.1
done
(($(changes) > before)) || fail "no list_changed after a shared skill was written"

wait_for '.method == "notifications/prompts/list_changed"'
send '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skills_list","arguments":{}}}'
wait_for '.id == 3'
names=$(jq -s -r -c '.[] | select(.id == 3) | [.result.structuredContent.skills[].name]' "$out")
assert_eq '["arrived","notes"]' "$names" "listing after the change"

exec 3>&-
code=0
for ((i = 0; i < 100; i++)); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && { kill "$pid"; fail "skillrt mcp did not exit at EOF"; }
wait "$pid" || code=$?
assert_eq 0 "$code" "exit code at EOF"
