# shellcheck shell=bash
# Sourced after common.sh and mcp/peers.sh by the review scripts: runs the
# scripted OpenAI-compatible upstream (tests/support/scripted_upstream) on a
# script file and points a home's config at it.
#
#   start_upstream SCRIPT.json      sets UPSTREAM_PID, UPSTREAM_URL (http://127.0.0.1:PORT/v1), UPSTREAM_LOG
#   configure_review HOME [EXTRA YAML LINES...]   writes HOME/config.yaml for the review

start_upstream() {
  local script=$1
  local out="$E2E_TMP/upstream.out"
  UPSTREAM_LOG="$E2E_TMP/upstream-$RANDOM.jsonl"
  : >"$UPSTREAM_LOG"
  # The upstream exits when this fifo's writer (kept open below) goes away.
  mkfifo "$E2E_TMP/upstream.stdin.$$"
  "$NODE_BIN" "$SKILLRT_SOURCE_DIR/tests/support/scripted_upstream/scripted_upstream.mjs" \
    --script "$script" --log "$UPSTREAM_LOG" --exit-with-stdin <"$E2E_TMP/upstream.stdin.$$" >"$out" 2>"$E2E_TMP/upstream.err" &
  UPSTREAM_PID=$!
  exec {UPSTREAM_STDIN}>"$E2E_TMP/upstream.stdin.$$"
  rm -f "$E2E_TMP/upstream.stdin.$$"
  for _ in $(seq 1 100); do
    [[ -s "$out" ]] && break
    kill -0 "$UPSTREAM_PID" 2>/dev/null || fail "the scripted upstream exited early: $(cat "$E2E_TMP/upstream.err")"
    sleep 0.1
  done
  local port
  port=$(head -n 1 "$out")
  [[ "$port" =~ ^[0-9]+$ ]] || fail "the scripted upstream printed no port: [$port]"
  UPSTREAM_URL="http://127.0.0.1:$port/v1"
}

stop_upstream() {
  # A brace group: `exec {fd}>&- 2>/dev/null` alone would leave the script's
  # stderr on /dev/null for everything after it.
  { exec {UPSTREAM_STDIN}>&-; } 2>/dev/null || true
  kill -TERM "$UPSTREAM_PID" 2>/dev/null || true
  wait "$UPSTREAM_PID" 2>/dev/null || true
}

configure_review() {
  local home=$1
  shift
  {
    echo "auxiliary:"
    echo "  background_review:"
    echo "    base_url: $UPSTREAM_URL"
    echo "    model: review-model"
    echo "    api_key_env: REVIEW_TEST_KEY"
    for line in "$@"; do
      echo "$line"
    done
  } >"$home/config.yaml"
}
