#!/usr/bin/env bash
# Replicas over one PostgreSQL (issue 4/6): three `skillrt serve` processes on
# one shared HOME and one database of their own, with real clients (the
# official MCP SDK, Node's WebSocket): a write on one replica reaches the
# others' clients within 1 s with the change log's numbers; users stay apart;
# an edit made straight on the volume is found by the sweep; kill -9 of a
# replica loses no acknowledged write; a PostgreSQL restart under load loses
# no event; a replica started late catches up (replicas/replicas.mjs).
#
# The test runs its own throw-away cluster (scripts/pg-test-cluster with a
# state file of its own), because it restarts it: the suite's shared cluster
# must not go down under the other tests.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
source "$here/mcp/peers.sh"
require_node_tools

pg_bin=${SKILLRT_PG_BIN:-/usr/lib/postgresql/15/bin}
if [[ ! -x $pg_bin/initdb ]] || ! command -v psql >/dev/null; then
  [[ "${SKILLRT_REQUIRE_PG:-0}" == 1 ]] && fail "SKILLRT_REQUIRE_PG=1 but the PostgreSQL server or psql is missing"
  skip "the PostgreSQL server binaries or psql are missing (scripts/bootstrap --test)"
fi

export SKILLRT_PG_STATE="$E2E_TMP/pg-cluster.state"
stop_cluster() {
  local rc=$?
  "$SKILLRT_SOURCE_DIR/scripts/pg-test-cluster" stop >/dev/null 2>&1 || true
  set +e
  (exit "$rc")
  e2e_cleanup
}
trap stop_cluster EXIT
url=$("$SKILLRT_SOURCE_DIR/scripts/pg-test-cluster" start) || fail "could not start the test's own PostgreSQL cluster"

home=$(make_home)
printf 'database:\n  url: "%s"\n' "$url" >"$home/config.yaml"

export HOME_DIR=$home PG_URL=$url PG_CLUSTER="$SKILLRT_SOURCE_DIR/scripts/pg-test-cluster" \
  CONFORMANCE="$NODE_TOOLS/@modelcontextprotocol/conformance/dist/index.js"
timeout 240 "$NODE_BIN" "$here/replicas/replicas.mjs" || fail "the replica checks failed (output above)"
