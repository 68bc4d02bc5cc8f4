# shellcheck shell=bash
# Sourced after common.sh by the real-peer MCP scripts (mcp_sdk_*.sh,
# mcp_conformance.sh): finds the pinned Node 22 and the npm test tools
# (tests/tools, installed by scripts/npm-tools; the scripts never install).
# Without them the test is skipped, unless SKILLRT_REQUIRE_NODE_TOOLS=1
# (scripts/test sets it), which turns the skip into a failure.
#
#   require_node_tools      sets NODE_BIN and NODE_TOOLS (tests/tools/node_modules)
#   MCP_PEERS_DIR           this folder (the .mjs drivers)

# shellcheck disable=SC2034  # used by the scripts that source this file
MCP_PEERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

require_node_tools() {
  [[ -n "${SKILLRT_SOURCE_DIR:-}" ]] || fail "SKILLRT_SOURCE_DIR is not set (run through ctest, or export it)"
  local npm_tools="$SKILLRT_SOURCE_DIR/scripts/npm-tools"
  if ! "$npm_tools" --check; then
    if [[ "${SKILLRT_REQUIRE_NODE_TOOLS:-0}" == 1 ]]; then
      fail "SKILLRT_REQUIRE_NODE_TOOLS=1 but the pinned Node test tools are missing or out of date (run scripts/npm-tools)"
    fi
    skip "the pinned Node test tools are missing or out of date (run scripts/npm-tools)"
  fi
  NODE_BIN=$("$npm_tools" --node)
  # shellcheck disable=SC2034  # used by the scripts that source this file
  NODE_TOOLS="$SKILLRT_SOURCE_DIR/tests/tools/node_modules"
  [[ -x "$NODE_BIN" ]] || fail "npm-tools printed no runnable node: $NODE_BIN"
}
