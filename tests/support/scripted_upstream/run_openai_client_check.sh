#!/usr/bin/env bash
# ctest's entry to check_with_openai_client.mjs (tests/unit/llm/CMakeLists.txt):
# runs it with the pinned Node 22 and the official openai client from
# tests/tools (installed by scripts/npm-tools; this script never installs).
# Exit 77 (skip) when they are missing, unless SKILLRT_REQUIRE_NODE_TOOLS=1
# (scripts/test sets it), which makes that a failure, as for the MCP SDK tests.
#
#   run_openai_client_check.sh SOURCE_DIR
set -uo pipefail
root=${1:?usage: run_openai_client_check.sh SOURCE_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

missing() {
  if [[ "${SKILLRT_REQUIRE_NODE_TOOLS:-0}" == 1 ]]; then
    echo "FAIL: SKILLRT_REQUIRE_NODE_TOOLS=1 but $1 (run scripts/npm-tools)" >&2
    exit 1
  fi
  echo "SKIP: $1 (run scripts/npm-tools)" >&2
  exit 77
}

"$root/scripts/npm-tools" --check || missing "the pinned Node test tools are missing or out of date"
node=$("$root/scripts/npm-tools" --node)
[[ -f "$root/tests/tools/node_modules/openai/index.mjs" ]] || missing "the openai package is not in tests/tools/node_modules"

code=0
timeout 120 "$node" "$here/check_with_openai_client.mjs" || code=$?
[[ $code == 124 ]] && { echo "FAIL: the openai client check did not finish within 120 s" >&2; exit 1; }
exit "$code"
