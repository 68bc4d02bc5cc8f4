#!/usr/bin/env bash
# `skillrt mcp` on hostile input: malformed JSON, a wrong version, a batch,
# unknown methods, calls before initialize, an oversized line (refused with
# id null without buffering it, and the session goes on), CRLF and blank
# lines, and a last line without its newline. No crash, exit 0 at EOF.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/notes" notes "Keep notes"
input="$E2E_TMP/bad.jsonl"
{
  echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
  echo '{"jsonrpc":"2.0","id":2,"method":"ping"}'
  echo '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
  echo '{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}'
  echo '{"jsonrpc":"2.0","id":5,"method":"tools/list'
  echo '[{"jsonrpc":"2.0","id":6,"method":"ping"}]'
  echo '{"jsonrpc":"1.0","id":"seven","method":"ping"}'
  echo '{"jsonrpc":"2.0","id":8,"method":"no/such/method"}'
  echo '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":42}}}'
  echo '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"no_such_tool"}}'
  echo '{"jsonrpc":"2.0","id":null,"method":"ping"}'
  echo ''
  printf '{"jsonrpc":"2.0","id":11,"method":"ping","pad":"'
  head -c $((4 * 1024 * 1024 + 10)) /dev/zero | tr '\0' 'x'
  echo '"}'
  printf '{"jsonrpc":"2.0","id":12,"method":"ping"}\r\n'
  echo '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"skills_list","arguments":{"category":["x"]}}}'
  printf '{"jsonrpc":"2.0","id":14,"method":"ping"}'
} >"$input"

RUN_CMD="skillrt mcp < bad.jsonl"
RUN_CODE=0
timeout 60 "$SKILLRT_BIN" --home "$home" mcp <"$input" >"$E2E_TMP/out" 2>"$E2E_TMP/err" || RUN_CODE=$?
RUN_OUT=$(cat "$E2E_TMP/out")
RUN_ERR=$(cat "$E2E_TMP/err")
assert_exit 0
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/err"; then
  fail "sanitizer report"
fi
printf '%s\n' "$RUN_OUT" | jq -e -s 'all(.[]; .jsonrpc == "2.0")' >/dev/null || fail "stdout has a non-JSON-RPC line"
code() {
  printf '%s\n' "$RUN_OUT" | jq -r -c --argjson id "$1" 'select(.id == $id) | .error.code // "ok"'
}
assert_eq -32600 "$(code 1)" "before initialize"
assert_eq ok "$(code 2)" "ping before initialize"
assert_eq ok "$(code 3)" "initialize"
assert_eq -32600 "$(code 4)" "second initialize"
assert_eq -32600 "$(printf '%s\n' "$RUN_OUT" | jq -r -c 'select(.id == "seven") | .error.code')" "wrong version"
assert_eq -32601 "$(code 8)" "unknown method"
assert_eq true "$(printf '%s\n' "$RUN_OUT" | jq -r -c 'select(.id == 9) | .result.isError')" "bad argument type"
assert_eq -32602 "$(code 10)" "unknown tool"
assert_eq ok "$(code 12)" "CRLF line"
assert_eq true "$(printf '%s\n' "$RUN_OUT" | jq -r -c 'select(.id == 13) | .result.isError')" "category of the wrong type"
assert_eq ok "$(code 14)" "last line without newline"
# id-less answers, in order: the parse error, the batch, the null id, the oversized line.
assert_eq '[-32700,-32600,-32600,-32600]' \
  "$(printf '%s\n' "$RUN_OUT" | jq -s -c '[.[] | select(.id == null) | .error.code]')" "errors with id null"
assert_contains "$(printf '%s\n' "$RUN_OUT" | jq -s -r '.[] | select(.id == null) | .error.message')" "larger than" "oversized"
[[ -z "$(printf '%s\n' "$RUN_OUT" | jq -r -c 'select(.id == 11)')" ]] || fail "the oversized message was answered as a request"

# A client that goes away mid-stream (its end of stdout closed) ends the
# server quietly: exit 0, no crash.
for ((i = 0; i < 2000; i++)); do
  echo '{"jsonrpc":"2.0","id":'"$i"',"method":"ping"}'
done >"$E2E_TMP/pings.jsonl"
set +o pipefail
{ sed -n 3p "$input"; cat "$E2E_TMP/pings.jsonl"; } | timeout 60 "$SKILLRT_BIN" --home "$home" mcp 2>"$E2E_TMP/err2" | head -c 100 >/dev/null
codes=("${PIPESTATUS[@]}")
set -o pipefail
assert_eq 0 "${codes[1]}" "exit code after the client went away"
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/err2"; then
  fail "sanitizer report after the client went away"
fi
