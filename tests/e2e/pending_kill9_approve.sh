#!/usr/bin/env bash
# kill -9 during `skillrt pending approve` (issue 2/6): whenever the approver
# dies, the skill is the old or the new version, never a mix; the proposal's
# state matches the skill (still pending when nothing landed, found applied
# when the skill landed but the proposal's file was not yet rewritten); the
# ledger verifies; and the next approve finishes the job.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

[[ -n "${SKILLRT_FAULT_LIB:-}" && -f "${SKILLRT_FAULT_LIB:-}" ]] || skip "SKILLRT_FAULT_LIB (the fault shim) is not built"
export SKILLRT_NO_CACHE=1
export ASAN_OPTIONS="${ASAN_OPTIONS}:verify_asan_link_order=0"

home=$(make_home)
printf 'skills:\n  write_approval: all\n' >"$home/config.yaml"
make_skill "$home/skills/ops/rotate-logs" rotate-logs "Rotate the service logs"
run_skillrt --home "$home" adopt rotate-logs
assert_exit 0
cp "$home/skills/ops/rotate-logs/SKILL.md" "$E2E_TMP/original.md"

# stage_edit FILE: an agent's edit over MCP; with write_approval: all it becomes a proposal.
stage_edit() {
  local content
  content=$(jq -Rs . <"$1")
  cat >"$E2E_TMP/session.jsonl" <<JSON
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill_manage","arguments":{"action":"edit","name":"rotate-logs","content":$content}}}
JSON
  timeout 60 "$SKILLRT_BIN" --home "$home" mcp <"$E2E_TMP/session.jsonl" >"$E2E_TMP/mcp.out" 2>"$E2E_TMP/mcp.err" ||
    fail "skillrt mcp failed: $(cat "$E2E_TMP/mcp.err")"
  jq -r 'select(.id == 2) | .result.structuredContent.pending_id' "$E2E_TMP/mcp.out"
}

# approve_and_kill ID MATCH: approve with the write to files matching MATCH
# hanging after 100 bytes, then kill -9 once that write has begun.
approve_and_kill() {
  local id=$1 match=$2 temp=""
  SKILLRT_FAULT="write:sleep=120:after=100:match=$match" LD_PRELOAD="$SKILLRT_FAULT_LIB" \
    "$SKILLRT_BIN" --home "$home" --json pending approve "$id" >/dev/null 2>&1 </dev/null &
  local approver=$!
  for _ in $(seq 1 400); do
    temp=$(find "$home" -name "*$match*" -size +99c 2>/dev/null | head -n 1)
    [[ -n "$temp" ]] && break
    sleep 0.05
  done
  kill -9 "$approver" 2>/dev/null
  wait "$approver" 2>/dev/null || true
  [[ -n "$temp" ]] || fail "the approver never began writing $match"
}

{
  printf -- '---\nname: rotate-logs\ndescription: Rotate and compress the service logs\n---\n# Rotate logs\n\n'
  head -c 4000 /dev/zero | tr '\0' 'r'
  printf '\n'
} >"$E2E_TMP/first.md"

# 1. Killed while the new SKILL.md is being written: nothing landed.
id=$(stage_edit "$E2E_TMP/first.md")
[[ -n "$id" && "$id" != null ]] || fail "the agent's edit was not staged: $(cat "$E2E_TMP/mcp.out")"
approve_and_kill "$id" "SKILL.md.tmp"
cmp -s "$E2E_TMP/original.md" "$home/skills/ops/rotate-logs/SKILL.md" || fail "SKILL.md is not the old content"
run_skillrt --home "$home" --json pending show "$id"
assert_exit 0
assert_eq pending "$(json_get "$RUN_OUT" '.proposal.state')" "nothing landed, so the proposal still waits"
run_skillrt --home "$home" ledger verify
assert_exit 0
run_skillrt --home "$home" --json pending approve "$id"
assert_exit 0
assert_eq applied "$(json_get "$RUN_OUT" '.proposal.state')"
cmp -s "$E2E_TMP/first.md" "$home/skills/ops/rotate-logs/SKILL.md" || fail "the retried approve did not land"
run_skillrt --home "$home" ledger verify
assert_exit 0

# 2. Killed after the skill landed, while the proposal's own file is rewritten.
{
  printf -- '---\nname: rotate-logs\ndescription: Rotate, compress and prune the service logs\n---\n# Rotate logs\n\n'
  head -c 4000 /dev/zero | tr '\0' 'p'
  printf '\n'
} >"$E2E_TMP/second.md"
id=$(stage_edit "$E2E_TMP/second.md")
[[ -n "$id" && "$id" != null ]] || fail "the second edit was not staged"
approve_and_kill "$id" "$id.json.tmp"
cmp -s "$E2E_TMP/second.md" "$home/skills/ops/rotate-logs/SKILL.md" || fail "SKILL.md is not the new content"
run_skillrt --home "$home" --json pending show "$id"
assert_exit 0
assert_eq applied "$(json_get "$RUN_OUT" '.proposal.state')" "the landed change is found applied"
run_skillrt --home "$home" --json pending approve "$id"
[[ $RUN_CODE != 0 ]] || fail "approving an applied proposal again succeeded"
run_skillrt --home "$home" ledger verify
assert_exit 0
run_skillrt --home "$home" --json ledger list --skill rotate-logs
assert_exit 0
# Two approvals landed, and each is in the ledger once.
assert_eq 2 "$(json_get "$RUN_OUT" '[.entries[] | select(.action == "approve")] | length')" "one ledger entry per landed approval"
assert_eq "" "$(find "$home/skills" -name '.SKILL.md.tmp.*')" "a temp SKILL.md left in the skill"
