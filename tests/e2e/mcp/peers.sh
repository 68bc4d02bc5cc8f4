# shellcheck shell=bash
# Sourced after common.sh by the real-peer MCP scripts (mcp_sdk_*.sh,
# mcp_conformance.sh): finds the pinned Node 22 and the npm test tools
# (tests/tools, installed by scripts/npm-tools; the scripts never install).
# Without them the test is skipped, unless SKILLRT_REQUIRE_NODE_TOOLS=1
# (scripts/test sets it), which turns the skip into a failure.
#
#   require_node_tools      sets NODE_BIN and NODE_TOOLS (tests/tools/node_modules)
#   require_browser NAME    Chromium + playwright-core; sets CHROMIUM and SCREENSHOT_DIR
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

# require_browser NAME (after require_node_tools): Debian's Chromium and
# playwright-core, for the checks that drive a real browser; sets and exports
# CHROMIUM and SCREENSHOT_DIR (default build/<preset>/screenshots/NAME, next
# to the binary's preset folder), emptied of earlier screenshots.
require_browser() {
  CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
  [[ -x "$CHROMIUM" ]] ||
    fail "Chromium is missing at $CHROMIUM (scripts/bootstrap --test installs Debian's chromium package)"
  [[ -f "$NODE_TOOLS/playwright-core/index.mjs" ]] ||
    fail "playwright-core is missing from $NODE_TOOLS (run scripts/npm-tools)"
  if [[ -z "${SCREENSHOT_DIR:-}" ]]; then
    SCREENSHOT_DIR="$(cd "$(dirname "$SKILLRT_BIN")/../.." && pwd)/screenshots/$1"
  fi
  mkdir -p "$SCREENSHOT_DIR"
  rm -f "$SCREENSHOT_DIR"/*.png
  export CHROMIUM SCREENSHOT_DIR
}
