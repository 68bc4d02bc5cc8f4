#!/usr/bin/env bash
# Usage records are kept up to date by the readers (issue 2/6 item 5): a CLI
# `view` counts a view and an `invoke` a use, at once; an MCP session's
# skill_view and prompts/get are counted in memory and written when the tally
# flushes (here, at the end of the session); a user's counts go to the
# user's own book; external skills are not counted. view names the
# provenance of what it shows.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

home=$(make_home)
make_skill "$home/skills/ops/deploy" deploy "Deploy the service"
make_skill "$home/users/alice/skills/notes" notes "Alice's notes"
make_skill "$E2E_TMP/external/ext-tool" ext-tool "An external skill"
printf 'skills:\n  external_dirs:\n    - %s\n' "$E2E_TMP/external" >"$home/config.yaml"

usage() { jq -r -c "$2" "$1"; }

run_skillrt --home "$home" --json view deploy
assert_exit 0
assert_eq user "$(json_get "$RUN_OUT" .provenance.kind)" "a skill the person wrote"
assert_eq 1 "$(usage "$home/skills/.usage.json" .skills.deploy.views)" "views after one CLI view"
run_skillrt --home "$home" view deploy
assert_exit 0
assert_contains "$RUN_ERR" "provenance: " "text mode names the provenance on stderr"
run_skillrt --home "$home" --json invoke /deploy to staging
assert_exit 0
assert_eq 2 "$(usage "$home/skills/.usage.json" .skills.deploy.views)"
assert_eq 1 "$(usage "$home/skills/.usage.json" .skills.deploy.uses)" "uses after one invoke"
[[ "$(usage "$home/skills/.usage.json" .skills.deploy.last_used)" =~ ^20[0-9]{2}-[0-9]{2}-[0-9]{2}T ]] ||
  fail "last_used is not a timestamp"

# External skills are viewable, never counted.
run_skillrt --home "$home" --json view ext-tool
assert_exit 0
assert_eq external "$(json_get "$RUN_OUT" .provenance.kind)"
assert_eq null "$(usage "$home/skills/.usage.json" '.skills["ext-tool"]')" "an external skill has no record"

# An MCP session: two views and one prompt, written when the session ends.
cat >"$E2E_TMP/session.jsonl" <<'JSON'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"deploy"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"deploy"}}}
{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"deploy","arguments":{"instruction":"now"}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"no-such-skill"}}}
JSON
timeout 60 "$SKILLRT_BIN" --home "$home" mcp <"$E2E_TMP/session.jsonl" >"$E2E_TMP/mcp.out" 2>"$E2E_TMP/mcp.err" ||
  fail "skillrt mcp failed: $(cat "$E2E_TMP/mcp.err")"
assert_eq 4 "$(usage "$home/skills/.usage.json" .skills.deploy.views)" "views after the MCP session"
assert_eq 2 "$(usage "$home/skills/.usage.json" .skills.deploy.uses)" "uses after the MCP prompt"
assert_eq null "$(usage "$home/skills/.usage.json" '.skills["no-such-skill"]')" "a failed view counts nothing"

# Alice's views go to her own book, never the shared one.
timeout 60 "$SKILLRT_BIN" --home "$home" --user alice mcp <<'JSON' >/dev/null 2>&1 || fail "alice's session failed"
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"notes"}}}
JSON
assert_eq 1 "$(usage "$home/users/alice/usage.json" .skills.notes.views)" "alice's view in her book"
assert_eq null "$(usage "$home/skills/.usage.json" .skills.notes)" "alice's skill in the shared book"
