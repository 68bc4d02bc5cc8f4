#!/usr/bin/env bash
# Real peer over Streamable HTTP: the official MCP TypeScript SDK client
# (@modelcontextprotocol/sdk, pinned in tests/tools) against `skillrt serve`
# with bearer tokens from `skillrt token create`: 401 without a valid token;
# every tool, a prompt, resources, the skills extension and list_changed for
# one user; a second user's token sees none of the first user's skills and
# gets none of the notifications their changes cause
# (tests/e2e/mcp/sdk_http.mjs holds the checks).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

code=0
timeout 180 "$NODE_BIN" "$MCP_PEERS_DIR/sdk_http.mjs" "$E2E_TMP" || code=$?
[[ $code == 124 ]] && fail "the SDK HTTP client did not finish within 180 s"
[[ $code == 0 ]] || fail "the SDK HTTP client reported a failure (exit $code, details above)"
