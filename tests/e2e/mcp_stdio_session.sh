#!/usr/bin/env bash
# `skillrt mcp`: one newline-delimited JSON-RPC session over stdio. Every
# method answers by id on stdout (nothing else is printed there), the tools
# carry Hermes' JSON as structuredContent, and --user scopes what is served.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# run_mcp INPUT ARGS…: pipes INPUT into `skillrt ARGS… mcp`; RUN_OUT holds the lines.
run_mcp() {
  local input=$1
  shift
  RUN_CMD="skillrt $* mcp < $input"
  RUN_CODE=0
  timeout 60 "$SKILLRT_BIN" "$@" mcp <"$input" >"$E2E_TMP/.mcp.out" 2>"$E2E_TMP/.mcp.err" || RUN_CODE=$?
  RUN_OUT=$(cat "$E2E_TMP/.mcp.out")
  RUN_ERR=$(cat "$E2E_TMP/.mcp.err")
  [[ $RUN_CODE != 124 ]] || fail "skillrt mcp did not finish within 60 s"
  if [[ $RUN_CODE == 86 || $RUN_CODE -ge 128 ]] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/.mcp.err"; then
    fail "skillrt mcp crashed or a sanitizer reported an error"
  fi
}
# answer ID FILTER: jq FILTER applied to the response with that id.
answer() {
  printf '%s\n' "$RUN_OUT" | jq -r -c --argjson id "$1" "select(.id == \$id) | $2" ||
    fail "jq failed on the answer to id $1"
}

home=$(make_home)
make_skill "$home/skills/devops/deploy" deploy "Deploy the service"
mkdir -p "$home/skills/devops/deploy/references"
printf '# API\n' >"$home/skills/devops/deploy/references/api.md"
make_skill "$home/skills/notes" notes "Keep notes"
make_skill "$home/users/alice/skills/mine" mine "Alice's own skill"
make_skill "$home/users/bob/skills/theirs" theirs "Bob's own skill"

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'
cat >"$E2E_TMP/session.jsonl" <<JSON
$init
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skills_list","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"deploy"}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"deploy","file_path":"references/api.md"}}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"skills_search","arguments":{"query":"deploy service"}}}
{"jsonrpc":"2.0","id":7,"method":"prompts/list"}
{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"deploy","arguments":{"instruction":"to staging"}}}
{"jsonrpc":"2.0","id":9,"method":"resources/list"}
{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"skill://devops/deploy/references/api.md"}}
{"jsonrpc":"2.0","id":11,"method":"skills/list"}
{"jsonrpc":"2.0","id":12,"method":"ping"}
{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"skill_manage","arguments":{"action":"create","name":"fresh","content":"---\nname: fresh\ndescription: Made over MCP\n---\nBody.\n"}}}
{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"fresh"}}}
JSON
run_mcp "$E2E_TMP/session.jsonl" --home "$home"
assert_exit 0
# stdout holds only JSON-RPC messages, one per line.
printf '%s\n' "$RUN_OUT" | jq -e -s 'all(.[]; .jsonrpc == "2.0")' >/dev/null || fail "stdout has a non-JSON-RPC line"
assert_eq 14 "$(printf '%s\n' "$RUN_OUT" | jq -s '[.[] | select(has("id"))] | length')" "answers"
assert_eq 2025-06-18 "$(answer 1 '.result.protocolVersion')" "negotiated version"
assert_eq '["skills_list","skill_view","skill_manage","skills_search","skills_match"]' "$(answer 2 '[.result.tools[].name]')" "tools"
assert_eq 2 "$(answer 3 '.result.structuredContent.count')" "skills_list count"
assert_eq false "$(answer 3 '.result.isError')" "skills_list isError"
# The tool's JSON is exactly what `skillrt --json view` prints, but for the
# CLI's `provenance` (a person reading the CLI wants it; the MCP tool keeps
# Hermes' shape).
run_skillrt --home "$home" --json view deploy
assert_eq user "$(json_get "$RUN_OUT" .provenance.kind)" "the CLI names the provenance"
assert_eq "$(printf '%s' "$RUN_OUT" | jq -S -c 'del(.provenance)')" \
  "$(printf '%s\n' "$(cat "$E2E_TMP/.mcp.out")" | jq -S -c 'select(.id == 4) | .result.structuredContent')" "skill_view JSON"
RUN_OUT=$(cat "$E2E_TMP/.mcp.out")
assert_eq "# API" "$(answer 5 '.result.structuredContent.content' | head -1)" "linked file"
assert_eq deploy "$(answer 6 '.result.structuredContent.results[0].name')" "search hit"
assert_eq '["deploy","notes"]' "$(answer 7 '[.result.prompts[].name]')" "prompts"
assert_contains "$(answer 8 '.result.messages[0].content.text')" "to staging" "invocation message"
assert_contains "$(answer 9 '[.result.resources[].uri]')" "skill://devops/deploy/SKILL.md" "resources"
assert_eq "# API" "$(answer 10 '.result.contents[0].text' | head -1)" "resource text"
assert_eq "sha256:$(sha256sum "$home/skills/devops/deploy/references/api.md" | cut -d' ' -f1)" \
  "$(answer 11 '.result.skills[] | select(.frontmatter.name == "deploy") | .resources[] | select(.uri | endswith("api.md")) | .digest')" "digest"
assert_eq '{}' "$(answer 12 '.result')" "ping"
assert_eq false "$(answer 13 '.result.isError')" "skill_manage create"
assert_eq "Made over MCP" "$(answer 14 '.result.structuredContent.description')" "view after create"
[[ -f "$home/skills/fresh/SKILL.md" ]] || fail "create did not write the skill"

# Tenancy: alice sees the shared skills and her own, never bob's.
cat >"$E2E_TMP/alice.jsonl" <<JSON
$init
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skills_list","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"theirs"}}}
{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://theirs/SKILL.md"}}
JSON
run_mcp "$E2E_TMP/alice.jsonl" --home "$home" --user alice --org 1
assert_exit 0
assert_eq '["deploy","fresh","mine","notes"]' "$(answer 2 '[.result.structuredContent.skills[].name] | sort')" "alice's skills"
assert_eq true "$(answer 3 '.result.isError')" "bob's skill for alice"
assert_eq -32002 "$(answer 4 '.error.code')" "bob's resource for alice"
