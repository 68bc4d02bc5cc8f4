#!/usr/bin/env bash
# The learning loop end to end through the binary: a conversation where the
# agent struggled goes to `skillrt review`, which talks to an
# OpenAI-compatible upstream (the scripted stand-in; its wire format is
# checked by the official openai client in upstream_openai_client); the
# model's new skill becomes a proposal, nothing is live until
# `skillrt pending approve`, then the skill is listed and marked agent-made.
# Also: what the review sent (only its tools, the review prompt, the key from
# HOME/.env, the model) and that its hostile calls wrote nothing.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
source "$here/review/upstream.sh"
require_node_tools

home=$(make_home)
echo "REVIEW_TEST_KEY=sk-from-dotenv" >"$home/.env"
make_skill "$home/skills/ci/ci-basics" ci-basics "How CI runs here"

cat >"$E2E_TMP/transcript.json" <<'JSON'
{"model": "agent-model", "conversation_id": "conv-42", "messages": [
  {"role": "system", "content": "You are a coding agent."},
  {"role": "user", "content": "The payments test fails on CI but passes locally. Fix it."},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "t1", "type": "function",
    "function": {"name": "terminal", "arguments": "{\"command\":\"pytest tests/payments -x\"}"}}]},
  {"role": "tool", "tool_call_id": "t1", "content": "1 passed"},
  {"role": "assistant", "content": "It passes locally; I will retry CI."},
  {"role": "user", "content": "No. Retrying hides flakiness. Run it 50 times with random order first, like I always ask."},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "t2", "type": "function",
    "function": {"name": "terminal", "arguments": "{\"command\":\"pytest tests/payments -p random_order --count 50\"}"}}]},
  {"role": "tool", "tool_call_id": "t2", "content": "3 failed, 47 passed: order-dependent fixture"},
  {"role": "assistant", "content": "Found it: a shared fixture leaks state between tests. Fixed by scoping it per test."}
]}
JSON

skill_md=$(printf '%s\n' '---' 'name: flaky-test-triage' \
  'description: Triage a test that fails on CI but passes locally' '---' '# Flaky test triage' '' \
  '1. Run the test many times in random order before touching CI: `pytest PATH -p random_order --count 50`.' \
  '2. Look for state shared between tests (module fixtures, globals).' '' 'Pitfall: retrying CI hides flakiness.')
create_args=$(jq -cn --arg content "$skill_md" \
  '{action: "create", name: "flaky-test-triage", category: "testing", content: $content} | tojson')
jq -n --argjson create "$create_args" '{model: "review-model", steps: [
  {type: "completion", content: null,
   tool_calls: [{id: "c1", name: "skills_list", arguments: "{}"}],
   usage: {prompt_tokens: 1800, completion_tokens: 20}},
  {type: "completion", content: null,
   tool_calls: [{id: "c2", name: "terminal", arguments: "{\"command\":\"rm -rf /\"}"},
                {id: "c3", name: "skill_manage", arguments: "{\"action\":\"create\",\"name\":\"../escape\",\"content\":\"x\"}"},
                {id: "c4", name: "read_file", arguments: "{\"path\":\"../.env\"}"},
                {id: "c5", name: "skill_manage", arguments: "not json at all"}],
   usage: {prompt_tokens: 2100, completion_tokens: 60}},
  {type: "completion", content: null,
   tool_calls: [{id: "c6", name: "skill_manage", arguments: $create}],
   usage: {prompt_tokens: 2600, completion_tokens: 180}},
  {type: "completion", content: "Created a class-level skill for flaky test triage.",
   usage: {prompt_tokens: 2900, completion_tokens: 12}}]}' >"$E2E_TMP/script.json"
start_upstream "$E2E_TMP/script.json"
trap 'stop_upstream; e2e_cleanup' EXIT
configure_review "$home"

