#!/usr/bin/env bash
# Setting up a skill's secrets over MCP: URL-mode elicitation to the setup
# page of `skillrt serve`, with the official v2 client (2026-07-28,
# input_required) and v1 client (2025-11-25, elicitation/create), the page
# driven in Debian's Chromium (tests/e2e/mcp/setup_elicitation.mjs holds the
# checks). Screenshots go to build/<preset>/screenshots/setup.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

require_browser setup

code=0
timeout 180 "$NODE_BIN" "$MCP_PEERS_DIR/setup_elicitation.mjs" "$E2E_TMP" || code=$?
[[ $code == 124 ]] && fail "the setup elicitation checks did not finish within 180 s"
[[ $code == 0 ]] || fail "the setup elicitation checks failed (exit $code, details above)"
