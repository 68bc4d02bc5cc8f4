#!/usr/bin/env bash
# `skillrt serve --upstream URL`: the OpenAI-compatible proxy, driven by the
# official openai client (review/proxy_openai_client.mjs) with skillrt tokens
# as API keys, in front of the scripted upstream. Answers come back as the
# upstream sent them (parsed and byte for byte, streamed tool-call deltas
# included), refused callers never reach the upstream, a 429 keeps its
# Retry-After, the upstream gets its own key and never a skillrt token, and
# two tool-calling iterations then a final answer (skills.creation_nudge_interval
# 2) start a background review that GET /api/v1/reviews lists. With the
# upstream gone, the client gets a 502.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
source "$here/review/upstream.sh"
require_node_tools
driver="$here/review/proxy_openai_client.mjs"

home=$(make_home)
"$NODE_BIN" "$driver" script "$E2E_TMP/script.json" || fail "cannot write the upstream's script"
start_upstream "$E2E_TMP/script.json"
# The review talks to the same upstream (auxiliary.background_review.base_url).
configure_review "$home" "skills:" "  creation_nudge_interval: 2"

run_skillrt --home "$home" --user alice --org org1 --json token create
agent=$(json_get "$RUN_OUT" '.bearer')
run_skillrt --home "$home" --user bob --org org1 --json token create
other=$(json_get "$RUN_OUT" '.bearer')

run_skillrt --home "$home" serve --listen 127.0.0.1:0 --upstream https://api.openai.com/v1
assert_exit 2
assert_contains "$RUN_ERR" "http://" "the usage error for an https upstream"

export UPSTREAM_E2E_KEY=sk-upstream-e2e
start_serve "$home" --threads 2 --upstream "$UPSTREAM_URL" --upstream-key-env UPSTREAM_E2E_KEY
trap 'stop_upstream; stop_serve' EXIT
grep -q "OpenAI-compatible proxy at ${SERVE_URL%/mcp}/v1" "$E2E_TMP/serve.err" ||
  fail "no proxy line on stderr: $(cat "$E2E_TMP/serve.err")"

export PROXY_URL="${SERVE_URL%/mcp}/v1" API_URL="${SERVE_URL%/mcp}/api/v1" UPSTREAM_URL UPSTREAM_LOG \
  UPSTREAM_KEY=$UPSTREAM_E2E_KEY AGENT_TOKEN=$agent OTHER_TOKEN=$other
timeout 120 "$NODE_BIN" "$driver" run || fail "the openai client checks failed (serve's stderr: $(cat "$E2E_TMP/serve.err"))"

# stop_upstream's `exec {fd}>&- 2>/dev/null` would leave stderr on /dev/null: keep it.
exec {stderr_copy}>&2
stop_upstream
exec 2>&"$stderr_copy"
timeout 60 "$NODE_BIN" "$driver" down || fail "the upstream-down check failed"

# serve is still healthy and stops cleanly (sanitizer reports would show in its stderr).
kill -TERM "$SERVE_PID"
wait "$SERVE_PID" || fail "serve exited with $?: $(cat "$E2E_TMP/serve.err")"
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/serve.err"; then
  fail "serve reported a sanitizer error: $(cat "$E2E_TMP/serve.err")"
fi
