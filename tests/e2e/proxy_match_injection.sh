#!/usr/bin/env bash
# `skills.match_injection` on `skillrt serve --upstream URL`: for the users it
# names, a proxied chat completion that begins a user turn reaches the
# upstream with the skills the user's message triggers appended to that
# message (string content or content parts); other users' requests and
# off-topic messages reach it exactly as sent. Driven by the official
# openai client (review/proxy_match_client.mjs) against the scripted upstream.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
source "$here/review/upstream.sh"
require_node_tools

home=$(make_home)
make_skill "$home/skills/security/web-pentest" web-pentest "Test a web app for vulnerabilities" \
  "triggers:" '  - "pentest [URL]"'
make_skill "$home/skills/music/songwriting" songwriting "Write songs" "triggers: [song lyrics]"
printf 'skills:\n  match_injection: [alice]\n' >"$home/config.yaml"

done_step='{"type":"completion","content":"Done."}'
printf '{"model":"gpt-test","steps":[%s,%s,%s,%s]}\n' "$done_step" "$done_step" "$done_step" "$done_step" \
  >"$E2E_TMP/script.json"
start_upstream "$E2E_TMP/script.json"

run_skillrt --home "$home" --user alice --json token create
alice=$(json_get "$RUN_OUT" '.bearer')
run_skillrt --home "$home" --user bob --json token create
bob=$(json_get "$RUN_OUT" '.bearer')

start_serve "$home" --threads 2 --upstream "$UPSTREAM_URL"
trap 'stop_upstream; stop_serve' EXIT

bodies=$(PROXY_URL="${SERVE_URL%/mcp}/v1" ALICE_TOKEN=$alice BOB_TOKEN=$bob UPSTREAM_LOG=$UPSTREAM_LOG \
  timeout 60 "$NODE_BIN" "$here/review/proxy_match_client.mjs") ||
  fail "the openai client run failed (serve's stderr: $(cat "$E2E_TMP/serve.err"))"
body() { sed -n "$1p" <<<"$bodies"; }
[[ $(wc -l <<<"$bodies") == 4 ]] || fail "the upstream saw $(wc -l <<<"$bodies") requests: $bodies"

note='[skillrt] Skills that match this message (load one with skill_view(name) before you act):'
assert_eq "Please pentest https://shop.example/login before Friday

$note
- web-pentest: Test a web app for vulnerabilities" "$(json_get "$(body 1)" '.messages[1].content')" "alice's text content"
assert_eq 'You are a careful assistant.' "$(json_get "$(body 1)" '.messages[0].content')" "system message kept"
assert_eq '["model","messages"]' "$(json_get "$(body 1)" 'keys_unsorted')" "body keys kept in order"
assert_eq "[{\"type\":\"text\",\"text\":\"Write the song lyrics for our launch\"},{\"type\":\"text\",\"text\":\"$note\\n- songwriting: Write songs\"}]" \
  "$(json_get "$(body 2)" '.messages[1].content')" "alice's content parts"
assert_eq 'Please pentest https://shop.example/login before Friday' \
  "$(json_get "$(body 3)" '.messages[1].content')" "bob did not opt in"
assert_eq 'What is the weather in Lisbon?' "$(json_get "$(body 4)" '.messages[1].content')" "off-topic: untouched"