run_skillrt --home "$home" --json review --transcript "$E2E_TMP/transcript.json"
assert_exit 0
assert_json_object
assert_eq finished "$(json_get "$RUN_OUT" .ending)" "review ending"
assert_eq 4 "$(json_get "$RUN_OUT" .iterations)" "model calls"
assert_eq 9400 "$(json_get "$RUN_OUT" .usage.prompt_tokens)" "prompt tokens summed"
assert_eq 272 "$(json_get "$RUN_OUT" .usage.completion_tokens)" "completion tokens summed"
assert_eq false "$(json_get "$RUN_OUT" .digest)" "a short conversation goes whole even to another model"
assert_eq 1 "$(json_get "$RUN_OUT" '.proposals | length')" "one proposal"
proposal=$(json_get "$RUN_OUT" '.proposals[0]')
# The hostile calls were answered with errors and wrote nothing.
assert_contains "$(json_get "$RUN_OUT" '.actions[1].summary')" "refused tool 'terminal'"
assert_eq false "$(json_get "$RUN_OUT" '.actions[2].success')" "a name with .. is refused"
assert_eq false "$(json_get "$RUN_OUT" '.actions[3].success')" "read_file outside the skills"
assert_eq false "$(json_get "$RUN_OUT" '.actions[4].success')" "arguments that are not JSON"
[[ ! -e "$home/escape" && ! -e "$home/skills/escape" ]] || fail "a hostile create wrote something"

# Nothing is live yet.
run_skillrt --home "$home" --json list
assert_not_contains "$RUN_OUT" flaky-test-triage "listed before approval"
run_skillrt --home "$home" --json pending list
assert_eq 1 "$(json_get "$RUN_OUT" .count)"
assert_eq "$proposal" "$(json_get "$RUN_OUT" '.proposals[0].id')"
assert_eq review "$(json_get "$RUN_OUT" '.proposals[0].origin')"
run_skillrt --home "$home" pending diff "$proposal"
assert_exit 0
assert_contains "$RUN_OUT" "+++ b/SKILL.md"
assert_contains "$RUN_OUT" "+1. Run the test many times in random order"
run_skillrt --home "$home" pending show "$proposal"
assert_contains "$RUN_OUT" "create 'flaky-test-triage'"

run_skillrt --home "$home" --json pending approve "$proposal"
assert_exit 0
assert_eq applied "$(json_get "$RUN_OUT" .proposal.state)"
run_skillrt --home "$home" --json list
assert_contains "$RUN_OUT" flaky-test-triage "listed after approval"
[[ -f "$home/skills/generated/testing/flaky-test-triage/SKILL.md" ]] || fail "the review's skill did not land in generated/"
assert_eq agent "$(jq -r '.skills["flaky-test-triage"].created_by' "$home/skills/.usage.json")" "usage record"
run_skillrt --home "$home" --json pending approve "$proposal"
assert_exit 1

# What the review sent to the model.
first=$(head -n 1 "$UPSTREAM_LOG")
assert_eq "Bearer sk-from-dotenv" "$(json_get "$first" .headers.authorization)" "the key from HOME/.env"
assert_eq review-model "$(json_get "$first" .body.model)"
assert_eq '["skills_list","skill_view","skill_manage","read_file","search_files"]' \
  "$(json_get "$first" '[.body.tools[].function.name]')" "only the review's tools (no memory without a user)"
last_user=$(json_get "$first" '[.body.messages[] | select(.role == "user")] | last | .content')
assert_contains "$last_user" "Read before you write"
assert_contains "$last_user" "Other tools will be refused"
assert_eq "You are a coding agent." "$(json_get "$first" '.body.messages[0].content')" "the agent's system prompt first"
assert_eq 4 "$(wc -l <"$UPSTREAM_LOG" | tr -d ' ')" "requests made"
# Each later request carries the tool results of the one before.
assert_eq c1 "$(sed -n 2p "$UPSTREAM_LOG" | jq -r '[.body.messages[] | select(.role == "tool")] | last | .tool_call_id')"
