#!/usr/bin/env bash
# Real peer for the 2026-07-28 revision: the official MCP TypeScript SDK v2
# client (@modelcontextprotocol/client, pinned in tests/tools) and its
# SkillsClient against `skillrt serve` and `skillrt mcp`
# (tests/e2e/mcp/sdk2_peers.mjs holds the checks).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

code=0
timeout 180 "$NODE_BIN" "$MCP_PEERS_DIR/sdk2_peers.mjs" "$E2E_TMP" || code=$?
[[ $code == 124 ]] && fail "the v2 SDK client did not finish within 180 s"
[[ $code == 0 ]] || fail "the v2 SDK client reported a failure (exit $code, details above)"
