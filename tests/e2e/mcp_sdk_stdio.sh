#!/usr/bin/env bash
# Real peer over stdio: the official MCP TypeScript SDK client
# (@modelcontextprotocol/sdk, pinned in tests/tools) spawns `skillrt mcp` and
# uses every tool, a prompt, resources, the skills extension and the
# list_changed / resources/updated notifications that follow file changes on
# disk (tests/e2e/mcp/sdk_stdio.mjs holds the checks).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

code=0
timeout 180 "$NODE_BIN" "$MCP_PEERS_DIR/sdk_stdio.mjs" "$E2E_TMP" || code=$?
[[ $code == 124 ]] && fail "the SDK stdio client did not finish within 180 s"
[[ $code == 0 ]] || fail "the SDK stdio client reported a failure (exit $code, details above)"
