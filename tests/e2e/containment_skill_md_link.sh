#!/usr/bin/env bash
# One containment rule, everywhere (issue 14 item 8): a SKILL.md that is a
# symlink to a file outside its skill is refused by every reader (view, --json
# view, MCP skill_view, prompts/get, resources/read, skills/list, search) and
# left out of the listing with a skip reason doctor shows; a SKILL.md linked
# to another file of the same skill is served.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/good" good "A plain skill"
printf -- '---\nname: leak\ndescription: Leaked file\n---\nTOP-SECRET-LINE\n' >"$E2E_TMP/outside.md"
mkdir -p "$home/skills/leak"
ln -s "$E2E_TMP/outside.md" "$home/skills/leak/SKILL.md"
mkdir -p "$home/skills/alias/docs"
printf -- '---\nname: alias\ndescription: Linked inside\n---\nINSIDE-BODY\n' >"$home/skills/alias/docs/body.md"
ln -s docs/body.md "$home/skills/alias/SKILL.md"

run_skillrt --home "$home" view leak
assert_exit 1
assert_not_contains "$RUN_OUT$RUN_ERR" "TOP-SECRET-LINE"
assert_contains "$RUN_OUT$RUN_ERR" "outside its skill folder"

run_skillrt --home "$home" --json view leak
assert_exit 1
assert_json_object
assert_eq false "$(json_get "$RUN_OUT" '.success')" "success"
assert_contains "$(json_get "$RUN_OUT" '.error')" "outside its skill folder"
assert_not_contains "$RUN_OUT" "TOP-SECRET-LINE"

run_skillrt --home "$home" --json view alias
assert_exit 0
assert_contains "$(json_get "$RUN_OUT" '.content')" "INSIDE-BODY"

run_skillrt --home "$home" --json list
assert_exit 0
assert_eq '["alias","good"]' "$(json_get "$RUN_OUT" '[.skills[].name] | sort')" "listed skills"

run_skillrt --home "$home" --json search "leaked file secret"
assert_not_contains "$RUN_OUT" "TOP-SECRET-LINE"
assert_not_contains "$RUN_OUT" '"leak"'

run_skillrt --home "$home" --json doctor
assert_exit 0
assert_eq escaping_link "$(json_get "$RUN_OUT" '.skipped[] | select(.path | endswith("leak/SKILL.md")) | .reason')" \
  "doctor's skip reason"
run_skillrt --home "$home" doctor
assert_contains "$RUN_OUT" "escaping_link"

# The same over MCP stdio, to a client that names the skill directly.
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
cat >"$E2E_TMP/session.jsonl" <<JSON
$init
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"leak"}}}
{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"leak","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://leak/SKILL.md"}}
{"jsonrpc":"2.0","id":5,"method":"skills/list"}
{"jsonrpc":"2.0","id":6,"method":"resources/list"}
{"jsonrpc":"2.0","id":7,"method":"prompts/list"}
{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"alias"}}}
JSON
code=0
timeout 60 "$SKILLRT_BIN" --home "$home" mcp <"$E2E_TMP/session.jsonl" >"$E2E_TMP/.mcp.out" 2>"$E2E_TMP/.mcp.err" || code=$?
[[ $code == 0 ]] || fail "skillrt mcp exited $code: $(cat "$E2E_TMP/.mcp.err")"
out=$(cat "$E2E_TMP/.mcp.out")
answer() { printf '%s\n' "$out" | jq -r -c --argjson id "$1" "select(.id == \$id) | $2"; }
assert_not_contains "$out" "TOP-SECRET-LINE"
assert_eq true "$(answer 2 '.result.isError')" "skill_view isError"
assert_contains "$(answer 2 '.result.structuredContent.error')" "outside its skill folder"
assert_eq -32602 "$(answer 3 '.error.code')" "prompts/get of the refused skill"
assert_eq -32002 "$(answer 4 '.error.code')" "resources/read of the refused SKILL.md"
assert_not_contains "$(answer 5 '[.result.skills[].uri]')" "skill://leak/" "skills/list"
assert_not_contains "$(answer 6 '[.result.resources[].uri]')" "skill://leak/" "resources/list"
assert_eq '["alias","good"]' "$(answer 7 '[.result.prompts[].name] | sort')" "prompts/list"
assert_contains "$(answer 8 '.result.structuredContent.content')" "INSIDE-BODY"
