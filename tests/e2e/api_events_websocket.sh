#!/usr/bin/env bash
# /api/v1/events (issue 3/6 item 2): the live per-user push over WebSocket,
# driven by Node's own WebSocket client (api/events_websocket.mjs): a user's
# event reaches both of their sockets and never another user's; a shared
# event reaches everyone; numbers rise; ?since=N replays exactly what was
# missed and a number never issued is a resync; a revoked token's socket
# closes with 4001 within the revocation window; a plain GET is 426.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

home=$(make_home)
run_skillrt --home "$home" --user alice --org org1 --json token create
alice=$(json_get "$RUN_OUT" '.bearer')
run_skillrt --home "$home" --user bob --org org1 --json token create
bob=$(json_get "$RUN_OUT" '.bearer')
bob_id=$(json_get "$RUN_OUT" '.token.id')
run_skillrt --home "$home" --user root --org 0 --json token create
owner=$(json_get "$RUN_OUT" '.bearer')

start_serve "$home" --threads 2
export BASE_URL="${SERVE_URL%/mcp}" ALICE=$alice BOB=$bob OWNER=$owner BOB_TOKEN_ID=$bob_id
timeout 120 "$NODE_BIN" "$here/api/events_websocket.mjs" ||
  fail "the WebSocket checks failed (serve's stderr: $(tail -c 2000 "$E2E_TMP/serve.err"))"

kill -TERM "$SERVE_PID"
wait "$SERVE_PID" || fail "serve exited with $?: $(cat "$E2E_TMP/serve.err")"
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$E2E_TMP/serve.err"; then
  fail "serve reported a sanitizer error: $(cat "$E2E_TMP/serve.err")"
fi
