#!/usr/bin/env bash
# The turns API of `skillrt serve`: an agent reports each finished turn to
# POST /api/v1/turns with its bearer token; skillrt keeps the nudge counters
# per user and conversation and, when skills.creation_nudge_interval
# tool-calling iterations pass without a skill write, runs the background
# review against the configured model (the scripted upstream). The review's
# new skill waits in that user's inbox; GET /api/v1/reviews shows the report;
# another user sees neither, and bad requests get JSON errors.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
source "$here/review/upstream.sh"
require_node_tools
command -v curl >/dev/null 2>&1 || skip "curl is required"

home=$(make_home)
skill_md=$(printf '%s\n' '---' 'name: release-checklist' 'description: Steps before tagging a release' '---' \
  '# Release checklist' '' '1. Run the smoke tests.' '2. Update the changelog.')
create_args=$(jq -cn --arg content "$skill_md" '{action: "create", name: "release-checklist", content: $content} | tojson')
jq -n --argjson create "$create_args" '{steps: [
  {type: "completion", content: null, tool_calls: [{id: "c1", name: "skill_manage", arguments: $create}],
   usage: {prompt_tokens: 900, completion_tokens: 80}},
  {type: "completion", content: "Saved a release checklist.", usage: {prompt_tokens: 1000, completion_tokens: 8}}]}' \
  >"$E2E_TMP/script.json"
start_upstream "$E2E_TMP/script.json"
configure_review "$home" "skills:" "  creation_nudge_interval: 2"

run_skillrt --home "$home" --user alice --org org1 --json token create
alice=$(json_get "$RUN_OUT" '.bearer')
run_skillrt --home "$home" --user bob --org org1 --json token create
bob=$(json_get "$RUN_OUT" '.bearer')

start_serve "$home" --threads 1
trap 'stop_upstream; stop_serve' EXIT
api="${SERVE_URL%/mcp}/api/v1"

# api METHOD PATH [BODY] [CURL ARGS...]: sets STATUS and BODY.
api_call() {
  local method=$1 path=$2 body=${3:-}
  shift 3 || shift $#
  local args=(-sS -o "$E2E_TMP/body" -w '%{http_code}' -X "$method" "$api$path" "$@")
  [[ -n "$body" ]] && args+=(-H 'Content-Type: application/json' --data-binary "$body")
  STATUS=$(curl "${args[@]}")
  BODY=$(cat "$E2E_TMP/body")
}

turn='{"conversation_id": "release-1", "model": "agent-model", "messages": [
  {"role": "user", "content": "Tag the release."},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function",
    "function": {"name": "terminal", "arguments": "{\"command\":\"make smoke\"}"}}]},
  {"role": "tool", "tool_call_id": "t1", "content": "ok"},
  {"role": "assistant", "content": "Tagged v1.2 after the smoke tests."}]}'

api_call POST /turns "$turn"
assert_eq 401 "$STATUS" "no token"
assert_eq false "$(json_get "$BODY" .success)" "401 body is a JSON error"

api_call POST /turns "$turn" -H "Authorization: Bearer $bob"
assert_eq 202 "$STATUS" "bob's first turn starts a review (202 Accepted)"
# Two model calls in the turn reach the interval: the review is due and the counter starts over.
assert_eq true "$(json_get "$BODY" .review.due)" "interval 2 reached"
assert_eq true "$(json_get "$BODY" .review.skills)"
assert_eq 0 "$(json_get "$BODY" .counters.iters_since_skill)" "the counter resets when it fires"
assert_eq true "$(json_get "$BODY" .review.started)"
# The same conversation id under another user is another conversation.
api_call POST /turns '{"conversation_id": "release-1", "tool_iterations": 1, "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}' \
  -H "Authorization: Bearer $alice"
assert_eq 200 "$STATUS" "alice's turn"
assert_eq 1 "$(json_get "$BODY" .counters.iters_since_skill)" "alice's own counter"
assert_eq false "$(json_get "$BODY" .review.due)"

# Bob's review runs in the background; its report appears.
for _ in $(seq 1 200); do
  api_call GET /reviews "" -H "Authorization: Bearer $bob"
  [[ "$(json_get "$BODY" '.reviews | length')" == 1 ]] && break
  sleep 0.1
done
assert_eq 1 "$(json_get "$BODY" '.reviews | length')" "bob's finished review"
assert_eq finished "$(json_get "$BODY" '.reviews[0].ending')"
assert_eq release-1 "$(json_get "$BODY" '.reviews[0].conversation_id')"
assert_eq 1 "$(json_get "$BODY" '.reviews[0].proposals | length')"
proposal=$(json_get "$BODY" '.reviews[0].proposals[0]')
api_call GET /reviews "" -H "Authorization: Bearer $alice"
assert_eq 0 "$(json_get "$BODY" '.reviews | length')" "alice sees none of bob's reviews"

# The proposal is in bob's inbox only; approving puts the skill in his layer.
run_skillrt --home "$home" --user bob --org org1 --json pending list
assert_eq 1 "$(json_get "$RUN_OUT" .count)"
assert_eq user "$(json_get "$RUN_OUT" '.proposals[0].layer')"
run_skillrt --home "$home" --user alice --org org1 --json pending list
assert_eq 0 "$(json_get "$RUN_OUT" .count)" "alice's inbox"
run_skillrt --home "$home" --user alice --org org1 --json pending approve "$proposal"
assert_exit 1
run_skillrt --home "$home" --user bob --org org1 --json pending approve "$proposal"
assert_exit 0
[[ -f "$home/users/bob/skills/generated/release-checklist/SKILL.md" ]] || fail "the approved skill is not in bob's generated/ folder"
[[ ! -e "$home/skills/release-checklist" ]] || fail "the approved skill leaked into the shared layer"

# Bad requests: JSON errors with fitting statuses.
api_call POST /turns '{"messages": 7}' -H "Authorization: Bearer $bob"
assert_eq 400 "$STATUS" "messages not an array"
assert_contains "$(json_get "$BODY" .error)" "'messages'"
api_call POST /turns 'not json' -H "Authorization: Bearer $bob"
assert_eq 400 "$STATUS" "not JSON"
api_call GET /turns "" -H "Authorization: Bearer $bob"
assert_eq 405 "$STATUS" "GET on turns"
api_call GET /nothing-here "" -H "Authorization: Bearer $bob"
assert_eq 404 "$STATUS" "unknown route"
assert_eq false "$(json_get "$BODY" .success)"
STATUS=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$api/turns" -H "Authorization: Bearer $bob" \
  -H 'Content-Type: text/plain' --data-binary "$turn")
assert_eq 415 "$STATUS" "a body that is not JSON by type"
