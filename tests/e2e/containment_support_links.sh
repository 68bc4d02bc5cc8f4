#!/usr/bin/env bash
# A support file linked outside its skill is not offered (view's
# linked_files, MCP resources/list, skills/list) and reading it anyway is a
# client error (-32002 resource not found), never -32603; a link that stays
# inside the skill is listed and read as before.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/docs" docs "Has files"
mkdir -p "$home/skills/docs/references"
printf '# OK\n' >"$home/skills/docs/references/ok.md"
ln -s ok.md "$home/skills/docs/references/alias.md"
echo "TOP-SECRET" >"$E2E_TMP/secret.md"
ln -s "$E2E_TMP/secret.md" "$home/skills/docs/references/leak.md"
mkdir -p "$E2E_TMP/outside-dir"
echo "TOP-SECRET" >"$E2E_TMP/outside-dir/x.md"
ln -s "$E2E_TMP/outside-dir" "$home/skills/docs/templates"

run_skillrt --home "$home" --json view docs
assert_exit 0
assert_eq '{"references":["references/alias.md","references/ok.md"]}' "$(json_get "$RUN_OUT" '.linked_files')" \
  "linked_files"

run_skillrt --home "$home" --json view docs --file references/leak.md
assert_exit 1
assert_contains "$(json_get "$RUN_OUT" '.error')" "escapes"
assert_not_contains "$RUN_OUT" "TOP-SECRET"

run_skillrt --home "$home" --json view docs --file nope.md
assert_exit 1
assert_not_contains "$(json_get "$RUN_OUT" '.available_files')" "leak.md"
assert_not_contains "$(json_get "$RUN_OUT" '.available_files')" "templates/x.md"

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
cat >"$E2E_TMP/session.jsonl" <<JSON
$init
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"resources/list"}
{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"skill://docs/references/leak.md"}}
{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://docs/templates/x.md"}}
{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"skill://docs/references/alias.md"}}
{"jsonrpc":"2.0","id":6,"method":"skills/list"}
JSON
code=0
timeout 60 "$SKILLRT_BIN" --home "$home" mcp <"$E2E_TMP/session.jsonl" >"$E2E_TMP/.mcp.out" 2>"$E2E_TMP/.mcp.err" || code=$?
[[ $code == 0 ]] || fail "skillrt mcp exited $code: $(cat "$E2E_TMP/.mcp.err")"
out=$(cat "$E2E_TMP/.mcp.out")
answer() { printf '%s\n' "$out" | jq -r -c --argjson id "$1" "select(.id == \$id) | $2"; }
assert_not_contains "$out" "TOP-SECRET"
assert_eq '["skill://docs/SKILL.md","skill://docs/references/alias.md","skill://docs/references/ok.md"]' \
  "$(answer 2 '[.result.resources[].uri] | sort')" "resources/list"
assert_eq -32002 "$(answer 3 '.error.code')" "reading an escaping file link"
assert_eq -32002 "$(answer 4 '.error.code')" "reading through an escaping folder link"
assert_eq "# OK" "$(answer 5 '.result.contents[0].text' | head -1)" "a link inside the skill"
assert_not_contains "$(answer 6 '[.result.skills[].resources[].uri]')" "leak.md" "skills/list manifest"
