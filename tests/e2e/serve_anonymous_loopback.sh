#!/usr/bin/env bash
# `serve --allow-anonymous` on loopback: prints exactly the listening line,
# answers token-less MCP requests over HTTP (initialize → Mcp-Session-Id,
# tools/list), still refuses a bad token (401) and a foreign Host (403), and
# stops with exit 0 on SIGTERM. On a non-loopback address it is a usage error.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v curl >/dev/null 2>&1 || skip "curl is required"

home=$(make_home)
make_skill "$home/skills/devops/deploy" deploy "Ship the service"

# Refused before anything listens.
run_skillrt --home "$home" serve --listen 0.0.0.0:0 --allow-anonymous
assert_exit 2
assert_contains "$RUN_ERR" "loopback"
run_skillrt --home "$home" serve --listen nonsense
assert_exit 2
run_skillrt --home "$home" serve --listen 127.0.0.1:99999
assert_exit 2

start_serve "$home" --allow-anonymous
url=$SERVE_URL
pid=$SERVE_PID
port=${url#http://127.0.0.1:}
port=${port%/mcp}

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}'

mcp_post "$init"
assert_eq 200 "$STATUS" "initialize status"
session=$(printf '%s\n' "$HEADERS" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
[[ "$session" =~ ^[0-9a-f]{32}$ ]] || fail "session id: [$session]"
assert_eq 2.0 "$(json_get "$BODY" '.jsonrpc')" "jsonrpc"
assert_eq 2025-11-25 "$(json_get "$BODY" '.result.protocolVersion')" "protocolVersion"

mcp_post '{"jsonrpc":"2.0","method":"notifications/initialized"}' -H "Mcp-Session-Id: $session"
assert_eq 202 "$STATUS" "notification status"

mcp_post '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill_view","arguments":{"name":"deploy"}}}' \
  -H "Mcp-Session-Id: $session"
assert_eq 200 "$STATUS" "tools/call status"
assert_eq false "$(json_get "$BODY" '.result.isError')" "isError"
assert_contains "$BODY" "Ship the service" "skill_view result"

mcp_post "$init" -H 'Authorization: Bearer skrt_not_a_token'
assert_eq 401 "$STATUS" "bad token"
mcp_post "$init" -H 'Host: evil.example.com' -H 'Origin: http://evil.example.com'
assert_eq 403 "$STATUS" "foreign Host"
mcp_post "$init" -H "Origin: http://localhost:$port"
assert_eq 200 "$STATUS" "loopback Origin"

# Over the 4 MiB body limit: 413, whether or not curl waits for 100-continue.
head -c 5000000 /dev/zero | tr '\0' ' ' >"$E2E_TMP/big.json"
for expect in 'Expect: 100-continue' 'Expect:'; do
  status=$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$url" -H 'Content-Type: application/json' \
    -H "$expect" -H "Mcp-Session-Id: $session" --data-binary @"$E2E_TMP/big.json" || true)
  assert_eq 413 "$status" "oversized body ($expect)"
done

status=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$url" -H "Mcp-Session-Id: $session")
assert_eq 200 "$status" "DELETE"
mcp_post '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' -H "Mcp-Session-Id: $session"
assert_eq 404 "$STATUS" "deleted session"

kill -TERM "$pid"
code=0
wait "$pid" || code=$?
assert_eq 0 "$code" "exit code after SIGTERM"
assert_eq 1 "$(wc -l <"$E2E_TMP/serve.out" | tr -d ' ')" "lines on stdout"
